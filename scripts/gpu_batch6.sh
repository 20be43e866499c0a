#!/usr/bin/env bash
# Sixth GPU-box batch (after batch 5 showed `-gdb-set "cuda" ...` quoted sets nothing and a GPU
# coredump marks no warp current): the native finding tests and the bridge test again.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/findings $R/bridge
( CUDATUI_RECORD_DIR=$R/findings timeout 200 python3 -m pytest -p no:cacheprovider -m gpu -v \
  tests/gpu/test_findings_gpu.py -k native -n 2 > $R/findings_tests.log 2>&1 ) &
( CUDATUI_RECORD_DIR=$R/bridge timeout 200 python3 -m pytest -p no:cacheprovider -m gpu -s -v \
  tests/gpu/test_bridge_gpu.py > $R/bridge_tests.log 2>&1 ) &
wait
tar czf $OUT/results.tgz -C $OUT r
for f in $R/findings_tests.log $R/bridge_tests.log; do grep -E "passed|failed" $f | tail -1; grep -E "^(FAILED|ERROR|E  )" $f | head -20; done
grep -E "^(stops|rtt)" $R/bridge_tests.log | cut -c1-200
