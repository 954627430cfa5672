"""The host a benchmark runs on, in one line: the same code's figures move by a third or more
between the hosts behind this 2-core machine (docs/benchmarks.md), so each figure names its host;
and the share of the run's time the hypervisor gave to other machines (steal), which slows the
same host by as much within a session."""

from __future__ import annotations

import os
from pathlib import Path


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def _cpu_field(name: str) -> str:
    """A field of the first processor in /proc/cpuinfo ("" when there is none)."""
    for line in _read("/proc/cpuinfo").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == name:
            return value.strip()
    return ""


def describe() -> str:
    """The processor (its family and model numbers too: a virtual machine may name only the
    maker), its cores, each core's second-level cache, AVX-512 or not, and the load average when
    the run starts (other work on the machine slows a run)."""
    name = _cpu_field("model name") or "unknown processor"
    model = f"{name} (family {_cpu_field('cpu family') or '?'}, model {_cpu_field('model') or '?'})"
    l2 = _read("/sys/devices/system/cpu/cpu0/cache/index2/size").strip() or "?"
    avx512 = "avx512f" in _cpu_field("flags").split()
    load = os.getloadavg()[0]
    return f"{model}, {os.cpu_count()} cores, L2 {l2} a core, {'AVX-512' if avx512 else 'no AVX-512'}, load {load:.2f}"


def cpu_ticks() -> tuple[int, int]:
    """(steal, all) clock ticks of every processor since boot, from /proc/stat ((0, 0) without
    it): user, nice, system, idle, iowait, irq, softirq and steal (a guest's own time is inside
    user)."""
    ticks = [int(f) for f in _read("/proc/stat").partition("\n")[0].split()[1:9]]
    return (ticks[7], sum(ticks)) if len(ticks) == 8 else (0, 0)


def steal_since(start: tuple[int, int]) -> float:
    """The percentage of every processor's time since `start` (`cpu_ticks()`) in which the
    hypervisor ran something else: a figure taken while it is high is a slower machine's. An
    idle processor's time counts in the whole too (it is rarely stolen from), so a run on one of
    two cores shows at most about half of what its own core lost. A counter that went back (a
    hypervisor may move it after a migration) counts as none."""
    steal, total = (now - then for now, then in zip(cpu_ticks(), start, strict=True))
    return 100 * max(steal, 0) / total if total > 0 else 0.0


if __name__ == "__main__":  # the machine's line, for a row of benches/results.toml
    print(describe())
