"""`cudatui demo`: the guide (strip and full screen), its keys, help, palette, q, --fixed.

Over the packaged recordings (kernels/recordings, real H200 sessions); what a test expects is
read from the lesson metadata and the recording.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from cudatui.kernels.lessons import LESSONS, get_lesson
from cudatui.tui.apps.debugger_app import SIDE_PANES, DebuggerApp
from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.plans.demo_plan import BACK, FIXED_STOP, DemoError, live_config, plan_demo
from cudatui.tui.screens.guide_screen import GuideScreen, GuideSection
from cudatui.tui.screens.help import HelpScreen, long_name
from cudatui.tui.panes.guide import Guide, GuidePane, replay_note, sections
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.sanitizer import SanitizerPane
from tests.support.app import phase
from tests.support.wait import wait_for

SECTIONS = ["header", "banner", "path", "look", "next", "fix"]


def plain(guide: Guide) -> str:
    return "\n".join(text.plain for _, text in sections(guide))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_every_section_of_every_guide_holds_its_part(lesson) -> None:
    plan = plan_demo(lesson.name, "replay")
    assert plan.recording is not None
    guide = Guide.for_lesson(lesson, "replay", plan.banner, plan.recording.path_text)
    assert [name for name, _ in sections(guide)] == SECTIONS
    text = plain(guide)
    for part in (lesson.title, lesson.symptom, lesson.tool, plan.banner, plan.recording.path_text, lesson.fix,
                 *lesson.look_at, *(f"{n}. {step}" for n, step in enumerate(lesson.next_steps, 1))):
        assert part in text, part
    for step in lesson.next_steps:  # a step that needs the live program says so in a replay, and not live
        note = replay_note(step, lesson.name)
        if "--fixed" in step:
            assert note.startswith("live only: only the buggy run") and f"cudatui demo {lesson.name} --fixed" in note
        if step.startswith("S runs "):
            assert "no program to run the tool on" in note
        assert (note in text) and (not note or note not in plain(Guide.for_lesson(lesson, "live", "LIVE")))


def test_the_guides_name_panes_and_keys_that_exist() -> None:
    """No guide names a pane the app does not have, nor a command line the demo refuses."""
    from cudatui.tui.apps.debugger_app import SIDE_PANES

    titles = {spec.title for spec in SIDE_PANES} | {"Source"}
    for lesson in LESSONS:
        for item in (*lesson.look_at, *lesson.next_steps):
            assert "lanes pane" not in item and "go up one frame" not in item
            head = item.split(":")[0].split(",")[0]
            if head[:1].isupper() and " " not in head and head != "S":
                assert head in titles, f"{lesson.name}: {item!r} names no pane"
            if item.startswith("cudatui demo "):
                words = item.split(":")[0].split()
                assert words[2] == lesson.name and all(w in ("--fixed", *lesson.extra_args) for w in words[3:])


@pytest.mark.long(2)
async def test_at_80x24_tab_reaches_the_strip_keys_and_wheel_scroll_it_and_a_click_opens_the_guide() -> None:
    app = DemoApp(plan_demo("race", "replay"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        strip = app.query_one(GuidePane)
        assert strip.region.height <= 4 and strip.max_scroll_y > 0  # the header and the hint; the rest scrolls
        assert "h or a click: the whole guide" in str(strip.query_one("#guide-hint").render())
        for _ in range(20):  # Tab goes round the panes and reaches the strip
            await pilot.press("tab")
            await pilot.pause()
            if app.focused is strip:
                break
        assert app.focused is strip
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: strip.scroll_y >= 2)
        await pilot.press("home")
        await wait_for(pilot, lambda: strip.scroll_y == 0)
        x, y = strip.region.x + 4, strip.region.y + 2
        app.post_message(events.MouseScrollDown(None, x, y, 0, 1, 0, False, False, False, screen_x=x, screen_y=y))
        await wait_for(pilot, lambda: strip.scroll_y > 0)
        await pilot.click(GuidePane)
        await wait_for(pilot, lambda: isinstance(app.screen, GuideScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.default_screen)
        await pilot.press("H")
        assert not strip.display
        for _ in range(20):  # hidden, Tab passes it by
            await pilot.press("tab")
            await pilot.pause()
            assert app.focused is not strip
        await pilot.press("H")
        assert strip.display
        await pilot.press("ctrl+q")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_full_guide_reaches_every_section_by_tab_and_by_the_wheel(size) -> None:
    app = DemoApp(plan_demo("tile", "replay"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, GuideScreen))
        screen = app.screen
        assert isinstance(screen, GuideScreen)
        found = [section.id for section in screen.query(GuideSection)]
        assert found == [f"section-{name}" for name in SECTIONS]
        seen = []
        for _ in SECTIONS:  # each Tab moves to the next section and scrolls it into view
            await pilot.pause()
            focused = app.focused
            assert isinstance(focused, GuideSection)
            await wait_for(pilot, lambda: screen.scroller.region.contains_region(focused.region)
                           or focused.region.height > screen.scroller.region.height)
            seen.append(focused.id)
            await pilot.press("tab")
        assert seen == found
        await pilot.press("home")
        await wait_for(pilot, lambda: screen.scroller.scroll_y == 0)
        if screen.scroller.max_scroll_y:  # 80x24: the sections do not fit; the wheel and the keys scroll
            region = screen.scroller.region
            x, y = region.x + 2, region.y + 2
            app.post_message(events.MouseScrollDown(None, x, y, 0, 1, 0, False, False, False, screen_x=x, screen_y=y))
            await wait_for(pilot, lambda: screen.scroller.scroll_y > 0)
            await pilot.press("end")
            await wait_for(pilot, lambda: screen.scroller.scroll_y == screen.scroller.max_scroll_y)
        await pilot.press("c")  # the debugger's keys are not the guide's
        await pilot.pause()
        assert isinstance(app.screen, GuideScreen) and phase(app) == "stopped"
        await pilot.press("h")
        await wait_for(pilot, lambda: app.screen is app.default_screen)
        await pilot.press("ctrl+q")


async def test_help_lists_the_debugger_and_the_guide_keys_and_the_palette_continues() -> None:
    plan = plan_demo("race", "replay")
    assert plan.recording is not None
    app = DemoApp(plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        listed = dict(app.screen.sections)  # type: ignore[attr-defined]
        assert list(listed)[:4] == ["Lesson", "Guide strip", "Full-screen guide", "Debugger"]
        # the debugger's keys but q, which the lesson binds again (back to the lessons)
        assert list(listed["Debugger"]) == [b for b in DebuggerApp.BINDINGS if b.key != "q"]
        assert listed["Full-screen guide"] == GuideScreen.BINDINGS
        assert {b.key for b in listed["Lesson"]} == {"h", "H", "S", "q"}
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.default_screen)

        titles = {c.title for c in app.get_system_commands(app.screen)}
        named = {long_name(b) for b in DebuggerApp.BINDINGS if b.description and b.action != "quit"}
        assert named | {"Lesson guide", "Guide strip", "Lesson's sanitizer", "Back to the lessons"} <= titles
        panes = {f"{spec.title}: {b.description}" for spec in SIDE_PANES for b in getattr(spec.cls, "BINDINGS", [])
                 if b.description}
        assert panes <= titles and "Locals: Watch" in panes
        watch = next(c for c in app.get_system_commands(app.screen) if c.title == "Locals: Watch")
        watch.callback()  # the pane's own key, run from the palette: its watch input opens
        await wait_for(pilot, lambda: isinstance(app.focused, Input) and app.query_one(LocalsPane) in app.focused.ancestors)
        await pilot.press("escape")
        # the recorded path starts with n, then a focus switch: the palette's "Next" takes the first step
        assert plan.recording.steps[0] == "n" and plan.recording.steps[1].startswith("g ")
        before = app.debugger.state.generation if app.debugger.state else 0
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"step over")
        await wait_for(pilot, lambda: app.screen.query_one("#--input Input", Input).value == "step over"
                       and app.screen._list_visible)  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: highlighted(app).startswith("Next"), why=lambda: f"Next highlighted, not {highlighted(app)!r}")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.generation > before)
        await wait_for(pilot, lambda: phase(app) == "stopped")
        before = app.debugger.state.generation
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        app.focused.value = plan.recording.steps[1][2:]  # type: ignore[union-attr]
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.generation > before)
        await pilot.press("ctrl+q")


async def test_q_closes_the_lesson_for_the_picker_and_ctrl_q_quits() -> None:
    app = DemoApp(plan_demo("oob", "replay"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("q")
    assert app.return_value == BACK
    assert app.debugger.debugger_pid is not None and not app.debugger.alive
    app = DemoApp(plan_demo("oob", "replay"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, GuideScreen))
        await pilot.press("ctrl+q")  # from the full guide too
    assert app.return_value == 0


async def test_S_in_a_replay_shows_the_recorded_report() -> None:
    app = DemoApp(plan_demo("race", "replay"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("S")
        pane = app.query_one(SanitizerPane)
        await wait_for(pilot, lambda: str(pane.status).startswith("RECORDED racecheck run"), why="the recorded report")
        assert pane.running is False
        await pilot.press("ctrl+q")


def test_fixed_runs_the_fixed_kernel_live_and_is_refused_in_a_replay_in_one_line() -> None:
    for lesson in LESSONS:
        config = live_config(lesson, "cuda-gdb", variant=("--fixed",))
        assert config.target == (str(lesson.demo_path), "--fixed")
        location = lesson.resolve("fix").location
        in_kernel = lesson.fixed in lesson.kernels
        assert config.breakpoints == ((f"{location} if {FIXED_STOP}",) if in_kernel else (location,))
        with pytest.raises(DemoError, match=r"^--fixed runs live only: the recording holds the buggy run"):
            plan_demo(lesson.name, "replay", variant=("--fixed",))
    assert live_config(get_lesson("assert"), variant=("--torch",)).breakpoints == ()
    with pytest.raises(DemoError, match=r"^lesson race has no --torch variant \(only --fixed\)$"):
        plan_demo("race", "replay", variant=("--torch",))


def test_fixed_and_torch_on_the_command_line_are_one_line_where_they_cannot_run(capsys) -> None:
    from cudatui.tui.cli import main

    assert main(["demo", "race", "--replay", "--fixed"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cudatui demo: --fixed runs live only: the recording holds the buggy run") and err.count("\n") == 1
    assert main(["demo", "oob", "--torch"]) == 2
    assert capsys.readouterr().err == "cudatui demo: lesson oob has no --torch variant (only --fixed)\n"


async def test_the_picker_comes_back_with_the_lesson_just_left_highlighted() -> None:
    from cudatui.tui.screens.lesson_picker import LessonPicker
    from cudatui.tui.apps.picker_app import PickerApp

    app = PickerApp(highlight="tile")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonPicker))
        await pilot.pause()
        assert app.screen.highlighted == "tile"  # type: ignore[attr-defined]
        await pilot.press("enter")
    assert app.return_value == "tile"


def highlighted(app) -> str:
    """The command the palette's list highlights (what enter runs), or ""."""
    commands = app.screen.query_one(CommandList)
    if commands.highlighted is None:
        return ""
    return str(commands.get_option_at_index(commands.highlighted).hit.text)
