#!/usr/bin/env bash
# Seventh GPU-box batch: facts for "your own program" (scripts/gpu_batch7.py).
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
timeout 560 python3 scripts/gpu_batch7.py "$@" 2>&1 | tee $OUT/batch${BATCH:-7}.log | cut -c1-1500
