"""Languages: the Chinese catalogue holds every English text cudatui translates and nothing else;
the language comes from --lang or the locale; templates keep their placeholders; wide characters
count two columns when text is wrapped."""

from __future__ import annotations

import re

import pytest

from cudatui.gdbbridge.i18n import LANGUAGES, catalogue, cells, detect, language, set_language, tr, wrap
from tests.support.i18n import english_texts


@pytest.fixture(autouse=True)
def locale_language():
    yield
    set_language(None)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_catalogue_has_every_text_and_no_stale_one(lang: str) -> None:
    texts, held = english_texts(), set(catalogue(lang))
    assert not sorted(texts - held), f"missing in {lang}"
    assert not sorted(held - texts), f"stale in {lang} (the English text is gone or changed)"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_keep_placeholders_and_code(lang: str) -> None:
    for english, translated in catalogue(lang).items():
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
    set_language("zh")
    text = tr("Re-run with CUDA_LAUNCH_BLOCKING=1 so the error is raised at the failing call.")
    lines = wrap(text, 30, "  ")
    assert len(lines) > 1 and all(cells(line) <= 30 for line in lines), lines
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
    assert wrap("a CUDA_LAUNCH_BLOCKING=1 b", 10) == ["a", "CUDA_LAUNCH_BLOCKING=1", "b"], "a word is never cut"
