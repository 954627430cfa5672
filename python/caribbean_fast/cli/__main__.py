"""``python -m caribbean_fast.cli``: the same as the ``caribbean-fast`` command."""

import sys

from . import main

sys.exit(main())
