import os
import sys

# The tests import benchlab from bench/, as bench/run does.
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
DATA = os.path.join(os.path.dirname(__file__), "data")
BENCH = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
