import base64
import hashlib
import hmac
import json

from benchlab import formatting, project
from benchlab.tools import startup


def decode(part):
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_token_has_the_claims_article_001_issues_and_a_valid_hs256_signature():
    token = startup.hs256_token("s3cret", "user1@example.com", now=1000, lifetime_s=60)
    header, claims, signature = token.split(".")
    assert decode(header) == {"alg": "HS256", "typ": "JWT"}
    assert decode(claims) == {"email": "user1@example.com", "iss": project.ISSUER, "iat": 1000, "exp": 1060}
    expected = hmac.new(b"s3cret", f"{header}.{claims}".encode(), hashlib.sha256).digest()
    assert base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)) == expected
    assert "=" not in token


def test_summary_gives_median_and_range_and_says_when_nothing_was_measured():
    assert formatting.summary([3.0, 1.0, 2.0, 5.0, 4.0]) == {"n": 5, "median": 3.0, "min": 1.0, "max": 5.0}
    assert formatting.summary([1.0, 2.0])["median"] == 1.5
    assert formatting.describe(formatting.summary([2.5, 2.25, 2.75])) == "2.50 s (2.25-2.75, n=3)"
    assert formatting.describe(formatting.summary([])) == "not measured"


def test_started_in_reads_the_last_quarkus_start_line():
    log = ("INFO  [io.quarkus] (main) concurrency-lab 1.0.0-SNAPSHOT on JVM (powered by Quarkus 3.30.6) started in "
           "2.871s. Listening on: http://127.0.0.1:20100\n")
    assert project.started_in(log) == 2.871
    assert project.started_in("no such line") is None


def test_aot_runs_the_jar_from_its_directory_with_the_cache_before_the_jar():
    argv = startup.jvm_command("/jdk/bin/java", ["-XX:+UseSerialGC"], {"quarkus.http.port": 20100}, aot=True)
    assert argv == ["/jdk/bin/java", "-XX:+UseSerialGC", "-XX:AOTCache=app.aot", "-XX:AOTMode=on",
                    "-Dquarkus.http.port=20100",
                    "-jar", "quarkus-run.jar"]
    assert "-XX:AOTCache=app.aot" not in startup.jvm_command("java", [], {}, aot=False)
