"""``caribbean-fast variants [show NAME_OR_PATH]``: list the presets, or print one variant."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from ..variants import list_examples, list_variants, load_variant
from ..words.describe import render_variant
from ..words.rules import summary


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("variants", help="list the presets, or show one variant's rules and paytables")
    parser.set_defaults(run=run, show=None)
    sub = parser.add_subparsers(dest="variants_command")
    show = sub.add_parser("show", help="print a preset, example or variant file as tables")
    show.add_argument("show", metavar="NAME_OR_PATH")


def run(args: argparse.Namespace) -> int:
    console = Console()
    if args.show:
        console.print(render_variant(load_variant(args.show)))
        return 0
    table = Table(title="Presets (caribbean-fast variants show NAME)")
    table.add_column("name", style="bold")
    table.add_column("summary")
    for name in list_variants():
        table.add_row(name, summary(load_variant(name)))
    for name in list_examples():
        table.add_row(f"{name} (example)", summary(load_variant(name)))
    console.print(table)
    return 0
