"""What a client shows of a variant: its decisions in its own words, its paytable rows, its
labels, its chips and stake steps, and the rules document the server sends (`rules_document`).

The one place these are decided: the server sends `rules_document` as JSON, the page and the
terminal render it (or call these functions), and none keeps a rule of its own. Pure: no rich,
no I/O, only the variant's data (its card layout and the names of its bets are the variant's own:
`Variant.layout`, `Variant.bet_words`, `SideBet.title`) turned into words and numbers.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from ..engine.seeding import REVEAL_SECONDS
from ..hands import HandClass
from ..variants.model import BetLimits, Currency, Paytable, Variant
from ..variants.thresholds import HandThreshold

__all__ = [
    "CHIP_MAJORS",
    "PaytableColumn",
    "chip_values",
    "connection_words",
    "decision_word",
    "default_stake",
    "denominations",
    "describe_paytable",
    "fairness_words",
    "how_to_play",
    "idle_words",
    "limit_words",
    "main_paytable",
    "pays",
    "paytable_columns",
    "paytable_rows",
    "qualifier_words",
    "rule_line",
    "rules_document",
    "stake_step",
    "stake_unit",
    "suggested_buy_in",
    "table_keys",
    "threshold_label",
]


def decision_word(v: Variant, decision: str) -> str:
    """A decision ("raise", "fold", "exchange", as the protocol names them) in the game's words."""
    return v.bet_words.bet if decision == "raise" else decision


# ---- hands in words --------------------------------------------------------------------------------

# The aliases of thresholds.ALIASES as a sentence names them ("dealer qualifies with ...").
_ALIAS_WORDS: dict[str, str] = {
    "any": "any hand",
    "ace-king": "Ace-King",
    "ace-or-king": "an Ace or a King",
    "pair-of-fours": "a pair of fours",
    "pair-of-aces": "a pair of aces",
    "pair": "a pair",
}


def _threshold_words(th: HandThreshold) -> str:
    text = th.spec.strip().lower()
    if text in _ALIAS_WORDS:
        return _ALIAS_WORDS[text]
    if text.replace("-", "_").replace(" ", "_").upper() in HandClass.__members__:
        label = HandClass.parse(text).label
        return label if label == "Ace-King" else label.lower()
    return th.spec.strip().upper()  # five ranks: "A K 4 3 2"


def threshold_label(th: HandThreshold) -> str:
    """A threshold as a table's row names it: "Flush", "A pair of aces", "Ace-King"."""
    words = _threshold_words(th)
    return words[0].upper() + words[1:]


def qualifier_words(v: Variant) -> str:
    """The dealer's qualifier in words: "Ace-King or better", "a pair of fours or better"."""
    words = _threshold_words(v.qualifier)
    return words if words == "any hand" else f"{words} or better"


def rule_line(v: Variant) -> str:
    """The game in one line: "Dealer qualifies with Ace-King · Raise 2\u00d7 ante" (short: the page
    shows it on one line of a phone's felt; "qualifies with" already says "or better")."""
    times = "\u00d7"  # the multiplication sign the page has always shown
    bet = f"{v.bet_words.title} {v.raise_multiple}{times} ante"
    return f"Dealer qualifies with {_threshold_words(v.qualifier)} · {bet}"


# ---- paytables -------------------------------------------------------------------------------------


def pays(value: Fraction | None) -> str:
    """A payout in words: "5 to 1", or "push" where the table has no payout."""
    return "push" if value is None else f"{value} to 1"


@dataclass(frozen=True)
class PaytableColumn:
    key: str
    title: str


def paytable_columns(v: Variant) -> tuple[PaytableColumn, ...]:
    """The columns this variant's paytable has: the hand, the ante, the raise (call) against a
    qualifying dealer, and only where the variant pays them, the raise and the ante when the
    dealer does not qualify (else the raise pushes and the ante pays as against a qualifier)."""
    bet = v.bet_words.title
    apart = bool(v.raise_paytable_no_qualify or v.ante_paytable_no_qualify)
    columns = [
        PaytableColumn("hand", "Hand"),
        PaytableColumn("ante", "Ante"),
        PaytableColumn("raise", f"{bet}, dealer qualifies" if apart else bet),
    ]
    if v.raise_paytable_no_qualify:
        columns.append(PaytableColumn("raise_no_qualify", f"{bet}, dealer does not qualify"))
    if v.ante_paytable_no_qualify:
        columns.append(PaytableColumn("ante_no_qualify", "Ante, dealer does not qualify"))
    return tuple(columns)


