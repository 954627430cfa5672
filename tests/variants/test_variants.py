"""Variants as data: the presets, validation that names the field, TOML round trips."""

from __future__ import annotations

import pickle
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caribbean_fast import ArgumentError, HandClass, VariantError, evaluate, list_variants, load_variant
from caribbean_fast.variants import (
    BetLimits,
    Currency,
    ExchangeCards,
    Exchanges,
    Family,
    HandThreshold,
    MeterSplit,
    OutOfRange,
    Prize,
    Progressive,
    SideBet,
    Timing,
    Variant,
    from_dict,
    list_examples,
    preset_path,
    read_variant,
    to_dict,
    to_toml,
    write_variant,
)

PRESET_TEXT = preset_path("atlantic-city").read_text()


def test_the_five_presets_and_two_examples_load() -> None:
    assert list_variants() == [
        "atlantic-city",
        "cyberstud",
        "network-24h",
        "caribbean-poker",
        "casino-holdem",
    ]
    assert list_examples() == ["caribbean-poker-choose", "cyberstud-literal", "network-24h-literal"]
    games = {name: load_variant(name) for name in list_variants() + list_examples()}
    assert games["cyberstud-literal"].raise_multiple == 1
    assert games["network-24h"].seats == 4 and len(games["network-24h"].limits) == 2
    assert games["casino-holdem"].family is Family.HOLDEM
    assert games["caribbean-poker"].exchanges == Exchanges(Fraction(1), 3, 5, True, ExchangeCards.ALL)
    assert games["caribbean-poker-choose"].exchanges == Exchanges(Fraction(1), 3, 5, True, ExchangeCards.CHOOSE)
    assert games["network-24h-literal"].qualifier.strength == evaluate("Kc 5d 4h 3s 2c").strength
    assert games["atlantic-city"].qualifier.strength == evaluate("Ac Kd 4h 3s 2c").strength
    assert games["casino-holdem"].qualifier.strength == evaluate("4c 4d 5h 3s 2c").strength


def test_ace_king_is_a_class_only_where_named() -> None:
    poker, stud = load_variant("caribbean-poker"), load_variant("cyberstud")
    ak, aq = evaluate("As Kd 8h 7c 3s").strength, evaluate("As Qd 8h 7c 3s").strength
    assert poker.classify(ak) is HandClass.ACE_KING and poker.classify(aq) is HandClass.HIGH_CARD
    assert stud.classify(ak) is HandClass.HIGH_CARD
    assert HandClass.ACE_KING in poker.classes and HandClass.ACE_KING not in stud.classes
    assert poker.classify(evaluate("As Ad 8h 7c 3s").strength) is HandClass.ONE_PAIR


@pytest.mark.parametrize("name", list_variants() + list_examples())
def test_presets_round_trip_through_toml(name: str, tmp_path: Path) -> None:
    variant = load_variant(name)
    path = tmp_path / f"{name}.toml"
    write_variant(variant, path)
    assert read_variant(path) == variant
    assert load_variant(str(path)) == variant


def test_limits_adjust_as_each_game_states() -> None:
    ac = load_variant("atlantic-city").limits[0]
    assert ac.adjust(300, balance=100_000) == 500  # below the minimum: raised to it
    assert ac.adjust(20_000, balance=60_000) == 20_000  # at most a third of the balance ...
    assert ac.adjust(20_001, balance=60_000) is None  # ... and no more
    assert ac.adjust(40_000, balance=1_000_000) is None  # above 300 dollars: refused
    assert ac.adjust(500, balance=1_000) is None  # a third of 10 dollars cannot cover the minimum
    holdem = load_variant("casino-holdem").limits[0]
    assert holdem.adjust(50_000) == 10_000  # over the limit: adjusted down
    assert holdem.adjust(50) is None


