"""The sanitizer pane: a compute-sanitizer run (live log, progress) and its grouped findings."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import ContentSwitcher, DataTable, Log

from cudatui.gdbbridge import (
    API_ERROR, ASSERT, HAZARD, INVALID_ACCESS, LEAK, RACE, UNINITIALIZED_READ, Finding, FindingGroup, ReportError,
    SanitizerError, SanitizerReport, SanitizerRequest, SanitizerRun, clean, debug_sides, group_key, launch_place,
    launched_from, read_report,
)
from cudatui.tui.messages import DebugFinding, Finished, OpenSource, PostMortem
from cudatui.tui.widgets.race_side import RaceSideScreen, side_text

from .base import InfoLine, PaneTable

_COLUMNS = (("count", "Count"), ("what", "What"), ("where", "Where"), ("launch", "Launched from"), ("kernel", "Kernel"),
            ("blocks", "Blocks"), ("threads", "Threads"), ("tool", "Tool"))


QUIT_GRACE = 0.5
"""Seconds a run gets to end on SIGTERM when the app quits (then SIGKILL): quitting takes < 2 s."""


def _short(text: str | None, width: int = 28) -> str:
    if not text:
        return "-"
    return text if len(text) <= width else text[: width - 1] + "…"


def describe(finding: Finding) -> str:
    """A short label for the table's "What" column."""
    size = f" {finding.size}B" if finding.size else ""
    space = f" {finding.address_space}" if finding.address_space else ""
    labels = {
        INVALID_ACCESS: f"bad {finding.access or 'access'}{size}{space}",
        UNINITIALIZED_READ: f"uninit {finding.access or 'read'}{size}",
        HAZARD: f"{finding.hazard_type or ''} hazard".strip(),
        RACE: f"race ({finding.hazard_count or '?'} hazards)",
        LEAK: f"leak{size}",
        ASSERT: "device assert",
        API_ERROR: f"{finding.api_call or 'API'}: {finding.error or 'error'}",  # the call tells two such rows apart
    }
    return labels.get(finding.kind, _short(finding.message, 24))


def details_text(group: FindingGroup, roots: tuple[str, ...] = (), width: int | None = None) -> str:
    """The details view of a group: message, the sides of a race (each cut to ``width`` columns),
    device location, coordinates, backtraces (``roots``: the program's folders, which tell its
    Python files from the libraries')."""
    f = group.first
    lines = [f"{f.message}  (x{group.count}, {f.tool})"]
    inner = None if width is None else width - 2
    lines.extend("  " + side_text(f, index, inner) for index in range(len(f.accesses)))
    where = f.source_location
    at = f" at {where[0]}:{where[1]}" if where and where[0] else ""
    if f.kind == LEAK:  # the host's allocation: no kernel, no device place
        lines.append(f"allocated{at}" if at else "allocated by the host (see its backtrace)")
    elif f.kernel or at:
        pc = f" (+{f.pc:#x})" if f.pc is not None else ""
        lines.append(f"device: {f.kernel or '?'}{at}{pc}")
    if group.blocks or group.threads:
        lines.append(f"blocks {group.blocks or '-'}   threads {group.threads or '-'}")
    if f.address is not None:
        lines.append(f"address {f.address:#x}" + (f": {f.error}" if f.error else ""))
    if f.distance:
        d = f.distance
        lines.append(f"distance: {d.bytes:,} bytes {d.direction} allocation {d.allocation_address or 0:#x}"
                     f" of {d.allocation_size or 0:,} bytes")
    if f.assertion:
        lines.append(f"assertion: {f.assertion}")
    launch = launched_from(f, roots)
    if launch is not None:
        lines.append(f"launched from: {_short(str(launch), 160)}")
    if f.python_frame and f.python_frame != launch:
        lines.append(f"python: {f.python_frame}")
    if f.script_frame and f.script_frame != f.python_frame:
        lines.append(f"script: {f.script_frame}")
    if f.device_backtrace:
        lines.append("device backtrace:")
        lines.extend(f"  #{i} {frame}" for i, frame in enumerate(f.device_backtrace))
    if f.host_backtrace:
        lines.append(f"host backtrace ({f.backtrace_saved_at or 'saved'}):")
        lines.extend(f"  #{i} {_short(str(frame), 160)}" for i, frame in enumerate(f.host_backtrace))
    return "\n".join(lines)


