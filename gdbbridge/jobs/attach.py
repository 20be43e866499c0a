"""Attaching to a running process: whether the kernel will let gdb trace it, said in one line.

gdb's own words for a refusal are ``ptrace: Operation not permitted.`` whatever the cause. The
causes can be told apart beforehand from /proc: no such process, a process of another user, one
already traced by another debugger (``TracerPid`` in /proc/PID/status), a kernel thread (no
program, no memory of its own: ``PF_KTHREAD`` in /proc/PID/stat), a process that is not dumpable
(``prctl(PR_SET_DUMPABLE, 0)``, a setuid program: the kernel refuses even to show its
``/proc/PID/exe`` without CAP_SYS_PTRACE), Yama's ``kernel.yama.ptrace_scope`` (1: only a
debugger's own children; 2: only with CAP_SYS_PTRACE; 3: never), or a container without
CAP_SYS_PTRACE. :func:`attach_problem` says which, or None;
:func:`refusal` explains what gdb said when it was refused anyway. An attach that never ends (the
process cannot stop: a parent held in vfork()) is bounded by the debugger's start-up time-out
and told by :func:`attach_hung`; :func:`release_abandoned` then lets the process go on.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from pathlib import Path

from cudatui.gdbbridge.i18n import tr

YAMA_SCOPE = "/proc/sys/kernel/yama/ptrace_scope"
"""Where Yama keeps its ptrace scope (absent without Yama: no restriction)."""
CAP_SYS_PTRACE = 19
"""The capability's bit in the ``CapEff`` mask of /proc/PID/status."""
ALLOW = "sudo sysctl kernel.yama.ptrace_scope=0"
PF_KTHREAD = 0x00200000
"""The kernel's flag of a kernel thread, in the flags field of /proc/PID/stat."""


@dataclass(frozen=True)
class ProcessInfo:
    """What /proc says about a process: its command line, owner, tracer, state."""

    pid: int
    command: str
    """The command line, words joined by spaces ("" for a kernel thread)."""
    uid: int
    tracer: int
    """The pid of the process tracing it, 0 when none."""
    state: str
    """The state letter: R, S, T (stopped), Z (zombie)..."""
    uses_cuda: bool
    """Whether it has libcuda mapped (a CUDA program: cuda-gdb debugs it)."""


def process_info(pid: int, proc: str = "/proc") -> ProcessInfo | None:
    """What /proc says about ``pid``, or None when there is no such process."""
    base = Path(proc) / str(pid)
    try:
        status = dict(line.split(":", 1) for line in (base / "status").read_text().splitlines() if ":" in line)
        command = (base / "cmdline").read_bytes().rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
    except (OSError, ValueError):
        return None
    try:
        maps = (base / "maps").read_text()
    except OSError:
        maps = ""
    return ProcessInfo(pid, command or f"[{status.get('Name', '?').strip()}]", int(status["Uid"].split()[1]),
                       int(status.get("TracerPid", "0").strip() or 0), status.get("State", "?").strip()[:1],
                       "libcuda.so" in maps)


def is_kernel_thread(pid: int, proc: str = "/proc") -> bool:
    """Whether ``pid`` is a kernel thread (False when /proc cannot tell)."""
    try:
        stat = (Path(proc) / str(pid) / "stat").read_text()
        return bool(int(stat.rsplit(")", 1)[1].split()[6]) & PF_KTHREAD)  # the name, in parentheses, may hold spaces
    except (OSError, ValueError, IndexError):
        return False


def is_hidden(pid: int, proc: str = "/proc") -> bool:
    """Whether the kernel refuses to show ``pid``'s executable to us (a process that is not
    dumpable, or another user's), which it does exactly when it would refuse to let us read it."""
    try:
        os.readlink(Path(proc) / str(pid) / "exe")
    except PermissionError:
        return True
    except OSError:  # gone, or a kernel thread (no executable)
        pass
    return False


def can_trace_anyone(status_text: str) -> bool:
    """Whether a process holds CAP_SYS_PTRACE, from its /proc/PID/status text."""
    for line in status_text.splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split(":", 1)[1], 16) >> CAP_SYS_PTRACE & 1)
    return False


def yama_problem(scope_text: str, privileged: bool) -> str | None:
    """Why Yama refuses attaching to a process that is not our child, from the content of
    /proc/sys/kernel/yama/ptrace_scope (``"1\\n"``) and whether we hold CAP_SYS_PTRACE."""
    scope = scope_text.strip()
    if scope == "1" and not privileged:
        return (f"Yama ptrace_scope is 1: a debugger may attach only to its own children. Run the program under "
                f"cudatui instead, or allow attaching with `{ALLOW}`")
    if scope == "2" and not privileged:
        return (f"Yama ptrace_scope is 2: only a debugger with CAP_SYS_PTRACE may attach. Run cudatui as root "
                f"(sudo), or allow attaching with `{ALLOW}`")
    if scope == "3":
        return "Yama ptrace_scope is 3: attaching is disabled until the next reboot. Run the program under cudatui instead"
    return None


