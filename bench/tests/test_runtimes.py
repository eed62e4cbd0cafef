import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchlab.model import Jdk, RuntimeSpec
from benchlab.run.provision import runtimes


def jdk(tmp_path, version):
    home = tmp_path / "jdk"
    home.mkdir()
    (home / "release").write_text(f'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="{version}"\n')
    return str(home)


def packaged(tmp_path, *files):
    """target/quarkus-app with the given files, written in that order one second apart (oldest first)."""
    d = tmp_path / "target" / "quarkus-app"
    for i, name in enumerate(files):
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_text("")
        os.utime(d / name, (1_000_000 + i, 1_000_000 + i))
    return str(tmp_path)


def test_jvm_aot_is_a_runtime_beside_the_others():
    assert list(runtimes.RUNTIMES) == ["jvm", "jvm-aot", "native", "container-jvm", "container-native"]


def test_jvm_aot_starts_the_jar_from_its_directory_with_the_cache():
    rt = runtimes.make(RuntimeSpec("jvm-aot"), {"jvm_args": ["-Xmx1g"]})
    argv = rt.command("/repo", "/jdk", 19100, {"quarkus.http.port": 19100})
    assert argv == ["/jdk/bin/java", "-Xmx1g", "-XX:AOTCache=app.aot", "-XX:AOTMode=on", "-Dquarkus.http.port=19100",
                    "-jar", "quarkus-run.jar"]
    assert rt.app_dir("/repo") == "/repo/target/quarkus-app"
    assert rt.describe("/repo", "/jdk") == ("jvm-aot: cd target/quarkus-app && /jdk/bin/java -Xmx1g "
                                             "-XX:AOTCache=app.aot -XX:AOTMode=on -jar quarkus-run.jar")


def test_jvm_aot_starts_in_target_quarkus_app():
    started = {}

    class Pm:
        def start(self, name, argv, log_path, env=None, cwd=None, before_exec=None):
            started.update(name=name, cwd=cwd, jar=argv[-1])

    runtimes.make(RuntimeSpec("jvm-aot")).start(Pm(), "/repo", "/jdk", 19100, {}, {}, "/tmp/app.log")
    assert started == {"name": "app (jvm-aot)", "cwd": "/repo/target/quarkus-app", "jar": "quarkus-run.jar"}


def test_the_plain_jvm_keeps_its_absolute_jar_and_the_repository_as_directory():
    argv = runtimes.make(RuntimeSpec("jvm")).command("/repo", "/jdk", 19100, {})
    assert argv == ["/jdk/bin/java", "-jar", "/repo/target/quarkus-app/quarkus-run.jar"]


def test_jvm_aot_needs_the_cache_and_says_how_to_build_it(tmp_path):
    root = packaged(tmp_path, "quarkus-run.jar")
    with pytest.raises(RuntimeError, match=r"app\.aot, the AOT cache .* is missing: build both with \./mvnw verify -Daot"):
        runtimes.make(RuntimeSpec("jvm-aot")).check(root, jdk(tmp_path, "25.0.1"))
    assert "is missing" in runtimes.JvmAotRuntime.cache_problem(root)  # which the bench trains when it runs jvm-aot


def test_a_cache_older_than_the_app_is_refused(tmp_path):
    root = packaged(tmp_path, "quarkus-run.jar", "app.aot", "app/concurrency-lab-1.0.0-SNAPSHOT.jar")
    with pytest.raises(RuntimeError, match=r"app\.aot is older than target/quarkus-app/app/concurrency-lab-1\.0\.0-"
                                           r"SNAPSHOT\.jar .*build both with \./mvnw verify -Daot"):
        runtimes.make(RuntimeSpec("jvm-aot")).check(root, jdk(tmp_path, "25"))


def test_a_cache_trained_after_packaging_passes(tmp_path):
    root = packaged(tmp_path, "lib/main/a.jar", "quarkus/quarkus-application.dat", "quarkus-run.jar", "app.aot")
    runtimes.make(RuntimeSpec("jvm-aot")).check(root, jdk(tmp_path, "25.0.1"))
    assert runtimes.JvmAotRuntime.cache_problem(root) is None


@pytest.mark.parametrize("version", ["21.0.5", "24"])
def test_a_jdk_before_25_is_not_supported(tmp_path, version):
    root = packaged(tmp_path, "quarkus-run.jar", "app.aot")
    with pytest.raises(RuntimeError, match=rf"needs a JDK 25 or newer .* is JDK {version.split('.')[0]}: not supported"):
        runtimes.make(RuntimeSpec("jvm-aot")).check(root, jdk(tmp_path, version))


def test_the_jvm_reporting_an_unusable_cache_is_a_start_warning(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("[0.011s][error][aot] An error has occurred while processing the AOT cache. Run with -Xlog:aot for "
                   "details.\n[0.011s][info][gc] Using G1\n"
                   "INFO  [io.quarkus] (main) concurrency-lab started in 1.2s.\n")
    app = SimpleNamespace(log_path=str(log))
    assert runtimes.make(RuntimeSpec("jvm-aot")).start_warnings(app) == [
        "An error has occurred while processing the AOT cache. Run with -Xlog:aot for details."]
    assert runtimes.make(RuntimeSpec("jvm")).start_warnings(app) == []


def test_only_the_plain_jvm_records_jfr_because_the_aot_cache_refuses_the_jfr_module():
    assert runtimes.make(RuntimeSpec("jvm"), {}).records_jfr
    assert not runtimes.make(RuntimeSpec("jvm-aot"), {}).records_jfr


def java_executable(home):
    (Path(home) / "bin").mkdir()
    (Path(home) / "bin" / "java").write_text("#!/bin/sh\n")
    os.chmod(Path(home) / "bin" / "java", 0o755)
    return home


def test_each_jdk_is_a_runtime_of_its_own_named_after_its_feature_version(tmp_path):
    from benchlab import cli
    home = java_executable(jdk(tmp_path, "21.0.8"))
    args = cli.parse_args(["--quick", "--jdk", f"{home},25", "--runtime", "jvm,jvm-aot"])
    assert args.runtime_names == ("jvm-jdk21", "jvm-aot-jdk21", "jvm-jdk25", "jvm-aot-jdk25")
    rt = runtimes.make(args.runtime("jvm-jdk21"), {})
    assert (rt.name, rt.java_home) == ("jvm-jdk21", home) and isinstance(rt, runtimes.JvmRuntime)
    assert rt.command("/repo", rt.java_home, 19100, {})[0] == f"{home}/bin/java"


def test_jvm_aot_on_a_jdk_before_25_is_refused_as_on_the_benchs_own(tmp_path):
    home = java_executable(jdk(tmp_path, "21.0.8"))
    rt = runtimes.make(RuntimeSpec("jvm-aot", jdk=Jdk(21, home)), {})
    with pytest.raises(RuntimeError, match="needs a JDK 25 or newer"):
        rt.check(packaged(tmp_path / "repo", "quarkus-run.jar", "app.aot"), rt.java_home)


@pytest.mark.parametrize("argv", [["--jdk", "21", "--runtime", "container-jvm"], ["--jdk", "/nowhere"],
                                  ["--jdk", "21", "--target", "http://10.0.0.5:8080"]])
def test_a_jdk_the_bench_cannot_run_is_refused_in_one_line(argv, capsys):
    from benchlab import cli
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", *argv])
    assert "--jdk" in capsys.readouterr().err
