"""Seventh and eighth GPU-box batches: facts for "your own program" (PyTorch's kernels, Triton, a cpp_extension,
attach, one torchrun rank), each session recorded with cudatui's recorder into $OUT.

``python3 scripts/gpu_batch7.py [SCENARIO ...]`` on the GPU box (pystack from .whl on PYTHONPATH;
no SCENARIO: batch 7's). Batch 8 runs ``attach_startup attach_console triton ext torchrun``. Prints one
block per scenario: timings, the stop (function, file, line), what pystack read and how long it took.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HERE = ROOT / "scripts" / "own_programs"
OUT = Path(os.environ.get("OUT", "/tmp/out"))

from cudatui.gdbbridge.session import events as ev  # noqa: E402
from cudatui.gdbbridge.session.errors import MIError  # noqa: E402
from cudatui.gdbbridge.session.gdb import GdbSession  # noqa: E402
from cudatui.gdbbridge.session.mi import Flag  # noqa: E402


def python_stack(pid: int) -> tuple[float, list[tuple[str, int, str]]]:
    from pystack.engine import get_process_threads

    t0 = time.perf_counter()
    frames = []
    for thread in get_process_threads(pid, stop_process=False):
        frame = thread.frame
        while frame is not None:
            frames.append((frame.code.filename, frame.code.location.lineno, frame.code.scope))
            frame = frame.next
    return time.perf_counter() - t0, frames


async def until_stop(q: asyncio.Queue, timeout: float) -> ev.Stopped | None:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = await asyncio.wait_for(q.get(), left)
        except asyncio.TimeoutError:
            return None
        if isinstance(event, ev.Stopped):
            return event
    return None


def say(name: str, **facts: object) -> None:
    print(f"== {name}: " + json.dumps(facts, default=str)[:3000], flush=True)


async def run_to_fault(name: str, argv: list[str], env: dict[str, str] | None = None, lanes: str | None = None) -> None:
    t0 = time.monotonic()
    session = GdbSession(["cuda-gdb"], argv, record=OUT / f"{name}.jsonl", env={**os.environ, **(env or {})},
                         cwd=str(HERE))
    q = session.queue()
    await session.start()
    try:
        await session.command("-exec-run")
        stopped = await until_stop(q, 240)
        first = time.monotonic() - t0
        if stopped is None:
            say(name, error="no stop in 240 s")
            return
        frames = await session.command("-stack-list-frames")
        facts: dict[str, object] = {"first_stop_s": round(first, 2), "reason": stopped.payload.get("reason"),
                                    "signal": stopped.payload.get("signal-name"), "frame": stopped.payload.get("frame"),
                                    "focus": stopped.payload.get("CudaFocus"), "stack": frames.get("stack")}
        try:
            facts["locals"] = (await session.command("-stack-list-variables", Flag("--simple-values"))).get("variables")
        except MIError as exc:
            facts["locals"] = f"error {exc.message}"
        if session.inferior_pid:
            times, got = [], []
            for _ in range(5):
                try:
                    spent, got = python_stack(session.inferior_pid)
                    times.append(round(spent * 1000, 1))
                except Exception as exc:  # a fact to report
                    got = [f"{type(exc).__name__}: {exc}"]
            facts["pystack_ms"] = times
            facts["pystack"] = got[:40]
        if lanes:
            values = {}
            for lane in range(32):
                try:
                    await session.command("-cuda-focus-switch", f"lane {lane}")
                    values[lane] = (await session.command("-data-evaluate-expression", lanes)).get("value")
                except MIError as exc:
                    values[lane] = f"error {exc.message}"
            facts["lanes"] = values
        say(name, **facts)
    finally:
        await session.close()


async def attach() -> None:
    build = subprocess.run(["nvcc", "-g", "-G", "-o", "/tmp/spin", str(HERE / "spin.cu")], capture_output=True, text=True)
    if build.returncode:
        say("attach", error=build.stderr[-500:])
        return
    spin = subprocess.Popen(["/tmp/spin"], stdout=subprocess.PIPE, text=True)
    spin.stdout.readline()
    time.sleep(2)
    t0 = time.monotonic()
    session = GdbSession(["cuda-gdb"], record=OUT / "attach.jsonl", inferior_tty=False)
    q = session.queue()
    await session.start()
    facts: dict[str, object] = {}
    try:
        try:
            answer = await session.command("-target-attach", spin.pid)
            facts["attach_answer"] = answer
        except MIError as exc:
            facts["attach_error"] = exc.message
        stopped = await until_stop(q, 60)
        facts["attach_s"] = round(time.monotonic() - t0, 2)
        facts["stopped"] = stopped.payload if stopped else None
        for what in ("info cuda kernels", "info cuda warps"):
            try:
                facts[what] = (await session.console(what))[:1500]
            except MIError as exc:
                facts[what] = f"error {exc.message}"
        try:
            await session.command("-cuda-focus-switch", "block (0,0,0) thread (0,0,0)")
            facts["frames"] = (await session.command("-stack-list-frames")).get("stack")
            facts["locals"] = (await session.command("-stack-list-variables", Flag("--simple-values"))).get("variables")
        except MIError as exc:
            facts["focus_error"] = exc.message
        try:
            await session.command("-target-detach")
            facts["detached"] = True
        except MIError as exc:
            facts["detach_error"] = exc.message
    finally:
        await session.close()
    time.sleep(1)
    facts["alive_after_detach"] = spin.poll() is None
    spin.kill()
    say("attach", **facts)


def torchrun() -> None:
    shim = HERE / "rank_shim.sh"
    shim.write_text('#!/bin/sh\nif [ "$RANK" = "1" ]; then exec cuda-gdb -batch -ex "set cuda break_on_launch application" '
                    '-ex run -ex "info cuda kernels" -ex bt -ex continue --args python3 "$@"; fi\nexec python3 "$@"\n')
    shim.chmod(0o755)
    torchrun_bin = shutil.which("torchrun") or "torchrun"
    for label, argv in (("plain", [torchrun_bin, "--nproc-per-node", "2", str(HERE / "ddp_rank.py")]),
                        ("rank1_cuda_gdb", [torchrun_bin, "--nproc-per-node", "2", "--no-python", str(shim),
                                            str(HERE / "ddp_rank.py")])):
        t0 = time.monotonic()
        done = subprocess.run(argv, capture_output=True, text=True, timeout=280, cwd=str(HERE))
        say(f"torchrun {label}", rc=done.returncode, s=round(time.monotonic() - t0, 1),
            stdout=done.stdout[-2500:], stderr=done.stderr[-1500:])


async def guarded(name: str, work) -> None:
    try:
        await work
    except Exception as exc:  # a fact to report; the other scenarios go on
        say(name, error=f"{type(exc).__name__}: {exc}")


async def mi_lines(proc: asyncio.subprocess.Process, until: str, timeout: float) -> list[str]:
    """stdout lines of a bare MI cuda-gdb until one contains ``until`` (or the timeout)."""
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            raw = await asyncio.wait_for(proc.stdout.readline(), left)
        except asyncio.TimeoutError:
            break
        if not raw:
            break
        lines.append(raw.decode(errors="replace").rstrip())
        if until in lines[-1]:
            break
    return lines


async def attach_variant(how: str) -> None:
    """Attach to a spinning -G kernel without ``-target-attach`` under mi-async (it crashed)."""
    spin = subprocess.Popen(["/tmp/spin"], stdout=subprocess.PIPE, text=True)
    spin.stdout.readline()
    time.sleep(2)
    argv = ["cuda-gdb", "--interpreter=mi3", "--quiet", "--nx"] + (["-p", str(spin.pid)] if how == "startup" else [])
    t0 = time.monotonic()
    proc = await asyncio.create_subprocess_exec(*argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=subprocess.STDOUT)
    facts: dict[str, object] = {}

    async def send(line: str, until: str = "^", timeout: float = 60) -> list[str]:
        proc.stdin.write((line + "\n").encode())
        await proc.stdin.drain()
        return await mi_lines(proc, until, timeout)

    facts["startup"] = (await mi_lines(proc, "(gdb)", 60))[-12:]
    if how == "console":
        facts["attach"] = (await send(f'-interpreter-exec console "attach {spin.pid}"', "^", 60))[-12:]
    facts["attach_s"] = round(time.monotonic() - t0, 2)
    facts["mi_async"] = await send("-gdb-set mi-async on")
    facts["continue"] = await send("-exec-continue", "^")
    time.sleep(1)
    facts["interrupt"] = await send("-exec-interrupt", "*stopped", 30)
    facts["warps"] = (await send('-interpreter-exec console "info cuda warps"', "^", 30))[:14]
    facts["focus"] = await send('-cuda-focus-switch "block (0,0,0) thread (0,0,0)"')
    facts["frames"] = await send("-stack-list-frames")
    facts["detach"] = await send("-target-detach")
    await send("-gdb-exit", "^exit", 10)
    time.sleep(1)
    facts["alive_after_detach"] = spin.poll() is None
    spin.kill()
    say(f"attach {how}", **facts)


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    chosen = set(sys.argv[1:])
    if chosen:
        build = subprocess.run(["nvcc", "-g", "-G", "-o", "/tmp/spin", str(HERE / "spin.cu")], capture_output=True)
        prebuild = subprocess.Popen([py, "-c", "import runpy; runpy.run_path('ddp_rank.py')"], cwd=str(HERE),
                                    env={**os.environ, "RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
                                         "MASTER_PORT": "29511"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        work = []
        if build.returncode == 0:
            work += [guarded(f"attach {h}", attach_variant(h)) for h in ("startup", "console") if f"attach_{h}" in chosen]
        if "triton" in chosen:
            work.append(guarded("triton", run_to_fault("triton_fault", [py, "triton_fault.py"])))
        if "ext" in chosen:
            work.append(guarded("ext", run_to_fault("ext_oob", [py, "ext_oob.py"], lanes="j")))
        await asyncio.gather(*work)
        prebuild.wait(timeout=300)
        if "torchrun" in chosen:
            torchrun()
        return
    prebuild = subprocess.Popen([py, "-c", "import runpy; runpy.run_path('ddp_rank.py')"], cwd=str(HERE),
                                env={**os.environ, "RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
                                     "MASTER_PORT": "29511"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    await asyncio.gather(
        run_to_fault("torch_index", [py, "torch_index.py"]),
        run_to_fault("torch_index_blocking", [py, "torch_index.py"], {"CUDA_LAUNCH_BLOCKING": "1"}),
        run_to_fault("triton_oob", [py, "triton_oob.py"]),
        run_to_fault("ext_oob", [py, "ext_oob.py"], lanes="j"),
        attach(),
    )
    prebuild.wait(timeout=300)
    torchrun()


if __name__ == "__main__":
    asyncio.run(main())
