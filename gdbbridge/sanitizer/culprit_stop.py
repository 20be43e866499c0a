"""Where "Debug this finding" stops: the breakpoint and the cuda-gdb condition that stop on the
culprit thread of a compute-sanitizer finding, and the sides of a race it can stop at.
"""

from __future__ import annotations

from cudatui.gdbbridge.sanitizer.findings import Finding, FindingGroup


def debug_breakpoint_for(finding: Finding | FindingGroup, side: int | None = None) -> tuple[str, str]:
    """Breakpoint location ``"file:line"`` and cuda-gdb condition that stop on the culprit thread.

    ``side`` picks one access of a race (an index into :attr:`Finding.accesses`): its line and
    its thread, in the hazard's block; None is the finding's own place (a race's first side).
    ``x`` is always constrained (block 0 is a real block); ``y`` and ``z`` only when non-zero,
    because a finding does not tell whether its grid has those dimensions. The condition is ""
    when the finding has no block/thread (a leak's allocation site, a race of racecheck's
    analysis report). Raises ``ValueError`` when the finding (or the side) has no source line
    to stop at, or has no such side.
    """
    if isinstance(finding, FindingGroup):
        finding = finding.first
    where, thread = finding.source_location, finding.thread
    if side is not None:
        if not 0 <= side < len(finding.accesses):
            raise ValueError(f"{finding.message}: no access number {side + 1}")
        access = finding.accesses[side]
        where = (access.file, access.line) if access.file and access.line is not None else None
        thread = access.thread
    if where is None:
        raise ValueError(f"{finding.message}: no source line to set a breakpoint on")
    terms: list[str] = []
    for name, dim in (("blockIdx", finding.block), ("threadIdx", thread)):
        if dim is None:
            continue
        for axis in ("x", "y", "z"):
            value = getattr(dim, axis)
            if axis == "x" or value:
                terms.append(f"{name}.{axis} == {value}")
    return f"{where[0]}:{where[1]}", " && ".join(terms)


def debug_sides(finding: Finding | FindingGroup) -> tuple[int, ...]:
    """The accesses of a race that "Debug this finding" can stop at, as indexes into
    :attr:`Finding.accesses`: those with a source line, the first of any that would give the
    same breakpoint (two sides on one line without threads are one place to stop). Empty for
    a finding that is not a race; one index when both sides stop at the same place."""
    if isinstance(finding, FindingGroup):
        finding = finding.first
    seen: dict[tuple[str, str], int] = {}
    for index, access in enumerate(finding.accesses):
        if access.file and access.line is not None:
            seen.setdefault(debug_breakpoint_for(finding, index), index)
    return tuple(seen.values())
