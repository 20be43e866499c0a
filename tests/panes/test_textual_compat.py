"""Textual's private names are used in tui/textual_compat.py and nowhere else in tui/.

A private name is caught three ways: an import of a private Textual module (``textual._types``,
``textual.widgets._toast``); a private attribute or method a Textual base class has, used or
overridden through ``self`` in a class of tui/ (found from the class's MRO and the bases' source);
and any other ``obj._name`` (or ``getattr(obj, "_name")``) whose name tui/ does not define itself.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from textual.widgets import Log

from cudatui.tui import textual_compat

TUI = Path(__file__).resolve().parents[2] / "tui"
COMPAT = TUI / "textual_compat.py"

SELF_ASSIGNED = re.compile(r"self\.(_[a-z]\w*)\s*(?::[^=\n]+)?=(?!=)")
_bases: dict[type, frozenset[str]] = {}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def textual_privates(cls: type) -> frozenset[str]:
    """The private names the Textual classes in ``cls``'s MRO define (attributes set in methods too)."""
    names: set[str] = set()
    for base in cls.__mro__:
        if not base.__module__.startswith("textual"):
            continue
        if base not in _bases:
            found = {name for name in vars(base) if private(name)}
            try:
                found |= set(SELF_ASSIGNED.findall(inspect.getsource(base)))
            except (OSError, TypeError):
                pass
            _bases[base] = frozenset(found)
        names |= _bases[base]
    return frozenset(names)


def attribute_uses(tree: ast.AST) -> Iterator[tuple[ast.AST, str, bool]]:
    """(node, private name, used through self/cls) for every private attribute use in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            owner = node.value.id if isinstance(node.value, ast.Name) else ""
            yield node, node.attr, owner in ("self", "cls")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
                and private(node.args[1].value):
            owner = node.args[0].id if isinstance(node.args[0], ast.Name) else ""
            yield node, node.args[1].value, owner in ("self", "cls")


def defined_names(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, class attributes, ``self._x = ...``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {name for name in names if private(name)}


def violations(source: str, where: str, namespace: Mapping[str, object], project: set[str]) -> list[str]:
    """What in ``source`` (a module of tui/, whose objects are in ``namespace``) names a private
    Textual name; ``project`` holds the private names tui/ defines itself."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            if any(private(part) for part in node.module.split(".")) or any(private(a.name) for a in node.names):
                found.append(f"{where}:{node.lineno}: from {node.module} import a private name")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "textual" and any(private(p) for p in alias.name.split(".")):
                    found.append(f"{where}:{node.lineno}: import {alias.name}")
    in_textual_class: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        cls = namespace.get(node.name)
        privates = textual_privates(cls) if inspect.isclass(cls) else frozenset()
        if not privates:
            continue
        for sub in ast.walk(node):
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name in privates:
                found.append(f"{where}:{sub.lineno}: {node.name} overrides Textual's {sub.name}")
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and sub.id in privates:
                found.append(f"{where}:{sub.lineno}: {node.name} sets Textual's {sub.id}")
        for sub, name, through_self in attribute_uses(node):
            if through_self:
                in_textual_class.add(id(sub))
                if name in privates:
                    found.append(f"{where}:{sub.lineno}: {node.name} uses Textual's self.{name}")
    for sub, name, _ in attribute_uses(tree):
        if other_modules(sub, namespace):  # os._exit, sys._getframe: the standard library's, not Textual's
            continue
        if name in textual_compat.PRIVATE_NAMES:
            found.append(f"{where}:{sub.lineno}: {name} is wrapped in tui/textual_compat.py")
        elif id(sub) not in in_textual_class and name not in project:
            found.append(f"{where}:{sub.lineno}: .{name} is defined nowhere in tui/ (Textual's?)")
    return found


def other_modules(node: ast.AST, namespace: Mapping[str, object]) -> bool:
    """Whether ``node`` is ``module._name`` of a module that is not Textual's."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return False
    owner = namespace.get(node.value.id)
    return inspect.ismodule(owner) and owner.__name__.split(".")[0] not in ("textual", "rich")


def tui_modules() -> Iterator[tuple[Path, str]]:
    for path in sorted(TUI.rglob("*.py")):
        if path == COMPAT:
            continue
        parts = path.relative_to(TUI.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield path, "cudatui." + ".".join(parts)


def project_names() -> set[str]:
    names: set[str] = set()
    for path, _ in tui_modules():
        names |= defined_names(ast.parse(path.read_text()))
    return names


def test_no_private_textual_name_outside_the_compat_module() -> None:
    project = project_names()
    found: list[str] = []
    for path, module in tui_modules():
        namespace = vars(importlib.import_module(module))
        found += violations(path.read_text(), str(path.relative_to(TUI.parent)), namespace, project)
    assert not found, "\n".join(found)


def test_the_compat_module_uses_every_name_it_lists() -> None:
    source = COMPAT.read_text()
    head, listed = source.split("PRIVATE_NAMES = ", 1)
    body = head.split('"""', 2)[2] + listed.split('"""', 2)[2]  # the code, less the docstrings and the list
    assert [name for name in sorted(textual_compat.PRIVATE_NAMES) if name not in body] == []
    assert textual_compat.TEXTUAL_VERSION in source.split('"""', 2)[1]


def test_the_check_catches_a_new_private_name() -> None:
    """Each kind of use the check is meant to catch, in a module written here."""
    source = '''
from textual._context import active_app
from textual.widgets import Log


class Mine(Log):
    def _update_maximum_width(self, updates, size):
        return self._lines

    def ok(self):
        self._mine = 1
        return self._mine


def outside(app):
    return app._dom_ready, getattr(app, "_exit_renderables"), app._render_line_cache
'''

    class Mine(Log):
        pass

    found = violations(source, "mine.py", {"Mine": Mine}, project={"_mine"})
    assert sorted(line.split(": ", 1)[1] for line in found) == sorted([
        "from textual._context import a private name",
        "Mine overrides Textual's _update_maximum_width",
        "Mine uses Textual's self._lines",
        "._dom_ready is defined nowhere in tui/ (Textual's?)",
        "._exit_renderables is defined nowhere in tui/ (Textual's?)",
        "_render_line_cache is wrapped in tui/textual_compat.py",
    ])
