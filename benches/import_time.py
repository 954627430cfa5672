"""What `import caribbean_fast` costs beside `import numpy`, the floor it cannot go under (the
package imports numpy): each import runs in a fresh interpreter, the two in turn so that a busy
host slows both alike, and the medians' ratio is printed as JSON with the heavy modules the
import left loaded (none is the goal: they load when first used).

Run: ``python benches/import_time.py [--pairs 20]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

HEAVY = (
    "rich",
    "importlib.metadata",
    "caribbean_fast.analysis",
    "caribbean_fast.simulation",
    "caribbean_fast.engine",
    "caribbean_fast.server",
    "caribbean_fast.variants",
    "caribbean_fast.settlement",
)
"""Modules that `import caribbean_fast` should not load: they load when a name needs them."""

GOAL = 1.5  # issue 35: at most 1.5 times numpy's own import


def _seconds(statement: str) -> float:
    """The wall time of a fresh interpreter that runs `statement`."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True)
    return time.perf_counter() - start


def _loaded_heavy_modules() -> list[str]:
    """The modules of `HEAVY` in sys.modules after a fresh `import caribbean_fast`."""
    script = f"import sys, caribbean_fast; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    return out.split()


def measure(pairs: int) -> dict[str, object]:
    """The median wall times of `pairs` numpy and caribbean_fast imports, run in turn."""
    _seconds("import caribbean_fast")  # a first run fills the disk cache and writes the bytecode
    numpy, package = [], []
    for _ in range(pairs):
        numpy.append(_seconds("import numpy"))
        package.append(_seconds("import caribbean_fast"))
    numpy_ms, package_ms = 1000 * statistics.median(numpy), 1000 * statistics.median(package)
    return {
        "pairs": pairs,
        "numpy_ms": round(numpy_ms, 1),
        "caribbean_fast_ms": round(package_ms, 1),
        "ratio": round(package_ms / numpy_ms, 3),
        "goal": GOAL,
        "heavy_modules_loaded": _loaded_heavy_modules(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20, help="fresh imports of each, in turn (default 20)")
    print(json.dumps(measure(parser.parse_args().pairs), indent=2))


if __name__ == "__main__":
    main()
