"""Each lesson's recorded path: the guide's steps as the keys a user presses, in order.

One list per lesson covers every step its guide (:mod:`cudatui.kernels.lessons`: ``look_at``,
``next_steps``) proposes that can be done in the debugger: run to the breakpoint, continue,
step, go up a frame, print a variable in the console, shared memory as a grid, SASS, the warp
watch, focus switches and the exception stop, then the lesson's sanitizer run and ``d`` on its
first finding. ``scripts/record_demos.py`` drives the real UI along it to make the lesson's
recording, the tests replay the recording along it, and the guide lists it as the recorded path.

A step is an action the UI offers (``kind``) with its argument, the keys that do it, and what it
shows. Kinds:

========== ================================================================ ==============
kind       what it does                                                     argument
========== ================================================================ ==============
start      run to the first breakpoint (the lesson starts so)               -
key        a debugger key: ``c`` continue, ``n`` next, ``s`` step            the key
focus      ``g`` and a focus request                                        the request
frame      select a frame in the Stack pane (down, enter)                   the level
console    ``:`` and a gdb command                                          the command
pane       show a pane (its tab at 80x24)                                   the pane id
shared     add a shared array to the Shared pane (``a``)                    ``sdata[256]``
watch      the warp watch (``w`` in the Warps pane)                         the expression
condition  a breakpoint's condition (``e`` in the Breaks pane)              ``N CONDITION``
delete     delete a breakpoint (``d`` in the Breaks pane)                   the number
disable    turn a breakpoint off (space in the Breaks pane)                 the number
sanitize   run a compute-sanitizer tool (the Sanitize pane)                 the tool
debug      ``d`` on the first finding: stop on its thread                   -
========== ================================================================ ==============

Steps that move the program or the focus (start, key, focus, frame, console, debug, delete
then key) make a new stop state; the others show the current one.

Each step carries the claims the guide makes about it (:class:`Claim`): what the SCREEN shows
once the step is done (a value in a pane, a marker, a line), each naming the guide's words it
checks (the step's ``shows``, a "Look at" or a "Try next" item). The walks in a real terminal
(tests/e2e/test_lesson_paths_tmux.py) check them at 80x24 and 160x48. A claim the recording
cannot show yet says what the recording must hold (``needs``) and why it may not: it is listed
as awaiting a re-recording until the recording holds it, then checked.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("start", "key", "focus", "frame", "console", "pane", "shared", "watch", "condition", "delete", "disable",
         "sanitize",
         "debug")


@dataclass(frozen=True)
class Claim:
    """What the screen shows after a step, as the guide promises it."""

    where: str
    """A pane id (PANE_TITLES), ``status`` (the status bar) or ``screen`` (anywhere)."""
    pattern: str
    """A regular expression the text there matches (multi-line)."""
    guide: str = ""
    """The guide's words checked: '' for the step's ``shows``, ``look N`` / ``next N`` for the
    lesson's Nth (0-based) "Look at" / "Try next" item."""
    needs: str = ""
    """A regular expression the recording (its MI lines up to the step's end) must match for the
    screen to show the claim ('' when any recording along the path does); until it does the claim
    awaits a re-recording. :func:`here` limits it to the step's own part."""
    why: str = ""
    """Why a recording may not hold it (shown while it awaits)."""
    grows: bool = False
    """The pattern's first group is a number larger than at the last step that matched it."""


