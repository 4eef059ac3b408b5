"""The benchmark of the scorekeeper; run it with ``python bench/run.py`` (see bench/README.md)."""

import os

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
