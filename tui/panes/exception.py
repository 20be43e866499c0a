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


COMPACT_BELOW = 36
"""Screen rows under which the banner leaves its meaning and advice to E (explain)."""


def banner_text(exception: CudaException, state: StopState, compact: bool = False) -> Text:
    """The banner: headline, location, why there is no source (and the device assert printed),
    whether the program can continue, meaning and advice (``compact``: a pointer to E instead of
    the meaning and advice, and no source note: the source pane shows it)."""
    text = Text()
    text.append(f" {exception.signal_name} ", style="bold reverse red")
    text.append(f" {exception.name}", style="bold")
    focus = state.focus or state.stop.focus
    where = []
    if focus is not None:
        where.append(f"block {fmt_dim3(focus.block)} thread {fmt_dim3(focus.thread)}")
        if focus.warp is not None:
            where.append(f"warp {focus.warp} lane {focus.lane}")
    lanes = lanes_summary(state)
    if lanes:
        where.append(f"faulted: {lanes}")
    frame = faulting_frame(state.frames, state.frame)
    if frame is not None:
        where.append(frame.where)
    if where:
        text.append("\n" + " · ".join(where))
    if (frame is None or not frame.file) and not compact:  # compact: the source pane says both
        found = state.notes.device_assert
        text.append("\n" + no_source_reason(state.frame) + (f" · {found}" if found else ""), style="bold")
    if exception.recoverable:
        text.append("\n" + tr("recoverable: "), style="bold green")
        text.append(tr("`continue` resumes the program after this assert."))
    else:
        text.append("\n" + tr("fatal: "), style="bold red")
        text.append(tr("the CUDA context is lost and the program cannot continue; inspect it now."))
    if compact:
        text.append("\n" + tr("E: what it means and what to do next"), style="italic")
        return text
    meaning = EXCEPTION_MEANINGS.get(exception.code, ("A GPU exception.", None))[0]
    text.append(f"\n{tr(meaning)} {tr(WHAT_TO_TRY.get(exception.code, GENERIC_ADVICE))}", style="italic")
    return text


class ExceptionBanner(StatePane):
    """A banner shown only while the target is stopped on a CUDA exception.

    It has no key bindings; it hides itself when a stop carries no exception. On a screen under
    :data:`COMPACT_BELOW` rows it leaves the meaning and the advice to E, and it never takes more
    than a quarter of the screen's height.
    """

    DEFAULT_CSS = """
    ExceptionBanner {
        height: auto;
        max-height: 25vh;
        padding: 0 1;
        background: $error 15%;
        border-left: thick $error;
        display: none;
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._text = Text()
        self.exception: CudaException | None = None
        """The exception shown, or None while hidden."""

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        self.exception = state.stop.exception
        compact = self.screen.size.height < COMPACT_BELOW
        text = banner_text(self.exception, state, compact) if self.exception else Text()
        frame = faulting_frame(state.frames, state.frame) if self.exception else None
        self.tooltip = frame.func if frame is not None and is_shortened(frame.func) else None
        if text == self._text:
            return
        self._text = text
        if self.display != (self.exception is not None):
            self.display = self.exception is not None
        self.refresh(layout=True)

    def refit(self) -> None:
        """Render again for the screen's height (the app calls it when the terminal is resized)."""
        if self.state is not None:
            self.render_state(self.state, None)

    def render(self) -> Text:
        return self._text
