"""What one seat (or an onlooker) is shown: its own cards, the dealer's up card (hold'em: the
flop), everyone's bets before the deal and whether each seat has decided (never what), the
dealer's hidden cards once revealed, and never another seat's cards; the round's commitment
before the deal and, after it, the seat's proof."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..cards import CARD_TEXTS
from ..hands import strength_of_ids
from ..variants import Family, Variant
from .events import built
from .fairness import Commitment, committed, seat_proof
from .ledger import wallet
from .results import bet_results
from .state import Bets, Phase, RoundState, SeatState, TableState

__all__ = ["OtherSeat", "SeatView", "ViewCache", "seat_view"]


@dataclass(frozen=True)
class OtherSeat:
    """Another seat as every seat and onlooker sees it: its bets placed before the deal and whether
    it has decided, never what it decided, its cards, its hand or its winnings (RULES.md, game 3:
    a decision taken by rule on the cards would tell the cards)."""

    seat: int
    player: str | None  # the account sitting there (None: nobody sat down)
    bets: Bets  # the bets placed before the deal: a raise would tell the decision
    dealt: bool
    decided: bool
    settled: bool = False


@dataclass(frozen=True)
class SeatView:
    seat: int | None  # None: an onlooker's view
    player: str | None
    round: int
    phase: Phase
    balance: int
    bets: Bets
    cards: tuple[str, ...]
    dealer: tuple[str, ...]  # stud: the up card until the showdown; hold'em: the dealer's two, once shown
    board: tuple[str, ...]  # hold'em: the flop until the showdown, then all five
    others: tuple[OtherSeat, ...]
    meter: int
    commitment: str  # the root of the round's deck positions, shown before the deal (`fairness`)
    proof: dict[str, Any] | None  # once the round is over: the openings of what the seat was shown
    result: dict[str, Any] | None
    actions: tuple[str, ...]
    deadline: datetime | None
    exchanges: int
    limit: int | None
    currency: str
    revealed: bool = False  # the showdown has shown the dealer's hand
    dealer_qualifies: bool | None = None  # once revealed: whether the dealer's hand qualifies
    void: bool = False  # the round (settled phase) was void: every bet returned, nothing settled
    seed_open: bool = False  # the seat may commit to a seed of its own now (`seeding`)
    seed_committed: str = ""  # the seat's own commitment to a seed this round ("": none)
    ante_most: int | None = None  # the largest ante the rules let the seat place now (None: an onlooker)


_NO_BETS = Bets()


def _texts(cards: list[int]) -> tuple[str, ...]:
    return tuple(map(CARD_TEXTS.__getitem__, cards)) if cards else ()


def _deadline(state: TableState, variant: Variant, me: SeatState | None) -> datetime | None:
    """The bet time while bets are taken; the decision time for a seat still to decide (and for an
    onlooker, while any seat is)."""
    t, r = variant.timing, state.round
    if state.phase is Phase.BETTING and t.bet_seconds and r.opened_at:
        return r.opened_at + timedelta(seconds=t.bet_seconds)
    deciding = me is None or (me.dealt and me.decision is None)
    if state.phase is Phase.DECIDING and deciding and t.decision_seconds and r.dealt_at:
        return r.dealt_at + timedelta(seconds=t.decision_seconds)
    return None


def _other(k: int, s: SeatState, number: int) -> OtherSeat:
    """As `OtherSeat(...)`, made as the views make a dozen a command (`events.built`)."""
    if s.account is not None and s.since > number:  # its holder sat after this round: not its round
        return built(OtherSeat, seat=k, player=s.account, bets=_NO_BETS, dealt=False, decided=False, settled=False)
    bets = s.bets if not s.bets.raise_ else s.bets.but(raise_=0)
    decided, settled = s.decision is not None, s.results is not None
    return built(OtherSeat, seat=k, player=s.account, bets=bets, dealt=s.dealt, decided=decided, settled=settled)


@dataclass
class ViewCache:
    """What the views of one round work out once and show again in every view of it: the deck's
    salts, leaves and root, each settled seat's result as shown and its proof. A table's own (`Table`),
    never its state's: the state holds only what the rules read. Kept for one round at a time
    (`for_round`), so a table serving for months holds one round's."""

    round: int = -1
    seed: bytes = b""
    deck: Commitment | None = None  # the deck's salts, leaves and root (`fairness.committed`), for proofs
    root: str = ""  # the deck's commitment, shown in every view of the round
    qualifies: bool | None = None  # once revealed: whether the dealer's hand qualifies
    results: dict[int, dict[str, Any]] = field(default_factory=dict)
    proofs: dict[int, dict[str, Any]] = field(default_factory=dict)
    at: int = -1  # the state (the table's `seq`) whose seats `others` holds as the others see them
    others: dict[int, OtherSeat] = field(default_factory=dict)
    showing: list[int] = field(default_factory=list)  # at that state: the seats a view shows (but its own)

    def for_round(self, r: RoundState) -> ViewCache:
        """This cache, emptied first when `r` is another round than the one it holds."""
        if r.number != self.round or r.seed != self.seed:
            self.round, self.seed, self.deck, self.root = r.number, r.seed, None, ""
            self.qualifies, self.results, self.proofs = None, {}, {}
        return self

    def other_seats(self, state: TableState, seat: int | None, version: int | None) -> tuple[OtherSeat, ...]:
        """The seats besides `seat` a view shows, each as every other seat sees it: worked out once
        per state (`version`, the table's event count) for all the views of it, or (None) afresh."""
        if version != self.at or version is None:
            self.at, self.others = -1 if version is None else version, {}
            self.showing = [k for k, s in enumerate(state.seats) if s.account is not None or s.dealt or s.bets.total]
        made, number, shown = self.others, state.round.number, []
        for k in self.showing:
            if k != seat:
                other = made.get(k)
                if other is None:
                    other = made[k] = _other(k, state.seats[k], number)
                shown.append(other)
        return tuple(shown)

    def commitment(self, r: RoundState) -> Commitment:
        """The deck's salts, leaves and root, worked out once (the first view that shows the root)."""
        if self.deck is None:
            self.deck = committed(r.seed, r.deck)
        return self.deck

    def root_of(self, r: RoundState) -> str:
        """The deck's commitment, kept for the round once worked out (its leaves only as long as
        `let_go` leaves them)."""
        if not self.root:
            self.root = self.commitment(r).root
        return self.root

    def let_go(self) -> None:
        """Lets go of what a view of the round works out again if asked: the deck's 52 leaves and
        salts, the settled seats' results and proofs, the other seats as shown (11 KB a table, held
        between commands by a server's every table). The root stays: every view shows it."""
        self.deck, self.results, self.proofs, self.at, self.others, self.showing = None, {}, {}, -1, {}, []

    def dealer_qualifies(self, variant: Variant, r: RoundState) -> bool:
        """Whether the dealer's revealed hand qualifies, worked out once for every view of the round."""
        if self.qualifies is None:
            self.qualifies = variant.qualifier.admits(strength_of_ids([*r.dealer, *r.board]))
        return self.qualifies


