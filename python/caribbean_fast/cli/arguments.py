"""Argument types for the options that argparse reads as numbers before any work starts: each
applies the package's own bound (`bounds`), so no text a user types (``inf``, ``nan``, ``-1``)
reaches the API as a value it cannot hold. `OneLineParser` turns every refusal (a bad value, an
unknown option, a missing argument) into one line on stderr and exit status 2, like the package's
own errors."""

from __future__ import annotations

import argparse
import ipaddress
import math
from typing import NoReturn

from ..bounds import checked_seed
from ..errors import ArgumentError

__all__ = ["OneLineParser", "addresses", "port", "positive", "seed"]


class OneLineParser(argparse.ArgumentParser):
    """A parser whose refusals are one line naming the command and what was wrong (issue 12).

    Sub-parsers are made by `add_subparsers`, which builds them of the parent's class, so the
    top-level parser being one of these makes every sub-command's parser one too."""

    def error(self, message: str) -> NoReturn:
        reason = message.removeprefix("argument ")
        self.exit(2, f"{self.prog}: error: {reason} (see {self.prog} --help)\n")


def positive(text: str) -> float:
    """A finite number above 0, e.g. a balance."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a finite number above 0")
    return value


def positive_int(text: str) -> int:
    """A whole number above 0, e.g. a count of connections."""
    if not text.strip().isdecimal() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return int(text)


def seed(text: str) -> int:
    """A seed: a whole number 0 to 2^64 - 1 (`bounds.checked_seed`)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    try:
        return checked_seed(value)
    except ArgumentError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def addresses(text: str) -> tuple[str, ...]:
    """IP addresses and networks, comma-separated (`127.0.0.1,10.0.0.0/8`), or `*` for any."""
    entries = tuple(e.strip() for e in text.split(",") if e.strip())
    for entry in entries:
        if entry != "*":
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{entry!r} is not an IP address, a network or *") from None
    return entries


def port(text: str) -> int:
    """A TCP port to listen on: 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port (1 to 65535)")
    return value
