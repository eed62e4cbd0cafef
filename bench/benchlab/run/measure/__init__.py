"""Measuring what provision/ started: k6 (k6tool), the sampler beside it (sampler), one measured run reduced to a row
(k6runs), a block's warm-up, ladder and capacity searches (steps), pinned virtual threads per run (pinned), flame
graphs (profiler) and the database's point-select rate (point_select)."""
