#!/usr/bin/env bash
# Thirteenth GPU-box batch, on the fully merged main: assert recorded again (cuda-gdb 13.0
# aborted inside its own warps/lanes query at the Warp Assert in batches 11 and 12); the 2-D
# stencil locals/shared test with the new layout, recorded; which filter forms `info cuda threads`
# takes for a breakpoint (batch 12: "Incorrect filter: ' breakpoint 1'"); every GPU test.
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
(
  timeout 150 python3 scripts/record_demos.py --jobs 1 --out $R/recordings.new assert > $R/record_demos.log 2>&1
  echo "record_demos rc=$?" >> $R/record_demos.log
  CUDATUI_RECORD_VARS=$R/vars_stencil.jsonl timeout 200 python3 -m pytest -p no:cacheprovider -q -rs \
    tests/gpu/test_vars_gpu.py > $R/vars_gpu.log 2>&1; echo "vars rc=$?" >> $R/vars_gpu.log
  W=$(mktemp -d); cp scripts/own_programs/three_blocks.cu $W/ && cd $W && nvcc -g -G -o tb three_blocks.cu > $R/probe_build.log 2>&1
  L=$(grep -n "/\* BP \*/" three_blocks.cu | cut -d: -f1)
  timeout 90 cuda-gdb -batch -ex "break three_blocks.cu:$L if threadIdx.x == 5 && blockIdx.x < 3" -ex run \
    -ex "info cuda threads breakpoint 1" -ex "info cuda threads breakpoint all" -ex "info cuda threads breakpoint" \
    -ex "info cuda threads" -ex "info cuda threads block (1,0,0)" -ex "help info cuda threads" ./tb > $R/threads_probe.txt 2>&1
  cd - > /dev/null
) &
(
  CUDATUI_RECORD_DIR=$R/findings timeout 330 python3 -m pytest -p no:cacheprovider -m gpu tests -n 4 -q -rs \
    --deselect tests/gpu/test_vars_gpu.py --deselect tests/gpu/test_demo_fixed_gpu.py > $R/gpu_tests.log 2>&1
  echo "gpu tests rc=$?" >> $R/gpu_tests.log
) &
wait
rm -rf $R/findings
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt 2>/dev/null; tail -6 $R/vars_gpu.log | cut -c1-300; cat $R/threads_probe.txt | grep -v "^\[" | tail -40 | cut -c1-200
grep -v "PytestBenchmark\|warner" $R/gpu_tests.log | grep -E "^(FAILED|ERROR)|passed|failed|rc=" | tail -12
