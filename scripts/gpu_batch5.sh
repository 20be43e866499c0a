#!/usr/bin/env bash
# Fifth GPU-box batch: "Debug this finding" and post-mortem on real cuda-gdb + compute-sanitizer
# (tests/gpu/test_findings_gpu.py), deferred conditions at the kernel launch stop
# (tests/gpu/test_bridge_gpu.py), the sanitizer/NVML/doctor GPU tests, and a fresh UI recording
# of the race lesson (shared memory). Everything lands in $OUT/results.tgz.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/rec $R/findings $R/bridge $R/sanrec
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
( timeout 150 python3 scripts/record_demos.py race --jobs 1 --out $R/rec > $R/record_demos.log 2>&1 ) &
( CUDATUI_RECORD_DIR=$R/findings timeout 280 python3 -m pytest -p no:cacheprovider -m gpu -s -v \
  tests/gpu/test_findings_gpu.py -n 4 > $R/findings_tests.log 2>&1 ) &
( CUDATUI_RECORD_DIR=$R/bridge CUDATUI_SANITIZER_RECORD=$R/sanrec timeout 280 python3 -m pytest -p no:cacheprovider \
  -m gpu -s -v tests/gpu/test_bridge_gpu.py tests/gpu/test_sanitizer_gpu.py tests/gpu/test_nvml_gpu.py \
  tests/gpu/test_doctor_gpu.py > $R/other_tests.log 2>&1 ) &
wait
tar czf $OUT/results.tgz -C $OUT r
for f in $R/findings_tests.log $R/other_tests.log; do grep -E "passed|failed" $f | tail -1; grep -E "^(FAILED|ERROR)" $f; done
grep -E "^(name|native|uninit|assert|oob|stops|rtt)" $R/findings_tests.log $R/other_tests.log | cut -c1-220 | head -40
tail -4 $R/record_demos.log
