"""Every use of a private Textual name, in one place.

Covers textual 8.2.8, the version pinned in pyproject.toml (checked against its source:
``textual/widgets/_data_table.py``, ``_log.py``, ``_toast.py``, ``app.py``).
Nothing else in ``tui/`` may touch a private Textual name (``tests/panes/test_textual_compat.py``
fails on one); when textual is upgraded, this module is the one to read again against the new
source, and :data:`PRIVATE_NAMES` lists what to look for.

Why each hack exists:

- DataTable (:class:`DataTableHooks` and the ``table_*`` functions), for
  :class:`~cudatui.tui.panes.base.PaneTable`: ``DataTable.update_cell`` repaints the whole table
  and keys every render cache on ``_update_count``, so one changed cell re-rendered every visible
  cell. PaneTable writes the cell into ``_data`` itself, bumps ``_update_count``, repaints the
  row, and keeps rendered cells (``_render_cell``) keyed on the inputs Textual uses
  (``_show_hover_cursor``, ``_pseudo_class_state``). Measuring columns
  (``_update_column_widths``, ``_update_dimensions``) does not bump the count: a row painted
  before was left cut at the old widths.
- Log (:class:`LogHooks` and the ``log_*`` functions), for
  :class:`~cudatui.tui.panes.output.OutputLog`: ``Log.write`` asks for a repaint of each line it
  appends; OutputLog merges them into one, wraps long lines, and so drops stale rows from
  ``_render_line_cache``, renders a line with ``_render_line_strip`` and measures it as Textual
  shows it (``_process_line``), and remaps its rows after ``_prune_max_lines``.
- ScrollView (:class:`InPlaceScrollView`), for the pane tables, the console's logs and the
  trees: a ScrollView whose content grows (its ``virtual_size``) asks for a layout pass of the
  whole screen, also when its own size does not follow its content; then only its scrollbars
  change, which ``_scroll_update`` updates (what the layout pass would call). A Tree
  (:class:`InPlaceTree`) also asks for one in ``_invalidate`` at each line added or removed.
  Textual decides a widget's scrollbars after a layout pass, from the size of the pass before
  (``_refresh_scrollbars`` on ``_container_size``): a table shown at a new size (a tab chosen)
  got its scrollbars one pass late, in a second pass. The ScrollView sets them in the pass, for
  the size the pass gives it (``_get_scrollable_region``, which the compositor calls with it).
- Toasts (:data:`Toast`, :func:`toast_notification`), for :class:`~cudatui.tui.apps.toasts.ToastingApp`:
  an expired toast's cells stayed on the screen until something repainted them; the app repaints
  once no toast on the screen is expired. ``Toast`` lives in the private ``textual.widgets._toast``.
  A toast takes no text selection (:func:`toasts_take_no_selection`): a click on one being removed
  crashed the app.
- Notifications (:func:`app_notifications`), for :mod:`~cudatui.tui.tooling.path_driver`: what the UI told
  the user at a step of a lesson path; App keeps them in ``_notifications`` with no public reader.
- Screen (:class:`SameSizeScreen`), for :class:`~cudatui.tui.screens.app_screen.AppScreen`: a
  dialog pushed on the screen sends itself a Resize at its first layout, which lays out every
  screen below it again (``_screen_resized``) although the terminal kept its size; the screen
  skips that pass when its size is the one it has (what Textual itself checks on resume). A
  layout pass sets every widget's ``virtual_size``, which asks for a second pass that changes
  nothing unless a scrollbar came or went: the screen drops those requests (``_refresh_layout``,
  ``_layout_required``). Its compositor (:class:`LaidOutCompositor`) repaints every widget a
  layout pass moved or resized, also when the map was arranged again in between. Its partial
  update (``render_partial_update``, from ``_dirty_regions``, ``_regions_to_spans`` and the
  cuts as ``_render_chops`` uses them) renders only the widgets that overlap a changed region,
  on the rows they overlap: Textual rendered every widget inside the box around all the changes
  (a status-bar line and a source line made it the whole screen) and cut up each one's lines on
  every changed row.
- Keys (:class:`KeysWhereTyped`), for :class:`~cudatui.tui.apps.toasts.ToastingApp`: the App gives
  a key to the focused widget, and looks its bindings up when the key has bubbled back, from the
  widget focused THEN (``App._on_key``, ``Screen._modal_binding_chain``). A click the App took
  meanwhile (a busy app takes a key and the click after it in one turn) had moved the focus: the
  key went to the table, its binding was looked for in the tab clicked, and the key was lost
  (space in Breaks, then a click on the Stack tab: the breakpoint stayed on). A key that a click
  overtook is bound where it was typed; any other key is looked up as Textual does.
  ``dispatch_key`` is in the private ``textual._dispatch_key``.
- Screens removed (:class:`ScreensGoQuietly`), for :class:`~cudatui.tui.apps.toasts.ToastingApp`:
  a dialog that closes is removed from the App (``App._prune`` with the App as parent), and the
  removal asks the App for a layout pass (``parent.refresh(layout=True)``), which the App gives to
  the screen now shown: the whole screen below the dialog laid out again and repainted a second
  time (its resume already repaints it), 25-35 ms at 160x48, also when that landed in the stop
  the dialog asked for (``g``). A screen is not laid out inside the App, so its removal asks
  for nothing; the mouse-over that the removal also updates is updated at the next screen update.
- Tabs (:class:`TabsFocusedOnPress`), for the workspace's tab row: a press on a tab focuses the
  tab row (as on any focusable widget), and Textual's ``Tabs._on_tab_clicked`` (and
  ``_on_underline_clicked``) focuses it again once the tab's Clicked message has come up to it. A
  widget pressed meanwhile (a busy app takes the click on the Sanitize tab and the click on its
  findings table in one turn) lost the focus to the tab row: ``d`` then went to the tab row and
  the finding was never debugged. The tab row takes the focus on the press only;
  ``_activate_tab`` activates the tab as Textual does.
- ``SegmentLines`` (``textual._types``): the type of a rendered cell.
- textual-serve 1.1.3 (:class:`ServeHooks`), for :class:`~cudatui.tui.commands.serve.FollowServer`: its
  ``Server`` builds its aiohttp application in ``_make_app`` and offers no way to check a request
  (the token, the viewer cap); aiohttp freezes an application's middlewares before
  ``on_startup``, so they are added where it is built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from weakref import WeakKeyDictionary

from rich.style import Style
from textual import events
from textual._dispatch_key import dispatch_key
from textual._types import SegmentLines
from textual._compositor import ChopsUpdate, Compositor, CompositorMap, ReflowResult
from textual.app import App
from textual.await_remove import AwaitRemove
from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.notifications import Notification
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable, Log, Tab, Tabs
from textual.widgets._tabs import Underline
from textual.widgets._toast import Toast
from textual.widgets.data_table import CellType, ColumnKey, RowKey

__all__ = [
    "PRIVATE_NAMES", "DataTableHooks", "InPlaceScrollView", "InPlaceTree", "KeysWhereTyped", "LaidOutCompositor", "LogHooks", "SameSizeScreen",
    "ScreensGoQuietly", "SegmentLines",
    "ServeHooks", "TabsFocusedOnPress", "Toast", "app_notifications",
    "log_forget_rendered_line", "log_line_processor", "log_line_strip", "table_bump_update_count", "table_cell_key", "table_has_cell",
    "table_render_inputs", "table_row_index", "table_set_cell_quietly", "toast_notification", "toasts_take_no_selection",
    "forget_arrangements",
]

TEXTUAL_VERSION = "8.2.8"
"""The textual version this module was written against (pinned in pyproject.toml)."""

PRIVATE_NAMES = frozenset({
    # textual.widgets.DataTable
    "_row_locations", "_column_locations", "_data", "_update_count", "_show_hover_cursor",
    "_pseudo_class_state", "_render_cell", "_clear_caches", "_update_column_widths", "_update_dimensions",
    # textual.widgets.Log
    "_render_line_cache", "_render_line_strip", "_process_line", "_prune_max_lines",
    # textual.scroll_view.ScrollView, textual.widgets.Tree
    "_scroll_update", "_invalidate", "_get_scrollable_region", "_container_size", "_refresh_scrollbars",
    # textual.widgets._toast.Toast, textual.app.App
    "_toast", "_notification", "_notifications",
    # textual.screen.Screen, textual._compositor
    "_compositor", "_full_map", "_dirty_regions", "_regions_to_spans", "_render_chops",
    "_screen_resized", "_size", "_refresh_layout", "_layout_required",
    # textual.widget.Widget
    "_clear_arrangement_cache",
    # textual.app.App, textual.screen.Screen, textual._dispatch_key (keys)
    "_on_key", "_modal_binding_chain", "_dispatch_key",
    # textual.app.App (screens removed)
    "_prune",
    # textual.widgets.Tabs
    "_tabs", "_on_tab_clicked", "_on_underline_clicked", "_activate_tab",
    # textual._types
    "_types",
    # textual_serve.server.Server (1.1.3)
    "_make_app",
})
"""The private Textual names this module uses; no other module of tui/ may name one."""


# Widget ------------------------------------------------------------------------------------------


def forget_arrangements(widget: Widget) -> None:
    """Drop the arrangements cached by ``widget``'s ancestors. Textual keys a container's cached
    arrangement on its size alone and clears it when a child's style asks for a layout; a size
    rule set within a layout pass (:func:`~cudatui.tui.panes.base.set_in_pass`) asks for none, so
    a container back at a size it had before would lay its children out as they were then (the
    source pane two rows short, a blank row under it, after the exception banner came and the
    guide went at 80x24)."""
    for ancestor in widget.ancestors:
        if isinstance(ancestor, Widget):
            ancestor._clear_arrangement_cache()


# ScrollView --------------------------------------------------------------------------------------

_ScrollView = ScrollView if TYPE_CHECKING else object


class InPlaceScrollView(_ScrollView):
    """Mixed in before a ScrollView (a DataTable, RichLog, Tree, Input): its content growing or
    shrinking lays the screen out only when its own size follows its content (an ``auto`` width
    or height, along that axis); otherwise its scrollbars are updated in place (a scrollbar that
    appears or goes is still a layout pass, as it takes room). A layout pass that gives it a new
    size sets its scrollbars for that size in the pass (Textual sets them after, from the size
    of the pass before, and a scrollbar that came or went was a second pass). Not a Widget itself: Textual takes a widget's CSS,
    bindings and component classes from the first Widget among its bases."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0))
    """As Widget's, without a layout pass of its own."""

    def watch_virtual_size(self, previous: Size, size: Size) -> None:
        width, height = self.styles.width, self.styles.height
        if (width is not None and width.is_auto and size.width != previous.width
                or height is not None and height.is_auto and size.height != previous.height):
            self.refresh(layout=True)  # its own size follows
        elif self.size:  # never laid out (filled in a hidden tab): its first layout sets its scrollbars
            self._scroll_update(size)

    def _get_scrollable_region(self, region: Region) -> Region:
        """The room inside the scrollbars, which are set for ``region`` (what the layout pass in
        progress gives) where Textual sets them after the pass (so a second pass used them)."""
        if region.size and region.size != self._container_size:
            self._container_size = region.size
            self._refresh_scrollbars()
            _BARS_SET_IN_PASS[self] = _scrollbars(self)
        return super()._get_scrollable_region(region)


