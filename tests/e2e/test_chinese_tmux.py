"""``cudatui --lang zh demo LESSON --replay`` in a real terminal (tmux), at 80x24 and 160x48: what
cudatui itself writes on each screen (the guide strip, the status bar, the key bar, the
notices log: the REPLAY line, a step off the recorded path, ``E`` with no error to explain; the
help screen) is Chinese. A screen fails on an English text of the catalogue shown as it is, or on a
run of three or more plain English words; code, file names, keys of the recorded path and gdb's
own text are not cudatui's sentences (the source and the panes' values are not read)."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from tests.support.i18n import english_texts, po_messages
from tests.support.lesson_claims import close_app
from tests.support.notices_log import log_rows, read_log
from tests.support.paths import ROOT
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

WORDS = re.compile(r"(?<![\w@./-])[a-z]{2,}(?:,? [a-z]{2,}){2,}(?![\w(/.-])")
"""Three plain lower-case English words in a row (a sentence's body; code has punctuation)."""
NOT_OURS = re.compile(r".*→.*|cuda-gdb \S+|CUDA error: .*|CUDA out of memory.*")
"""Lines or parts that are tools' or the recording's text: a symptom as the tools print it, the
recorded path's keys, the debugger's name."""


SOURCE_LINE = re.compile(r"^\W*\d+ ")
"""A line of the source pane (its number first), beside the help at 160x48: the program's text."""


def translated() -> dict[str, str]:
    """English msgid -> Chinese, for the texts whose Chinese differs (a name kept as it is is not
    a miss)."""
    zh = po_messages("zh")
    return {text: zh[text] for text in english_texts() if zh.get(text) and zh[text] != text and len(text) > 3}


def ours(lines: list[str], wide: bool) -> list[str]:
    """The lines cudatui writes itself on a main screen: from the rule above the guide strip down
    (strip, status bar, key bar), and the notifications' text (after their ``▌`` edge)."""
    rule = max((i for i, line in enumerate(lines) if line.startswith("────")), default=len(lines) - 2)
    texts = lines[rule + 1:]
    texts += [line.split("▌", 1)[1] for line in lines[:rule] if "▌" in line]
    return texts


def in_the_log(tmux: TmuxServer, text: str, what: str, wide: bool, catalogue: dict[str, str],
               screens: dict[str, str]) -> list[str]:
    """The English on the screen with the notices log open (``!``) once it says ``text`` (the
    log's rows too); the log is closed again. The screen read is kept in ``screens[what]``."""
    screen = screens[what] = read_log(tmux, text, what, lang="zh")
    return english(ours(screen.splitlines(), wide) + log_rows(screen, "zh"), catalogue)


def english(texts: list[str], catalogue: dict[str, str]) -> list[str]:
    """The English sentences among ``texts``."""
    found = []
    for text in texts:
        text = NOT_OURS.sub("", text)
        found += [m.group(0) for m in WORDS.finditer(text)]
        found += [msgid for msgid in catalogue if re.search(rf"(?<!\w){re.escape(msgid)}(?!\w)", text)
                  and " " in msgid]
    return found


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("lesson", ["race", "oob"])
def test_a_replayed_lesson_in_chinese_writes_no_english_sentence(lesson: str, size: tuple[int, int],
                                                                tmp_path: Path) -> None:
    run = (f"unset COLUMNS LINES; cd {shlex.quote(str(ROOT))} && PYTHONPATH={shlex.quote(str(ROOT))} "
           f"exec {shlex.quote(sys.executable)} -m cudatui --lang zh demo {lesson} --replay")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), "-e", "TERM=xterm-256color", run)
    catalogue = translated()
    wide = size == (160, 48)
    seen: dict[str, list[str]] = {}
    # each screen read, by what it was read for, shown with a failure (an English find came once in a
    # full run, from the screen with the log open after E: race.cu's comment on line 34; not seen
    # again in 9 runs)
    screens: dict[str, str] = {}
    try:
        wait_until(lambda: "已停止" in tmux.screen(), 60, lambda: f"the first stop, in Chinese:\n{tmux.screen()}")
        screens["the first stop"] = tmux.screen()
        seen["the first stop"] = english(ours(screens["the first stop"].splitlines(), wide), catalogue)
        tmux("send-keys", "-t", "t", "s")  # not the recorded path's first step
        seen["the off-path notice"] = in_the_log(tmux, "不在录制中", "the off-path notice", wide, catalogue, screens)
        tmux("send-keys", "-t", "t", "E")  # no error at a breakpoint: E says so, in the notices line and the log
        seen["E's answer"] = in_the_log(tmux, "程序输出和当前停止处都没有已知的CUDA错误", "E's answer", wide, catalogue,
                                        screens)
        tmux("send-keys", "-t", "t", "?")
        wait_until(lambda: "cudatui 按键" in tmux.screen(), 30, lambda: f"the help screen:\n{tmux.screen()}")
        screens["help"] = tmux.screen()
        seen["help"] = english([NOT_OURS.sub("", line) for line in screens["help"].splitlines()
                                if not SOURCE_LINE.match(line)], catalogue)
        tmux("send-keys", "-t", "t", "Escape")  # back to the main screen, where ctrl+q quits
    finally:
        close_app(tmux)
    missed = {screen: found for screen, found in seen.items() if found}
    assert not missed, (f"English on the Chinese screens of {lesson} at {size[0]}x{size[1]}: {missed}\n"
                        + "\n".join(f"--- {what}:\n{screens[what]}" for what in missed))
