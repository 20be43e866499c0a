"""A warp's 32 lanes as one line of glyphs (active, divergent, inactive, faulted), for the Warps pane."""

from __future__ import annotations

from rich.text import Span, Text

from cudatui.gdbbridge import Lane, Warp

LANES = 32

CELLS = {
    "active": ("█", "green"),
    "divergent": ("▒", "yellow"),
    "inactive": ("·", "bright_black"),
    "exception": ("✖", "bold red"),
}
"""Glyph and style per lane state."""

LEGEND = Text.assemble(
    *(part for kind, (glyph, style) in CELLS.items() for part in ((glyph, style), f" {kind}  "))
)


def lane_kinds(warp: Warp, lanes: tuple[Lane, ...]) -> list[str]:
    """The 32 lane states of ``warp``; ``lanes`` (the focused warp's table) adds exceptions."""
    kinds = [
        "divergent" if warp.lane_divergent(i) else "active" if warp.lane_active(i) else "inactive"
        for i in range(LANES)
    ]
    for lane in lanes:
        if 0 <= lane.number < LANES:
            if lane.exception:
                kinds[lane.number] = "exception"
            elif lane.state in CELLS:
                kinds[lane.number] = lane.state
    return kinds


def strip(kinds: list[str], cursor: int | None = None, focused: int | None = None) -> Text:
    """The lane strip; the lane cursor is reversed, the focused lane underlined. Lanes side by
    side in one style are one span (a table cell renders each span: 32 for every warp row)."""
    glyphs: list[str] = []
    spans: list[Span] = []
    for i, kind in enumerate(kinds):
        glyph, style = CELLS[kind]
        if i == focused:
            style += " underline"
        if i == cursor:
            style += " reverse"
        glyphs.append(glyph)
        if spans and spans[-1].style == style and spans[-1].end == i:
            spans[-1] = Span(spans[-1].start, i + 1, style)
        else:
            spans.append(Span(i, i + 1, style))
    return Text("".join(glyphs), spans=spans)
