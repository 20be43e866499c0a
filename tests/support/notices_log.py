"""The notices log (``!``) in a real terminal: what it says is read inside its box, never on the
whole screen (the guide strip at 160x48 says some of the same words: a wait on the whole screen
was met before the log had opened, and the escape sent then merged with the next key)."""

from __future__ import annotations

from .tmux import TmuxServer
from .wait import wait_until

TITLES = {"en": "Notices (newest last; escape closes)", "zh": "通知（最新的在最后；escape 关闭）"}
"""The log's title, by language (tui/screens/notices_screen.py and its zh translation)."""


def squeezed(text: str) -> str:
    return text.replace(" ", "")


def log_rows(screen: str, lang: str = "en") -> list[str]:
    """The rows of text inside the notices log's box, from its title down to the box's bottom
    edge (none while the log is not shown)."""
    title = squeezed(TITLES[lang])
    lines = screen.splitlines()
    top = next((row for row, line in enumerate(lines) if title in squeezed(line)), None)
    if top is None:
        return []
    left = lines[top].rindex("│", 0, lines[top].index(TITLES[lang].split()[0]))
    inside = []
    for line in lines[top:]:
        if line[left:left + 1] == "╰":
            break
        inside.append(line[left + 1:].split("│", 1)[0])
    return inside


def read_log(tmux: TmuxServer, text: str, what: str, lang: str = "en", timeout: float = 30.0) -> str:
    """Open the log (``!``), wait until its box says ``text`` (spaces ignored: a notice wraps at
    a space), close it (escape) and wait until it has gone; the screen with the log open."""
    def says() -> str | None:
        screen = tmux.screen()
        return screen if squeezed(text) in squeezed("".join(log_rows(screen, lang))) else None

    tmux("send-keys", "-t", "t", "!")
    shown = wait_until(says, timeout, lambda: f"{what} in the notices log:\n{tmux.screen()}", every=1.0, pause=tmux.pause)
    tmux("send-keys", "-t", "t", "Escape")
    wait_until(lambda: not log_rows(tmux.screen(), lang), timeout, lambda: f"the notices log closed:\n{tmux.screen()}",
               every=1.0, pause=tmux.pause)
    return shown
