"""The app of ``cudatui demo`` without a lesson: the :class:`~cudatui.tui.screens.lesson_picker.LessonPicker` alone."""

from __future__ import annotations

from cudatui.tui.screens.lesson_picker import LessonPicker
from cudatui.tui.apps.toasts import ToastingApp


class PickerApp(ToastingApp[str]):
    """Shows the :class:`LessonPicker`; returns the chosen lesson's name (None on quit)."""

    TITLE = "cudatui demo"

    def __init__(self, highlight: str | None = None) -> None:
        super().__init__()
        self.highlight = highlight
        """The lesson to highlight first (the one just left with q)."""

    def on_mount(self) -> None:
        self.push_screen(LessonPicker(self.highlight))
