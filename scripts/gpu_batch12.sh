#!/usr/bin/env bash
# Twelfth GPU-box batch, on main after every branch of the wave was merged: assert and leak
# recorded again along their new paths; the own-program recordings (culprit lane, CuPy, a quiet
# Triton overrun: scripts/gpu_own2.sh); threads at a breakpoint (scripts/gpu_threads_at_bp.py);
# the 2-D stencil locals/shared test with its recording (tests/gpu/test_vars_gpu.py); then every
# GPU test. Everything comes back in $OUT/results.tgz.
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
(
  timeout 200 python3 scripts/record_demos.py --jobs 2 --out $R/recordings.new assert leak > $R/record_demos.log 2>&1
  echo "record_demos rc=$?" >> $R/record_demos.log
  timeout 120 python3 scripts/gpu_threads_at_bp.py > $R/threads_at_bp.log 2>&1; echo "threads rc=$?" >> $R/threads_at_bp.log
  cp tests/fixtures/recorded/threads_at_bp.jsonl $R/ 2>/dev/null
  CUDATUI_RECORD_VARS=$R/vars_stencil.jsonl timeout 200 python3 -m pytest -p no:cacheprovider -q -rs \
    tests/gpu/test_vars_gpu.py > $R/vars_gpu.log 2>&1; echo "vars rc=$?" >> $R/vars_gpu.log
) &
(
  OUT=$R timeout 280 bash scripts/gpu_own2.sh > $R/gpu_own2.log 2>&1
  CUDATUI_RECORD_DIR=$R/findings timeout 280 python3 -m pytest -p no:cacheprovider -m gpu tests -n 4 -q -rs \
    --deselect tests/gpu/test_vars_gpu.py --deselect tests/gpu/test_demo_fixed_gpu.py > $R/gpu_tests.log 2>&1
  echo "gpu tests rc=$?" >> $R/gpu_tests.log
) &
wait
rm -rf $R/findings
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt 2>/dev/null; tail -12 $R/threads_at_bp.log | cut -c1-300; tail -8 $R/vars_gpu.log | cut -c1-300
tail -15 $R/gpu_own2.log | cut -c1-300; grep -v "PytestBenchmark\|warner" $R/gpu_tests.log | tail -25 | cut -c1-300
