"""Following a session that opened a GPU coredump (``cudatui triage``, ``cudatui --core``): the
follower opens the recorded dump as the instructor did, instead of running a program the
recording never ran ("not in this recording: -exec-run"). The recording is the H200's triage of a
CuPy kernel (batch 27), followed as a finished session."""

from __future__ import annotations

import asyncio

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.status import Phase
from tests.support.paths import RECORDED
from tests.support.wait import until


async def test_a_follower_of_a_triage_opens_the_recorded_dump() -> None:
    follower = Debugger(LaunchConfig.following(RECORDED / "own" / "triage_cupy_oob.jsonl"))
    try:
        await asyncio.wait_for(follower.start(), 60)
        await until(lambda: follower.state is not None and follower.state.stop.exception is not None, 60,
                    why=lambda: f"the dump's stop; status {follower.status}")
        state = follower.state
        assert state is not None and state.stop.reason == "core"
        assert state.stop.exception is not None and state.stop.exception.name == "Warp Illegal Address"
        assert state.focus is not None and state.focus.software == "block (0,0,0) thread (0,0,0)"
        assert "not in this recording" not in follower.status.detail and follower.phase is not Phase.DEAD
    finally:
        await follower.close()