def test_replace_derives_a_validated_copy() -> None:
    base = load_variant("cyberstud")
    richer = base.replace(raise_paytable={**base.raise_paytable, HandClass.ROYAL_FLUSH: Fraction(500)})
    assert richer.raise_paytable[HandClass.ROYAL_FLUSH] == 500 and base.raise_paytable[HandClass.ROYAL_FLUSH] == 100
    with pytest.raises(VariantError, match="raise_multiple: must be more than 0"):
        base.replace(raise_multiple=Fraction(0))
    with pytest.raises(VariantError, match="raise_multipel"):
        base.replace(raise_multipel=3)


def _bad(old: str, new: str) -> str:
    assert old in PRESET_TEXT, old
    return PRESET_TEXT.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _bad("raise_multiple = 2", "raise_multipel = 2"),
            r"raise_multipel: unknown key \(did you mean raise_multiple\?\)",
        ),
        (_bad("raise_multiple = 2", "raise_multiple = 0"), "raise_multiple: must be more than 0"),
        (_bad("raise_multiple = 2", 'raise_multiple = "two"'), "raise_multiple: expected a number"),
        (_bad("royal_flush = 200", "royal_flush = -200"), "royal_flush: must be 0 to 1,000,000, not -200"),
        (_bad("royal_flush = 200", 'royal_flush = "lots"'), "raise_paytable.royal_flush: expected a number"),
        (_bad("royal_flush = 200", "royal_flush = true"), "raise_paytable.royal_flush: expected a number"),
        (_bad("royal_flush = 200", "royal_flush = 200\nfive_aces = 1000"), "five_aces.*is not a hand class"),
        (_bad("straight_flush = 50\n", ""), "raise_paytable: no payout for straight_flush"),
        (_bad('qualifier = "ace-king"', 'qualifier = "A K 4 3"'), "qualifier: 'A K 4 3' is not a hand"),
        (
            _bad('qualifier = "ace-king"', 'qualifier = "A A A A A"'),
            "qualifier: .*no rank appears five times",
        ),
        (_bad('qualifier = "ace-king"', "qualifier = 7"), "qualifier: expected text"),
        (_bad('minimum = "5.00"', 'minimum = "500.00"'), "minimum 50000 is above maximum 30000"),
        (_bad('minimum = "5.00"', 'minimum = "5.001"'), r"limits\[0\].minimum: 5.001 is not a whole number"),
        (
            _bad('royal_flush = "100%"', 'royal_flush = "150%"'),
            "royal_flush: a meter share must be .* at most 100%",
        ),
        (_bad('family = "stud"', 'family = "draw"'), "family: 'draw' is not a valid Family"),
        (
            _bad("[progressive]\n", "[progressive]\nstakes = 1\n"),
            r"progressive.stakes: unknown key \(did you mean stake\?\)",
        ),
        (
            _bad('below_minimum = "adjust"', 'below_minimum = "maybe"'),
            "below_minimum: 'maybe' is not a valid",
        ),
        (_bad("seats = 1", "seats = 9"), "seats: must be 1 to 7"),
        (_bad("seats = 1", "seats = 1.5"), "seats: expected a whole number"),
        (_bad('code = "USD"', 'code = "DOLLARS"'), "currency.code: 'DOLLARS' is not a 3-letter code"),
        (
            _bad("ace_king = false", "ace_king = false")
            if "ace_king" in PRESET_TEXT
            else _bad("high_card = 1", "ace_king = 1\nhigh_card = 1"),
            "Ace-King is not a class of this variant",
        ),
        ("name = 'x'\nfamily = [", "not valid TOML"),
        ('name = "x"', r"family: missing"),
    ],
)
def test_bad_variants_name_the_field_and_reason(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(VariantError, match=message):
        read_variant(path)


def test_unknown_names_and_files() -> None:
    with pytest.raises(VariantError, match="neither a preset"):
        load_variant("no-such-game")
    with pytest.raises(VariantError, match="cannot read"):
        load_variant("missing.toml")
    assert isinstance(VariantError("x"), ValueError)


# Random valid variants: every field drawn from its valid range.
money = st.integers(1, 1_000_000)
pays = st.fractions(min_value=0, max_value=500, max_denominator=4)
thresholds = st.sampled_from(
    ["ace-king", "pair-of-fours", "any", "flush", "straight", "A K 4 3 2", "Q J 9 5 2", "pair", "2 2 3 3 4"]
).map(HandThreshold)


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    ace_king = draw(st.booleans())
    classes = [c for c in HandClass if ace_king or c is not HandClass.ACE_KING]
    currency = Currency(draw(st.sampled_from(["USD", "EUR", "JPY"])), draw(st.sampled_from([1, 100, 1000])))
    low = 2 * draw(money)  # halves of a minimum ante (a raise or fee of 1/2) are whole minor units
    limits = tuple(
        BetLimits(
            low,
            low + draw(money),
            draw(st.none() | st.fractions(Fraction(1, 10), 1, max_denominator=10)),
            draw(st.sampled_from(OutOfRange)),
            draw(st.sampled_from(OutOfRange)),
        )
        for _ in range(draw(st.integers(1, 3)))
    )
    stake = draw(money)
    progressive = draw(
        st.none()
        | st.just(
            Progressive(
                stake=stake,
                prizes={
                    c: draw(
                        st.builds(Prize, amount=money)
                        | st.builds(Prize, meter_share=st.fractions(Fraction(1, 100), 1, max_denominator=100))
                    )
                    for c in draw(st.lists(st.sampled_from(classes), min_size=1, unique=True))
                },
                contribution=draw(st.integers(0, stake)),
                reset=draw(st.integers(0, 10**9)),
                paid_on_fold=draw(st.booleans()),
                stays_ticked=draw(st.booleans()),
                split=draw(st.sampled_from(MeterSplit)),
            )
        )
    )
    side_bets = tuple(
        SideBet(
            f"side-{i}",
            tuple(
                (t, draw(pays.filter(bool))) for t in draw(st.lists(thresholds, min_size=1, max_size=3, unique=True))
            ),
            low,
            low + draw(money),
            draw(st.booleans()),
        )
        for i in range(draw(st.integers(0, 2)))
    )
    family = draw(st.sampled_from(Family))
    exchanges = (
        draw(
            st.none()
            | st.builds(
                Exchanges,
                st.fractions(0, 3, max_denominator=2),
                st.integers(1, 6),
                st.integers(1, 5),
                st.booleans(),
                st.just(ExchangeCards.CHOOSE),
            ).filter(lambda x: x.cards_needed(1) <= 52)
            | st.builds(Exchanges, st.fractions(0, 3, max_denominator=2), st.integers(1, 6))
        )
        if family is Family.STUD
        else None
    )
    return Variant(
        name=draw(st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)),
        title=draw(st.text(max_size=30).filter(str.isprintable)),
        family=family,
        raise_multiple=draw(st.fractions(Fraction(1, 2), 5, max_denominator=2)),
        qualifier=draw(thresholds),
        ace_king=ace_king,
        ante_paytable={c: draw(pays) for c in classes},
        raise_paytable={c: draw(pays) for c in classes},
        raise_paytable_no_qualify={c: draw(pays) for c in draw(st.lists(st.sampled_from(classes), unique=True))},
        ante_paytable_no_qualify=draw(st.just({}) | st.just({c: draw(pays) for c in classes})),
        limits=limits,
        progressive=progressive,
        side_bets=side_bets,
        exchanges=exchanges,
        seats=1
        if family is Family.HOLDEM
        else draw(st.integers(1, max(s for s in range(1, 8) if exchanges is None or exchanges.cards_needed(s) <= 52))),
        timing=Timing(
            draw(st.none() | st.integers(1, 99).map(float)),
            draw(st.none() | st.floats(0.5, 600)),
            draw(st.none() | st.integers(1, 3600).map(float)),
            draw(st.none() | thresholds),
        ),
        currency=currency,
        source=draw(st.text(max_size=20)),
        notes=draw(st.text(max_size=80)),
    )


