"""Pictures (matplotlib, the optional `plot` extra): the best strategy, simulated sessions, and the
progressive's return against its meter. Each function computes its figures, draws them, and
writes one image (the format follows the file's suffix: .png, .svg, .pdf)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .analysis import analyze
from .analysis.card import StrategyCard, strategy_card, weighted_share
from .analysis.holdem import holdem_rows
from .analysis.stud import stud_rows
from .bounds import MAX_BANKROLL, MAX_PLOT_ROUNDS, checked_number, checked_seed, checked_sessions
from .cards import RANKS
from .errors import ArgumentError, MissingExtraError
from .progress import ProgressCallback
from .simulation import simulate_sessions
from .variants import Family, HandThreshold, Variant

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["draw_strategy_card", "plot_meter", "plot_payout", "plot_session", "plot_strategy", "plot_strategy_card"]


def _figure(**kw: Any) -> Figure:
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError("plots need matplotlib: pip install 'caribbean-fast[plot]'") from None
    return Figure(**kw)


def _save_check(path: str | Path) -> Path:
    """The image's path, refused before any work when it cannot be written."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ArgumentError(f"{path}: the image must end in .png, .svg or .pdf")
    if not path.parent.is_dir():
        raise ArgumentError(f"{path}: the folder {path.parent} does not exist")
    return path


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=120)
    return path


def _stud_strategy(variant: Variant, fig: Figure, progress: ProgressCallback | None) -> None:
    """Ace-King hands (high card, an ace and a king) raised by the best strategy, by up card."""
    rows = stud_rows(variant, progress)
    s = rows.situations
    ranks = (s.hand >> 2).astype(np.int64)
    ace_king = (rows.strength < HandThreshold("pair").strength) & (ranks == 12).any(axis=1) & (ranks == 11).any(axis=1)
    raises = rows.raise_value >= rows.fold_value
    up = s.up_rank.astype(np.int64)
    pairs = (ranks == up[:, None]).any(axis=1)
    ax = fig.add_subplot()
    x = np.arange(13)
    for offset, mask, label in ((-0.2, pairs, "up card pairs a card of the hand"), (0.2, ~pairs, "up card does not")):
        chosen = ace_king & mask
        share = weighted_share(up[chosen], raises[chosen], s.weight[chosen].astype(np.int64), 13)
        ax.bar(x + offset, 100 * share, width=0.4, label=label)
    ax.set_xticks(x, list(RANKS))
    ax.set_xlabel("dealer's up card")
    ax.set_ylabel("Ace-King hands raised (%)")
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 20))
    ax.legend(loc="upper center", ncol=2)
    ax.set_title(f"{variant.title}: best strategy for Ace-King (pairs and better always raise)")


def _holdem_strategy(variant: Variant, fig: Figure, progress: ProgressCallback | None) -> None:
    """The share of flops on which each starting hand calls (pairs on the diagonal, suited above)."""
    rows = holdem_rows(variant, progress)
    cards = rows.situations.cards
    hi = np.maximum(cards[:, 0] >> 2, cards[:, 1] >> 2).astype(np.int64)
    lo = np.minimum(cards[:, 0] >> 2, cards[:, 1] >> 2).astype(np.int64)
    suited = (cards[:, 0] & 3) == (cards[:, 1] & 3)
    row, col = 12 - np.where(suited, hi, lo), 12 - np.where(suited, lo, hi)  # suited above the diagonal
    share = weighted_share(
        row * 13 + col, rows.call_value >= rows.fold_value, rows.situations.weight.astype(np.int64), 169
    )
    grid = 100 * share.reshape(13, 13)
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100)
    labels = list(reversed(RANKS))
    ax.set_xticks(range(13), labels)
    ax.set_yticks(range(13), labels)
    for (r, c), value in np.ndenumerate(grid):
        ax.text(c, r, f"{value:.0f}", ha="center", va="center", fontsize=6)
    fig.colorbar(image, ax=ax, label="flops on which the best strategy calls (%)")
    ax.set_title(f"{variant.title}: call rate by starting hand (suited above the diagonal)", fontsize=9)


