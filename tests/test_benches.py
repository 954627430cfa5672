"""The benchmark scripts: the host line and steal share (`benches/host.py`), read from fake /proc files,
and the simulation bench's rows over several runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest


def _host() -> ModuleType:
    spec = importlib.util.spec_from_file_location("host", Path(__file__).parents[1] / "benches" / "host.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_steal_is_the_share_of_every_processors_ticks_since_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    host = _host()
    # user nice system idle iowait irq softirq steal, then guest and guest_nice (inside user)
    monkeypatch.setattr(host, "_read", lambda path: "cpu  100 0 50 800 10 0 0 40 7 0\ncpu0 1 2 3\n")
    assert host.cpu_ticks() == (40, 1000)
    assert host.steal_since((20, 500)) == pytest.approx(4.0)  # 20 of 500 ticks
    assert host.steal_since((40, 1000)) == 0.0  # no tick since: no share, no division by zero
    assert host.steal_since((50, 500)) == 0.0  # a steal counter moved back counts as none


def test_without_proc_stat_there_is_no_steal(monkeypatch: pytest.MonkeyPatch) -> None:
    host = _host()
    monkeypatch.setattr(host, "_read", lambda path: "")
    assert host.cpu_ticks() == (0, 0)
    assert host.steal_since((0, 0)) == 0.0


def test_the_simulation_bench_gives_each_row_the_median_and_range_of_its_runs() -> None:
    """The whole script, as the README runs it, on a small run: a row per variant, with the
    median of the runs, their range, and the title saying how many runs."""
    bench = Path(__file__).parents[1] / "benches" / "simulation.py"
    args = ["--rounds", "2e5", "--runs", "3", "--variants", "cyberstud", "--threads", "1"]
    out = subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, check=True).stdout
    assert "200,000 rounds each, seed 7, 1 thread(s), median of 3 runs in turn" in out
    row = next(line for line in out.splitlines() if "cyberstud" in line)
    cells = [cell.strip() for cell in row.strip("│ ").split("│")]
    low, high = (float(x) for x in cells[3].split("-"))
    assert cells[:2] == ["cyberstud", "best"] and low <= float(cells[2]) <= high