@pytest.mark.slow
@settings(max_examples=100)
@given(variants())
def test_random_valid_variants_survive_a_toml_round_trip(variant: Variant) -> None:
    import tomllib

    assert from_dict(tomllib.loads(to_toml(variant))) == variant
    assert from_dict(to_dict(variant)) == variant


def test_a_deal_that_can_exhaust_the_deck_is_refused() -> None:
    game4 = load_variant("caribbean-poker")
    assert game4.exchanges is not None and game4.exchanges.cards_needed(2) == 45
    game4.replace(seats=2)  # 15 dealt and two seats' three exchanges of five: 45 of 52 cards
    with pytest.raises(VariantError, match=r"exchanges: 3 seat\(s\) with 3 exchanges of up to 5 cards can need 65"):
        game4.replace(seats=3)
    with pytest.raises(VariantError, match="can need 55 cards; the deck has 52"):
        game4.replace(exchanges=Exchanges(most_per_round=9))


def test_the_exchange_rule_is_validated() -> None:
    with pytest.raises(VariantError, match=r"exchanges.most_cards: an exchange of all cards gives up 5, not 2"):
        Exchanges(most_cards=2)
    text = preset_path("caribbean-poker").read_text().replace('cards = "all"', 'cards = "some"')
    with pytest.raises(VariantError, match=r"exchanges\.cards"):
        from_dict(tomllib.loads(text))
    choose = load_variant("caribbean-poker-choose")
    assert from_dict(tomllib.loads(to_toml(choose))) == choose


