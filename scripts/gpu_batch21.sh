#!/usr/bin/env bash
# Twenty-first GPU-box batch (2026-12-02): every tier-3 test (tests/gpu, -m gpu) on this
# session's changes (an interrupt waits for a resume on its way; a replay's stand-in writes to the
# pty handed to it; Warps shares a thread-table read with the bumps after it), four at a time
# (batch 20's one failure was cuda-gdb's back end crashing under six concurrent sessions), then
# the replay and attach tests of tier 1-2 on the box's Python.
set -u
. "$(dirname "$0")/gpu_box.sh"
box_facts
python3 --version >> $R/gpu.txt 2>&1
tier3_tests 4 450 420
replay_attach_tests
tar czf $OUT/results.tgz -C $OUT r
tier3_summary
grep -E "^(FAILED|ERROR)|passed|failed|rc=" $R/replay_attach.log | tail -8
