"""Plan: what to run, in which order, and how long it takes; the capacity search's next step."""
