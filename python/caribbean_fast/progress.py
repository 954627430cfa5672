"""How long work tells its caller how far it has got, without drawing anything itself: the library
calls a `ProgressCallback` with (done, total), and the command line turns those calls into a rich
progress bar (`cli.progress`). A notebook passes its own, or none."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from .errors import ArgumentTypeError

__all__ = ["ProgressCallback", "checked_progress"]

ProgressCallback: TypeAlias = Callable[[int, int], None]
"""Called with (done, total) in the work's own unit (rounds, sessions, steps of an enumeration):
done never decreases, and the last call has done == total when the work completes."""


def checked_progress(progress: object) -> ProgressCallback | None:
    """None, or a callable taking (done, total): anything else (`False`, a number, a bar that is
    not callable) is refused before any work, as every function with a `progress` refuses it."""
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(
            f"progress: a callable taking (done, total), or None, not {type(progress).__name__} {progress!r:.60}"
        )
    return progress
