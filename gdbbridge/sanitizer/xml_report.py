"""Parse the XML that ``compute-sanitizer --xml --save FILE`` writes.

Each ``<record>`` becomes one :class:`~cudatui.gdbbridge.sanitizer.findings.Finding` with the same fields the
text parser gives for the same record, so both formats group alike. The record shapes seen on
an H200 (compute-sanitizer 2025.3.1): ``Precise``/``Initcheck`` (``<what><text>`` plus
``<who>``/``<where>``), ``Imprecise`` (``<what><exception>Warp assert</exception>``),
``Api``, ``Leak``, ``Hazard`` (``<common>``, ``<thread0>``, ``<thread1>``) and racecheck's
``Analysis`` (``<text>Race condition</text>``, ``<source>``, ``<destination>`` with a
``<count>`` of hazards each).

The reader is bounded like the text one (:mod:`.report_file`: a regular file, at most
``MAX_REPORT`` bytes) and refuses elements nested deeper than :data:`MAX_DEPTH` (the sanitizer
nests six). A file that simply stops (the sanitizer was killed) is *truncated*: its complete
records are kept. Anything else expat refuses, before the end of the file, is an error: bad
syntax, or entities expanded past expat's amplification limit (billion laughs).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, cast
from collections.abc import Iterator
from xml.parsers.expat import errors as expat_errors

from cudatui.gdbbridge.sanitizer.findings import (
    API_ERROR, HAZARD, LEAK, OTHER, RACE, DeviceFrame, Dim3, Finding, HostFrame, RaceAccess, SanitizerReport,
)
from cudatui.gdbbridge.sanitizer.grouping import FindingGrouper
from cudatui.gdbbridge.sanitizer.report_file import open_report
from cudatui.gdbbridge.sanitizer.text_report import ReportError, apply_assertion, classify, number, space_name, tool_for

_KIND_OF_RECORD = {"hazard": HAZARD, "api": API_ERROR, "leak": LEAK, "analysis": RACE}

MAX_DEPTH = 64
"""Deepest element nesting read (``<ComputeSanitizerOutput><record><what><thread0><where>``...
is six levels)."""

_CUT_SHORT = {expat_errors.codes[message] for message in (
    expat_errors.XML_ERROR_NO_ELEMENTS, expat_errors.XML_ERROR_UNCLOSED_TOKEN,
    expat_errors.XML_ERROR_PARTIAL_CHAR, expat_errors.XML_ERROR_UNCLOSED_CDATA_SECTION)}
"""expat errors that mean the input ended early, when they come at its end."""


def _xml_text(el: ET.Element | None, path: str) -> str | None:
    value = el.findtext(path) if el is not None else None
    return value.strip() or None if value is not None else None


def _xml_dim(el: ET.Element | None) -> Dim3 | None:
    if el is None:
        return None
    return Dim3(*(number(_xml_text(el, axis)) or 0 for axis in ("x", "y", "z")))


def _xml_where(el: ET.Element | None) -> dict[str, Any]:
    fields = {"kernel": _xml_text(el, "func"), "file": _xml_text(el, "path"),
              "line": number(_xml_text(el, "line")), "pc": number(_xml_text(el, "pc"))}
    return {k: v for k, v in fields.items() if v is not None}


def _xml_side(el: ET.Element, access_tag: str) -> RaceAccess:
    """One access of a hazard (``<thread0>``) or race (``<source>``/``<destination>``)."""
    where = _xml_where(el.find("where"))
    return RaceAccess(access=(_xml_text(el, access_tag) or "").lower(), function=where.get("kernel"),
                      file=where.get("file"), line=where.get("line"), pc=where.get("pc"),
                      thread=_xml_dim(el.find("threadIdx")), hazards=number(_xml_text(el, "count")))


def _first_side(sides: tuple[RaceAccess, ...]) -> dict[str, Any]:
    """The finding's own access, thread and location: those of the first side."""
    first = sides[0]
    fields = {"access": first.access, "thread": first.thread, "kernel": first.function,
              "file": first.file, "line": first.line, "pc": first.pc}
    return {k: v for k, v in fields.items() if v is not None}


def _accesses(what: ET.Element) -> dict[str, Any]:
    """Hazard (``<common>``) or race (``<source>``) details, or {} for other records."""
    common = what.find("common")
    if common is not None:
        sides = tuple(_xml_side(el, "access") for el in (what.find("thread0"), what.find("thread1"))
                      if el is not None)
        fields = {"hazard_type": _xml_text(common, "type"), "address": number(_xml_text(common, "address")),
                  "block": _xml_dim(common.find("blockIdx")), "accesses": sides, "address_space": "shared"}
        return {**{k: v for k, v in fields.items() if v is not None}, **(_first_side(sides) if sides else {})}
    source = what.find("source")
    if source is not None:
        sides = (_xml_side(source, "direction"),) + tuple(
            _xml_side(el, "direction") for el in what.findall("destination"))
        return {"accesses": sides, **_first_side(sides)}
    return {}


