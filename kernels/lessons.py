"""Lesson metadata for the bundled teaching kernels, in one place.

Each lesson is a small ``.cu`` file in this folder holding a buggy kernel, its
fixed version and an ``extern "C"`` launcher, plus a demo script under
``kernels/demos/``. Source lines are never written here as numbers: the
``.cu`` files carry marker comments (``// LESSON:bug``) and the line numbers
are looked up from them, so they cannot drift when a kernel is edited.

``python -m cudatui.kernels.lessons`` prints one line per lesson; ``--tsv`` prints one
compute-sanitizer run per line (``name<TAB>tool<TAB>demo path<TAB>options``)
for scripts/record_lessons_sanitizer.sh.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path

KERNELS_DIR = Path(__file__).resolve().parent
DEMOS_DIR = KERNELS_DIR / "demos"

TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck", "leak", "cuda-gdb")
"""Tools a lesson can name: compute-sanitizer tools, its leak check, or cuda-gdb."""

_MARKER = re.compile(r"//\s*LESSON:([A-Za-z0-9_-]+)")


class LessonError(LookupError):
    """A lesson name or a source marker that does not exist (one-line message)."""


@functools.cache
def source_markers(source: Path) -> dict[str, int]:
    """Map every ``// LESSON:<tag>`` marker in ``source`` to its 1-based line."""
    markers: dict[str, int] = {}
    for number, text in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
        match = _MARKER.search(text)
        if match is None:
            continue
        tag = match.group(1)
        if tag in markers:
            raise LessonError(f"{source.name}: marker LESSON:{tag} appears twice")
        markers[tag] = number
    return markers


@dataclass(frozen=True)
class Breakpoint:
    """A suggested breakpoint: at a marked source line, optionally conditional."""

    marker: str
    """Tag of the ``// LESSON:<tag>`` comment on the line to stop at."""
    condition: str | None = None
    """A cuda-gdb condition such as ``threadIdx.x == 5``, or None."""
    why: str = ""
    """What stopping there shows."""


@dataclass(frozen=True)
class Outcome:
    """What a tool reports when it runs the buggy demo."""

    tool: str
    """One of TOOLS."""
    finding: str
    """The exact text the tool prints, e.g. ``CUDA_EXCEPTION_14, Warp Illegal Address``
    for cuda-gdb or ``Invalid __global__ read`` for memcheck."""
    marker: str
    """Tag of the source line the report points at."""


