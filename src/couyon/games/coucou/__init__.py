"""Coucou (as qui court): five to twenty players, one card each, the lowest rank loses a token.

``cards`` (the 32/52-card decks), ``game`` (the fold), ``view`` (what a seat may know),
``record`` (``coucou-record/1`` and the verifier's report) and ``bots`` (easy, normal,
expert), following ../shared/spec/coucou-record-format.md and coucou-rulings.md.
"""
