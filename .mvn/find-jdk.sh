# Sourced by ./mvnw and bench/run: makes JAVA_HOME point at a JDK >= 21.
# Keeps a JAVA_HOME that is already new enough; otherwise takes the newest JDK >= 21 found in
# the usual install locations; fails with a clear message when there is none.
# bench/jdk sources it with LAB_JDK_FUNCTIONS_ONLY=1 for the functions alone (same places, one list).
# POSIX sh, so that it can be sourced by mvnw (which runs with set -euf).

lab_java_major() {
  # Prints the feature version of the Java runtime at $1 (e.g. 25), or nothing.
  [ -x "$1/bin/java" ] || return 0
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"
  else
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
  fi
}

lab_jdk_dirs() {
  # Prints the directories that may hold a JDK, one a line: the usual install locations.
  lab_restore_f=""
  case "$-" in *f*) lab_restore_f=1; set +f ;; esac
  for lab_dir in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home \
      "${HOME:-/nonexistent}"/.sdkman/candidates/java/* "${HOME:-/nonexistent}"/.jdks/*; do
    [ -d "$lab_dir" ] && printf '%s\n' "$lab_dir"
  done
  [ -z "$lab_restore_f" ] || set -f
  return 0
}

lab_find_jdk() {
  lab_min=21
  if [ -n "${JAVA_HOME-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    lab_v="$(lab_java_major "$JAVA_HOME")"
    if [ -n "$lab_v" ] && [ "$lab_v" -ge "$lab_min" ]; then
      return 0
    fi
  fi
  [ -z "${JAVA_HOME-}" ] || echo "JAVA_HOME=$JAVA_HOME is not a JDK >= $lab_min; looking for one elsewhere." >&2
  lab_best=""
  lab_best_v=0
  lab_ifs="$IFS"
  IFS='
'
  for lab_dir in $(lab_jdk_dirs); do
    [ -x "$lab_dir/bin/javac" ] || continue
    lab_v="$(lab_java_major "$lab_dir")"
    if [ -n "$lab_v" ] && [ "$lab_v" -ge "$lab_min" ] && [ "$lab_v" -gt "$lab_best_v" ]; then
      lab_best="$lab_dir"
      lab_best_v="$lab_v"
    fi
  done
  IFS="$lab_ifs"
  if [ -z "$lab_best" ]; then
    echo "No JDK >= $lab_min found (looked at JAVA_HOME, /usr/lib/jvm, /usr/java, /opt, ~/.sdkman, ~/.jdks)." >&2
    echo "Install one (e.g. Temurin 21 or 25) and set JAVA_HOME to it." >&2
    return 1
  fi
  JAVA_HOME="$lab_best"
  export JAVA_HOME
}

[ -n "${LAB_JDK_FUNCTIONS_ONLY-}" ] || lab_find_jdk
