"""Run: the measured part, driven by runner.py block by block. provision/ makes what runs (the machine's facts, the
JDKs and runtimes, the packaged apps, the services beside the app, the app's life cycle, CPU pinning); measure/
measures it (k6, the sampler, a measured run, a block's warm-up, ladder and searches, pins, flame graphs, the
database's point-select rate). state.py is what they share, procs.py their process groups, probe.py where a process'
figures are read. Measuring may use what is provisioned, never the other way round (bench/.importlinter)."""
