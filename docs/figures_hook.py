"""MkDocs hook: every figure on the site is computed by the installed package while the site builds,
so no page holds a number that could drift from the code.

A page asks for a command's output with an HTML comment on a line of its own:

- ``<!-- cli: analyze cyberstud --format markdown -->`` puts the output in the page as Markdown
  (its headings one level down, under the page's own);
- ``<!-- cli-text: report -->`` puts ``$ caribbean-fast report`` and the output in a text block;
- ``<!-- cli-help -->`` puts the ``--help`` of every command and sub-command, walked from the parser;
- inside a sentence, ``<!-- pct: caribbean-poker exchanges.cost_of_never_exchanging -->`` is that
  figure of ``analyze NAME --format json`` as a percentage (a number, or a fraction's text), and
  ``<!-- exact: caribbean-poker expected_return -->`` is the figure as printed (an exact fraction).

Commands run in this process through ``caribbean_fast.cli.main``, with a fixed terminal width;
outputs are cached, so the par sheets are enumerated once per build (and once per ``mkdocs serve``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shlex
from fractions import Fraction
from functools import cache
from typing import Any

from caribbean_fast import cli

WIDTH = "120"
DIRECTIVE = re.compile(r"^<!-- (cli|cli-text|cli-help)(?::\s*(.*?))?\s*-->$", re.MULTILINE)
FIGURE = re.compile(r"<!-- (pct|exact): (\S+) (\S+) -->")


@cache
def run(command: str) -> str:
    """The output of ``caribbean-fast COMMAND`` (a failing command fails the build, with its output)."""
    out = io.StringIO()
    os.environ["COLUMNS"] = WIDTH
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            status = cli.main(shlex.split(command))
        except SystemExit as exit_:  # argparse's --help and usage errors
            status = exit_.code if isinstance(exit_.code, int) else 1
    if status:
        raise RuntimeError(f"caribbean-fast {command} exited {status}:\n{out.getvalue()}")
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def _demoted(markdown: str) -> str:
    return "\n".join("#" + line if line.startswith("#") else line for line in markdown.splitlines())


def _text_block(command: str) -> str:
    return f"```text\n$ caribbean-fast {command}\n{run(command)}\n```"


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> list[str]:
    """Every command line that has its own help: the program, each sub-command, depth first."""
    found = [prefix]
    for action in parser._actions:  # argparse keeps sub-commands only here
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands(sub, f"{prefix} {name}".strip())
    return found


def _all_help() -> str:
    sections = []
    for command in _commands(cli._parser()):
        title = f"caribbean-fast {command}".strip()
        sections.append(f"## `{title}`\n\n{_text_block(f'{command} --help'.strip())}")
    return "\n\n".join(sections)


def _expand(match: re.Match[str]) -> str:
    kind, command = match.group(1), match.group(2) or ""
    if kind == "cli":
        return _demoted(run(command))
    if kind == "cli-text":
        return _text_block(command)
    return _all_help()


def figure(variant: str, key: str) -> Any:
    """One figure of the variant's par sheet (JSON), by its dotted path."""
    value: Any = json.loads(run(f"analyze {variant} --format json"))
    for part in key.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]  # an interval's end: `beaten_by.ci95.0`
            continue
        if not isinstance(value, dict) or part not in value:
            raise KeyError(f"{variant}'s par sheet has no figure {key!r}")
        value = value[part]
    return value


def _figure(match: re.Match[str]) -> str:
    kind, variant, key = match.groups()
    value = figure(variant, key)
    if kind == "exact":
        return str(value)
    return f"{float(Fraction(value)) * 100:.4f}%"


def expand(markdown: str) -> str:
    """The page with every directive replaced by its output; a misspelt directive is an error
    rather than a comment that silently shows nothing."""
    expanded = FIGURE.sub(_figure, DIRECTIVE.sub(_expand, markdown))
    for line in expanded.splitlines():
        if line.startswith("<!-- cli") or "<!-- pct" in line or "<!-- exact" in line:
            raise ValueError(f"not a figures directive (see docs/figures_hook.py): {line}")
    return expanded


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs calls this for every page before rendering it."""
    return expand(markdown)
