#!/usr/bin/env bash
# Record every lesson's compute-sanitizer reports, for the sanitizer parser's test fixtures.
#
# Usage: scripts/record_lessons_sanitizer.sh OUTPUT_DIR        (on a GPU box, with torch)
#
# For each (lesson, sanitizer tool) pair that kernels/lessons.py lists, runs the buggy and the
# fixed demo twice: once for the text report (OUTPUT_DIR/<lesson>_<tool>_<variant>.txt, ending
# with an "rc=N" line like shared/reference) and once with --xml --save
# (OUTPUT_DIR/<lesson>_<tool>_<variant>.xml; the run's own output goes to .xml.log).
# Set PYTHON to choose the interpreter (default python3).
set -euo pipefail

out=${1:?usage: $0 OUTPUT_DIR}
python=${PYTHON:-python3}
cd "$(dirname "$0")/.."
mkdir -p "$out"

"$python" -m cudatui.kernels.build --all
"$python" -m cudatui.kernels.lessons --tsv | while IFS=$'\t' read -r name tool demo options; do
  for variant in buggy fixed; do
    flags=()
    [ "$variant" = fixed ] && flags=(--fixed)
    base="$out/${name}_${tool}_${variant}"
    echo "recording $base.txt and $base.xml"
    rc=0
    # shellcheck disable=SC2086  # options is a word list from cudatui.kernels.lessons
    compute-sanitizer $options --print-limit 20 "$python" "$demo" "${flags[@]}" \
      </dev/null >"$base.txt" 2>&1 || rc=$?
    echo "rc=$rc" >>"$base.txt"
    # shellcheck disable=SC2086
    compute-sanitizer $options --print-limit 20 --xml --save "$base.xml" "$python" "$demo" "${flags[@]}" \
      </dev/null >"$base.xml.log" 2>&1 || true
  done
done
echo "done: $(ls "$out" | wc -l) files in $out"
