"""A pane's place: the generation at which the place it shows (its stop, CUDA focus and frame) was
first shown. A bump keeps it, a frame change or a step moves it, an older state is dropped.

States of a real stop (a replay of inspect.jsonl)."""

from __future__ import annotations

from dataclasses import replace

from cudatui.gdbbridge import StopState
from cudatui.tui.panes.base import StatePane
from tests.support.panes import PaneApp, Replay
from tests.support.wait import wait_for


class Probe(StatePane):
    """A StatePane that renders nothing: what its ``place`` says is the test's."""

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        pass


async def test_a_place_is_kept_by_a_bump_only() -> None:
    pane = Probe()
    seen: dict[str, object] = {}

    async def script(app: PaneApp, replay: Replay) -> None:
        first = await replay.state(await replay.resume())
        app.show(first)
        seen["at the stop"] = pane.place == first.generation
        app.show(replace(first, generation=first.generation + 1, breakpoints=()))  # a bump
        seen["after a bump"] = pane.place == first.generation
        app.show(replace(first, generation=first.generation + 2, selected_frame=first.selected_frame + 1))
        seen["after a frame change"] = pane.place == first.generation + 2
        stepped = await replay.state(await replay.resume("-exec-next"))
        stepped = replace(stepped, generation=first.generation + 3)  # after the states made up above
        app.show(stepped)
        seen["after a step"] = pane.place == stepped.generation
        app.show(first)  # an older state is dropped: the place stays the step's
        seen["older state"] = pane.state is stepped and pane.place == stepped.generation

    app = PaneApp(pane, "inspect.jsonl", script)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        assert seen == dict.fromkeys(("at the stop", "after a bump", "after a frame change", "after a step",
                                      "older state"), True)
