"""``caribbean-fast office add-operator|reset``: the office's operators, made and reset from the
command line only (the office has no page that makes an operator): each prints the new TOTP
secret and its otpauth:// URI for an authenticator app, once. Both are written to the office's
log, as done by `cli`."""

from __future__ import annotations

import argparse
import getpass
import os
from datetime import UTC, datetime

from .serve import _need_server

ROLES = ("operator", "auditor")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("office", help="the operator's office: its operators (password and TOTP)")
    jobs = p.add_subparsers(dest="job", required=True)
    add = jobs.add_parser("add-operator", help="a new operator; prints its TOTP secret once")
    add.add_argument("name")
    add.add_argument("--role", choices=ROLES, required=True, help="operator acts; auditor only reads")
    reset = jobs.add_parser("reset", help="a new password and TOTP secret; the operator's sessions end")
    reset.add_argument("name")
    reset.add_argument("--why", required=True, help="kept in the office's log")
    for j in (add, reset):
        j.add_argument("--database", default="caribbean-fast.db")
        j.add_argument("--password", default=None, help="default: asked, or $CARIBBEAN_FAST_PASSWORD")
        j.set_defaults(run=run_office)


def run_office(args: argparse.Namespace) -> int:
    _need_server()
    from ..server.accounts import check_name, hash_password
    from ..server.office.totp import new_secret, uri
    from ..server.store import office_log, operators
    from ..server.store.db import Database, Tx, connect

    name = check_name(args.name)
    password = args.password or os.environ.get("CARIBBEAN_FAST_PASSWORD") or getpass.getpass()
    hashed, secret, now = hash_password(password), new_secret(), datetime.now(UTC).isoformat()
    db = Database(connect(args.database, create=args.job == "add-operator"))

    def job(tx: Tx) -> None:
        if args.job == "add-operator":
            operators.insert_operator(tx, name, args.role, hashed, secret, now)
            why = "created from the command line"
            office_log.append(tx, now, "cli", "add_operator", name, why, {"role": args.role})
        else:
            operators.reset_operator(tx, name, hashed, secret)
            office_log.append(tx, now, "cli", "reset_operator", name, args.why, {})

    try:
        db.run_now(job)
    finally:
        db.dialect.close()
    print(f"{name}: {'reset' if args.job == 'reset' else args.role}")
    print(f"TOTP secret: {secret}")
    print(f"otpauth URI: {uri(secret, name)}")
    return 0
