"""Terminal text from the debuggee and gdb: escapes removed, controls shown, split sequences held back."""

from __future__ import annotations

from cudatui.gdbbridge.text import TerminalFilter, sanitize

HOSTILE = "\x1b[31mred\x1b[0m \x1b]0;evil title\x07 bell\a \x1b[2J \u202e reversed \b done\r\n"


def test_sanitize_removes_escapes_and_shows_controls() -> None:
    assert sanitize(HOSTILE) == "red  bell^G   reversed ^H done\n"
    assert sanitize("a\tb\rc\x9b2Jd\x00") == "a       b\ncd^@"


def test_terminal_filter_holds_back_split_sequences() -> None:
    chunks = ["ok \x1b[3", "1mred\x1b]0;ti", "tle\x07 end\r", "\nnext"]
    stream = TerminalFilter()
    shown = "".join(stream.feed(c) for c in chunks) + stream.flush()
    assert shown == "ok red end\nnext"
    by_char = TerminalFilter()
    assert "".join(by_char.feed(c) for c in HOSTILE) + by_char.flush() == sanitize(HOSTILE)
