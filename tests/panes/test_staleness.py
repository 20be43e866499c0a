"""Staleness is decided in one place: a pane's ``place`` and ``QueryPane.holds``.

States of a real stop (a replay of inspect.jsonl): an answer asked at the stop still holds after
a bump (the same stop, focus and frame with other breakpoints), not after the frame changed nor
after a step."""

from __future__ import annotations

from dataclasses import replace

from cudatui.gdbbridge import StopState
from cudatui.tui.panes.base import QueryPane
from tests.support.panes import PaneApp, Replay
from tests.support.wait import wait_for


class Probe(QueryPane):
    """A QueryPane that renders nothing: what ``holds`` says is the test's."""

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        pass


async def test_an_answer_holds_at_its_place_and_its_bumps_only() -> None:
    pane = Probe()
    seen: dict[str, object] = {}

    async def script(app: PaneApp, replay: Replay) -> None:
        first = await replay.state(await replay.resume())
        app.show(first)
        asked = first.generation
        seen["at the stop"] = pane.holds(asked)
        app.show(replace(first, generation=first.generation + 1, breakpoints=()))  # a bump
        seen["after a bump"] = (pane.holds(asked), pane.place == first.generation)
        app.show(replace(first, generation=first.generation + 2, selected_frame=first.selected_frame + 1))
        seen["after a frame change"] = (pane.holds(asked), pane.place == first.generation + 2)
        stepped = await replay.state(await replay.resume("-exec-next"))
        stepped = replace(stepped, generation=first.generation + 3)  # after the states made up above
        app.show(stepped)
        seen["after a step"] = (pane.holds(first.generation + 2), pane.holds(stepped.generation))
        app.show(first)  # an older state is dropped: the place stays the step's
        seen["older state"] = pane.state is stepped

    app = PaneApp(pane, "inspect.jsonl", script)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        assert seen == {
            "at the stop": True,
            "after a bump": (True, True),
            "after a frame change": (False, True),
            "after a step": (False, True),
            "older state": True,
        }
        await pilot.press("q")
    assert not pane.holds(0), "an answer arriving once the app closed is dropped"