@dataclass(frozen=True)
class Resolved:
    """A marker resolved to a place in a lesson's source."""

    file: str
    """Base name of the ``.cu`` file (what the tools print)."""
    line: int

    @property
    def location(self) -> str:
        """``file:line``, usable as a cuda-gdb breakpoint location."""
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Lesson:
    """One teaching lesson: a buggy kernel, its fix, and how to debug it."""

    name: str
    """Slug used on the command line (``cudatui demo oob``) and as file stem."""
    title: str
    """One-line title shown by ``cudatui demo --list``."""
    symptom: str
    """The error message users see, as the real tools print it."""
    tool: str
    """The tool that catches the bug (one of TOOLS)."""
    outcomes: tuple[Outcome, ...]
    """What each tool reports on the buggy demo (at least one)."""
    buggy: str
    """Function holding the bug (a kernel, or the host launcher for ``leak``)."""
    fixed: str
    """Its corrected twin."""
    kernels: tuple[str, ...]
    """Every ``__global__`` kernel in the source."""
    breakpoints: tuple[Breakpoint, ...]
    """Suggested breakpoints, in the order to set them."""
    look_at: tuple[str, ...]
    """What to look at once stopped."""
    next_steps: tuple[str, ...]
    """Guide steps to try, in order."""
    fix: str
    """The fix, in one sentence."""
    extra_args: tuple[str, ...] = ()
    """Demo variants worth knowing (e.g. ``--torch``)."""

    @property
    def source(self) -> Path:
        """Path of the lesson's ``.cu`` file."""
        return KERNELS_DIR / f"{self.name}.cu"

    @property
    def demo_module(self) -> str:
        """Module to run with ``python -m``."""
        return f"cudatui.kernels.demos.{self.name}"

    @property
    def demo_path(self) -> Path:
        """Path of the demo script (for ``cuda-gdb --args python3 PATH``)."""
        return DEMOS_DIR / f"{self.name}.py"

    def resolve(self, marker: str) -> Resolved:
        """Resolve a marker tag to its file and line, or raise LessonError."""
        markers = source_markers(self.source)
        if marker not in markers:
            raise LessonError(f"{self.source.name}: no '// LESSON:{marker}' marker")
        return Resolved(self.source.name, markers[marker])

    @property
    def bug_line(self) -> int:
        """Line of the ``// LESSON:bug`` marker: where the tool points."""
        return self.resolve("bug").line

    @property
    def fix_line(self) -> int:
        """Line of the ``// LESSON:fix`` marker in the fixed version."""
        return self.resolve("fix").line

    def breakpoint_specs(self) -> tuple[tuple[str, str | None], ...]:
        """Suggested breakpoints as ``(file:line, condition)`` pairs."""
        return tuple((self.resolve(b.marker).location, b.condition) for b in self.breakpoints)

    def outcome_lines(self) -> tuple[str, ...]:
        """Each expected outcome as ``tool: finding at file:line``."""
        return tuple(f"{o.tool}: {o.finding} at {self.resolve(o.marker).location}" for o in self.outcomes)

    def one_line(self) -> str:
        """Summary used by ``cudatui demo --list``."""
        return f"{self.name:<11} {self.tool:<9} {self.title}"


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        name="oob",
        title="Add kernel without a bounds check: illegal memory access",
        symptom="CUDA error: an illegal memory access was encountered",
        tool="memcheck",
        outcomes=(
            Outcome("cuda-gdb", "CUDA_EXCEPTION_14, Warp Illegal Address", "bug"),
            Outcome("memcheck", "Invalid __global__ read of size 4 bytes", "bug"),
        ),
        buggy="add_buggy",
        fixed="add_fixed",
        kernels=("add_buggy", "add_fixed"),
        breakpoints=(Breakpoint("index", None, "first thread: block 0, thread 0; idx and n are readable"),),
        look_at=(
            "Locals: idx against n (the arrays hold n = 1000 floats)",
            "Source, the launcher below the kernel: a grid for 2^28 threads (a byte count used as a count), not n",
            "at the exception, the focus in the status bar: a block far past the last valid block (3)",
            "SASS, at the exception: !> marks the load that faulted (errorpc), => the pc",
        ),
        next_steps=(
            "g, then block (3,0,0) thread (232,0,0), then n: idx == n, the first thread past the end",
            "c (continue): cuda-gdb stops with CUDA_EXCEPTION_14 on a block far past the end",
            "S runs memcheck (Sanitize pane): the first invalid read names the kernel line and the thread",
            "cudatui demo oob --fixed: the `if (idx < n)` guard keeps every thread in bounds",
        ),
        fix="guard the access with `if (idx < n)` and size the grid from n",
    ),
    Lesson(
        name="race",
        title="Shared-memory tree reduction missing a barrier: data race",
        symptom="no error message: the reduction's sum is wrong, sometimes",
        tool="racecheck",
        outcomes=(Outcome("racecheck", "Race reported between", "bug"),),
        buggy="reduce_racy",
        fixed="reduce_sum",
        kernels=("reduce_racy", "reduce_sum"),
        breakpoints=(
            Breakpoint("bug", "threadIdx.x == 5", "a thread that reads a neighbour's partial sum"),
            Breakpoint("total", None, "thread 0 of each block adds its partial sum"),
        ),
        look_at=(
            "Shared: sdata before and after a step (n); t cycles the format",
            "Locals: s and tid, which slot each thread reads",
            "Source, the loop body: no __syncthreads() between the steps",
        ),
        next_steps=(
            "g, then block (3,0,0) thread (200,0,0), then n: another block's warp steps on alone",
            "Warps: the warps of one block are at different lines (no barrier holds them together)",
            "S runs racecheck (Sanitize pane): it reports the read and the write on the same line",
            "cudatui demo race --fixed: the sum equals torch's sum every time",
        ),
        fix="call __syncthreads() at the end of every reduction step",
    ),
    Lesson(
        name="assert",
        title="Device-side assert from a class label out of range",
        symptom="CUDA error: device-side assert triggered",
        tool="cuda-gdb",
        outcomes=(
            Outcome("cuda-gdb", "CUDA_EXCEPTION_12, Warp Assert", "bug"),
            Outcome("memcheck", "Warp assert", "bug"),
        ),
        buggy="one_hot_buggy",
        fixed="one_hot_fixed",
        kernels=("one_hot_buggy", "one_hot_fixed"),
        breakpoints=(Breakpoint("column", "threadIdx.x == 7", "the first thread whose label is the last class"),),
        look_at=(
            "Stack, at the exception: frame 1 is the assert line in one_hot_buggy",
            "Locals: column == num_classes, one past the last column",
            "w (Locals) watches labels[i]: the data set numbers its classes from 1",
        ),
        next_steps=(
            "c (continue): cuda-gdb stops with CUDA_EXCEPTION_12 on the asserting thread",
            "Stack: down to frame 1, enter (leaves __assert_fail); : print column may read stale there (an outer "
            "frame's register), : print labels[blockIdx.x * blockDim.x + threadIdx.x] reads the label from memory",
            "cudatui demo assert --torch: PyTorch's own x[idx] stops the same way inside IndexKernel",
            "cudatui demo assert --fixed: labels are shifted to 0-based columns",
        ),
        fix="convert the 1-based label to a 0-based column (labels[i] - 1)",
        extra_args=("--torch",),
    ),
    Lesson(
        name="divergence",
        title="Even/odd branch: warp divergence (a stepping lesson)",
        symptom="no error message: correct results, half the lanes idle in each branch",
        tool="cuda-gdb",
        outcomes=(Outcome("cuda-gdb", "CUDA thread hit Breakpoint", "even"),),
        buggy="scale_branchy",
        fixed="scale_branchless",
        kernels=("scale_branchy", "scale_branchless"),
        breakpoints=(
            Breakpoint("bug", None, "every lane of the warp reaches the branch"),
            Breakpoint("even", None, "inside the even branch: odd lanes are masked off"),
            Breakpoint("odd", "threadIdx.x == 1", "inside the odd branch"),
        ),
        look_at=(
            "Warps: the active-lanes mask inside each branch",
            "Warps, left/right along the lanes: which lanes are active on each side",
            "the focus thread in the status bar: threadIdx.x even in one branch, odd in the other",
        ),
        next_steps=(
            "n (next) from the branch and watch the active mask change in Warps",
            "g, then block (0,0,0) thread (32,0,0): a lane of the next warp; compare",
            "no sanitizer tool reports divergence: it is a performance issue",
            "cudatui demo divergence --fixed: no branch, all 32 lanes stay active",
        ),
        fix="compute the factor without a branch: 2 + (i & 1)",
    ),
    Lesson(
        name="uninit",
        title="Forgotten else-branch: uninitialised global memory read",
        symptom="no error message: the sum depends on leftover device memory",
        tool="initcheck",
        outcomes=(Outcome("initcheck", "Uninitialized __global__ memory read of size 4 bytes", "bug"),),
        buggy="relu_buggy",
        fixed="relu_fixed",
        kernels=("relu_buggy", "relu_fixed", "sum_all"),
        breakpoints=(
            Breakpoint("cause", "threadIdx.x == 0", "thread 0 has a negative input and writes nothing"),
            Breakpoint("bug", None, "the read of a slot nobody wrote"),
        ),
        look_at=(
            "w (Locals) watches x[i]: negative for the threads that skip the write",
            "c to the read in sum_all, then : print y[i]: whatever the fresh cudaMalloc held",
            "initcheck reports global memory only; shared memory is not checked",
        ),
        next_steps=(
            "S runs initcheck (Sanitize pane): every read of an unwritten slot names sum_all's line",
            "Source, relu_buggy: which threads never store to y",
            "cudatui demo uninit --fixed: negative inputs store 0 and initcheck is clean",
        ),
        fix="write every output slot: y[i] = x[i] > 0 ? x[i] : 0",
    ),
    Lesson(
        name="leak",
        title="Workspace cudaMalloc never freed: device memory leak",
        symptom="CUDA out of memory. Tried to allocate",
        tool="leak",
        outcomes=(Outcome("leak", "Leaked", "bug"),),
        buggy="leak_square_plus_buggy",
        fixed="leak_square_plus_fixed",
        kernels=("square_into", "add_back"),
        breakpoints=(Breakpoint("square", "threadIdx.x == 0", "the kernel runs fine; the leak is on the host"),),
        look_at=(
            "Sanitize, the leak report's host frame: the cudaMalloc line in the launcher",
            "GPU: used memory grows with every call",
        ),
        next_steps=(
            "S runs memcheck --leak-check full (Sanitize pane): one leaked block per call",
            "Source, the launcher: the cudaMalloc without a matching cudaFree",
            "cudatui demo leak --fixed: the workspace is freed and no leak from leak.cu remains",
        ),
        fix="cudaFree the workspace before returning",
    ),
    Lesson(
        name="tile",
        title="2-D shared tile (3x3 blur) read before the block finished loading it",
        symptom="no error message: some output pixels are wrong, sometimes",
        tool="racecheck",
        outcomes=(Outcome("racecheck", "Race reported between", "bug"),),
        buggy="blur_racy",
        fixed="blur_fixed",
        kernels=("blur_racy", "blur_fixed"),
        breakpoints=(
            Breakpoint("window", None, "the first warp to reach the window read: tile is in scope"),
            Breakpoint("bug", None, "inside box3x3: the window read from the tile"),
        ),
        look_at=(
            "Shared: tile as a 2-D grid (a, then tile[18][18] if it is not listed)",
            "the halo rows 0 and 17: loaded by threads other than the reader",
            "Stack: box3x3 called from blur_racy",
        ),
        next_steps=(
            "g, then block (1,1,0) thread (15,15,0); then : print tile[16][16]@3",
            ("S runs racecheck (Sanitize pane): the store in load_tile races with the read in box3x3; d asks which "
             "side to stop at (1 the read, 2 the write) and runs the program again to it"),
            "cudatui demo tile --fixed: __syncthreads() after load_tile, output equals torch's",
        ),
        fix="call __syncthreads() between load_tile and the window reads",
    ),
)


