"""Random bad input to every command-line sub-command and the public functions (issue 12): each
ends in the package's error (for the command line: exit 2 and one line) or a correct answer,
within a memory bound and a time bound, and leaves every store it was given byte for byte as it
was. Each request runs in a forked child of tests/helpers/bad_input_worker.py (memory capped by
setrlimit), so that a crash is reported rather than taking the test runner down."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caribbean_fast.cli import main

pytestmark = pytest.mark.slow

HELPERS = Path(__file__).parents[1] / "helpers"
NUMBERS = [
    "-1",
    "0",
    "-5",
    "2.5",
    "1e20",
    "1e300",
    "nan",
    "inf",
    "-inf",
    str(2**64),
    str(-(2**64)),
    "",
    "x",
    "9" * 5000,
]
BAD_COUNTS = ["-1", "0", "-5", "1e20", "nan", "inf", str(2**64), "x"]
GAMES = ["cyberstud", "network-24h", "caribbean-poker", "casino-holdem", "atlantic-city"]


class Worker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HELPERS / "bad_input_worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        """Ends the worker and closes both pipes (an unclosed one is a ResourceWarning whenever it
        is collected, in whichever test runs then)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    w = Worker()
    yield w
    w.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A record, and files that are not one: the paths the commands are given."""
    folder = tmp_path_factory.mktemp("bad-input")
    record = folder / "record.db"
    assert main(["table", "run", "network-24h", "--store", str(record), "--rounds", "3", "--seats", "2"]) == 0
    (folder / "empty.db").touch()
    (folder / "text.db").write_text("not a database\n" * 40)
    (folder / "latin.toml").write_bytes("name = 'caf\xe9'\n".encode("latin-1"))
    (folder / "folder.toml").mkdir()
    import sqlite3

    db = sqlite3.connect(folder / "foreign.db")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    return {p.name: p for p in folder.iterdir()} | {"missing.db": folder / "missing.db", "new.db": folder / "new.db"}


def fingerprint(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def option(name: str, values: list[str]) -> st.SearchStrategy[list[str]]:
    return st.sampled_from(values).map(lambda v: [f"{name}={v}"])


def table_argv(paths: list[str]) -> st.SearchStrategy[list[str]]:
    """`table` jobs: readers on any file, and runs that always carry at least one bad option."""
    reader = st.tuples(st.sampled_from(["audit", "history"]), st.sampled_from(paths)).map(lambda t: ["table", *t])
    seat = st.tuples(reader, option("--seat", NUMBERS), option("--last", NUMBERS)).map(
        lambda t: [*t[0], *t[1], *t[2]] if t[0][1] == "history" else t[0]
    )
    bad = st.one_of(
        option("--seats", ["-1", "0", "99", "x"]), option("--balance", NUMBERS[:7]), option("--ante", ["-5", "0", "x"])
    )
    run = st.tuples(
        st.sampled_from([*GAMES, "nonsense", *paths]),
        st.sampled_from(paths),
        st.booleans(),
        bad,
        st.one_of(st.just([]), option("--rounds", BAD_COUNTS), option("--seed", NUMBERS)),
    ).map(lambda t: ["table", "run", t[0], "--store", t[1], *(["--resume"] if t[2] else []), *t[3], *t[4]])
    return st.one_of(seat, run)


def server_argv(paths: list[str]) -> st.SearchStrategy[list[str]]:
    """`serve` and `accounts` jobs that must be refused before a server starts or a database is
    made: each carries a bad option, a bad name or amount, or a file that is not a server's."""
    not_server = [p for p in paths if not p.endswith(("missing.db", "new.db", "empty.db"))]
    bad_serve = st.one_of(
        option("--port", ["-1", "0", "65536", "x", "1e3"]),
        option("--grace", ["nan", "inf", "-1", "0"]),
        option("--rate", ["-1", "x"]),
        option("--forwarded-allow-ips", ["localhost", "1.2.3.4/99", "*,x"]),
        st.sampled_from(not_server).map(lambda p: ["--database", p]),
    )
    serve = st.tuples(bad_serve, st.one_of(st.just([]), st.sampled_from(paths).map(lambda p: ["--tables", p]))).map(
        lambda t: ["serve", *t[0], *t[1]]
    )
    bad_name = st.sampled_from(["ab", "bad name!", "x" * 40, "é", ""])
    bad_amount = option("--amount", ["-5", "0", "x", str(2**64), "2.5"])
    name_or_amount = st.one_of(
        bad_name.map(lambda n: [n]), bad_amount.map(lambda a: ["alice", *a]), st.just(["alice", "--amount"])
    )
    accounts = st.tuples(st.sampled_from(["create", "deposit", "show"]), name_or_amount, st.sampled_from(paths)).map(
        lambda t: ["accounts", t[0], *t[1], "--database", t[2], *(["--password", "x"] if t[0] == "create" else [])]
    )
    return st.one_of(serve, accounts)


