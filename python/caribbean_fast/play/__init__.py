"""Play at the table in the terminal: `keys` (what each key does, the trainer's count), `session`
(a table in this process), `remote` (a server's table), `render` (what is drawn), `app` (the
Textual screen; the optional `play` extra)."""

from .keys import Mistake
from .session import PlaySession

__all__ = ["Mistake", "PlaySession"]
