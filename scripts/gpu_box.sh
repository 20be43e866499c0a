#!/usr/bin/env bash
# The one GPU-box script: `bash scripts/gpu_box.sh SUBCOMMAND [ARGS]`, from anywhere, on a box with
# cuda-gdb, compute-sanitizer, NVML and (for the lessons) torch. Everything it writes goes to
# $R = $OUT/r ($OUT: the device tool's folder, /tmp/out by default), so several calls in one device
# command add to the same results, e.g.
#
#   bash scripts/gpu_box.sh facts; bash scripts/gpu_box.sh record assert; bash scripts/gpu_box.sh pack
#
# The logs of past runs and what they found are in docs/gpu-runs/ (the batch scripts that made
# them are in git history: `git log -- 'scripts/gpu_batch*'`).
#
# Subcommands:
#   check                  the usual run: facts, tier3, replay-attach, pack, summary
#   facts                  the box: GPU, driver, memory, cuda-gdb/sanitizer/nvcc, Python, torch, cores
#   build [LESSON...]      build the teaching kernels (all without a name)
#   tier3 [N [ALL_S [ONE_S]]]  every tier-3 test (tests/gpu, -m gpu), N workers (4: six concurrent
#                          cuda-gdb sessions crashed its back end), ALL_S s in all, ONE_S s a test;
#                          K=EXPR runs those pytest -k selects
#   replay-attach          tests/gdbbridge/record/test_replay.py and test_attach.py on the box's Python
#   record [LESSON...]     record lessons through the UI along their paths (scripts/record_demos.py)
#                          into $R/recordings.new (all without a name; JOBS=1 at a time); with the
#                          GPU samples each recording holds
#   record-lessons [LESSON...]  the lessons whose guide claims await a re-recording (default: oob race
#                          divergence uninit leak tile), through the UI along their paths, with their
#                          sanitizer reports (record, JOBS=2), then their screen claims checked on the
#                          new recordings in tmux (tests/e2e/test_lesson_paths_tmux.py) in the box's
#                          copy of the tree; the new files in $R/recordings.new for the lead to copy
#                          to kernels/recordings
#   demo-run LESSON [BP]   the lesson's demo run plainly, then under cuda-gdb -batch with a breakpoint
#                          (default: the lesson's first), each one's exit and last output lines
#   sanitizer-reports      every lesson's compute-sanitizer reports (scripts/record_lessons_sanitizer.sh)
#   racecheck-hazards      the race and tile lessons' racecheck hazard reports, both threads of each
#                          hazard, and what each report mode costs (scripts/record_racecheck_hazards.sh)
#                          into $R/hazards, for the lead to copy to tests/fixtures/sanitizer/hazards
#   nvml [SECONDS]         NVML samples under a matmul load (scripts/record_nvml.py), 60 s
#   threads-at-bp          threads at a breakpoint recorded through the UI (scripts/gpu_threads_at_bp.py)
#   tmux LESSON COLSxROWS BREAKPOINT   cudatui in a real terminal (scripts/tmux_live.sh)
#   bench                  the stop-to-screen bench on the box's idle CPU, then bench.gpu (divergence)
#   bench-gpu [ROUNDS [LESSON]]  bench.gpu alone (default divergence): first breakpoint, steps, key to
#                          screen against the same MI commands over a raw pipe; the app's sessions
#                          recorded into $R/app_sessions_LESSON and read by bench.stop_queries
#   bench-host-stack [ROUNDS]  bench.host_stack: the Python stack read of a torch program, per pystack method
#   jobs                   attach to a hung program and rank 1 of a torchrun job through the UI
#                          (tests/gpu/test_jobs_gpu.py), recorded into $OUT/own/
#   triage [NAME...]       cudatui triage of own programs (default torch_index), recorded through the UI
#                          into $R/triage (scripts/record_triage.py), then tests/gpu/test_triage_gpu.py
#   own-programs [NAME...] your-own-program recordings through the UI (scripts/record_own.py; default
#                          ext_oob cupy_oob triton_quiet_oob), new files only into
#                          tests/fixtures/recorded/own/ and $R/own2/, then their GPU and replay tests
#   dump-flags [NAME...]   which CUDA_COREDUMP_GENERATION_FLAGS sets cuda-gdb opens, and their
#                          sizes (scripts/dump_flags.py; default cupy_oob ext_oob torch_index)
#   class [LESSON [BP]]    an instructor's live session followed by two terminals and a browser's
#                          websocket (scripts/class_live.py) into $R/class
#   screens [CASE...]      a PyTorch assert, an attach and racecheck's two sides in tmux at 80x24 and
#                          160x48 (scripts/h200_screens.py) into $R/screens
#   summary                what the runs so far found: the box, tier-3 and replay/attach results,
#                          the recordings
#   pack                   $R into $OUT/results.tgz (the device tool returns few files)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ls .whl/*.whl > /dev/null 2>&1; then  # the wheels the device tool carried (textual, pytest plugins)
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl 2>/dev/null
fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
R=$OUT/r; mkdir -p "$R"

