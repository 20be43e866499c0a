#!/usr/bin/env bash
# Twenty-third GPU-box batch (2026-12-03): every tier-3 test (tests/gpu, -m gpu) on the changes
# since batch 21 (a toast's timer is never shorter than 0.05 s and its repaint waits for it to go;
# the lesson picker's `?`),
# with the new one: c then ctrl+c typed fast with cuda-gdb attached in a spinning kernel (the
# interrupt waits for the continue on its way; tested on GNU gdb only before). Four at a time, as
# in batch 21; then the replay and attach tests of tier 1-2 on the box's Python.
set -u
. "$(dirname "$0")/gpu_box.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/gpu.txt 2>&1
cuda-gdb --version | head -2 >> $R/gpu.txt 2>&1
python3 --version >> $R/gpu.txt 2>&1
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( SECONDS=0; timeout 450 python3 -m pytest -p no:cacheprovider -n 4 -q -rs -m gpu tests/gpu -o addopts="" \
    --timeout 420 --durations 15 > $R/gpu_tests.log 2>&1
  echo "gpu tests rc=$? seconds=$SECONDS" >> $R/gpu_tests.log )
( SECONDS=0; timeout 100 python3 -m pytest -p no:cacheprovider -q -o addopts="" --timeout 90 \
    tests/gdbbridge/test_replay.py tests/gdbbridge/test_attach.py > $R/replay_attach.log 2>&1
  echo "replay/attach tests rc=$? seconds=$SECONDS" >> $R/replay_attach.log )
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" $R/gpu_tests.log | tail -25
grep -E "^(FAILED|ERROR)|passed|failed|rc=" $R/replay_attach.log | tail -8
