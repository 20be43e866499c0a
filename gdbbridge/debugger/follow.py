"""The Debugger's part for a follower (``cudatui follow``, ``LaunchConfig.follow``): its keys that
would change the session are refused with one notice (the instructor's keys drive it), and what
the follow stand-in says (:mod:`cudatui.gdbbridge.record.follow`) is acted on: the instructor's
session ended, or they moved the focus or the frame within a stop (followed unless the user
chose to look around on their own)."""

from __future__ import annotations

from typing import Any

from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.viewpoint import Viewpoint

READ_ONLY = "read-only: you are following the instructor's session (their keys drive it)"
"""What a follower's key that would change the session says instead."""


class Follow:
    """Following an instructor's session (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, viewpoint: Viewpoint) -> None:
        self.ctx = ctx
        self.viewpoint = viewpoint
        self.following_instructor = True
        """A follower moves with the instructor's focus and frame (see :meth:`follow_instructor`)."""

    def refuses(self) -> bool:
        """Whether a key that would change the session is refused (a follower's); it says so."""
        if self.ctx.config.follow:
            self.ctx.notice(READ_ONLY, "warning")
            return True
        return False

    def follow_instructor(self, on: bool) -> None:
        """Move with the instructor's focus and frame within a stop (on), or look around on one's
        own (off; the next stop is shown either way)."""
        self.following_instructor = on

    def instructor_said(self, payload: dict[str, Any]) -> None:
        """What the follow stand-in says: the instructor's session ended, or where they look."""
        ctx = self.ctx
        if payload.get("state") == "ended":
            ctx.ended = ("the instructor's session ended: this is its last state (r follows their next "
                         "session)")
            ctx.set_status(ctx.phase, ctx.ended)
            ctx.notice("the instructor's session ended: its last state stays on screen", "warning")
        elif self.following_instructor and isinstance(payload.get("focus"), str):
            ctx.spawn(self.viewpoint.switch_focus(payload["focus"]), "follow focus")
        elif self.following_instructor and str(payload.get("frame", "")).isdigit():
            ctx.spawn(self.viewpoint.select_frame(int(payload["frame"])), "follow frame")
