"""The server's modules import one another without a cycle (a cycle makes import order matter
and hides which module owns what): each module's relative imports, read from its source."""

from __future__ import annotations

import ast
from pathlib import Path

import caribbean_fast.server

SERVER = Path(caribbean_fast.server.__file__).parent


def _imports(path: Path) -> set[str]:
    """The sibling modules `path` imports (`from .x import ...`, `from . import x`), anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            found.update(n for n in names if (SERVER / f"{n}.py").exists())
    return found - {path.stem, "__init__"}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as the path that closes it, or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for nxt in sorted(graph[node]):
            if (found := visit(nxt, [*path, node])) is not None:
                return found
        done.add(node)
        return None

    return next((c for start in sorted(graph) if (c := visit(start, [])) is not None), None)


def test_the_server_modules_import_without_a_cycle() -> None:
    graph = {p.stem: _imports(p) for p in SERVER.glob("*.py") if p.stem != "__init__"}
    assert graph["pgstore"] == {"schema"} and "pgstore" in graph["db"]  # the pair that once imported each other
    assert _cycle(graph) is None, _cycle(graph)


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"db": {"pgstore"}, "pgstore": {"db"}}) == ["db", "pgstore", "db"]
    assert _cycle({"db": {"schema"}, "pgstore": {"schema"}, "schema": set()}) is None
