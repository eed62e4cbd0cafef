import os

import pytest

from benchlab.project import ROOT
from benchlab.run.provision import drivers
from benchlab.scenarios import SCENARIOS
from benchlab.scenarios.article_001 import PINNING_DRIVER, SHIPPED_DRIVER


def packaged(root, app_dir, version, app_jar_mtime=None):
    lib = root / app_dir / "lib" / "main"
    lib.mkdir(parents=True)
    (lib / f"com.mysql.mysql-connector-j-{version}.jar").write_bytes(b"")
    (root / app_dir / "app").mkdir()
    jar = root / app_dir / "app" / "lab.jar"
    jar.write_bytes(b"")
    if app_jar_mtime is not None:
        os.utime(jar, (app_jar_mtime, app_jar_mtime))


def test_the_shipped_driver_is_the_poms_and_article_001_compares_it_with_the_pinning_one():
    assert drivers.shipped_version(ROOT) == SHIPPED_DRIVER
    assert [v.driver for v in SCENARIOS["article-001"].variants] == [PINNING_DRIVER, SHIPPED_DRIVER]


def test_the_version_is_read_from_the_packaged_jar(tmp_path):
    packaged(tmp_path, "target/quarkus-app", "9.5.0")
    assert drivers.packaged_version(str(tmp_path), "target/quarkus-app") == "9.5.0"
    assert drivers.packaged_version(str(tmp_path), "target/elsewhere") is None


def test_the_shipped_build_serves_its_own_version_without_a_build(tmp_path, monkeypatch):
    packaged(tmp_path, "target/quarkus-app", "9.5.0")
    monkeypatch.setattr(drivers, "run_checked", lambda *a, **k: pytest.fail("no build expected"))
    assert drivers.prepare(str(tmp_path), "9.5.0", str(tmp_path)) == drivers.SHIPPED_APP


def test_another_version_is_packaged_beside_it_and_checked(tmp_path, monkeypatch):
    packaged(tmp_path, "target/quarkus-app", "9.5.0")
    built = []

    def build(argv, log_path, **kwargs):
        built.append(argv)
        packaged(tmp_path, "target/connector-j-8.3.0", "8.3.0")

    monkeypatch.setattr(drivers, "run_checked", build)
    assert drivers.prepare(str(tmp_path), "8.3.0", str(tmp_path)) == "target/connector-j-8.3.0"
    assert "-Dmysql-connector-j.version=8.3.0" in built[0]
    assert "-Dquarkus.package.output-directory=connector-j-8.3.0" in built[0]
    # up to date: no second build
    assert drivers.prepare(str(tmp_path), "8.3.0", str(tmp_path)) == "target/connector-j-8.3.0" and len(built) == 1


def test_a_driver_build_older_than_the_shipped_one_is_packaged_again(tmp_path, monkeypatch):
    packaged(tmp_path, "target/quarkus-app", "9.5.0")
    packaged(tmp_path, "target/connector-j-8.3.0", "8.3.0", app_jar_mtime=1_000_000)
    built = []
    monkeypatch.setattr(drivers, "run_checked", lambda argv, *a, **k: built.append(argv))
    drivers.prepare(str(tmp_path), "8.3.0", str(tmp_path))
    assert len(built) == 1


def test_a_build_that_did_not_package_the_version_is_refused_in_one_line(tmp_path, monkeypatch):
    packaged(tmp_path, "target/quarkus-app", "9.5.0")
    monkeypatch.setattr(drivers, "run_checked", lambda *a, **k: None)
    with pytest.raises(RuntimeError, match="holds Connector/J None, not 8.3.0"):
        drivers.prepare(str(tmp_path), "8.3.0", str(tmp_path))
