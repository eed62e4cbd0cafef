#!/usr/bin/env bash
# The deployment's own JWT key pair (RS256). The key pair bundled in the jar (classpath publicKey.pem) is
# trusted in dev mode and tests only; everything under deploy/ verifies tokens with this one instead.
#   deploy/.keys/privateKey.pem            private half: signs the k6 tokens, never deployed
#   deploy/k8s/base/jwt/publicKey.pem      public half: the only key file the deployments read (the Kubernetes
#                                          Secret made by the base's secretGenerator; compose mounts it too)
# The public half lives inside the kustomize base because kustomize refuses files outside a kustomization's
# directory. Both paths are git-ignored. An existing key is never overwritten:
#   - neither file present: a fresh 2048-bit RSA pair is generated,
#   - only the private key present: the public key is derived from it,
#   - only the public key present (your issuer's key, put there by hand): kept as is; no tokens can be
#     signed here then,
#   - both present: checked to be halves of one pair.
# Sign k6 tokens with the private half:
#   ./mvnw -q test-compile exec:java@tokens -Dtokens.count=N -Dtokens.out=target/tokens.txt \
#     -Dtokens.key=deploy/.keys/privateKey.pem
# Usage: deploy/keys.sh [--quiet]   (needs openssl)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
private="$here/.keys/privateKey.pem"
public="$here/k8s/base/jwt/publicKey.pem"
quiet="${1:-}"

say() { [ "$quiet" = --quiet ] || printf '[keys] %s\n' "$*" >&2; }
command -v openssl >/dev/null || { echo "[keys] openssl not found (Debian: apt-get install openssl)" >&2; exit 1; }

if [ ! -f "$private" ] && [ ! -f "$public" ]; then
  mkdir -p "$(dirname "$private")"
  chmod 700 "$(dirname "$private")"
  (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$private" 2>/dev/null)
  say "generated a new RSA key pair"
fi
if [ -f "$private" ] && [ ! -f "$public" ]; then
  mkdir -p "$(dirname "$public")"
  openssl pkey -in "$private" -pubout -out "$public"
  say "derived the public key from the private key"
fi
if [ -f "$private" ]; then
  if ! cmp -s <(openssl pkey -in "$private" -pubout) <(openssl pkey -pubin -in "$public"); then
    echo "[keys] $public is not the public half of $private: move one of them away and run again" >&2
    exit 1
  fi
else
  openssl pkey -pubin -in "$public" -noout || { echo "[keys] $public is not a PEM public key" >&2; exit 1; }
  say "no private key: tokens for this deployment must come from the issuer of $public"
fi
[ ! -f "$private" ] || say "private: ${private#"$repo/"}"
say "public:  ${public#"$repo/"}"
