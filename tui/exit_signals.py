"""SIGTERM and SIGHUP end an app the way ctrl+q does: the terminal is given back first.

Python's default for both signals ends the process at once: the terminal stayed on the
alternate screen, with the cursor hidden and mouse reporting on (every click then typed escape
codes into the shell), and the debugger and the program it ran were not reaped (issue 36).
:class:`QuitsOnSignals`, a base of every cudatui app, makes each of them run the app's own
``quit`` action (the debugger closes and reaps what it started; Textual restores the terminal)
and remembers the signal in :data:`received`; the command line then exits ``128 + signal``,
the status a shell shows for a command the signal ended. A second signal while quitting exits
the app at once (its terminal still restored).
"""

from __future__ import annotations

import asyncio
import signal
from contextlib import suppress

SIGNALS = (signal.SIGTERM, signal.SIGHUP)

received: int | None = None
"""The signal that ended the last app, or None."""


class QuitsOnSignals:
    """Mixin of a Textual app: SIGTERM and SIGHUP run its ``quit`` action (see the module)."""

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        for number in SIGNALS:
            with suppress(ValueError, RuntimeError, NotImplementedError):  # not the main thread
                loop.add_signal_handler(number, self._quit_on_signal, number)

    def on_unmount(self) -> None:
        with suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            for number in SIGNALS:
                loop.remove_signal_handler(number)

    def _quit_on_signal(self, number: int) -> None:
        global received
        app = self  # a Textual App (this class is mixed into one)
        if received == number:
            app.exit()  # type: ignore[attr-defined]
            return
        received = number
        app.call_later(app.run_action, "quit")  # type: ignore[attr-defined]
