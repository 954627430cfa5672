"""The benchmark scripts: the host line and steal share (`benches/host.py`), read from fake /proc
files; the simulation bench's figures over several runs, and the bench run whole on a small run."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest

from caribbean_fast import load_variant, simulate
from caribbean_fast.engine.core import KEEP

BENCHES = Path(__file__).parents[2] / "benches"


def _bench(name: str) -> ModuleType:
    """A script of benches/ loaded as a module, its imports of its neighbours found."""
    spec = importlib.util.spec_from_file_location(f"benches_{name}", BENCHES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # where its dataclasses look themselves up
    sys.path.insert(0, str(BENCHES))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHES))
    return module


def test_steal_is_the_share_of_every_processors_ticks_since_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    host = _bench("host")
    # user nice system idle iowait irq softirq steal, then guest and guest_nice (inside user)
    monkeypatch.setattr(host, "_read", lambda path: "cpu  100 0 50 800 10 0 0 40 7 0\ncpu0 1 2 3\n")
    assert host.cpu_ticks() == (40, 1000)
    assert host.steal_since((20, 500)) == pytest.approx(4.0)  # 20 of 500 ticks
    assert host.steal_since((40, 1000)) == 0.0  # no tick since: no share, no division by zero
    assert host.steal_since((50, 500)) == 0.0  # a steal counter moved back counts as none


def test_without_proc_stat_there_is_no_steal(monkeypatch: pytest.MonkeyPatch) -> None:
    host = _bench("host")
    monkeypatch.setattr(host, "_read", lambda path: "")
    assert host.cpu_ticks() == (0, 0)
    assert host.steal_since((0, 0)) == 0.0


@pytest.mark.slow
def test_a_rows_figures_are_the_median_and_range_of_its_runs() -> None:
    simulation = _bench("simulation")
    base = simulate(load_variant("cyberstud"), 1000, seed=1, strategy="always-raise")
    rated = [(1e6, 0.0), (5e6, 3.0), (2e6, 1.0)]  # rounds a second, steal
    runs = [simulation.Run(replace(base, seconds=base.rounds * base.seats / rate), steal) for rate, steal in rated]

    def cells(runs: list[Any], threads: int) -> dict[str, str]:
        return dict(zip(simulation.FIGURES, simulation._figures(runs, threads, -0.05), strict=True))

    three = cells(runs, 2)
    assert (three["M rounds/s"], three["range"], three["ns/round/thread"]) == ("2.0", "1.0-5.0", "1000.0")
    assert (three["steal %"], three["exact"]) == ("3", "-0.050000")
    assert three["simulated mean"] == f"{base.mean:+.6f}"
    one = cells(runs[1:2], 1)
    assert (one["M rounds/s"], one["range"], one["ns/round/thread"], one["steal %"]) == ("5.0", "-", "200.0", "3")


@pytest.mark.slow
def test_the_simulation_bench_runs_as_the_readme_says() -> None:
    """The whole script on a small run: it ends well and says how many runs each row took."""
    args = ["--rounds", "2e5", "--runs", "2", "--variants", "cyberstud", "--threads", "1"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, str(BENCHES / "simulation.py"), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "200,000 rounds each, seed 7, 1 thread(s), median of 2 runs in turn" in done.stdout
    assert "cyberstud" in done.stdout


def test_the_engine_floor_plays_the_engine_and_refuses_as_it_does(tmp_path: Path) -> None:
    bench = _bench("floor_server")
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nvariant = "network-24h"\ncount = 2\n\n[[table]]\nvariant = "cyberstud"\ncount = 1\n')
    floor = bench.EngineFloor(bench.open_tables(tables))
    assert sorted(floor.tables) == ["cyberstud-1", "network-24h-1", "network-24h-2"]  # opened before the load
    assert floor.tables["network-24h-1"].variant is floor.tables["network-24h-2"].variant  # loaded once
    assert not floor.play("a", object(), {"table": "network-24h-3", "type": "sit", "buy_in": 10_000})  # no such table
    sock_a, sock_b = object(), object()  # stand-ins for the sockets: only handed back with the frames
    assert floor.play("a", sock_a, {"table": "network-24h-1", "type": "sit", "buy_in": 10_000})
    assert floor.play("b", sock_b, {"table": "network-24h-1", "type": "sit", "buy_in": 10_000})
    assert floor.play("a", sock_a, {"table": "network-24h-1", "type": "sit", "buy_in": 10_000})  # came back
    assert not floor.play("a", sock_a, {"table": "network-24h-1", "type": "raise"})  # nothing dealt yet
    assert not floor.play("c", object(), {"table": "network-24h-1", "type": "ante", "amount": 100})  # not seated
    assert floor.play("a", sock_a, {"table": "network-24h-1", "type": "ante", "amount": 100})
    assert not floor.play("a", sock_a, {"table": "network-24h-1", "type": "deal"})  # b has not bet
    assert floor.play("b", sock_b, {"table": "network-24h-1", "type": "ante", "amount": 100})
    assert floor.play("a", sock_a, {"table": "network-24h-1", "type": "deal"})
    frames = floor.frames("network-24h-1")
    assert set(frames) == {"a", "b"} and frames["a"][0] is sock_a
    views = [orjson.loads(frames[token][1])["view"] for token in "ab"]
    assert [(v["seat"], v["phase"], "raise" in v["actions"]) for v in views] == [
        (0, "deciding", True),
        (1, "deciding", True),
    ]


def test_the_engine_floor_keeps_only_the_latest_events(tmp_path: Path) -> None:
    """A table of the engine floor plays many rounds and holds no more events than a served table
    (`KEEP`): its memory does not climb with its past."""
    bench = _bench("floor_server")
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nvariant = "cyberstud"\ncount = 1\n')
    floor = bench.EngineFloor(bench.open_tables(tables))
    sock = object()
    assert floor.play("a", sock, {"table": "cyberstud-1", "type": "sit", "buy_in": 10**7})
    for _ in range(200):
        for kind, fields in [("ante", {"amount": 500}), ("deal", {}), ("fold", {})]:
            assert floor.play("a", sock, {"table": "cyberstud-1", "type": kind, **fields})
    table = floor.tables["cyberstud-1"]
    assert table.seq > 1000 and len(table.events) <= KEEP


@pytest.mark.slow
def test_the_readers_bench_runs_its_phases_in_turn() -> None:
    """benches/server_readers.py on a small run: the old table's record built, its history bounded,
    phases without and with readers in turn, the readers answered and none refused."""
    args = ["--rows", "2000", "--seconds", "2", "--rounds", "1", "--readers", "4"]
    command = [sys.executable, str(BENCHES / "server_readers.py"), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = orjson.loads(done.stdout)
    assert found["rows"] >= 2000 and found["history"]["points"] == 500  # 500 rounds moved the meter
    assert [p["readers"] for p in found["phases"]] == [False, True]
    reading = found["phases"][1]
    assert reading["requests"] > 0 and reading["refused"] == 0 and reading["cpu_ms_a_request"] > 0
    assert reading["server_cpu_share"] > 0 and len(found["load_average"]) == 3
    assert found["ratio"] == round(found["p99_ms_readers"] / found["p99_ms_alone"], 2)
    one_phase_each = [p["p99_ms"] for p in found["phases"]]  # the p99 over each kind's commands
    assert [found["p99_ms_alone"], found["p99_ms_readers"]] == one_phase_each


@pytest.mark.slow
def test_the_readers_bench_has_operators_read_the_office() -> None:
    """benches/server_readers.py --office on a small run: each reader an operator's session, every
    one of its figures and reports answered 200, none refused."""
    args = ["--office", "--rows", "2000", "--seconds", "2", "--rounds", "1", "--readers", "3", "--addresses", "3"]
    command = [sys.executable, str(BENCHES / "server_readers.py"), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = orjson.loads(done.stdout)
    reading = found["phases"][1]
    assert found["office"] is True and found["endpoints"] == 4
    assert reading["requests"] > 0 and reading["refused"] == 0 and reading["not_ok"] == 0


def test_a_bench_records_its_own_row_in_place_or_at_its_sections_end() -> None:
    """`record.replaced`: a row with the `id` of one in the file takes its place; a new one goes
    after the last row of its section; either way the figures script reads the file back."""
    record = _bench("record")
    spec = importlib.util.spec_from_file_location("figures_table", BENCHES.parent / "docs" / "figures_table.py")
    assert spec is not None and spec.loader is not None
    figures = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = figures  # where its dataclasses look themselves up
    spec.loader.exec_module(figures)
    text = (
        'machine = "m"\n\n[machines.m]\nprocessor = "p"\ncores = 2\ndate = "d"\n\n# A\n\n'
        '[[row]]\nid = "a-1"\nsection = "A"\nwhat = "old"\nvalue = 1\nunit = "s"\ncommand = "c"\n\n'
        '[[row]]\nsection = "A"\nwhat = "kept"\nvalue = 2\nunit = "s"\ncommand = "c"\n\n'
        '# B\n\n[[row]]\nsection = "B"\nwhat = "b"\nvalue = 3\nunit = "s"\ncommand = "c"\n'
    )
    row = {"section": "A", "what": "new", "values": {"clients-1000": 2.31, "hold'em": 1}, "unit": "x", "command": "c"}
    text = record.replaced(text, row | {"id": "a-1", "note": 'a "quoted" note'})
    text = record.replaced(text, row | {"id": "a-2", "commit": "abc", "files": ["benches/x.py"]})
    rows = figures.parse(tomllib.loads(text)).rows
    assert [(r.section, r.what, r.id) for r in rows] == [
        ("A", "new", "a-1"),
        ("A", "kept", None),
        ("A", "new", "a-2"),
        ("B", "b", None),
    ]
    assert rows[0].values == {"clients-1000": 2.31, "hold'em": 1} and rows[0].note == 'a "quoted" note'
    assert rows[2].commit == "abc" and rows[2].files == ("benches/x.py",)
