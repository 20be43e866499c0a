"""Compile cudatui's translations: each ``gdbbridge/i18n/locale/<language>/LC_MESSAGES/cudatui.po``
(what translators edit) to the ``cudatui.mo`` beside it (what cudatui loads with :mod:`gettext`).

``python scripts/i18n_catalogue.py`` writes every ``.mo`` that differs from its ``.po``;
``--check`` writes nothing and exits 1 naming each ``.mo`` that does. Both ``.po`` and ``.mo`` are
committed, so the installed package needs no tool at run time; tests/gdbbridge/i18n/test_i18n.py fails
when a ``.mo`` does not hold what its ``.po`` says. Needs Babel (the ``test`` extra).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parents[1] / "gdbbridge" / "i18n" / "locale"


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every language's ``.po``."""
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compiled(po: Path) -> bytes:
    """The ``.mo`` of ``po``: its translated entries (a fuzzy or empty one stays out)."""
    with po.open("rb") as f:
        catalog = read_po(f, domain=po.stem)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def messages(mo: bytes) -> dict[str, str]:
    """English text -> translation held by a compiled catalogue (its header left out)."""
    return {message.id: message.string for message in read_mo(io.BytesIO(mo)) if message.id}


def stale(po: Path) -> bool:
    """True when the ``.mo`` beside ``po`` is missing or holds other texts than ``po`` compiles to."""
    mo = po.with_suffix(".mo")
    return not mo.is_file() or messages(mo.read_bytes()) != messages(compiled(po))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a .mo differs from its .po")
    args = parser.parse_args(argv)
    behind = [po for po in po_files() if stale(po)]
    for po in behind:
        if args.check:
            print(f"{po.with_suffix('.mo')} does not match {po.name}: run python scripts/i18n_catalogue.py", file=sys.stderr)
        else:
            po.with_suffix(".mo").write_bytes(compiled(po))
            print(f"wrote {po.with_suffix('.mo')}")
    return 1 if args.check and behind else 0


if __name__ == "__main__":
    sys.exit(main())
