"""How long work tells its caller how far it has got, without drawing anything itself: the library
calls a `ProgressCallback` with (done, total), and the command line turns those calls into a rich
progress bar (`cli.progress`). A notebook passes its own, or none."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

__all__ = ["ProgressCallback"]

ProgressCallback: TypeAlias = Callable[[int, int], None]
"""Called with (done, total) in the work's own unit (rounds, sessions, steps of an enumeration):
done never decreases, and the last call has done == total when the work completes."""