def _cell(v: Variant, key: str, c: HandClass) -> str:
    if key == "hand":
        return c.label
    if key == "ante":
        return pays(v.ante_paytable.get(c))
    if key == "raise":
        # Below the qualifier's class a raise never meets a qualifying dealer it could beat.
        return pays(v.raise_paytable.get(c)) if c in v.raise_paytable else "cannot win"
    if key == "raise_no_qualify":
        return pays(v.raise_paytable_no_qualify.get(c))
    return pays(v.ante_pays(c, dealer_qualifies=False))


def paytable_rows(v: Variant) -> list[dict[str, str]]:
    """One row per hand class, best first, with a cell for each of `paytable_columns`."""
    keys = [col.key for col in paytable_columns(v)]
    return [{key: _cell(v, key, c) for key in keys} for c in reversed(v.classes)]


def main_paytable(v: Variant) -> tuple[str, Paytable]:
    """The bet whose paytable the game is known by (the one paying most: stud's raise, hold'em's
    ante) in the game's word, with that paytable."""
    top_raise = max(v.raise_paytable.values(), default=Fraction(0))
    top_ante = max(v.ante_paytable.values(), default=Fraction(0))
    return ("ante", v.ante_paytable) if top_ante > top_raise else (v.bet_words.bet, v.raise_paytable)


# ---- chips and stakes ------------------------------------------------------------------------------

CHIP_MAJORS: tuple[Fraction, ...] = tuple(
    Fraction(x) for x in ("1/100", "1/20", "1/10", "1/4", "1/2", 1, 5, 10, 25, 100, 500, 1000)
)
"""Every chip value, in major units, smallest first: stakes move by them and bets are drawn in them."""

RACK = 5
"""The most chips a client offers to pick from."""

BUY_IN_ROUNDS = 20
"""A suggested buy-in covers this many rounds at the minimum ante and its raise (call), and one
round at the maximum."""


def denominations(currency: Currency) -> list[int]:
    """The chip values, in minor units, that the currency can pay (no 1/100 chip in yen)."""
    minor = (value * currency.minor_per_major for value in CHIP_MAJORS)
    return [int(m) for m in minor if m.denominator == 1]


def chip_values(currency: Currency, limits: BetLimits) -> list[int]:
    """The chips a table offers: up to RACK values within its limits, smallest first."""
    fit = [c for c in denominations(currency) if limits.minimum <= c <= limits.maximum]
    return (fit or [limits.minimum])[:RACK]


def stake_unit(currency: Currency) -> int:
    """What one press of Up or Down moves the stake by: one unit of the currency (the seed of game
    1: "Up/Down change the bet by 1, Shift+Up/Down by 10"), in minor units."""
    return currency.minor_per_major


def stake_step(stake: int, unit: int, limits: BetLimits, times: int) -> int:
    """The stake `times` units up (down: negative), within the limits."""
    return max(limits.minimum, min(limits.maximum, stake + times * unit))


def default_stake(limits: BetLimits) -> int:
    """The stake a seat starts with: the minimum ante."""
    return limits.minimum


def suggested_buy_in(v: Variant, limits: BetLimits, wallet: int | None = None) -> int:
    """The buy-in offered: BUY_IN_ROUNDS rounds of the minimum ante and its raise (call), or one
    round at the maximum where that is more (a seat can then play any stake the table takes), no
    more than the wallet holds."""
    least = BUY_IN_ROUNDS * _round_stake(v, limits.minimum)
    offer = max(least, _round_stake(v, limits.maximum))
    return offer if wallet is None else min(wallet, offer)


def _round_stake(v: Variant, ante: int) -> int:
    """An ante and its raise (call): what one round can take."""
    return ante + math.ceil(ante * v.raise_multiple)


# ---- the rules document ----------------------------------------------------------------------------


def _progressive(v: Variant) -> dict[str, Any] | None:
    p = v.progressive
    if p is None:
        return None
    prizes = [
        {"hand": c.label, "amount": prize.amount, "meter_percent": float(prize.meter_share * 100)}
        for c, prize in sorted(p.prizes.items(), reverse=True)
    ]
    return {
        "title": "Progressive",
        "stake": p.stake,
        "contribution": p.contribution,
        "paid_on_fold": p.paid_on_fold,
        "prizes": prizes,
    }


def _side_bets(v: Variant) -> list[dict[str, Any]]:
    return [
        {
            "name": b.name,
            "title": b.title,
            "minimum": b.minimum,
            "maximum": b.maximum,
            "tiers": [{"hand": threshold_label(th), "pays": pays(p)} for th, p in b.tiers],
        }
        for b in v.side_bets
    ]


