"""The package's exceptions: one hierarchy, raised by Python and by the Rust core alike."""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "CaribbeanFastError",
    "IllegalActionError",
    "InsufficientFundsError",
    "InvalidCardsError",
    "ServerError",
    "VariantError",
]


class CaribbeanFastError(Exception):
    """Base class of every error this package raises on purpose."""


class ArgumentError(CaribbeanFastError, ValueError):
    """An argument outside what the function accepts (a count, a name, a path, a shape); the
    message names the argument and what it must be."""


class InvalidCardsError(CaribbeanFastError, ValueError):
    """Text or ids that are not a valid set of cards; the message names the card, row or count."""


class VariantError(CaribbeanFastError, ValueError):
    """A variant that breaks the rules of the model; the message names the field and the reason."""


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
