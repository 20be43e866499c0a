"""Folding compute-sanitizer findings into groups: identical findings (same tool, kind, access,
size, kernel, file, line) become one :class:`~.findings.FindingGroup` with a count and the
range of blocks and threads they came from; text and XML reports of one run group alike.

The parsers (:mod:`.text_report`, :mod:`.xml_report`) and the runner (:mod:`.run`) group as
findings arrive (:class:`FindingGrouper`); the UI keys a group's row by :func:`group_key`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from cudatui.gdbbridge.sanitizer.findings import API_ERROR, Dim3, Dim3Range, Finding, FindingGroup


def _basename(path: str | None) -> str | None:
    return posixpath.basename(path) if path else path


def group_key(finding: Finding) -> tuple[object, ...]:
    """Grouping identity of a finding.

    The documented fields plus the hazard type and API error, so that different CUDA API
    failures or a WAW next to a RAW hazard on the same line stay apart, and the other sides of
    a race (their access and line), so that one write racing with reads on two lines gives two
    groups. Text and XML reports give the same key: the kernel is its bare
    :func:`function_name` and the file its base name (text prints ``oob.cu``, XML
    ``/src/oob.cu``). Findings without a device line (leaks, API errors) are told apart by
    their host source line, so leaks of one size from two allocation sites stay two groups.
    """
    where = finding.source_location
    return (
        finding.tool,
        finding.kind,
        finding.access,
        finding.size,
        finding.function,
        _basename(where[0]) if where else None,
        where[1] if where else None,
        finding.hazard_type,
        finding.api_call,
        finding.error if finding.kind == API_ERROR else None,
        tuple((a.access, _basename(a.file), a.line) for a in finding.accesses[1:]),
    )


class FindingGrouper:
    """Folds findings into groups as they arrive; memory grows with distinct groups only.

    Groups keep first-seen order, so a live table can append rows and update counts.
    """

    def __init__(self) -> None:
        self._groups: dict[tuple[object, ...], FindingGroup] = {}
        self.finding_count = 0

    def add(self, finding: Finding) -> None:
        """Count ``finding`` into its group (creating the group on first sight)."""
        self.finding_count += 1
        key = group_key(finding)
        group = self._groups.get(key)
        if group is None:
            self._groups[key] = FindingGroup(
                first=finding,
                count=1,
                blocks=Dim3Range(finding.block, finding.block) if finding.block else None,
                threads=Dim3Range(finding.thread, finding.thread) if finding.thread else None,
            )
            return
        self._groups[key] = FindingGroup(
            first=group.first,
            count=group.count + 1,
            blocks=_widen(group.blocks, finding.block),
            threads=_widen(group.threads, finding.thread),
        )

    def groups(self) -> tuple[FindingGroup, ...]:
        """The groups so far, in first-seen order."""
        return tuple(self._groups.values())


def _widen(current: Dim3Range | None, point: Dim3 | None) -> Dim3Range | None:
    if point is None:
        return current
    return Dim3Range(point, point) if current is None else current.widen(point)


def group_findings(findings: Iterable[Finding]) -> tuple[FindingGroup, ...]:
    """Group identical findings (see :func:`group_key`), in first-seen order."""
    grouper = FindingGrouper()
    for finding in findings:
        grouper.add(finding)
    return grouper.groups()
