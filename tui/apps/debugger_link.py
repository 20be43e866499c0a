"""How the app and its Debugger live together: calls in workers until quitting begins, events
shown only while the app runs.

``qr`` typed fast: ``q`` closes the debugger (the app's message loop waits for it) and ``r`` is
handled afterwards, while the app exits. Its call must not start (a restart while closing
would start a new debugger) nor leave a coroutine that no worker runs (``coroutine ... was
never awaited`` once the app's workers are cancelled): a call is given as the function that
makes its coroutine, and made only when it runs. A debugger or program that keeps talking
while the app shuts down is not shown: the panes are gone (``NoMatches``).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Coroutine

from textual.app import App

from cudatui.gdbbridge import Debugger, DebuggerEvent, StartupFailed

Call = Callable[[], Coroutine[Any, Any, None]]
"""A Debugger call not made yet: ``debugger.restart``, ``partial(debugger.resume, Step.NEXT)``."""


class DebuggerLink:
    """The app's side of its Debugger: :meth:`spawn` its calls, :meth:`quit` once; ``show`` gets
    every event the Debugger emits while the app runs."""

    def __init__(self, app: App[Any], debugger: Debugger, show: Callable[[DebuggerEvent], None],
                 calling: Callable[[], None] = lambda: None) -> None:
        self._app = app
        self._show = show
        self._calling = calling
        """Called as each call is spawned (the app pauses its garbage collector)."""
        self.debugger = debugger
        self.quitting = False
        """Set once the app began to quit (q, or the debugger could not start): no Debugger call starts any more."""
        debugger.subscribe(self._said)

    def _said(self, event: DebuggerEvent) -> None:
        self.quitting = self.quitting or isinstance(event, StartupFailed)  # the app exits
        if self._app.is_running:
            self._show(event)

    def spawn(self, call: Call, name: str) -> None:
        """Run ``call`` in a worker (its unexpected failure is the worker's error), unless quitting."""
        if not self.quitting:
            self._calling()
            self._app.run_worker(call, name=name, group="debugger", exit_on_error=False)

    async def quit(self) -> bool:
        """Begin quitting and close the debugger (reaping everything it started); False when
        quitting had already begun (a second ``q``)."""
        if self.quitting:
            return False
        self.quitting = True
        await self.debugger.close()
        return True
