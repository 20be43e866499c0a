"""gdbbridge: the library that talks to cuda-gdb (or GNU gdb), compute-sanitizer and NVML.

It never imports textual or rich: the UI uses it, never the reverse. Its subsystems are
subpackages: ``session`` (one debugger process over GDB/MI), ``record`` (transcripts and their
replay), ``debugger`` (the Debugger the UI drives, stop states, breakpoints), ``cuda``
(cuda-gdb's CUDA extensions), ``sanitizer``, ``nvml``, ``doctor`` and ``explain``; ``models``,
``convert`` and ``text`` are shared by all of them.

This module is the public API, the names the UI imports (``from cudatui.gdbbridge import
StopState``): :data:`__all__`, each defined in the one module named for it in ``_PUBLIC``.
A name is loaded from its module on first use, so that starting one submodule (``python -m
cudatui.gdbbridge.record.replay``, the stand-in debugger of every replay) neither loads the
whole library first nor finds its own module already imported. Submodules never import from
this package.
"""

from __future__ import annotations

import importlib
from typing import Any

_PUBLIC = {
    "cudatui.gdbbridge.session.gdb": ("GdbSession",),
    "cudatui.gdbbridge.session.errors": ("NEXT_STEP", "DebuggerGone", "DebuggerNotFound", "MIError"),
    "cudatui.gdbbridge.session.events": (
        "Answered", "DebuggerExited", "Event", "LineDropped", "NonMI", "Notify", "ProgramOutput", "RawLine",
        "RecordingStopped", "Running", "Silent", "Stopped", "Stream", "UnmatchedResult",
    ),
    "cudatui.gdbbridge.debugger.state": ("WARP_TABLES_UNASKED", "StateBuilder", "warp_tables_unsafe"),
    "cudatui.gdbbridge.debugger.breakpoints": ("BreakpointSpec", "Breakpoints"),
    "cudatui.gdbbridge.debugger.config": ("LaunchConfig",),
    "cudatui.gdbbridge.debugger.debugger": ("Debugger", "Step"),
    "cudatui.gdbbridge.debugger.events": (
        "ConsoleOutput", "DebuggerEvent", "Notice", "PhaseChanged", "ProgramText", "QueriesFailed", "StartupFailed",
        "StateChanged",
    ),
    "cudatui.gdbbridge.debugger.parts.sass": ("SASS_AFTER",),
    "cudatui.gdbbridge.jobs.triage": (
        "TriageError", "TriageResult", "private_directory", "remove_run", "run_armed",
    ),
    "cudatui.gdbbridge.jobs.dump_limits": (
        "DEFAULT_MAX_DUMP", "core_place", "fmt_size", "parse_size", "replaced_file", "space_problem",
    ),
    "cudatui.gdbbridge.jobs.attach": (
        "ProcessInfo", "attach_debugger", "attach_problem", "attached_pid", "process_info",
    ),
    "cudatui.gdbbridge.models.members": ("VarNode", "expandable"),
    "cudatui.gdbbridge.aggregates": ("Aggregate", "decode", "flatten"),
    "cudatui.gdbbridge.debugger.status": ("Phase", "Status"),
    "cudatui.gdbbridge.models": (
        "Breakpoint", "BreakpointLocation", "Frame", "QueryFailure", "Register", "StopEvent", "StopState", "Variable",
    ),
    "cudatui.gdbbridge.models.cuda": (
        "CUDA_EXCEPTIONS", "BlockRange", "CudaException", "CudaFocus", "Device", "Instruction", "Kernel", "Lane", "Sm",
        "ThreadRange", "Warp",
    ),
    "cudatui.gdbbridge.convert": ("fmt_dim3", "to_int"),
    "cudatui.gdbbridge.cuda.focus": ("FocusResult", "FocusSyntaxError", "normalize_focus", "switch_focus"),
    "cudatui.gdbbridge.cuda.evaluation": ("read_shared",),
    "cudatui.gdbbridge.cuda.disassembly": ("disassemble",),
    "cudatui.gdbbridge.cuda.warp_watch": ("WarpWatchError", "evaluate_in_lanes"),
    "cudatui.gdbbridge.models.culprit": ("Culprit", "LaneValue"),
    "cudatui.gdbbridge.models.answers": ("Answer",),
    "cudatui.gdbbridge.models.shared": ("SharedPage", "SharedWindow", "page_of"),
    "cudatui.gdbbridge.cuda.shared_decls": ("SharedDecl", "shared_arrays"),
    "cudatui.gdbbridge.record.transcript": ("Exchange", "Transcript", "TranscriptError", "canonical", "load"),
    "cudatui.gdbbridge.debugger.recorded_path": ("Move", "recorded_breakpoints", "recorded_moves", "recorded_start"),
    "cudatui.gdbbridge.record.stop_state": ("recorded_path",),
    "cudatui.gdbbridge.session.recorder": ("RecordingError", "prepare"),
    "cudatui.gdbbridge.record.awaited": ("follow_problem", "session_begun"),
    "cudatui.gdbbridge.sanitizer.run": (
        "RACECHECK_REPORTS", "SanitizerError", "SanitizerRequest", "SanitizerResult", "SanitizerRun", "run_sanitizer",
    ),
    "cudatui.gdbbridge.sanitizer.findings": (
        "API_ERROR", "ASSERT", "HAZARD", "INVALID_ACCESS", "LEAK", "RACE", "TOOLS", "UNINITIALIZED_READ", "Finding",
        "FindingGroup", "SanitizerReport", "function_name",
    ),
    "cudatui.gdbbridge.sanitizer.grouping": ("group_key",),
    "cudatui.gdbbridge.sanitizer.culprit_stop": ("debug_breakpoint_for", "debug_sides"),
    "cudatui.gdbbridge.sanitizer.report": ("read_report",),
    "cudatui.gdbbridge.sanitizer.launch": ("launch_place", "launched_from"),
    "cudatui.gdbbridge.sanitizer.text_report": ("ReportError",),
    "cudatui.gdbbridge.nvml.sampler": ("NvmlSource", "NvmlUnavailable", "ReplaySource", "Sampler"),
    "cudatui.gdbbridge.nvml.recorded": ("RecordedSource",),
    "cudatui.gdbbridge.nvml.models": (
        "GpuSample", "Snapshot", "find_device", "mark_debuggee", "parse_pci_bus_id", "snapshot_to_dict",
    ),
    "cudatui.gdbbridge.explain.diagnose": (
        "EXCEPTION_MEANINGS", "UNKNOWN_MESSAGE", "ActionSuggestion", "Diagnosis", "diagnosis_to_dict", "explain_all",
        "format_diagnosis", "format_unknown",
    ),
    "cudatui.gdbbridge.doctor.probe": ("Check", "DoctorConfig"),
    "cudatui.gdbbridge.doctor.checks": ("check_cuda_gdb", "find_tool", "probe_nvml"),
    "cudatui.gdbbridge.doctor.run": ("checks_to_json", "exit_code", "format_lines", "run_checks"),
    "cudatui.gdbbridge.session.pipes": ("LINE_LIMIT_ENV", "effective_line_limit"),
    "cudatui.gdbbridge.session.startup_check": ("debugger_problem",),
    "cudatui.gdbbridge.text": ("TerminalFilter", "clean", "one_line", "sanitize"),
    "cudatui.gdbbridge.source": ("find_source", "missing_reason", "read_source"),
    "cudatui.gdbbridge.outcome": ("DeviceAssert", "ProgramError", "StopNotes", "TracebackFrame"),
    "cudatui.gdbbridge.advice": ("BUILD_ADVICE", "library_of", "no_source_lines", "no_source_reason"),
    "cudatui.gdbbridge.names": ("is_shortened", "short_name"),
    "cudatui.gdbbridge.i18n": ("LANGUAGES", "N_", "cells", "language", "set_language", "tr"),
    "cudatui.gdbbridge.models.host": ("HostFrame", "HostStack", "HostThread"),
    "cudatui.gdbbridge.host.view": ("Folded", "fold", "sync_point"),
}
"""Module -> the public names it defines."""

_MODULE_OF = {name: module for module, names in _PUBLIC.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(module), name)
    return value
