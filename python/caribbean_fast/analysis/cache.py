"""The user's cache of tables the package counted: tables that are slow to count and are the same
for every use of a variant (the trainer's hold'em tables) are kept on disk, keyed by the variant
and the package's version, so that a server's first hold'em decision gets advice at once. The
folder is `platformdirs.user_cache_dir("caribbean-fast")`, or $CARIBBEAN_FAST_CACHE; deleting it
only costs the counting again.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from ..variants import Variant
from ..variants.toml_io import to_toml

__all__ = ["cache_dir", "cached_arrays", "cached_by_key"]

Arrays = dict[str, npt.NDArray[np.int64]]


def cache_dir() -> Path:
    """Where counted tables are kept: $CARIBBEAN_FAST_CACHE, else the user's cache folder."""
    return Path(os.environ.get("CARIBBEAN_FAST_CACHE") or platformdirs.user_cache_dir("caribbean-fast"))


def _key(kind: str, what: str) -> str:
    from .. import __version__  # the package's own, read when first needed (the package imports this)

    text = f"{kind}\n{__version__}\n{what}"
    return f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:24]}.npz"


def cached_arrays(kind: str, variant: Variant, build: Callable[[], Arrays]) -> Arrays:
    """The arrays `build` counts for the variant (keyed by all of it: `cached_by_key`)."""
    return cached_by_key(kind, to_toml(variant), build)


def cached_by_key(kind: str, key: str, build: Callable[[], Arrays]) -> Arrays:
    """The arrays `build` counts for what `key` names, read from the cache when they are there,
    and written there otherwise (a cache that cannot be read or written is counted around, never
    an error: it is only a cache)."""
    path = cache_dir() / _key(kind, key)
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
