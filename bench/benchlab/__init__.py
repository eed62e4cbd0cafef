"""Quarkus Concurrency Lab benchmark: orchestration (cli), processes, runtimes, k6, sampling, report."""
