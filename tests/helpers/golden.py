"""Reads tests/data/golden_hands.txt, the golden deals shared with the Rust tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GOLDEN = Path(__file__).parents[1] / "data" / "golden_hands.txt"


@dataclass(frozen=True)
class ClassCase:
    cards: str
    hand_class: str


@dataclass(frozen=True)
class CompareCase:
    left: str
    op: str
    right: str


def golden_cases() -> tuple[list[ClassCase], list[CompareCase]]:
    classes: list[ClassCase] = []
    compares: list[CompareCase] = []
    for line in GOLDEN.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, rest = line.split(":", 1)
        if kind == "class":
            cards, hand_class = rest.split(";")
            classes.append(ClassCase(cards.strip(), hand_class.strip()))
        else:
            op = next(ch for ch in rest if ch in "<>=")
            left, right = rest.split(op)
            compares.append(CompareCase(left.strip(), op, right.strip()))
    return classes, compares
