#!/usr/bin/env bash
# Twentieth GPU-box batch (2026-12-02): the stop-to-screen bench over the lesson walks on the
# GPU box's idle CPU (first, alone), then every tier-3 test (tests/gpu, -m gpu) on this
# session's changes (the Stack's dimmed host stack, Registers/Locals at a bump, the key bar, the
# hidden GPU pane).
set -u
. "$(dirname "$0")/gpu_box.sh"
box_facts
nproc >> $R/gpu.txt
( SECONDS=0; timeout 240 python3 -m bench.stop_to_screen --passes 1 > $R/stop_to_screen.txt 2>&1
  echo "bench rc=$? seconds=$SECONDS" >> $R/stop_to_screen.txt )
tier3_tests 6 420 400
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; grep -E "UI part|MI part|rc=" $R/stop_to_screen.txt | cut -c1-260
grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" $R/gpu_tests.log | tail -25