usage() {
  sed -n '2,/^set -u$/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
}

facts() {
  { nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    cuda-gdb --version | head -2
    compute-sanitizer --version | head -2
    nvcc --version | tail -2
    python3 --version
    python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
    python3 -c 'import textual; print("textual", textual.__version__)'
    echo "cores $(nproc)"; uname -r; } > "$R/gpu.txt" 2>&1
  cat "$R/gpu.txt"
}

build() {
  if [ $# -eq 0 ]; then set -- --all; fi
  python3 -m cudatui.kernels.build "$@" > "$R/build.log" 2>&1
  echo "build rc=$?" >> "$R/build.log"
}

tier3() {
  local workers=${1:-4} all_s=${2:-450} one_s=${3:-420} started=$SECONDS
  build
  timeout "$all_s" python3 -m pytest -p no:cacheprovider -n "$workers" -v -rfEs -m gpu tests/gpu -o addopts="" ${K:+-k "$K"} \
    --timeout "$one_s" --durations 15 > "$R/gpu_tests.log" 2>&1
  echo "gpu tests rc=$? seconds=$((SECONDS - started))" >> "$R/gpu_tests.log"
  grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" "$R/gpu_tests.log" | tail -25
}

replay_attach() {
  local started=$SECONDS
  timeout 100 python3 -m pytest -p no:cacheprovider -q -o addopts="" --timeout 90 \
    tests/gdbbridge/record/test_replay.py tests/gdbbridge/jobs/test_attach.py > "$R/replay_attach.log" 2>&1
  echo "replay/attach tests rc=$? seconds=$((SECONDS - started))" >> "$R/replay_attach.log"
  grep -E "^(FAILED|ERROR)|passed|failed|rc=" "$R/replay_attach.log" | tail -8
}

record() {
  local started=$SECONDS lesson
  build
  timeout "${TIMEOUT_S:-560}" python3 scripts/record_demos.py --jobs "${JOBS:-1}" --out "$R/recordings.new" "$@" \
    > "$R/record_demos.log" 2>&1
  echo "record_demos rc=$? seconds=$((SECONDS - started))" >> "$R/record_demos.log"
  cat "$R/recordings.new/summary.txt" 2>/dev/null; tail -3 "$R/record_demos.log" | cut -c1-300
  for recording in "$R"/recordings.new/*.jsonl.gz; do
    [ -f "$recording" ] || continue
    lesson=$(basename "$recording" .jsonl.gz)
    echo "$lesson: $(zcat "$recording" | grep -c -e '-cudatui-gpu-sample') GPU samples"
  done
}

record_lessons() {
  if [ $# -eq 0 ]; then set -- oob race divergence uninit leak tile; fi
  JOBS=${JOBS:-2} record "$@"
  # the guide's claims on the new recordings, both sizes, in this box's copy of the tree (the
  # lead copies $R/recordings.new/* to kernels/recordings; skipped where tmux is missing)
  cp "$R"/recordings.new/*.jsonl.gz "$R"/recordings.new/*.xml.gz kernels/recordings/ 2>/dev/null
  timeout 400 python3 -m pytest -p no:cacheprovider -q -o addopts="" tests/e2e/test_lesson_paths_tmux.py \
    -k "$(echo "$@" | sed 's/ / or /g')" -rs > "$R/lesson_claims.log" 2>&1
  echo "lesson claims rc=$?" >> "$R/lesson_claims.log"
  grep -E "claims checked|awaiting:|passed|failed|rc=" "$R/lesson_claims.log" | cut -c1-300
}

demo_run() {
  local lesson=${1:?demo-run LESSON [BREAKPOINT]} bp=${2:-} log
  build "$lesson"
  [ -n "$bp" ] || bp=$(python3 -c "from cudatui.kernels.lessons import get_lesson; print(get_lesson('$lesson').breakpoint_specs()[0][0])")
  log=$R/demo_run_$lesson.log
  { echo "== plain: python3 kernels/demos/$lesson.py"
    timeout 120 python3 "kernels/demos/$lesson.py" 2>&1 | tail -15; echo "rc=${PIPESTATUS[0]}"
    echo "== cuda-gdb -batch, break $bp"
    timeout 240 cuda-gdb -batch -nx -ex "set breakpoint pending on" -ex "break $bp" -ex run -ex "info cuda kernels" \
      -ex continue -ex continue --args python3 "kernels/demos/$lesson.py" 2>&1 | tail -40; echo "rc=${PIPESTATUS[0]}"
  } > "$log" 2>&1
  cut -c1-300 "$log"
}

sanitizer_reports() {
  build
  timeout 420 bash scripts/record_lessons_sanitizer.sh "$R/san" > "$R/san.log" 2>&1
  echo "sanitizer reports rc=$?" >> "$R/san.log"
  tail -3 "$R/san.log"
}

racecheck_hazards() {
  timeout 500 bash scripts/record_racecheck_hazards.sh "$R/hazards" > "$R/hazards.log" 2>&1
  echo "racecheck hazards rc=$?" >> "$R/hazards.log"
  tail -6 "$R/hazards.log"
}

nvml() {
  local seconds=${1:-60}
  timeout $((seconds + 60)) python3 scripts/record_nvml.py --seconds "$seconds" --load-start $((seconds / 6)) \
    --load-end $((seconds * 3 / 4)) --out "$R/h200_samples.jsonl" > "$R/nvml_record.log" 2>&1
  echo "nvml rc=$?" >> "$R/nvml_record.log"
  tail -3 "$R/nvml_record.log"
}

threads_at_bp() {
  timeout 150 python3 scripts/gpu_threads_at_bp.py "$R/threads_at_bp.jsonl" > "$R/threads_at_bp.log" 2>&1
  echo "threads rc=$?" >> "$R/threads_at_bp.log"
  tail -12 "$R/threads_at_bp.log" | cut -c1-300
}

tmux_session() {
  [ $# -eq 3 ] || { echo "usage: gpu_box.sh tmux LESSON COLSxROWS BREAKPOINT" >&2; return 2; }
  build
  timeout 200 bash scripts/tmux_live.sh "$R/tmux" "$@" > "$R/tmux_$1.log" 2>&1
  echo "tmux rc=$?" >> "$R/tmux_$1.log"
  cat "$R/tmux_$1.log"
}

bench() {
  local started=$SECONDS
  timeout 240 python3 -m bench.stop_to_screen --passes 1 > "$R/stop_to_screen.txt" 2>&1
  echo "bench rc=$? seconds=$((SECONDS - started))" >> "$R/stop_to_screen.txt"
  grep -E "UI part|MI part|rc=" "$R/stop_to_screen.txt" | cut -c1-260
  build
  timeout 150 python3 -m bench.gpu --lesson divergence --rounds 2 > "$R/bench_gpu.log" 2>&1
  echo "bench.gpu rc=$?" >> "$R/bench_gpu.log"
  tail -5 "$R/bench_gpu.log"
}

bench_gpu() {
  build > /dev/null
  local lesson=${2:-divergence}
  timeout 200 python3 -m bench.gpu --lesson "$lesson" --rounds "${1:-2}" --record "$R/app_sessions_$lesson" \
    > "$R/bench_gpu_$lesson.log" 2>&1
  echo "bench.gpu rc=$?" >> "$R/bench_gpu_$lesson.log"
  grep -v '^  WHY/FIX' "$R/bench_gpu_$lesson.log" | tail -30 | cut -c1-400
}

bench_host_stack() {
  timeout 120 python3 -m bench.host_stack --rounds "${1:-15}" 2>/dev/null | tee "$R/bench_host_stack.log" | cut -c1-300
}

run_jobs() {
  local own=$OUT/own build_pid f
  mkdir -p "$own"
  # the rank's -G extension, built once before torchrun starts two ranks that would both wait on its build
  ( cd tests/fixtures/c/jobs && timeout 200 python3 -c "import runpy; runpy.run_path('ddp_bump.py')" \
      > "$own/build_ext.log" 2>&1; echo "extension build rc=$?" >> "$own/build_ext.log" ) &
  build_pid=$!
  CUDATUI_RECORD_OWN=$own timeout 200 python3 -m pytest -p no:cacheprovider -m gpu tests/gpu/test_jobs_gpu.py \
      -k attach -q -rs > "$own/attach.log" 2>&1
  wait $build_pid
  CUDATUI_RECORD_OWN=$own timeout 200 python3 -m pytest -p no:cacheprovider -m gpu tests/gpu/test_jobs_gpu.py \
      -k rank -q -rs > "$own/rank.log" 2>&1
  # the tier-1 rank test with the real torchrun (skipped where torch or GNU gdb is missing)
  timeout 120 python3 -m pytest -p no:cacheprovider tests/app/test_rank_app.py -k real_torchrun -q -rs \
      > "$own/torchrun_gdb.log" 2>&1
  for f in build_ext attach rank torchrun_gdb; do echo "== $f"; tail -25 "$own/$f.log" | cut -c1-400; done
  ls -la "$own"
}

own_programs() {
  local dest=tests/fixtures/recorded/own tmp logs=$R/own2 name
  if [ $# -eq 0 ]; then set -- ext_oob cupy_oob triton_quiet_oob; fi
  tmp=$(mktemp -d); mkdir -p "$logs"
  timeout 200 python3 scripts/record_own.py "$tmp/rec" "$@" > "$logs/record_own.log" 2>&1
  echo "record_own.py rc=$?"
  for name in "$@"; do  # new files only: an existing recording is never overwritten
    [ -f "$tmp/rec/$name.jsonl" ] && cp -n "$tmp/rec/$name.jsonl" "$dest/ui_$name.jsonl"
    [ -d "$tmp/rec/$name.source" ] && [ ! -e "$dest/$name.source" ] && cp -r "$tmp/rec/$name.source" "$dest/"
    [ -f "$dest/ui_$name.jsonl" ] && cp "$dest/ui_$name.jsonl" "$logs/"
    [ -d "$dest/$name.source" ] && cp -r "$dest/$name.source" "$logs/"
  done
  timeout 150 python3 -m pytest -p no:cacheprovider -q -rs -m gpu tests/gpu/test_own_gpu.py > "$logs/gpu_own_tests.log" 2>&1
  echo "gpu tests rc=$?"
  timeout 60 python3 -m pytest -p no:cacheprovider -q -rs tests/app/test_own_programs_replay.py > "$logs/replay_own_tests.log" 2>&1
  echo "replay tests rc=$?"
  cut -c1-300 "$logs/record_own.log"; tail -8 "$logs/gpu_own_tests.log"; tail -8 "$logs/replay_own_tests.log"
}

triage() {
  # cudatui triage on own programs (scripts/record_triage.py: plain run vs triage vs the post-mortem
  # screen, recorded through the UI into $R/triage), then its tier-3 test
  local started=$SECONDS
  timeout 300 python3 scripts/record_triage.py "$R/triage" "${@:-torch_index}" > "$R/record_triage.log" 2>&1
  echo "record_triage rc=$? seconds=$((SECONDS - started))" >> "$R/record_triage.log"
  rm -rf "$R"/triage/*.dumps
  timeout 270 python3 -m pytest -p no:cacheprovider -q -s -o addopts="" --timeout 180 -m gpu tests/gpu/test_triage_gpu.py \
    > "$R/triage_gpu.log" 2>&1
  cut -c1-300 "$R/record_triage.log"; grep -E "post-mortem:|--cpu-core|ext_oob dump" "$R/triage_gpu.log" | cut -c1-300; tail -3 "$R/triage_gpu.log"
}

summary() {
  cat "$R/gpu.txt" 2>/dev/null
  [ -f "$R/gpu_tests.log" ] && grep -E "^(FAILED|ERROR)|passed|failed|rc=|SKIPPED" "$R/gpu_tests.log" | tail -25
  [ -f "$R/replay_attach.log" ] && grep -E "^(FAILED|ERROR)|passed|failed|rc=" "$R/replay_attach.log" | tail -8
  [ -f "$R/recordings.new/summary.txt" ] && cat "$R/recordings.new/summary.txt"
  return 0
}

pack() {
  tar czf "$OUT/results.tgz" -C "$OUT" r && ls -la "$OUT/results.tgz"
}

command=${1:-help}
[ $# -gt 0 ] && shift
case $command in
  check) facts > /dev/null; tier3 "$@" > /dev/null; replay_attach > /dev/null; pack > /dev/null; summary ;;
  facts) facts ;;
  build) build "$@"; tail -1 "$R/build.log" ;;
  tier3) tier3 "$@" ;;
  replay-attach) replay_attach ;;
  record) record "$@" ;;
  record-lessons) record_lessons "$@" ;;
  demo-run) demo_run "$@" ;;
  sanitizer-reports) sanitizer_reports ;;
  racecheck-hazards) racecheck_hazards ;;
  nvml) nvml "$@" ;;
  threads-at-bp) threads_at_bp ;;
  tmux) tmux_session "$@" ;;
  bench) bench ;;
  bench-gpu) bench_gpu "$@" ;;
  bench-host-stack) bench_host_stack "$@" ;;
  class) build > /dev/null; timeout 400 python3 scripts/class_live.py "$R/class" "$@" 2>&1 | tee "$R/class.log" | cut -c1-300 ;;
  dump-flags) timeout 400 python3 scripts/dump_flags.py "$@" 2>&1 | tee "$R/dump_flags.txt" | cut -c1-330 ;;
  jobs) run_jobs ;;
  own-programs) own_programs "$@" ;;
  triage) triage "$@" ;;
  screens) build > /dev/null; timeout 560 python3 scripts/h200_screens.py "$R/screens" "$@" 2>&1 | cut -c1-300 ;;
  summary) summary ;;
  pack) pack ;;
  help|-h|--help) usage ;;
  *) echo "gpu_box.sh: unknown subcommand '$command'" >&2; usage >&2; exit 2 ;;
esac
