#!/usr/bin/env bash
# Twenty-third GPU-box batch (2026-12-03): every tier-3 test (tests/gpu, -m gpu) on the changes
# since batch 21 (a toast's timer is never shorter than 0.05 s and its repaint waits for it to go;
# the lesson picker's `?`),
# with the new one: c then ctrl+c typed fast with cuda-gdb attached in a spinning kernel (the
# interrupt waits for the continue on its way; tested on GNU gdb only before). Four at a time, as
# in batch 21; then the replay and attach tests of tier 1-2 on the box's Python.
set -u
. "$(dirname "$0")/gpu_box.sh"
box_facts
python3 --version >> $R/gpu.txt 2>&1
tier3_tests 4 450 420
replay_attach_tests
tar czf $OUT/results.tgz -C $OUT r
tier3_summary
grep -E "^(FAILED|ERROR)|passed|failed|rc=" $R/replay_attach.log | tail -8
