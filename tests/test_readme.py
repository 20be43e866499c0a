"""The README's set-up and test commands are what CI runs (.ci/run), in the README's order, and
the test command's tiers are the ones tests/__main__.py runs."""

from __future__ import annotations

import re

from tests.support.paths import ROOT


def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```[a-z]*\n(.*?)```", readme, re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readme_set_up_then_its_test_command() -> None:
    commands = readme_commands()
    set_up = next(c for c in commands if re.search(r"\.\[test\]", c))
    test = commands[commands.index(set_up) + 1]
    assert test == "python -m tests"
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert set_up in ci and test in ci
    assert ci.index(set_up) < ci.index(test) == len([line for line in ci if line]) - 1  # the test command ends CI


def test_the_test_extra_holds_what_the_tiers_run() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    extra = pyproject[pyproject.index("test = ["):]
    extra = extra[:extra.index("]")]
    for tool in ("pytest", "pytest-xdist", "ruff", "mypy"):
        assert re.search(rf'"{tool}==', extra), f"{tool} is not pinned in the test extra"
