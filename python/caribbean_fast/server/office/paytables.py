"""Paytables changed through the exact analysis, the office's half: a proposal (a preset, an
example variant file, a variant's TOML text, or the designer run to a target return) is made a
variant of a new name (a preset is the rules book's and is never changed in place), analysed
exactly before anything changes, its text kept by its hash, and approved by a second operator.

What a change does to a progressive pool: a pool is one per game name, currency and prize
schedule (`pools.pool_key`). A variant under a new name is therefore a new pool, opened at its
reset; the old pool keeps its meter, which the players of the old variant's tables still play
for. Each proposal states both keys, whether the schedule changed, and the old meter.

Applying an approved change is the tables' half (`tables/paytables`): each table takes it at its
next round boundary, by the engine's `change_variant`, which records the variant's text and hash
so that every old round still replays under the text it was played with."""

from __future__ import annotations

import asyncio
import hashlib
import tomllib
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...analysis import analyze
from ...analysis.document import par_document
from ...analysis.markdown import document_markdown
from ...analysis.tune import tune
from ...errors import CaribbeanFastError, ServerError
from ...variants import Variant, example_path, list_examples, list_variants, load_variant
from ...variants.toml_io import from_dict, to_toml
from ..accounts import check_name
from ..store import pools
from ..store.schema import Tx
from .host import OfficeHost

__all__ = ["SOURCES", "candidate", "figures", "pool_note"]

SOURCES = ("preset", "example", "text", "designer")
_analysing = asyncio.Lock()  # one exact analysis at a time: the machine's cores are the tables'


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def figures(variant: Variant) -> dict[str, Any]:
    """The par sheet's headline figures under the best strategy, exact fractions and as read."""
    sheet = analyze(variant, "best")
    return {
        "rtp": _percent(sheet.rtp),
        "house_edge": _percent(sheet.house_edge),
        "house_edge_exact": str(sheet.house_edge),
        "element_of_risk": _percent(sheet.element_of_risk),
        "average_wager": f"{float(sheet.average_wager):.4f}",
        "std_dev": f"{float(sheet.std_dev):.4f}",
        "hit_frequency": _percent(sheet.hit_frequency),
        "player_edge": bool(sheet.player_edge),
        "paytable": {c.name.lower(): str(v) for c, v in variant.raise_paytable.items()},
    }


def _text(body: dict[str, Any], key: str, most: int = 4000) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        raise ServerError(f"{key}: a text of 1 to {most} characters", "bad_field")
    return value


def candidate(body: dict[str, Any], current: Variant) -> Variant:
    """The proposed variant, under its new name, from the request's source; bad input names its field."""
    source, name = body.get("source"), check_name(body.get("name"))
    if source not in SOURCES:
        raise ServerError(f"source: one of {', '.join(SOURCES)}", "bad_field")
    if name in list_variants() or name in list_examples() or name == current.name:
        why = f"name: {name!r} is a preset's, an example's or the game's own: choose a new one"
        raise ServerError(why, "bad_field")
    try:
        if source == "preset":
            variant = load_variant(_text(body, "preset", 64))
        elif source == "example":
            variant = load_variant(example_path(_text(body, "example", 64)))
        elif source == "text":
            variant = from_dict(tomllib.loads(_text(body, "text")))
        else:
            target, entry = _text(body, "target", 16), _text(body, "adjust", 64)
            variant = tune(current, target, [entry]).chosen.variant
    except (CaribbeanFastError, tomllib.TOMLDecodeError, ValueError) as err:
        raise ServerError(f"{source}: {err}".partition("\n")[0], "bad_field") from None
    if variant.family != current.family or variant.seats < 1:
        raise ServerError(f"{source}: a {variant.family} variant cannot replace the {current.family} game", "bad_field")
    _fits_the_tables(source, variant, current)
    return replace(variant, name=name)


def _fits_the_tables(source: str, variant: Variant, current: Variant) -> None:
    """What the engine would refuse at every table, refused here, before an approval that no table
    could take: another currency, fewer seats or limit tables, a progressive added or taken away
    (a pool's schedule may change: a new pool opens at its reset)."""
    if variant.currency != current.currency:
        why = f"{source}: the game plays in {current.currency.code}, not {variant.currency.code}"
        raise ServerError(why, "bad_field")
    if variant.seats < current.seats or len(variant.limits) < len(current.limits):
        why = f"{source}: the game's tables need {current.seats} seats and {len(current.limits)} limit tables"
        raise ServerError(why, "bad_field")
    if (variant.progressive is None) != (current.progressive is None):
        have = "has" if current.progressive else "has no"
        raise ServerError(f"{source}: the game {have} a progressive: a change keeps that", "bad_field")


def pool_note(tx: Tx, current: Variant, proposed: Variant) -> dict[str, Any] | None:
    """What the change does to the progressive pool (None: neither variant has one)."""
    old, new = pools.pool_key(current), pools.pool_key(proposed)
    if old is None and new is None:
        return None
    meter = pools.meters(tx).get(old) if old else None
    same = current.progressive == proposed.progressive
    return {"old_pool": old, "new_pool": new, "schedule_changed": not same, "old_meter": meter}


async def analysed(host: OfficeHost, current: Variant, proposed: Variant) -> tuple[str, str, dict[str, Any]]:
    """The proposed variant's text, its hash, and the figures beside the current game's."""
    text = to_toml(proposed)
    async with _analysing:
        now = await asyncio.to_thread(figures, current)
        then = await asyncio.to_thread(figures, proposed)
    if then["player_edge"]:
        why = f"the proposed paytable gives the player the edge (return {then['rtp']} of the amount wagered)"
        raise ServerError(why, "bad_field")
    note = await host.reads.run(lambda tx: pool_note(tx, current, proposed))
    sheet = {"current": now, "proposed": then, "pool": note, "currency": proposed.currency.code}
    return text, hashlib.sha256(text.encode()).hexdigest(), sheet


async def par_sheet(text: str) -> str:
    """A proposal's whole par sheet (Markdown: the rules, the paytables, every table, the strategy
    card, the figures' provenance), from its kept text: what an operator reads before approving."""
    variant = from_dict(tomllib.loads(text))
    async with _analysing:
        return await asyncio.to_thread(lambda: document_markdown(par_document(variant)))
