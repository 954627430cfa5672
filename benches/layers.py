"""Where a loaded server's CPU goes, by layer (`server_load.py --split`): py-spy samples the
server process (every thread, only the one holding the interpreter lock, without stopping the
process) and each sample's stack is put in one layer, the first of `LAYERS` whose test it meets.

A layer's share of the samples times the run's CPU a command is that layer's µs a command. The
order of `LAYERS` settles a stack that passes through several: the wallets' moves run inside a
commit's job and count as wallets; the engine's views made for frames count as views, the views
sent after a commit as views or frames; the events written by a commit (their JSON, their hash)
as the commit; the engine's commands as the engine.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

PKG = "caribbean_fast/"


def _in(*parts: str) -> Callable[[list[str]], bool]:
    return lambda stack: any(part in frame for frame in stack for part in parts)


WEB = ("starlette/", "uvicorn/", "websockets/", "asyncio/", "httptools/", f"{PKG}server/wire/serving.py")


def _web(stack: list[str]) -> bool:
    """The innermost frame is the web stack's (the socket's reads and writes, the loop's own
    work), or no frame is the package's."""
    return any(part in stack[-1] for part in WEB) or not any(PKG in frame for frame in stack)


LAYERS: list[tuple[str, Callable[[list[str]], bool]]] = [
    ("wallets", _in(f"{PKG}server/store/wallets.py")),
    ("metrics", _in("prometheus_client/", f"{PKG}server/wire/metrics.py")),
    ("views", lambda s: _in(f"{PKG}server/tables/frames.py")(s) and _in(f"{PKG}engine/", f"{PKG}words/")(s)),
    ("frames", _in(f"{PKG}server/tables/frames.py", f"{PKG}server/wire/protocol.py")),  # made, and read
    ("commit", _in(f"{PKG}server/store/", f"{PKG}server/tables/seating.py", "sqlite3", "_commit (", "_committed (")),
    ("engine", _in(f"{PKG}engine/", f"{PKG}variants/", f"{PKG}words/")),
    ("queue", _in(f"{PKG}server/tables/owner.py")),
    ("web stack", _web),  # uvicorn, starlette, websockets, the event loop: what the floor runs too
    ("writers", _in(f"{PKG}server/wire/hub.py")),  # each socket's queue and writer task
    ("routing", _in(f"{PKG}server/")),  # the socket's loop, the command's checks, the gate
    ("other", lambda stack: True),
]
"""The layers in the order a sample is tested against them."""


def start(pid: int, out: Path, seconds: float, rate: int = 200) -> subprocess.Popen[bytes]:
    """py-spy recording the process for `seconds`, its raw stacks to `out`."""
    command = ["py-spy", "record", "--pid", str(pid), "--rate", str(rate), "--format", "raw", "--output", str(out)]
    command += ["--nonblocking", "--gil", "--duration", str(max(1, int(seconds)))]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stacks(raw: str) -> Iterator[tuple[str, list[str], int]]:
    """Each sampled stack of py-spy's raw output (a line a stack: `frame;frame;... count`) with
    its layer and its count of samples."""
    for line in raw.splitlines():
        stack_text, _, count = line.rpartition(" ")
        if not stack_text or not count.isdigit():
            continue
        stack = stack_text.split(";")
        yield next(name for name, meets in LAYERS if meets(stack)), stack, int(count)


def split(raw: str) -> Counter[str]:
    """Samples by layer, from py-spy's raw output."""
    found: Counter[str] = Counter()
    for layer, _, count in stacks(raw):
        found[layer] += count
    return found


def hot(raw: str, cpu_us_per_command: float, n: int = 4) -> dict[str, list[tuple[str, float]]]:
    """Each layer's `n` innermost frames that took most, in µs a command: where to look next."""
    by: dict[str, Counter[str]] = {}
    total = 0
    for layer, stack, count in stacks(raw):
        by.setdefault(layer, Counter())[stack[-1]] += count
        total += count
    return {
        layer: [(frame, round(cpu_us_per_command * k / total, 1)) for frame, k in found.most_common(n)]
        for layer, found in by.items()
    }


def per_command(samples: Counter[str], cpu_us_per_command: float) -> dict[str, float]:
    """Each layer's µs a command: its share of the samples times the CPU a command, in `LAYERS`'
    order, with the samples counted."""
    total = sum(samples.values())
    shares = {name: round(cpu_us_per_command * samples[name] / total, 1) if total else 0.0 for name, _ in LAYERS}
    return shares | {"samples": total}
