"""`cudatui demo`: run a bundled lesson live on a GPU box, or replay its recording anywhere.

``cudatui demo --list`` prints the lessons; ``cudatui demo`` opens a lesson picker;
``cudatui demo LESSON [--live | --replay] [--fixed]`` opens the debugger on the lesson, and ``q``
there goes back to the picker (``ctrl+q`` quits). ``--fixed`` (and ``--torch`` for the lesson
that has it) is passed to the demo script: live only, the recordings hold the buggy run. Without
``--live``/``--replay`` the lesson runs live when cuda-gdb and a GPU are usable (the same
doctor checks as ``cudatui doctor``), otherwise it replays the recording packaged in
``kernels/recordings/LESSON.jsonl.gz`` through the same UI, marked REPLAY (the decision is
:func:`~cudatui.tui.plans.demo_plan.plan_demo`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cudatui.gdbbridge import RecordingError, prepare
from cudatui.kernels.lessons import LESSONS
from cudatui.tui.cli_errors import fail
from cudatui.tui.commands.output import print_text
from cudatui.tui.needs_terminal import missing_terminal
from cudatui.tui.plans.demo_plan import BACK, DemoError, plan_demo


def add_parser(subparsers: Any) -> None:
    """Add the `demo` sub-command."""
    parser = subparsers.add_parser(
        "demo", help="run a bundled lesson (live on a GPU box, else its recording)",
        description="Open the debugger on a bundled teaching lesson: live when cuda-gdb and a GPU are "
        "usable, otherwise a session recorded on a real GPU, replayed through the same UI (marked REPLAY).",
    )
    parser.add_argument("lesson", nargs="?", metavar="LESSON", help="lesson name (none: pick one)")
    parser.add_argument("--list", action="store_true", help="print the lessons, one per line")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--live", dest="mode", action="store_const", const="live", help="run it under cuda-gdb")
    how.add_argument("--replay", dest="mode", action="store_const", const="replay", help="replay its recording")
    parser.add_argument("--recording", type=Path, metavar="FILE", help="replay this recording instead of the packaged one")
    parser.add_argument("--record", metavar="FILE", help="live: record the session to FILE (share it with --recording)")
    parser.add_argument("--force", action="store_true", help="let --record replace an existing FILE")
    parser.add_argument("--speed", type=float, default=0.0,
                        help="replay: the recorded delays divided by this factor (default 0: no delays)")
    parser.add_argument("--fixed", dest="variant", action="append_const", const="--fixed", default=[],
                        help="live: run the fixed kernel (stops once at the fix)")
    parser.add_argument("--torch", dest="variant", action="append_const", const="--torch",
                        help="live, assert lesson: PyTorch's own indexing instead of the bundled kernel")
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    return fail(message, who="cudatui demo")


def run(args: argparse.Namespace) -> int:
    """Run `cudatui demo`; 2 with one line for an unknown lesson or an impossible mode."""
    if args.list:
        print_text("\n".join(lesson.one_line() for lesson in LESSONS))
        return 0
    if args.speed < 0:
        return _fail("--speed must not be negative")
    name, picked = args.lesson, None
    while True:  # q in a lesson comes back here, to the picker
        if name is None:
            from cudatui.tui.apps.picker_app import PickerApp

            if why := missing_terminal():
                return _fail(why)

            name = PickerApp(highlight=picked).run()
            if name is None:
                return 0
        code = _run_lesson(name, args)
        if code != BACK:
            return code
        name, picked = None, name
        args.recording = args.record = None  # they named the first lesson's files
        args.variant = [v for v in args.variant if v == "--fixed"]  # --torch was that lesson's


def _run_lesson(name: str, args: argparse.Namespace) -> int | str:
    """One lesson: its exit code, or BACK when the user asked for the picker."""
    try:
        plan = plan_demo(name, args.mode, recording=args.recording, record=args.record, speed=args.speed,
                         variant=tuple(dict.fromkeys(args.variant)))
    except DemoError as exc:
        return _fail(str(exc))
    if why := missing_terminal():
        return _fail(why)
    if plan.config.record is not None:
        try:
            prepare(plan.config.record, force=args.force)
        except RecordingError as exc:
            return _fail(str(exc))
    from cudatui.tui.apps.demo_app import DemoApp

    app = DemoApp(plan)
    result = app.run()
    if app.failure:
        return _fail(app.failure)
    return BACK if result == BACK else int(result or 0)
