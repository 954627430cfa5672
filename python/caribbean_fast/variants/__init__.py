"""Variants as data: the five games of the rules book as TOML presets, and any variant a user
writes, loaded into one validated model (`model.Variant`)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ..errors import ArgumentTypeError, VariantError
from .model import (
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
from .thresholds import ALIASES, HandThreshold
from .toml_io import from_dict, read_variant, to_dict, to_toml, write_variant

__all__ = [
    "ALIASES",
    "BetLimits",
    "Currency",
    "ExchangeCards",
    "Exchanges",
    "Family",
    "HandThreshold",
    "MeterSplit",
    "OutOfRange",
    "Paytable",
    "Prize",
    "Progressive",
    "SideBet",
    "Timing",
    "Unfinished",
    "Variant",
    "as_variant",
    "example_path",
    "from_dict",
    "list_examples",
    "list_variants",
    "load_variant",
    "preset_path",
    "read_variant",
    "to_dict",
    "to_toml",
    "write_variant",
]

PRESETS = ("atlantic-city", "cyberstud", "network-24h", "caribbean-poker", "casino-holdem")


def _folder(kind: str) -> Path:
    return Path(str(files(__package__) / kind))


def list_variants() -> list[str]:
    """The preset names, in the order of the rules book."""
    return list(PRESETS)


def list_examples() -> list[str]:
    """The example variant files shipped beside the presets (the literal readings RULES.md sets aside)."""
    return sorted(p.stem for p in _folder("examples").glob("*.toml"))


def preset_path(name: str) -> Path:
    """The TOML file of a preset."""
    return _folder("presets") / f"{name}.toml"


def example_path(name: str) -> Path:
    """The TOML file of an example variant."""
    return _folder("examples") / f"{name}.toml"


def as_variant(value: Variant | str | Path, what: str = "variant") -> Variant:
    """A variant given as itself, a preset or example name, or a TOML path: what every public
    function that takes a variant accepts (ArgumentTypeError naming the argument otherwise)."""
    if isinstance(value, Variant):
        return value
    if isinstance(value, str | Path):
        return load_variant(value)
    raise ArgumentTypeError(
        f"{what}: a Variant, a preset name or a TOML path, not {type(value).__name__} {value!r:.60}"
    )


def load_variant(name_or_path: str | Path) -> Variant:
    """A preset or example by name ("cyberstud"), or a variant file by path."""
    text = str(name_or_path)
    if text in PRESETS:
        return read_variant(preset_path(text))
    if text in list_examples():
        return read_variant(example_path(text))
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        return read_variant(path)
    raise VariantError(
        f"{text!r} is neither a preset ({', '.join(PRESETS)}), an example "
        f"({', '.join(list_examples())}), nor a variant file"
    )
