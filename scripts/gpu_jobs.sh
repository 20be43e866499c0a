#!/usr/bin/env bash
# GPU box, from the repository root: `bash scripts/gpu_jobs.sh` (about 2-3 minutes).
# Attach to a hung CUDA program and debug rank 1 of a torchrun job (2 ranks, gloo, one GPU), with
# real cuda-gdb through the UI (tests/gpu/test_jobs_gpu.py), each session recorded into
# $OUT/own/: copy ui_attach.jsonl and ui_rank1.jsonl to tests/fixtures/recorded/own/ (new names)
# to turn on tests/app/test_jobs_replay.py. Logs: $OUT/own/*.log.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/own"
# the rank's -G extension, built once before torchrun starts two ranks that would both wait on its build
( cd tests/fixtures/c/jobs && timeout 200 python3 -c "import runpy; runpy.run_path('ddp_bump.py')" \
    > "$OUT/own/build_ext.log" 2>&1; echo "extension build rc=$?" >> "$OUT/own/build_ext.log" ) &
BUILD=$!
CUDATUI_RECORD_OWN=$OUT/own timeout 200 python3 -m pytest -p no:cacheprovider -m gpu tests/gpu/test_jobs_gpu.py \
    -k attach -q -rs > "$OUT/own/attach.log" 2>&1
wait $BUILD
CUDATUI_RECORD_OWN=$OUT/own timeout 200 python3 -m pytest -p no:cacheprovider -m gpu tests/gpu/test_jobs_gpu.py \
    -k rank -q -rs > "$OUT/own/rank.log" 2>&1
# the tier-1 rank test with the real torchrun (skipped where torch or GNU gdb is missing)
timeout 120 python3 -m pytest -p no:cacheprovider tests/app/test_rank_app.py -k real_torchrun -q -rs \
    > "$OUT/own/torchrun_gdb.log" 2>&1
for f in build_ext attach rank torchrun_gdb; do echo "== $f"; tail -25 "$OUT/own/$f.log" | cut -c1-400; done
ls -la "$OUT/own"
grep -h "argv" "$OUT/own/"ui_*.jsonl 2>/dev/null | head -2 | cut -c1-300
