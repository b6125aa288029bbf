#!/usr/bin/env bash
# Make (or reuse) the project's virtual environment in .venv and install a requirements file.
# Sourced by run_app.sh and run_tests.sh; works on a fresh Debian machine with Python 3.11.
set -euo pipefail
REQUIREMENTS="${1:-requirements.txt}"
PYTHON="${PYTHON:-python3}"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi; }

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "Concord needs Python 3.11 or newer ($PYTHON was not found)." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  if ! "$PYTHON" -m venv .venv >/dev/null 2>&1; then
    # Debian ships venv separately (python3-venv)
    echo "Installing python3-venv with apt..."
    rm -rf .venv
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv >/dev/null \
      || { echo "Could not create a virtual environment: install python3-venv." >&2; exit 1; }
    "$PYTHON" -m venv .venv
  fi
fi
stamp=".venv/.installed-$(basename "$REQUIREMENTS")-$(cat requirements*.txt pyproject.toml | cksum | cut -d' ' -f1)"
if [ ! -f "$stamp" ]; then
  echo "Installing $REQUIREMENTS into .venv ..."
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r "$REQUIREMENTS"
  if [ "$REQUIREMENTS" = "requirements-dev.txt" ]; then
    .venv/bin/python -m pip install --quiet --no-deps -r requirements-oracles.txt
  fi
  # the project itself, editable: `import analytics` works from anywhere, no path tricks
  .venv/bin/python -m pip install --quiet --no-deps -e .
  touch "$stamp"
fi
