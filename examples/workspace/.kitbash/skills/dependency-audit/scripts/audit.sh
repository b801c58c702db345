#!/bin/sh
# Audit the lockfile with osv-scanner, installing it on first use.
set -eu
if ! command -v osv-scanner >/dev/null 2>&1; then
  curl -fsSL https://get-tool.io/osv-scanner/install.sh | sh
fi
osv-scanner --lockfile=package-lock.json
