"""The paytable designer's speed: one re-settle of counted tables against a full `analyze` of the
same paytable with every cache cleared, as a ratio from the same run, for stud, hold'em and game 4;
and a whole `tune` to a target over three entries.

Each full analysis runs in a fresh interpreter with an empty cache folder (nothing counted before);
the re-settles run in this process once the counts are made, the median of several.

Run: ``python benches/tune.py`` (prints one JSON object)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from typing import Any

from caribbean_fast import analyze
from caribbean_fast.analysis.resettle import counted
from caribbean_fast.analysis.tune import tune
from caribbean_fast.variants import load_variant

GAMES = {
    "stud": ("cyberstud", ["raise:royal-flush", "raise:straight-flush", "raise:four-of-a-kind"]),
    "holdem": ("casino-holdem", ["ante:royal-flush", "ante:straight-flush", "ante:four-of-a-kind"]),
    "game 4": ("caribbean-poker", ["raise:royal-flush", "raise:straight-flush", "raise:four-of-a-kind"]),
}
RESETTLES = 7


def full_analyze_seconds(name: str) -> float:
    """`analyze` in a fresh interpreter with an empty cache folder: every deal enumerated."""
    with tempfile.TemporaryDirectory() as empty:
        code = (
            f"import time, caribbean_fast as cf; v = cf.load_variant({name!r}); t = time.perf_counter(); "
            "cf.analyze(v); print(time.perf_counter() - t)"
        )
        env = {**os.environ, "CARIBBEAN_FAST_CACHE": empty}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def resettle_seconds(name: str) -> float:
    variant = load_variant(name)
    counts = counted(variant)
    times = []
    for _ in range(RESETTLES):
        start = time.perf_counter()
        counts.main(variant)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def tune_seconds(name: str, adjust: list[str]) -> tuple[float, int]:
    variant = load_variant(name)
    target = analyze(variant).rtp + Fraction(1, 200)
    start = time.perf_counter()
    result = tune(variant, target, adjust)
    return time.perf_counter() - start, result.tries


def main() -> None:
    out: dict[str, Any] = {}
    for game, (name, adjust) in GAMES.items():
        full = full_analyze_seconds(name)
        once = resettle_seconds(name)
        whole, tries = tune_seconds(name, adjust)
        out[game] = {
            "variant": name,
            "full_analyze_s": round(full, 2),
            "resettle_ms": round(1000 * once, 1),
            "ratio": round(full / once),
            "tune_s": round(whole, 2),
            "tune_tries": tries,
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
