import os
import sys

# The tests import benchlab from bench/, as bench/run does.
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
DATA = os.path.join(os.path.dirname(__file__), "data")
BENCH = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def environment(**facts):
    """results.json's environment with these facts, read back as the report reads it."""
    from benchlab.results.environment import Environment
    return Environment.from_json(facts)


def make_config(**overrides):
    """A real Config, the quick preset's, with these fields replaced (what cli.parse_args would have built)."""
    import dataclasses
    from benchlab import cli
    return dataclasses.replace(cli.parse_args(["--quick"]), **overrides)
