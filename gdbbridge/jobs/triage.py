"""``cudatui triage``: run a program at full speed, no debugger, with the driver's GPU coredump armed.

Under cuda-gdb every kernel launch costs several times more (8x for small PyTorch launches on
the H200, DESIGN.md), so a job that fails after an hour reaches the debugger's stop after many.
Triage runs the program as it runs alone, its output streaming live, with the CUDA driver told
to write a GPU coredump when a kernel faults (``CUDA_ENABLE_COREDUMP_ON_EXCEPTION``), into a
private directory (0700) that only this run uses; the post-mortem screen then opens that dump.

What is armed, for the program alone (never cudatui's own environment):

- ``CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1``, ``CUDA_COREDUMP_FILE=DIR/gpu.%p.nvcudmp``;
- ``CUDA_COREDUMP_GENERATION_FLAGS``: none by default (a full dump: 61 MB for a PyTorch index
  assert on the H200). ``--lightweight`` asks for :data:`LIGHTWEIGHT` (no global, shared or
  local memory). Measured on the H200 (docs/gpu-runs/batch28): a CuPy kernel's dump shrinks from
  13.2 to 0.6 MB and a cpp_extension's from 37.2 to 22.4 MB, both opened by cuda-gdb 13.0 with the
  exception and lanes; a PyTorch kernel's becomes 0.1 MB, which cuda-gdb 13.0 cannot open (an
  internal error, ``m_num_devices > 0``), hence not the default. The driver's ``gzip_compress``
  changed nothing there;
- ``PYTHONFAULTHANDLER=1``: the driver ends the process with ``abort()`` after the dump, and a
  Python program then prints its Python stack (every thread, innermost last) on stderr, which
  triage keeps: the Python line behind the fault (a sync point, see :mod:`..host.view`);
- the CPU core is turned off (``RLIMIT_CORE`` 0): a host core of a PyTorch process is gigabytes,
  lands wherever the system's ``core_pattern`` says (the user's directory, where a file named
  ``core`` would be replaced), and the Python stack is already in the output. ``--cpu-core``
  (``core_limit``) turns it on, capped at ``--max-dump-size`` with ``RLIMIT_CORE``, and moves it
  into the run's directory (:mod:`.dump_limits`); its Python stack is read (pystack's core
  analysis) where the output holds none. A core made elsewhere opens with
  ``cudatui --core GPU.nvcudmp --host-core CORE``.

Before the run, the filesystem of the directory must have ``--max-dump-size`` free; after it, a
dump cut short (the limit, a full disk) or one the driver began and did not write is said in one
line each (:attr:`TriageResult.notes`).

The run's output is copied to cudatui's stdout as it comes and its last MiB kept in
``DIR/output.txt`` for the post-mortem screen (the device assert message, the Python stack).
ctrl+c reaches the program (it is in the terminal's foreground group) and ends the run.
"""

from __future__ import annotations

import fcntl
import os
import pty
import resource
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from cudatui.gdbbridge.jobs.dump_limits import collect_core, core_place, gpu_dump_notes, replaced_file
from cudatui.gdbbridge.jobs.ranks import launcher_python

LIGHTWEIGHT = "skip_global_memory,skip_shared_memory,skip_local_memory"
"""``CUDA_COREDUMP_GENERATION_FLAGS`` of a lightweight dump (cuda-gdb 13.0's driver flags)."""
TAIL = 1 << 20
"""Bytes of the program's output kept for the post-mortem screen."""
OUTPUT = "output.txt"
"""The file in the run's directory that holds the end of the program's output."""


class TriageError(Exception):
    """The run could not be made or its directory used: one line for the user."""


