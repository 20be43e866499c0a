#!/usr/bin/env bash
# Second GPU-box batch: record every lesson through the real UI (demo recordings), drive the UI
# in tmux with real cuda-gdb (startup progress, stop, steps, exit), the remaining GPU tests
# (bridge, panes, lessons with the new oob overrun, sanitizer, NVML, doctor) and the GPU bench.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/rec $R/tmux $R/sanrec
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( timeout 420 python3 scripts/record_demos.py --jobs 4 --out $R/rec > $R/record_demos.log 2>&1 ) &
( timeout 200 bash scripts/tmux_live.sh $R/tmux race 160x48 race.cu:25 > $R/tmux_race.log 2>&1
  timeout 200 bash scripts/tmux_live.sh $R/tmux oob 80x24 add_buggy > $R/tmux_oob.log 2>&1 ) &
( OUT=$R CUDATUI_RECORD_PANES=$R CUDATUI_SANITIZER_RECORD=$R/sanrec timeout 480 python3 -m pytest -p no:cacheprovider -m gpu tests/gpu -n 4 -q -rs > $R/gpu_tests.log 2>&1 ) &
wait
( timeout 150 python3 -m bench.gpu --lesson divergence --rounds 2 > $R/bench_gpu.log 2>&1 )
tar czf $OUT/results.tgz -C $OUT r
grep -E "passed|failed" $R/gpu_tests.log | tail -2; grep -E "^(FAILED|ERROR)" $R/gpu_tests.log
tail -12 $R/record_demos.log; cat $R/tmux_race.log $R/tmux_oob.log; tail -5 $R/bench_gpu.log
