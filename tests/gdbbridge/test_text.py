"""Terminal text from the debuggee and gdb: escapes removed, controls shown, split sequences held back."""

from __future__ import annotations

from dataclasses import dataclass, field

from cudatui.gdbbridge.text import TerminalFilter, clean, sanitize

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


@dataclass(frozen=True)
class _Frame:
    name: str
    args: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


def test_clean_keeps_clean_values_and_cleans_what_is_new_or_mutable() -> None:
    """A clean frozen value comes back as itself, the second time too (found again, not scanned
    again); a new value holding an escape is cleaned even when an equal-looking clean one was
    seen; a value holding a list is scanned each time (the list may have changed)."""
    good = _Frame("main", ("a", "b"))
    pair = (good, good)
    assert clean(good) is good and clean(pair) is pair and clean(good) is good
    bad = _Frame("main", ("a", "\x1b]2;TITLE\x07b"))
    assert clean(bad).args == ("a", sanitize("\x1b]2;TITLE\x07b")) and "\x1b" not in clean(bad).args[1]
    holder = _Frame("f")
    assert clean(holder) is holder
    holder.notes.append("\x1b[2Jwiped")
    assert "\x1b" not in clean(holder).notes[0]
