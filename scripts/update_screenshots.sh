#!/usr/bin/env bash
# Regenerate the README's screenshots (docs/screenshots/*.png) in a real browser.
# The test command never writes them (it saves to test-artifacts/, ignored by git), so a fresh
# clone stays clean after `bash run_tests.sh`; run this script on purpose and commit the pictures.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure_env.sh requirements-dev.txt
if ! command -v chromium >/dev/null 2>&1; then
  echo "The screenshots need Debian's chromium: apt-get install chromium" >&2
  exit 1
fi
CONCORD_UPDATE_SCREENSHOTS=1 exec .venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/app/test_browser.py -k "screenshots or first_visit" "$@"
