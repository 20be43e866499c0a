#!/usr/bin/env bash
# Third GPU-box batch: re-record every lesson through the final UI, remake the screenshots from
# those recordings, re-record the lessons' sanitizer reports, the whole GPU test set, a tmux
# session with real cuda-gdb. Everything lands in $OUT/results.tgz.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/rec $R/tmux $R/san $R/sanrec $R/bridge $R/shots
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( timeout 240 python3 scripts/record_demos.py --jobs 7 --out $R/rec > $R/record_demos.log 2>&1
  cp $R/rec/*.jsonl.gz kernels/recordings/
  timeout 240 python3 scripts/screenshots.py --out $R/shots > $R/screenshots.log 2>&1 ) &
( timeout 420 bash scripts/record_lessons_sanitizer.sh $R/san > $R/san.log 2>&1 ) &
( timeout 200 bash scripts/tmux_live.sh $R/tmux race 160x48 race.cu:25 > $R/tmux_race.log 2>&1 ) &
( OUT=$R CUDATUI_RECORD_DIR=$R/bridge CUDATUI_RECORD_PANES=$R CUDATUI_SANITIZER_RECORD=$R/sanrec timeout 480 \
  python3 -m pytest -p no:cacheprovider -m gpu tests -n 4 -q -rs > $R/gpu_tests.log 2>&1 ) &
wait
tar czf $OUT/results.tgz -C $OUT r
grep -E "passed|failed" $R/gpu_tests.log | tail -2; grep -E "^(FAILED|ERROR)" $R/gpu_tests.log
tail -10 $R/record_demos.log; tail -3 $R/screenshots.log; cat $R/tmux_race.log; tail -2 $R/san.log
