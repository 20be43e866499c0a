"""kernels/lesson_paths.py: every lesson has a recorded path that starts at its breakpoint, covers
what its guide proposes, and names only actions, panes and tools that exist."""

from __future__ import annotations

import re

import pytest

from cudatui.gdbbridge.cuda.focus import normalize_focus
from cudatui.kernels.lesson_paths import KINDS, PANE_TITLES, PATHS, UNCHECKED, PathStep, lesson_path, sanitizer_tools
from cudatui.kernels.lessons import LESSONS, sanitizer_options
from cudatui.tui.apps.debugger_app import SIDE_PANES
from cudatui.tui.panes.guide import replay_note


def test_every_lesson_has_a_path_and_no_path_lacks_a_lesson() -> None:
    assert set(PATHS) == {lesson.name for lesson in LESSONS}


def test_the_pane_titles_are_the_apps() -> None:
    assert {spec.id: spec.title for spec in SIDE_PANES} == PANE_TITLES


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_a_path_starts_at_the_breakpoint_and_names_real_things(lesson) -> None:
    path = lesson_path(lesson.name)
    assert path[0].kind == "start" and all(step.kind != "start" for step in path[1:])
    for step in path:
        assert step.kind in KINDS and step.shows and step.keys
        if step.kind == "key":
            assert step.arg in ("c", "n", "s", "f")
        elif step.kind == "focus":
            normalize_focus(step.arg)
        elif step.kind == "frame":
            assert int(step.arg) > 0
        elif step.kind == "pane":
            assert step.arg in PANE_TITLES
        elif step.kind in ("condition", "delete", "disable"):
            assert int(step.arg.split()[0]) <= len(lesson.breakpoints)
        elif step.kind == "sanitize":
            sanitizer_options(step.arg)
    debug = [i for i, step in enumerate(path) if step.kind == "debug"]
    assert all(path[i - 1].kind == "sanitize" for i in debug), "d follows the report it is pressed on"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_a_path_covers_what_the_guide_proposes(lesson) -> None:
    path = lesson_path(lesson.name)
    guide = " ".join((*lesson.look_at, *lesson.next_steps))
    kinds = {step.kind for step in path}
    tools = {o.tool for o in lesson.outcomes if o.tool != "cuda-gdb"}
    assert tools == set(sanitizer_tools(lesson.name)), "every sanitizer the lesson names is run"
    for match in re.finditer(r"switch to (block \([\d,]+\) thread \([\d,]+\)|block \d+ thread \d+)", guide):
        wanted = normalize_focus(match.group(1))
        assert any(step.kind == "focus" and normalize_focus(step.arg) == wanted for step in path), match.group(1)
    if "up one frame" in guide or "frame 1" in guide or "call stack" in guide:
        assert "frame" in kinds
    if re.search(r"\bprint\b", guide):
        assert "console" in kinds
    if "shared-memory pane" in guide:
        assert kinds & {"shared", "pane"} and any(s.arg in ("shared",) or s.kind == "shared" for s in path)
    if "warps pane" in guide:
        assert any(s.kind == "pane" and s.arg == "warps" for s in path)
    if "GPU pane" in guide:
        assert any(s.kind == "pane" and s.arg == "gpu" for s in path)
    if "CUDA_EXCEPTION" in guide:
        assert any(s.kind == "key" and s.arg == "c" for s in path)
    assert any(s.kind == "pane" and s.arg == "disassembly" for s in path) or lesson.name == "leak"


def test_unknown_kinds_are_refused() -> None:
    with pytest.raises(ValueError):
        PathStep("jump", "", "")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_every_guide_item_is_a_screen_claim_or_says_why_not(lesson) -> None:
    claims = [claim for step in lesson_path(lesson.name) for claim in step.screen]
    covered = {claim.guide for claim in claims}
    for kind, items in (("look", lesson.look_at), ("next", lesson.next_steps)):
        for number, item in enumerate(items):
            key = f"{kind} {number}"
            live_only = replay_note(item, lesson.name).startswith("live only")
            assert (key in covered) + live_only + ((lesson.name, key) in UNCHECKED) == 1, (
                f"{lesson.name} {key} {item!r}: a claim checks it, or it is live-only, or UNCHECKED says why (one)")
    for claim in claims:
        assert claim.where in (*PANE_TITLES, "status", "screen"), claim
        re.compile(claim.pattern)
        re.compile(claim.needs)
        if claim.guide:
            kind, number = claim.guide.split()
            assert int(number) < len(lesson.look_at if kind == "look" else lesson.next_steps), claim
        assert bool(claim.needs) == bool(claim.why), f"a claim that needs more of a recording says why: {claim}"
