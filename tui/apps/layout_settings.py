"""The chosen split sizes, kept in the user's config directory (``layout.json``) between runs.

The directory is ``platformdirs.user_config_dir("cudatui")``, or ``$CUDATUI_CONFIG_DIR`` when set
(the tests set it to a temporary directory). A missing file gives the defaults; an unreadable or
malformed one gives the defaults and a warning (never a traceback). Zoom is not kept. The file is
written as a new file of a random name in that directory (never through a link another user may
have planted there), then renamed over ``layout.json``.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from platformdirs import user_config_dir

CONFIG_ENV = "CUDATUI_CONFIG_DIR"
"""Environment variable naming the config directory instead of the platform's one."""

LOW, HIGH = 0.15, 0.85
"""Bounds of every split fraction."""


@dataclass(frozen=True)
class Splits:
    """Fractions of the space that each split gives to its first pane."""

    columns: float = 0.62
    """Wide screens: the source column's share of the width (the rest is Locals' column)."""
    source: float = 0.6
    """Wide screens: the source's share of its column (the rest is the tabbed panes)."""
    locals: float = 0.45
    """Wide screens: Locals' share of its column (the rest is Focus and Warps)."""
    narrow: float = 0.45
    """Small screens: the source's share of the height (the rest is the tabbed panes)."""

    def with_split(self, name: str, fraction: float) -> Splits:
        """These splits with ``name`` set to ``fraction``, kept within [LOW, HIGH]."""
        return replace(self, **{name: round(min(HIGH, max(LOW, fraction)), 4)})


def config_dir() -> Path:
    """Where cudatui keeps its settings."""
    return Path(os.environ.get(CONFIG_ENV) or user_config_dir("cudatui"))


def layout_file() -> Path:
    return config_dir() / "layout.json"


def load_splits(path: Path | None = None) -> tuple[Splits, str | None]:
    """The splits saved in ``path`` (default :func:`layout_file`) and a warning when the file was ignored."""
    path = path or layout_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Splits(), None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return Splits(), f"layout file {path} ignored ({type(exc).__name__}): using the default layout"
    saved = data.get("splits") if isinstance(data, dict) else None
    if not isinstance(saved, dict):
        return Splits(), f"layout file {path} ignored (no \"splits\" object): using the default layout"
    splits = Splits()
    for field in fields(Splits):
        value = saved.get(field.name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and LOW <= value <= HIGH:
            splits = replace(splits, **{field.name: float(value)})
    return splits, None


def save_splits(splits: Splits, path: Path | None = None) -> str | None:
    """Write ``splits`` to ``path`` (default :func:`layout_file`); a warning when that failed."""
    path = path or layout_file()
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".layout.", suffix=".tmp", dir=path.parent)  # a new file, no link
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps({"splits": asdict(splits)}, indent=1) + "\n")
        os.replace(temporary, path)
    except OSError as exc:
        if temporary is not None and os.path.lexists(temporary):
            os.unlink(temporary)
        return f"layout not saved to {path}: {exc.strerror or exc}"
    return None
