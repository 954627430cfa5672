"""Game 1's personal bet limit: set by the player, the week ending at midnight on Friday, US Eastern
time (so it turns at Saturday 00:00 in New York, EST or EDT). Read as responsible-gambling
practice reads it (RULES.md, game 1): lowering the limit (or setting one where there was none)
takes effect at once; raising or removing it is the change allowed once a week, counted from the
last change of any kind."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..errors import IllegalActionError

__all__ = ["EASTERN", "RULE", "check_limit_change", "lowers", "may_change_limit", "next_week_start"]

RULE = (
    "The limit caps the ante you may place at every table of your account, whatever the game. You may lower it "
    "at any time, and it holds at once; you may raise it, or remove it, once a week: the week ends at midnight "
    "on Friday, US Eastern time."
)
"""The rule in a player's words, as a client shows it (`GET /api/limit`)."""

EASTERN = ZoneInfo("America/New_York")
_SATURDAY = 5


def next_week_start(moment: datetime) -> datetime:
    """The first Saturday 00:00 US Eastern strictly after `moment` (an aware datetime)."""
    local = moment.astimezone(EASTERN)
    days = (_SATURDAY - local.weekday()) % 7 or 7
    return datetime.combine(local.date() + timedelta(days=days), time(0), tzinfo=EASTERN)


def may_change_limit(last_change: datetime | None, now: datetime) -> bool:
    """Whether a limit last changed at `last_change` may change again at `now`."""
    return last_change is None or now >= next_week_start(last_change)


def lowers(current: int | None, amount: int | None) -> bool:
    """Whether `amount` (None: no limit) is a lower limit than `current`: allowed at once."""
    return amount is not None and (current is None or amount < current)


def check_limit_change(current: int | None, last_change: datetime | None, amount: int | None, now: datetime) -> None:
    """Raises IllegalActionError, saying from when it may, if the limit `current`, last changed at
    `last_change`, may not become `amount` at `now`: a lower limit always may."""
    if not lowers(current, amount) and not may_change_limit(last_change, now):
        assert last_change is not None
        again = next_week_start(last_change)
        raise IllegalActionError(
            "the personal limit may be lowered at any time, but raised or removed at most once a week: "
            f"next from {again:%a %Y-%m-%d %H:%M %Z}"
        )
