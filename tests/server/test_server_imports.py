"""The server's floors, held by reading its source (issue 43): `wire/` and `store/` import nothing
above them, only `store/` holds SQL text, no module imports the engine's phases (the engine says
whether a table is between rounds), and the edge reaches the host through its interface. (No
import cycle anywhere in the package: tests/package/test_imports.py.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import caribbean_fast.server
from caribbean_fast.server.front import Front

SERVER = Path(caribbean_fast.server.__file__).parent
PACKAGE = "caribbean_fast.server"
SQL = re.compile(r"\b(SELECT\s.+\sFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE|ON CONFLICT)\b", re.S)


def _name(path: Path) -> str:
    """The module's dotted name under the server ("store.db", "host")."""
    parts = path.relative_to(SERVER).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_name(p): p for p in SERVER.rglob("*.py")}


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> list[str]:
    """The modules of this package that an import names, anywhere in the file (functions too)."""
    if node.level == 0:
        name = node.module or ""
        return [name[len(PACKAGE) + 1 :]] if name.startswith(PACKAGE + ".") else []
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
    if node.level - 1 > len(package):
        return []  # above the server: the engine, the variants
    head = ".".join([*base, *(node.module.split(".") if node.module else [])])
    return [head, *(f"{head}.{a.name}".lstrip(".") for a in node.names)]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                found.update(m for m in _absolute(name, path, node) if m in modules)
        graph[name] = found - {name, ""}
    return graph


def test_the_lower_floors_import_nothing_above_them() -> None:
    floors = {"wire": {"wire"}, "store": {"store", "wire"}}
    for name, imported in _graph().items():
        floor = name.split(".")[0]
        if floor in floors:
            above = {m for m in imported if m.split(".")[0] not in floors[floor]}
            assert not above, f"{name} imports {sorted(above)}, above its floor"


def _text(node: ast.Constant | ast.JoinedStr) -> object:
    """A constant's value; an f-string's text with each placeholder as `_` (SQL built by parts)."""
    if isinstance(node, ast.Constant):
        return node.value
    return "".join(str(v.value) if isinstance(v, ast.Constant) else "_" for v in node.values)


def test_only_the_store_holds_sql() -> None:
    for name, path in _modules().items():
        if name.split(".")[0] == "store":
            continue
        texts = [_text(n) for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant | ast.JoinedStr)]
        sql = [t for t in texts if isinstance(t, str) and SQL.search(t)]
        assert not sql, f"{name} holds SQL: {sql[0][:80]!r}"


def test_no_server_module_reads_the_engines_phases() -> None:
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.lstrip(".").startswith("engine"):
                assert "Phase" not in {a.name for a in node.names}, f"{name} imports the engine's Phase"


EDGE = ("app", "web", "ws")
FRONT_CALLS = 24  # the host's calls the edge makes (front.Front): a new one is a choice, made here


def _front_members() -> set[str]:
    return {name for name in vars(Front) if not name.startswith("_")}


def test_the_hosts_interface_is_a_few_calls_and_no_attributes() -> None:
    assert not vars(Front).get("__annotations__"), "front.Front declares attributes: the edge calls the host"
    members = _front_members()
    assert all(callable(getattr(Front, name)) for name in members)
    assert len(members) == FRONT_CALLS, sorted(members)


def _host(node: ast.AST) -> bool:
    """The edge's name for the host: `server`, `self.server`, `request.app.state.server`."""
    return (isinstance(node, ast.Name) and node.id == "server") or (
        isinstance(node, ast.Attribute) and node.attr == "server"
    )


def _past_the_front(source: str) -> list[str]:
    """Each reach into the host other than a call of `Front`'s: an attribute, an attribute's
    attribute (`server.hub.join`), an item (`server.owners[t]`), a call of another name."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    members, found = _front_members(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _host(node.value):
            parent = parents.get(node)
            called = isinstance(parent, ast.Call) and parent.func is node
            if node.attr not in members or not called:
                found.append(ast.unparse(parent if isinstance(parent, ast.Attribute) else node))
    return found


def test_the_edge_reaches_the_host_through_its_interface() -> None:
    graph = _graph()
    assert all("front" in graph[edge] for edge in EDGE)
    assert not any("host" in graph[edge] for edge in EDGE)  # the package's `create_app` names both
    bad = "async def f(server):\n    server.hub.join(c)\n    server.owners[t]\n    await server.wallet(a)\n"
    assert sorted(_past_the_front(bad)) == ["server.hub.join", "server.owners"]
    for edge in EDGE:
        source = (SERVER / f"{edge}.py").read_text()
        assert "Server" not in re.findall(r"\b\w+\b", source), f"{edge} names the host's class"
        assert not _past_the_front(source), f"{edge} reaches past front.Front: {_past_the_front(source)}"
