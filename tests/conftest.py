"""What every test shares: the hypothesis profile, the tests' own cache, the databases and the browser,
and the markers (`slow` and the services), given here by fixture so that `pytest -m "not slow"` is quick."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session", autouse=True)
def counted_tables_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tests' own cache of counted tables (analysis/cache.py), never the user's: the servers
    the tests start as processes inherit it."""
    folder = tmp_path_factory.mktemp("cache")
    before = os.environ.get("CARIBBEAN_FAST_CACHE")
    os.environ["CARIBBEAN_FAST_CACHE"] = str(folder)
    yield folder
    if before is None:
        del os.environ["CARIBBEAN_FAST_CACHE"]
    else:
        os.environ["CARIBBEAN_FAST_CACHE"] = before


# ---- the game server's databases: SQLite always, PostgreSQL where it is installed --------------


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[str | None]:
    """A PostgreSQL cluster of the tests' own, or None where PostgreSQL is not installed (in CI
    that fails: CI installs it)."""
    try:
        from pg_server import binaries, cluster
    except ImportError:  # psycopg, the server extra, is missing
        yield None
        return
    found = binaries()
    if found is None:
        yield None
        return
    with cluster(found) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path, postgres_cluster: str | None) -> str:
    """A fresh, empty server database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "casino.db")
    return _fresh_postgres(postgres_cluster)


@pytest.fixture
def postgres_database(postgres_cluster: str | None) -> str:
    """A fresh, empty PostgreSQL database."""
    return _fresh_postgres(postgres_cluster)


def _fresh_postgres(cluster: str | None) -> str:
    """A fresh database of the tests' cluster; where PostgreSQL is not installed the test skips,
    or fails under CI (CI installs it)."""
    if cluster is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL is not installed; CI must install it (.ci/run)")
        pytest.skip("PostgreSQL is not installed here (initdb not found)")
    from pg_server import fresh_database

    return fresh_database(cluster)


# ---- the browser tests' Chromium: Debian's, driven by Playwright ---------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, for a module of browser tests (under CI a missing one fails)."""
    from browser_helpers import CHROMIUM
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


# ---- markers: the services a test needs, and `slow`, from the fixtures it uses -------------------

SERVICE_FIXTURES = {"browser": "browser", "nginx_binary": "nginx"}


def needs_postgres(item: pytest.Item) -> bool:
    """A test of the PostgreSQL half of `database_url`, or one asking for the cluster itself."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "database_url" in callspec.params:
        return bool(callspec.params["database_url"] == "postgresql")
    return "postgres_cluster" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks each test with the services it needs; a service takes seconds to start, so also `slow`."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        services = {marker for name, marker in SERVICE_FIXTURES.items() if name in fixtures}
        if needs_postgres(item):
            services.add("postgres")
        for service in sorted(services):
            item.add_marker(service)
        if services:
            item.add_marker("slow")
