#!/usr/bin/env bash
# Builds a JVM base image for the app without pulling anything from a container registry:
#   * a Debian bookworm root file system made with debootstrap (variant minbase) from a Debian mirror,
#   * a Java runtime cut from the local JDK with jlink (only the modules a Quarkus app like this needs),
# imports it into podman and, optionally, pushes it to a registry (for instance the Debian
# `docker-registry` package listening on 127.0.0.1:5000) so that Jib can use it as its base image.
#
# Usage (as root: debootstrap and rootful podman need it):
#   deploy/images/build-base-image.sh
# Environment (all optional):
#   BASE_IMAGE   name given to the image in podman          (default localhost/concurrency-lab/jvm-base:25)
#   PUSH_TO      registry image to push to, e.g. 127.0.0.1:5000/concurrency-lab/jvm-base:25 (default: no push)
#   PUSH_TLS_VERIFY  false for a plain-HTTP local registry  (default false)
#   JDK_HOME     JDK whose jlink and modules are used       (default: $JAVA_HOME if >= 21, else Temurin 25)
#   JRE_MODULES  comma-separated module list                (default: see below)
#   MIRROR       Debian mirror for debootstrap              (default http://deb.debian.org/debian)
#   SUITE        Debian release                             (default bookworm)
#   WORK_DIR     scratch directory, kept as a cache of the debootstrap result
#                                                           (default /var/tmp/concurrency-lab-base-image)
#   REBUILD_ROOTFS=1  ignore the cached root file system
#   CONTAINERS_CONF   podman settings; defaults to deploy/podman/containers.conf of this checkout
#
# The image: /opt/java (the jlinked JRE) on PATH, JAVA_HOME set, user 185 (the uid Quarkus images use),
# working directory /deployments owned by it, UTF-8 locale defaults. No package manager caches, no docs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

BASE_IMAGE="${BASE_IMAGE:-localhost/concurrency-lab/jvm-base:25}"
PUSH_TO="${PUSH_TO:-}"
PUSH_TLS_VERIFY="${PUSH_TLS_VERIFY:-false}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
SUITE="${SUITE:-bookworm}"
WORK_DIR="${WORK_DIR:-/var/tmp/concurrency-lab-base-image}"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$repo/deploy/podman/containers.conf}"

# What a Quarkus REST + Hibernate ORM/Reactive + MySQL driver + Micrometer app uses from the JDK:
#   java.base, java.logging (JUL bridge), java.management + jdk.management (JVM/process metrics),
#   java.naming (JDBC driver, Agroal), java.sql, java.transaction.xa + java.rmi (Narayana, Agroal),
#   java.xml (Hibernate mapping parsers), java.desktop (java.beans, used by Hibernate and Jackson),
#   java.security.sasl + java.security.jgss (MySQL authentication plugins), jdk.unsupported (Netty,
#   sun.misc.Unsafe), jdk.zipfs (jars read as file systems), jdk.naming.dns (JNDI DNS look-ups).
# The app's start in this image is verified by deploy/images/jib-smoke.sh.
JRE_MODULES="${JRE_MODULES:-java.base,java.logging,java.management,jdk.management,java.naming,java.sql,java.transaction.xa,java.rmi,java.xml,java.desktop,java.security.sasl,java.security.jgss,jdk.unsupported,jdk.zipfs,jdk.naming.dns}"

log() { printf '[base-image %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

find_jdk() {
  local candidate
  for candidate in "${JDK_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64 \
      /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/jlink" ] || continue
    local version
    version="$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
    if [ "${version%%.*}" -ge 21 ] 2>/dev/null; then echo "$candidate"; return 0; fi
  done
  return 1
}

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and rootful podman)"
for tool in debootstrap podman tar; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install -y debootstrap podman)"
done
jdk="$(find_jdk)" || die "no JDK >= 21 with jlink found; set JDK_HOME"
log "JDK: $jdk"

