"""SIGTERM and SIGHUP end an app the way ctrl+q does: the terminal is given back first.

Python's default for both signals ends the process at once: the terminal stayed on the
alternate screen, with the cursor hidden and mouse reporting on (every click then typed escape
codes into the shell), and the debugger and the program it ran were not reaped (issue 36).
:class:`QuitsOnSignals`, a base of every cudatui app, makes each of them run the app's own
``quit`` action (the debugger closes and reaps what it started; Textual restores the terminal)
and remembers the signal in :data:`received`; the command line then exits ``128 + signal``,
the status a shell shows for a command the signal ended. A second signal while quitting exits
the app at once (its terminal still restored).

When the terminal itself has gone (an SSH drop, a closed window: SIGHUP with the terminal hung
up), nothing is left to restore, and writing to it fails (EIO ended Textual's writer thread, and
the next write waited for it forever: cudatui stayed, issue 36). Then the standard streams are
pointed at /dev/null, the quit action closes the debugger and reaps what it started, and the
process ends there (``os._exit``), past Textual's restoring of a terminal that is no more.
"""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import sys
import termios
from contextlib import suppress

SIGNALS = (signal.SIGTERM, signal.SIGHUP)

received: int | None = None
"""The signal that ended the last app, or None."""


def terminal_gone() -> bool:
    """Whether the terminal on standard input has hung up (its ioctls fail with EIO)."""
    stdin = sys.__stdin__
    if stdin is None:
        return False
    try:
        termios.tcgetattr(stdin.fileno())
    except termios.error as exc:
        return bool(exc.args) and exc.args[0] == errno.EIO
    except (OSError, ValueError):
        return False
    return False


def silence_terminal() -> None:
    """Point standard input, output and error at /dev/null (their terminal is gone)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        with suppress(OSError):
            os.dup2(null, fd)
    os.close(null)


class QuitsOnSignals:
    """Mixin of a Textual app: SIGTERM and SIGHUP run its ``quit`` action (see the module)."""

    _handled: tuple[int, ...] = ()

    def on_mount(self) -> None:
        """Handle the signals, except one the process was started with ignored (``nohup``: a hang-up
        must not end it), which stays ignored, for the app and what it starts."""
        loop = asyncio.get_running_loop()
        handled = []
        for number in SIGNALS:
            if signal.getsignal(number) == signal.SIG_IGN:
                continue
            with suppress(ValueError, RuntimeError, NotImplementedError):  # not the main thread
                loop.add_signal_handler(number, self._quit_on_signal, number)
                handled.append(number)
        self._handled = tuple(handled)

    def on_unmount(self) -> None:
        with suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            for number in self._handled:
                loop.remove_signal_handler(number)

    def _quit_on_signal(self, number: int) -> None:
        global received
        app = self  # a Textual App (this class is mixed into one)
        if received == number:
            app.exit()  # type: ignore[attr-defined]
            return
        received = number
        if terminal_gone():
            silence_terminal()
            app.call_later(self._quit_without_terminal, number)  # type: ignore[attr-defined]
            return
        app.call_later(app.run_action, "quit")  # type: ignore[attr-defined]

    async def _quit_without_terminal(self, number: int) -> None:
        """The quit action (the debugger closed, what it started reaped), then the end of the
        process: no terminal is left to give back."""
        await self.run_action("quit")  # type: ignore[attr-defined]
        os._exit(128 + number)
