"""Bad input and attack against a live server: each refused with a clear reason or the socket
closed with one, nothing changed, other players unaffected; cards hidden on the raw frames."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import httpx
import pytest
from live_server import Client, LiveServer, query, recorded, settings
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from caribbean_fast.errors import ServerError
from caribbean_fast.server.wire.logs import RedactTokens
from caribbean_fast.server.wire.protocol import parse


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    with LiveServer(settings(database_url)) as live:
        yield live


def state(server: LiveServer) -> tuple[int, int]:
    """(events recorded, money in wallets): what a refused command must leave alone."""
    [(wallets,)] = query(server.settings.database, "SELECT SUM(amount) FROM wallets")
    return len(recorded(server.settings.database)), int(wallets or 0)


BAD = [
    ("nonsense", None, "malformed"),
    ("[1, 2]", None, "malformed"),
    ('{"v": 1, "id": 3}', 3, "malformed"),
    ('{"v": 2, "id": 4, "type": "ping"}', 4, "version"),
    ('{"v": 1, "id": 5, "type": "steal"}', 5, "unknown_type"),
    ('{"v": 1, "id": 6, "type": "ante", "table": "cyberstud-1", "amount": "100"}', 6, "bad_field"),
    ('{"v": 1, "id": 7, "type": "ante", "table": "cyberstud-1", "amount": 1.5}', 7, "bad_field"),
    ('{"v": 1, "id": 8, "type": "ante", "table": "cyberstud-1", "amount": true}', 8, "bad_field"),
    ('{"v": 1, "id": 9, "type": "ante", "table": "cyberstud-1", "amount": -100}', 9, "bad_field"),
    ('{"v": 1, "id": 10, "type": "ante", "table": "cyberstud-1", "amount": 10000000000000}', 10, "bad_field"),
    ('{"v": 1, "id": 11, "type": "ante", "table": "cyberstud-1"}', 11, "bad_field"),
    ('{"v": 1, "id": 12, "type": "ante", "table": 5, "amount": 100}', 12, "bad_field"),
    ('{"v": 1, "id": 13, "type": "fold", "table": "cyberstud-1", "seat": 0}', 13, "bad_field"),
    ('{"v": 1, "id": 14, "type": "fold", "table": "no-such-table"}', 14, "no_table"),
    ('{"v": 1, "id": 15, "type": "fold", "table": "network-24h-1"}', 15, "not_seated"),
    ('{"v": 1, "id": 16, "type": "exchange", "table": "cyberstud-1", "cards": ["Zz"]}', 16, "bad_field"),
    ('{"v": 1, "id": 17, "type": "sit", "table": "network-24h-1", "buy_in": 100000000}', 17, "insufficient_funds"),
    ('{"v": 1, "id": 18, "type": "sit", "table": "network-24h-1", "buy_in": 100, "seat": 9}', 18, "seat_taken"),
    ('{"v": 1, "id": {"x": 1}, "type": "ping", "extra": 1}', None, "bad_field"),
    # An id the client could not match its answer to: refused, the command not carried out.
    ('{"v": 1, "id": -1, "type": "raise", "table": "cyberstud-1"}', None, "bad_field"),
    ('{"v": 1, "id": 1.5, "type": "raise", "table": "cyberstud-1"}', None, "bad_field"),
    ('{"v": 1, "id": true, "type": "raise", "table": "cyberstud-1"}', None, "bad_field"),
    ('{"v": 1, "id": 9007199254740993, "type": "raise", "table": "cyberstud-1"}', None, "bad_field"),
    ('{"v": 1, "id": "' + "x" * 65 + '", "type": "raise", "table": "cyberstud-1"}', None, "bad_field"),
    # `v` is the integer 1, not what compares equal to it
    ('{"v": true, "id": 19, "type": "ping"}', 19, "version"),
    ('{"v": 1.0, "id": 20, "type": "ping"}', 20, "version"),
    # JSON that broke the socket's handler: nested past 1,024, lone surrogates in a value or a key
    ("[" * 2000 + "]" * 2000, None, "malformed"),
    ('{"v": 1, "id": 21, "type": "fold", "table": "\\ud800"}', None, "malformed"),
    ('{"v": 1, "id": 22, "type": "ping", "\\udc00x": 1}', None, "malformed"),
]


def test_bad_frames_are_refused_and_change_nothing(server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    alice = Client(server.ws, server.guest())
    alice.ok("sit", table="cyberstud-1", buy_in=5_000)
    alice.ok("ante", table="cyberstud-1", amount=100)
    alice.ok("deal", table="cyberstud-1")
    before = state(server)
    for text, ident, code in BAD:
        alice.ws.send(text)
        answer = alice.answer(ident)
        assert answer["ok"] is False and answer["error"]["code"] == code, (text, answer)
        assert answer["error"]["message"]
    alice.ws.send(b'{"v": 1, "id": 23, "type": "ping"}')  # a binary frame: the protocol is text
    assert alice.answer(None)["error"]["code"] == "malformed"
    assert state(server) == before
    alice.ok("raise", table="cyberstud-1")  # the seat plays on
    assert alice.views("cyberstud-1")[-1]["phase"] == "settled"
    assert not [r for r in caplog.records if r.exc_info], "a frame raised inside the server"


def test_no_seat_no_play(server: LiveServer) -> None:
    alice, bob = Client(server.ws, server.guest()), Client(server.ws, server.guest())
    alice.ok("sit", table="cyberstud-1", buy_in=1_000)
    taken = bob.cmd("sit", table="cyberstud-1", buy_in=1_000)
    assert taken["error"]["code"] == "seat_taken"
    assert bob.cmd("ante", table="cyberstud-1", amount=100)["error"]["code"] == "not_seated"
    spectator = Client(server.ws)
    assert spectator.welcome["account"] is None
    assert spectator.cmd("sit", table="network-24h-1", buy_in=100)["error"]["code"] == "unauthorized"
    assert spectator.cmd("ante", table="cyberstud-1", amount=100)["error"]["code"] == "unauthorized"
    assert alice.views("cyberstud-1")[-1]["bets"]["ante"] == 0


def closed_with(client: Client) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(1000):
            client.recv()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_an_oversized_frame_closes_the_socket(server: LiveServer) -> None:
    c = Client(server.ws, server.guest())
    c.ws.send(json.dumps({"v": 1, "id": 1, "type": "ping", "pad": "x" * 5000}))
    assert closed_with(c)[0] == 1009


def test_a_flood_closes_the_socket_and_spares_the_others(server: LiveServer) -> None:
    flooder, other = Client(server.ws, server.guest()), Client(server.ws, server.guest())
    for k in range(200):
        try:
            flooder.ws.send(json.dumps({"v": 1, "id": k, "type": "ping"}))
        except ConnectionClosed:  # the server may close it before the flood is all sent
            break
    assert closed_with(flooder) == (1008, "flood")
    assert other.cmd("ping")["ok"] is True


def test_the_origin_is_checked(server: LiveServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(server.ws, additional_headers={"Origin": "http://evil.example"}, open_timeout=10)
    assert refused.value.response.status_code == 403
    for other in (f"https://127.0.0.1:{server.port}", f"http://127.0.0.1:{server.port + 1}", "http://127.0.0.1"):
        with pytest.raises(InvalidStatus) as refused:  # the scheme, the port, a default port: not its own
            connect(server.ws, additional_headers={"Origin": other}, open_timeout=10)
        assert refused.value.response.status_code == 403, other
    own = Client(server.ws, headers={"Origin": f"http://127.0.0.1:{server.port}"})
    assert own.welcome["type"] == "welcome"


def test_a_bad_token_closes_the_socket(server: LiveServer) -> None:
    c = Client(server.ws, "not-a-token")
    assert c.welcome == {"v": 1, "type": "closed", "reason": "unauthorized"}
    assert closed_with(c)[0] == 4001


CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def test_hidden_cards_never_reach_another_socket(server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    tokens = [server.guest(), server.guest()]
    alice, bob = (Client(server.ws, t) for t in tokens)
    spectator = Client(server.ws)
    Client(f"{server.ws}?token={tokens[0]}").cmd("ping")  # a client without header or cookie: the path uvicorn logs
    spectator.ok("watch", table="network-24h-1")
    for c in (alice, bob):
        c.ok("sit", table="network-24h-1", buy_in=5_000)
        c.ok("ante", table="network-24h-1", amount=50)
    alice.ok("deal", table="network-24h-1")
    bob.cmd("ping")
    spectator.cmd("ping")
    hands = {name: c.views("network-24h-1")[-1]["cards"] for name, c in (("alice", alice), ("bob", bob))}
    up = alice.views("network-24h-1")[-1]["dealer"]
    assert len(hands["alice"]) == len(hands["bob"]) == 5 and len(up) == 1
    before = {name: len(c.raw) for name, c in (("alice", alice), ("bob", bob), ("spectator", spectator))}
    alice.ok("fold", table="network-24h-1")
    bob.ok("raise", table="network-24h-1")
    spectator.cmd("ping")
    alice.cmd("ping")
    final = bob.views("network-24h-1")[-1]
    hole = set(final["dealer"]) - set(up)
    assert len(hole) == 4 and final["revealed"]
    sockets = {"alice": alice, "bob": bob, "spectator": spectator}
    for name, c in sockets.items():
        frames = "".join(c.raw)  # game 3: no frame to a seat holds another seat's cards, the showdown included
        seen = set(CARD.findall(frames))
        for owner, cards in hands.items():
            if owner != name:
                assert not seen & set(cards), f"{name} saw {owner}'s cards"
        assert not set(CARD.findall("".join(c.raw[: before[name]]))) & hole
        assert hole <= set(CARD.findall("".join(c.raw[before[name] :]))), name  # the dealer's, revealed
    seed = _seed(server, "network-24h-1", final["round"])
    assert not any(seed in "".join(c.raw) for c in sockets.values())  # every card follows from it
    logs = caplog.text
    assert "token=[redacted]" in logs  # the query's line was logged, its token taken out
    assert not any(t in logs for t in tokens) and seed not in logs
    assert not any(card in logs for card in hole)
    assert "argon2" not in httpx.get(f"{server.http}/metrics").text


def _seed(server: LiveServer, table: str, number: int) -> str:
    """The round's seed, from the record (where only the audit reads it)."""
    [opened] = [e for e in recorded(server.settings.database, table) if e.round == number and e.kind == "round_opened"]
    return str(opened.secret["seed"])


