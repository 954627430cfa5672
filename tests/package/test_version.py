"""One version: Cargo.toml's, which maturin writes into the package's metadata; the package and the
command read it back from there, so all three must agree."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import caribbean_fast

CARGO_TOML = Path(__file__).parents[2] / "Cargo.toml"


def cargo_version() -> str:
    with CARGO_TOML.open("rb") as f:
        version: str = tomllib.load(f)["package"]["version"]
    return version


def test_package_version_is_cargos() -> None:
    assert caribbean_fast.__version__ == cargo_version()


def test_command_version_is_cargos() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "caribbean_fast.cli", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == f"caribbean-fast {cargo_version()}"
