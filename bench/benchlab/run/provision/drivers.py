"""The MySQL JDBC driver as a dimension: the app packaged with another Connector/J version, by the same Maven build
with pom.xml's mysql-connector-j.version, into target/connector-j-VERSION beside target/quarkus-app. The version is
read back from the packaged jar's name."""
from __future__ import annotations

import glob
import os
import re

from benchlab.run.procs import log, run_checked

SHIPPED_APP = os.path.join("target", "quarkus-app")
DRIVER_JAR = "com.mysql.mysql-connector-j-*.jar"  # the packaged layout's name for the driver's jar


def packaged_version(root: str, app_dir: str) -> str | None:
    """The Connector/J version a packaged app holds, from lib/main's jar name; None if there is none."""
    jars = glob.glob(os.path.join(root, app_dir, "lib", "main", DRIVER_JAR))
    m = re.search(r"mysql-connector-j-(.+)\.jar$", jars[0]) if len(jars) == 1 else None
    return m.group(1) if m else None


def shipped_version(root: str) -> str:
    """pom.xml's mysql-connector-j.version: the driver the app is built with by default."""
    with open(os.path.join(root, "pom.xml")) as f:
        m = re.search(r"<mysql-connector-j\.version>([^<]+)</mysql-connector-j\.version>", f.read())
    if not m:
        raise RuntimeError("pom.xml has no mysql-connector-j.version property")
    return m.group(1).strip()


def app_dir_of(version: str) -> str:
    return os.path.join("target", f"connector-j-{version}")


def stale(root: str, app_dir: str) -> bool:
    """A driver build older than the shipped build was packaged from older code."""
    ours = glob.glob(os.path.join(root, app_dir, "app", "*.jar"))
    shipped = glob.glob(os.path.join(root, SHIPPED_APP, "app", "*.jar"))
    return not ours or (bool(shipped) and os.path.getmtime(ours[0]) < os.path.getmtime(shipped[0]))


def build_command(root: str, version: str) -> list[str]:
    # quarkus.package.output-directory is where quarkus-run.jar and its lib/ go, relative to target/
    return [os.path.join(root, "mvnw"), "-B", "-q", "package", "-DskipTests", f"-Dmysql-connector-j.version={version}",
            f"-Dquarkus.package.output-directory={os.path.basename(app_dir_of(version))}"]


def prepare(root: str, version: str, logs: str, rebuild: bool = False) -> str:
    """The app directory (relative to root) of a build with that driver: the shipped one if it holds that version,
    else target/connector-j-VERSION, packaged now if missing, stale or asked to (--rebuild)."""
    if packaged_version(root, SHIPPED_APP) == version:
        return SHIPPED_APP
    app_dir = app_dir_of(version)
    if rebuild or stale(root, app_dir) or packaged_version(root, app_dir) != version:
        log(f"packaging the app with MySQL Connector/J {version} into {app_dir} (about 30 s; a first download of "
            f"that driver from Maven Central before)")
        run_checked(build_command(root, version), os.path.join(logs, f"build-connector-j-{version}.log"),
                    timeout=1800, cwd=root, what=f"Maven build with Connector/J {version}")
    found = packaged_version(root, app_dir)
    if found != version:
        raise RuntimeError(f"{app_dir} holds Connector/J {found}, not {version}: see logs/build-connector-j-{version}.log")
    return app_dir
