#!/usr/bin/env bash
# Ninth GPU-box batch (the wave's last): every GPU test (tests -m gpu: lessons, sanitizer, bridge,
# findings, NVML, doctor, the host Python stack) against the Debugger façade, and the programs of
# scripts/own_programs recorded through the UI with their host stacks (scripts/record_own.py).
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/own $R/findings
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( timeout 330 python3 scripts/record_own.py $R/own torch_index triton_fault > $R/record_own.log 2>&1 ) &
( CUDATUI_RECORD_DIR=$R/findings timeout 420 python3 -m pytest -p no:cacheprovider -m gpu tests -n 4 -q -rs --continue-on-collection-errors > $R/gpu_tests.log 2>&1 ) &
wait
tar czf $OUT/results.tgz -C $OUT r
tail -15 $R/gpu_tests.log; grep -E "^(FAILED|ERROR)" $R/gpu_tests.log | head -20; cat $R/record_own.log | cut -c1-300
