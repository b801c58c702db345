#!/bin/sh
# Blocking checks for prereview: fail when the pending diff adds conflict markers or
# trailing whitespace. Reads only; writes nothing.
set -eu
base="$(git merge-base HEAD '@{upstream}' 2>/dev/null || git rev-parse HEAD)"
if git diff "$base" | grep -nE '^\+(<<<<<<<|>>>>>>>|=======$)'; then
  echo "prereview: conflict markers in the diff" >&2
  exit 1
fi
if ! git diff --check "$base" >/dev/null; then
  echo "prereview: trailing whitespace in the diff (see git diff --check)" >&2
  exit 1
fi
echo "prereview: no blocking problems"
