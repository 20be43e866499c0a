"""Bundled teaching kernels: buggy CUDA kernels, their fixes, and demos.

``cudatui.kernels.lessons`` holds every lesson's metadata (stdlib only), ``cudatui.kernels.build``
compiles a lesson's ``.cu`` with debug info, ``cudatui.kernels.ops`` loads it with ctypes
and wraps it for torch tensors (torch imported lazily), and ``cudatui.kernels.demos.<name>``
runs one lesson as a script.

The lesson API is re-exported lazily, so ``python -m cudatui.kernels.lessons`` does not
find its own module already imported.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LESSONS", "Lesson", "LessonError", "format_lesson_list", "get_lesson"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from cudatui.kernels import lessons

        return getattr(lessons, name)
    raise AttributeError(f"module 'kernels' has no attribute {name!r}")
