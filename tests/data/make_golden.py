"""Write the golden records of tests/data/golden/ and the verifier output each must give.

Run once from the repository root: ``.venv/bin/python tests/data/make_golden.py``. Records of
valid games come from seeded random play; every expected output is what ``couyon.games.couyon.record.verify``
prints, and the script refuses to write it unless the independent reference verifier
(tests/reference) agrees: every field of a valid report, validity and move index of a refusal.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(TESTS), str(TESTS.parent)]

from couyon.common.stream import Stream  # noqa: E402
from couyon.games.couyon.cards import cards_of  # noqa: E402
from couyon.games.couyon.game import PASS, TAKE, GameState, Move, legal_cards, legal_moves, new_game, play  # noqa: E402
from couyon.games.couyon.record import FORMAT  # noqa: E402
from couyon.games.couyon.rules import Outcome  # noqa: E402
from couyon.games.malmedy.record import verify  # noqa: E402
from reference.contract import verify as reference_verify  # noqa: E402

GOLDEN = TESTS / "data" / "golden"

Policy = Callable[[GameState, Stream], bool]
"""During bidding, whether the seat to move takes."""


def takes_one_in_three(state: GameState, chooser: Stream) -> bool:
    return chooser.uniform(3) == 0


def nobody_takes_after_a_tie(state: GameState, chooser: Stream) -> bool:
    """Random bids, except that the deal right after a tie is passed eight times round, then redealt."""
    log = state.finished_deals
    if log and log[-1].outcome is Outcome.TIE:
        return False
    return chooser.uniform(3) == 0


def play_until(seed: str, policy: Policy, stop: Callable[[GameState], bool]) -> list[str]:
    """Random legal play from ``seed`` until ``stop`` holds or the game ends; the moves as texts."""
    chooser = Stream(seed, "golden-play")
    state = new_game(seed)
    moves: list[str] = []
    while state.to_move is not None and not stop(state):
        options = legal_moves(state)
        if state.deal.trump is None:
            move = Move(state.to_move, TAKE if policy(state, chooser) else PASS)
        else:
            move = options[chooser.uniform(len(options))]
        moves.append(str(move))
        state = play(state, move)
    return moves


def outcomes(state: GameState) -> list[Outcome | None]:
    return [deal.outcome for deal in state.finished_deals]


def tie_then_doubled(state: GameState) -> bool:
    found = outcomes(state)
    return any(a is Outcome.TIE and b in (Outcome.MADE, Outcome.FAILED) for a, b in itertools.pairwise(found))


def tie_redeal_then_doubled(state: GameState) -> bool:
    found = outcomes(state)
    return any(
        a is Outcome.TIE and b is Outcome.REDEAL and c in (Outcome.MADE, Outcome.FAILED)
        for a, b, c in zip(found, found[1:], found[2:], strict=False)
    )


def first_seed(label: str, policy: Policy, stop: Callable[[GameState], bool]) -> tuple[str, list[str]]:
    """The first seed ``label-N`` whose random game reaches ``stop``; the record's moves stop there."""
    for number in range(10_000):
        seed = f"{label}-{number}"
        moves = play_until(seed, policy, stop)
        state = new_game(seed)
        for text in moves:
            state = play(state, Move.parse(text))
        if stop(state):
            return seed, moves
    raise RuntimeError(f"no seed found for {label}")


def document(seed: Any, moves: Any, **changes: Any) -> dict[str, Any]:
    return {"format": FORMAT, "variant": "standard", "seed": seed, "moves": moves, **changes}


