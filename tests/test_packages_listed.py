"""Every package of the source tree is in the wheel: pyproject.toml lists the packages by name
(the top-level folders map to ``cudatui.*``), and a new subpackage left out of the list installs
nothing of it (``gdbbridge/debugger/parts``: the installed ``cudatui demo`` died at its import,
which only the slow install test saw)."""

from __future__ import annotations

import tomllib

from tests.support.paths import ROOT


def test_every_package_folder_is_listed_in_pyproject() -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {folder: package for package, folder in setup["package-dir"].items()}
    found = {"cudatui"}
    for folder, package in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            if "__pycache__" not in parts:
                found.add(".".join((package, *parts)))
    listed = set(setup["packages"])
    assert found - listed == set()
    for package in listed - found:  # a folder of data only (the recordings), listed to be shipped
        top = next(p for p in folders.values() if package.startswith(p + "."))
        folder = next(f for f, p in folders.items() if p == top)
        assert (ROOT / folder / package.removeprefix(top + ".").replace(".", "/")).is_dir(), package