def findings_in_groups(findings: int, groups: int) -> str:
    """``1 finding in 1 group``, ``12 findings in 4 groups``."""
    return f"{findings} finding{'' if findings == 1 else 's'} in {groups} group{'' if groups == 1 else 's'}"


def summary_text(report: SanitizerReport) -> str:
    """One line: findings, groups and the tool's own summary."""
    s = report.summary
    parts = [report.tool or "report", findings_in_groups(report.finding_count, len(report.groups))]
    if s.error_count is not None:
        parts.append(f"ERROR SUMMARY {s.error_count}")
    if s.leaked_bytes:
        parts.append(f"leaked {s.leaked_bytes:,} B in {s.leaked_allocations} allocations")
    if report.truncated:
        parts.append("report cut short")
    if s.coredump_path:
        parts.append(f"coredump {s.coredump_path}")
    return " · ".join(parts)


class SanitizerPane(Widget):
    """compute-sanitizer results: live log and progress while running, then grouped findings.

    | Key | Action |
    | :- | :- |
    | enter | Open the selected finding's source line |
    | d | Debug this finding: stop cuda-gdb on its block/thread at its line (a race: on the side picked, its thread at its line) |
    | p | Post-mortem: re-run with a GPU coredump and open it |
    | l | Switch between the details and the live log |
    | x | Cancel the running sanitizer |
    """

    BINDINGS = [
        Binding("d", "debug", "Debug finding"),
        Binding("p", "post_mortem", "Post-mortem"),
        Binding("l", "toggle_log", "Log/details"),
        Binding("x", "cancel", "Cancel run"),
    ]

    DEFAULT_CSS = """
    SanitizerPane { height: 1fr; layout: vertical; }
    SanitizerPane > #sanitizer-status { height: 1; background: $boost; padding: 0 1; }
    SanitizerPane > DataTable { height: 1fr; min-height: 4; }
    SanitizerPane > ContentSwitcher { height: 45%; border-top: solid $primary; }
    SanitizerPane #sanitizer-details { height: auto; padding: 0 1; }
    """

    running: reactive[bool] = reactive(False)
    """True while a compute-sanitizer process runs."""
    show_log: reactive[bool] = reactive(False)
    """Show the live log instead of the details of the selected group."""
    status: reactive[str] = reactive("no sanitizer run yet")
    """The one-line progress or summary."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A follower's app refuses debugging a finding (it would change the session): not offered."""
        return action not in getattr(self.app, "REFUSED_ACTIONS", ())

    def __init__(self, report: SanitizerReport | None = None, *, log_lines: int = 2000,
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._report = report
        self._log_lines = log_lines
        self._groups: dict[str, FindingGroup] = {}
        self._run: SanitizerRun | None = None
        self._ticker: Timer | None = None
        self._roots: tuple[str, ...] = ()
        """The run's program folders (none for a saved report): where its own Python files are."""

    @property
    def groups(self) -> tuple[FindingGroup, ...]:
        """The groups shown, in table order."""
        return tuple(self._groups.values())

    def compose(self) -> ComposeResult:
        yield InfoLine(self.status, id="sanitizer-status")
        table: PaneTable[str] = PaneTable(cursor_type="row", zebra_stripes=True, id="sanitizer-table")
        for key, label in _COLUMNS:
            table.add_column(label, key=key)
        yield table
        with ContentSwitcher(initial="sanitizer-details-scroll"):
            with VerticalScroll(id="sanitizer-details-scroll"):
                yield InfoLine("", id="sanitizer-details")
            yield Log(max_lines=self._log_lines, id="sanitizer-log")

    def on_mount(self) -> None:
        if self._report is not None:
            self.show_report(self._report)

    async def on_unmount(self) -> None:
        """End a run before the app's event loop ends (a cancelled worker is not awaited)."""
        if self._run is not None and self._run.running:
            await self._run.cancel(grace=QUIT_GRACE)

    def show_report(self, report: SanitizerReport) -> None:
        """Display a finished run or a saved report (its text cleaned: kernel names, paths and
        messages come from the program and its files)."""
        report = clean(report)
        self._report = report
        self._sync_table(report.groups)
        self.status = summary_text(report)
        self._show_details()

    def show_recorded(self, recording: str, tool: str) -> bool:
        """Show the report of ``tool`` packaged beside a replayed recording (``LESSON.TOOL.xml.gz``,
        else the only one there), marked as recorded; False when there is none."""
        stem, folder = Path(recording).name.split(".jsonl")[0], Path(recording).parent
        found = [folder / f"{stem}.{tool}.xml.gz"] + sorted(folder.glob(f"{stem}.*.xml.gz"))
        path = next((p for p in found if p.is_file()), None)
        if path is None:
            return False
        recorded = path.name[len(stem) + 1:].split(".")[0]
        try:
            report = read_report(str(path), "memcheck" if recorded == "leak" else recorded)
        except ReportError as exc:
            self.status = clean(f"the recorded {recorded} report cannot be read: {exc}")
            return True
        self.show_report(report)
        self.status = f"RECORDED {recorded} run (with the recording) · {self.status}"
        return True

    def start(self, request: SanitizerRequest) -> None:
        """Run compute-sanitizer in a worker; the pane follows it live."""
        folder = os.path.dirname(os.path.abspath(os.path.join(request.cwd or os.getcwd(), request.program)))
        self._roots = tuple(dict.fromkeys((request.cwd or os.getcwd(), folder)))
        self._run_sanitizer(request)

    @work(exclusive=True, group="sanitizer")
    async def _run_sanitizer(self, request: SanitizerRequest) -> None:
        run = SanitizerRun(request, max_pending_lines=self._log_lines)
        self.query_one(Log).clear()
        try:
            await run.start()
        except SanitizerError as exc:
            self.status = str(exc)
            return
        self._run, self.running, self.show_log = run, True, True
        self._tick()
        self._ticker = self.set_interval(0.1, self._tick)
        try:
            result = await run.wait()
        except asyncio.CancelledError:  # the pane or app is going away: never leave it running
            await asyncio.shield(run.cancel(grace=QUIT_GRACE))
            raise
        finally:
            self._ticker.stop()
            self.running = False
        self._tick()
        self.show_report(result.report)
        if result.cancelled:
            self.status = f"cancelled after {result.elapsed:.1f}s · {self.status}"
        self.post_message(Finished(result))

    def _tick(self) -> None:
        """Batched UI update (at most 10/s): new log lines, progress, live groups."""
        run = self._run
        if run is None:
            return
        lines = clean(run.drain())
        if lines:
            self.query_one(Log).write_lines(lines[-self._log_lines:])
        dropped = f" ({run.dropped_lines:,} not shown)" if run.dropped_lines else ""
        self.status = (f"{run.request.tool} running {run.elapsed:.1f}s · {run.line_count:,} lines{dropped}"
                       f" · {len(self._groups)} groups · x cancel")
        live = clean(run.groups())
        if len(live) != len(self._groups) or any(g.count != self._groups.get(_row_key(g), g).count for g in live):
            self._sync_table(live)

    def _sync_table(self, groups: tuple[FindingGroup, ...]) -> None:
        """Diff the table against ``groups`` by row key: update counts, add and remove rows."""
        table = self.query_one(DataTable)
        wanted = {_row_key(g): g for g in groups}
        with self.app.batch_update():
            for key in [k for k in self._groups if k not in wanted]:
                table.remove_row(key)
            for key, group in wanted.items():
                if key in self._groups:
                    if self._groups[key].count != group.count:
                        table.update_cell(key, "count", str(group.count))
                        table.update_cell(key, "blocks", str(group.blocks or "-"))
                        table.update_cell(key, "threads", str(group.threads or "-"))
                else:
                    table.add_row(*_row(group, self._roots), key=key)
        self._groups = wanted

    def selected_group(self) -> FindingGroup | None:
        """The group under the table cursor."""
        table = self.query_one(DataTable)
        if not self._groups or table.cursor_row < 0:
            return None
        key = table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value
        return self._groups.get(key or "")

    def _show_details(self) -> None:
        group = self.selected_group()
        details = self.query_one("#sanitizer-details", InfoLine)
        width = details.content_size.width or self.size.width - 2
        text = details_text(group, self._roots, width if width > 0 else None) if group else "no findings"
        details.show(Text(text))  # lays the screen out only when its number of rows changes

    def on_resize(self) -> None:
        """The sides of a race are cut to the pane's width: cut them again."""
        self._show_details()

    def watch_status(self, status: str) -> None:
        for label in self.query("#sanitizer-status").results(InfoLine):
            label.show(status)

    def watch_show_log(self, show_log: bool) -> None:
        for switcher in self.query(ContentSwitcher).results(ContentSwitcher):
            switcher.current = "sanitizer-log" if show_log else "sanitizer-details-scroll"

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self) -> None:
        self._show_details()

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.show_log = False
        group = self._groups.get(event.row_key.value or "")
        where = group.first.source_location if group else None
        if where:
            self.post_message(OpenSource(where[0], where[1]))

    def action_debug(self) -> None:
        group = self.selected_group()
        if group is None or group.first.source_location is None:
            self.notify("This finding has no source line to stop at.", severity="warning")
            return
        sides = debug_sides(group)
        if len(sides) < 2:
            self.post_message(DebugFinding(group, sides[0] if sides else None))
            return

        def chosen(side: int | None) -> None:
            if side is not None:
                self.post_message(DebugFinding(group, side))
        self.app.push_screen(RaceSideScreen(group.first, sides), chosen)

    def action_post_mortem(self) -> None:
        group = self.selected_group()
        if group is not None:
            self.post_message(PostMortem(group))

    def action_toggle_log(self) -> None:
        self.show_log = not self.show_log

    def action_cancel(self) -> None:
        if self._run is not None and self.running:
            self.status = "cancelling…"
            self.run_worker(self._run.cancel(), group="sanitizer-cancel")


def _row_key(group: FindingGroup) -> str:
    return "|".join(map(str, group_key(group.first)))


def _place(group: FindingGroup) -> str:
    """``race.cu:23``; a race whose other side is elsewhere ``race.cu:23/27`` (another file:
    ``a.cu:3/b.cu:5``)."""
    f = group.first
    where = f.source_location
    if where is None:
        return "-"
    file = where[0].rsplit("/", 1)[-1]
    seen, place = {(file, where[1])}, f"{file}:{where[1]}"
    for access in f.accesses[1:]:
        other = (access.file or "").rsplit("/", 1)[-1]
        if access.line is None or (other, access.line) in seen:
            continue
        seen.add((other, access.line))
        place += f"/{access.line}" if other == file else f"/{other}:{access.line}"
    return place


def _row(group: FindingGroup, roots: tuple[str, ...] = ()) -> tuple[str, ...]:
    f = group.first
    place = _place(group)
    return (str(group.count), describe(f), place, launch_place(f, roots), _short(f.kernel, 20),
            str(group.blocks or "-"), str(group.threads or "-"), f.tool)
