"""Results: the tidy tables a run writes, and what is computed from them alone: per-second windows, capacity at the
SLO, differences with their intervals, which resource saturated first."""
