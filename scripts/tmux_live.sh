#!/usr/bin/env bash
# Drive `cudatui` in a real terminal (tmux) on a GPU box with real cuda-gdb, the way a user would:
# start with a breakpoint, watch the startup progress, step, continue to the end, quit.
# Every screen is saved as text (with timestamps) under OUTDIR, the MI session is recorded.
#
# Usage: scripts/tmux_live.sh OUTDIR LESSON COLSxROWS BREAKPOINT
set -u
out=$1 lesson=$2 size=$3 bp=$4
cols=${size%x*} rows=${size#*x}
cd "$(dirname "$0")/.."
mkdir -p "$out"
name="live_${lesson}_${size}"
log="$out/$name.screens.txt"
: >"$log"
snap() { { echo "=== t=$(( $(date +%s%N) / 1000000 - start_ms )) ms: $1"; tmux capture-pane -p -t "$name"; } >>"$log"; }
wait_for() {  # wait_for TEXT SECONDS
  local deadline=$(( $(date +%s) + $2 ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    tmux capture-pane -p -t "$name" | grep -q -- "$1" && return 0
    sleep 0.3
  done
  return 1
}
start_ms=$(( $(date +%s%N) / 1000000 ))
tmux new-session -d -s "$name" -x "$cols" -y "$rows" \
  "python3 -m cudatui --record $out/$name.jsonl -b '$bp' kernels/demos/$lesson.py; echo EXITED rc=\$?; sleep 5"
sleep 1; snap "startup (1 s)"
sleep 4; snap "startup (5 s)"
if wait_for "stopped" 90; then snap "first stop"; else snap "no stop after 90 s"; fi
for key in n n s; do
  tmux send-keys -t "$name" "$key"
  sleep 0.2
  wait_for "stopped" 20 && snap "after $key" || snap "after $key (not stopped yet)"
done
tmux send-keys -t "$name" c
wait_for "exited\|EXCEPTION\|stopped" 60; sleep 1; snap "after c"
tmux send-keys -t "$name" c
wait_for "exited" 60; snap "end"
tmux send-keys -t "$name" q
sleep 2; snap "after q"
tmux kill-session -t "$name" 2>/dev/null
echo "$name: $(grep -c '^===' "$log") screens in $log; leftover cuda-gdb: $(pgrep -fc cuda-gdb || true)"
