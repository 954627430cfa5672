"""Type stubs of the Rust extension module (rust/py/)."""

from collections.abc import Callable, Sequence
from typing import Any, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "CHUNK_ROUNDS",
    "DISTINCT_STRENGTHS",
    "HOLDEM_CLASS_SLOTS",
    "HOLDEM_DEALS_PER_FLOP",
    "MAX_EXCHANGES",
    "MAX_SEATS",
    "SHOWDOWNS",
    "SIM_AXES",
    "SIM_OUTCOMES",
    "STUD_DEALER_HANDS",
    "Simulator",
    "best_five",
    "class_floors",
    "class_of",
    "deck_commitment",
    "deck_leaves",
    "evaluate_many",
    "holdem_situations",
    "one_exchange_counts",
    "position_salts",
    "seed_deck",
    "strength_histogram_all",
    "stud_situations",
]

DISTINCT_STRENGTHS: int
SHOWDOWNS: list[str]
HOLDEM_CLASS_SLOTS: list[int]
STUD_DEALER_HANDS: int
HOLDEM_DEALS_PER_FLOP: int
SIM_AXES: list[str]
SIM_OUTCOMES: list[str]
MAX_SEATS: int
MAX_EXCHANGES: int

def evaluate_many(cards: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint16]: ...
def best_five(cards: Sequence[int]) -> tuple[int, bytes]: ...
def class_of(strength: int) -> int: ...
def class_floors() -> list[int]: ...
def strength_histogram_all(size: int) -> npt.NDArray[np.uint64]: ...
def seed_deck(seed: bytes) -> bytes: ...
def deck_leaves(seed: bytes, deck: Sequence[int]) -> bytes: ...
def deck_commitment(seed: bytes, deck: Sequence[int]) -> tuple[bytes, list[str], str]: ...
def position_salts(seed: bytes, positions: Sequence[int]) -> bytes: ...
def stud_situations(
    qualifier: int, progress: Callable[[float], None] | None = None
) -> dict[str, npt.NDArray[np.generic]]: ...
def holdem_situations(
    qualifier: int, progress: Callable[[float], None] | None = None
) -> dict[str, npt.NDArray[np.generic]]: ...
def one_exchange_counts(
    qualifier: int,
    up_rank: int,
    exchanged: npt.NDArray[np.uint8],
    finals: npt.NDArray[np.uint8],
    calls: npt.NDArray[np.bool_],
    out: bool = True,
    progress: Callable[[float], None] | None = None,
) -> dict[str, npt.NDArray[np.uint64]]: ...

CHUNK_ROUNDS: int

@final
class Simulator:
    @staticmethod
    def stud(
        seats: int,
        qualifier: int,
        first_cuts: list[int],
        class_cuts: list[int],
        threshold: int | None = None,
        up_rank: npt.NDArray[np.uint8] | None = None,
        hands: npt.NDArray[np.uint8] | None = None,
        raises: npt.NDArray[np.bool_] | None = None,
        exchange: tuple[str, int, int] | None = None,
        exchange_from: npt.NDArray[np.uint8] | None = None,
        seen: tuple[list[list[float]], list[list[float]], float] | None = None,
    ) -> Simulator: ...
    @staticmethod
    def holdem(
        qualifier: int,
        first_cuts: list[int],
        class_cuts: list[int],
        cards: npt.NDArray[np.uint8] | None = None,
        calls: npt.NDArray[np.bool_] | None = None,
        call_all: bool | None = None,
    ) -> Simulator: ...
    @property
    def shape(self) -> list[int]: ...
    def run(
        self, seed: int, start: int, end: int, total: int, threads: int | None = None
    ) -> npt.NDArray[np.uint64]: ...
    def paired(
        self, other: Simulator, seed: int, start: int, end: int, total: int, threads: int | None = None
    ) -> npt.NDArray[np.uint64]: ...
    def sessions(
        self,
        seed: int,
        start: int,
        end: int,
        rounds: int,
        nets: list[float],
        bankroll: float,
        worst_loss: float,
        threads: int | None = None,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]: ...
