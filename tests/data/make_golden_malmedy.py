"""Write the Malmedy golden records of tests/data/golden/malmedy/ and the verifier output each must give.

Run once from the repository root: ``.venv/bin/python tests/data/make_golden_malmedy.py``. Valid
records come from seeded random play with the engine; every expected output is what ``couyon
verify`` prints, written only if the independent reference (tests/reference/malmedy_contract.py)
agrees: every field of a valid report, validity and move index of a refusal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(TESTS), str(TESTS.parent)]

from couyon.common.stream import Stream  # noqa: E402
from couyon.games.couyon.cards import SEATS, cards_of  # noqa: E402
from couyon.games.couyon.game import CONTRA, MITE, RECONTRA, GameState, legal_moves, new_game, play  # noqa: E402
from couyon.games.malmedy.game import MALMEDY  # noqa: E402
from couyon.games.malmedy.rules import QUEEN_OF_SPADES  # noqa: E402
from couyon.registry import verify_record  # noqa: E402
from reference.malmedy_contract import verify_malmedy  # noqa: E402

GOLDEN = TESTS / "data" / "golden" / "malmedy"


def document(seed: str, moves: list[str]) -> bytes:
    record = {"format": "couyon-record/1", "variant": "malmedy", "seed": seed, "moves": moves}
    return (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def random_play(seed: str, stop: Callable[[GameState], bool], announce: bool = True) -> tuple[GameState, list[str]]:
    """Random legal play until ``stop`` holds or the game ends; announcements always made when ``announce``."""
    chooser = Stream(seed, "golden-play")
    state = new_game(seed, MALMEDY)
    moves: list[str] = []
    while state.to_move is not None and not stop(state):
        options = legal_moves(state)
        wanted = [option for option in options if option.action in (MITE, CONTRA, RECONTRA)]
        move = wanted[0] if announce and wanted else options[chooser.uniform(len(options))]
        moves.append(str(move))
        state = play(state, move)
    return state, moves


def first_position(predicate: Callable[[GameState], bool], label: str) -> tuple[str, GameState, list[str]]:
    """The first seed of a series whose random play (without announcements) reaches a position ``predicate`` accepts."""
    for number in range(1000):
        seed = f"{label}-{number}"
        state, moves = random_play(seed, predicate, announce=False)
        if state.to_move is not None and predicate(state):
            return seed, state, moves
    raise RuntimeError(f"no position found for {label}")


def holder_at_first_card(state: GameState) -> bool:
    return any(option.action == MITE for option in legal_moves(state))


def holder_after_first_card(state: GameState) -> bool:
    seat = state.to_move
    hand = 0 if seat is None else state.deal.hands[seat]
    played_a_card = hand.bit_count() < 5
    return state.deal.mite is None and bool(hand >> QUEEN_OF_SPADES & 1) and played_a_card and not state.deal.asking


def golden_records() -> dict[str, bytes]:
    records: dict[str, bytes] = {}
    final, moves = random_play("malmedy-golden", lambda state: False)
    assert final.winner is not None
    records["finished-game-with-announcements"] = document("malmedy-golden", moves)
    _, quiet = random_play("malmedy-quiet", lambda state: False, announce=False)
    records["finished-game"] = document("malmedy-quiet", quiet)
    records["unfinished-game"] = document("malmedy-golden", moves[: len(moves) // 2])
    records["empty-moves"] = document("malmedy-golden", [])
    records["refused-move-after-the-end"] = document("malmedy-golden", [*moves, moves[-1]])
    start = new_game("x", MALMEDY)
    chooser = start.deal.chooser
    records["refused-take-in-malmedy"] = document("x", [f"{chooser}:take"])
    records["refused-pass-instead-of-trump"] = document("x", [f"{chooser}:pass"])
    records["refused-wrong-seat"] = document("x", [f"{chooser.left}:trump-H"])
    records["refused-unknown-action"] = document("x", [f"{chooser}:trump-X"])

    seed, state, prefix = first_position(holder_at_first_card, "mite")
    holder = state.to_move
    assert holder is not None
    records["refused-contra-by-the-wrong-seat"] = document(
        seed, [*prefix, f"{holder}:{MITE}", f"{holder.partner}:{CONTRA}"]
    )
    records["refused-recontra-before-a-contra"] = document(
        seed, [*prefix, f"{holder}:{MITE}", f"{holder.left}:{RECONTRA}"]
    )
    seed, state, prefix = first_position(holder_after_first_card, "late-mite")
    records["refused-mite-after-the-first-card"] = document(seed, [*prefix, f"{state.to_move}:{MITE}"])

    def someone_without_the_queen_of_spades(position: GameState) -> bool:
        seat = position.to_move
        return (
            position.deal.trump is not None
            and seat is not None
            and not position.deal.hands[seat] >> QUEEN_OF_SPADES & 1
        )

    seed, state, prefix = first_position(someone_without_the_queen_of_spades, "no-mite")
    records["refused-mite-without-the-queen-of-spades"] = document(seed, [*prefix, f"{state.to_move}:{MITE}"])

    def forbidden_card_exists(position: GameState) -> bool:
        seat = position.to_move
        if seat is None or position.deal.trump is None or not position.deal.trick:
            return False
        legal = {option.card for option in legal_moves(position)}
        return any(card not in legal for card in cards_of(position.deal.hands[seat]))

    seed, state, prefix = first_position(forbidden_card_exists, "forbidden")
    seat = state.to_move
    assert seat is not None
    legal = {option.card for option in legal_moves(state)}
    forbidden = min(card for card in cards_of(state.deal.hands[seat]) if card not in legal)
    records["refused-forbidden-card"] = document(seed, [*prefix, f"{seat}:{forbidden}"])
    other = next(s for s in SEATS if s != seat)
    not_held = min(cards_of(state.deal.hands[other]))
    records["refused-card-not-held"] = document(seed, [*prefix, f"{seat}:{not_held}"])
    return records


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, data in golden_records().items():
        ours = verify_record(data)
        theirs = verify_malmedy(data)
        agree = ours == theirs if theirs["valid"] else (ours["valid"], ours["move"]) == (False, theirs["move"])
        if not agree:
            raise SystemExit(f"{name}: the verifier and the reference disagree:\n{ours}\n{theirs}")
        expected_valid = not name.startswith("refused-")
        if ours["valid"] != expected_valid:
            raise SystemExit(f"{name}: expected valid={expected_valid}, got {ours}")
        (GOLDEN / f"{name}.json").write_bytes(data)
        (GOLDEN / f"{name}.expected.json").write_text(json.dumps(ours, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{name}: {ours.get('error') or [deal['outcome'] for deal in ours['deal_log']]}")


if __name__ == "__main__":
    main()
