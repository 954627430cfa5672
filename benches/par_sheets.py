"""Cold-start par sheet timings: each analysis runs in a fresh interpreter with an empty cache
folder (nothing counted before), and its wall time and peak memory are printed beside the targets.

Run: ``python benches/par_sheets.py``
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

from rich.console import Console
from rich.table import Table

JOBS = {
    "cyberstud": ("Caribbean Stud, every deal (19,933,230,517,200)", 10.0),
    "casino-holdem": ("Casino Hold'em, every deal (27,813,810,024,000)", 120.0),
}
SCRIPT = (
    "import sys; from caribbean_fast import analyze, load_variant; print(float(analyze(load_variant(sys.argv[1])).rtp))"
)


def main() -> None:
    table = Table(title="Par sheet from a cold start (fresh process, 2 cores)")
    for column in ("variant", "what", "seconds", "target", "peak memory", "return to player"):
        table.add_column(column)
    for name, (what, target) in JOBS.items():
        with tempfile.TemporaryDirectory() as empty:
            env = {**os.environ, "CARIBBEAN_FAST_CACHE": empty}
            start = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-c", SCRIPT, name], env=env, capture_output=True, text=True, check=True
            )
            secs = time.perf_counter() - start
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        table.add_row(
            name,
            what,
            f"{secs:.1f}",
            f"<= {target:.0f} s",
            f"{peak_mib:.0f} MiB (target < 2048)",
            f"{float(out.stdout) * 100:.4f}%",
        )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
