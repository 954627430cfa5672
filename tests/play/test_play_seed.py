"""The terminal client adds the player's seed to each deal (issue 46): their own text, or a new
random one each round; a seeded table (`--seed`) keeps its seeded decks."""

from __future__ import annotations

from caribbean_fast.engine import Table
from caribbean_fast.engine.fairness import cut, verify
from caribbean_fast.play.session import PlaySession
from caribbean_fast.settlement import Decision


def _played(seed: int | None, player_seed: str | None = None, keep: bool = False) -> tuple[PlaySession, str]:
    t = Table("cyberstud", seed=seed)
    t.deposit(0, 100_000)
    session = PlaySession(t)
    if not keep:
        session.player_seed = player_seed
    t.ante(0, 500)
    commitment = t.view(0).commitment
    session.enter()  # deals: the seed committed before, revealed once bets close
    session.decide(Decision.FOLD)
    return session, commitment


def test_the_players_own_text_cuts_the_deck_and_checks() -> None:
    session, commitment = _played(5, "lucky")
    r, v = session.table.state.round, session.table.view(0)
    assert r.order == cut(commitment, [(0, b"lucky".hex())])
    assert v.proof is not None
    assert verify(commitment, v.proof, list(v.cards), list(v.dealer), list(v.board), b"lucky".hex()) == []


def test_a_random_seed_each_round_by_default() -> None:
    session, _ = _played(None)
    seeds = session.table.view(0).proof["seeds"]  # type: ignore[index]
    assert len(seeds) == 1 and len(seeds[0]["seed"]) == 64 and session.table.state.round.order != ()


def test_a_seeded_table_keeps_its_seeded_deck() -> None:
    session, _ = _played(5, keep=True)
    r = session.table.state.round
    assert session.player_seed == "" and r.order == () and session.table.state.seats[0].first_five == r.deck[0:10:2]