_OVER = frozenset((Phase.SETTLED, Phase.CLOSED))
"""The phases where the last round is over: its proofs are shown."""


def _proof(
    state: TableState, variant: Variant, seat: int, dealer: list[int], board: list[int], cache: ViewCache
) -> dict[str, Any] | None:
    """The openings of what the seat was shown, once its round is over."""
    r, me = state.round, state.seats[seat]
    if not me.dealt or state.phase not in _OVER:
        return None
    if seat not in cache.proofs:  # worked out once: every view of the settled round shows it again
        known = cache.commitment(r)
        cache.proofs[seat] = seat_proof(
            r.seed, r.deck, variant, r.dealt_seats, r.draws, seat, len(dealer), len(board), known, r.seat_seeds()
        )
    return cache.proofs[seat]


def _result(variant: Variant, seat: int, me: SeatState, cache: ViewCache) -> dict[str, Any] | None:
    """The seat's settled result with each bet spot's own result (`results.bet_results`: the
    settled event's, or for an earlier edition's record derived from its outcome) and whether
    its decision was automatic (`auto`: not the player's), worked out once: every view of the
    settled round shows it again."""
    if me.results is None:
        return None
    if seat not in cache.results:
        bets = bet_results(variant, me.results, me.staked.to_dict())
        cache.results[seat] = {**me.results, "bets": bets, "auto": me.auto}
    return cache.results[seat]


def seat_view(
    state: TableState,
    variant: Variant,
    seat: int | None,
    actions: Sequence[str],
    limit: int | None,
    cache: ViewCache | None = None,
    seeds_open: bool = False,
    ante_most: int | None = None,
    version: int | None = None,
) -> SeatView:
    """The projection of a table's state that `seat` (None: an onlooker) may see; `actions` and
    `limit` are what the table's rules and the account book allow the seat now. A holder sees
    its seat's round only from the round it could be dealt into. `cache`: the table's, where what
    every view of the round shows is worked out once (none: worked out for this view).
    `seeds_open`: the table takes a seat's seed now. `version`: the state's (the table's event
    count), under which the cache keeps what every view of that state shows alike (None: none)."""
    cache = (cache or ViewCache()).for_round(state.round)
    holdem = variant.family is Family.HOLDEM
    r = state.round
    me = None if seat is None else state.seats[seat]
    ours = me is not None and me.since <= r.number
    # a new holder finds a clean felt: the round before it sat is not its round, dealer's hand included
    shown = r.revealed is not None and state.phase is not Phase.BETTING and (me is None or ours)
    deciding, over = state.phase is Phase.DECIDING, state.phase in _OVER
    board = r.board if shown else r.board[:3] if deciding else []
    dealer = r.dealer if shown else [] if holdem or not deciding else r.dealer[-1:]
    others = cache.other_seats(state, seat, version)
    view = object.__new__(SeatView)  # as SeatView(...), every field given, its fields its own dict
    fields = {
        "seat": seat,
        "player": None if me is None else me.account,
        "round": r.number,
        "phase": state.phase,
        "balance": 0 if seat is None else state.ledger.balance(wallet(seat)),
        "bets": me.bets if me is not None and state.phase in (Phase.BETTING, Phase.DECIDING) else _NO_BETS,
        "cards": _texts(me.cards) if me is not None and ours else (),
        "dealer": _texts(dealer),
        "board": _texts(board),
        "others": others,
        "meter": state.ledger.balance("meter"),
        "commitment": cache.root_of(r) if r.seed else "",
        "proof": _proof(state, variant, seat, dealer, board, cache) if seat is not None and ours and over else None,
        "result": _result(variant, seat, me, cache) if seat is not None and me is not None and ours else None,
        "actions": tuple(actions),
        "deadline": _deadline(state, variant, me),
        "exchanges": me.exchanges if me is not None and ours else 0,
        "limit": limit,
        "currency": variant.currency.code,
        "revealed": shown,
        "dealer_qualifies": cache.dealer_qualifies(variant, r) if shown else None,
        "void": r.void and state.phase is Phase.SETTLED and (me is None or ours),
        "seed_open": seeds_open and seat is not None,
        "seed_committed": r.committed.get(seat, "") if seat is not None else "",
        "ante_most": ante_most,
    }
    object.__setattr__(view, "__dict__", fields)  # frozen: set once, here (a view is made a dozen times a command)
    return view
