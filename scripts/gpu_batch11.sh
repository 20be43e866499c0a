#!/usr/bin/env bash
# Eleventh GPU-box batch: the seven lessons recorded through the current UI along their recorded
# paths (scripts/record_demos.py: stop states, GPU samples, sanitizer reports), beside the attach
# and torchrun-rank GPU tests with their UI recordings (scripts/gpu_jobs.sh). Everything comes
# back in $OUT/results.tgz.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( timeout 560 python3 scripts/record_demos.py --out $R/recordings.new > $R/record_demos.log 2>&1; echo "record_demos rc=$?" >> $R/record_demos.log ) &
( OUT=$R bash scripts/gpu_jobs.sh > $R/gpu_jobs.log 2>&1 ) &
wait
tar czf $OUT/results.tgz -C $OUT r
tail -30 $R/record_demos.log | cut -c1-300; cat $R/recordings.new/summary.txt 2>/dev/null; tail -40 $R/gpu_jobs.log | cut -c1-300
