"""The paytable designer's speed: one re-settle of counted tables against a full `analyze` of the
same paytable with every cache cleared, as a ratio from the same run, for stud, hold'em and game 4;
a whole `tune` to a target over three entries; and a 5-entry stud tune by today's proven search
against the search of commit f859cf1 (a bisection along one line and the paytables around it),
each run in turn in a fresh interpreter: the old one from that commit's tree in a temporary folder.

Each full analysis runs in a fresh interpreter with an empty cache folder (nothing counted before);
the re-settles run in this process once the counts are made, the median of several.

Run: ``python benches/tune.py`` (prints one JSON object); ``--record`` also writes the bench's rows
of benches/results.toml (`record`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import record

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
FIVE = (
    "cyberstud",
    ["raise:royal-flush", "raise:straight-flush", "raise:four-of-a-kind", "raise:full-house", "raise:flush"],
)
OLD_SEARCH = "f859cf1"  # the last commit with the line-and-neighbourhood search
ROOT = Path(__file__).resolve().parent.parent


def five_entry_seconds(python_path: Path) -> tuple[float, int, str]:
    """The 5-entry stud tune to half a point above the preset, timed in a fresh interpreter whose
    package comes from `python_path` (the counted tables are cached alike for both)."""
    name, adjust = FIVE
    code = (
        "import sys, time; from fractions import Fraction; import caribbean_fast as cf; "
        "from caribbean_fast.analysis.tune import tune; "
        f"t = cf.analyze({name!r}).rtp + Fraction(1, 200); s = time.perf_counter(); "
        f"r = tune({name!r}, t, {adjust!r}); "
        "print(time.perf_counter() - s, getattr(r, 'settles', r.tries), r.chosen.rtp)"
    )
    env = {**os.environ, "PYTHONPATH": str(python_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    seconds, tries, chosen = out.stdout.split()[-3:]
    return float(seconds), int(tries), chosen


def old_package(folder: Path) -> Path:
    """The package as commit f859cf1 had it, with this tree's compiled core."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", OLD_SEARCH, "python"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    core = ROOT / "python" / "caribbean_fast" / "_core.abi3.so"
    shutil.copy(core, folder / "python" / "caribbean_fast" / core.name)
    return folder / "python"


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


def tune_seconds(name: str, adjust: list[str]) -> tuple[float, int, bool, int]:
    """A whole tune: seconds, the search's work in re-settles, whether proven, the grid's size."""
    variant = load_variant(name)
    target = analyze(variant).rtp + Fraction(1, 200)
    start = time.perf_counter()
    result = tune(variant, target, adjust)
    return time.perf_counter() - start, result.settles, result.proven, result.grid_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--record", action="store_true", help="write the bench's rows of results.toml")
    args = parser.parse_args()
    out = run()
    print(json.dumps(out))
    if args.record:
        record.write(rows(out), RECORDED)


RECORDED = [
    "benches/tune.py",
    *(f"python/caribbean_fast/analysis/{m}.py" for m in ("tune", "tune_search", "tune_linear", "tune_exchange")),
    *(f"python/caribbean_fast/analysis/{m}.py" for m in ("resettle", "exchange", "parsheet")),
]
"""The files whose change makes the recorded rows stale."""


def rows(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The bench's rows of benches/results.toml, from one run's figures."""
    section, command = "The paytable designer", "python benches/tune.py"
    games = [(game, out[game]) for game in GAMES]
    keys = {game: game.replace(" ", "-") for game in GAMES}
    ratio_note = "; ".join(
        f"{game} ({g['variant']}): a re-settle {g['resettle_ms']} ms, a full analysis {g['full_analyze_s']} s "
        "with every deal enumerated"
        for game, g in games
    )
    tune_note = "; ".join(
        f"{game} ({g['variant']}, {g['grid']:,} paytables): {'proven' if g['tune_proven'] else 'NOT proven'}, "
        f"the search's work {g['tune_settles']} re-settles"
        for game, g in games
    )
    five = out["five-entry stud tune"]
    return [
        {
            "id": "tune-resettle-ratio",
            "section": section,
            "what": "one re-settle of counted tables against a full `analyze` with every cache cleared",
            "values": {keys[game]: g["ratio"] for game, g in games},
            "unit": "times faster",
            "goal": ">= 100",
            "command": command,
            "readme": True,
            "note": ratio_note,
        },
        {
            "id": "tune-three-entries",
            "section": section,
            "what": "a whole `tune` to a target over three entries",
            "values": {keys[game]: g["tune_s"] for game, g in games},
            "unit": "s",
            "command": command,
            "note": f"the top three pays, half a point above each preset's return; {tune_note}",
        },
        {
            "id": "tune-five-entries",
            "section": section,
            "what": f"a 5-entry stud `tune` against the search of {OLD_SEARCH}, in turn",
            "value": five["ratio"],
            "unit": "times faster",
            "goal": ">= 5",
            "command": command,
            "note": (
                f"{FIVE[0]}'s {', '.join(e.split(':')[1] for e in FIVE[1])}, half a point above the preset: "
                f"proven in {five['proven_s']} s (the search's work {five['proven_settles']} re-settles) against "
                f"{five[f'{OLD_SEARCH}_s']} s ({five[f'{OLD_SEARCH}_tries']} tries, unproven) for {OLD_SEARCH}'s "
                f"search; the proven paytable returns {float(Fraction(five['proven_rtp'])):.6%}, "
                f"{OLD_SEARCH}'s {float(Fraction(five[f'{OLD_SEARCH}_rtp'])):.6%}"
            ),
        },
    ]


def run() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game, (name, adjust) in GAMES.items():
        full = full_analyze_seconds(name)
        once = resettle_seconds(name)
        whole, settles, proven, size = tune_seconds(name, adjust)
        out[game] = {
            "variant": name,
            "full_analyze_s": round(full, 2),
            "resettle_ms": round(1000 * once, 1),
            "ratio": round(full / once),
            "tune_s": round(whole, 2),
            "tune_settles": settles,
            "tune_proven": proven,
            "grid": size,
        }
    with tempfile.TemporaryDirectory() as folder:
        old = old_package(Path(folder))
        new_s, new_tries, new_rtp = five_entry_seconds(ROOT / "python")
        old_s, old_tries, old_rtp = five_entry_seconds(old)
    out["five-entry stud tune"] = {
        "variant": FIVE[0],
        "proven_s": round(new_s, 2),
        "proven_settles": new_tries,
        "proven_rtp": new_rtp,
        f"{OLD_SEARCH}_s": round(old_s, 2),
        f"{OLD_SEARCH}_tries": old_tries,
        f"{OLD_SEARCH}_rtp": old_rtp,
        "ratio": round(old_s / new_s, 1),
    }
    return out


if __name__ == "__main__":
    main()
