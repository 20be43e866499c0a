"""`cudatui stats`: a small full-screen App hosting the GPU stats pane."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding

from cudatui.gdbbridge import Sampler
from cudatui.tui.widgets.footer import KeyBar
from cudatui.tui.panes.gpu_stats import GpuStatsPane
from cudatui.tui.apps.toasts import ToastingApp


class StatsApp(ToastingApp[None]):
    """The GPU stats pane full screen.

    | Key | Description |
    | :- | :- |
    | q | Quit. |
    | ] / [ | Next / previous GPU (the pane's bindings). |
    """

    TITLE = "cudatui stats"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
    ]
    CSS = """
    GpuStatsPane { height: 1fr; padding: 0 1; }
    """

    def __init__(
        self,
        sampler: Sampler | None = None,
        *,
        pci_bus_id: str | None = None,
        debuggee_pid: int | None = None,
    ) -> None:
        super().__init__()
        self._sampler = sampler
        self._pci_bus_id = pci_bus_id
        self._debuggee_pid = debuggee_pid

    def compose(self) -> ComposeResult:
        yield GpuStatsPane(self._sampler)
        yield KeyBar()

    def on_mount(self) -> None:
        pane = self.query_one(GpuStatsPane)
        pane.pci_bus_id = self._pci_bus_id
        pane.debuggee_pid = self._debuggee_pid