mkdir -p "$WORK_DIR"
rootfs="$WORK_DIR/rootfs-$SUITE"
staging="$WORK_DIR/staging"

# 1. Debian root file system (cached: debootstrap is the slow step).
if [ -n "${REBUILD_ROOTFS:-}" ] || [ ! -f "$rootfs/.complete" ]; then
  rm -rf "$rootfs"
  log "debootstrap --variant=minbase $SUITE from $MIRROR"
  start=$(date +%s)
  debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$rootfs" "$MIRROR" >"$WORK_DIR/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK_DIR/debootstrap.log" >&2; die "debootstrap failed (log: $WORK_DIR/debootstrap.log)"; }
  touch "$rootfs/.complete"
  log "debootstrap took $(( $(date +%s) - start )) s"
else
  log "reusing cached root file system $rootfs (REBUILD_ROOTFS=1 to redo it)"
fi

# 2. Staging copy: the cache stays pristine, the image gets a trimmed tree plus the JRE and the app user.
rm -rf "$staging"
mkdir -p "$staging"
tar -C "$rootfs" --exclude=./.complete -cf - . | tar -C "$staging" -xf -
rm -rf "$staging"/var/cache/apt/* "$staging"/var/lib/apt/lists/* "$staging"/usr/share/doc/* \
  "$staging"/usr/share/man/* "$staging"/usr/share/info/* "$staging"/var/log/*

log "jlink: $JRE_MODULES"
"$jdk/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-6 --output "$staging/opt/java"
# (Output captured first: a reader that stops early would make the writer fail under pipefail.)
jre_version="$("$staging/opt/java/bin/java" -version 2>&1)"
log "JRE: ${jre_version%%$'\n'*}"

# The user Quarkus images run as (uid 185), and the directory the app goes to.
echo 'quarkus:x:185:0:Quarkus:/deployments:/usr/sbin/nologin' >>"$staging/etc/passwd"
echo 'quarkus:*:19000:0:99999:7:::' >>"$staging/etc/shadow"
mkdir -p "$staging/deployments"
chown 185:0 "$staging/deployments"
chmod 775 "$staging/deployments"

# 3. Import into podman with the image configuration.
log "podman import as $BASE_IMAGE"
previous_id="$(podman image inspect --format '{{.Id}}' "$BASE_IMAGE" 2>/dev/null || true)"
tar -C "$staging" --numeric-owner -cf - . | podman import \
  --change 'ENV JAVA_HOME=/opt/java' \
  --change 'ENV PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'USER 185' \
  --change 'WORKDIR /deployments' \
  --change 'CMD ["java", "-version"]' \
  --change "LABEL org.opencontainers.image.description=Debian $SUITE minbase + jlinked JRE from $(basename "$jdk")" \
  - "$BASE_IMAGE" >/dev/null
rm -rf "$staging"
# The image this one replaces is left untagged: remove it unless a container still uses it.
if [ -n "$previous_id" ] && [ "$previous_id" != "$(podman image inspect --format '{{.Id}}' "$BASE_IMAGE")" ]; then
  podman rmi "$previous_id" >/dev/null 2>&1 || true
fi
image_java="$(podman run --rm "$BASE_IMAGE" java -version 2>&1)" || die "java does not run in the image: $image_java"
log "in the image: ${image_java%%$'\n'*}"
log "image size: $(podman image inspect --format '{{.Size}}' "$BASE_IMAGE") bytes"

# 4. Optional push (Jib reads base images from a registry).
if [ -n "$PUSH_TO" ]; then
  log "pushing to $PUSH_TO"
  # Docker v2 schema 2 manifests: what every registry and Jib accept.
  podman push --tls-verify="$PUSH_TLS_VERIFY" --format v2s2 "$BASE_IMAGE" "docker://$PUSH_TO"
fi
log "done: $BASE_IMAGE${PUSH_TO:+ (pushed to $PUSH_TO)}"
