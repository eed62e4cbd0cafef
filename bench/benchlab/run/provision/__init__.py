"""Provisioning: what runs and how it is started. The machine and the JDK as results.json states them (machine, jvm),
the runtimes by name (runtimes: host and containers), the app packaged with another driver (drivers), the services
beside the app and the app's life cycle (services, app), how the bench asks the app whether it is up (health), and
--pin (pinning)."""
