#!/usr/bin/env bash
# Record racecheck's hazard report of the race and tile lessons: the fixtures of a race's two sides
# (tests/gdbbridge/sanitizer/test_racecheck_hazards.py), and what the report costs as cudatui runs it.
#
# Usage: scripts/record_racecheck_hazards.sh OUTPUT_DIR        (on a GPU box, with torch)
#
# `--racecheck-report hazard` names both accesses of each hazard, each with its thread of the
# hazard's block (compute-sanitizer's default, `analysis`, names the two lines only). For each
# lesson it writes, with --print-limit 20 (a small fixture):
#   OUTPUT_DIR/<lesson>_hazard.txt      the text report (ends with an "rc=N" line, like shared/reference)
#   OUTPUT_DIR/<lesson>_hazard.xml      --xml --save of a second run, and .xml.log its own output
# then OUTPUT_DIR/timing.txt: one run of each report mode as cudatui makes it (--print-limit 10000,
# --xml --save): seconds, lines of text and bytes of XML. Copy the whole folder to
# tests/fixtures/sanitizer/hazards/. The reports' line numbers are read from the lessons' sources
# as compiled for their recorded reports (tests/fixtures/sanitizer/lessons/src/<lesson>.cu): it
# stops when kernels/<lesson>.cu differs from that copy (record the lessons' reports again first).
# Set PYTHON to choose the interpreter (default python3), LESSONS to record fewer (default: race tile).
set -euo pipefail

out=${1:?usage: $0 OUTPUT_DIR}
python=${PYTHON:-python3}
cd "$(dirname "$0")/.."
mkdir -p "$out"

seconds() { "$python" -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$@"; }

for lesson in ${LESSONS:-race tile}; do
  if ! cmp -s "kernels/$lesson.cu" "tests/fixtures/sanitizer/lessons/src/$lesson.cu"; then
    echo "kernels/$lesson.cu differs from tests/fixtures/sanitizer/lessons/src/$lesson.cu, which the reports' lines refer to" >&2
    exit 2
  fi
done
"$python" -m cudatui.kernels.build --all
for lesson in ${LESSONS:-race tile}; do
  demo=kernels/demos/$lesson.py
  base="$out/${lesson}_hazard"
  echo "recording $base.txt and $base.xml"
  rc=0
  compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 20 "$python" "$demo" \
    </dev/null >"$base.txt" 2>&1 || rc=$?
  echo "rc=$rc" >>"$base.txt"
  compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 20 --xml --save "$base.xml" \
    "$python" "$demo" </dev/null >"$base.xml.log" 2>&1 || true
  for mode in hazard analysis; do
    start=$EPOCHREALTIME
    lines=$( (compute-sanitizer --tool racecheck --racecheck-report "$mode" --print-limit 10000 \
      --xml --save "$out/full.xml" "$python" "$demo" </dev/null 2>&1 || true) | wc -l)  # it exits 1 on a hazard
    end=$EPOCHREALTIME
    echo "$lesson $mode: $(seconds "$start" "$end") s, $lines lines, $(stat -c %s "$out/full.xml") bytes of XML" \
      | tee -a "$out/timing.txt"
    rm -f "$out/full.xml"
  done
done
echo "done: $(ls "$out" | wc -l) files in $out"
