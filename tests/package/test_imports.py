"""What the package's modules load, and when (issue 35): `import caribbean_fast` loads the cards,
the hands and the errors, and every other public name loads its module when first used; the
library never loads rich (the command line and the terminal client draw, the library reports
progress to a callback); the modules import one another without a cycle, even from inside a
function, where a cycle hides until the function runs; and the words for people sit above the
engine, the rules' shape below it."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import caribbean_fast

PACKAGE = Path(caribbean_fast.__file__).parent
DRAWING = (
    "caribbean_fast.cli",
    "caribbean_fast.play",
    "caribbean_fast.words.describe",
    "caribbean_fast.analysis.report",
    "caribbean_fast.analysis.render",
)
"""The modules that draw on a terminal with rich: the command line, the terminal client, and the
two renderers only they import."""


def _fresh_modules(statement: str) -> set[str]:
    """The modules in sys.modules after `statement` runs in a fresh interpreter."""
    script = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def _loaded(modules: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {m for m in modules if m.startswith(prefixes)}


def test_evaluating_a_hand_loads_neither_rich_nor_the_heavy_parts() -> None:
    modules = _fresh_modules("import caribbean_fast\nassert caribbean_fast.evaluate('As Ks Qs Js Ts').text")
    heavy = ("rich", "caribbean_fast.engine", "caribbean_fast.analysis", "caribbean_fast.server")
    assert not _loaded(modules, (*heavy, "caribbean_fast.simulation", "importlib.metadata")), modules


def test_every_public_name_resolves_and_is_listed() -> None:
    for name in caribbean_fast.__all__:
        assert getattr(caribbean_fast, name) is not None, name
    assert set(caribbean_fast.__all__) <= set(dir(caribbean_fast))
    from caribbean_fast.engine import Table

    assert caribbean_fast.Table is Table  # the module's own object, not a copy
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        caribbean_fast.no_such_name  # noqa: B018 - the lookup is the test


def test_a_lazy_name_loads_its_module_when_first_used() -> None:
    modules = _fresh_modules(
        "import caribbean_fast as cf\nfrom caribbean_fast import simulate\n"
        "assert cf.Table and cf.analyze and simulate and cf.simulate_meter and cf.__version__"
    )
    assert _loaded(modules, ("caribbean_fast.engine", "caribbean_fast.analysis", "caribbean_fast.simulation"))
    assert not _loaded(modules, ("rich", "caribbean_fast.server")), modules


def _module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (the compiled core by its stub)."""
    files = {"caribbean_fast._core": PACKAGE / "_core.pyi"}
    for path in PACKAGE.rglob("*.py"):
        parts = ("caribbean_fast", *path.relative_to(PACKAGE).with_suffix("").parts)
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


FILES = _module_files()


def test_the_library_never_loads_rich() -> None:
    library = sorted(name for name in FILES if not name.startswith(DRAWING) and name != "caribbean_fast._core")
    modules = _fresh_modules("import importlib\n" + "\n".join(f"importlib.import_module({m!r})" for m in library))
    assert not _loaded(modules, ("rich",))


def _runtime_nodes(tree: ast.AST, in_functions: bool) -> Iterator[ast.AST]:
    """The nodes that run: not those under `if TYPE_CHECKING:`, nor in function bodies unless
    `in_functions`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            nodes: list[ast.AST] = list(node.orelse)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not in_functions:
            continue
        else:
            nodes = [node]
        for n in nodes:
            yield n
            yield from _runtime_nodes(n, in_functions)


def _targets(module: str, node: ast.AST) -> set[str]:
    """The package's modules one import statement of `module` names."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in FILES}
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:
        here = module.split(".") if FILES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join([*here[: len(here) - node.level + 1], *([node.module] if node.module else [])])
    else:
        base = node.module or ""
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in FILES else base for a in node.names} & FILES.keys()


def _with_packages(module: str, target: str) -> set[str]:
    """`target` and the packages an import of it runs first, less those `module` is already in."""
    parts = target.split(".")
    chain = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    own = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 2)}
    return chain - own


