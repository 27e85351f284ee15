"""French tarot at three, four and five players (tarot-regles.fr.txt, tarot-rulings.md).

The engine is the same shape as couyon's: ``game.new_game(seed, players)`` deals, and
``game.play(state, move)`` folds one move into a new immutable state; ``view.view(state,
seat)`` is what a seat may know; ``record`` reads ``tarot-record/1`` records and prints the
verifier's report (tarot-record-format.md). Nothing here does I/O, reads a clock or uses a
global random generator.
"""