def attach_problem(pid: int, *, proc: str = "/proc", yama: str = YAMA_SCOPE) -> str | None:
    """Why gdb cannot attach to ``pid`` (one line), or None when nothing says it cannot."""
    info = process_info(pid, proc)
    if info is None:
        return f"no process {pid}"
    if info.state in ("Z", "X"):
        return f"process {pid} has exited (a zombie waiting for its parent)"
    if pid == os.getpid():
        return f"process {pid} is cudatui itself"
    if is_kernel_thread(pid, proc):
        return f"process {pid} is a kernel thread ({info.command.strip('[]')}): it runs no program a debugger can attach to"
    try:
        privileged = can_trace_anyone(Path("/proc/self/status").read_text())
    except OSError:
        privileged = False
    if info.tracer:
        tracer = process_info(info.tracer, proc)
        name = f" ({tracer.command.split(' ', 1)[0]})" if tracer else ""
        return f"process {pid} is already traced by process {info.tracer}{name}: detach that debugger first"
    if info.uid != os.getuid() and not privileged:
        return (f"process {pid} belongs to another user (uid {info.uid}): run cudatui as that user, or as root "
                "(a container needs CAP_SYS_PTRACE: docker run --cap-add=SYS_PTRACE)")
    if not privileged and is_hidden(pid, proc):
        return (f"process {pid} is not dumpable (it called prctl(PR_SET_DUMPABLE, 0), or changed its user): only a "
                "debugger with CAP_SYS_PTRACE may attach to it. Run cudatui as root (sudo), or start the program "
                "under cudatui")
    try:
        scope = Path(yama).read_text()
    except OSError:
        return None
    return yama_problem(scope, privileged)


def attach_hung(pid: int, seconds: float) -> str:
    """One line for a debugger still attaching to ``pid`` after ``seconds``: ptrace attached, but
    the process never stopped for it (the debugger waits without end)."""
    info = process_info(pid)
    if info is not None and info.state == "D":
        return tr("the debugger did not finish attaching to process {pid} within {seconds} s: it is in uninterruptible "
                  "sleep (state D: a parent waiting in vfork() for its child to exec or exit, or a process stuck in "
                  "the kernel) and cannot stop until it wakes; attach once it has, or to its child").format(
            pid=pid, seconds=f"{seconds:g}")
    return tr("the debugger did not finish attaching to process {pid} within {seconds} s: it never stopped for it "
              "(state {state})").format(pid=pid, seconds=f"{seconds:g}", state=info.state if info else "?")


def release_abandoned(pid: int, proc: str = "/proc") -> bool:
    """After the debugger of an attach was ended before the process stopped for it: whether
    ``pid``, traced by no one now, still held the SIGSTOP that ptrace's attach sent (pending in
    /proc/PID/status while it cannot stop) and was sent SIGCONT, which discards it. Without
    that, the process would stop as soon as it wakes, long after cudatui has gone."""
    try:
        status = dict(line.split(":", 1) for line in (Path(proc) / str(pid) / "status").read_text().splitlines()
                      if ":" in line)
        pending = int(status["SigPnd"], 16) | int(status["ShdPnd"], 16)
        traced = int(status["TracerPid"])
    except (OSError, KeyError, ValueError):
        return False
    if traced or not pending >> (signal.SIGSTOP - 1) & 1:
        return False
    try:
        os.kill(pid, signal.SIGCONT)
    except OSError:
        return False
    return True


def refusal(pid: int, said: str) -> str:
    """One line on gdb's failure to attach to ``pid`` (``said``: gdb's last words, such as
    ``ptrace: Operation not permitted.``): what /proc tells of the cause, else what to check."""
    said = " ".join(said.split()).rstrip(".")
    known = attach_problem(pid)
    if known:
        return known
    if "not permitted" in said:
        return (f"the kernel refused to let the debugger trace process {pid} ({said}): in a container, give it "
                "CAP_SYS_PTRACE (docker run --cap-add=SYS_PTRACE) or a seccomp profile that allows ptrace")
    return f"the debugger could not attach to process {pid}" + (f" ({said})" if said else "")


def attach_debugger(info: ProcessInfo, have_gdb: bool) -> str:
    """The debugger for ``info``'s process: cuda-gdb for a CUDA program, GNU gdb otherwise
    (when installed; cuda-gdb debugs CPU programs too)."""
    return "gdb" if have_gdb and not info.uses_cuda else "cuda-gdb"


def attached_pid(argv: list[str] | tuple[str, ...] | None) -> int | None:
    """The pid a recorded debugger was started to attach to (``-p PID`` in its argv), or None."""
    words = list(argv or ())
    if "-p" in words[:-1]:
        value = words[words.index("-p") + 1]
        return int(value) if value.isdigit() else None
    return None


def short_command(command: str, width: int = 60) -> str:
    """``command`` with its program's base name (``python3 train.py``), cut to ``width``
    characters (with an ellipsis)."""
    program, _, rest = command.partition(" ")
    short = " ".join(w for w in (os.path.basename(program) or program, rest) if w)
    return short if len(short) <= width else short[: width - 1] + "…"
