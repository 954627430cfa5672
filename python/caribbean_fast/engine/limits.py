"""Game 1's personal bet limit: set by the player, changed at most once a week, the week ending at
midnight on Friday, US Eastern time (so it turns at Saturday 00:00 in New York, EST or EDT)."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..errors import IllegalActionError

__all__ = ["EASTERN", "RULE", "check_limit_change", "may_change_limit", "next_week_start"]

RULE = (
    "The limit caps the ante you may place at every table of your account, whatever the game. You may change it, "
    "or remove it, once a week: the week ends at midnight on Friday, US Eastern time."
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


def check_limit_change(last_change: datetime | None, now: datetime) -> None:
    """Raises IllegalActionError, saying from when it may, if the limit may not change at `now`."""
    if not may_change_limit(last_change, now):
        assert last_change is not None
        again = next_week_start(last_change)
        raise IllegalActionError(
            f"the personal limit changes at most once a week: next from {again:%a %Y-%m-%d %H:%M %Z}"
        )
