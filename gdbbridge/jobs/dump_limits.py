"""How much room the dumps of a ``cudatui triage`` run may take, and whether they were written whole.

- ``--max-dump-size SIZE`` (:data:`DEFAULT_MAX_DUMP`, 4 GiB): the run is refused before the
  program starts when the filesystem of the run's directory has less free space than that
  (:func:`space_problem`): a GPU coredump holds the device memory the program allocated (61 MB
  for a PyTorch index assert on the H200, gigabytes for a training job) and the driver has no
  size limit of its own, so a job failing after an hour should not find the disk full then.
- The CPU core (``--cpu-core``; off by default) is capped at the same size with ``RLIMIT_CORE``.
  The kernel writes it where ``/proc/sys/kernel/core_pattern`` says (:func:`core_place`): a
  relative pattern in the program's directory (it is moved into the run's directory after the
  run), an absolute one in its directory; a pattern that pipes it to a handler (systemd-coredump,
  apport) leaves it with that handler.
- A dump cut short (the limit reached, the disk full) is an ELF file shorter than its own headers
  say (:func:`elf_cut`; a CPU core is ELF, and so is a GPU coredump).
"""

from __future__ import annotations

import os
import re
import resource
import signal
import struct
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_DUMP = 4 << 30
"""The default of ``--max-dump-size``: 4 GiB."""
CORE_PATTERN = Path("/proc/sys/kernel/core_pattern")
CORE_USES_PID = Path("/proc/sys/kernel/core_uses_pid")
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)


