#!/usr/bin/env bash
# Eighteenth GPU-box batch: why the assert lesson's recordings hold no GPU sample (batches 13 and
# 17; every other lesson's does). The lesson recorded again with the step log saying, per step, why
# no sample was recorded (the GPU pane's reason, or how long the sample in flight has run), and
# beside it a plain Sampler reading NVML every second (how long each read took, what it raised).
# Its path now also reads the asserting thread's label from memory at frame 1 (: print column read
# a stale register there in batch 17).
set -u
. "$(dirname "$0")/gpu_box.sh"
python3 -m cudatui.kernels.build --all > $R/build.log 2>&1
record_lessons assert &
timeout 90 python3 - > $R/sampler.log 2>&1 <<'PY' &
import time, traceback
from cudatui.gdbbridge.nvml.sampler import Sampler
sampler = Sampler()
for n in range(80):
    started = time.monotonic()
    try:
        snap = sampler.sample()
        print(f"{n} {time.monotonic() - started:.3f}s ok gpus={len(snap.gpus)} procs={[len(g.processes) for g in snap.gpus]}", flush=True)
    except Exception:
        print(f"{n} {time.monotonic() - started:.3f}s FAILED", flush=True)
        traceback.print_exc()
    time.sleep(1.0)
PY
wait
tar czf $OUT/results.tgz -C $OUT r
cat $R/recordings.new/summary.txt 2>/dev/null; grep -o "GPU: .*" $R/record_demos.log | cut -c1-300 | sort | uniq -c
grep -c " ok " $R/sampler.log; grep -v " ok " $R/sampler.log | head -20
