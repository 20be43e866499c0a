"""Explain CUDA error messages: what they mean, why the traceback lies, what to do next.

``explain(text)`` takes anything a user may paste - one error line, a whole Python traceback,
compute-sanitizer output, or raw cuda-gdb/MI output with the program's stderr interleaved - and
returns a :class:`Diagnosis` (or ``None`` when no known CUDA error is in it). The knowledge base
lives in :mod:`cudatui.gdbbridge.explain.kb`; this module extracts facts (file, line, block, thread,
sizes, versions) and fills the advice with them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from cudatui.gdbbridge.explain.facts import extract_facts, normalize
from cudatui.gdbbridge.i18n import N_, cells, language, tr, wrap
from cudatui.gdbbridge.explain.kb import RULES
from cudatui.gdbbridge.explain.rule import Rule, rx
from cudatui.gdbbridge.models.cuda import CUDA_EXCEPTIONS

CUDA_EXCEPTION_RULE = Rule(
    key="cuda_exception",
    pattern=rx(r"CUDA_EXCEPTION_(\d+)"),
    title="cuda-gdb stopped on a GPU exception",
    meaning="",
    why_wrong_line=(
        "cuda-gdb stopped the kernel at the exception itself, so the focus (block, thread, "
        "source line) is the failing one - unlike the traceback of a plain run."
    ),
    steps=(),
    tool="memcheck",
    lesson="oob",
    actions=("sanitizer",),
)

# What each of cuda-gdb's GPU exception codes means and which lesson teaches it (the names
# live in cudatui.gdbbridge.models.CUDA_EXCEPTIONS, the one table of names).
EXCEPTION_MEANINGS: dict[int, tuple[str, str | None]] = {
    0: ("A global GPU error that matches no other code.", None),
    1: ("A thread accessed an illegal global address.", "oob"),
    2: ("A thread exceeded its stack (deep recursion, big local arrays).", None),
    3: ("The hardware call stack overflowed (deep divergence with function calls).", "divergence"),
    4: ("A thread of the warp executed an illegal instruction.", None),
    5: ("A thread accessed an address outside the local or shared memory window.", "oob"),
    6: ("A thread made a misaligned local or shared memory access.", "oob"),
    7: ("An instruction accessed a memory space it may not use.", None),
    8: ("A thread's program counter left the valid code range.", None),
    9: ("A thread of the warp overflowed the hardware stack.", None),
    10: ("A thread accessed an illegal global address (the faulting thread is not known "
         "precisely).", "oob"),
    11: ("A thread made a misaligned global memory access.", "oob"),
    12: ("A thread's device-side assert() failed; this is the only exception the program can "
         "continue from.", "assert"),
    13: ("A device-side system call (printf, malloc) failed.", None),
    14: ("A thread of the warp accessed an illegal global address; the process cannot continue "
         "after it.", "oob"),
    15: ("The host touched managed memory while the GPU was using it.", None),
    16: ("A thread accessed distributed shared memory outside its cluster's range.", "oob"),
    17: ("A thread accessed the shared memory of a block in its cluster that is not running "
         "(already exited).", "race"),
    18: ("A stack canary was overwritten: a local array was written past its end.", "oob"),
    19: ("A device stack canary was overwritten: a local array was written past its end.", "oob"),
}

ACTION_KINDS = ("launch_blocking", "api_failures_stop", "sanitizer")

UNKNOWN_MESSAGE = "no known CUDA error in the input"
GENERIC_ADVICE = (
    "Re-run with CUDA_LAUNCH_BLOCKING=1 so the error is raised at the failing call.",
    "Run `cudatui sanitize --tool memcheck script.py` to check every kernel's memory accesses.",
    "Run `cudatui doctor` to check the driver, the GPU and the debugging tools.",
    "Paste the full error text, including the line starting with 'CUDA error:' or "
    "'RuntimeError:'.",
)


@dataclass(frozen=True)
class ActionSuggestion:
    """Something the TUI can do for the user: ``kind`` is one of :data:`ACTION_KINDS`."""

    kind: str
    label: str
    argument: str


@dataclass(frozen=True)
class Diagnosis:
    """The explanation of one recognised CUDA error."""

    key: str
    title: str
    meaning: str
    why_wrong_line: str
    next_steps: tuple[str, ...]
    tool: str | None
    lesson: str | None
    actions: tuple[ActionSuggestion, ...]
    facts: Mapping[str, str] = field(default_factory=dict)


def explain_all(text: str) -> tuple[Diagnosis, ...]:
    """Every diagnosis whose messages occur in ``text``, most specific first."""
    clean = normalize(text)
    facts = extract_facts(clean)
    found = [
        _diagnose(rule, facts)
        for rule in RULES
        if rule.pattern.search(clean) is not None
        and (rule.requires is None or rule.requires in facts)
    ]
    if "exception_code" in facts:
        position = 1 if found and found[0].key == "device_assert" else 0
        found.insert(position, _diagnose_exception(facts))
    return tuple(found)


def explain(text: str) -> Diagnosis | None:
    """The primary diagnosis for ``text``, or ``None`` if it holds no known CUDA error."""
    found = explain_all(text)
    return found[0] if found else None


def diagnosis_to_dict(diagnosis: Diagnosis) -> dict[str, object]:
    """A JSON-ready dict of ``diagnosis``."""
    data = asdict(diagnosis)
    data["facts"] = dict(diagnosis.facts)
    return data


def _action(kind: str, tool: str | None) -> ActionSuggestion:
    if kind == "launch_blocking":
        return ActionSuggestion(kind, tr("Re-run with launch blocking"), "on")
    if kind == "api_failures_stop":
        return ActionSuggestion(kind, tr("Stop on API errors"), "stop")
    return ActionSuggestion(kind, _fill(tr("Run {tool}"), {"tool": tool or "memcheck"}), tool or "memcheck")


def _fill(template: str, values: Mapping[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def _build(
    rule: Rule, facts: Mapping[str, str], title: str, meaning: str, key: str, lesson: str | None
) -> Diagnosis:
    values = {"script": facts.get("script", "script.py"), "tool": rule.tool or "memcheck"}
    steps = (*_fact_steps(key, facts), *(_fill(tr(step), values) for step in rule.steps))
    if lesson:
        steps += (_fill(tr("Lesson `{lesson}` walks through this bug on a bundled kernel."), {"lesson": lesson}),)
    return Diagnosis(
        key=key,
        title=tr(title),
        meaning=tr(meaning),
        why_wrong_line=tr(rule.why_wrong_line),
        next_steps=steps,
        tool=rule.tool,
        lesson=lesson,
        actions=tuple(_action(kind, rule.tool) for kind in rule.actions),
        facts=dict(facts),
    )


def _diagnose(rule: Rule, facts: Mapping[str, str]) -> Diagnosis:
    return _build(rule, facts, rule.title, rule.meaning, rule.key, rule.lesson)


def _diagnose_exception(facts: Mapping[str, str]) -> Diagnosis:
    code = int(facts["exception_code"])
    name = facts.get("exception_name") or CUDA_EXCEPTIONS.get(code, "Unknown exception")
    meaning, lesson = EXCEPTION_MEANINGS.get(code, ("A GPU exception.", None))
    title = f"{name} (CUDA_EXCEPTION_{code})"
    return _build(
        CUDA_EXCEPTION_RULE, facts, title, meaning, f"cuda_exception_{code}", lesson or "oob"
    )


def _fact_steps(key: str, facts: Mapping[str, str]) -> tuple[str, ...]:
    """Steps that only exist because the input told us where the failure is."""
    values = {"condition": "?", "source": "?", "supported_archs": tr("other architectures"), **facts}
    templates: list[str] = []
    if "breakpoint" in facts and facts.get("in_pytorch") != "yes":
        templates.append(N_("Stop at the failing thread: `break {breakpoint}` in cudatui, then run."))
    if facts.get("in_pytorch") == "yes":
        values["condition"] = facts.get("assert_condition", "?")
        templates.append(N_(
            "The assert is inside PyTorch's own kernel ({source}, condition `{condition}`): an argument "
            "you passed is out of range - typically an index or label tensor with a value < 0 or >= the "
            "size of the dimension it indexes. Check it on the CPU just before the call."
        ))
    if "user_line" in facts and key not in {"no_kernel_image", "driver_insufficient"}:
        templates.append(N_("The last line of your code in the traceback is {user_line}."))
    steps = [_fill(tr(template), values) for template in templates]
    steps += [value for name, value in facts.items() if name.endswith("_advice")]
    if "gpu_capability" in facts:
        steps.append(_fill(tr("This GPU is {gpu_capability}; the build supports {supported_archs}."), values))
    return tuple(steps)


def format_diagnosis(diagnosis: Diagnosis, also: Sequence[Diagnosis] = ()) -> str:
    """Plain-text rendering of ``diagnosis`` for the terminal."""
    lines = [diagnosis.title, "=" * cells(diagnosis.title), "", tr("What it means:")]
    lines += _wrap(diagnosis.meaning, "  ")
    lines += ["", tr("Why the traceback may point at the wrong line:")]
    lines += _wrap(diagnosis.why_wrong_line, "  ")
    shown = {k: v for k, v in diagnosis.facts.items() if not k.endswith("_advice")}
    if shown:
        lines += ["", tr("Found in the input:")]
        width = max(len(k) for k in shown)
        for name, value in shown.items():
            lines += _wrap(value, f"  {name.ljust(width)}  ", " " * (width + 4))
    lines += ["", tr("Next steps:")]
    for number, step in enumerate(diagnosis.next_steps, 1):
        lines += _wrap(step, f"  {number}. ", "     ")
    if diagnosis.tool:
        lines += ["", _fill(tr("Sanitizer tool: {tool}"), {"tool": diagnosis.tool})]
    if diagnosis.lesson:
        lines.append(_fill(tr("Lesson: {lesson}"), {"lesson": diagnosis.lesson}))
    others = [d.title for d in also if d.key != diagnosis.key]
    if others:
        lines += ["", *_wrap(tr("Also mentioned in the input: ") + "; ".join(others), "", "  ")]
    return "\n".join(lines)


def format_unknown() -> str:
    """The text printed when no known CUDA error is in the input."""
    lines = [tr(UNKNOWN_MESSAGE), "", tr("General advice:")]
    for number, step in enumerate(GENERIC_ADVICE, 1):
        lines += _wrap(tr(step), f"  {number}. ", "     ")
    return "\n".join(lines)


def _wrap(text: str, first: str, rest: str | None = None, width: int = 79) -> list[str]:
    if language() != "en":
        return wrap(text, width, first, rest)
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest if rest else first,
        break_on_hyphens=False,
    ) or [first]
