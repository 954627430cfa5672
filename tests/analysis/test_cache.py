"""The user's cache of counted tables (analysis/cache.py): arrays kept as .npy files, read back
mapped and read-only, written whole or not at all; and the second `analyze` of a paytable of a
counted shape, in a new process, reads its situations and merged rows from there."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from caribbean_fast import HandClass, analyze, load_variant
from caribbean_fast.analysis.cache import cached_files
from caribbean_fast.analysis.report import par_sheet_dict
from caribbean_fast.variants import Variant


class Counter:
    """A build that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, npt.NDArray[Any]]:
        self.calls += 1
        return {"counts": np.arange(12, dtype=np.int32).reshape(4, 3), "seconds": np.array(1.5)}


NAMES = ("counts", "seconds")


def test_kept_arrays_are_read_back_mapped_and_read_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARIBBEAN_FAST_CACHE", str(tmp_path))
    build = Counter()
    first = cached_files("test", "a key", NAMES, build)
    again = cached_files("test", "a key", NAMES, build)
    assert build.calls == 1
    for arrays in (first, again):
        assert (arrays["counts"] == np.arange(12).reshape(4, 3)).all() and arrays["counts"].dtype == np.int32
        assert float(arrays["seconds"]) == 1.5
        assert not arrays["counts"].flags.writeable  # a counted table is nobody's to change
    (folder,) = tmp_path.iterdir()  # one folder, nothing half-written left beside it
    assert sorted(p.name for p in folder.iterdir()) == ["counts.npy", "seconds.npy"]
    cached_files("test", "another key", NAMES, build)
    assert build.calls == 2


def test_a_broken_folder_is_counted_again_and_replaced(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARIBBEAN_FAST_CACHE", str(tmp_path))
    build = Counter()
    cached_files("test", "a key", NAMES, build)
    (folder,) = tmp_path.iterdir()
    (folder / "counts.npy").write_bytes(b"not an array")
    (folder / "seconds.npy").unlink()
    assert (cached_files("test", "a key", NAMES, build)["counts"] == np.arange(12).reshape(4, 3)).all()
    assert build.calls == 2
    cached_files("test", "a key", NAMES, build)
    assert build.calls == 2  # whole again
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]


def test_a_cache_that_cannot_be_written_is_counted_around(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("CARIBBEAN_FAST_CACHE", str(blocked / "cache"))
    build = Counter()
    for _ in range(2):
        assert (cached_files("test", "a key", NAMES, build)["counts"] == np.arange(12).reshape(4, 3)).all()
    assert build.calls == 2


def _changed(variant: Variant, more: int) -> Variant:
    """The variant with its royal flush paying `more` more (hold'em's ante, stud's raise)."""
    if variant.family.value == "holdem":
        ante = dict(variant.ante_paytable)
        ante[HandClass.ROYAL_FLUSH] += more
        return replace(variant, ante_paytable=ante)
    raise_ = dict(variant.raise_paytable)
    raise_[HandClass.ROYAL_FLUSH] += more
    return replace(variant, raise_paytable=raise_)


FRESH = """
import json, sys
from dataclasses import replace
from caribbean_fast import _core, HandClass, analyze, load_variant
from caribbean_fast.analysis import resettle
from caribbean_fast.analysis.report import par_sheet_dict

def counted_again(*args, **kwargs):
    raise AssertionError("counted again: the cache was not read")

_core.stud_situations = _core.holdem_situations = resettle._stud_arrays = counted_again
variant = load_variant(sys.argv[1])
part = "ante_paytable" if variant.family.value == "holdem" else "raise_paytable"
pays = dict(getattr(variant, part))
pays[HandClass.ROYAL_FLUSH] += int(sys.argv[2])
sheet = par_sheet_dict(analyze(replace(variant, **{part: pays})))
sheet.pop("seconds")
print(json.dumps(sheet))
"""


@pytest.mark.parametrize("name", ["cyberstud", "caribbean-poker", "casino-holdem"])
def test_a_new_process_analyzes_a_changed_paytable_from_the_cache(name: str) -> None:
    """Once a shape is counted (here, in this process, into the tests' cache folder), a new
    process's `analyze` of another paytable of it enumerates nothing and merges nothing: the Rust
    enumerations and the merge fail there. Its par sheet is this process's, figure for figure."""
    variant = load_variant(name)
    analyze(variant)
    out = subprocess.run([sys.executable, "-c", FRESH, name, "3"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    here = par_sheet_dict(analyze(_changed(variant, 3)))
    here.pop("seconds")
    assert json.loads(out.stdout) == json.loads(json.dumps(here))
