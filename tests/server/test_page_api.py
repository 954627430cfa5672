"""What the page reads besides the protocol's views: the page routes, a table's rules as JSON
(from the variant the engine plays) and the trainer's `advice` command's refusals."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, settings

import caribbean_fast.server
from caribbean_fast.variants import load_variant
from caribbean_fast.variants.toml_io import from_dict
from caribbean_fast.words.rules import rules_document


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path_factory.mktemp("page") / "tables.db"))) as live:
        yield live


def test_the_page_routes(server: LiveServer) -> None:
    lobby = httpx.get(f"{server.http}/")
    assert lobby.status_code == 200 and '<script type="module" src="/static/js/lobby.js">' in lobby.text
    table = httpx.get(f"{server.http}/play/casino-holdem")
    assert table.status_code == 200 and 'id="felt"' in table.text
    missing = httpx.get(f"{server.http}/play/atlantic-city")  # no such table on this server
    assert missing.status_code == 404 and "No table of the game 'atlantic-city'" in missing.text
    script = httpx.get(f"{server.http}/static/js/fair.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert httpx.get(f"{server.http}/static/js/nothing.js").status_code == 404


STATIC = Path(caribbean_fast.server.__file__).parent / "static"


@pytest.mark.parametrize(
    ("path", "name", "media"),
    [
        ("/", "index.html", "text/html"),
        ("/play/casino-holdem", "table.html", "text/html"),
        ("/rules/cyberstud-1", "rules.html", "text/html"),
        ("/static/js/net.js", "js/net.js", "javascript"),
        ("/static/css/casino.css", "css/casino.css", "text/css"),
        ("/favicon.ico", "favicon.svg", "image/svg+xml"),
    ],
)
def test_a_page_file_is_the_shipped_file_and_revalidates_by_its_etag(
    server: LiveServer, path: str, name: str, media: str
) -> None:
    """Served from memory: the file's bytes as shipped, its ETag; asked again with that ETag
    (as a browser revalidates under `no-cache`), 304 with no body; another ETag, the file."""
    first = httpx.get(f"{server.http}{path}")
    assert first.status_code == 200 and first.content == (STATIC / name).read_bytes()
    assert media in first.headers["content-type"] and first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    again = httpx.get(f"{server.http}{path}", headers={"If-None-Match": f'"other", W/{etag}'})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    changed = httpx.get(f"{server.http}{path}", headers={"If-None-Match": '"not-this-one"'})
    assert changed.status_code == 200 and changed.content == first.content


def test_the_files_are_only_the_shipped_ones(server: LiveServer) -> None:
    """A name that is no shipped file is 404, whatever it holds: a climb out of the folder, a
    folder, a NUL byte."""
    for path in ("/static/../server.py", "/static/%2e%2e/server.py", "/static/js", "/static/js/", "/static/a%00b"):
        assert httpx.get(f"{server.http}{path}").status_code == 404, path


@pytest.mark.parametrize("table", ["cyberstud-1", "network-24h-1", "casino-holdem-1"])
def test_the_rules_are_the_variants(server: LiveServer, table: str) -> None:
    rules = httpx.get(f"{server.http}/api/rules/{table}").json()
    variant = load_variant(rules["game"])
    assert rules["title"] == variant.title and rules["family"] == str(variant.family)
    assert [row["hand"] for row in rules["paytable"]] == [c.label for c in reversed(variant.classes)]
    assert Fraction(rules["raise_multiple"]) == variant.raise_multiple
    assert rules["limits"] == {"minimum": variant.limits[0].minimum, "maximum": variant.limits[0].maximum}
    text = rules.pop("variant_toml")  # the variant itself, which the terminal client loads
    assert from_dict(tomllib.loads(text)) == variant
    assert rules == rules_document(table, variant)  # one presentation, for the page and the terminal
    keys = [c["key"] for c in rules["paytable_columns"]]
    assert all(list(row) == keys for row in rules["paytable"])
    assert rules["stakes"]["default"] == variant.limits[0].minimum and rules["stakes"]["chips"]
    assert rules["currency"]["code"] == variant.currency.code
    assert [b["name"] for b in rules["side_bets"]] == [b.name for b in variant.side_bets]
    assert (rules["progressive"] is None) == (variant.progressive is None)
    if variant.progressive:
        assert len(rules["progressive"]["prizes"]) == len(variant.progressive.prizes)


def test_the_rules_of_no_table(server: LiveServer) -> None:
    answer = httpx.get(f"{server.http}/api/rules/nowhere-1")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_table"


def test_advice_is_refused_without_a_hand_to_decide(server: LiveServer) -> None:
    client = Client(server.ws, server.guest())
    refused = client.cmd("advice", table="casino-holdem-1")
    assert refused["error"]["code"] == "not_seated"
    client.ok("sit", table="casino-holdem-1", buy_in=10_000)
    refused = client.cmd("advice", table="casino-holdem-1")
    assert refused["error"] == {"code": "illegal", "message": "there is no undecided hand to advise on"}
    assert client.cmd("advice", table="nowhere-1")["error"]["code"] == "no_table"
    assert client.cmd("advice")["error"]["code"] == "bad_field"
    client.close()


def test_a_served_table_has_advice_at_its_first_decision(tmp_path: Path) -> None:
    """`serve` builds every game's trainer tables at start (hold'em's read from the cache of
    counted tables once they were counted, stud's counted), and says it is `warming` on /healthz
    until then; from then on the first decision at any table is advised at once: no `ready: false`."""
    with LiveServer(settings(str(tmp_path / "warm.db"), warm_trainer=True)) as live:
        deadline = time.monotonic() + 120
        while httpx.get(f"{live.http}/healthz").json()["warming"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert httpx.get(f"{live.http}/healthz").json()["warming"] is False
        client = Client(live.ws, live.guest())
        for table in ("casino-holdem-1", "cyberstud-1"):
            client.ok("sit", table=table, buy_in=10_000)
            client.ok("ante", table=table, amount=100)
            client.ok("deal", table=table)
            advice = client.ok("advice", table=table)
            assert advice["ready"] is True and advice["best"] in ("raise", "fold"), table
        client.close()
