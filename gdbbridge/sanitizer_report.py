"""Parse compute-sanitizer reports: the text it prints and the XML of ``--xml --save FILE``.

Both parsers produce :class:`~gdbbridge.findings.Finding` objects; :func:`read_report` turns a
saved report (either format) into a grouped :class:`~gdbbridge.findings.SanitizerReport`.
The text parser is incremental (:class:`TextReportParser`), so the runner can feed it live
output line by line.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from typing import Iterable, Iterator, Optional

from gdbbridge.findings import (
    API_ERROR, ASSERT, BARRIER, HAZARD, INVALID_ACCESS, LEAK, OTHER, RACE, UNINITIALIZED_READ,
    AllocationDistance, DeviceFrame, Dim3, Finding, FindingGrouper, HostFrame, RaceAccess,
    SanitizerReport, SanitizerSummary, apply_assertion,
)


class ReportError(Exception):
    """A report that cannot be read or is not compute-sanitizer output (one-line message)."""


_TOOL_OF_KIND = {
    INVALID_ACCESS: "memcheck", LEAK: "memcheck", UNINITIALIZED_READ: "initcheck",
    RACE: "racecheck", HAZARD: "racecheck", BARRIER: "synccheck",
}
_DEFAULT_TOOL = "memcheck"  # compute-sanitizer's default --tool

_PREFIX = re.compile(r"^={9} ?(.*)$")
_NUM = r"\d[\d,]*"
_DIM = r"\((\d+),(\d+),(\d+)\)"
_LOC = re.compile(r"^(?P<func>.+?)\+(?P<off>0x[0-9a-fA-F]+)(?: in (?P<file>.+):(?P<line>\d+))?$")
_HEADLINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (INVALID_ACCESS, re.compile(
        rf"^Invalid (?P<space>\S+) (?P<access>read|write|atomic)(?: of size (?P<size>{_NUM}) bytes?)?")),
    (UNINITIALIZED_READ, re.compile(
        rf"^Uninitialized (?P<space>\S+) memory (?P<access>read|write)(?: of size (?P<size>{_NUM}) bytes?)?")),
    (LEAK, re.compile(rf"^Leaked (?P<size>{_NUM}) bytes? at (?P<address>0x[0-9a-fA-F]+)")),
    (HAZARD, re.compile(
        r"^(?:(?P<severity>Error|Warning): )?Potential (?P<hazard>\w+) hazard detected"
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
    rf"^(?P<file>[^\s:]+):(?P<line>\d+): (?P<func>.+): block: \[(\d+),(\d+),(\d+)\], "
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


def _int(text: Optional[str]) -> Optional[int]:
    """``"4,096"`` / ``"0x370"`` / ``"13"`` -> int; None stays None."""
    if text is None or not text.strip():
        return None
    text = text.strip().replace(",", "")
    return int(text, 16) if text.lower().startswith("0x") else int(text)


def _space(text: Optional[str]) -> Optional[str]:
    """``"__global__"`` -> ``"global"``."""
    return text.strip("_").lower() if text else None


def _dim(groups: tuple[str, ...]) -> Dim3:
    return Dim3(*(int(g) for g in groups))


def _location(text: str) -> dict:
    """Fields of ``func+0xoff in file:line`` (file/line optional)."""
    m = _LOC.match(text.strip())
    if not m:
        return {"kernel": text.strip()}
    return {"kernel": m["func"], "pc": _int(m["off"]), "file": m["file"], "line": _int(m["line"])}


def classify(headline: str) -> tuple[str, dict]:
    """Kind and fields of a record's first line (also used for XML ``<what><text>``)."""
    for kind, pattern in _HEADLINES:
        m = pattern.match(headline)
        if not m:
            continue
        g = m.groupdict()
        fields: dict = {"severity": (g.get("severity") or "error").lower()}
        if g.get("access"):
            fields["access"] = g["access"].lower()
        if g.get("size"):
            fields["size"] = _int(g["size"])
        if g.get("space"):
            fields["address_space"] = _space(g["space"])
        if g.get("address"):
            fields["address"] = _int(g["address"])
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
    return HostFrame(function=m["func"].strip(), file=m["file"], line=_int(m["line"]),
                     module=m["module"], pc=_int(m["pc"]))


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

    def __init__(self, tool: Optional[str] = None) -> None:
        self.tool = tool
        self.summary = SanitizerSummary()
        self.assertions: dict[tuple[Dim3, Dim3], tuple] = {}
        self.saw_header = False
        self._fields: Optional[dict] = None
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
                values = {n: _int(v) for n, v in zip(names, m.groups())}
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
            f["address"] = _int(m["address"])
            if m["error"]:
                f["error"] = m["error"]
        elif m := _DISTANCE.match(text):
            f["distance"] = AllocationDistance(
                bytes=_int(m["n"]) or 0, direction=m["dir"] or "inside",
                allocation_address=_int(m["address"]), allocation_size=_int(m["size"]))
        elif m := _RACE_MORE.match(text):
            loc = _location(m["loc"])
            f["accesses"] = f.get("accesses", ()) + (RaceAccess(
                access=m["access"].lower(), function=loc.get("kernel"), file=loc.get("file"),
                line=loc.get("line"), pc=loc.get("pc"), hazards=_int(m["n"])),)
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
        tool = self.tool or _TOOL_OF_KIND.get(fields["kind"], _DEFAULT_TOOL)
        finding = Finding(tool=tool, raw="\n".join(self._raw), **fields)
        return [apply_assertion(finding, self.assertions)]


