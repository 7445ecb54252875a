"""``python -m prefstats``: the same as the ``prefstats`` command."""

import sys

from prefstats.cli import main

sys.exit(main())
