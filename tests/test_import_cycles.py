"""No import cycle: not between two modules, not between two subpackages (gdbbridge.session and
gdbbridge.record ...), imports made inside functions counted (tests/support/import_cycles.py, the
check of the project's hook)."""

from __future__ import annotations

from pathlib import Path

from tests.support.import_cycles import collapse, crossing, cycles, module_graph

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tui", "gdbbridge", "kernels", "cudatui")


def test_no_module_imports_itself_through_others() -> None:
    graph, edges = module_graph(ROOT, PACKAGES)
    found = cycles(graph)
    assert not found, "\n".join(f"cycle: {' '.join(c)}\n  " + "\n  ".join(crossing(edges, 99, c)) for c in found)


def test_no_subpackage_imports_itself_through_others() -> None:
    graph, edges = module_graph(ROOT, PACKAGES[:3])
    found = cycles(collapse(graph, 2))
    assert not found, "\n".join(f"cycle: {' '.join(c)}\n  " + "\n  ".join(crossing(edges, 2, c)) for c in found)


def test_the_check_sees_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    for name, text in {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/a.py": "def f():\n    from pkg.high import b\n    return b\n",
        "high/__init__.py": "",
        "high/b.py": "from ..low import a\n",
        "high/c.py": "from pkg.high.b import x\n",
    }.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    graph, edges = module_graph(tmp_path, ["pkg"])
    assert cycles(graph) == [["pkg.high.b", "pkg.low.a"]]
    assert cycles(collapse(graph, 2)) == [["pkg.high", "pkg.low"]]
    where = crossing(edges, 2, ["pkg.high", "pkg.low"])
    assert "pkg.high -> pkg.low: pkg.high.b -> pkg.low.a (pkg/high/b.py:1)" in where
    assert "pkg.low -> pkg.high: pkg.low.a -> pkg.high.b (pkg/low/a.py:2)" in where
