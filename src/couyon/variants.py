"""Every variant of couyon that records may name, by the ``variant`` key of ``couyon-record/1``."""

from __future__ import annotations

from couyon.malmedy import MALMEDY
from couyon.rules import STANDARD, Variant

VARIANTS = {variant.name: variant for variant in (STANDARD, MALMEDY)}


def variant_named(name: str) -> Variant:
    """The variant called ``name``."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known variants: {', '.join(sorted(VARIANTS))}") from None
