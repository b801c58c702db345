#!/bin/sh
# Blocking checks for prereview: fail when the pending diff adds conflict markers or
# trailing whitespace. Reads the repository only; writes nothing but its verdict, the
# findings@1 document the gate judges (.kitbash/artifacts/findings.json).
set -eu
out="${KITBASH_ARTIFACTS_DIR:?}/findings.json"
findings=""
add() { findings="${findings:+$findings,}{\"severity\":\"$1\",\"rule\":\"$2\",\"message\":\"$3\"}"; }
verdict() {
  subject=""
  [ -z "$1" ] || subject="\"subject\":{\"base\":\"$1\"},"
  printf '{"artifact":"findings@1","skill":"prereview@0.1.0","created":"%s",%s"findings":[%s]}\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$subject" "$findings" >"$out"
}
# A copy of the project outside any repository has no pending diff: say so, block nothing.
if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
  add note no-repository "not in a git repository with a commit: there is no pending diff to check"
  verdict ""
  echo "prereview: no git history here, nothing to check"
  exit 0
fi
base="$(git merge-base HEAD '@{upstream}' 2>/dev/null || git rev-parse HEAD)"
# Only the project: the sandbox shows this folder, not the rest of an enclosing repository.
if git diff "$base" -- . | grep -nE '^\+(<<<<<<<|>>>>>>>|=======$)'; then
  add error conflict-markers "the pending diff adds conflict markers"
fi
if ! git diff --check "$base" -- . >/dev/null; then
  add error whitespace "the pending diff adds trailing whitespace (see git diff --check)"
fi
verdict "$base"
if [ -n "$findings" ]; then
  echo "prereview: blocking problems in the diff" >&2
  exit 1
fi
echo "prereview: no blocking problems"
