"""Draws the screenshots of the pages around the table (docs/page-<page>-<size>.png): the rules of
each game, the lobby, the personal limit, the session reminder, the progressive's history and the
account's history, as the browser tests (tests/browser/test_browser_pages.py) reach each page in
Debian's Chromium, at desktop size (1280x800) and at phone size (390x844).

    python docs/pages_screens.py     # needs the test extra and /usr/bin/chromium
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent


def main() -> None:
    env = {**os.environ, "CF_SCREENS": str(DOCS)}
    test = str(DOCS.parent / "tests" / "test_browser_pages.py")
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test], env=env))


if __name__ == "__main__":
    main()
