"""Which of the driver's GPU-coredump options cuda-gdb can open, and what each one saves.

For each program of scripts/own_programs and each ``CUDA_COREDUMP_GENERATION_FLAGS`` set, run the
program armed as ``cudatui triage`` arms it (gdbbridge/jobs/triage.py), then open its dump with
``cuda-gdb -batch -ex 'target cudacore DUMP'`` and print one line: the dump's size, whether
cuda-gdb opened it (the exception named, no internal error), the lanes it lists, and the
run's time. Run on a GPU box::

    python scripts/dump_flags.py [NAME ...]     # default: cupy_oob ext_oob torch_index
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cudatui.gdbbridge.jobs.triage import armed_env

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "scripts" / "own_programs"
FLAG_SETS = (
    "",
    "skip_global_memory",
    "skip_global_memory,skip_shared_memory,skip_local_memory",
    "skip_nonrelocated_elf_images",
    "skip_constbank_memory",
    "gzip_compress",
    "faulted_contexts_only",
    "skip_global_memory,skip_constbank_memory,gzip_compress,faulted_contexts_only",
)


def try_flags(name: str, flags: str) -> str:
    with tempfile.TemporaryDirectory(prefix="cudatui-flags-") as tmp:
        directory = Path(tmp)
        env = armed_env(os.environ, directory)
        if flags:
            env["CUDA_COREDUMP_GENERATION_FLAGS"] = flags
        started = time.perf_counter()
        run = subprocess.run([sys.executable, str(PROGRAMS / f"{name}.py")], cwd=PROGRAMS, env=env,
                             capture_output=True, text=True, errors="replace", timeout=300)
        ran = time.perf_counter() - started
        dumps = sorted(directory.glob("gpu.*.nvcudmp"))
        if not dumps:
            return f"no dump (exit {run.returncode}, {ran:.2f} s): {run.stderr.strip()[-160:]!r}"
        dump = dumps[-1]
        size = dump.stat().st_size / 1e6
        t0 = time.perf_counter()
        opened = subprocess.run(["cuda-gdb", "-nx", "-batch", "-ex", f"target cudacore {dump}", "-ex", "info cuda lanes",
                                 "-ex", "info locals", "-ex", "x/2i $errorpc"],
                                capture_output=True, text=True, errors="replace", timeout=300)
        took = time.perf_counter() - t0
        said = opened.stdout + opened.stderr
        named = next((line.strip() for line in said.splitlines() if "Exception" in line and "CUDA" in line), "")
        broken = [line.strip() for line in said.splitlines() if "internal" in line.lower() or "Assertion" in line]
        lanes = sum(1 for line in said.splitlines() if line.strip().startswith(("*", " ")) and "0x" in line)
        return (f"{size:8.1f} MB  run {ran:5.2f} s  open {took:5.2f} s rc {opened.returncode}  "
                f"{'OPENED' if named and not broken else 'FAILED'}  {named[:60]!r}  lanes~{lanes}  "
                f"{broken[0][:120] if broken else ''}")


def main(names: list[str]) -> int:
    for name in names or ["cupy_oob", "ext_oob", "torch_index"]:
        for flags in FLAG_SETS:
            try:
                line = try_flags(name, flags)
            except subprocess.TimeoutExpired as exc:
                line = f"timed out: {exc.cmd[0]}"
            print(f"{name:<12} {flags or '(full)':<75} {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
