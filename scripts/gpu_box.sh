# Sourced by the GPU-box batch scripts (scripts/gpu_batch*.sh): from the repository root, the
# wheels the device tool carried in .whl (textual, pytest plugins: not installed there) in
# /tmp/site on PYTHONPATH, and $R, where the batch writes what comes back ($OUT/r).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R

record_lessons() {
  # scripts/record_demos.py on the lessons named, into $R/recordings.new; its output, exit code
  # and seconds in $R/record_demos.log
  local started=$SECONDS
  timeout 400 python3 scripts/record_demos.py --jobs 1 --out $R/recordings.new "$@" > $R/record_demos.log 2>&1
  echo "record_demos rc=$? seconds=$((SECONDS - started))" >> $R/record_demos.log
}

box_facts() {
  # the GPU, its driver and memory, and cuda-gdb's version, in $R/gpu.txt
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/gpu.txt 2>&1
  cuda-gdb --version | head -2 >> $R/gpu.txt 2>&1
}

tier3_tests() {
  # the lessons built, then every tier-3 test (tests/gpu, -m gpu) with $1 workers, $2 s for the
  # whole run and $3 s for each test; output, exit code and seconds in $R/gpu_tests.log
  python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
  local started=$SECONDS
  timeout "$2" python3 -m pytest -p no:cacheprovider -n "$1" -q -rs -m gpu tests/gpu -o addopts="" \
    --timeout "$3" --durations 15 > $R/gpu_tests.log 2>&1
  echo "gpu tests rc=$? seconds=$((SECONDS - started))" >> $R/gpu_tests.log
}

replay_attach_tests() {
  # tests/gdbbridge/test_replay.py and test_attach.py on the box's Python, in $R/replay_attach.log
  local started=$SECONDS
  timeout 100 python3 -m pytest -p no:cacheprovider -q -o addopts="" --timeout 90 \
    tests/gdbbridge/test_replay.py tests/gdbbridge/test_attach.py > $R/replay_attach.log 2>&1
  echo "replay/attach tests rc=$? seconds=$((SECONDS - started))" >> $R/replay_attach.log
}

tier3_summary() {
  # what the batch prints: the box, then the tier-3 failures, skips and totals
  cat $R/gpu.txt
  grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" $R/gpu_tests.log | tail -25
}