@dataclass(frozen=True)
class PathStep:
    """One step of a lesson's recorded path."""

    kind: str
    """One of KINDS."""
    arg: str
    """What the step needs (see the module docstring)."""
    shows: str
    """What it shows, in the guide's words."""
    screen: tuple[Claim, ...] = ()
    """What the screen shows once it is done (see :class:`Claim`)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown path step kind {self.kind!r}")

    @property
    def keys(self) -> str:
        """The keys that make the step, as the guide prints them."""
        match self.kind:
            case "start":
                return "(start)"
            case "key":
                return self.arg
            case "focus":
                return f"g {self.arg}"
            case "frame":
                return f"Stack: frame {self.arg}"
            case "console":
                return f": {self.arg}"
            case "pane":
                return PANE_TITLES.get(self.arg, self.arg)
            case "shared":
                return f"Shared: a {self.arg}"
            case "watch":
                return f"Warps: w {self.arg}"
            case "condition":
                number, _, condition = self.arg.partition(" ")
                return f"Breaks: e {condition} (breakpoint {number})"
            case "delete":
                return f"Breaks: d (breakpoint {self.arg})"
            case "disable":
                return f"Breaks: space (breakpoint {self.arg} off)"
            case "sanitize":
                return f"Sanitize: {self.arg}"
            case _:
                return "Sanitize: d"

    def __str__(self) -> str:
        return f"{self.keys}: {self.shows}"


PANE_TITLES = {"locals": "Locals", "stack": "Stack", "breakpoints": "Breaks", "focus": "Focus", "warps": "Warps",
               "registers": "Regs", "disassembly": "SASS", "shared": "Shared", "console": "Console",
               "output": "Output", "gpu": "GPU", "sanitizer": "Sanitize"}
"""The tab title of each pane id (tui/apps/debugger_app.py SIDE_PANES)."""


def _s(kind: str, arg: str, shows: str, *screen: Claim) -> PathStep:
    return PathStep(kind, arg, shows, screen)


BOX = ("recorded with a condition on the window's breakpoint: the first stop was in box3x3, where tile is a "
       "pointer (Shared: no __shared__ arrays in scope)")
GROWN = r'used_memory\\": (?:1[5-9]\d{8}|[2-9]\d{9}|\d{11,})[^}]*is_debuggee\\": true'
"""A GPU sample where the debuggee holds 1.5 GB or more (the leak's 256 MiB workspaces), in a recording."""


def _c(where: str, pattern: str, guide: str = "", needs: str = "", why: str = "", grows: bool = False) -> Claim:
    return Claim(where, pattern, guide, needs, why, grows)


START = _s("start", "", "the first stop at the lesson's breakpoint")
AT = r"\bblock \({}\) thread \({}\)"
"""The focus as the status bar shows it."""


def here(pattern: str) -> str:
    """``needs``: ``pattern`` in the step's own part of the recording (after the previous step's end)."""
    return pattern + r"(?:(?!999999999\^done,number=)[\s\S])*\Z"


ASM = here(r"\^done,asm_insns=\[[{s]")
"""A disassembly that holds instructions, at the step."""
IN_BLUR = r'func="blur_racy",file="tile\.cu",line="51"'
"""The first stop in blur_racy at the window line, where tile is in scope."""


def _start(block: str, thread: str, *screen: Claim) -> PathStep:
    return _s("start", "", START.shows, _c("status", AT.format(block, thread)), *screen)


PATHS: dict[str, tuple[PathStep, ...]] = {
    "oob": (
        _start("0,0,0", "0,0,0", _c("locals", r"^\W*n \(arg\)\s+1000\b", "look 0")),
        _s("console", "print n", "n = 1000: the arrays hold 1000 floats", _c("console", r"\$\d+ = 1000\b")),
        _s("key", "n", "idx is assigned: block 0 thread 0, idx == 0", _c("locals", r"^\W*idx\s+0\s")),
        _s("focus", "block (3,0,0) thread (232,0,0)", "a thread of block 3, still before idx is assigned",
           _c("status", AT.format("3,0,0", "232,0,0"))),
        _s("key", "n", "idx == n, the first thread past the end", _c("locals", r"^\W*idx\s+1000\s", "next 0")),
        _s("console", "print idx", "idx = 1000 == n", _c("console", r"\$\d+ = 1000\b")),
        _s("pane", "warps", "the warps of the focused SM", _c("warps", r"SM \d+ · \d+ warps")),
        _s("delete", "1", "no breakpoint left: the next continue runs to the fault",
           _c("breakpoints", r"^(?![\s\S]*oob\.cu:19)")),
        _s("key", "c", "CUDA_EXCEPTION_14 Warp Illegal Address on a block far past the end",
           _c("screen", r"CUDA_EXCEPTION_14|Warp Illegal Address", "next 1"),
           _c("status", r"\bblock \(\d{3,},0,0\)", "look 2")),
        _s("pane", "disassembly", "SASS with errorpc (!>) on the faulting load",
           _c("disassembly", r"^\W*!>", "look 3", needs=ASM,
              why="recorded when SASS at the exception came back empty (from $pc, source-centric: no errorpc in "
                  "view); cudatui now starts before errorpc and falls back to raw SASS")),
        _s("sanitize", "memcheck", "the recorded memcheck report: Invalid __global__ read at oob.cu's bug line",
           _c("sanitizer", r"bad read[^\n]*oob\.cu:20", "next 2"), _c("sanitizer", r"oob\.cu:20")),
        _s("debug", "", "d: the program runs again to the finding's thread at that line",
           _c("screen", r"oob\.cu:20")),
    ),
    "race": (
        _start("0,0,0", "5,0,0", _c("locals", r"^\W*s\s+\d+", "look 1"),
               _c("screen", r"for \(int s = blockDim\.x / 2", "look 2")),
        _s("shared", "sdata[256]", "sdata (extern __shared__) before the step", _c("shared", r"sdata", "look 0"),
           _c("shared", r"\b0x3f800000\b")),
        _s("key", "n", "sdata after one step of the reduction; s and tid in the Locals pane",
           _c("shared", r"sdata"), _c("locals", r"^\W*tid\s+5\b")),
        _s("console", "print sdata[0]@16", "the first 16 partial sums", _c("console", r"\$\d+ = \{")),
        _s("focus", "block (3,0,0) thread (200,0,0)", "another block's thread, at its own step",
           _c("status", AT.format("3,0,0", "200,0,0"), "next 0")),
        _s("key", "n", "its warp steps on: the other warps of the block stay where they were"),
        _s("pane", "warps", "the warps of one block at different lines: no barrier",
           _c("warps", r"race\.cu:(\d+)\b[\s\S]*race\.cu:(?!\1\b)\d+", "next 1")),
        _s("key", "c", "the next hit (thread 0 adds its partial sum, or the loop again)"),
        _s("pane", "disassembly", "SASS of the loop", _c("disassembly", r"SASS pc 0x[0-9a-f]+ · reduce_racy")),
        _s("sanitize", "racecheck", "the recorded racecheck report: the read and the write on the same line",
           _c("sanitizer", r"race\.cu:25", "next 2")),
        _s("debug", "", "d: the program runs again to the racing thread", _c("screen", r"race\.cu:25")),
    ),
    "assert": (
        _start("0,0,0", "7,0,0"),
        _s("key", "n", "column is read: labels[i] for thread 7", _c("locals", r"^\W*column\s+\d+")),
        _s("console", "print column", "column == num_classes, one past the last column",
           _c("console", r"\$\d+ = 10\b"), _c("locals", r"^\W*column\s+10\b", "look 1")),
        _s("disable", "1", "breakpoint 1 off: let it run (cuda-gdb 13.0 aborted on c after deleting it here)",
           _c("breakpoints", r"^\W*1\s+○")),
        _s("key", "c", "CUDA_EXCEPTION_12 Warp Assert on the asserting thread",
           _c("screen", r"CUDA_EXCEPTION_12|Warp Assert", "next 0")),
        _s("frame", "1", "frame 1: the assert line in one_hot_buggy",
           _c("stack", r"one_hot_buggy\s+assert\.cu:21", "look 0"), _c("stack", r"one_hot_buggy", "next 1")),
        _s("console", "print column", "column in one_hot_buggy's frame: an @register value of an outer frame, may be stale",
           _c("console", r"\$\d+ = ")),
        _s("console", "print labels[blockIdx.x * blockDim.x + threadIdx.x]",
           "the asserting thread's label, from memory and built-ins: num_classes", _c("console", r"\$\d+ = 10\b")),
        _s("pane", "disassembly", "SASS around the assert", _c("disassembly", r"SASS ")),
        _s("sanitize", "memcheck", "the recorded memcheck report: the device assert", _c("sanitizer", r"device assert")),
        _s("debug", "", "d: the program runs again to the asserting thread", _c("screen", r"assert\.cu:\d+ · one_hot_buggy")),
    ),
    "divergence": (
        _start("0,0,0", "0,0,0"),
        _s("pane", "warps", "every lane of the warp at the branch: all active", _c("warps", r"\*\d+\s+█{32}")),
        _s("watch", "threadIdx.x % 2", "the warp watch: 0 on even lanes, 1 on odd lanes",
           _c("warps", r"warp watch threadIdx\.x % 2"), _c("warps", r"\b0\W+1\W+0\W+1\b")),
        _s("key", "n", "one step into the branch: the active mask changes",
           _c("warps", r"\*\d+\s+(?:█▒){4}", "next 0"), _c("warps", r"\*\d+\s+(?:█▒){4}", "look 0")),
        _s("key", "c", "inside a branch: half the lanes are masked off",
           _c("warps", r"\*\d+\s+(?:▒█){4}", "look 1"), _c("status", AT.format("0,0,0", "1,0,0"), "look 2")),
        _s("console", "print i", "the focus thread's i: even in one branch, odd in the other",
           _c("console", r"\$\d+ = 1\b")),
        _s("focus", "block (0,0,0) thread (32,0,0)", "a lane of the next warp, to compare",
           _c("status", AT.format("0,0,0", "32,0,0"), "next 1")),
        _s("key", "c", "the other branch"),
        _s("pane", "disassembly", "SASS of the branch: the two sides",
           _c("disassembly", r"divergence\.cu:2[2-7]", needs=ASM,
              why="recorded while SASS still held the range it had fetched at the first stop: no disassembly at "
                  "this step (the recorder now forgets it before a SASS step)")),
    ),
    "uninit": (
        _start("0,0,0", "0,0,0", _c("screen", r"if \(i < n && x\[i\] > 0\.0f\)", "next 1")),
        _s("console", "print x[i]", "thread 0's input is negative: it writes nothing",
           _c("console", r"\$\d+ = -\d", "look 0")),
        _s("key", "n", "the write is skipped"),
        _s("focus", "block (1,0,0) thread (7,0,0)", "another thread that skips the write",
           _c("status", AT.format("1,0,0", "7,0,0"))),
        _s("key", "c", "sum_all reads y[i], a slot nobody wrote", _c("screen", r"uninit\.cu:34 · sum_all")),
        _s("console", "print y[i]", "whatever the fresh cudaMalloc held", _c("console", r"\$\d+ = ", "look 1")),
        _s("pane", "disassembly", "SASS of the read", _c("disassembly", r"SASS pc 0x[0-9a-f]+ · sum_all")),
        _s("disable", "1", "relu_buggy's breakpoint off: d on a finding runs to the finding, not to it"),
        _s("sanitize", "initcheck", "the recorded initcheck report: every read of an unwritten slot",
           _c("sanitizer", r"uninit read[^\n]*uninit\.cu:34", "next 0"), _c("sanitizer", r"uninit\.cu:34")),
        _s("debug", "", "d: the program runs again to the reading thread", _c("screen", r"uninit\.cu:34 · sum_all")),
    ),
    "leak": (
        _start("0,0,0", "0,0,0"),
        _s("pane", "gpu", "the GPU pane: device memory in use", _c("gpu", r"Mem\s+(\d+\.\d)/", grows=True)),
        _s("console", "break leak_square_plus_buggy", "a host breakpoint on the launcher: one stop per call",
           _c("console", r"Breakpoint 2 at")),
        _s("disable", "1", "the kernel's breakpoint off (a condition on it is evaluated by every thread: minutes)"),
        *(_s("key", "c", shows, _c("screen", r"leak_square_plus_buggy"),
             *((_c("screen", r"cudaMalloc\(&workspace|the workspace is never freed", "next 1"),) if first else ()),
             _c("gpu", r"Mem\s+(\d+\.\d)/", "look 1", grows=True, needs=GROWN,
                why="recorded with a 4 MiB workspace per call: the GPU line, in GiB, did not move (now 256 MiB)"))
          for first, shows in ((True, "the next call: used memory grew by the leaked workspace"),
                               (False, "the call after: it grew again"), (False, "and again: one leaked block per call"))),
        _s("sanitize", "leak", "the recorded leak check: one leaked cudaMalloc per call, its host frame",
           _c("sanitizer", r"[Ll]eak", "next 0"), _c("sanitizer", r"leak\.cu:33", "look 0")),
    ),
    "tile": (
        _start(r"\d+,\d+,0", r"\d+,\d+,0", _c("screen", r"tile\.cu:51 · blur_racy", needs=IN_BLUR, why=BOX)),
        _s("pane", "shared", "tile[18][18] as a 2-D grid", _c("shared", r"\btile\b", "look 0", needs=IN_BLUR, why=BOX)),
        _s("shared", "tile[18][18]", "tile added by hand: rows 0 and 17 are the halo",
           _c("shared", r"tile\[18\]\[18\]"), _c("shared", r"^\W*0\s+-?\d", "look 1")),
        _s("focus", "block (1,1,0) thread (15,15,0)", "a corner thread of another block",
           _c("status", AT.format("1,1,0", "15,15,0"), "next 0")),
        _s("console", "print tile[16][16]@3", "the halo values it needs", _c("console", r"\$\d+ = \{")),
        _s("disable", "1", "the window's breakpoint off: c goes on to box3x3"),
        _s("key", "c", "inside box3x3: the window read from the tile", _c("screen", r"tile\.cu:37 · box3x3")),
        _s("frame", "1", "the call stack: box3x3 called from blur_racy",
           _c("stack", r"box3x3[\s\S]*blur_racy", "look 2")),
        _s("pane", "disassembly", "SASS of the window read", _c("disassembly", r"SASS ")),
        _s("sanitize", "racecheck", "the recorded racecheck report: the store in load_tile races with the read",
           _c("sanitizer", r"tile\.cu:(28|37)", "next 1")),
        _s("debug", "", "d asks which side of the race to stop at (1 the read in box3x3, 2 the write in load_tile); "
                        "1: the program runs again to a thread at the read",
           _c("screen", r"tile\.cu:37 · box3x3", "next 1")),
    ),
}
"""The recorded path of each lesson, by lesson name."""


UNCHECKED: dict[tuple[str, str], str] = {
    ("oob", "look 1"): "a reading task: the launcher is below the stop's lines (the walk does not scroll the source)",
    ("assert", "look 2"): "a Locals watch is not a path step: the walk adds none",
    ("divergence", "next 2"): "a statement, not a screen: S says it in a notification, off the path",
    ("uninit", "look 2"): "a statement about initcheck, not a screen",
}
"""The guide items (lesson, ``look N``/``next N``) no claim checks on the screen, and why; the
live-only ones (``--fixed``, ``--torch``: the guide says so in a replay) are not listed."""


def lesson_path(name: str) -> tuple[PathStep, ...]:
    """The recorded path of lesson ``name`` (KeyError for an unknown lesson)."""
    return PATHS[name]


def sanitizer_tools(name: str) -> tuple[str, ...]:
    """The sanitizer tools lesson ``name``'s path runs (their reports are recorded beside it)."""
    return tuple(step.arg for step in PATHS[name] if step.kind == "sanitize")