def other_argv(paths: list[str]) -> st.SearchStrategy[list[str]]:
    """`report` with options it does not take, and `plot` jobs that must write nothing."""
    report = st.sampled_from([["--bogus"], ["--format", "xml"], ["extra"]]).map(lambda a: ["report", *a])
    plot = st.tuples(
        st.sampled_from(["strategy", "session", "meter"]),
        st.sampled_from([*paths, "nonsense", *GAMES]),
        st.sampled_from([["-o", paths[0]], ["-o", paths[0] + ".txt"], []]),
        st.one_of(st.just([]), option("--rounds", BAD_COUNTS), option("--sessions", BAD_COUNTS)),
    ).map(lambda t: ["plot", t[0], t[1], *t[2], *(t[3] if t[0] == "session" else [])])
    return st.one_of(report, plot)


def argv(paths: list[str]) -> st.SearchStrategy[list[str]]:
    cards = st.lists(
        st.sampled_from(["As", "Kd", "10h", "1x", "", "As", "52", "-1", "Zz", "é"]), min_size=1, max_size=8
    )
    play_bad = st.one_of(
        option("--seats", ["-1", "0", "9"]),
        option("--balance", ["-1", "0", "-5", "nan", "inf", "-inf", "1e300", "2.5", "x"]),
        option("--limits", ["-1", "7"]),
    )
    return st.one_of(
        cards.map(lambda c: ["eval", *c]),
        st.sampled_from([*GAMES, *paths, "nonsense"]).map(lambda v: ["variants", "show", v]),
        st.tuples(st.sampled_from([*paths, "nonsense"]), st.sampled_from(["best", "psychic"])).map(
            lambda t: ["analyze", t[0], "--strategy", t[1]]
        ),
        st.tuples(st.sampled_from(GAMES), st.sampled_from(["psychic", ""])).map(
            lambda t: ["analyze", t[0], "--strategy", t[1]]
        ),
        st.tuples(
            st.sampled_from(GAMES),
            st.one_of(
                option("--rounds", BAD_COUNTS),
                option("--threads", ["-1", "0", str(2**40)]),
                option("--seed", ["-1", str(2**64), "x"]),
                option("--seats", ["-1", "0", "99"]),
            ),
            st.booleans(),
        ).map(lambda t: ["simulate", t[0], *t[1], *(["--meter"] if t[2] and t[1][0].startswith("--rounds") else [])]),
        table_argv(paths),
        st.tuples(st.sampled_from([*GAMES, *paths]), play_bad, st.sampled_from([[], ["--store", paths[0]]])).map(
            lambda t: ["play", t[0], *t[1], *t[2]]
        ),
        server_argv(paths),
        other_argv(paths),
    )


def check_cli(answer: dict[str, Any], args: list[str]) -> None:
    status, err = answer["status"], answer["stderr"]
    assert status in (0, 1, 2), (args, answer)  # not killed by a signal, not a crash
    assert "Traceback" not in err and "Traceback" not in answer["stdout"], (args, err)
    if status == 2:
        lines = err.splitlines()  # the package's errors and the parser's alike: one line
        assert len(lines) == 1 and lines[0].startswith("caribbean-fast") and ": error: " in lines[0], (args, err)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_command_line_refuses_bad_input_in_one_line(
    worker: Worker, files: dict[str, Path], data: st.DataObject
) -> None:
    names = ["record.db", "empty.db", "text.db", "foreign.db", "latin.toml", "folder.toml", "missing.db", "new.db"]
    paths = [str(files[n]) for n in names]
    args = data.draw(argv(paths))
    before = fingerprint(files["record.db"].parent)
    check_cli(worker({"cli": args}), args)
    assert fingerprint(files["record.db"].parent) == before, args


