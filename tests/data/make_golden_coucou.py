"""Write the coucou golden records of tests/data/golden/coucou/ and the verifier output each must give.

Run from the repository root, only on purpose: ``.venv/bin/python tests/data/make_golden_coucou.py``.
Valid records come from the contract's worked record, seeded random play and Expert bots;
the ``as-qui-court-*`` records are ``coucou-record/2`` (rulings 20–24, the contract's last section);
every expected output is what ``couyon.games.coucou.record.verify`` prints. The script refuses to
write unless the worked record's report is the contract's, every ``valid`` is as the file
name says, and each refused record is refused at the move index written here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from couyon.common.stream import Stream
from couyon.games.coucou.bots import BOTS, bot_move
from couyon.games.coucou.game import AS_QUI_COURT, COUCOU, GameState, Variant, legal_moves, new_game, play
from couyon.games.coucou.record import FORMAT, FORMAT_2, verify

GOLDEN = Path(__file__).resolve().parent / "golden" / "coucou"
WORKED_MOVES = ["1:change", "2:change", "3:change", "4:keep", "4:change", "5:change"]


def document(seed: Any, players: Any, tokens: Any, moves: Any, **extras: Any) -> dict[str, Any]:
    return {"format": FORMAT, "players": players, "tokens": tokens, "seed": seed, "moves": moves, **extras}


def encoded(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def document_2(variant: Any, seed: Any, players: Any, tokens: Any, moves: Any, **extras: Any) -> dict[str, Any]:
    head = {"format": FORMAT_2} if variant is None else {"format": FORMAT_2, "variant": variant}
    return {**head, "players": players, "tokens": tokens, "seed": seed, "moves": moves, **extras}


def random_moves(seed: str, players: int, tokens: int, variant: Variant = COUCOU) -> tuple[GameState, list[str]]:
    chooser = Stream(seed, "golden-play")
    state = new_game(seed, players, tokens, variant)
    moves: list[str] = []
    while state.winner is None:
        move = legal_moves(state)[chooser.uniform(2)]
        moves.append(str(move))
        state = play(state, move)
    return state, moves


def expert_moves(seed: str, players: int, tokens: int, variant: Variant = COUCOU) -> list[str]:
    state = new_game(seed, players, tokens, variant)
    moves: list[str] = []
    while state.winner is None:
        move = bot_move(state, BOTS["expert/1"])
        moves.append(str(move))
        state = play(state, move)
    return moves


def nobody_loses_game() -> tuple[str, list[str]]:
    """The first seed whose random 5-player game has a coup where every player holds the same rank."""
    for number in range(10_000):
        seed = f"same-rank-{number}"
        state, moves = random_moves(seed, 5, 2)
        if any(coup.losers == () for coup in state.finished):
            return seed, moves
    raise RuntimeError("no game with an all-equal showdown found")


def golden_records() -> dict[str, tuple[bytes, int | None]]:
    """Each record by name, with the move index a refusal must name (None: a valid record or ``move`` null)."""
    records: dict[str, tuple[bytes, int | None]] = {}
    records["worked-record"] = (encoded(document("coucou", 5, 1, WORKED_MOVES)), None)
    records["empty-moves"] = (encoded(document("2026-12-01", 8, 3, [])), None)
    daily = expert_moves("2026-12-01", 8, 3)
    records["finished-expert-table"] = (
        encoded(
            document(
                "2026-12-01",
                8,
                3,
                daily,
                bots={str(seat): "expert/1" for seat in range(2, 9)},
                player="seat 1 played expert/1 too",
                challenge="2026-12-01",
            )
        ),
        None,
    )
    records["unfinished-mid-coup"] = (encoded(document("2026-12-01", 8, 3, daily[: len(daily) // 2 + 3])), None)
    _, twenty = random_moves("twenty at one table", 20, 1)
    records["finished-twenty-players"] = (encoded(document("twenty at one table", 20, 1, twenty)), None)
    same_seed, same_moves = nobody_loses_game()
    records["nobody-loses-same-rank"] = (encoded(document(same_seed, 5, 2, same_moves)), None)
    unicode_seed = "Coucou ! ✓ — 🂡"
    _, unicode_moves = random_moves(unicode_seed, 6, 2)
    records["unicode-seed"] = (encoded(document(unicode_seed, 6, 2, unicode_moves)), None)

    # Refusals: the record itself (move null), then the first bad move.
    records["refused-not-json"] = (
        b'{"format": "coucou-record/1", "players": 8, "tokens": 3, "seed": "x", "moves": [}\n',
        None,
    )
    records["refused-players-true"] = (encoded(document("x", True, 3, [])), None)
    records["refused-players-float"] = (encoded(document("x", 8.0, 3, [])), None)
    records["refused-tokens-out-of-range"] = (encoded(document("x", 8, 11, [])), None)
    records["refused-seed-lone-surrogate"] = (
        b'{"format": "coucou-record/1", "players": 8, "tokens": 3, "seed": "\\ud83c", "moves": []}\n',
        None,
    )
    records["refused-moves-not-a-list"] = (encoded(document("x", 8, 3, "3:keep 4:keep")), None)
    start = new_game("x", 8, 3)
    first, second = start.coup.order[0], start.coup.order[1]
    records["refused-move-not-a-string"] = (encoded(document("x", 8, 3, [f"{first}:keep", second])), 1)
    records["refused-move-leading-zero"] = (encoded(document("x", 8, 3, [f"{first}:keep", f"0{second}:keep"])), 1)
    records["refused-move-wrong-seat"] = (encoded(document("x", 8, 3, [f"{first}:keep", f"{first}:keep"])), 1)
    records["refused-move-unknown-action"] = (encoded(document("x", 8, 3, [f"{first}:keep", f"{second}:coucou"])), 1)
    records["refused-move-after-the-end"] = (encoded(document("coucou", 5, 1, [*WORKED_MOVES, "2:keep"])), 6)
    records.update(as_qui_court_records())
    return records


def until_the_dealer_speaks(seed: str, players: int, tokens: int, speaks: bool) -> tuple[str, GameState, list[str]]:
    """The first seed ``seed #n`` whose random as qui court game reaches a dealer to speak (``speaks``), or a coup
    just after one whose dealer had no move; its seed, that state and the moves up to it."""
    for number in range(1000):
        named = f"{seed} #{number}"
        chooser = Stream(named, "golden-dealer")
        state = new_game(named, players, tokens, AS_QUI_COURT)
        moves: list[str] = []
        while state.winner is None:
            coup = state.coup
            if speaks and coup.speaker == coup.dealer:
                return named, state, moves
            if not speaks and state.finished and not coup.actions:
                last = state.finished[-1]
                if len(last.actions) == len(last.order) - 1:
                    return named, state, moves
            move = legal_moves(state)[chooser.uniform(2)]
            moves.append(str(move))
            state = play(state, move)
    raise RuntimeError(f"no such coup in the games {seed!r} #0 … #999")


def as_qui_court_records() -> dict[str, tuple[bytes, int | None]]:
    """``coucou-record/2``: as qui court valid (empty, finished, waiting for the dealer), its coucou variant, refusals."""
    aqc = "as-qui-court"
    records: dict[str, tuple[bytes, int | None]] = {}
    records["as-qui-court-empty-moves"] = (encoded(document_2(aqc, "2026-12-01", 8, 3, [])), None)
    _, finished = random_moves("as qui court", 8, 2, AS_QUI_COURT)
    records["as-qui-court-finished"] = (encoded(document_2(aqc, "as qui court", 8, 2, finished)), None)
    _, small = random_moves("as qui court, 32 cards", 5, 3, AS_QUI_COURT)
    records["as-qui-court-finished-32-cards"] = (encoded(document_2(aqc, "as qui court, 32 cards", 5, 3, small)), None)
    _, twenty = random_moves("twenty run the ace", 20, 1, AS_QUI_COURT)
    records["as-qui-court-finished-twenty-players"] = (
        encoded(document_2(aqc, "twenty run the ace", 20, 1, twenty)),
        None,
    )
    expert = expert_moves("2026-12-01", 8, 3, AS_QUI_COURT)
    bots = {str(seat): "expert/1" for seat in range(2, 9)}
    records["as-qui-court-finished-expert-table"] = (
        encoded(document_2(aqc, "2026-12-01", 8, 3, expert, bots=bots)),
        None,
    )
    ace_seed, ace_state, waiting = until_the_dealer_speaks("dealer's ace", 8, 3, speaks=True)
    records["as-qui-court-unfinished-waiting-for-the-dealer"] = (
        encoded(document_2(aqc, ace_seed, 8, 3, waiting)),
        None,
    )
    _, coucou_moves = random_moves("coucou, record 2", 6, 2)
    records["as-qui-court-variant-coucou"] = (
        encoded(document_2("coucou", "coucou, record 2", 6, 2, coucou_moves)),
        None,
    )

    records["refused-as-qui-court-variant-missing"] = (encoded(document_2(None, "x", 8, 3, [])), None)
    records["refused-as-qui-court-variant-unknown"] = (encoded(document_2("hère", "x", 8, 3, [])), None)
    records["refused-as-qui-court-players-float"] = (encoded(document_2(aqc, "x", 8.0, 3, [])), None)
    no_seed, no_state, no_move = until_the_dealer_speaks("dealer without an ace", 8, 3, speaks=False)
    dealer = no_state.finished[-1].dealer
    records["refused-as-qui-court-dealer-move-without-an-ace"] = (
        encoded(document_2(aqc, no_seed, 8, 3, [*no_move, f"{dealer}:change"])),
        len(no_move),
    )
    records["refused-as-qui-court-dealer-move-out-of-turn"] = (
        encoded(document_2(aqc, ace_seed, 8, 3, [*waiting[:-1], f"{ace_state.coup.dealer}:keep"])),
        len(waiting) - 1,
    )
    start = new_game("x", 8, 3, AS_QUI_COURT)
    first, second = start.coup.order[0], start.coup.order[1]
    records["refused-as-qui-court-move-wrong-seat"] = (
        encoded(document_2(aqc, "x", 8, 3, [f"{first}:keep", f"{first}:keep"])),
        1,
    )
    records["refused-as-qui-court-move-leading-zero"] = (
        encoded(document_2(aqc, "x", 8, 3, [f"{first}:keep", f"0{second}:keep"])),
        1,
    )
    records["refused-as-qui-court-move-king-shown"] = (
        encoded(document_2(aqc, "x", 8, 3, [f"{first}:keep", f"{second}:king-shown"])),
        1,
    )
    records["refused-as-qui-court-move-not-a-string"] = (encoded(document_2(aqc, "x", 8, 3, [f"{first}:keep", 7])), 1)
    records["refused-as-qui-court-move-after-the-end"] = (
        encoded(document_2(aqc, "as qui court", 8, 2, [*finished, "1:keep"])),
        len(finished),
    )
    return records


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    from games.coucou.test_record import WORKED_REPORT  # the contract's printed report, written out in the tests

    for name, (data, refused_at) in golden_records().items():
        result = verify(data)
        if name == "worked-record" and result != WORKED_REPORT:
            raise SystemExit(f"the worked record's report is not the contract's:\n{result}")
        expected_valid = not name.startswith("refused-")
        if name.startswith("as-qui-court") and expected_valid and result.get("variant") is None:
            raise SystemExit(f"{name}: a coucou-record/2 report names its variant: {result}")
        if result["valid"] != expected_valid or (not expected_valid and result["move"] != refused_at):
            raise SystemExit(f"{name}: expected valid={expected_valid} at move {refused_at}, got {result}")
        (GOLDEN / f"{name}.json").write_bytes(data)
        expected = json.dumps(result, ensure_ascii=False, indent=1) + "\n"
        (GOLDEN / f"{name}.expected.json").write_text(expected, "utf-8")
        summary = result.get("error") or f"{result['coups']} coups, winner {result['winner']}"
        print(f"{name}: {summary}")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
