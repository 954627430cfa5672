"""The ``caribbean-fast`` command: one sub-command per job, each a thin layer over the API."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from . import __version__
from .errors import CaribbeanFastError
from .hands import evaluate

Command = Callable[[argparse.Namespace], int]


def _eval(args: argparse.Namespace) -> int:
    value = evaluate(" ".join(args.cards))
    print(f"best five: {value.text}")
    print(f"class:     {value.hand_class.label}")
    print(f"strength:  {value.strength}")
    print(f"hand:      {value.describe()}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="caribbean-fast", description=__doc__)
    parser.add_argument("--version", action="version", version=f"caribbean-fast {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    ev = commands.add_parser("eval", help="evaluate a hand of 5 to 7 cards, e.g. As Kd Qh Jc Th 9s 2d")
    ev.add_argument("cards", nargs="+", help="cards such as As, td or 10h")
    ev.set_defaults(run=_eval)
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


if __name__ == "__main__":
    sys.exit(main())
