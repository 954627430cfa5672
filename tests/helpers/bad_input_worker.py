"""A worker for tests/package/test_bad_input.py: runs each request in a forked child with a memory limit
and an alarm, so that an abort inside Rust, a runaway allocation or an endless loop kills only the
child and is reported, never the test runner.

The worker imports the package once and forks for each request (it starts no threads of its own,
so forking is safe). Requests and answers are JSON lines on stdin and stdout:

    {"cli": ["table", "audit", "x.db"]}                  runs the command line
    {"call": "simulate", "args": [...], "kwargs": {...}}  calls caribbean_fast.<name>

Arguments are JSON, with {"variant": NAME} for a loaded variant, {"float": "nan"} for floats
JSON cannot hold, and {"int": "123..."} for integers of any size. An answer holds the exit
status (or the signal that killed the child), stdout and stderr, and for a call its outcome:
"ok", "error <Class>" (the package's own error) or "crash <Class>: message".
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import tempfile
import traceback
from typing import Any

import caribbean_fast
from caribbean_fast.cli import main
from caribbean_fast.errors import CaribbeanFastError

MEMORY_BYTES = 3 << 30  # address space a child may use: far below the machine, far above any honest call
SECONDS = 10


def decoded(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        ((kind, text),) = value.items()
        if kind == "variant":
            return caribbean_fast.load_variant(text)
        if kind == "float":
            return float(text)
        if kind == "int":
            return int(text)
    if isinstance(value, list):
        return [decoded(v) for v in value]
    return value


def child(request: dict[str, Any], out: int, err: int) -> int:
    """Runs in the child: the request, with stdout and stderr going to the files given."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    signal.alarm(SECONDS)
    os.dup2(out, 1)
    os.dup2(err, 2)
    sys.stdout = os.fdopen(1, "w", closefd=False)
    sys.stderr = os.fdopen(2, "w", closefd=False)
    if "cli" in request:
        try:
            return main(request["cli"])
        except SystemExit as done:  # argparse
            return done.code if isinstance(done.code, int) else 2
    function = getattr(caribbean_fast, request["call"])
    try:
        function(*decoded(request.get("args", [])), **{k: decoded(v) for k, v in request.get("kwargs", {}).items()})
        print("outcome: ok")
    except CaribbeanFastError as error:
        print(f"outcome: error {type(error).__name__}: {error}")
    except BaseException as error:  # a crash: what the tests look for
        print(f"outcome: crash {type(error).__name__}: {error}")
        traceback.print_exc()
    return 0


def run(request: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            status = 70
            try:
                status = child(request, out.fileno(), err.fileno())
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        _, code = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        answer: dict[str, Any] = {
            "status": os.waitstatus_to_exitcode(code),
            "stdout": out.read().decode(errors="replace")[:20000],
            "stderr": err.read().decode(errors="replace")[:20000],
        }
    return answer


def serve() -> None:
    for line in sys.stdin:
        print(json.dumps(run(json.loads(line))), flush=True)


if __name__ == "__main__":
    serve()
