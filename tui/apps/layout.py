"""Where the panes go: the workspace, its splits, its tabs and the zoom.

Wide terminals (:data:`WIDE` and more): the source left and wide with the tabbed panes under it,
Locals right and tall with the CUDA views (Focus, Warps) under it. Smaller terminals: the source
on top, every other pane in one tabbed area below it. Each resize lays the screen out again for
its size. The splits move by key and by dragging the bars between panes, and are kept in the
user's config directory (:mod:`cudatui.tui.apps.layout_settings`); ``z`` zooms the focused pane to the
whole screen and back (escape also leaves the zoom).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Tab, Tabs

from cudatui.gdbbridge import SASS_AFTER, Debugger, SharedWindow
from cudatui.tui.apps.layout_settings import load_splits, save_splits
from cudatui.tui.messages import PagesShown, RangesOpened
from cudatui.tui.panes.base import set_in_pass
from cudatui.tui.panes.breakpoints import BreakpointsPane
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.disassembly import DisassemblyPane
from cudatui.tui.panes.focus import FocusNavigator
from cudatui.tui.panes.gpu_stats import GpuStatsPane, debugger_sampler
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.registers import RegistersPane
from cudatui.tui.panes.sanitizer import SanitizerPane
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from cudatui.tui.panes.warps import WarpsPane
from cudatui.tui.textual_compat import TabsFocusedOnPress
from cudatui.tui.widgets.splitter import Splitter

WIDE = (120, 36)
"""From this terminal size (columns, rows) on, Locals, Focus and Warps get a column of their own."""

COLUMN_STEP, ROW_STEP = 4, 2
"""Cells a split moves per key press."""


@dataclass(frozen=True)
class PaneSpec:
    """A pane next to the source: its id, its tab title and its class (built with ``id=``)."""

    id: str
    title: str
    cls: type[Widget]


SIDE_PANES: tuple[PaneSpec, ...] = (
    PaneSpec("locals", "Locals", LocalsPane),
    PaneSpec("focus", "Focus", FocusNavigator),
    PaneSpec("warps", "Warps", WarpsPane),
    PaneSpec("stack", "Stack", StackPane),
    PaneSpec("breakpoints", "Breaks", BreakpointsPane),
    PaneSpec("registers", "Regs", RegistersPane),
    PaneSpec("disassembly", "SASS", DisassemblyPane),
    PaneSpec("shared", "Shared", SharedMemoryPane),
    PaneSpec("console", "Console", ConsolePane),
    PaneSpec("output", "Output", OutputPane),
    PaneSpec("gpu", "GPU", GpuStatsPane),
    PaneSpec("sanitizer", "Sanitize", SanitizerPane),
)
"""The panes next to the source, in tab order; add a pane here to plug it in."""

COLUMN = ("locals", "focus", "warps")
"""The panes of the right column on wide screens (tabs on small ones), top to bottom."""
CUDA_ROWS = 24
"""Wide screens: the rows under Locals that its splitter (1), Focus (7) and Warps (16: its lines,
a handful of warps, the PC summary and the warp watch) take where there is room."""
SHORT_CUDA_ROWS = 18
"""The fewest they take (Warps 10, its ``min-height`` in cudatui.tcss), where Locals would keep
fewer than :data:`LOCALS_ROWS` rows (120x36 with a lesson's guide: two locals shown, the
arguments out of sight, under an empty Warps pane)."""
LOCALS_ROWS = 10
"""The rows Locals keeps (its box included) before the CUDA panes under it give up room."""


def build(spec: PaneSpec, debugger: Debugger) -> Widget:
    if spec.cls is GpuStatsPane:
        pane: Widget = GpuStatsPane(debugger_sampler(debugger), id=spec.id)
    elif spec.cls is SharedMemoryPane:
        pane = SharedMemoryPane(search_dirs=lambda: debugger.config.source_dirs, recorded=debugger.config.replayed,
                                id=spec.id)
    else:
        pane = spec.cls(id=spec.id)
    pane.add_class("pane")
    pane.border_title = spec.title
    return pane


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, max(low, high)))


def cuda_rows(height: int) -> int:
    """The rows under Locals in a wide workspace ``height`` rows high."""
    return clamp(height - LOCALS_ROWS, SHORT_CUDA_ROWS, CUDA_ROWS)


class Workspace(Container):
    """The source and the panes next to it, laid out for the terminal's size.

    | Key | Action |
    | :- | :- |
    | z | Zoom the focused pane to the whole screen, and back (escape also leaves the zoom) |
    | > / ctrl+right | The focused pane wider |
    | < / ctrl+left | The focused pane narrower |
    | + / ctrl+down | The focused pane taller |
    | - / ctrl+up | The focused pane shorter |
    """

    BINDINGS = [
        Binding("z", "zoom", "Zoom pane", show=False),
        Binding("ctrl+right", "grow('x', 1)", "Pane wider", show=False),
        Binding("ctrl+left", "grow('x', -1)", "Pane narrower", show=False),
        Binding("plus,equals_sign,ctrl+down", "grow('y', 1)", "Pane taller", show=False),
        Binding("minus,ctrl+up", "grow('y', -1)", "Pane shorter", show=False),
    ]

    def __init__(self, debugger: Debugger, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_class(self.wide, "-wide")  # the terminal's size is known: the first layout changes no class
        self.debugger = debugger
        self.splits, self._warning = load_splits()
        self.active = SIDE_PANES[0].id
        """The pane chosen last in the tabs (shown on small screens)."""
        self._last_dock = next(s.id for s in SIDE_PANES if s.id not in COLUMN)
        """The pane not of COLUMN chosen last (shown under the source on wide screens)."""
        self._laid = False
        """Whether :meth:`apply` chose the layout (the split sizes then follow each layout pass)."""
        self._laid_tab = ""
        """The tab the last layout selected in the tab row."""
        self._on_screen: set[str] = set()
        """The panes the last layout put on the screen."""
        self._shared_windows: tuple[SharedWindow, ...] = ()
        """The pages of shared arrays the Shared pane shows (read only while it is on the screen)."""
        self._ranges = (False, False)
        """Whether the Focus pane has a kernel and a block range open (the block and thread ranges
        it shows while it is on the screen)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="left"):
            config = self.debugger.config
            yield SourcePane(lambda: self.debugger.config.source_dirs, recorded=config.replayed, id="source")
            yield Splitter("source", vertical=False, id="split-source")
            with Vertical(id="dock"):
                yield TabsFocusedOnPress(*(Tab(spec.title, id=f"tab-{spec.id}") for spec in SIDE_PANES), id="side-tabs")
                with Container(id="side-panes"):
                    for spec in SIDE_PANES:
                        if spec.id not in COLUMN:
                            yield build(spec, self.debugger)
        yield Splitter("columns", vertical=True, id="split-columns")
        with Vertical(id="right"):
            for spec in SIDE_PANES:
                if spec.id in COLUMN:
                    yield build(spec, self.debugger)
                    if spec.id == COLUMN[0]:
                        yield Splitter("locals", vertical=False, id="split-locals")

    def on_mount(self) -> None:
        if self._warning:
            self.app.notify(self._warning, severity="warning", markup=False, timeout=10)
        self.watch(self.screen, "maximized", lambda: self.apply(), init=False)
        self.apply()

    class Laid(Message):
        """The workspace was laid out again for a screen that is wide or not (the app fits what
        lies outside it, the guide strip, at once)."""

        def __init__(self, wide: bool) -> None:
            super().__init__()
            self.wide = wide

    def on_resize(self, event: events.Resize) -> None:
        if not self._laid or self.wide != self.has_class("-wide"):  # sizes follow in the pass (arrange)
            self.apply()

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """Fit the split sizes to ``size`` within the layout pass that gives it (an exception
        banner shown or gone: one pass, not one more for sizes set again on the Resize after it)."""
        if self._laid:
            self._fit(size, quiet=True)
        return super().arrange(size, optimal)

    @property
    def wide(self) -> bool:
        width, height = self.app.size
        return width >= WIDE[0] and height >= WIDE[1]

    # -- showing panes ---------------------------------------------------------------------

    def show_pane(self, pane_id: str) -> Widget:
        """Put the pane ``pane_id`` on the screen (selecting its tab where it has one) and return it."""
        pane = self.query_one(f"#{pane_id}")
        if self.screen.maximized is not None and self.screen.maximized is not pane:
            self.screen.minimize()
        if pane_id != "source" and not (pane_id in COLUMN and self.wide):
            clicked = self._take_clicked_tab()  # a tab clicked just before: this choice comes after it
            if self._choose(pane_id, chosen=True) or clicked:
                self.apply()
        return pane

    @on(PagesShown)
    def _shared_shown(self, event: PagesShown) -> None:
        """The pages the Shared pane shows: the Debugger reads them while it is on the screen."""
        event.stop()
        self._shared_windows = event.windows
        self.debugger.show_shared(event.windows, on_screen="shared" in self._on_screen)

    @on(Tabs.TabActivated, "#side-tabs")
    def _tab_activated(self) -> None:
        """A tab the user chose: the one the tab row shows now, not the message's (a message
        about a tab that a layout has replaced since changes nothing)."""
        if self._take_clicked_tab():
            self.apply()

    def _take_clicked_tab(self) -> bool:
        """Take the tab row's active tab as chosen when it is not the tab the last layout selected
        (the user clicked it since: its TabActivated is still on its way); whether the pane to
        show changed. A layout done before that message came (a resize: the stop's banner going
        away) selected the old tab again, and the two messages then selected each other's tab in
        turn, for ever."""
        active = self.query_one(Tabs).active
        return bool(active) and active != self._laid_tab and self._choose(active.removeprefix("tab-"))

    def _choose(self, pane_id: str, chosen: bool = False) -> bool:
        """Make ``pane_id`` the pane shown in the tabs; a tab activated on a wide screen (where
        hiding a tab activates the next one) changes only the pane under the source, unless
        ``chosen`` (show_pane). Whether that changed anything."""
        before = (self.active, self._last_dock)
        if chosen or not self.wide:
            self.active = pane_id
        if pane_id not in COLUMN:
            self._last_dock = pane_id
        return (self.active, self._last_dock) != before

    def _pane_ids(self) -> set[str]:
        return {spec.id for spec in SIDE_PANES}

    # -- layout ----------------------------------------------------------------------------

    def apply(self) -> None:
        """Lay the panes out for the terminal's size, the splits and the selected tab."""
        if not self.is_mounted:
            return
        wide = self.wide
        self.post_message(self.Laid(wide))
        with self.app.batch_update():
            self.set_class(wide, "-wide")
            tabs = self.query_one(Tabs)
            self._take_clicked_tab()  # a tab clicked since the last layout stays chosen
            selected = self._laid_tab = f"tab-{self._last_dock if wide else self.active}"
            if tabs.active != selected:
                tabs.active = selected  # before hiding tabs: hiding the active one activates another
            for pane_id in COLUMN:
                (tabs.hide if wide else tabs.show)(f"tab-{pane_id}")
            shown = self._last_dock if wide else self.active
            on_screen = {spec.id for spec in SIDE_PANES if (wide and spec.id in COLUMN) or spec.id == shown}
            for spec in SIDE_PANES:
                self.query_one(f"#{spec.id}").display = spec.id in on_screen
            self._on_screen = on_screen
            self._show_parts()
            in_column = not wide and self.active in COLUMN
            self.query_one("#split-columns").display = wide
            self.query_one("#split-locals").display = wide
            self.query_one("#side-panes").display = not in_column
            self.query_one("#right").display = wide or in_column
            self._fit(self.size)
            self._laid = True
            zoomed = self.screen.maximized
            if zoomed is not None:
                zoomed.styles.height = "1fr"

    def _show_parts(self) -> None:
        """Tell the Debugger what the panes on the screen show (a pane hidden shows nothing)."""
        on_screen = self._on_screen
        blocks, threads = self._ranges if "focus" in on_screen else (False, False)
        self.debugger.show_parts(registers=bool(on_screen & {"registers", "disassembly"}),
                                 threads="warps" in on_screen or threads,
                                 sass=SASS_AFTER if "disassembly" in on_screen else 0,
                                 members="locals" in on_screen, lanes="warps" in on_screen, blocks=blocks)
        self.debugger.show_shared(self._shared_windows, on_screen="shared" in on_screen)

    def on_focus_navigator_ranges_opened(self, message: RangesOpened) -> None:
        message.stop()
        self._ranges = (message.blocks, message.threads)
        if self._laid:
            self._show_parts()

    def _fit(self, size: Size, quiet: bool = False) -> None:
        """Set the sizes of the source, its column and Locals for a workspace of ``size``, for the
        layout :meth:`apply` chose; ``quiet`` within a layout pass (which lays them out as set)."""
        width, height = size
        wide, in_column = self.has_class("-wide"), not self.has_class("-wide") and self.active in COLUMN
        left, source, locals_ = self.query_one("#left"), self.query_one("#source"), self.query_one("#locals")
        if wide:
            sizes = [(left, "width", clamp(round(width * self.splits.columns), 20, width - 21)),
                     (left, "height", "1fr"),
                     (source, "height", clamp(round(height * self.splits.source), 4, height - 6)),
                     (locals_, "height", clamp(round(height * self.splits.locals), 4, height - cuda_rows(height)))]
        else:
            sizes = [(left, "width", "1fr"), (left, "height", "auto" if in_column else "1fr"),
                     (source, "height", clamp(round(height * self.splits.narrow), 3, height - 7)),
                     (locals_, "height", "1fr")]
        sizes.append((self.query_one("#dock"), "height", "auto" if in_column else "1fr"))
        for widget, rule, value in sizes:
            if widget is self.screen.maximized:
                continue  # the zoomed pane keeps the whole screen
            if quiet:
                set_in_pass(widget, rule, value)
            else:
                setattr(widget.styles, rule, value)

    def action_zoom(self) -> None:
        """Zoom the focused pane to the whole screen, or end the zoom."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
            return
        pane = self.focused_pane()
        if pane is not None:
            screen.maximized = pane

    def focused_pane(self) -> Widget | None:
        """The pane holding the focus (the source or one of SIDE_PANES)."""
        focused = self.screen.focused
        if focused is None:
            return None
        ids = {"source", *self._pane_ids()}
        return next((w for w in [focused, *focused.ancestors] if isinstance(w, Widget) and w.id in ids), None)

    def action_grow(self, axis: str, step: int) -> None:
        """Make the focused pane wider or narrower (``x``), taller or shorter (``y``)."""
        pane = self.focused_pane()
        pane_id = pane.id if pane is not None else "source"
        width, height = self.size
        if axis == "x":
            if not self.wide:
                return
            name, first, cells, total = "columns", pane_id not in COLUMN, COLUMN_STEP, width
        elif self.wide and pane_id in COLUMN:
            name, first, cells, total = "locals", pane_id == "locals", ROW_STEP, height
        else:
            name, first, cells, total = ("source" if self.wide else "narrow"), pane_id == "source", ROW_STEP, height
        delta = step * cells / max(1, total) * (1 if first else -1)
        self._set_split(name, getattr(self.splits, name) + delta)
        self._save()

    @on(Splitter.Dragged)
    def _dragged(self, event: Splitter.Dragged) -> None:
        name = event.splitter.split
        if name == "columns":
            region = self.region
            fraction = (event.x - region.x) / max(1, region.width)
        else:
            region = self.query_one("#right" if name == "locals" else "#left").region if self.wide else self.region
            fraction = (event.y - region.y) / max(1, region.height)
            name = name if self.wide else "narrow"
        self._set_split(name, fraction)

    @on(Splitter.Released)
    def _released(self) -> None:
        self._save()

    def _set_split(self, name: str, fraction: float) -> None:
        splits = self.splits.with_split(name, fraction)
        if splits != self.splits:
            self.splits = splits
            self.apply()

    def _save(self) -> None:
        warning = save_splits(self.splits)
        if warning:
            self.app.notify(warning, severity="warning", markup=False)
