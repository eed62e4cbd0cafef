"""Run: the measured part, driven by runner.py block by block. provision/ makes what runs, measure/ measures it (never
the other way round: bench/.importlinter); state.py is what they share, procs.py their process groups, probe.py
where a process' figures are read."""