# Keys --------------------------------------------------------------------------------------------

if TYPE_CHECKING:
    _App = App[Any]
else:
    _App = object


class KeysWhereTyped(_App):
    """Mixed in before App: a key that a click overtook on its way is bound where it was typed
    (see the module docstring). Not an App itself: Textual calls every class's ``_on_key`` in
    the MRO, this one first, and App's unless this one handled the key."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clicks_taken = 0
        """Mouse presses the App has taken (a key remembers the count when it was given out)."""
        self.keys_out: WeakKeyDictionary[events.Key, tuple[Widget, int]] = WeakKeyDictionary()
        """Each key given to a widget and not back yet: that widget, and :attr:`clicks_taken` then."""

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent) and not event.is_forwarded:
            if isinstance(event, events.MouseDown):
                self.clicks_taken += 1
            elif isinstance(event, events.Key) and self.focused is not None:
                self.keys_out[event] = (self.focused, self.clicks_taken)
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        typed_at, clicks = self.keys_out.pop(event, (None, self.clicks_taken))
        if typed_at is None or clicks == self.clicks_taken or typed_at is self.focused \
                or not typed_at.is_attached or typed_at.screen is not self.screen:
            return  # App._on_key looks the key up, as Textual does
        event.prevent_default()
        screen = self.screen
        focused = screen.focused
        screen.set_reactive(Screen.focused, typed_at)  # the chain is read at once, no watcher runs
        try:
            chain = screen._modal_binding_chain
        finally:
            screen.set_reactive(Screen.focused, focused)
        for namespace, bindings in chain:
            for binding in bindings.key_to_bindings.get(event.key, ()):
                if not binding.priority and await self.run_action(binding.action, namespace):
                    return
        await dispatch_key(self, event)

class ScreensGoQuietly(_App):
    """Mixed in before App: a screen removed from the App (a dialog closed) asks for no layout
    pass of the screen shown then (see the module docstring)."""

    def _prune(self, *nodes: Widget, parent: DOMNode | None = None) -> AwaitRemove:
        if parent is self and all(isinstance(node, Screen) for node in nodes):
            parent = None  # App._prune lays the parent out once the nodes are gone; a screen is not laid out in it
        return super()._prune(*nodes, parent=parent)


class TabsFocusedOnPress(Tabs):
    """Tabs that take the focus when pressed, not again once the click's message reaches them
    (see the module docstring): a widget pressed meanwhile keeps it."""

    async def _on_tab_clicked(self, event: Tab.Clicked) -> None:
        event.prevent_default()  # Textual calls each class's handler, Tabs' after this one unless prevented
        event.stop()
        self._activate_tab(event.tab)

    def _on_underline_clicked(self, event: Underline.Clicked) -> None:
        event.prevent_default()
        event.stop()
        offset = event.offset + (0, -1)
        for tab in self.query(Tab):
            if offset in tab.region and not tab.disabled:
                self._activate_tab(tab)
                break


class InPlaceTree(InPlaceScrollView):
    """Mixed in before a Tree: lines added or gone (``Tree._invalidate``, which asks for a layout
    pass of the whole screen) repaint the tree; its scrollbars follow its lines in place, as
    :class:`InPlaceScrollView` does, unless its own size follows its content."""

    def _invalidate(self) -> None:
        pending = self._layout_required
        super()._invalidate()  # type: ignore[misc]
        if not pending and not self.styles.auto_dimensions:
            self._layout_required = False


# Screen ------------------------------------------------------------------------------------------

class SameSizeScreen(Screen[object]):
    """A Screen that lays itself out on a resize only when its size changed, and asks for no
    second layout pass where its first one answered it all.

    A layout pass gives every widget on the screen its size and virtual size
    (``Widget._size_updated``), and ``Widget.virtual_size`` asks for another layout pass when it
    changes: every widget shown or grown by a pass asked for a second one, which placed every
    widget where the first had. The second pass is needed only where the first changed the room
    a widget's content has: a scrollable widget that shows or hides a scrollbar. So the requests
    raised during a pass (not those pending before it) are dropped, but for the scrollable
    widgets whose scrollbars the pass showed or hid.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = LaidOutCompositor()

    def _screen_resized(self, size: Size) -> None:
        if size != self._size:
            super()._screen_resized(size)

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        widgets = list(self.walk_children(Widget))
        pending = {widget for widget in widgets if widget._layout_required}
        bars = {widget: _scrollbars(widget) for widget in widgets if widget.is_scrollable}
        _BARS_SET_IN_PASS.clear()
        super()._refresh_layout(size, scroll)
        bars.update(_BARS_SET_IN_PASS)  # those the pass laid its widget out with
        for widget in widgets:
            if widget._layout_required and widget not in pending and (
                    not widget.is_scrollable or bars.get(widget) == _scrollbars(widget)):
                widget._layout_required = False


