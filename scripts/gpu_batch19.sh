#!/usr/bin/env bash
# Nineteenth GPU-box batch: the assert lesson recorded again after the fix of its missing GPU samples
# (a live lesson that builds first skipped the app's pane setup: the GPU pane never sampled hidden).
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
record_lessons assert &
wait
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt 2>/dev/null; grep -o "GPU: .*" $R/record_demos.log | cut -c1-300 | sort | uniq -c
grep -c -e "-cudatui-gpu-sample" <(zcat $R/recordings.new/assert.jsonl.gz)
