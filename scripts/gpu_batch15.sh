#!/usr/bin/env bash
# Fifteenth GPU-box batch: the assert lesson recorded again, now with the GPU pane sampling while
# hidden (batch 13's recording held no GPU samples).
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build assert > $R/build.log 2>&1
timeout 200 python3 scripts/record_demos.py --jobs 1 --out $R/recordings.new assert > $R/record_demos.log 2>&1
echo "record_demos rc=$?" >> $R/record_demos.log
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt; tail -3 $R/record_demos.log | cut -c1-300
