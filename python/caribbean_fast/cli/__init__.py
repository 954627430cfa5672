"""The ``caribbean-fast`` command: one sub-command per job, each a thin layer over the API
(one module each in this package)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..errors import CaribbeanFastError
from . import analyze, evaluate, office, play, plot, serve, simulate, table, tune, variants
from .arguments import OneLineParser

Command = Callable[[argparse.Namespace], int]


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="caribbean-fast", description=__doc__)
    parser.add_argument("--version", action="version", version=f"caribbean-fast {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in (evaluate, variants, analyze, tune, simulate, table, play, plot, serve, office):
        module.add_parser(commands)
    return parser


def _fail(reason: str) -> int:
    """Every error of the package, and of the files a user names, is one line and exit status 2."""
    line = "; ".join(part.strip() for part in reason.splitlines() if part.strip())
    print(f"caribbean-fast: error: {line}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (2 for bad input, with the reason)."""
    args = _parser().parse_args(argv)
    run: Command = args.run
    try:
        return run(args)
    except BrokenPipeError:  # the reader (`| head`) stopped reading: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except CaribbeanFastError as err:
        return _fail(str(err))
    except OSError as err:  # a file the user named that cannot be read or written
        return _fail(f"{err.filename}: {err.strerror}" if err.filename else str(err))


if __name__ == "__main__":
    sys.exit(main())