def parse_text(lines: Iterable[str], tool: Optional[str] = None) -> SanitizerReport:
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


def _xml_text(el: Optional[ET.Element], path: str) -> Optional[str]:
    value = el.findtext(path) if el is not None else None
    return value.strip() or None if value is not None else None


def _xml_dim(el: Optional[ET.Element]) -> Optional[Dim3]:
    return None if el is None else Dim3(_int(_xml_text(el, "x")) or 0, _int(_xml_text(el, "y")) or 0, _int(_xml_text(el, "z")) or 0)


def _xml_where(el: Optional[ET.Element]) -> dict:
    fields = {"kernel": _xml_text(el, "func"), "file": _xml_text(el, "path"),
              "line": _int(_xml_text(el, "line")), "pc": _int(_xml_text(el, "pc"))}
    return {k: v for k, v in fields.items() if v is not None}


def _xml_side(el: ET.Element) -> RaceAccess:
    where = _xml_where(el.find("where"))
    return RaceAccess(access=(_xml_text(el, "access") or "").lower(), function=where.get("kernel"),
                      file=where.get("file"), line=where.get("line"), pc=where.get("pc"),
                      thread=_xml_dim(el.find("threadIdx")))


def xml_record_to_finding(record: ET.Element, tool: Optional[str] = None) -> Finding:
    """Convert one ``<record>`` of a ``ComputeSanitizerOutput`` document."""
    what = record.find("what")
    message = _xml_text(what, "text") or _xml_text(record, "kind") or "record"
    kind, fields = classify(message)
    xml_kind = (_xml_text(record, "kind") or "").lower()
    if kind == OTHER:
        kind = {"hazard": HAZARD, "api": API_ERROR, "leak": LEAK}.get(xml_kind, OTHER)
    fields["severity"] = (_xml_text(record, "level") or fields.get("severity") or "error").lower()
    structured = {
        "address_space": _space(_xml_text(what, "space")), "size": _int(_xml_text(what, "size")),
        "access": (_xml_text(what, "direction") or "").lower() or None,
        "error": _xml_text(what, "error"), "address": _int(_xml_text(what, "address")),
        "thread": _xml_dim(record.find("who/threadIdx")), "block": _xml_dim(record.find("who/blockIdx")),
        **_xml_where(record.find("where")),
    }
    if kind == API_ERROR:
        structured.update(api_call=_xml_text(what, "api"), error_code=_int(_xml_text(what, "result")))
    common = what.find("common") if what is not None else None
    if common is not None:
        sides = tuple(_xml_side(el) for el in (what.find("thread0"), what.find("thread1")) if el is not None)
        structured.update(hazard_type=_xml_text(common, "type"), address=_int(_xml_text(common, "address")),
                          block=_xml_dim(common.find("blockIdx")), accesses=sides)
        if sides:
            structured.update(access=sides[0].access, thread=sides[0].thread, kernel=sides[0].function,
                              file=sides[0].file, line=sides[0].line, pc=sides[0].pc)
        fields.setdefault("address_space", "shared")
    fields.update({k: v for k, v in structured.items() if v is not None})
    stack = record.find("hostStack")
    if stack is not None:
        fields["backtrace_saved_at"] = _xml_text(stack, "saveLocation")
        fields["host_backtrace"] = tuple(
            HostFrame(function=_xml_text(fr, "func") or "", file=_xml_text(fr, "path"),
                      line=_int(_xml_text(fr, "line")), module=_xml_text(fr, "module"), pc=_int(_xml_text(fr, "pc")))
            for fr in stack.findall("frame"))
    return Finding(tool=tool or _TOOL_OF_KIND.get(kind, _DEFAULT_TOOL), kind=kind, message=message,
                   raw=ET.tostring(record, encoding="unicode").strip(), **fields)


