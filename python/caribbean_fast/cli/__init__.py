"""The ``caribbean-fast`` command: one sub-command per job, each a thin layer over the API
(one module each in this package)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..errors import CaribbeanFastError
from . import analyze, evaluate, play, plot, serve, simulate, table, variants

Command = Callable[[argparse.Namespace], int]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="caribbean-fast", description=__doc__)
    parser.add_argument("--version", action="version", version=f"caribbean-fast {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in (evaluate, variants, analyze, simulate, table, play, plot, serve):
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (2 for bad input, with the reason)."""
    args = _parser().parse_args(argv)
    run: Command = args.run
    try:
        return run(args)
    except CaribbeanFastError as err:
        print(f"caribbean-fast: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (`| head`) stopped reading: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
