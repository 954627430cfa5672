"""A table's view frames: each seat's view (and the onlookers') made once for a state of the
table and shared by every socket that shows it, and sent to the seats' holders and the watchers."""

from __future__ import annotations

from ...engine import Table
from ...words.views import view_to_json
from ..wire.hub import Hub
from ..wire.protocol import frame

__all__ = ["Frames"]


class Frames:
    def __init__(self, table_id: str, hub: Hub) -> None:
        self.table_id, self.hub = table_id, hub
        self._made: dict[int | None, str] = {}  # the frames of the state `_at`: (events, limits)
        self._at = (-1, -1)

    def forget(self) -> None:
        """A table restored or opened anew: no frame of before is shown again."""
        self._at = (-1, -1)

    def view(self, table: Table, limits: int, seat: int | None) -> str:
        """A seat's view (None: an onlooker's), as the engine makes it, for the table's state now
        (its events and the version of the account book's limits)."""
        state = (table.seq, limits)
        if self._at != state:
            self._made, self._at = {}, state
        text = self._made.get(seat)
        if text is None:
            text = self._made[seat] = frame("view", table=self.table_id, view=view_to_json(table.view(seat)))
        return text

    def broadcast(self, table: Table, limits: int, players: dict[int, str]) -> None:
        """Every connected holder's view, and the onlookers' to the watchers. The frames are then
        let go (the sockets' queues hold them until written): kept, they were a view's text a
        seat at every table between its commands, and a socket that asks again is rare."""
        for seat, account in list(players.items()):
            if self.hub.online(account):
                self.hub.to_account(account, self.view(table, limits, seat))
        if self.hub.watching(self.table_id):
            self.hub.to_watchers(self.table_id, self.view(table, limits, None))
        self._made = {}