class LaidOutCompositor(Compositor):
    """A Compositor whose layout pass (``reflow``) repaints what moved since the last pass.

    Textual marks for repaint the regions of the widgets whose place changed between the map it
    had and the one the pass arranges. But that map is also arranged again, lazily, when a
    widget's region is asked for after an update of a widget not on the screen (a hidden pane,
    a table with ``display: none``): that map already has the new places, marks nothing, and
    the pass after it found no change. A widget grown meanwhile got its new rows painted only
    where something else was repainted: the Stack pane's frame row stayed blank at the first
    stop under load (the table had asked for a repaint at its old height of one row). Here the
    pass compares with the map the last pass arranged, and with the one arranged since.
    """

    def __init__(self) -> None:
        super().__init__()
        self.laid_out: CompositorMap = {}
        """The map the last layout pass arranged (what the terminal was painted from)."""

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        since = self._full_map
        self._full_map = self.laid_out  # the changes (and resized widgets) since the last pass
        result = super().reflow(parent, size)
        self.laid_out = self._full_map
        if since is not self.laid_out and size.region not in self._dirty_regions:
            self._dirty_regions.update(  # and since a map arranged in between (painted from)
                region for region in (geometry.clip.intersection(geometry.region)
                                      for _, geometry in self._full_map.items() ^ since.items()) if region)
        return result

    def render_partial_update(self) -> ChopsUpdate | None:
        """The update of the dirty regions, rendering only the widgets that overlap one, on the
        rows they overlap (Textual renders every widget that overlaps the box around them all,
        on all its rows, and cuts up every widget's line on each dirty row)."""
        regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not regions:
            return None
        spans = list(self._regions_to_spans(regions))
        return ChopsUpdate(self._render_rows(spans), spans, [cut_set[1:] for cut_set in self.cuts])

    def _render_rows(self, spans: list[tuple[int, int, int]]) -> list[dict[int, Strip | None]]:
        """``Compositor._render_chops`` over the widgets that overlap ``spans`` (row, first and
        end column), each rendered over the rows from the first to the last it has in them
        (front to back: the first strip of a cut wins); only the lines of dirty rows are cut."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        dirty: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in spans:
            dirty.setdefault(y, []).append((x1, x2))
        for widget, (region, clip) in self.visible_widgets.items():
            shown = region.intersection(clip)
            left, right = shown.x, shown.right
            rows = [y for y in range(shown.y, shown.bottom)
                    if any(x1 < right and x2 > left for x1, x2 in dirty.get(y, ()))]
            if not rows:
                continue
            top, bottom = rows[0], rows[-1] + 1
            strips = widget.render_lines(Region(left - region.x, top - region.y, shown.width, bottom - top))
            for y, strip in zip(range(top, bottom), strips):
                if y not in dirty:
                    continue
                line = chops[y]
                final_cuts = [cut for cut in cuts[y] if right >= cut >= left]
                for cut, piece in zip(final_cuts, strip.divide([cut - left for cut in final_cuts[1:]])):
                    if line.get(cut) is None:
                        line[cut] = piece
        return chops


def _scrollbars(widget: Widget) -> tuple[bool, bool]:
    return widget.show_horizontal_scrollbar, widget.show_vertical_scrollbar


_BARS_SET_IN_PASS: WeakKeyDictionary[Widget, tuple[bool, bool]] = WeakKeyDictionary()
"""The scrollbars an :class:`InPlaceScrollView` set for the size the layout pass in progress gave it."""


# DataTable ---------------------------------------------------------------------------------------

class DataTableHooks(InPlaceScrollView, DataTable[CellType]):
    """A DataTable whose private methods that PaneTable extends have public names here.

    Override :meth:`render_table_cell` (calls ``DataTable._render_cell``), :meth:`caches_cleared`
    (after ``_clear_caches``) and :meth:`measuring_columns` (a context around
    ``_update_column_widths`` and ``_update_dimensions``).
    """

    def render_table_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                          cursor: bool = False, hover: bool = False) -> SegmentLines:
        """The lines of one cell, as ``DataTable._render_cell`` renders them."""
        return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)

    def caches_cleared(self) -> None:
        """Called after DataTable cleared its render caches."""

    def measuring_columns(self) -> AbstractContextManager[None]:
        """A context DataTable measures its columns in."""
        return nullcontext()

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                     cursor: bool = False, hover: bool = False) -> SegmentLines:
        return self.render_table_cell(row_index, column_index, base_style, width, cursor, hover)

    def _clear_caches(self) -> None:
        super()._clear_caches()
        self.caches_cleared()

    def _update_column_widths(self, updated_cells: set[Any]) -> None:
        with self.measuring_columns():
            super()._update_column_widths(updated_cells)

    def _update_dimensions(self, new_rows: Any) -> None:
        with self.measuring_columns():
            super()._update_dimensions(new_rows)


def table_has_cell(table: DataTable[Any], row: RowKey, column: ColumnKey) -> bool:
    """Whether ``table`` has laid out ``row`` and ``column`` (its location maps know both)."""
    return row in table._row_locations and column in table._column_locations


def table_set_cell_quietly(table: DataTable[Any], row: RowKey, column: ColumnKey, value: object) -> None:
    """Store ``value`` in the cell and invalidate the render caches, asking for no repaint."""
    table._data[row][column] = value
    table._update_count += 1


def table_bump_update_count(table: DataTable[Any]) -> None:
    """Invalidate the render caches DataTable keys on its update count."""
    table._update_count += 1


def table_row_index(table: DataTable[Any], row: RowKey) -> int | None:
    """The index ``row`` is shown at, None if it is not laid out."""
    return table._row_locations.get(row)


def table_cell_key(table: DataTable[Any], row_index: int, column_index: int) -> tuple[RowKey, ColumnKey, object]:
    """The row key, column key and value of the cell at ``row_index``, ``column_index``."""
    row = table._row_locations.get_key(row_index)
    column = table._column_locations.get_key(column_index)
    return row, column, table._data[row][column]


def table_render_inputs(table: DataTable[Any]) -> tuple[object, object]:
    """What else DataTable renders a cell from: hover cursor shown, pseudo-class state."""
    return table._show_hover_cursor, table._pseudo_class_state


# Log ---------------------------------------------------------------------------------------------

class LogHooks(Log):
    """A Log that says when it dropped its oldest lines (:meth:`lines_pruned`)."""

    def lines_pruned(self) -> None:
        """Called after the Log removed lines over its ``max_lines``."""

    def _prune_max_lines(self) -> None:
        before = len(self.lines)
        super()._prune_max_lines()
        if len(self.lines) != before:
            self.lines_pruned()


def log_line_processor(log: Log) -> Callable[[str], str]:
    """The function Log applies to a line before showing it (tabs expanded, control codes out)."""
    return log._process_line


def log_forget_rendered_line(log: Log, y: int) -> None:
    """Drop line ``y`` from the Log's render cache, so it is rendered again."""
    log._render_line_cache.discard(y)


