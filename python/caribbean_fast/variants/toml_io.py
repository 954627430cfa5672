"""Variants to and from TOML. Reading checks every key and type and names the field at fault
(``limits[0].minimum: ...``); writing gives a file that reads back to an equal variant.

Money is written in major units as text ("0.50") and held in minor units; numbers that may be
fractions accept 2, 2.5, "5/2"; meter shares are percentages ("10%")."""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import tomli_w

from ..errors import ArgumentError, VariantError
from ..hands import HandClass
from .model import (
    DAY,
    MAX_AMOUNT,
    MAX_SECONDS,
    BetLimits,
    Currency,
    ExchangeCards,
    Exchanges,
    Family,
    MeterSplit,
    OutOfRange,
    Paytable,
    Prize,
    Progressive,
    SideBet,
    Timing,
    Unfinished,
    Variant,
)
from .thresholds import HandThreshold

__all__ = ["MAX_FILE_BYTES", "from_dict", "read_variant", "to_dict", "to_toml", "write_variant"]

MAX_FILE_BYTES = 1 << 20
"""A variant file is a page of text; anything larger is refused before it is read."""

T = TypeVar("T")
Data = Mapping[str, Any]


def _fail(where: str, reason: str) -> VariantError:
    return VariantError(f"{where}: {reason}")