def get_lesson(name: str) -> Lesson:
    """Return the lesson called ``name`` or raise LessonError listing valid names."""
    for lesson in LESSONS:
        if lesson.name == name:
            return lesson
    valid = ", ".join(lesson.name for lesson in LESSONS)
    raise LessonError(f"unknown lesson {name!r}; valid lessons: {valid}")


def format_lesson_list() -> str:
    """One line per lesson: name, tool and title."""
    return "\n".join(lesson.one_line() for lesson in LESSONS)


_SANITIZER_OPTIONS = {
    "memcheck": ("--tool", "memcheck"),
    "racecheck": ("--tool", "racecheck"),
    "initcheck": ("--tool", "initcheck"),
    "synccheck": ("--tool", "synccheck"),
    "leak": ("--tool", "memcheck", "--leak-check", "full"),
}


def sanitizer_options(tool: str) -> tuple[str, ...]:
    """compute-sanitizer options that run ``tool``; LessonError for cuda-gdb or unknown."""
    if tool not in _SANITIZER_OPTIONS:
        raise LessonError(f"{tool!r} is not a compute-sanitizer tool; choose from {', '.join(_SANITIZER_OPTIONS)}")
    return _SANITIZER_OPTIONS[tool]


def sanitizer_rows() -> list[str]:
    """``name<TAB>tool<TAB>demo path<TAB>options`` for every sanitizer outcome."""
    return [
        "\t".join((lesson.name, outcome.tool, str(lesson.demo_path), " ".join(sanitizer_options(outcome.tool))))
        for lesson in LESSONS
        for outcome in lesson.outcomes
        if outcome.tool in _SANITIZER_OPTIONS
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the lesson list, or with ``--tsv`` the sanitizer runs to record."""
    parser = argparse.ArgumentParser(prog="python -m cudatui.kernels.lessons", description=__doc__.splitlines()[0])
    parser.add_argument("--tsv", action="store_true", help="one sanitizer run per line, tab-separated")
    args = parser.parse_args(argv)
    print("\n".join(sanitizer_rows()) if args.tsv else format_lesson_list())
    return 0


if __name__ == "__main__":
    sys.exit(main())
