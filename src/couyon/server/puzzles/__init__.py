"""Puzzles (issue 34, docs/puzzles.md): their Glicko-2 ratings (``glicko2``); the puzzles themselves are mined by
each game's ``puzzles`` module (``couyon.common.puzzles``) and kept by ``couyon.store.puzzles``."""
