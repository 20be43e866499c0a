"""The follower's UI (``cudatui follow FILE``): the debugger's panes on a session another cudatui
is recording, read-only.

The follow stand-in (:mod:`cudatui.gdbbridge.record.follow`) moves the panes to each stop of the
instructor; the Debugger refuses, with one notice, every key that would change the session. F
switches between following the instructor's focus and frame and looking around on one's own
within the stop (the next stop is shown either way). Started before the instructor, it shows
the waiting screen (:mod:`cudatui.tui.screens.waiting_screen`) until their session begins.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from cudatui.gdbbridge import LaunchConfig, session_begun
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.screens.help import action_name
from cudatui.tui.apps.replay_app import ModeStatusBar
from cudatui.tui.panes.status import StatusBar
from cudatui.tui.screens.waiting_screen import WaitingScreen

REFUSED_ACTIONS = frozenset({"resume", "toggle_breakpoint", "console", "interrupt", "launch_blocking",
                             "toggle_enabled", "edit_condition", "delete", "debug", "post_mortem"})
"""Actions that would drive the session (the app's and the panes'): their keys only say "read-only",
and neither the key bar nor the help nor the command palette offers them to a follower."""

FOLLOWING = "read-only · F: look around on your own"
LOOKING = "read-only · looking around · F: follow the instructor"


class FollowApp(DebuggerApp):
    """The debugger UI following a recording while it is written (see the module docstring).

    | Key | Description |
    | :- | :- |
    | r | Rejoin: follow the instructor's newest session (after they restarted). |
    | F | Follow the instructor's focus and frame, or look around on your own. |

    The keys that would drive the session (run, step, breakpoints, the console) stay bound, out of
    sight: pressed, they say "read-only".
    """

    BINDINGS = [
        Binding("r", "rejoin", "Rejoin"),
        Binding("F", "toggle_follow", "Follow / look around"),
        *(Binding(b.key, b.action, "", show=False, priority=b.priority)
          for b in DebuggerApp.BINDINGS if action_name(b.action) in REFUSED_ACTIONS),
    ]
    REFUSED_ACTIONS = REFUSED_ACTIONS

    def __init__(self, config: LaunchConfig) -> None:
        super().__init__(config)
        self.title = f"cudatui follow {os.path.basename(config.recording or '')}"

    def start_debugger(self) -> None:
        """Follow at once when the instructor's session has begun, else after the waiting screen."""
        path = self.config.recording or ""
        if session_begun(path):
            super().start_debugger()
        else:
            self.push_screen(WaitingScreen(path), lambda _: super(FollowApp, self).start_debugger())

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield ModeStatusBar("follow", FOLLOWING, id="status") if isinstance(widget, StatusBar) else widget

    def action_rejoin(self) -> None:
        """Follow the instructor's newest session (a restart appends one to the file)."""
        self.action_restart()

    def action_toggle_follow(self) -> None:
        """Follow the instructor's focus and frame, or look around on your own."""
        on = not self.debugger.following_instructor
        self.debugger.follow_instructor(on)
        bar = self.query_one(ModeStatusBar)
        bar.why = FOLLOWING if on else LOOKING
        bar.refresh()
        self.notify_user("following the instructor's focus" if on else
                         "looking around on your own: the instructor's next stop is still shown")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Follow / look around", "follow the instructor's focus, or look around on your own (F)",
                            self.action_toggle_follow)
