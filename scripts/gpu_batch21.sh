#!/usr/bin/env bash
# Twenty-first GPU-box batch (2026-12-02): every tier-3 test (tests/gpu, -m gpu) on this
# session's changes (an interrupt waits for a resume on its way; a replay's stand-in writes to the
# pty handed to it; Warps shares a thread-table read with the bumps after it), four at a time
# (batch 20's one failure was cuda-gdb's back end crashing under six concurrent sessions), then
# the replay and attach tests of tier 1-2 on the box's Python.
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
