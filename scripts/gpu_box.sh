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
