"""Bundled teaching kernels: buggy CUDA kernels, their fixes, and demos.

``kernels.lessons`` holds every lesson's metadata (stdlib only), ``kernels.build``
compiles a lesson's ``.cu`` with debug info, ``kernels.ops`` loads it with ctypes
and wraps it for torch tensors (torch imported lazily), and ``kernels.demos.<name>``
runs one lesson as a script.
"""

from kernels.lessons import LESSONS, Lesson, LessonError, format_lesson_list, get_lesson

__all__ = ["LESSONS", "Lesson", "LessonError", "format_lesson_list", "get_lesson"]
