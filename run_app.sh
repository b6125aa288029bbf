#!/usr/bin/env bash
# Start Concord in the browser (http://localhost:8501), with a sample data set loaded.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/ensure_env.sh requirements.txt
exec .venv/bin/python -m streamlit run app.py "$@"