def _imports(module: str, in_functions: bool) -> set[str]:
    """The package's modules that importing `module` (or, `in_functions`, running it) imports."""
    tree = ast.parse(FILES[module].read_text())
    targets = set().union(*(_targets(module, node) for node in _runtime_nodes(tree, in_functions)))
    return set().union(*(_with_packages(module, t) for t in targets)) - {module}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as the path that closes it, or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for nxt in sorted(graph.get(node, ())):
            if (found := visit(nxt, [*path, node])) is not None:
                return found
        done.add(node)
        return None

    return next((c for start in sorted(graph) if (c := visit(start, [])) is not None), None)


def test_the_modules_import_without_a_cycle() -> None:
    graph = {module: _imports(module, in_functions=False) for module in FILES}
    assert "caribbean_fast.analysis" in graph["caribbean_fast.simulation"]  # the graph sees packages
    assert _cycle(graph) is None, _cycle(graph)


def _held_open(top: dict[str, set[str]], inside: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports inside functions (`inside`: every import a module runs) that close a cycle of
    the module-level graph `top`: a module importing, in a function, one that already imports it."""
    return sorted((m, t) for m in inside for t in inside[m] - top.get(m, set()) if m in _reach(top, t))


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module an import of `start` goes on to import."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_no_cycle_is_held_open_by_an_import_inside_a_function() -> None:
    """Every package module imported inside a function (a command loading its part when it runs,
    an optional driver) is one the module could import at its top: none imports it back, so no
    cycle hides until the function runs."""
    top = {module: _imports(module, in_functions=False) for module in FILES}
    inside = {module: _imports(module, in_functions=True) for module in FILES}
    assert _held_open(top, inside) == []
    assert _cycle(inside) is None, _cycle(inside)
    assert "caribbean_fast.plots" in inside["caribbean_fast.cli.plot"] - top["caribbean_fast.cli.plot"]  # seen


def test_the_held_open_finder_finds_the_ones_there_were() -> None:
    """The exact analysis once imported `simulate` in a function (simulation imports the
    analysis); the variant model imported its presentation in one (settlement -> variants/model
    -> variants/presentation -> settlement)."""
    top = {
        "settlement": {"variants.model"},
        "variants.model": set(),
        "variants.presentation": {"variants.model"},
        "analysis": {"simulator"},
        "simulation": {"analysis"},
    }
    inside = top | {
        "variants.model": {"variants.presentation"},
        "variants.presentation": {"variants.model", "settlement"},
        "analysis": {"simulator", "simulation"},
    }
    assert _held_open(top, inside) == [("analysis", "simulation"), ("variants.model", "variants.presentation")]
    assert _cycle(inside) is not None and _cycle(top) is None


def test_the_words_sit_above_the_engine_and_the_variants_below_it() -> None:
    """The rules' shape (layout, the bets' names) is the variants'; the sentences for people are
    `words`', which the engine, the variants and the settlement never import, even in a function."""
    below = ("caribbean_fast.engine", "caribbean_fast.variants", "caribbean_fast.settlement", "caribbean_fast.hands")
    words = {m for m in FILES if m.startswith("caribbean_fast.words")}
    for module in (m for m in FILES if m.startswith(below)):
        assert not _imports(module, in_functions=True) & words, module
    variants = (m for m in FILES if m.startswith("caribbean_fast.variants"))
    assert not any(_loaded(_imports(m, in_functions=True), ("caribbean_fast.engine",)) for m in variants)


def test_only_the_command_line_and_the_terminal_client_import_the_renderers() -> None:
    renderers = {"caribbean_fast.words.describe", "caribbean_fast.analysis.report", "caribbean_fast.analysis.render"}
    importers = {m for m in FILES if renderers & _imports(m, in_functions=True)} - renderers
    assert all(m.startswith(("caribbean_fast.cli", "caribbean_fast.play")) for m in importers), importers


def test_the_cycle_finder_finds_the_one_there_was() -> None:
    old = {"analysis": {"analysis.stud"}, "analysis.stud": {"simulation"}, "simulation": {"analysis"}}
    assert _cycle(old) == ["analysis", "analysis.stud", "simulation", "analysis"]
    assert _cycle({"simulation": {"analysis", "simulator"}, "analysis": {"simulator"}}) is None
