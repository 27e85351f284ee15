"""The size of the long simulations: reduced by default, full with ``pytest --full`` (or ``COUYON_FULL_TESTS=1``).

The reduced size keeps every check of a simulation and the first of its seeded games; the full size plays them
all (docs/operations.md, "Running the tests").
"""

from __future__ import annotations

import os

FULL = os.environ.get("COUYON_FULL_TESTS", "") not in ("", "0")


def sized(full: int, reduced: int) -> int:
    """``full`` under ``--full``, else ``reduced``."""
    return full if FULL else reduced