class XmlReport:
    """Streaming reader of a ``--xml --save`` file; :attr:`truncated` is set if it ends early."""

    def __init__(self, path: str, tool: Optional[str] = None) -> None:
        self.path = path
        self.tool = tool
        self.truncated = False

    def __iter__(self) -> Iterator[Finding]:
        parser = ET.XMLPullParser(events=("start", "end"))
        depth = 0
        with open(self.path, "rb") as stream:
            while True:
                chunk = stream.read(1 << 16)
                try:
                    if chunk:
                        parser.feed(chunk)
                    else:
                        parser.close()
                    for event, el in parser.read_events():
                        depth += 1 if event == "start" else -1
                        if event == "start" and depth == 1 and el.tag != "ComputeSanitizerOutput":
                            raise ReportError(f"{self.path}: XML root is <{el.tag}>, not <ComputeSanitizerOutput>")
                        if event == "end" and depth == 1 and el.tag == "record":
                            yield xml_record_to_finding(el, self.tool)
                            el.clear()
                except ET.ParseError as exc:
                    if depth == 0:
                        raise ReportError(f"{self.path}: not valid XML ({exc})") from None
                    self.truncated = True
                    return
                if not chunk:
                    return


def parse_xml(path: str, tool: Optional[str] = None,
              assertions: Optional[dict[tuple[Dim3, Dim3], tuple]] = None) -> SanitizerReport:
    """Parse a ``--xml --save`` file (complete records of a truncated file are kept).

    ``assertions`` (from :attr:`TextReportParser.assertions` of the same run) give device-assert
    records the file:line of the assertion the program printed.
    """
    reader, grouper = XmlReport(path, tool), FindingGrouper()
    for finding in reader:
        grouper.add(apply_assertion(finding, assertions or {}))
    return SanitizerReport(tool=tool, groups=grouper.groups(), source="xml", truncated=reader.truncated)


def read_report(path: str, tool: Optional[str] = None) -> SanitizerReport:
    """Read a saved report, XML or text, into a grouped report; :class:`ReportError` if unusable."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(256).lstrip(b"\xef\xbb\xbf \t\r\n")
        if head.startswith(b"<"):
            return parse_xml(path, tool)
        with open(path, encoding="utf-8", errors="replace") as text:
            return parse_text(text, tool)
    except OSError as exc:
        raise ReportError(f"{path}: {exc.strerror or exc}") from None
    except ReportError as exc:
        message = str(exc)
        raise ReportError(message if message.startswith(path) else f"{path}: {message}") from None
