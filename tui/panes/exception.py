"""CUDA exception banner: which GPU exception stopped the kernel, where, and what to do now."""

from __future__ import annotations

from rich.text import Text

from cudatui.gdbbridge import (
    EXCEPTION_MEANINGS, CudaException, Frame, StopState, fmt_dim3, is_shortened, no_source_reason, tr,
)

from .base import StatePane

WHAT_TO_TRY: dict[int, str] = {
    5: "Check the index of the shared or local array against its declared size.",
    6: "Check pointer casts and offsets: a 4-byte load needs a 4-byte aligned address.",
    10: "Run memcheck to find the exact thread and access; the faulting thread is not precise here.",
    12: "Read the assert's condition and the values it tests in the locals; `continue` lets the "
    "program go on (the kernel launch still reports an error).",
    14: "Compare the index in the faulting line with the size of the array it reads or writes; "
    "look at the lane's locals and at blockIdx/threadIdx. A bounds check (`if (i < n)`) is the "
    "usual fix.",
}
"""Advice per exception code; other codes get the generic advice."""

GENERIC_ADVICE = "Inspect the faulting thread's locals and source line; memcheck narrows memory errors down."


def faulting_frame(frames: tuple[Frame, ...], fallback: Frame | None) -> Frame | None:
    """The innermost frame with a source line (frame 0 of an assert is ``__assert_fail``)."""
    return next((f for f in frames if f.file and f.line), fallback)


def lanes_summary(state: StopState) -> str:
    """ "lane 13", "lanes 0-31 (32 lanes)" or "" for the lanes that report the exception."""
    faulted = sorted(lane.number for lane in state.lanes if lane.exception)
    if not faulted:
        return ""
    if len(faulted) == 1:
        return f"lane {faulted[0]}"
    contiguous = faulted == list(range(faulted[0], faulted[-1] + 1))
    shown = f"{faulted[0]}-{faulted[-1]}" if contiguous else ",".join(map(str, faulted))
    return f"lanes {shown} ({len(faulted)} lanes)"


def where_text(state: StopState) -> str:
    """``add_kernel at bugs.cu:5 · block (2379,0,0) thread (0,0,0) · warp 0 lane 0 · faulted: lanes
    0-31 (32 lanes)``, then a post-mortem's culprit lane and why: the place first, so that a narrow
    screen still shows it."""
    focus = state.focus or state.stop.focus
    frame = faulting_frame(state.frames, state.frame)
    where = [frame.where] if frame is not None else []
    if focus is not None:
        where.append(f"block {fmt_dim3(focus.block)} thread {fmt_dim3(focus.thread)}")
        if focus.warp is not None:
            where.append(f"warp {focus.warp} lane {focus.lane}")
    lanes = lanes_summary(state)
    if lanes:
        where.append(f"faulted: {lanes}")
    found = state.culprit
    if found is not None and found.lane is not None:
        where.append(tr("culprit: lane {lane} ({reason})").format(lane=found.lane, reason=found.reason))
    return " · ".join(where)


def headline(exception: CudaException) -> Text:
    """`` CUDA_EXCEPTION_14  Warp Illegal Address · fatal: the program cannot continue``."""
    text = Text()
    text.append(f" {exception.signal_name} ", style="bold reverse red")
    text.append(f" {exception.name} · ", style="bold")
    if exception.recoverable:
        text.append(tr("recoverable: "), style="bold green")
        text.append(tr("c resumes after the assert"))
    else:
        text.append(tr("fatal: "), style="bold red")
        text.append(tr("the program cannot continue; inspect it now"))
    return text


def meaning_line(exception: CudaException, state: StopState) -> str:
    """What it means in one line: the device assert the program printed, else the exception's meaning."""
    found = state.notes.device_assert
    return str(found) if found else tr(EXCEPTION_MEANINGS.get(exception.code, ("A GPU exception.", None))[0])


def banner_lines(exception: CudaException, state: StopState, width: int) -> Text:
    """The banner in three lines of ``width`` cells at most: the exception, where, its meaning
    (cut to leave room for "E for more"); what is left out is in the explain view (E)."""
    more = Text("  " + tr("E for more"), style="bold italic")
    meaning = Text(meaning_line(exception, state), style="italic")
    if width > 0 and meaning.cell_len + more.cell_len > width:
        meaning.truncate(max(width - more.cell_len, 1), overflow="ellipsis")
    return Text("\n").join([headline(exception), Text(where_text(state)), meaning + more])


def full_text(exception: CudaException, state: StopState) -> Text:
    """Everything about the stop, for the explain view: the exception, where, why there is no
    source (and the device assert printed), whether the program can continue, and what to try (the
    view says the meaning next)."""
    text = Text()
    text.append(f"{exception.signal_name} {exception.name}", style="bold")
    text.append("\n" + where_text(state))
    frame = faulting_frame(state.frames, state.frame)
    if frame is None or not frame.file:
        found = state.notes.device_assert
        text.append("\n" + no_source_reason(state.frame) + (f" · {found}" if found else ""))
    if exception.recoverable:
        text.append("\n" + tr("recoverable: "), style="bold green")
        text.append(tr("`continue` resumes the program after this assert."))
    else:
        text.append("\n" + tr("fatal: "), style="bold red")
        text.append(tr("the CUDA context is lost and the program cannot continue; inspect it now."))
    text.append("\n" + tr(WHAT_TO_TRY.get(exception.code, GENERIC_ADVICE)), style="italic")  # the meaning follows
    return text


class ExceptionBanner(StatePane):
    """A banner shown only while the target is stopped on a CUDA exception.

    It has no key bindings; it hides itself when a stop carries no exception. It takes three lines
    at every size (the exception, where, what it means); E shows the rest (:func:`full_text`).
    """

    DEFAULT_CSS = """
    ExceptionBanner {
        height: auto;
        max-height: 3;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        padding: 0 1;
        background: $error 15%;
        border-left: thick $error;
        display: none;
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.exception: CudaException | None = None
        """The exception shown, or None while hidden."""

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        self.exception = state.stop.exception
        frame = faulting_frame(state.frames, state.frame) if self.exception else None
        self.tooltip = frame.func if frame is not None and is_shortened(frame.func) else None
        if self.display != (self.exception is not None):
            self.display = self.exception is not None
        self.refresh()

    def refit(self) -> None:
        """Render again for the screen's width (the app calls it when the terminal is resized)."""
        self.refresh()

    def full(self) -> Text | None:
        """The whole text of the exception shown (for the explain view), or None."""
        return full_text(self.exception, self.state) if self.exception and self.state else None

    def render(self) -> Text:
        if self.exception is None or self.state is None:
            return Text()
        return banner_lines(self.exception, self.state, self.content_size.width)
