"""Draws the pictures of the README and the documentation site into docs/: one chart of each kind,
and a screenshot of the terminal client for every game, a round dealt on a seeded table (Textual,
headless).

Run: ``python docs/make_pictures.py``
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from caribbean_fast import load_variant
from caribbean_fast.engine import Table
from caribbean_fast.play import PlaySession
from caribbean_fast.play.app import PlayApp
from caribbean_fast.plots import plot_meter, plot_payout, plot_session, plot_strategy

HERE = Path(__file__).parent
KEYS = {
    "atlantic-city": ["up", "up", "p", "enter"],
    "cyberstud": ["up", "p", "enter"],
    "network-24h": ["up", "p", "enter"],
    "caribbean-poker": ["up", "enter", "x"],
    "casino-holdem": ["up", "b", "enter"],
}


async def _screenshot(name: str) -> Path:
    variant = load_variant(name)
    table = Table(variant, seats=3 if variant.seats > 1 else 1, seed=21)
    for seat in range(table.seats):
        table.deposit(seat, 1000 * variant.currency.minor_per_major)
    app = PlayApp(PlaySession(table), tick_seconds=None)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press(*KEYS[name])
        await pilot.pause()
        return Path(app.save_screenshot(f"play-{name}.svg", str(HERE)))


def main() -> None:
    for name in ("cyberstud", "casino-holdem"):
        print(plot_strategy(load_variant(name), HERE / f"strategy-{name}.png"))
    print(plot_session(load_variant("cyberstud"), 1000, 100, HERE / "session-cyberstud.png"))
    print(plot_meter(load_variant("cyberstud"), HERE / "meter-cyberstud.png"))
    print(plot_payout(load_variant("cyberstud"), "raise:high-card", HERE / "payout-cyberstud.png"))
    for name in KEYS:
        print(asyncio.run(_screenshot(name)))


if __name__ == "__main__":
    main()
