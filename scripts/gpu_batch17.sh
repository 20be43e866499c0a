#!/usr/bin/env bash
# Seventeenth GPU-box batch: the assert lesson recorded again through the current UI (no warps or
# lanes table asked at the Warp Assert, where cuda-gdb 13.0 aborted in them; the frame stays
# selected after the info cuda tables, so `: print column` at frame 1 answers from
# one_hot_buggy; GPU samples on), while every tier-3 test (tests/gpu, -m gpu) runs beside it.
set -u
. "$(dirname "$0")/gpu_box.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/gpu.txt 2>&1
cuda-gdb --version | head -2 >> $R/gpu.txt 2>&1
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
record_lessons assert &
(
  timeout 420 python3 -m pytest -p no:cacheprovider -n 6 -q -rs -m gpu tests/gpu -o addopts="" \
    --timeout 400 --durations 15 > $R/gpu_tests.log 2>&1
  echo "gpu tests rc=$?" >> $R/gpu_tests.log
) &
wait
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; cat $R/recordings.new/summary.txt 2>/dev/null; tail -5 $R/record_demos.log | cut -c1-300
grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" $R/gpu_tests.log | tail -25
