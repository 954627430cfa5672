"""The second `analyze` of a game (issue 36): a paytable of a shape already counted, with its royal
flush paying one more each time, so that no par sheet is reused.

In one cache folder, empty at the start: a first process analyzes the preset (every deal counted
and kept), then analyzes changed paytables (`same_process_s`); then new processes each analyze
another changed paytable from the kept counts (`new_process_s`, the `analyze` call alone, and
`new_process_wall_s`, the interpreter's start and imports too). Medians of `RUNS`.

Run: ``python benches/second_analyze.py`` (prints one JSON object)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from typing import Any

from caribbean_fast import HandClass, Variant, analyze, load_variant

GAMES = {"stud": "cyberstud", "holdem": "casino-holdem", "game 4": "caribbean-poker"}
RUNS = 3


def changed(name: str, more: int) -> Variant:
    """The preset with its royal flush paying `more` more (hold'em's ante, stud's raise)."""
    variant = load_variant(name)
    if variant.family.value == "holdem":
        ante = dict(variant.ante_paytable)
        ante[HandClass.ROYAL_FLUSH] += more
        return replace(variant, ante_paytable=ante)
    raise_ = dict(variant.raise_paytable)
    raise_[HandClass.ROYAL_FLUSH] += more
    return replace(variant, raise_paytable=raise_)


def analyze_seconds(variant: Variant) -> float:
    start = time.perf_counter()
    analyze(variant)
    return time.perf_counter() - start


def first_process(name: str) -> dict[str, float]:
    """Run in a process of its own: the preset counted, then `RUNS` changed paytables."""
    first = analyze_seconds(load_variant(name))
    return {
        "first_s": first,
        "same_process_s": statistics.median(analyze_seconds(changed(name, k)) for k in range(1, RUNS + 1)),
    }


def run(args: list[str], cache: str) -> tuple[str, float]:
    env = {**os.environ, "CARIBBEAN_FAST_CACHE": cache}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=True)
    return out.stdout, time.perf_counter() - start


def game(name: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as cache:
        out, _ = run(["--first", name], cache)
        figures = json.loads(out)
        news = [run(["--new", name, str(RUNS + k)], cache) for k in range(1, RUNS + 1)]
    figures["new_process_s"] = statistics.median(float(out) for out, _ in news)
    figures["new_process_wall_s"] = statistics.median(wall for _, wall in news)
    return {"variant": name} | {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


def main() -> None:
    if sys.argv[1:2] == ["--first"]:
        print(json.dumps(first_process(sys.argv[2])))
    elif sys.argv[1:2] == ["--new"]:
        print(analyze_seconds(changed(sys.argv[2], int(sys.argv[3]))))
    else:
        print(json.dumps({label: game(name) for label, name in GAMES.items()}, indent=2))


if __name__ == "__main__":
    main()
