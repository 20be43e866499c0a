"""Run compute-sanitizer on a program and stream its output.

One :class:`SanitizerRun` is one ``compute-sanitizer --tool T ... PROGRAM ARGS`` process,
started with :func:`asyncio.create_subprocess_exec` in its own process group. Its stdout (the
tool's text records interleaved with the program's own output) is read in chunks, split into
lines, parsed live by :class:`~cudatui.gdbbridge.sanitizer.report.TextReportParser`, and kept in a
bounded queue: when nobody drains it, the oldest lines are dropped and counted, so 100k lines
of output never grow memory. Findings are folded into groups as they arrive.

Structured results come from ``--xml --save FILE`` (a private file in a ``mkdtemp``
directory, removed afterwards) while the text records stream on stdout. At the end the XML
findings are used when the file is complete, every record in it is understood and it holds at
least as many records as the text; otherwise the live text findings are used (``xml_note``
says why). The summary (``ERROR SUMMARY``, leaks, coredump path) always comes from the text.
"""

from __future__ import annotations

import asyncio
import codecs
import collections
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from collections.abc import AsyncIterator

from cudatui.gdbbridge.sanitizer.findings import OTHER, TOOLS, FindingGroup, SanitizerReport
from cudatui.gdbbridge.sanitizer.grouping import FindingGrouper
from cudatui.gdbbridge.sanitizer.text_report import ReportError, TextReportParser
from cudatui.gdbbridge.sanitizer.xml_report import parse_xml


RACECHECK_REPORTS: tuple[str, ...] = ("hazard", "analysis", "all")
"""racecheck's ``--racecheck-report`` modes: each hazard with both threads and lines, one
summary per pair of lines (compute-sanitizer's default, no threads), or both."""


class SanitizerError(Exception):
    """compute-sanitizer could not be run (one-line message)."""


class SanitizerNotFound(SanitizerError):
    """The compute-sanitizer executable is not on PATH."""


@dataclass(frozen=True)
class SanitizerRequest:
    """What to run: the tool, its options, and the program (a ``.py`` runs under this Python)."""

    program: str
    args: tuple[str, ...] = ()
    tool: str = "memcheck"
    leak_check: bool = False
    """memcheck only: ``--leak-check full``."""
    generate_coredump: bool = False
    """Stop at the first error and write a GPU coredump (for post-mortem in cuda-gdb)."""
    coredump_dir: str | None = None
    """Where the coredump goes; a new private directory (kept, owned by the caller) if None."""
    racecheck_report: str = "hazard"
    """racecheck only: ``--racecheck-report`` (:data:`RACECHECK_REPORTS`). ``hazard`` names
    both accesses of each hazard with their threads and block, which "Debug this finding" stops
    on; the tool's default, ``analysis``, gives only the two lines."""
    print_limit: int = 10000
    """``--print-limit``: records printed as text (0 = unlimited)."""
    xml: bool = True
    cwd: str | None = None
    executable: str = "compute-sanitizer"

    def __post_init__(self) -> None:
        if self.tool not in TOOLS:
            raise ValueError(f"unknown sanitizer tool {self.tool!r} (choose from {', '.join(TOOLS)})")
        if self.leak_check and self.tool != "memcheck":
            raise ValueError("--leak-check works with the memcheck tool only")
        if self.racecheck_report not in RACECHECK_REPORTS:
            raise ValueError(f"unknown racecheck report {self.racecheck_report!r} "
                             f"(choose from {', '.join(RACECHECK_REPORTS)})")


@dataclass(frozen=True)
class SanitizerResult:
    """The outcome of a finished (or cancelled) run."""

    report: SanitizerReport
    returncode: int | None
    cancelled: bool
    line_count: int
    dropped_lines: int
    elapsed: float
    coredump_path: str | None = None
    xml_note: str | None = None
    """Why the XML report was not used, when the findings come from the text."""


