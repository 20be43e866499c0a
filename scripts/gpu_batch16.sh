#!/usr/bin/env bash
# Sixteenth GPU-box batch: the assert lesson recorded again through the current UI (the frame
# stays selected after cuda-gdb's info cuda tables, so the path's `: print column` at frame 1
# answers from one_hot_buggy); the --fixed lessons' GPU test, never run before. Run twice: the
# first recording died (cuda-gdb aborted in -cuda-info-warps at the Warp Assert); the second,
# with SKIP_FIXED=1, after the state builder stopped asking for that table there.
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
(
  timeout 160 python3 scripts/record_demos.py --jobs 1 --out $R/recordings.new assert > $R/record_demos.log 2>&1
  echo "record_demos rc=$?" >> $R/record_demos.log
) &
if [ -z "${SKIP_FIXED:-}" ]; then (
  timeout 160 python3 -m pytest -p no:cacheprovider -n 2 -q -rs tests/gpu/test_demo_fixed_gpu.py > $R/fixed_gpu.log 2>&1
  echo "fixed gpu rc=$?" >> $R/fixed_gpu.log
) & fi
wait
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt 2>/dev/null; tail -5 $R/record_demos.log | cut -c1-300
grep -E "^(FAILED|ERROR)|passed|failed|rc=" $R/fixed_gpu.log | tail -8
