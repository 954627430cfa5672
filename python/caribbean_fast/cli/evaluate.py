"""``caribbean-fast eval CARDS``: the best five, class and strength of one hand."""

from __future__ import annotations

import argparse

from ..hands import evaluate


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("eval", help="evaluate a hand of 5 to 7 cards, e.g. As Kd Qh Jc Th 9s 2d")
    parser.add_argument("cards", nargs="+", help="cards such as As, td or 10h")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    value = evaluate(" ".join(args.cards))
    print(f"best five: {value.text}")
    print(f"class:     {value.hand_class.label}")
    print(f"strength:  {value.strength}")
    print(f"hand:      {value.describe()}")
    return 0