def _exchanges(v: Variant) -> dict[str, Any] | None:
    x = v.exchanges
    if x is None:
        return None
    what = "the whole hand" if x.cards == "all" else f"1 to {x.most_cards} chosen cards"
    return {
        "fee_antes": str(x.fee_antes),
        "most_per_round": x.most_per_round,
        "cards": str(x.cards),
        "rule": f"Exchange: {what} for {x.fee_antes} ante, at most {x.most_per_round} times a round.",
    }


def _words(v: Variant) -> dict[str, Any]:
    words = v.bet_words
    return {
        **asdict(words),
        "ante": "Ante",
        "decisions": {d: decision_word(v, d) for d in ("raise", "fold", "exchange")},
    }


def _stakes(v: Variant, limits: BetLimits) -> dict[str, Any]:
    return {
        "default": default_stake(limits),
        "buy_in": suggested_buy_in(v, limits),
        "chips": chip_values(v.currency, limits),
        "unit": stake_unit(v.currency),
    }


def _seconds(seconds: float) -> str:
    whole = int(seconds)
    if whole % 3600 == 0 and whole >= 3600:
        hours = whole // 3600
        return "a day" if hours == 24 else f"{hours} hour{'s' if hours != 1 else ''}"
    if whole % 60 == 0 and whole >= 60:
        minutes = whole // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} seconds"


def how_to_play(v: Variant) -> list[str]:
    """The round of the game step by step, in words, from the variant (RULES.md's flow): what a
    rules page shows under "How to play"."""
    words = v.bet_words
    lay = v.layout
    t = v.timing
    extra = []
    if v.progressive is not None:
        extra.append(f"the {_progressive_title(v)}")
    extra += [f"the {b.title}" for b in v.side_bets]
    bets = "Place the ante" + (f", and if you like {' and '.join(extra)}" if extra else "") + ", then deal."
    steps = [bets]
    if t.bet_seconds:
        steps.append(
            f"Bets close {_seconds(t.bet_seconds)} after the betting opens, or sooner once every seated "
            "player has bet; a seat that has not bet sits the round out."
        )
    if lay.board:
        steps.append(
            f"You get {lay.hand} cards face up, the dealer {lay.dealer} face down, and {lay.flop} community cards "
            f"(the flop) are shown."
        )
    else:
        steps.append(f"You get {lay.hand} cards; the dealer gets {lay.dealer}, {lay.dealer_up} of them face up.")
    fold = "Fold and lose the ante" + (" (and every side bet)" if any(b.lost_on_fold for b in v.side_bets) else "")
    choice = f"{fold}, or {words.bet} by adding {v.raise_multiple} times the ante."
    if v.exchanges is not None:
        x = v.exchanges
        what = "all five cards" if x.cards == "all" else f"1 to {x.most_cards} cards you choose"
        choice += (
            f" Or exchange {what} for new ones, for {x.fee_antes} ante (not returned), at most "
            f"{x.most_per_round} times a round; then decide again."
        )
    steps.append(choice)
    steps += connection_words(v)
    if lay.board:
        steps.append(
            f"The turn and the river complete the board of {lay.board}; each side plays its best five cards of seven."
        )
    steps.append(f"The dealer shows every card. The dealer qualifies with {qualifier_words(v)}.")
    no_q = "pays by the ante table" if v.ante_paytable_no_qualify or lay.board else "pays 1 to 1"
    raise_no_q = (
        f"the {words.bet} pays by its column for a dealer who does not qualify (a push where it has none)"
        if v.raise_paytable_no_qualify
        else f"the {words.bet} pushes"
    )
    steps.append(f"Dealer does not qualify: the ante {no_q} and {raise_no_q}.")
    steps.append(
        f"Dealer qualifies: beat the dealer and the ante and {words.bet} pay by the table below; "
        f"equal hands push both; a higher dealer hand takes both."
    )
    if v.progressive is not None:
        fold_note = ", folded or not" if v.progressive.paid_on_fold else ""
        ticked = " Once ticked it stays ticked for the next rounds." if v.progressive.stays_ticked else ""
        paid = f"is paid on your first five cards{fold_note}, by its own table."
        steps.append(f"The {_progressive_title(v)} {paid}{ticked}")
    for b in v.side_bets:
        steps.append(
            f"The {b.title} is settled by its own table"
            + (", once you have called; a fold loses it." if b.lost_on_fold else ".")
        )
    return steps + (idle_words(v) if v.timing.idle_seconds else [])