def plot_strategy(variant: Variant, path: str | Path, progress: ProgressCallback | None = None) -> Path:
    """The best strategy as a chart: stud, the Ace-King hands raised by up card; hold'em, the
    call rate of each starting hand over every flop. `progress`: as `analyze`'s, told of the
    enumeration of every deal if this process has not made it yet."""
    path = _save_check(path)
    fig = _figure(figsize=(8, 6))
    (_stud_strategy if variant.family is Family.STUD else _holdem_strategy)(variant, fig, progress)
    return _save(fig, path)


def draw_strategy_card(card: StrategyCard, path: str | Path) -> Path:
    """A strategy card as a picture: the grid coloured by the share raised (called), each cell
    written as the text card writes it, and the rules beneath."""
    path = _save_check(path)
    legend = f"{card.bet[0].upper()}: always {card.bet}   F: always fold   n%: {card.bet} n% of them (by deals)"
    lines = [
        part
        for line in (legend, "", *card.rules)
        for part in textwrap.wrap(line, 110, subsequent_indent="    ") or [""]
    ]
    rules = len(lines) - 2
    height = 5.5 + 0.17 * rules  # inches: the grid, then a line a rule
    top, bottom = 1 - 0.95 / height, (0.35 + 0.17 * (rules + 1)) / height
    fig = _figure(figsize=(8.5, height))
    ax = fig.add_axes((0.08, bottom, 0.84, top - bottom))
    shares = np.ma.masked_invalid(card.shares)
    ax.imshow(100 * shares, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(card.columns)), card.columns)
    ax.set_yticks(range(len(card.rows)), card.rows)
    ax.xaxis.tick_top()
    for (r, c), _ in np.ndenumerate(card.shares):
        ax.text(c, r, card.cell(r, c), ha="center", va="center", fontsize=7)
    fig.text(0.08, bottom - 0.45 / height, "\n".join(lines), va="top", fontsize=7, family="monospace")
    fig.suptitle(f"{card.title}\n{card.grid_title}", fontsize=10)
    return _save(fig, path)


def plot_strategy_card(
    variant: Variant, path: str | Path, strategy: str = "best", progress: ProgressCallback | None = None
) -> Path:
    """The strategy card (`analysis.card`) of a named strategy as a picture; `progress` as `analyze`'s."""
    _save_check(path)
    return draw_strategy_card(strategy_card(analyze(variant, strategy, progress)), path)


def _paths(variant: Variant, rounds: int, bankroll: float, count: int, seed: int) -> npt.NDArray[np.float64]:
    """Bankroll paths drawn from the exact distribution of one round's net (the par sheet's
    return table); a path stays where it is once it cannot cover the worst loss."""
    sheet = analyze(variant)
    nets = np.array([float(e.net) for e in sheet.events])
    probabilities = np.array([float(e.probability) for e in sheet.events])
    draws = np.random.default_rng(seed).choice(nets, p=probabilities / probabilities.sum(), size=(count, rounds))
    paths = bankroll + np.cumsum(draws, axis=1)
    worst = 1 + float(variant.raise_multiple)
    for path in paths:
        broke = np.flatnonzero(path < worst)
        if broke.size:
            path[broke[0] :] = path[broke[0]]
    return np.hstack([np.full((count, 1), bankroll), paths])


