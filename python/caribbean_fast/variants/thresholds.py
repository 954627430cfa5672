"""Hand thresholds: "this hand or better", as a dealer qualifier, a side-bet tier or an automatic
raise. A threshold is written as an alias ("ace-king"), a class name ("flush": the lowest hand of
that class), or the ranks of the lowest qualifying hand ("A K 4 3 2", "4 4 5 3 2")."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import RANKS
from ..errors import VariantError
from ..hands import HandClass, class_floor, evaluate

__all__ = ["ALIASES", "HandThreshold"]

ALIASES: dict[str, str] = {
    "any": "7 5 4 3 2",
    "ace-king": "A K 4 3 2",
    "ace-or-king": "K 5 4 3 2",
    "pair-of-fours": "4 4 5 3 2",
    "pair-of-aces": "A A 4 3 2",
    "pair": "2 2 5 4 3",
}
# Suits for a rank pattern: mixed, so that five ranks never make a flush.
_SUITS = "cdhsc"


def _strength_of_ranks(spec: str) -> int:
    """The strength of five ranks ("A K 4 3 2") dealt in mixed suits."""
    ranks = spec.replace("10", "T").upper().split()
    if len(ranks) != 5 or any(r not in RANKS for r in ranks):
        raise VariantError(
            f"{spec!r} is not a hand: expected an alias ({', '.join(ALIASES)}), a class name, "
            f"or the five ranks of the lowest qualifying hand such as 'A K 4 3 2'"
        )
    if max(ranks.count(r) for r in ranks) > 4:
        raise VariantError(f"{spec!r} is not a hand: no rank appears five times")
    return evaluate([f"{r}{s}" for r, s in zip(ranks, _SUITS, strict=True)]).strength


@dataclass(frozen=True)
class HandThreshold:
    """The lowest hand that counts; every hand of greater or equal strength counts too."""

    spec: str
    strength: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        text = self.spec.strip().lower()
        if text in ALIASES:
            strength = _strength_of_ranks(ALIASES[text])
        elif text.replace("-", "_").replace(" ", "_").upper() in HandClass.__members__:
            hand_class = HandClass.parse(text)
            strength = (
                class_floor(hand_class)
                if hand_class is not HandClass.ACE_KING
                else _strength_of_ranks(ALIASES["ace-king"])
            )
        else:
            strength = _strength_of_ranks(self.spec)
        object.__setattr__(self, "strength", strength)

    def admits(self, strength: int) -> bool:
        """Whether a hand of this strength counts."""
        return strength >= self.strength

    @property
    def description(self) -> str:
        """The lowest hand that counts, in words."""
        text = self.spec.strip().lower()
        ranks = ALIASES.get(text, text)
        return f"{self.spec} (lowest: {ranks.upper()})" if ranks != text or " " in text else self.spec