def wrong_types(game: st.SearchStrategy[Any], junk: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments of the wrong type where an outcome, stakes, a store or card ids are due (a path
    given to `restore` is the likeliest): the package's ArgumentTypeError, never AttributeError."""
    return st.one_of(
        st.tuples(game, junk).map(lambda a: {"call": "settle", "args": list(a)}),
        st.tuples(game, junk, junk).map(lambda a: {"call": "settle_money", "args": list(a)}),
        st.tuples(st.sampled_from(["restore", "audit", "format_cards"]), junk).map(
            lambda a: {"call": a[0], "args": [a[1]]}
        ),
    )


def call_requests() -> st.SearchStrategy[dict[str, Any]]:
    ints = st.one_of(
        st.integers(-(2**70), 2**70),
        st.sampled_from([-1, 0, 2**63, 2**64]).map(lambda n: {"int": str(n)}),
    )
    text = st.text(max_size=12)
    sizes = st.sampled_from([-1, 0, 2**40, 2**63, 2**64, 10**20]).map(lambda n: {"int": str(n)})  # none allowed
    floats = st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e300"]).map(lambda f: {"float": f})
    game = st.sampled_from(GAMES).map(lambda g: {"variant": g})
    return st.one_of(
        st.tuples(st.one_of(text, st.lists(ints, max_size=8))).map(lambda a: {"call": "evaluate", "args": list(a)}),
        st.integers(5, 7)  # rows of int64 ids
        .flatmap(lambda n: st.lists(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=n, max_size=n), min_size=1))
        .map(lambda a: {"call": "evaluate_many", "args": [a]}),
        st.lists(  # ragged rows, floats, text, huge ints: the array's own errors
            st.lists(st.one_of(st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=2)), max_size=8), max_size=4
        ).map(lambda a: {"call": "evaluate_many", "args": [a]}),
        st.tuples(text, st.one_of(ints, st.lists(ints, max_size=3))).map(
            lambda a: {"call": "parse_cards", "args": list(a)}
        ),
        ints.map(lambda a: {"call": "card_text", "args": [a]}),
        st.one_of(ints, text).map(lambda a: {"call": "parse_card", "args": [a]}),
        ints.map(lambda a: {"call": "class_floor", "args": [a]}),
        ints.map(lambda a: {"call": "Deck", "args": [a]}),
        st.one_of(text, st.just("/")).map(lambda a: {"call": "load_variant", "args": [a]}),
        st.tuples(game, st.sampled_from(["psychic", "", "BEST"])).map(lambda a: {"call": "analyze", "args": list(a)}),
        st.tuples(game, st.one_of(sizes, floats), st.one_of(st.integers(1, 10), sizes)).map(
            lambda a: {"call": "simulate_meter", "args": [a[0], a[1]], "kwargs": {"seed": a[2]}}
        ),
        wrong_types(game, st.one_of(text, ints, st.none(), game, st.lists(ints, max_size=3))),
        st.tuples(
            game, st.one_of(sizes, floats), st.one_of(st.integers(0, 9), sizes), st.one_of(st.just(None), sizes)
        ).map(lambda a: {"call": "simulate", "args": [a[0], a[1]], "kwargs": {"seed": a[2], "threads": a[3]}}),
        st.tuples(game, st.one_of(sizes, st.just(10)), st.one_of(sizes, st.just(10)), st.one_of(floats, sizes)).map(
            lambda a: {"call": "simulate_sessions", "args": list(a)}
        ),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request=call_requests())
def test_public_functions_refuse_bad_arguments(worker: Worker, request: dict[str, Any]) -> None:
    answer = worker(request)
    assert answer["status"] == 0, (request, answer)  # no signal: no abort, no memory or time overrun
    assert "outcome: ok" in answer["stdout"] or "outcome: error" in answer["stdout"], (request, answer)