def _table(value: Any, where: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> Data:
    if not isinstance(value, Mapping):
        raise _fail(where, f"expected a table, got {value!r}")
    for key in value:
        if key not in allowed:
            near = difflib.get_close_matches(key, allowed, n=1)
            hint = f" (did you mean {near[0]}?)" if near else f"; known keys: {', '.join(allowed)}"
            raise _fail(f"{where}.{key}".lstrip("."), f"unknown key{hint}")
    for key in required:
        if key not in value:
            raise _fail(f"{where}.{key}".lstrip("."), "missing")
    return value


def _fraction(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise _fail(where, f"expected a number, got {value!r}")
    text = str(value).strip()
    exponent = re.search(r"e([+-]?\d+)$", text, re.IGNORECASE)
    if len(text) > 40 or (exponent and abs(int(exponent[1])) > 400):
        raise _fail(where, f"{text[:40]} is not a number a variant can hold (a payout is at most 1,000,000)")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise _fail(where, f"expected a number such as 2, 2.5 or 5/2, got {value!r}") from None


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"expected a whole number, got {value!r}")
    return int(value)


def _seconds(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(where, f"expected seconds as a number, got {value!r}")
    if not 0 < value <= MAX_SECONDS:  # NaN fails too; and a huge int never reaches float()
        raise _fail(where, f"must be more than 0 to {MAX_SECONDS:,} seconds, not {value!r}")
    return float(value)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"expected true or false, got {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"expected text, got {value!r}")
    return value


def _choice(kind: Callable[[str], T], value: Any, where: str) -> T:
    try:
        return kind(_str(value, where))
    except ValueError as err:
        raise _fail(where, str(err)) from None


def parse_money(value: Any, where: str, currency: Currency) -> int:
    """An amount in the currency's major unit ("100.00") as minor units; VariantError naming `where`."""
    return _money(value, where, currency)


def _money(value: Any, where: str, currency: Currency) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise _fail(where, f'expected an amount such as "0.50", got {value!r}')
    try:
        minor = Decimal(str(value)) * currency.minor_per_major
    except InvalidOperation:
        raise _fail(where, f'expected an amount such as "0.50", got {value!r}') from None
    if not minor.is_finite() or abs(minor) > MAX_AMOUNT:
        raise _fail(where, f"{value} is not an amount of at most {currency.format(MAX_AMOUNT)}")
    if minor != minor.to_integral_value():
        raise _fail(where, f"{value} is not a whole number of {currency.code} minor units")
    return int(minor)


def _threshold(value: Any, where: str) -> HandThreshold:
    try:
        return HandThreshold(_str(value, where))
    except VariantError as err:
        raise _fail(where, str(err)) from None


def _hand_class(key: str, where: str) -> HandClass:
    try:
        return HandClass.parse(key)
    except ArgumentError as err:
        raise _fail(f"{where}.{key}", str(err)) from None


def _paytable(value: Any, where: str, classes: tuple[HandClass, ...]) -> Paytable:
    if not isinstance(value, Mapping):  # a single number: every class pays it
        return dict.fromkeys(classes, _fraction(value, where))
    return {_hand_class(k, where): _fraction(v, f"{where}.{k}") for k, v in value.items()}


def _limits(value: Any, where: str, currency: Currency) -> BetLimits:
    d = _table(
        value,
        where,
        ("minimum", "maximum", "balance_fraction", "below_minimum", "above_maximum"),
        ("minimum", "maximum"),
    )
    return BetLimits(
        minimum=_money(d["minimum"], f"{where}.minimum", currency),
        maximum=_money(d["maximum"], f"{where}.maximum", currency),
        balance_fraction=_fraction(d["balance_fraction"], f"{where}.balance_fraction")
        if "balance_fraction" in d
        else None,
        below_minimum=_choice(OutOfRange, d.get("below_minimum", "reject"), f"{where}.below_minimum"),
        above_maximum=_choice(OutOfRange, d.get("above_maximum", "reject"), f"{where}.above_maximum"),
    )


def _prize(value: Any, where: str, currency: Currency) -> Prize:
    if isinstance(value, str) and value.strip().endswith("%"):
        share = _fraction(value.strip()[:-1], where) / 100
        if not 0 < share <= 1:
            raise _fail(where, f"a meter share must be more than 0% and at most 100%, not {value}")
        return Prize(meter_share=share)
    return Prize(amount=_money(value, where, currency))


def _progressive(value: Any, currency: Currency) -> Progressive:
    w = "progressive"
    d = _table(
        value,
        w,
        ("stake", "prizes", "contribution", "reset", "paid_on_fold", "stays_ticked", "split"),
        ("stake", "prizes", "contribution", "reset"),
    )
    prizes = _table(d["prizes"], f"{w}.prizes", tuple(c.name.lower() for c in HandClass))
    return Progressive(
        stake=_money(d["stake"], f"{w}.stake", currency),
        prizes={_hand_class(k, f"{w}.prizes"): _prize(v, f"{w}.prizes.{k}", currency) for k, v in prizes.items()},
        contribution=_money(d["contribution"], f"{w}.contribution", currency),
        reset=_money(d["reset"], f"{w}.reset", currency),
        paid_on_fold=_bool(d.get("paid_on_fold", True), f"{w}.paid_on_fold"),
        stays_ticked=_bool(d.get("stays_ticked", False), f"{w}.stays_ticked"),
        split=_choice(MeterSplit, d.get("split", "equal"), f"{w}.split"),
    )


def _side_bet(value: Any, where: str, currency: Currency) -> SideBet:
    d = _table(
        value,
        where,
        ("name", "tiers", "minimum", "maximum", "lost_on_fold"),
        ("name", "tiers", "minimum", "maximum"),
    )
    if not isinstance(d["tiers"], list):
        raise _fail(f"{where}.tiers", "expected a list of { hand = ..., pays = ... }")
    tiers = []
    for i, tier in enumerate(d["tiers"]):
        t = _table(tier, f"{where}.tiers[{i}]", ("hand", "pays"), ("hand", "pays"))
        tiers.append(
            (
                _threshold(t["hand"], f"{where}.tiers[{i}].hand"),
                _fraction(t["pays"], f"{where}.tiers[{i}].pays"),
            )
        )
    return SideBet(
        name=_str(d["name"], f"{where}.name"),
        tiers=tuple(tiers),
        minimum=_money(d["minimum"], f"{where}.minimum", currency),
        maximum=_money(d["maximum"], f"{where}.maximum", currency),
        lost_on_fold=_bool(d.get("lost_on_fold", True), f"{where}.lost_on_fold"),
    )


def _exchanges(value: Any) -> Exchanges:
    d = _table(value, "exchanges", ("fee_antes", "most_per_round", "most_cards", "must_cover_call", "cards"))
    return Exchanges(
        fee_antes=_fraction(d.get("fee_antes", 1), "exchanges.fee_antes"),
        most_per_round=_int(d.get("most_per_round", 3), "exchanges.most_per_round"),
        most_cards=_int(d.get("most_cards", 5), "exchanges.most_cards"),
        must_cover_call=_bool(d.get("must_cover_call", True), "exchanges.must_cover_call"),
        cards=_choice(ExchangeCards, d.get("cards", "all"), "exchanges.cards"),
    )


def _timing(value: Any) -> Timing:
    keys = ("bet_seconds", "decision_seconds", "idle_seconds", "open_round_seconds", "auto_raise", "unfinished")
    d = _table(value, "timing", keys)
    seconds = {k: _seconds(d[k], f"timing.{k}") for k in keys[:4] if k in d}
    auto = _threshold(d["auto_raise"], "timing.auto_raise") if "auto_raise" in d else None
    unfinished = _choice(Unfinished, d.get("unfinished", "complete"), "timing.unfinished")
    return Timing(**seconds, auto_raise=auto, unfinished=unfinished)


TOP_KEYS = (
    "name",
    "title",
    "family",
    "raise_multiple",
    "qualifier",
    "ace_king",
    "ante_paytable",
    "raise_paytable",
    "raise_paytable_no_qualify",
    "ante_paytable_no_qualify",
    "limits",
    "progressive",
    "side_bets",
    "exchanges",
    "seats",
    "timing",
    "currency",
    "source",
    "notes",
)


def from_dict(data: Data) -> Variant:
    """A Variant from the dict of a TOML file; VariantError names the first field at fault."""
    d = _table(
        data,
        "",
        TOP_KEYS,
        ("name", "family", "raise_multiple", "qualifier", "ante_paytable", "raise_paytable", "limits"),
    )
    cd = _table(d.get("currency", {}), "currency", ("code", "minor_per_major"))
    currency = Currency(
        _str(cd.get("code", "USD"), "currency.code"),
        _int(cd.get("minor_per_major", 100), "currency.minor_per_major"),
    )
    ace_king = _bool(d.get("ace_king", False), "ace_king")
    classes = tuple(c for c in HandClass if ace_king or c is not HandClass.ACE_KING)
    if not isinstance(d["limits"], list):
        raise _fail("limits", "expected a list of tables ([[limits]])")
    side_bets = d.get("side_bets", [])
    if not isinstance(side_bets, list):
        raise _fail("side_bets", "expected a list of tables ([[side_bets]])")
    return Variant(
        name=_str(d["name"], "name"),
        title=_str(d.get("title", d["name"]), "title"),
        family=_choice(Family, d["family"], "family"),
        raise_multiple=_fraction(d["raise_multiple"], "raise_multiple"),
        qualifier=_threshold(d["qualifier"], "qualifier"),
        ace_king=ace_king,
        ante_paytable=_paytable(d["ante_paytable"], "ante_paytable", classes),
        raise_paytable=_paytable(d["raise_paytable"], "raise_paytable", classes),
        raise_paytable_no_qualify=_paytable(
            d.get("raise_paytable_no_qualify", {}), "raise_paytable_no_qualify", classes
        ),
        ante_paytable_no_qualify=_paytable(d.get("ante_paytable_no_qualify", {}), "ante_paytable_no_qualify", classes),
        limits=tuple(_limits(t, f"limits[{i}]", currency) for i, t in enumerate(d["limits"])),
        progressive=_progressive(d["progressive"], currency) if "progressive" in d else None,
        side_bets=tuple(_side_bet(t, f"side_bets[{i}]", currency) for i, t in enumerate(side_bets)),
        exchanges=_exchanges(d["exchanges"]) if "exchanges" in d else None,
        seats=_int(d.get("seats", 1), "seats"),
        timing=_timing(d.get("timing", {})),
        currency=currency,
        source=_str(d.get("source", ""), "source"),
        notes=_str(d.get("notes", ""), "notes"),
    )


def _number_out(value: Fraction) -> int | str:
    return int(value) if value.denominator == 1 else str(value)


def _money_out(minor: int, currency: Currency) -> str:
    return currency.format(minor).split()[0]


def _paytable_out(table: Paytable) -> dict[str, int | str]:
    return {c.name.lower(): _number_out(p) for c, p in table.items()}


def _prize_out(prize: Prize, currency: Currency) -> str:
    return f"{prize.meter_share * 100}%" if prize.meter_share else _money_out(prize.amount, currency)


def to_dict(v: Variant) -> dict[str, Any]:
    """The TOML-ready dict of a variant; ``from_dict(to_dict(v)) == v``."""
    c = v.currency
    out: dict[str, Any] = {
        "name": v.name,
        "title": v.title,
        "source": v.source,
        "notes": v.notes,
        "family": str(v.family),
        "raise_multiple": _number_out(v.raise_multiple),
        "qualifier": v.qualifier.spec,
        "ace_king": v.ace_king,
        "seats": v.seats,
        "currency": {"code": c.code, "minor_per_major": c.minor_per_major},
        "ante_paytable": _paytable_out(v.ante_paytable),
        "raise_paytable": _paytable_out(v.raise_paytable),
        "raise_paytable_no_qualify": _paytable_out(v.raise_paytable_no_qualify),
        "ante_paytable_no_qualify": _paytable_out(v.ante_paytable_no_qualify),
        "limits": [_limits_out(lim, c) for lim in v.limits],
        "timing": _timing_out(v.timing),
    }
    if v.progressive:
        p = v.progressive
        out["progressive"] = {
            "stake": _money_out(p.stake, c),
            "contribution": _money_out(p.contribution, c),
            "reset": _money_out(p.reset, c),
            "paid_on_fold": p.paid_on_fold,
            "stays_ticked": p.stays_ticked,
            "split": str(p.split),
            "prizes": {k.name.lower(): _prize_out(z, c) for k, z in p.prizes.items()},
        }
    if v.side_bets:
        out["side_bets"] = [
            {
                "name": b.name,
                "minimum": _money_out(b.minimum, c),
                "maximum": _money_out(b.maximum, c),
                "lost_on_fold": b.lost_on_fold,
                "tiers": [{"hand": t.spec, "pays": _number_out(p)} for t, p in b.tiers],
            }
            for b in v.side_bets
        ]
    if v.exchanges:
        e = v.exchanges
        out["exchanges"] = {
            "fee_antes": _number_out(e.fee_antes),
            "most_per_round": e.most_per_round,
            "most_cards": e.most_cards,
            "must_cover_call": e.must_cover_call,
            "cards": str(e.cards),
        }
    return out


def _limits_out(lim: BetLimits, c: Currency) -> dict[str, Any]:
    d: dict[str, Any] = {
        "minimum": _money_out(lim.minimum, c),
        "maximum": _money_out(lim.maximum, c),
        "below_minimum": str(lim.below_minimum),
        "above_maximum": str(lim.above_maximum),
    }
    if lim.balance_fraction is not None:
        d["balance_fraction"] = _number_out(lim.balance_fraction)
    return d


def _timing_out(t: Timing) -> dict[str, Any]:
    d: dict[str, Any] = {
        k: getattr(t, k) for k in ("bet_seconds", "decision_seconds", "idle_seconds") if getattr(t, k) is not None
    }
    if t.auto_raise is not None:
        d["auto_raise"] = t.auto_raise.spec
    if t.unfinished is not Unfinished.COMPLETE:
        d["unfinished"] = str(t.unfinished)
    if t.open_round_seconds != DAY:
        d["open_round_seconds"] = t.open_round_seconds
    return d


def to_toml(variant: Variant) -> str:
    """The variant as TOML text."""
    return tomli_w.dumps(to_dict(variant))


def read_variant(path: str | Path) -> Variant:
    """A variant from a TOML file; VariantError for a file that is not TOML or not a variant."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise VariantError(f"{path}: {path.stat().st_size:,} bytes; a variant file is at most {MAX_FILE_BYTES:,}")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise VariantError(f"{path}: cannot read: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise VariantError(f"{path}: not UTF-8 text (byte {err.start} is {err.object[err.start]:#04x})") from None
    except tomllib.TOMLDecodeError as err:
        raise VariantError(f"{path}: not valid TOML: {err}") from None
    except ValueError as err:  # tomllib's own: an integer of thousands of digits
        raise VariantError(f"{path}: not valid TOML: {err}") from None
    except RecursionError:
        raise VariantError(f"{path}: not a variant: nested too deep") from None
    try:
        return from_dict(data)
    except VariantError as err:
        raise VariantError(f"{path}: {err}") from None


def write_variant(variant: Variant, path: str | Path) -> None:
    """Writes the variant as a TOML file."""
    Path(path).write_text(to_toml(variant), encoding="utf-8")
