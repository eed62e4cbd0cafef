#!/usr/bin/env bash
# Prints the Kubernetes documents of one k6-operator run: the ConfigMaps holding the k6/ scripts
# (k6-scripts: k6/*.js; k6-lib: k6/lib/*, mounted at /test/lib), an optional Secret with tokens and the
# TestRun (testrun.yaml) with this run's parameters. Offline: kubectl kustomize on a scratch directory,
# nothing is sent to a cluster.
#   deploy/k6-operator/render.sh | kubectl apply -f -
#   PARALLELISM=4 SCRIPT=jwt-mysql.js MODEL=reactive TOKENS=target/tokens.txt deploy/k6-operator/render.sh | kubectl apply -f -
# Environment (defaults in brackets):
#   PARALLELISM [2]  SCRIPT [aggregate.js]  MODEL [virtual]  LOAD_MODEL [open]  RATE [100]  DURATION [60s]
#   VUS, RAMP_UP     passed to the runners when set
#   BASE_URL         [http://concurrency-lab.<namespace>.svc:8080]
#   NAMESPACE        [concurrency-lab]   RUN_NAME [concurrency-lab]   K6_IMAGE [grafana/k6:1.8.1]
#   TOKENS           a tokens file (one token a line) for jwt-mysql.js, stored in Secret k6-tokens;
#                    a Secret holds at most 1 MiB, so write a few thousand tokens, not 100,000. The app
#                    trusts only the deployment's own key (deploy/keys.sh), so sign them with its private
#                    half (the development key bundled in the jar is not trusted outside dev and tests):
#                      ./mvnw -q test-compile exec:java@tokens -Dtokens.count=3000 \
#                        -Dtokens.out=target/tokens.txt -Dtokens.key=deploy/.keys/privateKey.pem
#   K6_DIR           [<repo>/k6] the scripts
#   PROMETHEUS_RW_URL [http://prometheus-operated.monitoring.svc:9090/api/v1/write] where every runner sends its
#                    metrics (k6's Prometheus remote write output; Prometheus needs its remote-write receiver on:
#                    --web.enable-remote-write-receiver, or enableRemoteWriteReceiver: true in the operator's
#                    Prometheus), tagged testid=RUN_NAME so that the runners of one run are one set of series;
#                    "none": the results stay in the runners' logs
# A second run with the same RUN_NAME needs the first one deleted (kubectl delete testrun RUN_NAME).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
K6_DIR="${K6_DIR:-$repo/k6}"
NAMESPACE="${NAMESPACE:-concurrency-lab}"
RUN_NAME="${RUN_NAME:-concurrency-lab}"
PARALLELISM="${PARALLELISM:-2}"
SCRIPT="${SCRIPT:-aggregate.js}"
BASE_URL="${BASE_URL:-http://concurrency-lab.$NAMESPACE.svc:8080}"
K6_IMAGE="${K6_IMAGE:-grafana/k6:1.8.1}"
TOKENS="${TOKENS:-}"
PROMETHEUS_RW_URL="${PROMETHEUS_RW_URL:-http://prometheus-operated.monitoring.svc:9090/api/v1/write}"