def encoded(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def golden_records() -> dict[str, bytes]:
    records: dict[str, bytes] = {}
    seed, moves = first_seed("finished", takes_one_in_three, lambda state: state.winner is not None)
    records["finished-game"] = encoded(document(seed, moves, bots={"W": "random", "N": "random", "E": "random"}))
    records["unfinished-game"] = encoded(document(seed, moves[: len(moves) // 2 + 1]))
    records["empty-moves"] = encoded(document("nothing played yet", []))
    tie_seed, tie_moves = first_seed("tie", takes_one_in_three, tie_then_doubled)
    records["tie-then-doubled-deal"] = encoded(document(tie_seed, tie_moves))
    pending_seed, pending_moves = first_seed("pending", nobody_takes_after_a_tie, tie_redeal_then_doubled)
    records["tie-nobody-takes-then-doubled-deal"] = encoded(document(pending_seed, pending_moves))
    passes = play_until("nobody takes", lambda state, chooser: False, lambda state: state.deal.number == 2)
    records["nobody-takes-redeal"] = encoded(document("nobody takes", passes))
    records["unicode-seed"] = encoded(document("Malmedy ♠ crêpe — 🃏", []))

    # Refusals, one per kind.
    records["refused-not-json"] = b'{"format": "couyon-record/1", "variant": "standard", "seed": "x", "moves": [}\n'
    records["refused-not-utf8"] = (
        b'{"format": "couyon-record/1", "variant": "standard", "seed": "\xe9t\xe9", "moves": []}\n'
    )
    records["refused-not-an-object"] = b'["couyon-record/1", "standard", "x", []]\n'
    records["refused-wrong-format"] = encoded(document("x", [], format="couyon-record/2"))
    records["refused-unknown-variant"] = encoded(document("x", [], variant="six-players"))
    records["refused-seed-not-a-string"] = encoded(document(20261129, []))
    records["refused-moves-not-a-list"] = encoded(document("x", "W:pass N:pass"))
    records["refused-duplicate-key"] = (
        b'{"format": "couyon-record/1", "variant": "standard", "seed": "x", "seed": "y", "moves": []}\n'
    )
    records["refused-nan"] = (
        b'{"format": "couyon-record/1", "variant": "standard", "seed": "x", "moves": [], "x": NaN}\n'
    )
    start = new_game("x")
    first, dealer = start.deal.dealer.left, start.deal.dealer
    records["refused-move-not-a-string"] = encoded(document("x", [f"{first}:pass", None]))
    records["refused-unreadable-move"] = encoded(document("x", [f"{first}:pass", f"{first.left}:fold"]))
    records["refused-wrong-seat"] = encoded(document("x", [f"{first}:pass", f"{dealer}:pass"]))
    records["refused-card-during-bidding"] = encoded(document("x", [f"{first}:{start.deal.proposals[0]}"]))
    not_held = start.deal.deck[20]  # a talon card: in nobody's hand
    records["refused-card-not-held"] = encoded(document("x", [f"{first}:take", f"{first}:{not_held}"]))
    records["refused-bid-during-play"] = encoded(document("x", [f"{first}:take", f"{first}:pass"]))
    forbidden_moves = forbidden_card_moves()
    records["refused-forbidden-card"] = encoded(document(forbidden_moves[0], forbidden_moves[1]))
    records["refused-move-after-the-end"] = encoded(document(seed, [*moves, moves[-1]]))
    records["refused-lone-surrogate-move"] = (
        b'{"format": "couyon-record/1", "variant": "standard", "seed": "x", "moves": ["\\ud83c"]}\n'
    )
    return records


def forbidden_card_moves() -> tuple[str, list[str]]:
    """A seed and moves ending with a held card the obligations forbid (the first such position found)."""
    for number in range(1000):
        seed = f"forbidden-{number}"
        state = new_game(seed)
        moves = [Move(state.deal.dealer.left, TAKE)]
        state = play(state, moves[0])
        moves.append(legal_moves(state)[0])
        state = play(state, moves[-1])
        seat = state.to_move
        assert seat is not None
        forbidden = set(cards_of(state.deal.hands[seat])) - set(legal_cards(state))
        if forbidden:
            return seed, [*(str(move) for move in moves), f"{seat}:{min(forbidden)}"]
    raise RuntimeError("no forbidden card found")


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, data in golden_records().items():
        ours = verify(data)
        theirs = reference_verify(data)
        agree = ours == theirs if theirs["valid"] else (ours["valid"], ours["move"]) == (False, theirs["move"])
        if not agree:
            raise SystemExit(f"{name}: the verifier and the reference disagree:\n{ours}\n{theirs}")
        expected_valid = not name.startswith("refused-")
        if ours["valid"] != expected_valid:
            raise SystemExit(f"{name}: expected valid={expected_valid}, got {ours}")
        (GOLDEN / f"{name}.json").write_bytes(data)
        (GOLDEN / f"{name}.expected.json").write_text(json.dumps(ours, ensure_ascii=False, indent=1) + "\n", "utf-8")
        summary = ours.get("error") or [deal["outcome"] for deal in ours["deal_log"]]
        print(f"{name}: {summary}")


if __name__ == "__main__":
    main()
