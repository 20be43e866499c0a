"""Import cycles among the project's modules, imports inside functions counted.

The same check as the project hook (shared/hooks/import-cycles.py): :func:`module_graph` maps each
module of the given folders to the project modules it imports (``cudatui.`` prefixes resolved to
the folders), :func:`collapse` merges modules into their subpackage (``gdbbridge.session``) and
:func:`cycles` gives the strongly connected components of more than one node.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

Graph = dict[str, set[str]]
"""Module -> the modules it imports."""

Edges = dict[tuple[str, str], list[str]]
"""(importer, imported) -> where (``path:line``)."""


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name (relative to ``root``) -> its file, for every .py under ``packages``."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    for candidate in (name, name.rsplit(".", 1)[0] if "." in name else None):
        if candidate in known:
            return candidate
    for module in known:  # a namespace prefix: cudatui.gdbbridge.x -> gdbbridge.x
        if name.endswith("." + module) or name == module:
            return module
    return None


def module_graph(root: Path, packages: Iterable[str]) -> tuple[Graph, Edges]:
    """The import graph of the modules under ``packages`` and where each edge comes from."""
    known = modules(root, packages)
    graph: Graph = {module: set() for module in known}
    edges: Edges = {}
    for module, path in known.items():
        is_init = path.name == "__init__.py"
        package = module if is_init else module.rsplit(".", 1)[0] if "." in module else ""
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".") if package else []
                    parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                    base = ".".join([*parts, *([base] if base else [])])
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            for target in targets:
                resolved = _resolve(target, known)
                if resolved and resolved != module and not (is_init and resolved.startswith(module + ".")):
                    graph[module].add(resolved)
                    edges.setdefault((module, resolved), []).append(f"{path.relative_to(root)}:{node.lineno}")
    return graph, edges


def collapse(graph: Graph, depth: int) -> Graph:
    """``graph`` with each module merged into its first ``depth`` dotted parts."""
    def cut(module: str) -> str:
        return ".".join(module.split(".")[:depth])
    collapsed: Graph = {}
    for module, imported in graph.items():
        collapsed.setdefault(cut(module), set()).update(cut(other) for other in imported if cut(other) != cut(module))
    return collapsed


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one node (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def crossing(edges: Edges, depth: int, component: Iterable[str]) -> list[str]:
    """The imports between different members of ``component`` (subpackages at ``depth``), each
    with where it is made: what to read to break a cycle."""
    members = set(component)
    def cut(module: str) -> str:
        return ".".join(module.split(".")[:depth])
    return [f"{cut(a)} -> {cut(b)}: {a} -> {b} ({', '.join(where)})"
            for (a, b), where in sorted(edges.items())
            if cut(a) != cut(b) and cut(a) in members and cut(b) in members]
