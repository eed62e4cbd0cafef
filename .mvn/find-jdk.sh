# Sourced by ./mvnw and bench/run: makes JAVA_HOME point at a JDK >= 21.
# Keeps a JAVA_HOME that is already new enough; otherwise takes the newest JDK >= 21 found in
# the usual install locations; fails with a clear message when there is none.
# POSIX sh, so that it can be sourced by mvnw (which runs with set -euf).

lab_java_major() {
  # Prints the feature version of the JDK at $1 (e.g. 25), or nothing.
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"
  else
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
  fi
}

lab_find_jdk() {
  lab_min=21
  if [ -n "${JAVA_HOME-}" ]; then
    lab_v="$(lab_java_major "$JAVA_HOME")"
    if [ -n "$lab_v" ] && [ "$lab_v" -ge "$lab_min" ]; then
      return 0
    fi
    echo "JAVA_HOME=$JAVA_HOME is not a JDK >= $lab_min; looking for one elsewhere." >&2
  fi
  lab_best=""
  lab_best_v=0
  lab_restore_f=""
  case "$-" in *f*) lab_restore_f=1; set +f ;; esac
  for lab_dir in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home \
      "${HOME:-/nonexistent}"/.sdkman/candidates/java/* "${HOME:-/nonexistent}"/.jdks/*; do
    [ -d "$lab_dir" ] || continue
    lab_v="$(lab_java_major "$lab_dir")"
    if [ -n "$lab_v" ] && [ "$lab_v" -ge "$lab_min" ] && [ "$lab_v" -gt "$lab_best_v" ]; then
      lab_best="$lab_dir"
      lab_best_v="$lab_v"
    fi
  done
  [ -z "$lab_restore_f" ] || set -f
  if [ -z "$lab_best" ]; then
    echo "No JDK >= $lab_min found (looked at JAVA_HOME, /usr/lib/jvm, /usr/java, /opt, ~/.sdkman, ~/.jdks)." >&2
    echo "Install one (e.g. Temurin 21 or 25) and set JAVA_HOME to it." >&2
    return 1
  fi
  JAVA_HOME="$lab_best"
  export JAVA_HOME
}

lab_find_jdk
