#!/usr/bin/env bash
# Twentieth GPU-box batch (2026-12-02): the stop-to-screen bench over the lesson walks on the
# GPU box's idle CPU (first, alone), then every tier-3 test (tests/gpu, -m gpu) on this
# session's changes (the Stack's dimmed host stack, Registers/Locals at a bump, the key bar, the
# hidden GPU pane).
set -u
. "$(dirname "$0")/gpu_box.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/gpu.txt 2>&1
cuda-gdb --version | head -2 >> $R/gpu.txt 2>&1
nproc >> $R/gpu.txt
( SECONDS=0; timeout 240 python3 -m bench.stop_to_screen --passes 1 > $R/stop_to_screen.txt 2>&1
  echo "bench rc=$? seconds=$SECONDS" >> $R/stop_to_screen.txt )
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( SECONDS=0; timeout 420 python3 -m pytest -p no:cacheprovider -n 6 -q -rs -m gpu tests/gpu -o addopts="" \
    --timeout 400 --durations 15 > $R/gpu_tests.log 2>&1
  echo "gpu tests rc=$? seconds=$SECONDS" >> $R/gpu_tests.log )
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; grep -E "UI part|MI part|rc=" $R/stop_to_screen.txt | cut -c1-260
grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" $R/gpu_tests.log | tail -25