@dataclass(frozen=True)
class TriageResult:
    """How the program ended: its exit code or the signal that ended it, and the GPU coredump
    the driver wrote (None: none)."""

    returncode: int
    dump: Path | None
    output: Path
    directory: Path
    cpu_core: Path | None = None
    """The CPU core (``core_limit``), moved into ``directory`` where it could be."""
    notes: tuple[str, ...] = ()
    """One line each about the dumps: one cut short, one begun and not written, where a core went."""

    @property
    def signal_name(self) -> str | None:
        if self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    @property
    def exit_status(self) -> int:
        """What a shell reports for the program: its code, or 128 + the signal's number."""
        return self.returncode if self.returncode >= 0 else 128 - self.returncode

    def summary(self, program: str) -> str:
        """One line saying how the program ended (when there is no dump to open, why)."""
        if self.dump is not None:
            return f"{program} faulted on the GPU; its coredump is {self.dump}"
        if self.returncode == 0:
            return f"{program} exited with code 0: no GPU fault"
        if self.signal_name is None:
            return f"{program} exited with code {self.returncode} and no GPU fault (the driver wrote no coredump)"
        return (f"{program} was ended by {self.signal_name} and the driver wrote no GPU coredump (a fault on the "
                "CPU side, or one the driver does not dump)")


def private_directory(keep: str | None) -> Path:
    """A new directory that only this user can enter (0700): ``keep`` when given (made if it is
    missing; an existing one must be the user's own directory, empty of dumps of another run),
    else a new temporary one."""
    if keep is None:
        return Path(tempfile.mkdtemp(prefix="cudatui-triage-"))
    path = Path(keep)
    if os.path.lexists(path) and not path.is_dir():
        raise TriageError(f"cannot use {keep} for the dumps: not a directory")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(path)
    except OSError as exc:
        raise TriageError(f"cannot use {keep} for the dumps: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise TriageError(f"cannot use {keep} for the dumps: not a directory")
    if info.st_uid != os.getuid():
        raise TriageError(f"cannot use {keep} for the dumps: it belongs to another user")
    if info.st_mode & 0o077:
        try:
            os.chmod(path, 0o700)
        except OSError as exc:
            raise TriageError(f"cannot make {keep} private (0700): {exc.strerror or exc}") from None
    return path


def armed_env(base: Mapping[str, str], directory: Path, lightweight: bool = False, cpu_core: bool = False
              ) -> dict[str, str]:
    """``base`` with the GPU coredump armed into ``directory`` (and the driver's CPU core with
    ``cpu_core``) and Python's fault handler on."""
    env = dict(base)
    env.update({
        "CUDA_ENABLE_COREDUMP_ON_EXCEPTION": "1",
        "CUDA_COREDUMP_FILE": str(directory / "gpu.%p.nvcudmp"),
        "PYTHONFAULTHANDLER": "1",
    })
    if cpu_core:
        env["CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION"] = "1"
    else:
        env.pop("CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION", None)
    if lightweight:
        env["CUDA_COREDUMP_GENERATION_FLAGS"] = LIGHTWEIGHT
    else:
        env.pop("CUDA_COREDUMP_GENERATION_FLAGS", None)
    return env


def rank_env(base: Mapping[str, str], directory: Path, rank: int, python: str, lightweight: bool = False) -> dict[str, str]:
    """``base`` for a distributed job's launcher of which only rank ``rank`` is armed: torchrun runs
    each rank's Python through ``$PYTHON_EXEC``, here a shim in ``directory`` (0700) that arms the
    rank whose ``RANK`` is ``rank`` (:func:`armed_env`, its variables exported) and runs ``python``."""
    armed = armed_env({}, directory, lightweight)
    shim = directory / "rank-python"
    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in armed.items())
    fd = os.open(shim, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o700)
    with os.fdopen(fd, "w") as f:
        f.write("#!/bin/sh\n"
                f'if [ "${{RANK-}}" = {shlex.quote(str(rank))} ]; then export {exports}; fi\n'
                f'exec {shlex.quote(python)} "$@"\n')
    env = {name: value for name, value in base.items() if name not in armed and name != "CUDA_COREDUMP_GENERATION_FLAGS"}
    env["PYTHON_EXEC"] = str(shim)
    return env


