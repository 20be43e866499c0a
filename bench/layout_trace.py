"""Layout passes traced: how many a screen does, how long each takes, which widgets asked for
them and which widgets each pass was for (for ``bench.stop_to_screen``)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from textual.messages import Layout
from textual.widget import Widget

from cudatui.tui.screens.app_screen import AppScreen, lays_out

from . import fmt, median


class LayoutTrace:
    """While active: the screen layout passes (count, ms), which widgets asked for a layout
    (``refresh(layout=True)`` calls, also those the screen drops: a widget in a hidden pane) and
    which widgets each pass was for (the requests the screen took since the pass before)."""

    def __init__(self) -> None:
        self.passes: list[float] = []
        self.pass_causes: list[tuple[str, ...]] = []
        """The widgets each pass was for (parallel to ``passes``)."""
        self.requesters: Counter[str] = Counter()
        """``refresh(layout=True)`` calls by widget."""
        self.causes: Counter[str] = Counter()
        """Passes by widget that asked for them (a pass answers the requests of several)."""
        self.active = False
        self._refresh = Widget.refresh
        self._taken: set[str] = set()

    def __enter__(self) -> LayoutTrace:
        trace, original = self, self._refresh

        def refresh(widget: Widget, *regions: Any, repaint: bool = True, layout: bool = False,
                    recompose: bool = False) -> Widget:
            if layout and trace.active:
                trace.requesters[_name(widget)] += 1
            return original(widget, *regions, repaint=repaint, layout=layout, recompose=recompose)

        Widget.refresh = refresh  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Widget.refresh = self._refresh  # type: ignore[method-assign]

    def watch(self, screen: Any) -> None:
        """Time ``screen``'s layout passes and note the layout requests it takes."""
        original, post = screen._refresh_layout, screen.post_message

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                if self.active:
                    self.passes.append((time.perf_counter() - started) * 1000)
                    self.pass_causes.append(tuple(sorted(self._taken or {"(resize or scroll)"})))
                    self.causes.update(self.pass_causes[-1])
                self._taken = set()

        def posted(message: Any) -> bool:
            if isinstance(message, Layout) and (not isinstance(screen, AppScreen) or lays_out(message.widget)):
                self._taken.add(_name(message.widget))
            return bool(post(message))

        screen._refresh_layout = timed
        screen.post_message = posted

    def forget(self, passes: int, requesters: Counter[str], causes: Counter[str]) -> None:
        """Forget what was traced since there were ``passes`` passes (a step not measured)."""
        del self.passes[passes:]
        del self.pass_causes[passes:]
        self.requesters, self.causes = requesters, causes

    def summary(self, steps: int) -> str:
        """The passes per step and who asked for them."""
        per = max(1, steps)
        asked = ", ".join(f"{name} x{count / per:.1f}" for name, count in self.requesters.most_common(6))
        answered = ", ".join(f"{name} {count / max(1, len(self.passes)):.0%}"
                             for name, count in self.causes.most_common(6))
        return (f"{len(self.passes) / per:.2f} layout passes per step, median {fmt(median(self.passes))} ms each; "
                f"the passes were for: {answered or 'nobody'} (of the passes); "
                f"layouts asked per step: {asked or 'none'}")


def _name(widget: Widget) -> str:
    """``Type#id`` of ``widget``, or of the pane (the nearest container with an id) it is in."""
    if widget.id:
        return f"{type(widget).__name__}#{widget.id}"
    owner = next((node.id for node in widget.ancestors if node.id), None)
    return f"{type(widget).__name__} in #{owner}"
