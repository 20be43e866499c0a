"""The language of what cudatui says: English (the texts in the code) or Simplified Chinese.

Every text a person reads is written in English where it is used. :func:`tr` gives it in the
chosen language from that language's gettext catalogue, ``locale/<language>/LC_MESSAGES/cudatui.mo``
beside this module, read with the standard library's :mod:`gettext`. The ``.mo`` is compiled from
the ``.po`` next to it (the file translators edit) by ``scripts/i18n_catalogue.py``; a text the
catalogue lacks stays English (tests/gdbbridge/i18n/test_i18n.py checks that none is missing, none is
stale and that the ``.mo`` holds what the ``.po`` says). Tool names, API names, error texts and
code inside a text stay as they are. Templates are translated before they are filled
(``{script}`` stays in the translation).

The language: :func:`set_language` (the command line's ``--lang``), else the locale variables
LC_ALL, LC_MESSAGES, LANG in that order (``zh_*`` is Chinese), else English.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from wcwidth import wcswidth, wcwidth

LANGUAGES = ("en", "zh")

DOMAIN = "cudatui"
"""The gettext domain: the catalogues are ``LOCALE_DIR/<language>/LC_MESSAGES/cudatui.mo``."""

LOCALE_DIR = Path(__file__).parent / "locale"

_chosen: str | None = None


def detect(env: Mapping[str, str] = os.environ) -> str:
    """The language the locale asks for: the first of LC_ALL, LC_MESSAGES, LANG that is set."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def set_language(language: str | None) -> None:
    """Use ``language`` (one of :data:`LANGUAGES`) from now on; None: the locale's."""
    global _chosen
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (choose from {', '.join(LANGUAGES)})")
    _chosen = language


def language() -> str:
    """The language in use."""
    return _chosen or detect()


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The gettext catalogue of ``language`` (English text -> translation); for English, or a
    language without a compiled catalogue, one that gives every text back as it is."""
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def N_(text: str) -> str:
    """Mark ``text`` (a constant defined before the language is known) for translation: it is
    returned as it is, and translated with :func:`tr` where it is shown."""
    return text


def tr(text: str) -> str:
    """``text`` in the language in use (English when the catalogue lacks it)."""
    if not text or language() == "en":
        return text
    return translations(language()).gettext(text)


def cells(text: str) -> int:
    """The terminal columns ``text`` takes (:func:`wcwidth.wcswidth`): wide (CJK) characters take
    two, combining marks none; a control character, which has no width of its own, counts none."""
    width = wcswidth(text)
    return width if width >= 0 else sum(max(wcwidth(char), 0) for char in text)


def wrap(text: str, width: int, first: str = "", rest: str | None = None) -> list[str]:
    """``text`` in lines of at most ``width`` columns, counting wide characters as two: broken at
    spaces, and between two wide characters where a line has none."""
    rest = first if rest is None else rest
    lines: list[str] = []
    line, indent = "", first
    for word in _words(text):
        if not line.strip() and word == " ":
            continue
        if cells(indent + line + word) <= width or not line:
            line += word
            continue
        lines.append((indent + line).rstrip())
        line, indent = ("" if word == " " else word), rest
    if line.strip() or not lines:
        lines.append((indent + line).rstrip())
    return lines


_CLOSING = set("，。、；：！？）」』》…")
"""Wide punctuation that never starts a line (it stays with the character before it)."""


def _words(text: str) -> list[str]:
    """Spaces, runs of narrow characters, and each wide character on its own (with the closing
    punctuation after it, and narrow text right after an opening bracket)."""
    words: list[str] = []
    for char in " ".join(text.split()):
        wide = cells(char) == 2
        if words and words[-1] != " " and (char in _CLOSING or words[-1][-1] == "（"):
            words[-1] += char
        elif char == " " or wide or not words or words[-1] == " " or cells(words[-1][-1]) == 2:
            words.append(char)
        else:
            words[-1] += char
    return words