def _core_limit(limit: int) -> Callable[[], None]:
    """What the child runs before exec: its CPU core capped at ``limit`` bytes (0: none; never
    above the hard limit it has)."""
    def limit_core() -> None:
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
        soft = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_CORE, (soft, soft))
    return limit_core


def _output_pair() -> tuple[int, int]:
    """(read end, the program's end) for its stdout and stderr: a pseudo-terminal of the size of
    cudatui's own when cudatui's stdout is a terminal (the program writes line by line, as it
    does alone), else a pipe."""
    if not os.isatty(1):
        return os.pipe()
    ours, theirs = pty.openpty()
    try:
        fcntl.ioctl(theirs, termios.TIOCSWINSZ, fcntl.ioctl(1, termios.TIOCGWINSZ, b"\0" * 8))
    except OSError:
        pass
    return ours, theirs


def run_armed(argv: Sequence[str], directory: Path, *, cwd: str | None = None, env: Mapping[str, str] | None = None,
        lightweight: bool = False, echo: Callable[[bytes], None] | None = None, rank: int | None = None,
        core_limit: int = 0) -> TriageResult:
    """Run ``argv`` armed (see the module docstring), its output copied to ``echo`` (default:
    cudatui's stdout) as it comes; how it ended and the dump it left in ``directory``. With
    ``rank``, ``argv`` is a distributed job's launcher and only that rank is armed (:func:`rank_env`).
    With ``core_limit`` (bytes), its CPU core too, capped at that size (not with ``rank``)."""
    write = echo or _stdout
    base = env if env is not None else os.environ
    if core_limit and rank is not None:
        raise TriageError("a CPU core (--cpu-core) is for a program, not for one rank of a job")
    cores = core_place(cwd or os.getcwd()) if core_limit else None
    refused = replaced_file(cores) if cores is not None else None
    if refused is not None:
        raise TriageError(refused)
    program_env = (armed_env(base, directory, lightweight, cpu_core=bool(core_limit)) if rank is None
                   else rank_env(base, directory, rank, launcher_python(argv), lightweight))
    started = time.time()
    ours, theirs = _output_pair()
    try:
        proc = subprocess.Popen(list(argv), cwd=cwd, env=program_env, stdout=theirs, stderr=theirs,
                                preexec_fn=_core_limit(core_limit))
    except OSError as exc:
        os.close(ours)
        raise TriageError(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    finally:
        os.close(theirs)
    tail = bytearray()
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None  # ctrl+c is the program's to take
    try:
        while True:
            try:
                chunk = os.read(ours, 65536)
            except OSError:  # EIO: the pseudo-terminal's last writer has gone
                break
            if not chunk:
                break
            write(chunk)
            tail += chunk
            if len(tail) > 2 * TAIL:
                del tail[:-TAIL]
        returncode = proc.wait()
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
        os.close(ours)
    output = directory / OUTPUT
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(bytes(tail[-TAIL:]))
    dumps = sorted(directory.glob("gpu.*.nvcudmp"), key=lambda p: p.stat().st_mtime)
    dump = dumps[-1] if dumps else None
    notes = list(gpu_dump_notes(dump, directory, bytes(tail[-TAIL:])))
    core = None
    if cores is not None:
        core, said = collect_core(cores, directory, started, returncode, core_limit)
        notes.extend(said)
    return TriageResult(returncode, dump, output, directory, core, tuple(notes))


def _stdout(chunk: bytes) -> None:
    try:
        sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()
    except (BrokenPipeError, ValueError):
        pass


def remove_run(directory: Path) -> None:
    """Remove a run's directory and what the run wrote in it (never a link's target)."""
    for entry in directory.iterdir():
        try:
            entry.unlink()
        except IsADirectoryError:
            pass
        except OSError:
            pass
    try:
        directory.rmdir()
    except OSError:
        pass
