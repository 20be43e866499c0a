#!/usr/bin/env bash
# Twenty-second GPU-box batch (2026-12-02): the oob, race and tile lessons recorded again through
# the current UI. Their batch-11 recordings predate two changes to what the panes ask: the Shared
# pane asks for the rest of an array cuda-gdb cut at 200 elements (race's `sdata[200]@56`, never
# recorded: a replay showed 200 of 256), and the Stack selects the chosen frame again after the
# info cuda tables (tile's `-stack-select-frame 1`, never recorded). And a console command after a
# focus switch showed the stop's focus again (cuda-gdb 13.0 marks no warp current in some info
# tables): oob's `print idx` in thread (232,0,0) and tile's `print tile[16][16]@3` in (15,15,0) were
# recorded showing thread (0,0,0) and (0,6,0); the first try of this batch recorded race and tile
# before that fix.
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
record_lessons oob race tile
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt 2>/dev/null; tail -3 $R/record_demos.log
for lesson in oob race tile; do
  echo "$lesson: $(zcat $R/recordings.new/$lesson.jsonl.gz 2>/dev/null | grep -c -e '-cudatui-gpu-sample') GPU samples," \
       "$(zcat $R/recordings.new/$lesson.jsonl.gz 2>/dev/null | grep -c -e 'sdata\[200\]@56') sdata[200]@56," \
       "$(zcat $R/recordings.new/$lesson.jsonl.gz 2>/dev/null | grep -c -e 'stack-select-frame') frame selects"
done
