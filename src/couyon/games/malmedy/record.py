"""Malmedy's records: ``couyon-record/1`` with ``"variant": "malmedy"`` (malmedy.md, "Record differences").

Couyon's record module reads and replays them; this one adds the variant, so its ``verify`` reads
every variant of the format, and the Malmedy deal's ``deal_log`` entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from couyon.games.couyon import record
from couyon.games.couyon.rules import STANDARD, Variant
from couyon.games.malmedy.game import MALMEDY

VARIANTS: Mapping[str, Variant] = {variant.name: variant for variant in (STANDARD, MALMEDY)}
"""Every variant of couyon that records may name, by the ``variant`` key of ``couyon-record/1``."""


def verify(text: str | bytes) -> dict[str, Any]:
    """``couyon verify`` for a ``couyon-record/1`` record of either variant: the contract's report or its refusal."""
    return record.verify(text, VARIANTS)


def variant_named(name: str) -> Variant:
    """The variant called ``name``, standard or Malmedy."""
    return record.variant_named(name, VARIANTS)
