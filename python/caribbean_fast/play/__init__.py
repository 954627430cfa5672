"""Play at the table in the terminal: `session` (what each key does, the trainer), `render` (what
is drawn), `app` (the Textual screen; the optional `play` extra)."""

from .session import Mistake, PlaySession

__all__ = ["Mistake", "PlaySession"]
