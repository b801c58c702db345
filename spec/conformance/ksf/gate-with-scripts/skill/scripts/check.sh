#!/bin/sh
set -eu
test -f package.json