@pytest.mark.parametrize("ident", [0, "", 2**53, "x" * 64, None, "no id at all"])
def test_ids_at_their_bounds_are_kept(ident: object) -> None:
    absent = ident == "no id at all"
    text = json.dumps({"v": 1, "type": "ping"} | ({} if absent else {"id": ident}))
    assert parse(text).id == (None if absent else ident)


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("18446744073709551616", "amount: must be 1 to 1000000000000, not 1.8446744073709552e+19"),
        ("-3", "amount: must be 1 to 1000000000000, not -3"),
        ("5.0", "amount: must be a whole number from 1 to 1000000000000 (no decimal point or exponent), not 5.0"),
        ('"7"', 'amount: must be a whole number from 1 to 1000000000000 (no decimal point or exponent), not "7"'),
    ],
)
def test_an_amount_is_told_what_is_wrong_with_it(amount: str, message: str) -> None:
    with pytest.raises(ServerError, match="^" + re.escape(message) + "$"):
        parse(f'{{"v": 1, "id": 1, "type": "ante", "table": "cyberstud-1", "amount": {amount}}}')


def test_tokens_are_redacted_from_log_records_of_every_shape() -> None:
    def record(msg: str, args: object) -> logging.LogRecord:
        r = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, msg, None, None)
        r.args = args  # type: ignore[assignment]  # as uvicorn's loggers pass them
        RedactTokens().filter(r)
        return r

    line = record('%s - "WebSocket %s" [accepted]', ("127.0.0.1:5", "/ws?token=s3cret&x=1"))
    assert line.getMessage() == '127.0.0.1:5 - "WebSocket /ws?token=[redacted]&x=1" [accepted]'
    assert isinstance(line.args, tuple) and len(line.args) == 2  # uvicorn's access formatter unpacks them
    assert "s3cret" not in record("GET /?token=s3cret", None).getMessage()
    mismatched = record("%s %s", ("only one",))  # logging reports this one itself: the filter passes it on
    assert mismatched.args == ("only one",)
