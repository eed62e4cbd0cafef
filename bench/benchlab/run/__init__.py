"""Run: the processes (database, services, the app on each runtime, k6), the app's life cycle, and the measurement
of each planned run."""
