"""How long reading a Python program's stack takes, per pystack method (issue 29's `n` row).

At a kernel stop the Debugger reads the debuggee's Python stack with pystack beside the stop's MI
batch (gdbbridge/host/reader.py, ``method`` AUTO); on the H200 that read (47 ms) was longer than
the batch (26 ms), so it decides when the stop reaches the screen. This bench starts a Python
program that waits in a loop (with torch imported and one CUDA tensor made where torch and a GPU
are there, as the lessons' programs are: hundreds of mapped libraries), then reads its stack with
each pystack method in turn, ``--rounds`` times each, alternating, and prints each method's median
against AUTO's (the product's read). A last row reads with AUTO from a worker thread while this
process's main thread runs Python without a pause, as an event loop does while it parses a stop's
answers and paints: pystack gives the GIL up and takes it back many times in one read, and waits
for it each time (the reason the Debugger reads on the event loop, gdbbridge/debugger/host.py).
Usage: ``python -m bench.host_stack [--rounds N] [--plain]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from statistics import median

from bench import Result, print_results

PROGRAM = """
import sys, time
try:
    import torch
    if torch.cuda.is_available():
        torch.ones(4, device="cuda").sum().item()
    kind = "torch " + torch.__version__
except ImportError:
    kind = "plain"
print(kind, flush=True)
def wait():
    while True:
        time.sleep(0.05)
wait()
"""
"""The program read: it says what it loaded, then waits in a function (a frame to find)."""


def start(plain: bool) -> tuple[subprocess.Popen[str], str]:
    argv = [sys.executable, "-c", PROGRAM.replace("import torch", "import no_such_module_") if plain else PROGRAM]
    program = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert program.stdout is not None
    return program, program.stdout.readline().strip()


def read_once(pid: int, method: object) -> tuple[float, str]:
    """Seconds one read took and what it found ("3 frames" or the error's first words)."""
    from pystack.engine import get_process_threads

    begin = time.perf_counter()
    try:
        threads = list(get_process_threads(pid, stop_process=False, method=method))
        found = f"{sum(len(list(t.frames)) for t in threads)} frames"
    except Exception as exc:  # a method that cannot find the interpreter says so
        found = f"fails: {str(exc)[:60]}"
    return time.perf_counter() - begin, found


def measure(rounds: int, plain: bool) -> list[Result]:
    from pystack.engine import StackMethod

    methods = [StackMethod.AUTO, StackMethod.ELF_DATA, StackMethod.SYMBOLS, StackMethod.BSS]
    program, kind = start(plain)
    try:
        times: dict[object, list[float]] = {m: [] for m in methods}
        found: dict[object, str] = {}
        for _ in range(rounds):
            for method in methods:
                took, found[method] = read_once(program.pid, method)
                times[method].append(took)
        beside = beside_busy_python(program.pid, rounds)
    finally:
        program.kill()
        program.wait()
    auto = median(times[StackMethod.AUTO]) * 1000
    results = [Result("host_stack", "read (AUTO, the product's)", auto, " ms",
                      f"{kind}; median of {rounds}; {found[StackMethod.AUTO]}")]
    for method in methods[1:]:
        ms = median(times[method]) * 1000
        results.append(Result("host_stack", f"read ({method.name}) / AUTO", ms / auto, "x",
                              f"{ms:.1f} ms vs {auto:.1f} ms; {found[method]}"))
    ms = median(beside) * 1000
    results.append(Result("host_stack", "read (AUTO) in a thread beside busy Python / alone", ms / auto, "x",
                          f"{ms:.1f} ms vs {auto:.1f} ms; the main thread runs Python meanwhile, as the app's "
                          f"event loop does at a stop (sys.getswitchinterval() {sys.getswitchinterval() * 1000:g} ms)"))
    return results


def beside_busy_python(pid: int, rounds: int) -> list[float]:
    """Seconds each of ``rounds`` AUTO reads took in a worker thread while this thread runs Python."""
    from pystack.engine import StackMethod

    times: list[float] = []

    def reads() -> None:
        for _ in range(rounds):
            times.append(read_once(pid, StackMethod.AUTO)[0])

    worker = threading.Thread(target=reads)
    worker.start()
    while worker.is_alive():
        sum(i * i for i in range(1000))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.host_stack", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--plain", action="store_true", help="a program without torch")
    args = parser.parse_args(argv)
    print_results(measure(args.rounds, args.plain))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
