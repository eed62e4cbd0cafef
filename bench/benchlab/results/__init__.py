"""Results: the tidy tables a run writes and what is computed from them alone (windows, capacity at the SLO, differences with their intervals, what saturated)."""
