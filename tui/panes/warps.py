"""Warps pane: the warps of the focused SM as 32-lane strips, their PCs by source line, warp watch.

The PCs-by-line summary is one line (every group in its tooltip), so a stop repaints the pane
without laying out the screen again.

Each warp is one row whose lane strip shows every lane as active, divergent, inactive or
faulted (the exception column of ``info cuda lanes``, known for the focused warp). Moving the
lane cursor and pressing enter switches the CUDA focus to that lane. The warp watch is one
expression's value in every lane of the focused warp: the pane says the expression, the Debugger
walks the lanes with each stop while the pane is on the screen and the pane shows the stop's
``lane_watch``. ``C`` asks the Debugger for the culprit lane of a warp-wide exception; the state it
then shows is at that lane, with its ``culprit`` and its expression as the warp watch.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Input

from cudatui.gdbbridge import WARP_TABLES_UNASKED, Answer, Culprit, StopState, ThreadRange, Warp, fmt_dim3, warp_tables_unsafe
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import CulpritAsked, FocusRequested, LanesWatched

from cudatui.tui.widgets.lane_strip import LANES, LEGEND, lane_kinds, strip

from .base import InfoLine, PaneTable, StatePane, sync_rows

def focused_warp_from_lanes(state: StopState) -> Warp | None:
    """The focused warp rebuilt from its lanes when the warps table is missing."""
    if state.focus is None or state.focus.warp is None or not state.lanes:
        return None
    active = sum(1 << lane.number for lane in state.lanes if lane.state == "active")
    divergent = sum(1 << lane.number for lane in state.lanes if lane.state == "divergent")
    current = next((lane for lane in state.lanes if lane.current), state.lanes[0])
    return Warp(state.focus.warp, active, divergent, current.pc, state.focus.kernel, state.focus.block,
                state.lanes[0].thread, True)


def focused_index(warps: list[Warp], number: int | None) -> int | None:
    """The row of the focused warp: the one numbered like the focus (cuda-gdb does not always
    mark a warp of the warps table as current), else the one marked current."""
    by_number = next((i for i, w in enumerate(warps) if number is not None and w.number == number), None)
    return by_number if by_number is not None else next((i for i, w in enumerate(warps) if w.current), None)


def pc_groups(warps: list[Warp], lines: dict[int, str]) -> list[tuple[str, list[int]]]:
    """Warps grouped by the source line of their pc (or by pc where the line is unknown)."""
    groups: dict[str, list[int]] = {}
    for warp in warps:
        if warp.pc is None:
            continue
        label = lines.get(warp.pc) or f"pc {warp.pc:#x}"
        groups.setdefault(label, []).append(warp.number)
    return sorted(groups.items(), key=lambda item: item[1][0])


def line_map(state: StopState, threads: tuple[ThreadRange, ...]) -> dict[int, str]:
    """pc -> "file:line" from the thread table and the focused frame."""
    out = {t.pc: f"{(t.file or '?').rsplit('/', 1)[-1]}:{t.line}" for t in threads if t.pc is not None and t.line}
    frame = state.frame
    if frame is not None and frame.addr is not None and frame.file and frame.line:
        out.setdefault(frame.addr, f"{frame.file.rsplit('/', 1)[-1]}:{frame.line}")
    return out


def culprit_text(found: Culprit) -> Text:
    """The culprit line: ``culprit: lane 24: idx[i] = 17179869184 is outside 0..63 · differ: …``;
    bold with a lane, red when the search could not run (nothing evaluated: why, as gdb said)."""
    differ = " · differ: " + "; ".join(found.differing) if found.differing else ""
    head = f"culprit: lane {found.lane}: {found.reason}" if found.lane is not None else f"culprit: {found.reason}"
    return Text(head + differ, style="bold" if found.lane is not None else "" if found.evaluated else "red")


class Foot(Vertical):
    """The lines under the warp rows (PC summary, culprit, warp watch): when its height changes
    (the watch shown or hidden), the focused warp's row is scrolled into view again."""

    def on_resize(self) -> None:
        if isinstance(self.parent, WarpsPane):
            self.parent.keep_focused_row()