def plot_session(
    variant: Variant,
    rounds: int,
    bankroll: float,
    path: str | Path,
    sessions: int = 10_000,
    seed: int = 0,
    progress: ProgressCallback | None = None,
) -> Path:
    """Simulated bankroll paths, and the distribution of where sessions end, with the risk of ruin.
    `progress`: as `analyze`'s, told of the enumeration of every deal if this process has not made
    it yet."""
    sessions, rounds = checked_sessions(sessions, rounds, MAX_PLOT_ROUNDS)
    bankroll, seed = checked_number("bankroll", bankroll, MAX_BANKROLL), checked_seed(seed)
    path = _save_check(path)
    analyze(variant, progress=progress)  # counted here, where `progress` hears of it: the sessions and paths read it
    result = simulate_sessions(variant, sessions, rounds, bankroll, seed=seed)
    fig = _figure(figsize=(11, 4.5))
    left, right = fig.subplots(1, 2)
    for line in _paths(variant, rounds, bankroll, 40, seed):
        left.plot(line, linewidth=0.7, alpha=0.7)
    left.axhline(bankroll, color="black", linewidth=0.8, linestyle="--")
    left.set_xlabel("round")
    left.set_ylabel("bankroll (antes)")
    left.set_title("40 sessions (rounds drawn from the exact return table)", fontsize=9)
    right.hist(result.final, bins=60, color="tab:blue")
    right.axvline(bankroll, color="black", linewidth=0.8, linestyle="--")
    right.set_xlabel("bankroll after the session (antes)")
    right.set_ylabel("sessions")
    right.set_title(
        f"{sessions:,} simulated sessions: risk of ruin {100 * result.risk_of_ruin:.1f}% "
        f"(± {100 * result.risk_of_ruin_stderr:.1f}%)",
        fontsize=9,
    )
    fig.suptitle(f"{variant.title}: {rounds:,} rounds from {bankroll:g} antes, best strategy")
    return _save(fig, path)


def plot_meter(variant: Variant, path: str | Path, progress: ProgressCallback | None = None) -> Path:
    """The progressive's expected return per stake against the meter, and where it breaks even.
    `progress`: as `analyze`'s, told of the enumeration of every deal if this process has not made
    it yet."""
    if variant.progressive is None:
        raise ArgumentError(f"{variant.name} has no progressive bet to plot")
    path = _save_check(path)
    p = analyze(variant, progress=progress).progressive
    assert p is not None
    even = p.break_even_meter
    top = max(2 * (even or p.reset), 2 * p.reset)
    meters = np.linspace(0, top, 200)
    returns = [100 * (1 + float(p.expected(int(m)))) for m in meters]
    major = variant.currency.minor_per_major
    fig = _figure(figsize=(8, 5))
    ax = fig.add_subplot()
    ax.plot(meters / major, returns, label="return per stake")
    ax.axhline(100, color="black", linewidth=0.8, linestyle="--", label="break-even (100%)")
    ax.axvline(
        p.reset / major,
        color="tab:gray",
        linewidth=0.8,
        linestyle=":",
        label=f"reset {variant.currency.format(p.reset)}",
    )
    if even is not None:
        ax.axvline(
            even / major, color="tab:red", linewidth=0.8, label=f"breaks even at {variant.currency.format(even)}"
        )
    ax.set_xlabel(f"meter ({variant.currency.code})")
    ax.set_ylabel("return to player (%)")
    ax.legend()
    ax.set_title(f"{variant.title}: the progressive side bet against its meter")
    return _save(fig, path)


def plot_payout(variant: Variant, adjust: str, path: str | Path) -> Path:
    """The main game's exact return as one paytable entry (`raise:one-pair`) runs over its
    allowed values, with the values at which the best strategy changes marked."""
    from .analysis.tune import parse_entry, payout_curve

    path = _save_check(path)
    curve = payout_curve(variant, adjust)
    name = parse_entry(variant, adjust).name
    fig = _figure(figsize=(8, 5))
    ax = fig.add_subplot()
    xs, ys = [float(p.value) for p in curve], [100 * float(p.rtp) for p in curve]
    ax.plot(xs, ys, marker=".", label="return to player, best strategy")
    changes = [p for p in curve if p.strategy_changed]
    if changes:
        ax.scatter(
            [float(p.value) for p in changes],
            [100 * float(p.rtp) for p in changes],
            color="tab:red",
            zorder=3,
            label="the best strategy changes",
        )
    present = float(parse_entry(variant, adjust).value(variant))
    ax.axvline(present, color="tab:gray", linewidth=0.8, linestyle=":", label=f"today's pay: {present:g} to 1")
    ax.set_xlabel(f"{name} (to 1)")
    ax.set_ylabel("return to player (%)")
    ax.legend()
    ax.set_title(f"{variant.title}: the return against {name}")
    return _save(fig, path)
