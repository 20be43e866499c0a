#!/usr/bin/env bash
# Tenth GPU-box batch: every GPU test (tests -m gpu) on main after the round-two reliability
# merge (gdb's streams as socket pairs, the session cgroup, the one text cleaner), to see that
# real cuda-gdb and compute-sanitizer still work through them; and whether a cgroup could be made.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/findings
{ cat /proc/self/cgroup; ls -ld /sys/fs/cgroup; stat -fc %T /sys/fs/cgroup; cat /sys/fs/cgroup/cgroup.subtree_control 2>&1; } > $R/cgroup.txt 2>&1
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
CUDATUI_RECORD_DIR=$R/findings timeout 500 python3 -m pytest -p no:cacheprovider -m gpu tests -n 4 -q -rs --continue-on-collection-errors > $R/gpu_tests.log 2>&1
tar czf $OUT/results.tgz -C $OUT r
cat $R/cgroup.txt; tail -15 $R/gpu_tests.log; grep -E "^(FAILED|ERROR)" $R/gpu_tests.log | head -30
