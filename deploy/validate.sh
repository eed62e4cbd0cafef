#!/usr/bin/env bash
# Offline validation of the deployment files; exits non-zero on any failure. Needs kubectl (for its
# built-in kustomize) and Go >= 1.24 (modules come from the Go module proxy the first time, then from
# the module cache) and openssl.
#   0. deploy/keys.sh when the deployment's JWT key pair is missing (a clean clone),
#   1. kubectl kustomize for the base and every overlay under deploy/k8s/overlays,
#   2. deploy/k6-operator/render.sh (the k6 ConfigMaps and the TestRun); when the k6/ scripts are absent,
#      with stand-in scripts, so that the packaging itself is still checked,
#   3. deploy/validate (Go): every rendered document strictly decoded into its k8s.io/api type (TestRun:
#      a hand-written struct), plus cross-references (ConfigMaps, Secrets, volumes, the JWT key's mount, preStop
#      within the grace period); deploy/compose.yaml against the Compose schema.
#   4. the monitoring files: the recording rules (the jvm-monitored overlay's PrometheusRule) and every query of
#      deploy/monitoring/dashboard.json, parsed by promtool (Debian's prometheus package, installed when missing
#      and run as root); which metric names they use is checked against the running app by DashboardMetricsTest.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failures=0
start=$(date +%s)

say() { printf '[validate] %s\n' "$*"; }
fail() { say "FAILED: $*"; failures=$((failures + 1)); }

command -v kubectl >/dev/null || { say "kubectl not found"; exit 1; }
command -v go >/dev/null || { say "go not found (Go >= 1.24 is needed)"; exit 1; }

# 0. the deployment's JWT key pair: the base's secretGenerator reads the public key (git-ignored), so a clean
#    clone gets a fresh pair here; an existing pair is kept (and checked to be one pair)
bash "$here/keys.sh" --quiet || fail "deploy/keys.sh"

# 1. kustomize
rendered=()
for dir in "$here"/k8s/base "$here"/k8s/overlays/*/; do
  dir="${dir%/}"
  name="$(basename "$dir")"
  [ -f "$dir/kustomization.yaml" ] || continue
  if kubectl kustomize "$dir" >"$out/k8s-$name.yaml" 2>"$out/k8s-$name.err"; then
    say "kustomize ok: ${dir#"$repo"/}"
    # The base on its own still has the placeholder image, by design: only the overlays are checked
    # in full; the base is checked by the overlays' output.
    [ "$name" = base ] || rendered+=("$out/k8s-$name.yaml")
  else
    fail "kubectl kustomize ${dir#"$repo"/}: $(cat "$out/k8s-$name.err")"
  fi
done
[ ${#rendered[@]} -ge 2 ] || fail "expected at least the jvm and native overlays"

# 2. k6-operator
k6_dir="$repo/k6"
if [ ! -f "$k6_dir/aggregate.js" ]; then
  say "no k6/ scripts in this checkout: rendering the TestRun with stand-in scripts"
  k6_dir="$out/k6-stand-in"
  mkdir -p "$k6_dir/lib"
  printf 'export default function () {}\n' >"$k6_dir/aggregate.js"
  printf 'export default function () {}\n' >"$k6_dir/jwt-mysql.js"
  printf 'export const x = 1;\n' >"$k6_dir/lib/config.js"
fi
printf 'token-a\ntoken-b\n' >"$out/tokens.txt"
for script in aggregate.js jwt-mysql.js; do
  if K6_DIR="$k6_dir" SCRIPT="$script" PARALLELISM=3 TOKENS="$out/tokens.txt" \
      bash "$here/k6-operator/render.sh" >"$out/k6-$script.yaml" 2>"$out/k6.err"; then
    say "k6-operator render ok: $script"
    rendered+=("$out/k6-$script.yaml")
  else
    fail "deploy/k6-operator/render.sh ($script): $(cat "$out/k6.err")"
  fi
done

# 3. strict schema check
say "building deploy/validate (first run downloads Go modules)"
if (cd "$here/validate" && go build -mod=readonly -o "$out/validate" .) 2>"$out/go.err"; then
  "$out/validate" k8s "${rendered[@]}" || fail "Kubernetes schema check"
  "$out/validate" compose "$here/compose.yaml" || fail "compose schema check"
else
  fail "go build deploy/validate: $(cat "$out/go.err")"
fi

# 4. PromQL of the recording rules and the dashboard
if ! command -v promtool >/dev/null && [ "$(id -u)" = 0 ]; then
  say "installing promtool (Debian's prometheus package)"
  (apt-get install -y -qq prometheus >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq prometheus; }) \
    >"$out/apt.log" 2>&1 || fail "apt-get install prometheus: $(tail -3 "$out/apt.log")"
fi
if ! command -v promtool >/dev/null; then
  fail "promtool not found: install Debian's prometheus package (or Prometheus' own release) to check the PromQL"
elif [ -x "$out/validate" ]; then
  "$out/validate" rules "$here/k8s/overlays/jvm-monitored/prometheusrule.yaml" >"$out/rules.yml" &&
    promtool check rules "$out/rules.yml" >"$out/promtool.log" 2>&1 && say "promtool ok: recording rules" ||
    fail "recording rules: $(cat "$out/promtool.log" 2>/dev/null)"
  "$out/validate" dashboard "$here/monitoring/dashboard.json" >"$out/dashboard-rules.yml" 2>"$out/dashboard.err" &&
    promtool check rules "$out/dashboard-rules.yml" >"$out/promtool.log" 2>&1 && say "promtool ok: dashboard queries" ||
    fail "dashboard queries: $(cat "$out/dashboard.err" "$out/promtool.log" 2>/dev/null)"
fi

if [ "$failures" -gt 0 ]; then
  say "$failures failure(s) ($(( $(date +%s) - start )) s)"
  exit 1
fi
say "all checks passed ($(( $(date +%s) - start )) s)"
