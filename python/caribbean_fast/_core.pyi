"""Type stubs of the Rust extension module (rust/py/)."""

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

DISTINCT_STRENGTHS: int

def evaluate_many(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]: ...
def best_five(cards: list[int]) -> tuple[int, bytes]: ...
def class_of(strength: int) -> int: ...
def class_floors() -> list[int]: ...
def strength_histogram_all(size: int) -> npt.NDArray[np.uint64]: ...
def stud_situations(
    qualifier: int, progress: Callable[[float], None] | None = None
) -> dict[str, npt.NDArray[np.generic]]: ...
def holdem_situations(
    qualifier: int, progress: Callable[[float], None] | None = None
) -> dict[str, npt.NDArray[np.generic]]: ...

CHUNK_ROUNDS: int

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
    def cells(self) -> int: ...
    def run(
        self, seed: int, start: int, end: int, total: int, threads: int | None = None
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