def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GiB``, ``1000000`` (bytes) as a number of bytes (units of 1024);
    ValueError with a line for the user otherwise."""
    match = _SIZE.fullmatch(text.strip())
    if match is None or float(match.group(1)) <= 0:
        raise ValueError(f"{text!r} is no size: write it as 4G, 512M or a number of bytes")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def fmt_size(size: int) -> str:
    """``4.0 GiB``, ``612.0 MiB``, ``980 bytes``."""
    for unit, factor in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}"
    return f"{size} bytes"


def free_space(directory: Path) -> int:
    """Bytes an unprivileged user may still write on the filesystem of ``directory``."""
    info = os.statvfs(directory)
    return info.f_bavail * info.f_frsize


def space_problem(directory: Path, limit: int) -> str | None:
    """Why the dumps may not fit (one line), or None: the filesystem of ``directory`` has less
    free space than ``limit`` (``--max-dump-size``)."""
    try:
        free = free_space(directory)
    except OSError as exc:
        return f"cannot tell the free space where the dumps go ({directory}): {exc.strerror or exc}"
    if free >= limit:
        return None
    return (f"only {fmt_size(free)} free where the dumps go ({directory}), less than --max-dump-size "
            f"{fmt_size(limit)}: free some space, put them elsewhere (--keep DIR) or lower --max-dump-size")


@dataclass(frozen=True)
class CorePlace:
    """Where the kernel writes a CPU core: files matching ``glob`` in ``directory``; ``exact``
    when the pattern names one file (which the kernel would replace)."""

    directory: Path
    glob: str
    exact: bool


def core_place(cwd: str, pattern: str | None = None, uses_pid: bool | None = None) -> CorePlace | str:
    """Where a program run in ``cwd`` leaves its CPU core (``pattern`` and ``uses_pid``: the
    kernel's settings, read when None), or why it is not a file there (one line)."""
    try:
        pattern = CORE_PATTERN.read_text().strip() if pattern is None else pattern
        uses_pid = CORE_USES_PID.read_text().strip() == "1" if uses_pid is None else uses_pid
    except OSError as exc:
        return f"cannot read the kernel's core_pattern: {exc.strerror or exc}"
    if not pattern or pattern.startswith("|"):
        handler = pattern[1:].split()[0] if pattern[1:].split() else "?"
        return f"the kernel hands CPU cores to {handler} (core_pattern), not to a file cudatui can move"
    has_pid = "%p" in pattern or "%P" in pattern
    glob = re.sub(r"%.", lambda m: "%" if m.group(0) == "%%" else "*", pattern.replace("*", "?"))
    exact = glob == pattern and not uses_pid
    if uses_pid and not has_pid:
        glob += ".*"
    path = Path(cwd) / glob
    return CorePlace(path.parent, path.name, exact)


def find_core(place: CorePlace, since: float) -> Path | None:
    """The newest regular file of this user in ``place`` changed since ``since`` (a time), or None."""
    found: list[tuple[float, Path]] = []
    for path in place.directory.glob(place.glob):
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if info.st_uid == os.getuid() and info.st_mtime >= since and path.is_file() and not path.is_symlink():
            found.append((info.st_mtime, path))
    return max(found)[1] if found else None


def elf_cut(path: Path) -> tuple[int, int] | None:
    """(bytes there, bytes its headers say) when the ELF file ``path`` is shorter than its
    program headers, section headers and sections reach; None when it is whole, or no ELF file
    (what cannot be read counts as whole: the caller says what it could not open)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(64)
            if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2:  # ELF64 only (x86-64, aarch64, GPU)
                return None
            end = "<" if head[5] == 1 else ">"
            phoff, shoff = struct.unpack_from(end + "QQ", head, 32)
            phentsize, phnum, shentsize, shnum = struct.unpack_from(end + "HHHH", head, 54)
            if phnum == 0xFFFF and shnum and shoff + shentsize <= size:  # PN_XNUM: the count is section 0's sh_info
                f.seek(shoff + 44)
                phnum, = struct.unpack(end + "I", f.read(4))
            needed = max(phoff + phentsize * phnum, shoff + shentsize * shnum)
            if phnum and phoff + phentsize * phnum <= size:
                f.seek(phoff)
                table = f.read(phentsize * phnum)
                for i in range(phnum):
                    offset, _, _, filesz = struct.unpack_from(end + "QQQQ", table, i * phentsize + 8)
                    needed = max(needed, offset + filesz)
            if shnum and shoff + shentsize * shnum <= size:
                f.seek(shoff)
                table = f.read(shentsize * shnum)
                for i in range(shnum):
                    kind, = struct.unpack_from(end + "I", table, i * shentsize + 4)
                    offset, length = struct.unpack_from(end + "QQ", table, i * shentsize + 24)
                    if kind != 8:  # SHT_NOBITS takes no room in the file
                        needed = max(needed, offset + length)
    except OSError:
        return None
    return (size, needed) if size < needed else None


def replaced_file(place: CorePlace | str) -> str | None:
    """Why a CPU core cannot be asked for (one line): the kernel would replace the user's file with
    it (a pattern naming one file, as ``core`` does, where that file exists); else None."""
    path = place.directory / place.glob if isinstance(place, CorePlace) and place.exact else None
    if path is None or not os.path.lexists(path):
        return None
    return (f"the CPU core would replace {path} (the kernel's core_pattern names that file): move it away, or "
            "leave out --cpu-core")


CORE_SIGNALS = frozenset({signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGQUIT,
                          signal.SIGSYS, signal.SIGTRAP, signal.SIGXCPU, signal.SIGXFSZ})
"""The signals whose default action writes a core (the driver ends a faulted process with SIGABRT)."""
GPU_DUMP_BEGUN = b"Starting GPU coredump generation"
"""What the CUDA driver prints as it begins a GPU coredump (cuda 13, on the H200)."""
CPU_CORE = "cpu.core"
"""The CPU core's name in the run's directory."""


def collect_core(place: CorePlace | str, directory: Path, since: float, returncode: int, limit: int
                 ) -> tuple[Path | None, tuple[str, ...]]:
    """The CPU core of a run that ended with ``returncode`` (started at ``since``), moved from
    ``place`` into ``directory``, and one line for each thing to say about it: where it went when it
    is not there, that it is missing or cut short (at ``limit``, ``--max-dump-size``)."""
    dumped = returncode < 0 and -returncode in CORE_SIGNALS
    if isinstance(place, str):
        return None, ((f"no CPU core: {place}",) if dumped else ())
    found = find_core(place, since)
    if found is None:
        if not dumped:
            return None, ()
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
        why = "the hard limit on cores is 0 (ulimit -Hc)" if hard == 0 else f"none appeared as {place.directory / place.glob}"
        return None, (f"no CPU core was written: {why}",)
    notes: list[str] = []
    core = directory / CPU_CORE
    try:
        os.rename(found, core)
    except OSError as exc:
        core = found
        notes.append(f"the CPU core stays at {found}: it could not be moved into {directory} ({exc.strerror or exc})")
    cut = elf_cut(core)
    if cut is not None:
        notes.append(f"the CPU core is cut short at {fmt_size(cut[0])} of {fmt_size(cut[1])} (--max-dump-size "
                     f"{fmt_size(limit)}): pystack or gdb may not read it; raise --max-dump-size")
    return core, tuple(notes)


def gpu_dump_notes(dump: Path | None, directory: Path, output: bytes) -> tuple[str, ...]:
    """A line about the GPU coredump when it is missing though the driver began it (its message in
    the program's ``output``), empty, or cut short (a full disk)."""
    if dump is None:
        if GPU_DUMP_BEGUN in output:
            return (f"the driver began a GPU coredump but none is in {directory} (a full disk?)",)
        return ()
    try:
        size = dump.stat().st_size
    except OSError as exc:
        return (f"the GPU coredump {dump.name} cannot be read: {exc.strerror or exc}",)
    if size == 0:
        return (f"the GPU coredump {dump.name} is empty (a full disk?): cuda-gdb cannot open it",)
    cut = elf_cut(dump)
    if cut is not None:
        return (f"the GPU coredump {dump.name} is cut short at {fmt_size(cut[0])} of {fmt_size(cut[1])} (a full disk?): "
                "cuda-gdb may not open it",)
    return ()
