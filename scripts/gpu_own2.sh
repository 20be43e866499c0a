#!/usr/bin/env bash
# Issue 17, part 2 (branch own), on the GPU box from the repository root, ~3 minutes:
# records through the UI (scripts/record_own.py) the culprit lane of a cpp_extension kernel and of
# a CuPy RawKernel (key C of the Warps pane), and a Triton out-of-bounds write that exits 0; then
# runs tests/gpu/test_own_gpu.py and the replay tests of the new recordings.
# New files only (an existing one is never overwritten), into tests/fixtures/recorded/own/:
#   ui_ext_oob.jsonl ui_cupy_oob.jsonl ui_triton_quiet_oob.jsonl and ext_oob.source/ cupy_oob.source/
#   (the source files the source pane showed: CuPy's cached <sha1>.cubin.cu, the extension's cuda.cu);
# when $OUT is set (the device tool), the same files and the logs go to $OUT/own2/ as well.
set -u
cd "$(dirname "$0")/.."
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
DEST=tests/fixtures/recorded/own
TMP=$(mktemp -d)
LOGS=${OUT:-$TMP}/own2; mkdir -p "$LOGS"
timeout 200 python3 scripts/record_own.py "$TMP/rec" ext_oob cupy_oob triton_quiet_oob > "$LOGS/record_own2.log" 2>&1
echo "record_own.py rc=$?"
for name in ext_oob cupy_oob triton_quiet_oob; do
  [ -f "$TMP/rec/$name.jsonl" ] && cp -n "$TMP/rec/$name.jsonl" "$DEST/ui_$name.jsonl"
  [ -d "$TMP/rec/$name.source" ] && [ ! -e "$DEST/$name.source" ] && cp -r "$TMP/rec/$name.source" "$DEST/"
done
if [ -n "${OUT:-}" ]; then
  for name in ext_oob cupy_oob triton_quiet_oob; do
    [ -f "$DEST/ui_$name.jsonl" ] && cp "$DEST/ui_$name.jsonl" "$LOGS/"
    [ -d "$DEST/$name.source" ] && cp -r "$DEST/$name.source" "$LOGS/"
  done
fi
timeout 150 python3 -m pytest -p no:cacheprovider -q -rs -m gpu tests/gpu/test_own_gpu.py > "$LOGS/gpu_own2_tests.log" 2>&1
echo "gpu tests rc=$?"
timeout 60 python3 -m pytest -p no:cacheprovider -q -rs tests/app/test_own_programs_replay.py > "$LOGS/replay_own2_tests.log" 2>&1
echo "replay tests rc=$?"
cut -c1-300 "$LOGS/record_own2.log"; tail -8 "$LOGS/gpu_own2_tests.log"; tail -8 "$LOGS/replay_own2_tests.log"
ls -la "$DEST"
