"""bench/benchlab's import contracts (bench/.importlinter, checked by import-linter): every module imports only from
the layers beneath its own, no package's modules import each other in a circle, and bench/startup's tool and the
neutral modules need nothing outside the standard library. The contracts are also shown to fail: a copy of benchlab
with one import that runs back up, or one circle, breaks them."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import BENCH

CONFIG = os.path.join(BENCH, ".importlinter")
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))")


def lint(bench_dir: str) -> subprocess.CompletedProcess:
    """import-linter over the benchlab package in bench_dir, in a process of its own (it imports nothing of it)."""
    return subprocess.run([sys.executable, "-c", LINT, CONFIG], cwd=bench_dir, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=bench_dir), timeout=120)


def test_benchlab_keeps_every_import_contract():
    result = lint(BENCH)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("module, added, broken", [
    ("model.py", "from benchlab.report import layout  # runs back up\n", "downward only"),
    ("results/slo.py", "from benchlab.results import why  # a circle with why.py\n", "no circles"),
    ("tools/startup.py", "import pandas  # not in the standard library\n", "without the venv"),
], ids=["upward", "circle", "third-party"])
def test_an_import_that_breaks_a_contract_fails_the_check(tmp_path, module, added, broken):
    shutil.copytree(os.path.join(BENCH, "benchlab"), tmp_path / "benchlab",
                    ignore=shutil.ignore_patterns("__pycache__"))
    if broken == "no circles":
        with open(tmp_path / "benchlab" / "results" / "why.py", "a") as f:
            f.write("from benchlab.results import slo  # the other half of the circle\n")
    with open(tmp_path / "benchlab" / module, "a") as f:
        f.write(added)
    result = lint(str(tmp_path))
    assert result.returncode != 0
    assert broken in result.stdout.partition("Broken contracts")[2], result.stdout
