#!/usr/bin/env bash
# Fourteenth GPU-box batch: the 2-D stencil locals/shared test recorded whole (batch 13 stopped at
# a member type the test expected without cuda-gdb's @local), and threads at a breakpoint through
# -cuda-info-threads at the breakpoint's line, recorded through the UI.
set -u
. "$(dirname "$0")/gpu_box.sh"
( CUDATUI_RECORD_VARS=$R/vars_stencil.jsonl timeout 200 python3 -m pytest -p no:cacheprovider -q -rs \
    tests/gpu/test_vars_gpu.py > $R/vars_gpu.log 2>&1; echo "vars rc=$?" >> $R/vars_gpu.log ) &
( rm -f tests/fixtures/recorded/threads_at_bp.jsonl; timeout 150 python3 scripts/gpu_threads_at_bp.py > $R/threads_at_bp.log 2>&1
  echo "threads rc=$?" >> $R/threads_at_bp.log; cp tests/fixtures/recorded/threads_at_bp.jsonl $R/ 2>/dev/null ) &
wait
tar czf $OUT/results.tgz -C $OUT r
tail -5 $R/vars_gpu.log | cut -c1-300; tail -12 $R/threads_at_bp.log | cut -c1-300