def idle_words(v: Variant) -> list[str]:
    """What an idle session comes to, where the game ends one (RULES.md, game 5)."""
    t = v.timing
    if t.idle_seconds and v.waits_for_player:
        return [f"A session idle for {_seconds(t.idle_seconds)} ends between rounds; bets not yet dealt come back."]
    if t.idle_seconds:
        broken = "is void and its bets returned" if t.unfinished == "void" else "is completed by the automatic decision"
        return [f"A session idle for {_seconds(t.idle_seconds)} ends; a round it breaks off {broken}."]
    return ["This game never ends an idle session: your seat and any dealt round wait for you."]


def connection_words(v: Variant) -> list[str]:
    """What a lost connection, a timeout or an idle round does, and what the other seats learn of a
    decision (RULES.md, "Common to every game" and game 3), in words for the rules page."""
    t, words = v.timing, v.bet_words
    if v.waits_for_player:
        after = (
            "it is void and every bet of it returned"
            if t.unfinished == "void"
            else f"it is completed by the best strategy: it {words.does} or folds, never folding a hand that "
            f"strategy would {words.bet}" + (", and exchanges nothing" if v.exchanges else "")
        )
        return [
            "A lost connection never decides for you: a dealt round waits for you, your cards and bets as you "
            f"left them, for up to {_seconds(t.open_round_seconds)} from the deal; after that {after}. "
            "A decision you did not take is shown to you as automatic."
        ]
    steps = []
    if t.decision_seconds:
        auto = t.auto_raise
        rule = f"it {words.does} with {_threshold_words(auto)} or better and folds otherwise" if auto else "it folds"
        steps.append(
            f"You have {_seconds(t.decision_seconds)} to decide; a seat that runs out of time or disconnects "
            f"after the deal decides automatically: {rule}, and is shown it as automatic."
        )
    if v.seats > 1:
        steps.append(
            "Players may not see or share each other's cards: nothing a seat is shown reveals another seat's cards, "
            "at any time, the showdown included. The other seats learn that a seat has decided, never what, during "
            "the round or after it: a decision taken by rule on the cards would tell them the cards."
        )
    return steps


def fairness_words(v: Variant) -> list[str]:
    """How a player checks that nobody chose the deal (`engine/fairness.py`, `engine/seeding.py`),
    in words for the rules page."""
    shared = (
        " Every seat's seed is locked in (by its fingerprint, a SHA-256 hash) before anyone's is shown, so no "
        "player and not the house can pick a seed knowing another's."
        if v.seats > 1
        else ""
    )
    return [
        "Before the deal the table shows a commitment: a fingerprint of the shuffled deck that it cannot change "
        "afterwards. Your page then adds a seed of your own (a random one, or one you type in), and the cards are "
        "dealt from the committed deck reordered by every dealt player's seed, so the house cannot pick your cards."
        + shared,
        "After the round your page checks, with your browser's own cryptography, that your cards, the dealer's and "
        "the board's came from the committed deck, and that your seed was used; it learns nothing of another "
        f"player's cards. No player sees another's seed before the deal, and a seed not sent within "
        f"{_seconds(REVEAL_SECONDS)} of the deal counts as empty, so nobody can hold up the round by keeping theirs "
        "back.",
    ]


def limit_words(v: Variant, limits: BetLimits) -> list[str]:
    """What the table does with an ante outside its limits, in words (game 1: raised to the
    minimum, never over a third of the balance; game 5: lowered to the maximum)."""
    words = []
    if limits.below_minimum == "adjust":
        words.append("An ante below the minimum is raised to the minimum.")
    if limits.above_maximum == "adjust":
        words.append("An ante over the maximum is lowered to the maximum.")
    if limits.balance_fraction is not None:
        words.append(
            f"An ante is never more than {_fraction_words(limits.balance_fraction)} of your balance at the table, "
            f"so the {v.bet_words.bet} can always be covered."
        )
    return words


def _fraction_words(f: Fraction) -> str:
    named = {Fraction(1, 2): "a half", Fraction(1, 3): "a third", Fraction(1, 4): "a quarter"}
    return named.get(f, f"{f}")


def _progressive_title(v: Variant) -> str:
    return "progressive (jackpot) bet"