def log_line_strip(log: Log, index: int, style: Style) -> Strip:
    """Line ``index`` of the Log, rendered whole (from its render cache when there)."""
    return log._render_line_strip(index, style)


# Toasts and notifications ------------------------------------------------------------------------

def toast_notification(toast: Toast) -> Notification:
    """The notification ``toast`` shows."""
    return toast._notification


def toasts_take_no_selection() -> None:
    """A click on a toast that its timeout has just removed, before the screen is laid out again,
    made Textual 8.2.8 start a text selection in it and read ``container.region`` of its parent,
    None by then: ``AttributeError`` in ``Screen._forward_event``, the app crashed (a user
    clicking a toast away as it goes; seen in a tmux walk). With no selection in a toast (there is
    nothing worth selecting in one) that branch is not taken; the click reaches the toast that is
    going, as the click that dismisses it would."""
    Toast.ALLOW_SELECT = False


def app_notifications(app: App[Any]) -> Iterable[Notification]:
    """The notifications ``app`` shows now (none for an object that is not an App)."""
    return getattr(app, "_notifications", ())


class ServeHooks:
    """Mixed in before textual-serve's ``Server``: the aiohttp middlewares of :meth:`middlewares`
    are added to the application its private ``_make_app`` builds (textual-serve 1.1.3)."""

    def middlewares(self) -> list[Any]:
        return []

    async def _make_app(self) -> Any:
        app = await super()._make_app()  # type: ignore[misc]
        app.middlewares.extend(self.middlewares())
        return app