@pytest.mark.slow
@settings(max_examples=100)
@given(variants())
def test_a_variant_hashes_by_its_rules(variant: Variant) -> None:
    again = from_dict(tomllib.loads(to_toml(variant)))
    assert again is not variant and hash(again) == hash(variant) and {variant: 1}[again] == 1
    assert pickle.loads(pickle.dumps(variant)) == variant


def test_paytables_cannot_change_in_place() -> None:
    v = load_variant("cyberstud")
    with pytest.raises(TypeError):
        v.ante_paytable[HandClass.FLUSH] = Fraction(9)  # type: ignore[index]
    richer = v.replace(raise_paytable={**v.raise_paytable, HandClass.FLUSH: Fraction(9)})
    assert richer != v and richer.raise_paytable[HandClass.FLUSH] == 9 and v.raise_paytable[HandClass.FLUSH] == 5


LOWEST = {
    HandClass.HIGH_CARD: "7c 5d 4h 3s 2c",
    HandClass.ACE_KING: "Ac Kd 4h 3s 2c",
    HandClass.ONE_PAIR: "2c 2d 5h 4s 3c",
    HandClass.TWO_PAIR: "3c 3d 2h 2s 4c",
    HandClass.THREE_OF_A_KIND: "2c 2d 2h 4s 3c",
    HandClass.STRAIGHT: "5c 4d 3h 2s Ac",
    HandClass.FLUSH: "7c 5c 4c 3c 2c",
    HandClass.FULL_HOUSE: "2c 2d 2h 3s 3c",
    HandClass.FOUR_OF_A_KIND: "2c 2d 2h 2s 3c",
    HandClass.STRAIGHT_FLUSH: "5c 4c 3c 2c Ac",
    HandClass.ROYAL_FLUSH: "Ac Kc Qc Jc Tc",
}
"""The lowest hand of each class, written out by hand."""


@pytest.mark.parametrize("name", ["cyberstud", "caribbean-poker"])
def test_class_floors_are_the_lowest_hands_of_each_class(name: str) -> None:
    v = load_variant(name)
    for hand_class in v.classes:
        floor = evaluate(LOWEST[hand_class]).strength
        assert v.floor(hand_class) == floor and v.classify(floor) is hand_class
        assert floor == 1 or v.classify(floor - 1) < hand_class
    with pytest.raises(ArgumentError, match="is not a class of cyberstud"):
        load_variant("cyberstud").floor(HandClass.ACE_KING)
