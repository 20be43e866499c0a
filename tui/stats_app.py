"""`cudatui stats`: a small full-screen App hosting the GPU stats pane."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer

from gdbbridge.nvml import Sampler
from tui.panes.gpu_stats import GpuStatsPane


class StatsApp(App[None]):
    """The GPU stats pane full screen.

    | Key | Description |
    | :- | :- |
    | q | Quit. |
    | ] / [ | Next / previous GPU. |
    """

    TITLE = "cudatui stats"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("]", "cycle_device(1)", "Next GPU"),
        Binding("[", "cycle_device(-1)", "Prev GPU"),
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
        yield Footer()

    def on_mount(self) -> None:
        pane = self.query_one(GpuStatsPane)
        pane.pci_bus_id = self._pci_bus_id
        pane.debuggee_pid = self._debuggee_pid

    def action_cycle_device(self, step: int) -> None:
        """Forward to the pane (it cannot take focus, so its own bindings need a focused child)."""
        self.query_one(GpuStatsPane).action_cycle_device(step)
