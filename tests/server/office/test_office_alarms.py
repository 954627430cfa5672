"""The accounts' alarm: among thousands of honest accounts, drawn from the game's exact
distribution of results (seeded), none is flagged, not even one that hit a royal flush early;
an account playing a changed paytable long enough is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from office_tables import HONEST, rigged

from caribbean_fast.analysis import analyze
from caribbean_fast.analysis.actual import MAIN, Moments
from caribbean_fast.server.office.alarms import ALPHA, account_alarms
from caribbean_fast.server.store.figures import Row
from caribbean_fast.variants import Variant

ANTE = 100


def _account(name: str, variant: Variant, hands: int, rng: np.random.Generator) -> Row:
    """An account's counters after `hands` hands of the variant's main game at the best strategy."""
    events = analyze(variant).events
    nets = np.array([int(e.net) for e in events])
    assert all(e.net == int(e.net) for e in events)  # game 3 nets whole antes
    drawn = rng.choice(nets, size=hands, p=[float(e.probability) for e in events])
    m = Moments(hands, 3 * ANTE * hands, -ANTE * int(drawn.sum()), ANTE * hands, ANTE * ANTE * hands)
    return Row({"account": name, "game": HONEST.name, "currency": "EUR", "spot": MAIN}, 0, m, ANTE)


def test_no_honest_account_of_thousands_alarms_and_a_changed_paytable_does(tmp_path: Path) -> None:
    rng = np.random.default_rng(50)
    rows = [_account(f"player-{k}", HONEST, int(rng.integers(50, 2000)), rng) for k in range(3000)]
    royal = max(e.net for e in analyze(HONEST).events)
    lucky = rows[0].moments
    rows[0] = Row(
        rows[0].key,
        0,
        Moments(lucky.hands, lucky.wagered, lucky.win - int(royal) * ANTE, lucky.units, lucky.units2),
        ANTE,
    )
    variants = {HONEST.name: HONEST}
    assert account_alarms(rows, variants) == []  # the royal's 401 antes in a few hundred hands is luck the bound allows
    cheat = _account("cheat", rigged(tmp_path), 40_000, rng)
    found = account_alarms([*rows, cheat], variants)
    assert [a.key for a in found] == [{"account": "cheat", "currency": "EUR"}]
    assert f"among 3001 accounts at {ALPHA}" in found[0].why
