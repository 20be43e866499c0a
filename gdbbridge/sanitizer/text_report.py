"""Parse compute-sanitizer's text output, and the record headlines that XML shares with it.

The text parser is incremental (:class:`TextReportParser`), so the runner can feed it live
output line by line; :func:`classify` turns a record's first line (the text headline or the
XML ``<what><text>``) into a finding kind and fields; :func:`number` and :func:`space_name`
convert values once, for both formats.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any
from collections.abc import Iterable

from cudatui.gdbbridge.sanitizer.findings import (
    API_ERROR, ASSERT, BARRIER, HAZARD, INVALID_ACCESS, LEAK, OTHER, RACE, UNINITIALIZED_READ,
    AllocationDistance, DeviceFrame, Dim3, Finding, HostFrame, RaceAccess, SanitizerReport, SanitizerSummary,
)
from cudatui.gdbbridge.sanitizer.grouping import FindingGrouper


class ReportError(Exception):
    """A report that cannot be read or is not compute-sanitizer output (one-line message)."""


_TOOL_OF_KIND = {
    INVALID_ACCESS: "memcheck", LEAK: "memcheck", UNINITIALIZED_READ: "initcheck",
    RACE: "racecheck", HAZARD: "racecheck", BARRIER: "synccheck",
}
_DEFAULT_TOOL = "memcheck"  # compute-sanitizer's default --tool


def tool_for(kind: str) -> str:
    """The tool that reports findings of ``kind`` (memcheck when several could)."""
    return _TOOL_OF_KIND.get(kind, _DEFAULT_TOOL)


_PREFIX = re.compile(r"^={9} ?(.*)$")
_NUM = r"\d[\d,]*"
_DIM = r"\((\d+),(\d+),(\d+)\)"
_LOC = re.compile(r"^(?P<func>.+?)\+(?P<off>0x[0-9a-fA-F]+)(?: in (?P<file>.+):(?P<line>\d+))?$")
_HEADLINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (INVALID_ACCESS, re.compile(
        rf"^Invalid (?P<space>\S+) (?P<access>read|write|atomic)(?: of size (?P<size>{_NUM}) bytes?)?")),
    (UNINITIALIZED_READ, re.compile(
        rf"^Uninitialized (?P<space>\S+) memory (?P<access>read|write)(?: of size (?P<size>{_NUM}) bytes?)?")),
    (LEAK, re.compile(rf"^Leaked (?P<size>{_NUM}) bytes?(?: at (?P<address>0x[0-9a-fA-F]+))?")),
    (HAZARD, re.compile(
        r"^(?:(?P<severity>Error|Warning): )?(?:\([^)]*\) )?Potential (?P<hazard>\w+) hazard detected"
        r"(?: at (?P<space>\S+) (?P<address>0x[0-9a-fA-F]+) in block \((?P<bx>\d+),(?P<by>\d+),(?P<bz>\d+)\))?")),
    (RACE, re.compile(
        r"^(?:(?P<severity>Error|Warning): )?Race reported between (?P<access>\w+) access at (?P<loc>.+)$")),
    (ASSERT, re.compile(r"^(?:Warp|Lane|Device) assert")),
    (API_ERROR, re.compile(
        r'^Program hit (?P<error>\w+) \(error (?P<code>\d+)\) due to "(?P<detail>.*)"'
        r" on CUDA API call to (?P<api>\w+)")),
    (BARRIER, re.compile(r"^Barrier error detected")),
    (OTHER, re.compile(r"^(?P<severity>Error|Warning)\b")),
)
_BY_THREAD = re.compile(rf"^by thread {_DIM} in block {_DIM}")
_ADDRESS = re.compile(r"^(?:Access to|Address) (?P<address>0x[0-9a-fA-F]+)(?: is (?P<error>.+?))?\.?$")
_DISTANCE = re.compile(
    rf"^and is (?:(?P<n>{_NUM}) bytes (?P<dir>before|after)|(?P<inside>inside)) the nearest "
    rf"allocation at (?P<address>0x[0-9a-fA-F]+) of size (?P<size>{_NUM}) bytes?")
_RACE_MORE = re.compile(rf"^and (?P<access>\w+) access at (?P<loc>.+?)(?: \[(?P<n>{_NUM}) hazards?\])?$")
_HAZARD_SIDE = re.compile(rf"^(?P<access>\w+) Thread {_DIM} at (?P<loc>.+)$")
_SAVED = re.compile(r"^Saved host backtrace up to driver entry point at (?P<when>.+?)\.?$")
_HOST_FRAME = re.compile(
    r"^Host Frame: ?(?P<func>.*?)(?: in (?P<file>[^\s:]+):(?P<line>\d+))?"
    r"(?: \[(?P<pc>0x[0-9a-fA-F]+)\])?(?: in (?P<module>\S+))?$")
_DEVICE_FRAME = re.compile(r"^Device Frame: ?(?P<loc>.+)$")
_ASSERTION = re.compile(
    r"^(?P<file>[^\s:]+):(?P<line>\d+): (?P<func>.+): block: \[(\d+),(\d+),(\d+)\], "
    r"thread: \[(\d+),(\d+),(\d+)\] Assertion `(?P<cond>.*)` failed")
_SUMMARIES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(rf"^ERROR SUMMARY: ({_NUM}) errors? were not printed"), ("not_printed",)),
    (re.compile(rf"^ERROR SUMMARY: ({_NUM}) errors?"), ("error_count",)),
    (re.compile(rf"^RACECHECK SUMMARY: ({_NUM}) hazards? displayed \(({_NUM}) errors?, ({_NUM}) warnings?\)"),
     ("hazards_displayed", "race_errors", "race_warnings")),
    (re.compile(rf"^LEAK SUMMARY: ({_NUM}) bytes? leaked in ({_NUM}) allocations?"),
     ("leaked_bytes", "leaked_allocations")),
)
_COREDUMP = re.compile(r"^Generating coredump file (?P<path>.+?)\s*$")


def number(text: str | None) -> int | None:
    """``"4,096"`` / ``"0x370"`` / ``"13"`` -> int; None stays None."""
    if text is None or not text.strip():
        return None
    text = text.strip().replace(",", "")
    return int(text, 16) if text.lower().startswith("0x") else int(text)


def space_name(text: str | None) -> str | None:
    """``"__global__"`` -> ``"global"``."""
    return text.strip("_").lower() if text else None


def _dim(groups: tuple[str, ...]) -> Dim3:
    return Dim3(*(int(g) for g in groups))


def _location(text: str) -> dict[str, Any]:
    """Fields of ``func+0xoff in file:line`` (file/line optional)."""
    m = _LOC.match(text.strip())
    if not m:
        return {"kernel": text.strip()}
    return {"kernel": m["func"], "pc": number(m["off"]), "file": m["file"], "line": number(m["line"])}


def classify(headline: str) -> tuple[str, dict[str, Any]]:
    """Kind and fields of a record's first line (also used for XML ``<what><text>``)."""
    for kind, pattern in _HEADLINES:
        m = pattern.match(headline)
        if not m:
            continue
        g = m.groupdict()
        fields: dict[str, Any] = {"severity": (g.get("severity") or "error").lower()}
        if g.get("access"):
            fields["access"] = g["access"].lower()
        if g.get("size"):
            fields["size"] = number(g["size"])
        if g.get("space"):
            fields["address_space"] = space_name(g["space"])
        if g.get("address"):
            fields["address"] = number(g["address"])
        if kind == HAZARD:
            fields["hazard_type"] = g["hazard"]
            if g["bx"] is not None:
                fields["block"] = Dim3(int(g["bx"]), int(g["by"]), int(g["bz"]))
        elif kind == RACE:
            loc = _location(g["loc"])
            fields["accesses"] = (RaceAccess(access=fields["access"], function=loc.get("kernel"),
                                             file=loc.get("file"), line=loc.get("line"), pc=loc.get("pc")),)
            fields.update(loc)
        elif kind == API_ERROR:
            fields.update(error=g["error"], error_code=int(g["code"]), api_call=g["api"])
        return kind, fields
    return OTHER, {}


