"""Provisioning: what runs and how it starts. The machine and JDK (machine, jvm), the runtimes (runtimes: host,
containers), the app with another driver (drivers), the services and the app's life cycle (services, app), how the
bench asks the app (health), its CPU budget and CPU set (budget)."""
