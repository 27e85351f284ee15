"""Tests of coucou (couyon.games.coucou): one file per module, the contract's vectors, rulings, random games, golden records."""
