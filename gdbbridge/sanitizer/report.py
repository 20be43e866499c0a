"""Read compute-sanitizer reports: the text it prints and the XML of ``--xml --save FILE``.

Both parsers produce :class:`~cudatui.gdbbridge.sanitizer.findings.Finding` objects with the same fields for the
same record: :mod:`cudatui.gdbbridge.sanitizer.text_report` (incremental, for live output) and
:mod:`cudatui.gdbbridge.sanitizer.xml_report`. :func:`read_report` turns a saved report of either format into a
grouped :class:`~cudatui.gdbbridge.sanitizer.findings.SanitizerReport`.
"""

from __future__ import annotations

from dataclasses import replace

from cudatui.gdbbridge.sanitizer.findings import SanitizerReport
from cudatui.gdbbridge.sanitizer.report_file import open_report, report_lines
from cudatui.gdbbridge.sanitizer.text_report import ReportError, parse_text
from cudatui.gdbbridge.sanitizer.xml_report import parse_xml


def with_tool(report: SanitizerReport) -> SanitizerReport:
    """``report`` naming its tool: a saved report does not say it, its findings do (one tool for all)."""
    tools = {group.first.tool for group in report.groups}
    return replace(report, tool=tools.pop()) if report.tool is None and len(tools) == 1 else report


def read_report(path: str, tool: str | None = None) -> SanitizerReport:
    """Read a saved report, XML or text, into a grouped report; :class:`ReportError` if unusable
    (also for what is not a regular file, or is bigger than ``report_file.MAX_REPORT``)."""
    try:
        with open_report(path) as stream:
            head = stream.peek(256)[:256].lstrip(b"\xef\xbb\xbf \t\r\n")
            if not head.startswith(b"<"):
                return with_tool(parse_text(report_lines(stream), tool))
        return with_tool(parse_xml(path, tool))
    except OSError as exc:
        raise ReportError(f"{path}: {exc.strerror or exc}") from None
    except ReportError as exc:
        message = str(exc)
        raise ReportError(message if message.startswith(path) else f"{path}: {message}") from None
