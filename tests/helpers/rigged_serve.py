"""`caribbean-fast serve` in a process of its own whose every round is dealt from one stacked deck,
for named deals through real server processes: `python rigged_serve.py "<deck>" serve ...`, the
deck as `tables.stacked_deck` makes it, as card text."""

from __future__ import annotations

import sys

from caribbean_fast.cards import parse_cards
from caribbean_fast.cli import main
from caribbean_fast.engine import state

if __name__ == "__main__":
    deck = parse_cards(sys.argv[1])
    setattr(state, "deck_from_seed", lambda seed: list(deck))  # noqa: B010 (the tests' rig, as `tables.rig`)
    sys.exit(main(sys.argv[2:]))