def xml_record_to_finding(record: ET.Element, tool: str | None = None) -> Finding:
    """Convert one ``<record>`` of a ``ComputeSanitizerOutput`` document."""
    what = record.find("what")
    message = (_xml_text(what, "text") or _xml_text(what, "exception") or _xml_text(record, "kind")
               or "record")
    kind, fields = classify(message)
    if kind == OTHER:
        kind = _KIND_OF_RECORD.get((_xml_text(record, "kind") or "").lower(), OTHER)
    fields["severity"] = (_xml_text(record, "level") or fields.get("severity") or "error").lower()
    structured = {
        "address_space": space_name(_xml_text(what, "space")), "size": number(_xml_text(what, "size")),
        "access": (_xml_text(what, "direction") or "").lower() or None,
        "error": _xml_text(what, "error"), "address": number(_xml_text(what, "address")),
        "thread": _xml_dim(record.find("who/threadIdx")), "block": _xml_dim(record.find("who/blockIdx")),
        **_xml_where(record.find("where")),
    }
    if kind == API_ERROR:
        structured.update(api_call=_xml_text(what, "api"), error_code=number(_xml_text(what, "result")))
    if what is not None:
        structured.update(_accesses(what))
    fields.update({k: v for k, v in structured.items() if v is not None})
    device = record.findall("deviceStack/frame")
    if device:
        fields["device_backtrace"] = tuple(
            DeviceFrame(function=_xml_text(fr, "func") or "??", offset=number(_xml_text(fr, "pc")),
                        file=_xml_text(fr, "path"), line=number(_xml_text(fr, "line")))
            for fr in device)
    stack = record.find("hostStack")
    if stack is not None:
        fields["backtrace_saved_at"] = _xml_text(stack, "saveLocation")
        fields["host_backtrace"] = tuple(
            HostFrame(function=_xml_text(fr, "func") or "", file=_xml_text(fr, "path"),
                      line=number(_xml_text(fr, "line")), module=_xml_text(fr, "module"),
                      pc=number(_xml_text(fr, "pc")))
            for fr in stack.findall("frame"))
    return Finding(tool=tool or tool_for(kind), kind=kind, message=message,
                   raw=ET.tostring(record, encoding="unicode").strip(), **fields)


class XmlReport:
    """Streaming reader of a ``--xml --save`` file; :attr:`truncated` is set if it ends early."""

    def __init__(self, path: str, tool: str | None = None) -> None:
        self.path = path
        self.tool = tool
        self.truncated = False

    def __iter__(self) -> Iterator[Finding]:
        parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
        depth = 0
        with open_report(self.path) as stream:
            while True:
                chunk = stream.read(1 << 16)
                try:
                    if chunk:
                        parser.feed(chunk)
                    else:
                        parser.close()
                    for event, el in cast(Iterator[tuple[str, ET.Element]], parser.read_events()):
                        depth += 1 if event == "start" else -1
                        if depth > MAX_DEPTH:
                            raise ReportError(f"{self.path}: XML nested deeper than {MAX_DEPTH} elements "
                                              "(not a compute-sanitizer report)")
                        if event == "start" and depth == 1 and el.tag != "ComputeSanitizerOutput":
                            raise ReportError(f"{self.path}: XML root is <{el.tag}>, not <ComputeSanitizerOutput>")
                        if event == "end" and depth == 1:
                            if el.tag == "record":
                                yield xml_record_to_finding(el, self.tool)
                            el.clear()
                except ET.ParseError as exc:
                    if depth == 0 or chunk or exc.code not in _CUT_SHORT:
                        raise ReportError(f"{self.path}: not valid XML ({exc})") from None
                    self.truncated = True
                    return
                if not chunk:
                    return


def parse_xml(path: str, tool: str | None = None,
              assertions: dict[tuple[Dim3, Dim3], tuple[str, int, str, str]] | None = None) -> SanitizerReport:
    """Parse a ``--xml --save`` file (complete records of a truncated file are kept).

    ``assertions`` (from :attr:`TextReportParser.assertions` of the same run) give device-assert
    records the file:line of the assertion the program printed.
    """
    reader, grouper = XmlReport(path, tool), FindingGrouper()
    for finding in reader:
        grouper.add(apply_assertion(finding, assertions or {}))
    return SanitizerReport(tool=tool, groups=grouper.groups(), source="xml", truncated=reader.truncated)


