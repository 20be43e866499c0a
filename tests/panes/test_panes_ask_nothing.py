"""A pane never asks the Debugger behind the snapshot's back (issue 29): no pane module but the GPU
stats pane's sampler (NVML samples, not a stop's) holds a Debugger or calls one; what a pane shows
beyond the stop's batch comes in the StopState it is given (gdbbridge/debugger/on_demand.py)."""

from __future__ import annotations

import ast

from tests.support.paths import ROOT

SAMPLER = "gpu_stats.py"
"""Its ``debugger_sampler`` reads the Debugger's config and a replay's recorded GPU samples."""


def test_no_pane_holds_or_calls_the_debugger() -> None:
    found = []
    for path in sorted((ROOT / "tui" / "panes").glob("*.py")):
        if path.name == SAMPLER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in ("debugger", "queries", "session", "Debugger", "StopQueries"):
                found.append(f"{path.name}:{node.lineno} {name}")
    assert found == []