def table_keys(v: Variant) -> list[dict[str, str]]:
    """The table page's keys (seed 000's, and the game's own extras): `keys`, what each `does` in
    the game's words (the rules page), and a `short` form for the table's key help line ("": said
    by the key before it)."""
    words, unit = v.bet_words, stake_unit(v.currency)
    keys = [
        {"keys": "Enter", "does": f"deal; once dealt, {words.bet}", "short": f"Enter deal / {words.bet}"},
        {"keys": "-", "does": "fold, once dealt", "short": "- fold"},
    ]
    if v.exchanges is not None:
        keys.append({"keys": "X", "does": "exchange the hand, once dealt", "short": "X exchange"})
    if v.progressive is not None:
        does = f"the {_progressive_title(v)} on or off"
        keys.append({"keys": "P", "does": does, "short": "P Progressive on / off"})
    for bet in v.side_bets[:1]:
        title = bet.title
        keys.append({"keys": "B", "does": f"the {title} bet on or off", "short": f"B {title} on / off"})
    keys += [
        {"keys": "0 or Ins", "does": "repeat the last round's bets (Enter then deals)", "short": "Ins or 0 rebet"},
        {"keys": "R", "does": "repeat the last round's bets and deal, in one key", "short": "R rebet and deal"},
        {"keys": "U or Backspace", "does": "take back the last chip placed", "short": "U undo chip"},
        {"keys": "D", "does": "double the bets placed, within the limits", "short": "D double"},
        {"keys": "Del or .", "does": "clear the bets", "short": "Del or . clear"},
        {
            "keys": "Up / Down",
            "does": f"change the stake by {v.currency.format(unit)}",
            "short": "↑ ↓ stake (Shift x10)",
        },
        {"keys": "Shift+Up / Shift+Down", "does": f"change the stake by {v.currency.format(10 * unit)}", "short": ""},
        {
            "keys": "Enter or Space",
            "does": "press the focused button",
            "short": "Enter / Space press the focused button",
        },
    ]
    return keys


def rules_document(table: str, v: Variant, limits_index: int = 0) -> dict[str, Any]:
    """Everything a client shows of a table of `v` played under its `limits_index`th limits, as
    JSON-ready data (docs/protocol.md, "The rules of a table")."""
    lim = v.limits[limits_index]
    t = v.timing
    return {
        "table": table,
        "game": v.name,
        "title": v.title,
        "family": str(v.family),
        "bet": v.bet_words.bet,
        "words": _words(v),
        "raise_multiple": str(v.raise_multiple),
        "qualifier": qualifier_words(v),
        "rule_line": rule_line(v),
        "paytable_columns": [asdict(col) for col in paytable_columns(v)],
        "paytable": paytable_rows(v),
        "limits": {"minimum": lim.minimum, "maximum": lim.maximum},
        "stakes": _stakes(v, lim),
        "layout": asdict(v.layout),
        "progressive": _progressive(v),
        "side_bets": _side_bets(v),
        "exchanges": _exchanges(v),
        "timing": {
            "bet_seconds": t.bet_seconds,
            "decision_seconds": t.decision_seconds,
            "idle_seconds": t.idle_seconds,
            "open_round_seconds": t.open_round_seconds if v.waits_for_player else None,
        },
        "how_to_play": how_to_play(v),
        "session_rules": connection_words(v) + idle_words(v),  # a lost connection, an idle session
        "keys": table_keys(v),
        "limits_all": [{"minimum": x.minimum, "maximum": x.maximum} for x in v.limits],
        "limit_words": limit_words(v, lim),
        "fairness": fairness_words(v),
        "currency": {"code": v.currency.code, "minor_per_major": v.currency.minor_per_major},
        "seats": v.seats,
    }


def describe_paytable(v: Variant) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The paytable as a header and rows of text, for a client that draws a plain table."""
    columns = paytable_columns(v)
    rows = paytable_rows(v)
    return tuple(col.title for col in columns), [tuple(row[col.key] for col in columns) for row in rows]


def summary(v: Variant) -> str:
    """One line: family, raise, qualifier, top pay, extras and limits."""
    money = v.currency.format
    limits = ", ".join(
        f"{money(lim.minimum)}-{money(lim.maximum)}".replace(f" {v.currency.code}", "", 1) for lim in v.limits
    )
    extras = [
        x
        for x in (
            "progressive" if v.progressive else "",
            *(b.title for b in v.side_bets),
            "exchanges" if v.exchanges else "",
        )
        if x
    ]
    bet = v.bet_words.bet
    top = max(main_paytable(v)[1].values())
    return (
        f"{v.family} · {bet} {v.raise_multiple}x ante · dealer qualifies with {qualifier_words(v)} · "
        f"top pay {top} to 1 · {v.seats} seat{'s' if v.seats > 1 else ''} · antes {limits}"
        + (f" · {', '.join(extras)}" if extras else "")
    )
