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
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("start", "key", "focus", "frame", "console", "pane", "shared", "watch", "condition", "delete", "disable",
         "sanitize",
         "debug")


@dataclass(frozen=True)
class PathStep:
    """One step of a lesson's recorded path."""

    kind: str
    """One of KINDS."""
    arg: str
    """What the step needs (see the module docstring)."""
    shows: str
    """What it shows, in the guide's words."""

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


def _s(kind: str, arg: str, shows: str) -> PathStep:
    return PathStep(kind, arg, shows)


START = _s("start", "", "the first stop at the lesson's breakpoint")

PATHS: dict[str, tuple[PathStep, ...]] = {
    "oob": (
        START,
        _s("console", "print n", "n = 1000: the arrays hold 1000 floats"),
        _s("key", "n", "idx is assigned: block 0 thread 0, idx == 0"),
        _s("focus", "block (3,0,0) thread (232,0,0)", "idx == n, the first thread past the end"),
        _s("console", "print idx", "idx = 1000 == n"),
        _s("pane", "warps", "the warps of the focused SM"),
        _s("delete", "1", "no breakpoint left: the next continue runs to the fault"),
        _s("key", "c", "CUDA_EXCEPTION_14 Warp Illegal Address on a block far past the end"),
        _s("pane", "disassembly", "SASS with errorpc (!>) on the faulting load"),
        _s("sanitize", "memcheck", "the recorded memcheck report: Invalid __global__ read at oob.cu's bug line"),
        _s("debug", "", "d: the program runs again to the finding's thread at that line"),
    ),
    "race": (
        START,
        _s("shared", "sdata[256]", "sdata (extern __shared__) before the step"),
        _s("key", "n", "sdata after one step of the reduction; s and tid in the Locals pane"),
        _s("console", "print sdata[0]@16", "the first 16 partial sums"),
        _s("focus", "block (3,0,0) thread (200,0,0)", "another block's thread"),
        _s("pane", "warps", "warps of one block at different steps: no barrier"),
        _s("key", "c", "the next hit (thread 0 adds its partial sum, or the loop again)"),
        _s("pane", "disassembly", "SASS of the loop: no BAR.SYNC between the steps"),
        _s("sanitize", "racecheck", "the recorded racecheck report: the read and the write on the same line"),
        _s("debug", "", "d: the program runs again to the racing thread"),
    ),
    "assert": (
        START,
        _s("key", "n", "column is read: labels[i] for thread 7"),
        _s("console", "print column", "column == num_classes, one past the last column"),
        _s("disable", "1", "breakpoint 1 off: let it run (cuda-gdb 13.0 aborted on c after deleting it here)"),
        _s("key", "c", "CUDA_EXCEPTION_12 Warp Assert on the asserting thread"),
        _s("frame", "1", "frame 1: the assert line in one_hot_buggy"),
        _s("console", "print column", "column in one_hot_buggy's frame: an @register value of an outer frame, may be stale"),
        _s("console", "print labels[blockIdx.x * blockDim.x + threadIdx.x]",
           "the asserting thread's label, from memory and built-ins: num_classes"),
        _s("pane", "disassembly", "SASS around the assert"),
        _s("sanitize", "memcheck", "the recorded memcheck report: the device assert"),
        _s("debug", "", "d: the program runs again to the asserting thread"),
    ),
    "divergence": (
        START,
        _s("pane", "warps", "every lane of the warp at the branch: all active"),
        _s("watch", "threadIdx.x % 2", "the warp watch: 0 on even lanes, 1 on odd lanes"),
        _s("key", "n", "one step into the branch: the active mask changes"),
        _s("key", "c", "inside a branch: half the lanes are masked off"),
        _s("console", "print i", "the focus thread's i: even in one branch, odd in the other"),
        _s("focus", "block (0,0,0) thread (32,0,0)", "a lane of the next warp, to compare"),
        _s("key", "c", "the other branch"),
        _s("pane", "disassembly", "SASS of the branch: the two sides"),
    ),
    "uninit": (
        START,
        _s("console", "print x[i]", "thread 0's input is negative: it writes nothing"),
        _s("key", "n", "the write is skipped"),
        _s("focus", "block (1,0,0) thread (7,0,0)", "another thread that skips the write"),
        _s("key", "c", "sum_all reads y[i], a slot nobody wrote"),
        _s("console", "print y[i]", "whatever the fresh cudaMalloc held"),
        _s("pane", "disassembly", "SASS of the read"),
        _s("sanitize", "initcheck", "the recorded initcheck report: every read of an unwritten slot"),
        _s("debug", "", "d: the program runs again to the reading thread"),
    ),
    "leak": (
        START,
        _s("pane", "gpu", "the GPU pane: device memory in use"),
        _s("console", "break leak_square_plus_buggy", "a host breakpoint on the launcher: one stop per call"),
        _s("disable", "1", "the kernel's breakpoint off (a condition on it is evaluated by every thread: minutes)"),
        _s("key", "c", "the next call: used memory grew by the leaked workspace"),
        _s("key", "c", "the call after: it grew again"),
        _s("key", "c", "and again: one leaked block per call"),
        _s("sanitize", "leak", "the recorded leak check: one leaked cudaMalloc per call, its host frame"),
    ),
    "tile": (
        START,
        _s("pane", "shared", "tile[18][18] as a 2-D grid"),
        _s("focus", "block (1,1,0) thread (15,15,0)", "a corner thread of another block"),
        _s("console", "print tile[16][16]@3", "the halo values it needs"),
        _s("key", "c", "inside box3x3: the window read from the tile"),
        _s("frame", "1", "the call stack: box3x3 called from blur_racy"),
        _s("pane", "disassembly", "SASS of the window read"),
        _s("sanitize", "racecheck", "the recorded racecheck report: the store in load_tile races with the read"),
        _s("debug", "", "d: the program runs again to the racing thread"),
    ),
}
"""The recorded path of each lesson, by lesson name."""


def lesson_path(name: str) -> tuple[PathStep, ...]:
    """The recorded path of lesson ``name`` (KeyError for an unknown lesson)."""
    return PATHS[name]


def sanitizer_tools(name: str) -> tuple[str, ...]:
    """The sanitizer tools lesson ``name``'s path runs (their reports are recorded beside it)."""
    return tuple(step.arg for step in PATHS[name] if step.kind == "sanitize")
