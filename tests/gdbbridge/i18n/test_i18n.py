"""Languages: the Chinese catalogue (a gettext ``.po``, compiled to the ``.mo`` cudatui loads)
holds every English text cudatui translates and nothing else, and the ``.mo`` holds what the
``.po`` says; the language comes from --lang or the locale; templates keep their placeholders;
wide characters count two columns when text is wrapped."""

from __future__ import annotations

import re
import runpy
import shutil
from pathlib import Path

import pytest

from cudatui.gdbbridge.i18n import LANGUAGES, cells, detect, language, set_language, tr, translations, wrap
from tests.support.i18n import english_texts, po_messages, po_path
from tests.support.paths import ROOT

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
TOOL = runpy.run_path(str(ROOT / "scripts" / "i18n_catalogue.py"))
"""scripts/i18n_catalogue.py's functions: what compiles a ``.po`` to its ``.mo``."""


@pytest.fixture(autouse=True)
def locale_language():
    yield
    set_language(None)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogue_has_every_text_and_no_stale_one(lang: str) -> None:
    texts, held = english_texts(), set(po_messages(lang))
    assert not sorted(texts - held), f"missing in {po_path(lang)}"
    assert not sorted(held - texts), f"stale in {po_path(lang)} (the English text is gone or changed)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_holds_what_the_po_says(lang: str) -> None:
    """The committed ``.mo`` is what recompiling the ``.po`` gives, and cudatui, reading it with
    gettext, shows every translation (a fuzzy or empty entry would stay English and fail here)."""
    po = po_path(lang)
    assert TOOL["messages"](po.with_suffix(".mo").read_bytes()) == TOOL["messages"](TOOL["compiled"](po)), \
        "run python scripts/i18n_catalogue.py"
    assert not TOOL["stale"](po)
    set_language(lang)
    shown = {english: tr(english) for english in po_messages(lang)}
    assert shown == po_messages(lang)
    assert translations(lang).gettext("not a text cudatui translates") == "not a text cudatui translates"


def test_the_drift_check_sees_an_edited_po(tmp_path: Path) -> None:
    """Edit a translation in a copy of the ``.po``: its ``.mo`` is stale until compiled again."""
    po = tmp_path / "zh" / "LC_MESSAGES" / "cudatui.po"
    po.parent.mkdir(parents=True)
    shutil.copy(po_path("zh"), po)
    shutil.copy(po_path("zh").with_suffix(".mo"), po.with_suffix(".mo"))
    assert not TOOL["stale"](po)
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "退出"', 'msgstr "离开"'), encoding="utf-8")
    assert TOOL["stale"](po)
    po.with_suffix(".mo").write_bytes(TOOL["compiled"](po))
    assert not TOOL["stale"](po) and TOOL["messages"](po.with_suffix(".mo").read_bytes())["Quit"] == "离开"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_placeholders_and_code(lang: str) -> None:
    for english, translated in po_messages(lang).items():
        assert translated.strip(), english
        assert sorted(re.findall(r"\{\w+\}", english)) == sorted(re.findall(r"\{\w+\}", translated)), english
        assert sorted(re.findall(r"`[^`]+`", english)) == sorted(re.findall(r"`[^`]+`", translated)), english


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ({"LC_MESSAGES": "zh_CN", "LANG": "en_US"}, "zh"), ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN"}, "en"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({}, "en"),
])
def test_the_locale_chooses_the_language(env: dict[str, str], expected: str) -> None:
    assert detect(env) == expected


def test_set_language_wins_over_the_locale_and_refuses_unknown_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert language() == "zh" and tr("Quit") == "退出"
    set_language("en")
    assert tr("Quit") == "Quit"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        set_language("fr")


def test_wide_characters_take_two_columns_when_wrapped() -> None:
    assert cells("退出") == 4 and cells("ab") == 2 and cells("e\u0301") == 1
    assert cells("a\tb") == 2 and cells("") == 0, "a control character takes no column"
    set_language("zh")
    text = tr("Re-run with CUDA_LAUNCH_BLOCKING=1 so the error is raised at the failing call.")
    lines = wrap(text, 30, "  ")
    assert len(lines) > 1 and all(cells(line) <= 30 for line in lines), lines
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
    assert wrap("a CUDA_LAUNCH_BLOCKING=1 b", 10) == ["a", "CUDA_LAUNCH_BLOCKING=1", "b"], "a word is never cut"