def _host_frame(text: str) -> HostFrame:
    m = _HOST_FRAME.match(text)
    assert m is not None  # every part after "Host Frame:" is optional
    return HostFrame(function=m["func"].strip(), file=m["file"], line=number(m["line"]),
                     module=m["module"], pc=number(m["pc"]))


def _device_frame(text: str) -> DeviceFrame:
    loc = _location(text)
    return DeviceFrame(function=loc["kernel"], offset=loc.get("pc"), file=loc.get("file"),
                       line=loc.get("line"))


class TextReportParser:
    """Incremental parser of compute-sanitizer's text output (prefix ``=========``).

    ``feed`` each line; it returns the findings completed by that line. Lines without the
    prefix are the program's own output; assertion messages among them are remembered and
    attached to the matching ``Warp assert`` record.
    """

    def __init__(self, tool: str | None = None) -> None:
        self.tool = tool
        self.summary = SanitizerSummary()
        self.assertions: dict[tuple[Dim3, Dim3], tuple[str, int, str, str]] = {}
        self.saw_header = False
        self._fields: dict[str, Any] | None = None
        self._raw: list[str] = []

    def feed(self, line: str) -> list[Finding]:
        """Consume one line of output; return the findings it completed."""
        line = line.rstrip("\r\n")
        m = _PREFIX.match(line)
        if not m:
            self._note_assertion(line)
            return []
        body = m.group(1)
        if not body.strip():
            return self._flush()
        if body[0].isspace():
            if self._fields is not None:
                self._raw.append(body.strip())
                self._detail(body.strip())
            return []
        done = self._flush()
        if body.strip() == "COMPUTE-SANITIZER":
            self.saw_header = True
        elif not self._summary_line(body):
            kind, fields = classify(body)
            if kind != OTHER or fields:
                self._fields = {"kind": kind, "message": body.strip(), **fields}
                self._raw = [body.strip()]
        return done

    def finish(self) -> list[Finding]:
        """End of output: return the record still open, if any."""
        return self._flush()

    def _note_assertion(self, line: str) -> None:
        m = _ASSERTION.match(line.strip())
        if m and len(self.assertions) < 4096:
            groups = m.groups()
            key = (_dim(groups[3:6]), _dim(groups[6:9]))
            self.assertions[key] = (m["file"], int(m["line"]), m["func"], m["cond"])

    def _summary_line(self, body: str) -> bool:
        for pattern, names in _SUMMARIES:
            m = pattern.match(body)
            if m:
                values: dict[str, Any] = {n: number(v) for n, v in zip(names, m.groups())}
                self.summary = dataclasses.replace(self.summary, **values)
                return True
        if body.startswith("Target application returned an error"):
            self.summary = dataclasses.replace(self.summary, target_error=True)
            return True
        m = _COREDUMP.match(body)
        if m:
            self.summary = dataclasses.replace(self.summary, coredump_path=m["path"])
            return True
        return False

    def _detail(self, text: str) -> None:
        f = self._fields
        assert f is not None
        if text.startswith("Host Frame:"):
            f["host_backtrace"] = f.get("host_backtrace", ()) + (_host_frame(text),)
        elif m := _DEVICE_FRAME.match(text):
            f["device_backtrace"] = f.get("device_backtrace", ()) + (_device_frame(m["loc"]),)
        elif text.startswith("at ") and "kernel" not in f:
            f.update({k: v for k, v in _location(text[3:]).items() if v is not None})
        elif m := _BY_THREAD.match(text):
            f["thread"], f["block"] = _dim(m.groups()[:3]), _dim(m.groups()[3:])
        elif m := _ADDRESS.match(text):
            f["address"] = number(m["address"])
            if m["error"]:
                f["error"] = m["error"]
        elif m := _DISTANCE.match(text):
            f["distance"] = AllocationDistance(
                bytes=number(m["n"]) or 0, direction=m["dir"] or "inside",
                allocation_address=number(m["address"]), allocation_size=number(m["size"]))
        elif m := _RACE_MORE.match(text):
            loc = _location(m["loc"])
            f["accesses"] = f.get("accesses", ()) + (RaceAccess(
                access=m["access"].lower(), function=loc.get("kernel"), file=loc.get("file"),
                line=loc.get("line"), pc=loc.get("pc"), hazards=number(m["n"])),)
        elif m := _HAZARD_SIDE.match(text):
            loc = _location(m["loc"])
            side = RaceAccess(access=m["access"].lower(), function=loc.get("kernel"), file=loc.get("file"),
                              line=loc.get("line"), pc=loc.get("pc"), thread=_dim(m.groups()[1:4]))
            if not f.get("accesses"):
                f.update(access=side.access, thread=side.thread, **loc)
            f["accesses"] = f.get("accesses", ()) + (side,)
        elif m := _SAVED.match(text):
            f["backtrace_saved_at"] = m["when"]

    def _flush(self) -> list[Finding]:
        if self._fields is None:
            return []
        fields, self._fields = self._fields, None
        tool = self.tool or tool_for(fields["kind"])
        finding = Finding(tool=tool, raw="\n".join(self._raw), **fields)
        return [apply_assertion(finding, self.assertions)]


def parse_text(lines: Iterable[str], tool: str | None = None) -> SanitizerReport:
    """Parse compute-sanitizer text output into a grouped report."""
    parser, grouper = TextReportParser(tool), FindingGrouper()
    for line in lines:
        for finding in parser.feed(line):
            grouper.add(finding)
    for finding in parser.finish():
        grouper.add(finding)
    if not parser.saw_header and not grouper.finding_count and parser.summary == SanitizerSummary():
        raise ReportError("not a compute-sanitizer report (no '========= COMPUTE-SANITIZER' output)")
    return SanitizerReport(tool=tool, groups=grouper.groups(), summary=parser.summary, source="text")


def apply_assertion(finding: Finding, assertions: dict[tuple[Dim3, Dim3], tuple[str, int, str, str]]) -> Finding:
    """Give a device-assert finding the file:line and kernel of the assertion message it printed."""
    if finding.kind != ASSERT or finding.block is None or finding.thread is None:
        return finding
    hit = assertions.get((finding.block, finding.thread))
    if hit is None:
        return finding
    file, line, func, cond = hit
    return dataclasses.replace(finding, file=file, line=line, kernel=func, pc=None, assertion=cond)