def program_argv(program: str, args: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The target command line: a Python script runs under ``sys.executable``."""
    if program.endswith(".py"):
        return [sys.executable, program, *args]
    return [program, *args]


def build_command(request: SanitizerRequest, executable: str, xml_path: str | None,
                  coredump_path: str | None) -> list[str]:
    """The full compute-sanitizer command line for ``request``."""
    cmd = [executable, "--tool", request.tool, "--print-limit", str(request.print_limit)]
    if request.leak_check:
        cmd += ["--leak-check", "full"]
    if request.tool == "racecheck":
        cmd += ["--racecheck-report", request.racecheck_report]
    if xml_path:
        cmd += ["--xml", "--save", xml_path]
    if coredump_path:
        cmd += ["--generate-coredump", "--coredump-name", coredump_path, "--coredump-behavior", "exit"]
    return cmd + program_argv(request.program, request.args)


class SanitizerRun:
    """One compute-sanitizer process: start, stream lines, wait for the result, or cancel."""

    def __init__(self, request: SanitizerRequest, *, max_pending_lines: int = 10_000,
                 max_line_length: int = 8192) -> None:
        self.request = request
        self.max_line_length = max_line_length
        self.line_count = 0
        self.dropped_lines = 0
        self._pending: collections.deque[str] = collections.deque(maxlen=max_pending_lines)
        self._wakeup = asyncio.Event()
        self._parser = TextReportParser(request.tool)
        self._grouper = FindingGrouper()
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._tmpdir: str | None = None
        self._xml_path: str | None = None
        self._coredump_path: str | None = None
        self._started = 0.0
        self._finished: float | None = None
        self._cancelled = False
        self._waiter: asyncio.Future[SanitizerResult] | None = None

    @property
    def elapsed(self) -> float:
        """Seconds since start (frozen once the run ends)."""
        if not self._started:
            return 0.0
        return (self._finished or time.monotonic()) - self._started

    @property
    def running(self) -> bool:
        """True between a successful :meth:`start` and the end of output."""
        return self._reader is not None and not self._reader.done()

    @property
    def pending(self) -> int:
        """Lines queued and not yet taken (never more than ``max_pending_lines``)."""
        return len(self._pending)

    def groups(self) -> tuple[FindingGroup, ...]:
        """Finding groups parsed from the text so far (live view)."""
        return self._grouper.groups()

    async def start(self) -> None:
        """Spawn the process; :class:`SanitizerNotFound` / :class:`SanitizerError` on failure."""
        executable = shutil.which(self.request.executable)
        if executable is None:
            raise SanitizerNotFound(
                f"{self.request.executable} not found on PATH: install the CUDA toolkit or add its bin/ to PATH")
        self._tmpdir = tempfile.mkdtemp(prefix="cudatui-sanitizer-")
        if self.request.xml:
            self._xml_path = os.path.join(self._tmpdir, "report.xml")
            os.close(os.open(self._xml_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        if self.request.generate_coredump:
            folder = self.request.coredump_dir or tempfile.mkdtemp(prefix="cudatui-coredump-")
            self._coredump_path = os.path.join(folder, "sanitizer.nvcudmp")
        cmd = build_command(self.request, executable, self._xml_path, self._coredump_path)
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *cmd, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT, cwd=self.request.cwd, start_new_session=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        except OSError as exc:
            self._remove_tmpdir()
            raise SanitizerError(f"cannot run {executable}: {exc.strerror or exc}") from None
        self._started = time.monotonic()
        self._reader = asyncio.create_task(self._read_output(self._proc.stdout))

    def drain(self) -> list[str]:
        """Take every queued line now (for a UI that batches updates on a timer)."""
        lines = list(self._pending)
        self._pending.clear()
        return lines

    async def lines(self) -> AsyncIterator[str]:
        """Yield output lines as they come, until the output ends."""
        while True:
            if self._pending:
                yield self._pending.popleft()
                continue
            if self._reader is None or self._reader.done():
                return
            self._wakeup.clear()
            await self._wakeup.wait()

    async def wait(self) -> SanitizerResult:
        """Wait for the process to end, then build the result (XML when complete, else text).

        Safe to await from several tasks (a UI worker and a cancel): they share one outcome.
        """
        if self._proc is None or self._reader is None:
            raise SanitizerError("sanitizer run was not started")
        if self._waiter is None:
            self._waiter = asyncio.ensure_future(self._finish())
        return await asyncio.shield(self._waiter)

    async def _finish(self) -> SanitizerResult:
        assert self._proc is not None and self._reader is not None
        try:
            await self._proc.wait()
            try:
                await asyncio.wait_for(asyncio.shield(self._reader), 2.0)
            except asyncio.TimeoutError:  # a child of the program still holds the pipe open
                self._signal_group(signal.SIGKILL)
                await self._reader
            self._finished = time.monotonic()
            return await self._build_result()
        finally:
            self._remove_tmpdir()

    async def cancel(self, grace: float = 2.0) -> SanitizerResult:
        """Stop the run: SIGTERM to its process group, SIGKILL after ``grace`` s; always reap."""
        if self._waiter is not None and self._waiter.done():
            return self._waiter.result()
        self._cancelled = True
        if self._proc is not None and self._proc.returncode is None:
            self._signal_group(signal.SIGTERM)
            try:
                await asyncio.wait_for(self._proc.wait(), grace)
            except asyncio.TimeoutError:
                pass
            finally:  # also when the cancel itself is cancelled (the app's event loop ending)
                self._signal_group(signal.SIGKILL)
        return await self.wait()

    def _signal_group(self, sig: int) -> None:
        if self._proc is None:
            return
        try:
            os.killpg(self._proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    async def _read_output(self, stream: asyncio.StreamReader | None) -> None:
        assert stream is not None
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        partial = ""
        while chunk := await stream.read(1 << 16):
            partial += decoder.decode(chunk)
            *complete, partial = partial.split("\n")
            while len(partial) > self.max_line_length:
                complete.append(partial[: self.max_line_length])
                partial = partial[self.max_line_length:]
            for line in complete:
                self._take_line(line[: self.max_line_length])
        partial += decoder.decode(b"", final=True)
        if partial:
            self._take_line(partial)
        for finding in self._parser.finish():
            self._grouper.add(finding)
        self._wakeup.set()

    def _take_line(self, line: str) -> None:
        line = line.rstrip("\r")
        self.line_count += 1
        for finding in self._parser.feed(line):
            self._grouper.add(finding)
        if len(self._pending) == self._pending.maxlen:
            self.dropped_lines += 1
        self._pending.append(line)
        self._wakeup.set()

    async def _build_result(self) -> SanitizerResult:
        summary = self._parser.summary
        report = SanitizerReport(tool=self.request.tool, groups=self._grouper.groups(),
                                 summary=summary, source="text")
        note = None
        if self._xml_path and os.path.exists(self._xml_path) and os.path.getsize(self._xml_path):
            try:
                xml = await asyncio.to_thread(parse_xml, self._xml_path, self.request.tool,
                                              dict(self._parser.assertions))
            except (ReportError, OSError) as exc:
                note = f"XML report unusable: {exc}"
            else:
                unknown = [g.first.message for g in xml.groups if g.first.kind == OTHER]
                if xml.truncated:
                    note = "XML report was cut short; using the text output"
                elif unknown:
                    note = f"XML record not understood ({unknown[0][:60]}); using the text output"
                elif xml.finding_count < self._grouper.finding_count:
                    note = "XML report holds fewer records than the text; using the text output"
                else:
                    report = SanitizerReport(tool=self.request.tool, groups=xml.groups, summary=summary,
                                             source="xml")
        elif self._xml_path:
            note = "compute-sanitizer wrote no XML report; using the text output"
        coredump = summary.coredump_path or self._coredump_path
        return SanitizerResult(
            report=report, returncode=self._proc.returncode if self._proc else None,
            cancelled=self._cancelled, line_count=self.line_count, dropped_lines=self.dropped_lines,
            elapsed=self.elapsed, coredump_path=coredump if coredump and os.path.exists(coredump) else None,
            xml_note=note)

    def _remove_tmpdir(self) -> None:
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None


async def run_sanitizer(request: SanitizerRequest) -> SanitizerResult:
    """Run to completion without a live consumer (the line queue stays bounded)."""
    run = SanitizerRun(request)
    await run.start()
    try:
        return await run.wait()
    except asyncio.CancelledError:
        await asyncio.shield(run.cancel())
        raise
