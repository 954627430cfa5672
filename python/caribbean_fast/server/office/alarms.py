"""The office's alarms: a table or a game whose actual lies outside its band on the players'
side, and an account whose results lie beyond a bound luck rarely reaches, with the rule that
keeps false alarms in check across thousands of accounts.

- **A table or a game** alarms when its house win lies below its theoretical by more than the
  99.9% band allows (`Band.outside`), over all its wagers or at one of them (the main game, a
  side bet, the progressive: a jackpot's variance would hide a main game's shift in the total):
  the normal band, whose chance of a false alarm is 0.05% a look, so at most 0.2% a line of four
  looks. A line warns (not alarms) outside the 99% band.
- **An account** is tested on its main game and side bets (the progressive left out: a jackpot
  is luck the meter pays for, and it would make every bound useless). Its gain over its
  theoretical gets a p-value from Bernstein's inequality (`analysis.actual.bernstein_p`), which
  holds whatever the count of hands and however heavy the paytable's tail (a normal p-value would
  call every early royal flush a cheat); the largest gain of one hand is the game's largest net
  per unit times its table's largest stake. Holm's step-down rule (`analysis.actual.holm`) then
  flags accounts so that the chance of even one false alarm among all the accounts tested is at
  most `ALPHA`, however many there are.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ...analysis.actual import LEVELS, PROGRESSIVE, Band, bernstein_p, holm, theoretical
from ...variants import Variant
from ..store import figures as counters
from ..store.figures import Row
from ..store.schema import Tx
from ..wire.metrics import Metrics
from .figures import Line, lines

__all__ = ["ALPHA", "Alarm", "account_alarms", "line_alarms", "publish", "read_alarms"]

ALPHA = 0.01
"""The accounts' family-wise error: the chance that the rule flags any honest account at all."""


@dataclass(frozen=True)
class Alarm:
    kind: str  # "table", "game", "account"
    key: dict[str, str]
    level: str  # "alarm" or "warning"
    why: str


def line_alarms(found: Iterable[Line], kind: str) -> list[Alarm]:
    """The lines (of tables or games) below their band, over all their wagers or at one of them
    (a progressive's variance would hide a main game's shift in the total): an alarm at 99.9%, a
    warning at 99%, one per line, the worst."""
    alarms = []
    for line in found:
        looks = [("all wagers", line.band), *line.spots.items()]
        spot, b = min(looks, key=lambda look: look[1].z)
        for level, word in ((LEVELS[1], "alarm"), (LEVELS[0], "warning")):
            if b.outside(level):
                why = (
                    f"{spot}: hold {b.hold:.2%} against {b.theoretical_hold:.2%} theoretical over {b.wagered} "
                    f"wagered, {-b.z:.2f} standard deviations on the players' side, beyond the {level:.1%} band"
                )
                alarms.append(Alarm(kind, line.key, word, why))
                break
    return alarms


def account_alarms(rows: Iterable[Row], variants: Mapping[str, Variant], alpha: float = ALPHA) -> list[Alarm]:
    """The accounts whose gain over their theoretical Holm's rule rejects at `alpha` (one test an
    account and currency, over the games it played there)."""
    tests: dict[tuple[str, str], tuple[Band, float]] = {}
    for row in rows:
        game, spot = row.key["game"], row.key["spot"]
        if spot == PROGRESSIVE or game not in variants:
            continue
        math = theoretical(variants[game])
        wager = math.wagers[spot]
        most = float((wager.most or 0) + wager.mean) * row.most  # one hand's largest gain over its mean
        key = (row.key["account"], row.key["currency"])
        band, bound = tests.get(key, (Band(0, 0, 0.0, 0.0), 0.0))
        tests[key] = (band + math.band(spot, row.moments), max(bound, most))
    p_values = {f"{a}\n{c}": bernstein_p(b.theoretical - b.win, b.sd**2, most) for (a, c), (b, most) in tests.items()}
    flagged = holm(p_values.items(), alpha)
    alarms = []
    for name in sorted(flagged):
        account, currency = name.split("\n")
        b = tests[(account, currency)][0]
        why = (
            f"won {b.theoretical - b.win:.0f} more than its theoretical over {b.wagered} wagered "
            f"(Bernstein bound {p_values[name]:.2g}, below Holm's threshold among {len(p_values)} accounts at {alpha})"
        )
        alarms.append(Alarm("account", {"account": account, "currency": currency}, "alarm", why))
    return alarms


def read_alarms(variants: Mapping[str, Variant], alpha: float = ALPHA) -> Callable[[Tx], list[Alarm]]:
    """A read job (`Reads.run`): every alarm standing now, over every day of the figures: the
    tables', the games', the accounts'."""

    def job(tx: Tx) -> list[Alarm]:
        rows = counters.table_rows(tx)
        found = line_alarms(lines(rows, variants, "table").lines, "table")
        found += line_alarms(lines(rows, variants, "game").lines, "game")
        return found + account_alarms(counters.account_rows(tx), variants, alpha)

    return job


def publish(metrics: Metrics, alarms: Iterable[Alarm]) -> None:
    """The alarms standing now, by kind and level, as the metrics' gauge."""
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for alarm in alarms:
        counts[(alarm.kind, alarm.level)] += 1
    for kind in ("table", "game", "account"):
        for level in ("alarm", "warning"):
            metrics.office_alarms.labels(kind, level).set(counts[(kind, level)])