class WarpsPane(StatePane):
    """Warps of the focused SM, one lane strip each, and the warp watch.

    | Key | Action |
    | :- | :- |
    | left / right | Move the lane cursor (not while typing the watch expression). |
    | up / down | Choose a warp (each stop puts the cursor and the view on the focused warp). |
    | enter | Focus the lane under the cursor (``warp W lane L``). |
    | w | Set the warp-watch expression (empty clears it). |
    | C | Culprit lane: evaluate the faulting line in every lane, focus the one out of range |
    """

    BINDINGS = [
        Binding("left", "lane(-1)", "Lane -", priority=True, show=False),
        Binding("right", "lane(1)", "Lane +", priority=True, show=False),
        Binding("w", "edit_watch", "Warp watch"),
        Binding("C", "culprit", "Culprit lane"),
    ]

    COLUMNS = ("warp", "lanes", "block", "thread", "pc")

    DEFAULT_CSS = """
    WarpsPane {
        height: 1fr;
    }
    WarpsPane .warps-line {
        height: 1;
        padding: 0 1;
    }
    WarpsPane > #warps-title {
        background: $panel;
    }
    WarpsPane > #warps-table {
        height: 1fr;
        min-height: 2;
    }
    WarpsPane > #warps-foot {
        height: auto;
    }
    WarpsPane #warps-lines {
        height: 1;
        padding: 0 1;
    }
    WarpsPane #watch-table {
        height: auto;
        max-height: 4;
    }
    """

    lane_cursor: reactive[int] = reactive(0)
    """The lane under the cursor in the selected warp's strip."""

    watch_expression: reactive[str] = reactive("")
    """The warp-watch expression ("" when none)."""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._warps: list[Warp] = []
        self._follow_focus = False

    def compose(self) -> ComposeResult:
        yield InfoLine("Warps", id="warps-title", classes="warps-line")
        yield InfoLine(LEGEND, id="warps-legend", classes="warps-line")
        table: PaneTable[Text] = PaneTable(id="warps-table", cursor_type="row", cursor_foreground_priority="renderable")
        table.add_column("wp", key="warp", width=3)
        table.add_column("lanes 0-31", key="lanes", width=LANES)
        table.add_column("block", key="block")
        table.add_column("first thr", key="thread")
        table.add_column("pc", key="pc")
        yield table
        with Foot(id="warps-foot"):  # a short pane shrinks the warp rows (1fr), never these
            yield InfoLine("", id="warps-lines")
            yield InfoLine("", id="culprit-line", classes="warps-line")
            yield InfoLine("", id="watch-title", classes="warps-line")
            watch: PaneTable[str] = PaneTable(id="watch-table", cursor_type="none", show_cursor=False)
            for lane in range(LANES):
                watch.add_column(f"L{lane}", key=str(lane))
            yield watch
        yield InlineInput(placeholder="expression evaluated in every lane, e.g. threadIdx.x * 2", transient=True,
                          id="watch-input")

    @property
    def warps(self) -> list[Warp]:
        """The warp rows shown."""
        return self._warps

    @property
    def watch_values(self) -> dict[int, str]:
        """Lane -> value of the warp watch at the stop shown (empty until the Debugger shows them)."""
        watched = self._watched()
        return dict(watched.value) if watched is not None and not watched.error else {}

    @property
    def watch_error(self) -> str:
        """Why the warp watch has no values at the stop shown ("" when it has, or is to come)."""
        watched = self._watched()
        return watched.error if watched is not None else ""

    def _watched(self) -> Answer[tuple[tuple[int, str], ...]] | None:
        """The stop's warp watch, if it is of the expression shown."""
        watched = self.state.lane_watch if self.state is not None else None
        return watched if watched is not None and watched.asked == self.watch_expression else None

    def selected_warp(self) -> Warp | None:
        table = self.query_one("#warps-table", DataTable)
        if not self._warps or not 0 <= table.cursor_row < len(self._warps):
            return None
        return self._warps[table.cursor_row]

    def on_resize(self) -> None:
        self.keep_focused_row()

    def keep_focused_row(self) -> None:
        """The warp rows take what the other lines leave (CSS: at least a header and one row);
        when that changes, the focused warp's row stays in view."""
        self.call_after_refresh(self._scroll_to_row, self.query_one("#warps-table", DataTable).cursor_row)

    def watch_lane_cursor(self) -> None:
        self._fill_table()

    def watch_watch_expression(self) -> None:
        self._show_watch()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The lane keys are for the table: left/right edit the watch expression while it is typed."""
        return not (action == "lane" and self.query_one("#watch-input", Input).has_focus)

    def action_lane(self, delta: int) -> None:
        self.lane_cursor = (self.lane_cursor + delta) % LANES

    def action_edit_watch(self) -> None:
        self.query_one("#watch-input", InlineInput).open(self.watch_expression)

    def action_culprit(self) -> None:
        """Ask the Debugger for the culprit lane; the state it shows next says what it found."""
        self._show_culprit("culprit: evaluating the faulting line in every lane…")
        self.post_message(CulpritAsked())

    def _show_culprit(self, text: str | Text) -> None:
        line = self.query_one("#culprit-line", InfoLine)
        line.show(text)
        if line.display != bool(text):
            line.display = bool(text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.watch_expression = event.value.strip()
        self.post_message(LanesWatched(self.watch_expression))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._fill_table()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        warp = self.selected_warp()
        if warp is not None:
            self.post_message(FocusRequested(f"warp {warp.number} lane {self.lane_cursor}"))

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        warps = list(state.warps)
        if not warps and (rebuilt := focused_warp_from_lanes(state)) is not None:
            warps = [rebuilt]
        self._warps = warps
        self._follow_focus = True
        if state.focus is not None and state.focus.lane is not None:
            self.set_reactive(WarpsPane.lane_cursor, state.focus.lane)
        self._fill_table()
        self._fill_lines()
        if state.lane_watch is not None:  # the expression the Debugger watches (the culprit's, after C)
            self.set_reactive(WarpsPane.watch_expression, state.lane_watch.asked)
        self._show_watch()
        if previous is None or state.stop is not previous.stop or state.culprit is not previous.culprit:
            self._show_found(state)  # a bump meanwhile leaves "evaluating…" of C until its answer

    def _show_found(self, state: StopState) -> None:
        """The culprit line: what the Debugger found (``C``, or opening a coredump), else the offer
        of C at an exception."""
        found = state.culprit
        if found is None:
            self._show_culprit("C: find the culprit lane" if state.stop.exception else "")
        else:
            self._show_culprit(culprit_text(found))

    def _fill_table(self) -> None:
        if not self.is_mounted or self.state is None:
            return
        state = self.state
        focus = state.focus
        table = self.query_one("#warps-table", DataTable)
        sm = f"SM {focus.sm}" if focus and focus.sm is not None else "no SM"
        where = f"warp {focus.warp} lane {focus.lane}" if focus and focus.warp is not None else "no CUDA focus"
        rebuilt = " (from its lanes)" if self._warps and not state.warps else ""
        if not self._warps and warp_tables_unsafe(state.stop):
            title = f"warps {WARP_TABLES_UNASKED} · {sm} · focus {where}"
        else:
            title = f"{sm} · {len(self._warps)} warps{rebuilt} · focus {where} · cursor lane {self.lane_cursor}"
        self.query_one("#warps-title", InfoLine).show(Text(title))
        follow = self._follow_focus
        here = focused_index(self._warps, focus.warp if focus else None)
        cursor_row = (here or 0) if follow else table.cursor_row
        selected = self._warps[cursor_row] if 0 <= cursor_row < len(self._warps) else None
        rows: dict[str, tuple[Text, ...]] = {}
        for warp in self._warps:
            is_focused = here is not None and warp is self._warps[here]
            lanes = state.lanes if is_focused else ()
            focused = focus.lane if is_focused and focus else None
            cursor = self.lane_cursor if selected is not None and warp.number == selected.number else None
            rows[str(warp.number)] = (
                Text(("*" if is_focused else " ") + str(warp.number)),
                strip(lane_kinds(warp, lanes), cursor, focused),
                Text(fmt_dim3(warp.block)),
                Text(fmt_dim3(warp.first_thread)),
                Text("-" if warp.pc is None else f"{warp.pc:#x}"),
            )
        sync_rows(table, self.COLUMNS, rows)
        if follow and rows:
            self._follow_focus = False
            if table.cursor_row != cursor_row:
                table.move_cursor(row=cursor_row, scroll=False)
            self.call_after_refresh(self._scroll_to_row, cursor_row)

    def _scroll_to_row(self, row: int, again: bool = True) -> None:
        """Scroll the warps table so that ``row`` is its first visible row (or as near as it goes):
        the same stop always shows the same rows, whatever the cursor did before. Once more after
        the next refresh: rows synced in this one may not count in the table's height yet (a
        short pane, one row shown, showed the first warp instead of the focused one)."""
        table = self.query_one("#warps-table", DataTable)
        table.scroll_to(x=0, y=row, animate=False, immediate=True)
        if again:
            self.call_after_refresh(self._scroll_to_row, row, False)

    def _fill_lines(self) -> None:
        if self.state is None:
            return
        lines = line_map(self.state, self.state.threads)
        groups = [Text.assemble((f"{label:<16}", "bold"), f" warps {','.join(map(str, numbers))}")
                  for label, numbers in pc_groups(self._warps, lines)]
        text = Text(" · ").join(groups)
        text.no_wrap, text.overflow = True, "ellipsis"
        summary = self.query_one("#warps-lines", InfoLine)
        summary.show(text or "no warp PCs at this stop")
        summary.tooltip = Text("\n").join(groups) if len(groups) > 1 else None

    def _show_watch(self) -> None:
        if not self.is_mounted:
            return
        title = self.query_one("#watch-title", InfoLine)
        watch = self.query_one("#watch-table", DataTable)
        state = self.state
        # the stop lacks the expression's values: the Debugger shows them next (in a kernel)
        waiting = bool(self.watch_expression) and self._watched() is None and state is not None and state.in_kernel
        status = "evaluating…" if waiting else ""
        if not self.watch_expression:
            title.show("warp watch: none (w to add)")
        elif self.watch_error:
            title.show(Text(f"warp watch {self.watch_expression}: {self.watch_error}", style="red"))
        else:
            title.show(Text(f"warp watch {self.watch_expression} {status}".rstrip()))
        if watch.display != bool(self.watch_expression):
            watch.display = bool(self.watch_expression)
        self.set_class(bool(self.watch_expression), "-watching")
        # The row stays while a new stop's values are evaluated ("–" in every lane): the table
        # keeps its height, and the warp rows above it theirs (two layout passes each way).
        values = tuple(self.watch_values.get(lane, "–") for lane in range(LANES))
        sync_rows(watch, tuple(map(str, range(LANES))), {"watch": values} if self.watch_values or status else {},
                  tuple(f"L{lane}" for lane in range(LANES)))
