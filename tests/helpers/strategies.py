"""Hypothesis strategies for hands of 5 to 7 cards, biased toward rare classes: the wheel and
other straights, flushes, full houses and quads arrive far more often than in a fair deal."""

from __future__ import annotations

from hypothesis import strategies as st


def _complete(core: list[int], size: int, extra: list[int]) -> list[int]:
    hand = list(dict.fromkeys(core))
    for card in extra:
        if len(hand) >= size:
            break
        if card not in hand:
            hand.append(card)
    return hand


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...] = (5, 6, 7)) -> list[int]:
    size = draw(st.sampled_from(sizes))
    kind = draw(st.sampled_from(["any", "flush", "straight", "wheel", "full_house", "quads"]))
    suits = st.integers(0, 3)
    core: list[int]
    if kind == "flush":
        suit = draw(suits)
        core = [4 * r + suit for r in draw(st.lists(st.integers(0, 12), min_size=5, max_size=5, unique=True))]
    elif kind in ("straight", "wheel"):
        low = -1 if kind == "wheel" else draw(st.integers(0, 8))
        core = [4 * (r % 13) + draw(suits) for r in range(low, low + 5)]
    elif kind in ("full_house", "quads"):
        a, b = draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
        n = 4 if kind == "quads" else 3
        core = [4 * a + s for s in draw(st.permutations(range(4)))[:n]]
        core += [4 * b + s for s in draw(st.permutations(range(4)))[: 5 - n]]
    else:
        core = []
    extra = draw(st.permutations(range(52)))
    hand = _complete(core, size, extra)
    return draw(st.permutations(hand))