die() { echo "render.sh: $*" >&2; exit 1; }
command -v kubectl >/dev/null || die "kubectl is needed (it includes kustomize)"
[ -d "$K6_DIR" ] || die "no k6 scripts at $K6_DIR (set K6_DIR)"
[ -f "$K6_DIR/$SCRIPT" ] || die "no script $K6_DIR/$SCRIPT"
[[ "$PARALLELISM" =~ ^[1-9][0-9]*$ ]] || die "PARALLELISM must be a positive integer"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scripts" "$work/lib"
cp "$here/testrun.yaml" "$work/testrun.yaml"
# ConfigMap keys cannot contain '/': the top-level scripts and the helpers go into two maps.
shopt -s nullglob
scripts=("$K6_DIR"/*.js)
libs=("$K6_DIR"/lib/*)
cp "${scripts[@]}" "$work/scripts/"
[ ${#libs[@]} -eq 0 ] || cp "${libs[@]}" "$work/lib/"

# Warns (does not fail) when the first token is an RS256 token that the deployment's public key does not verify,
# e.g. one signed with the development key: every request of the run would get 401.
check_token_key() {
  local pub="$here/../k8s/base/jwt/publicKey.pem" token header_payload sig
  token="$(head -1 "$1")"
  [ -f "$pub" ] && command -v openssl >/dev/null && [[ "$token" =~ ^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$ ]] || return 0
  [[ "$(b64url_decode "${token%%.*}")" == *'"RS256"'* ]] || return 0
  header_payload="${token%.*}"
  sig="${token##*.}"
  if ! b64url_decode "$sig" | openssl dgst -sha256 -verify "$pub" -signature /dev/stdin <(printf '%s' "$header_payload") >/dev/null 2>&1; then
    echo "render.sh: WARNING: the first token in $1 is not signed by deploy/.keys (deploy/k8s/base/jwt/publicKey.pem" \
      "does not verify it): write the tokens with -Dtokens.key=deploy/.keys/privateKey.pem" >&2
  fi
}
b64url_decode() {
  local s="${1//-/+}"
  s="${s//_//}"
  while [ $(( ${#s} % 4 )) != 0 ]; do s="$s="; done
  printf '%s' "$s" | base64 -d 2>/dev/null
}

yaml_list() { local f; for f in "$@"; do printf '      - %s\n' "$f"; done; }
env_entry() { printf '    - name: %s\n      value: "%s"\n' "$1" "${2//\"/\\\"}"; }

{
  cat <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: $NAMESPACE
resources:
  - testrun.yaml
generatorOptions:
  # Fixed names: the TestRun refers to them, and kustomize does not rewrite references in custom resources.
  disableNameSuffixHash: true
  labels:
    app.kubernetes.io/part-of: concurrency-lab
configMapGenerator:
  - name: k6-scripts
    files:
$(cd "$work" && yaml_list scripts/*.js)
  - name: k6-lib
YAML
  if [ ${#libs[@]} -gt 0 ]; then
    printf '    files:\n'; (cd "$work" && yaml_list lib/*)
  else
    printf '    literals: []\n'
  fi
  if [ -n "$TOKENS" ]; then
    [ -f "$TOKENS" ] || die "TOKENS=$TOKENS: no such file"
    cp "$TOKENS" "$work/tokens.txt"
    check_token_key "$TOKENS"
    printf 'secretGenerator:\n  - name: k6-tokens\n    files:\n      - tokens.txt\n'
  fi
  cat <<YAML
patches:
  - target:
      group: k6.io
      version: v1alpha1
      kind: TestRun
      name: concurrency-lab
    patch: |
      - op: replace
        path: /metadata/name
        value: $RUN_NAME
      - op: replace
        path: /spec/parallelism
        value: $PARALLELISM
      - op: replace
        path: /spec/script/configMap/file
        value: $SCRIPT
      - op: replace
        path: /spec/runner/image
        value: $K6_IMAGE
      - op: replace
        path: /spec/arguments
        value: "$( [ "$PROMETHEUS_RW_URL" = none ] || printf -- '--out experimental-prometheus-rw ' )--tag testid=$RUN_NAME"
      - op: replace
        path: /spec/runner/env
        value:
YAML
  {
    env_entry BASE_URL "$BASE_URL"
    env_entry MODEL "${MODEL:-virtual}"
    env_entry LOAD_MODEL "${LOAD_MODEL:-open}"
    env_entry RATE "${RATE:-100}"
    env_entry DURATION "${DURATION:-60s}"
    [ -z "${VUS:-}" ] || env_entry VUS "$VUS"
    [ -z "${RAMP_UP:-}" ] || env_entry RAMP_UP "$RAMP_UP"
    env_entry TOKENS_FILE /tokens/tokens.txt
    env_entry K6_NO_USAGE_REPORT true
    if [ "$PROMETHEUS_RW_URL" != none ]; then
      env_entry K6_PROMETHEUS_RW_SERVER_URL "$PROMETHEUS_RW_URL"
      # As series k6_http_req_duration_p50, _p99, _avg, _max (seconds), per tag set (model, name, status, ...).
      env_entry K6_PROMETHEUS_RW_TREND_STATS "p(50),p(99),avg,max"
    fi
  } | sed 's/^/        /'
} >"$work/kustomization.yaml"

kubectl kustomize "$work"
