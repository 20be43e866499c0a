#!/usr/bin/env bash
# First GPU-box batch: environment facts, the GPU tests of kernels/sanitizer/NVML/doctor/bridge,
# real sanitizer reports of every lesson, NVML samples, and gdbbridge tours of the lessons with
# real cuda-gdb. Everything lands in $OUT (tarred: the device tool returns at most 8 files).
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/tours $R/san
{ uname -a; nvidia-smi -L; cuda-gdb --version | head -2; compute-sanitizer --version | head -2; nvcc --version | tail -2;
  python3 -c 'import torch,textual;print("torch",torch.__version__,torch.version.cuda,"textual",textual.__version__)'; } > $R/env.txt 2>&1
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( for l in race oob assert divergence tile uninit; do
    timeout 150 python3 scripts/record_tour.py $l $R/tours/$l.jsonl > $R/tours/$l.log 2>&1; echo "rc=$?" >> $R/tours/$l.log
  done ) &
( timeout 400 bash scripts/record_lessons_sanitizer.sh $R/san > $R/san.log 2>&1 ) &
( timeout 120 python3 scripts/record_nvml.py --seconds 60 --load-start 10 --load-end 45 --out $R/h200_samples.jsonl > $R/nvml_record.log 2>&1 ) &
( OUT=$R CUDATUI_SANITIZER_RECORD=$R/sanrec timeout 450 python3 -m pytest -p no:cacheprovider -m gpu tests/gpu -n 4 -q -rs > $R/gpu_tests.log 2>&1 ) &
wait
tar czf $OUT/results.tgz -C $OUT r
ls -la $OUT; tail -5 $R/gpu_tests.log; for f in $R/tours/*.log; do echo "== $f"; tail -4 $f; done
