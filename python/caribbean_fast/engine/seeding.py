"""The seats' own entropy in the deal (the rules' fourth edition): commit, close, reveal, deal.

The house commits to its deck (the root every seat sees) before any seat adds a seed, so it cannot
fit the deck to the seeds. A seat adds one by committing to it (`commit_seed`: the SHA-256 of the
seed's bytes) while bets are open; when the deal is asked for, bets close and every dealt seat that
committed reveals its seed (`reveal_seed`), the deal coming with the last reveal. Seeds are
revealed only once every commitment is in and none can change, so nobody, the house included,
chooses a seed knowing another's: the seat that would choose last has already committed. A seat
that withholds its reveal past `REVEAL_SECONDS` cannot stop the round: its seed counts as empty and
the round is dealt from the others' (`fairness.cut`). Withholding is the one choice left to a seat
that has seen the others' seeds (two deals, both fixed before it saw them), and the record shows it.
"""

from __future__ import annotations

import re

from ..errors import IllegalActionError
from .commands import COMMIT_SEED, REVEAL_SEED, handles
from .core import TableCore, illegal
from .fairness import SEED_MOST, seed_commitment
from .state import EventKind, Phase

__all__ = ["REVEAL_SECONDS", "SEEDS_EDITION", "Seeding"]

REVEAL_SECONDS = 10.0
"""How long the deal waits, once bets close, for a committed seat's seed (then it counts as empty)."""
SEEDS_EDITION = 4
"""The rules' edition from which the seats add seeds (`core.EDITION`)."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX = re.compile(rf"(?:[0-9a-f]{{2}}){{1,{SEED_MOST}}}")


class Seeding(TableCore):
    def _check_commit_seed(self, seat: int, commitment: str) -> None:
        self._open()
        self._seat(seat)
        illegal(self.edition < SEEDS_EDITION, f"this table plays by the rules' edition {self.edition}: no seat's seed")
        illegal(
            self.phase is not Phase.BETTING, "a seat adds its seed while bets are open, after the round's commitment"
        )
        illegal(bool(self.state.round.sealed), "bets are closed: the seats are revealing their seeds")
        if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
            shown = f"{commitment!r:.80}"
            raise IllegalActionError(f"a seed's commitment is its SHA-256 in 64 lowercase hex digits, not {shown}")

    @handles(COMMIT_SEED)
    def _commit_seed(self, seat: int, commitment: str) -> None:
        """A seat commits to a seed of its own (again: the later commitment holds)."""
        self._check_commit_seed(seat, commitment)
        self._emit(EventKind.SEED_COMMITTED, seat, {"commitment": commitment})

    def _check_reveal_seed(self, seat: int, seed: str) -> None:
        self._open()
        r = self.state.round
        illegal(not r.sealed, "no seed is being revealed: a seat reveals its seed once bets close")
        illegal(self._seat(seat) not in self._unrevealed(), f"seat {seat} has no seed to reveal this round")
        if not isinstance(seed, str) or not _HEX.fullmatch(seed):
            raise IllegalActionError(f"a seed is 1 to {SEED_MOST} bytes in lowercase hex, not {seed!r:.80}")
        illegal(seed_commitment(seed) != r.committed[seat], f"seat {seat}'s seed does not open its commitment")

    @handles(REVEAL_SEED)
    def _reveal_seed(self, seat: int, seed: str) -> None:
        """Reveals the seed the seat committed to; the last reveal deals the round."""
        self._check_reveal_seed(seat, seed)
        self._emit(EventKind.SEED_REVEALED, seat, secret={"seed": seed})
        if not self._unrevealed():
            self._deal_sealed()

    def _unrevealed(self) -> list[int]:
        r = self.state.round
        held = self.state.seats
        return [k for k in r.sealed if k in r.committed and k not in r.revealed_seeds and held[k].bets.ante]

    def _deal_or_seal(self, dealt: list[int]) -> None:
        """Deals `dealt`, or (a dealt seat committed to a seed) closes bets for the reveals first."""
        if any(k in self.state.round.committed for k in dealt):
            self._emit(EventKind.SEALED, None, {"seats": dealt})
            if not self._unrevealed():  # every committed seat's seed is in already: never, but safe
                self._deal_sealed()
        else:
            self._deal_seats(dealt)

    def _deal_sealed(self) -> None:
        """Deals the seats bets closed on (those still holding an ante), with the seeds revealed;
        a seed withheld counts as empty."""
        r = self.state.round
        dealt = [k for k in r.sealed if self.state.seats[k].bets.ante]
        if dealt:
            self._deal_seats(dealt)
        else:
            self._void("no ante was left when the seeds were in")

    def _deal_seats(self, dealt: list[int]) -> None:
        raise NotImplementedError  # `rounds.Rounds`

    def _void(self, reason: str) -> None:
        raise NotImplementedError  # `rounds.Rounds`
