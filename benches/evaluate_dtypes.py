"""`evaluate_many` on each integer dtype against uint8 (issue 35): the time of each, taken in turn
(every repetition times every dtype once, so that the host's drift touches all alike), and the
memory one call takes beyond its input, to show that no dtype is converted to a copy first.

Run: ``python benches/evaluate_dtypes.py [--rows 5e6] [--repeats 7]``. It prints JSON:

- ``seconds``: each dtype's median time over the repetitions (``range``: the fastest and the
  slowest), and ``ratio_to_uint8`` that over uint8's (the issue's goal: 1.5 or less);
- ``one_read_ratio``: the time of one numpy pass over the array (``array.max()``) over uint8's
  evaluation: the least that reading the dtype's bytes from memory costs. An int64 batch is eight
  times uint8's bytes, so where this is near or above the goal, memory and not the core sets the
  ratio;
- ``memory``: per dtype, measured in a process of its own holding only that array, the growth of
  the peak resident set over one call (``rss_growth_bytes``) and the peak of Python's and numpy's
  allocations during it (``traced_peak_bytes``, by tracemalloc), beside the array's size and the
  output's.
  The output (two bytes a row) is allocated by the core, so it shows in the first and not the
  second; a hidden copy of the batch would show in both.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any

import numpy as np
import numpy.typing as npt

from caribbean_fast import evaluate_many

from host import describe

DTYPES = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64")
GOAL = 1.5
CHUNK_ROWS = 4096  # rows of random hands made at a time: their temporaries stay small


def hands(rows: int, dtype: str, seed: int) -> npt.NDArray[np.integer[Any]]:
    """`rows` random 7-card hands (7 distinct ids a row), made straight into `dtype`."""
    rng = np.random.default_rng(seed)
    out = np.empty((rows, 7), dtype=dtype)
    for start in range(0, rows, CHUNK_ROWS):
        n = min(CHUNK_ROWS, rows - start)
        out[start : start + n] = np.argsort(rng.random((n, 52), dtype=np.float32), axis=1)[:, :7]
    return out


def _peak_rss_bytes() -> int:
    """This process's peak resident set: Linux's VmHWM, which (unlike ru_maxrss) does not start
    from the parent's peak when a process is spawned; ru_maxrss where there is no /proc."""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


def memory_of(rows: int, dtype: str, seed: int) -> dict[str, int]:
    """One call's memory beyond its input, in this process (which holds nothing else)."""
    cards = hands(rows, dtype, seed)
    evaluate_many(cards[:10])  # whatever a first call caches
    before = _peak_rss_bytes()
    tracemalloc.start()
    try:
        out = evaluate_many(cards)
        traced_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {
        "array_bytes": cards.nbytes,
        "output_bytes": out.nbytes,
        "rss_growth_bytes": _peak_rss_bytes() - before,
        "traced_peak_bytes": traced_peak,
    }


def _memory_in_a_process(rows: int, dtype: str, seed: int) -> dict[str, int]:
    command = [sys.executable, __file__, "--rows", str(rows), "--seed", str(seed), "--memory-of", dtype]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result: dict[str, int] = json.loads(done.stdout)
    return result


def timings(rows: int, dtypes: list[str], repeats: int, seed: int) -> dict[str, Any]:
    """Median seconds of each dtype's evaluation, the dtypes taken in turn in each repetition."""
    base = hands(rows, "uint8", seed)
    arrays = {d: base.astype(d) for d in dtypes}
    expected = evaluate_many(base)
    for d, cards in arrays.items():
        if not np.array_equal(evaluate_many(cards), expected):
            raise SystemExit(f"{d}: strengths differ from uint8's")
    seconds: dict[str, list[float]] = {d: [] for d in dtypes}
    reads: dict[str, list[float]] = {d: [] for d in dtypes}
    for _ in range(repeats):
        for d, cards in arrays.items():
            start = time.perf_counter()
            evaluate_many(cards)
            seconds[d].append(time.perf_counter() - start)
            start = time.perf_counter()
            cards.max()
            reads[d].append(time.perf_counter() - start)
    median = {d: statistics.median(s) for d, s in seconds.items()}
    uint8 = median["uint8"]
    return {
        "seconds": {d: round(s, 5) for d, s in median.items()},
        "ratio_to_uint8": {d: round(s / uint8, 3) for d, s in median.items()},
        "one_read_ratio": {d: round(statistics.median(r) / uint8, 3) for d, r in reads.items()},
        "range": {d: f"{min(s):.5f} to {max(s):.5f}" for d, s in seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, default=5e6)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--dtypes", nargs="*", default=list(DTYPES), choices=DTYPES)
    parser.add_argument("--memory-of", choices=DTYPES, help=argparse.SUPPRESS)  # the child process's job
    args = parser.parse_args()
    rows = int(args.rows)
    if args.memory_of:
        print(json.dumps(memory_of(rows, args.memory_of, args.seed)))
        return
    if args.repeats < 1 or rows < 1:
        parser.error("--rows and --repeats must be at least 1")
    dtypes = ["uint8", *(d for d in args.dtypes if d != "uint8")]
    report: dict[str, Any] = {"rows": rows, "cards": 7, "repeats": args.repeats, "goal_ratio": GOAL}
    report["host"] = describe()
    memory = {d: _memory_in_a_process(rows, d, args.seed) for d in dtypes}  # while this process is small
    report.update(timings(rows, dtypes, args.repeats, args.seed))
    report["within_goal"] = {d: r <= GOAL for d, r in report["ratio_to_uint8"].items()}
    report["memory"] = memory
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
