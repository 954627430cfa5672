"""The user's cache of tables the package counted: tables that are slow to count and are the same
for every use of a variant (the trainer's hold'em tables), or of every variant of a qualifier (the
exact enumeration's situations), are kept on disk, keyed by what they depend on and the package's
version, so that a server's first hold'em decision gets advice at once and a new process's
`analyze` enumerates nothing counted before. The folder is
`platformdirs.user_cache_dir("caribbean-fast")`, or $CARIBBEAN_FAST_CACHE; deleting it only costs
the counting again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import platformdirs

from ..variants import Variant
from ..variants.toml_io import to_toml

__all__ = ["cache_dir", "cached_arrays", "cached_by_key", "cached_files", "is_cached"]

Arrays = dict[str, npt.NDArray[np.int64]]
AnyArrays = dict[str, npt.NDArray[Any]]


def cache_dir() -> Path:
    """Where counted tables are kept: $CARIBBEAN_FAST_CACHE, else the user's cache folder."""
    return Path(os.environ.get("CARIBBEAN_FAST_CACHE") or platformdirs.user_cache_dir("caribbean-fast"))


def _name(kind: str, what: str) -> str:
    from .. import __version__  # the package's own, read when first needed (the package imports this)

    text = f"{kind}\n{__version__}\n{what}"
    return f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def cached_arrays(kind: str, variant: Variant, build: Callable[[], Arrays]) -> Arrays:
    """The arrays `build` counts for the variant (keyed by all of it: `cached_by_key`)."""
    return cached_by_key(kind, to_toml(variant), build)


def cached_by_key(kind: str, key: str, build: Callable[[], Arrays]) -> Arrays:
    """The arrays `build` counts for what `key` names, read from the cache when they are there,
    and written there otherwise (a cache that cannot be read or written is counted around, never
    an error: it is only a cache)."""
    path = cache_dir() / f"{_name(kind, key)}.npz"
    try:
        with np.load(path) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError, EOFError):
        pass
    arrays = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as out:
            np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
        os.replace(out.name, path)  # whole or not at all: another process may read it meanwhile
    except OSError:
        pass
    return arrays


def is_cached(kind: str, key: str) -> bool:
    """Whether `cached_by_key` would read the arrays of `key` rather than count them."""
    return (cache_dir() / f"{_name(kind, key)}.npz").is_file()


def cached_files(kind: str, key: str, names: Collection[str], build: Callable[[], AnyArrays]) -> AnyArrays:
    """The arrays `build` counts for what `key` names (`names` among them), kept as a folder of
    uncompressed .npy files and read back mapped: a read costs nothing until rows are used, and
    processes share the pages (compressed files would take seconds to read for hundreds of MB).
    The arrays given back are read-only, counted or read. A cache that cannot be read or written
    is counted around, as `cached_by_key`'s."""
    folder = cache_dir() / _name(kind, key)
    stored = _read_folder(folder, names)
    if stored is not None:
        return stored
    arrays = build()
    for array in arrays.values():
        array.setflags(write=False)  # as the mapped ones: nobody changes a counted table
    _write_folder(folder, arrays)
    return _read_folder(folder, names) or arrays  # mapped: the counted copies can go


def _read_folder(folder: Path, names: Collection[str]) -> AnyArrays | None:
    """The folder's arrays, mapped read-only (plain arrays over the maps, not `np.memmap`s), or
    None where one is missing or unreadable."""
    try:
        return {name: np.asarray(np.load(folder / f"{name}.npy", mmap_mode="r")) for name in names}
    except (OSError, ValueError, EOFError):
        return None


def _write_folder(folder: Path, arrays: AnyArrays) -> None:
    """Written whole into a folder of its own, then renamed into place: a reader sees all of it
    or none of it (another process may read or write the same tables meanwhile)."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=folder.parent, suffix=".tmp"))
    except OSError:
        return
    try:
        for name, array in arrays.items():
            np.save(staging / f"{name}.npy", array, allow_pickle=False)
        if _read_folder(folder, arrays) is None:  # not there, or broken: this copy replaces it
            shutil.rmtree(folder, ignore_errors=True)
            os.replace(staging, folder)
    except OSError:  # full or unwritable: the tables are counted again next time
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already once renamed
