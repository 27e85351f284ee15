"""A fixed workload of each game's hot code, for instruction counts (callgrind) and quick timings (not run by pytest).

Usage: ``.venv/bin/python benchmarks/fixed_workload.py couyon|malmedy|tarot [REPEAT]``. It solves or plays out
the same positions every time (built from a seeded ``random.Random``, independent of the bots' streams) and prints
the CPU time and a digest of the answers, so that a compiled and an interpreted run can be checked to agree:

- couyon: ``outcome_classes`` of the first trick of 200 deals (the expert's solver, four cards a hand);
- malmedy: ``card_outcomes`` of the first trick of 100 deals with a random trump (its solver);
- tarot: ``playout`` of 200 first tricks at four players, every seat playing the habits.

Instruction counts, which hold on a busy machine (docs/performance.md)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/fixed_workload.py couyon
"""

from __future__ import annotations

import hashlib
import random
import sys
import time


def couyon(rng: random.Random) -> list[object]:
    from couyon.games.couyon.bots.solver import outcome_classes

    answers: list[object] = []
    for _ in range(200):
        cards = list(range(24))
        rng.shuffle(cards)
        hands = [sum(1 << card for card in cards[4 * seat : 4 * seat + 4]) for seat in range(4)]
        answers.append(sorted(outcome_classes(hands, rng.randrange(4), rng.randrange(4), (), 0).items()))
    return answers


def malmedy(rng: random.Random) -> list[object]:
    from couyon.games.malmedy.bots.solver import Position, card_outcomes

    answers: list[object] = []
    for _ in range(100):
        cards = list(range(24))
        rng.shuffle(cards)
        hands = [sum(1 << card for card in cards[5 * seat : 5 * seat + 5]) for seat in range(4)]
        position = Position(
            (hands[0], hands[1], hands[2], hands[3]), rng.randrange(4), False, rng.randrange(4), (), 0, 3
        )
        answers.append(sorted(card_outcomes(position, 0).items()))
    return answers


def tarot(rng: random.Random) -> list[object]:
    from couyon.games.tarot.bots.playout import playout
    from couyon.games.tarot.bots.worlds import build_position
    from couyon.games.tarot.scoring import Contract

    answers: list[object] = []
    for _ in range(200):
        cards = list(range(78))
        rng.shuffle(cards)
        hands = [sum(1 << card for card in cards[18 * seat : 18 * seat + 18]) for seat in range(4)]
        taker = rng.randrange(4)
        position = build_position(4, Contract.GARDE, taker, None, hands, 0, (), taker, (), 0, False, None)
        answers.append(tuple(playout(position)))
    return answers


def main(argv: list[str]) -> int:
    workload = {"couyon": couyon, "malmedy": malmedy, "tarot": tarot}[argv[0]]
    repeat = int(argv[1]) if len(argv) > 1 else 1
    started = time.process_time()
    for _ in range(repeat):
        answers = workload(random.Random(23))
    cpu = time.process_time() - started
    digest = hashlib.sha256(repr(answers).encode()).hexdigest()[:16]
    print(f"{argv[0]}: {cpu * 1000 / repeat:.1f} ms CPU per run, answers {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
