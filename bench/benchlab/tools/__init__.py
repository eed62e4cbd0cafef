"""Command-line tools beside bench/run that run without the bench's venv: standard library only, importing nothing of
benchlab but its neutral modules (project, formatting). bench/startup runs tools/startup.py."""
