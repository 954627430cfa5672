"""The command line's progress bars: the library reports (done, total) to a callback, and here a
rich bar on the terminal draws it. Nothing is drawn when stderr is not a terminal (a pipe, a log,
the tests)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress

from ..progress import ProgressCallback

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(label: str) -> Iterator[ProgressCallback | None]:
    """A callback that moves a transient bar labelled `label` on stderr while the block runs; None
    (no callback, no bar) when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def show(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield show
