"""The package's exceptions: one hierarchy, raised by Python and by the Rust core alike.

Each class says what went wrong, not where: a bad argument to a function is an `ArgumentError`
whichever module refuses it, a variant file that breaks the model is a `VariantError`, and a
settlement asked about an outcome that no deal produces is an `ImpossibleOutcomeError` (a caller's
mistake), never an `IllegalActionError` (a player's action the table refuses). Every class
derives from `CaribbeanFastError`, so the command line turns each into one line and exit status 2;
those about a value are also `ValueError`s. The Rust core raises these same classes (by name), so
the names here are stable.
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "ArgumentTypeError",
    "AuditError",
    "CaribbeanFastError",
    "IllegalActionError",
    "ImpossibleOutcomeError",
    "InsufficientFundsError",
    "InvalidCardsError",
    "MissingExtraError",
    "ReconciliationError",
    "ServerError",
    "StoreError",
    "VariantError",
    "require_type",
]


class CaribbeanFastError(Exception):
    """Base class of every error this package raises on purpose."""


class ArgumentError(CaribbeanFastError, ValueError):
    """An argument outside what the function accepts (a count, a name, a path, a shape); the
    message names the argument and what it must be."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of a type the function cannot take (an array of floats or text where card ids
    are due); also a `TypeError`, as Python's own functions raise for a wrong type."""


def require_type(value: object, kind: type | tuple[type, ...], what: str) -> None:
    """Refuses, as an `ArgumentTypeError`, an argument that is not of the type a public function
    takes (a path where a store is due, text where an outcome is due): the one type check."""
    if not isinstance(value, kind):
        raise ArgumentTypeError(f"{what}, not {type(value).__name__} {value!r:.60}")


class InvalidCardsError(CaribbeanFastError, ValueError):
    """Text or ids that are not a valid set of cards; the message names the card, row or count."""


class VariantError(CaribbeanFastError, ValueError):
    """A variant that breaks the rules of the model; the message names the field and the reason."""


class ImpossibleOutcomeError(CaribbeanFastError, ValueError):
    """An outcome that no deal can produce under the variant (a seat below the qualifier beating
    a qualifying dealer), asked of settlement; the message says why it cannot happen."""


class IllegalActionError(CaribbeanFastError):
    """An action that the round's current state does not allow; nothing was changed."""


class InsufficientFundsError(IllegalActionError):
    """A bet, fee or raise that the wallet cannot cover; nothing was changed."""


class ServerError(CaribbeanFastError):
    """A request the game server refuses or cannot serve; `code` is the protocol's error code
    (docs/protocol.md), the message says what was wrong."""

    def __init__(self, message: str, code: str = "internal") -> None:
        super().__init__(message)
        self.code = code


class ReconciliationError(CaribbeanFastError):
    """The money at a table does not add up: a bug or a tampered record."""


class StoreError(CaribbeanFastError):
    """A store that cannot be opened, read or written as a table's record; nothing was changed."""


class AuditError(CaribbeanFastError):
    """A record that its table did not write, or could not have written; `round` is the first
    round at fault (None when the record as a whole is not a table's)."""

    def __init__(self, round: int | None, reason: str) -> None:
        super().__init__(f"round {round}: {reason}" if round is not None else reason)
        self.round, self.reason = round, reason


class MissingExtraError(CaribbeanFastError, ImportError):
    """A feature whose optional extra is not installed; the message names the pip command."""
