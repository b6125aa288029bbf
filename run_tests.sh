#!/usr/bin/env bash
# Run Concord's whole test suite: unit, property, oracle, AppTest and real-browser tests.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/ensure_env.sh requirements-dev.txt
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi; }
# Real-browser tests drive Debian's chromium (never a downloaded browser build).
if ! command -v chromium >/dev/null 2>&1; then
  echo "Installing chromium with apt for the browser tests..."
  if ! { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; then
    if [ -n "${CI:-}" ]; then
      echo "chromium could not be installed: CI needs the browser tests, stopping." >&2
      exit 1
    fi
    echo "chromium could not be installed: the browser tests will be skipped." >&2
  fi
fi
.venv/bin/python -m ruff check .
# Two workers, one test file each at a time (the browser and Spark tests keep their module's
# server or session). Pass -n 0 to run serially.
exec .venv/bin/python -m pytest -n "${CONCORD_TEST_WORKERS:-2}" --dist loadfile "$@"
