"""Exception banner over the real CUDA_EXCEPTION_14 (oob.jsonl) and CUDA_EXCEPTION_12 (assert.jsonl) stops."""

from __future__ import annotations

from dataclasses import replace

from cudatui.gdbbridge.cuda.culprit import find_culprit
from cudatui.tui.panes.exception import ExceptionBanner
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.wait import wait_for


async def oob_script(app: PaneApp, replay: Replay) -> None:
    state = await replay.state(await replay.resume())
    app.show(await replay.with_console_lanes(state))


async def test_illegal_address_banner_names_the_faulting_thread_and_is_fatal():
    banner = ExceptionBanner()
    app = PaneApp(banner, "oob.jsonl", oob_script)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        text = banner.render().plain
        assert banner.display
        assert banner.exception is not None and banner.exception.code == 14
        assert "CUDA_EXCEPTION_14" in text and "Warp Illegal Address" in text
        assert "block (2379,0,0) thread (0,0,0)" in text
        assert "warp 0 lane 0" in text
        assert "lanes 0-31 (32 lanes)" in text
        assert "add_kernel at bugs.cu:5" in text
        assert "fatal" in text and "recoverable" not in text


async def test_assert_banner_is_recoverable_and_points_at_the_kernel_line():
    banner = ExceptionBanner()

    async def script(app: PaneApp, replay: Replay) -> None:
        state = await replay.state(await replay.resume())
        app.show(await replay.with_console_lanes(state))

    app = PaneApp(banner, "assert.jsonl", script)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        text = banner.render().plain
        assert banner.exception is not None and banner.exception.recoverable
        assert "CUDA_EXCEPTION_12" in text and "Warp Assert" in text
        assert "block (0,0,0) thread (77,0,0)" in text and "warp 3 lane 13" in text
        assert "faulted: lane 13" in text
        assert "checked_index at bugs.cu:27" in text
        assert "recoverable" in text and "fatal" not in text


async def test_banner_hidden_on_a_breakpoint_stop():
    banner = ExceptionBanner()
    app = PaneApp(banner, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert banner.state is not None and banner.state.stop.reason == "breakpoint-hit"
        assert not banner.display
        assert banner.exception is None


async def test_the_culprit_lane_of_a_post_mortem_is_named_after_the_faulted_lanes():
    """A post-mortem's stop carries the culprit lane the Debugger found opening the dump
    (``StopState.culprit``); the banner names it, with why, after the faulted lanes. Over the assert
    stop, whose one faulted lane is the culprit the search names without a walk."""
    banner = ExceptionBanner()

    async def script(app: PaneApp, replay: Replay) -> None:
        state = await replay.with_console_lanes(await replay.state(await replay.resume()))
        found = await find_culprit(None, state, "")  # type: ignore[arg-type]  # one faulted lane: no command is sent
        app.show(replace(state, culprit=found))

    app = PaneApp(banner, "assert.jsonl", script)
    async with app.run_test(size=(160, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        text = banner.render().plain
        assert "faulted: lane 13 · culprit: lane 13 (only lane 13 faulted)" in text
