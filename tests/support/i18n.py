"""Every English text cudatui translates (the msgids a language's catalogue must hold, no more),
and what a language's ``.po`` says (read with Babel, as scripts/i18n_catalogue.py compiles it).

Texts are found where they are written: the literal argument of every ``tr("...")`` and
``N_("...")`` call and the description of every key ``Binding`` in gdbbridge/, tui/ and kernels/,
plus the texts kept as data: the explain rules and exception meanings, the exception banner's
advice, the explain panel's labels, the help sections and the lessons.
"""

from __future__ import annotations

import ast
from pathlib import Path

from babel.messages.pofile import read_po

from cudatui.gdbbridge.i18n import DOMAIN, LOCALE_DIR

from .paths import ROOT

MARKERS = ("tr", "N_")
SOURCES = ("gdbbridge", "tui", "kernels")


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value else None


def _name(func: ast.AST) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def marked_texts() -> set[str]:
    """The literals of ``tr``/``N_`` calls and the descriptions of ``Binding`` calls."""
    found: set[str] = set()
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = _name(node.func)
                if name in MARKERS and node.args:
                    text = _literal(node.args[0])
                elif name == "Binding":
                    described = [k.value for k in node.keywords if k.arg == "description"]
                    text = _literal(node.args[2] if len(node.args) > 2 else described[0] if described else None)
                else:
                    continue
                if text:
                    found.add(text)
    return found


def data_texts() -> set[str]:
    """The translated texts that are data: rules, meanings, advice, labels, help sections, lessons."""
    from cudatui.gdbbridge.explain.diagnose import CUDA_EXCEPTION_RULE, EXCEPTION_MEANINGS, GENERIC_ADVICE, UNKNOWN_MESSAGE
    from cudatui.gdbbridge.explain.kb import RULES
    from cudatui.kernels.lessons import LESSONS
    from cudatui.tui.apps.debugger_app import SIDE_PANES
    from cudatui.tui.widgets.explain_view import SHOWN_FACTS
    from cudatui.tui.panes import exception

    texts = {UNKNOWN_MESSAGE, *GENERIC_ADVICE, "A GPU exception.", exception.GENERIC_ADVICE, *exception.WHAT_TO_TRY.values()}
    texts |= {meaning for meaning, _lesson in EXCEPTION_MEANINGS.values()}
    for rule in (*RULES, CUDA_EXCEPTION_RULE):
        texts |= {rule.title, rule.meaning, rule.why_wrong_line, *rule.steps}
    texts |= {label for _key, label in SHOWN_FACTS}
    texts |= {"Debugger", *(spec.title for spec in SIDE_PANES)}
    for lesson in LESSONS:
        texts |= {lesson.title, lesson.symptom, *lesson.look_at, *lesson.next_steps, lesson.fix}
        texts |= {bp.why for bp in lesson.breakpoints}
    return {text for text in texts if text}


def english_texts() -> set[str]:
    """Every text a catalogue must translate."""
    return marked_texts() | data_texts()


def po_path(language: str) -> Path:
    """The ``.po`` translators edit for ``language``."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def po_messages(language: str) -> dict[str, str]:
    """English text -> translation, every entry of ``language``'s ``.po`` (header left out,
    untranslated and fuzzy ones included, so that they show as wrong)."""
    with po_path(language).open("rb") as f:
        return {message.id: message.string for message in read_po(f) if message.id}
