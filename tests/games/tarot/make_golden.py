"""Write the tarot golden records of tests/data/golden/tarot: valid games and one refusal of each kind.

(A wrong ``format`` is the registry's refusal, whose sentence lists every known format: it is
tests/data/golden/refused-wrong-format's case, not tarot's.)

Run from tests/: ``../.venv/bin/python -m tarot.make_golden``. Each record ``NAME.json`` gets
``NAME.expected.json``, the verifier's output; the records are found from seeds by the rules
(a taker holding a king to discard, a hand with a trump for a misère…), so they stay valid
examples of what they name. Review the diff of the expected files before committing them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.games.tarot.helpers import random_game, random_move

from couyon.common.stream import Stream
from couyon.games.tarot.cards import BOUT_MASK, EXCUSE_BIT, KING_MASK, SEATS_OF, SUIT_MASKS, TRUMP_MASK, cards_of
from couyon.games.tarot.game import (
    CARD,
    GameState,
    Move,
    Phase,
    is_over,
    legal_card_mask,
    legal_moves,
    new_game,
    play,
)
from couyon.games.tarot.record import FORMAT
from couyon.registry import verify_record

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "tarot"

Scenario = Callable[[str, int], "list[Any] | None"]


def document(players: Any, seed: Any, moves: Any, **extras: Any) -> dict[str, Any]:
    return {"format": FORMAT, "players": players, "seed": seed, "moves": moves, **extras}


def texts(moves: list[Move]) -> list[str]:
    return [str(move) for move in moves]


def bid_until(seed: str, players: int, contract: str, phase: Phase) -> tuple[GameState, list[str]] | None:
    """Deal 1 (or the first deal that stands), the first bidder taking ``contract``, everyone else passing."""
    state = new_game(seed, players)
    played: list[str] = []
    first = True
    while state.deal.phase is Phase.BIDDING:
        seat = state.to_move
        move = Move(seat, contract) if first else Move(seat, "pass")  # type: ignore[arg-type]
        first = False
        played.append(str(move))
        state = play(state, move)
    if state.deal.phase is Phase.CALL and phase is not Phase.CALL:
        move = legal_moves(state)[0]
        played.append(str(move))
        state = play(state, move)
    return (state, played) if state.deal.phase is phase else None


def taker_hand(state: GameState) -> int:
    assert state.deal.taker is not None
    return state.deal.hands[state.deal.taker]


def ecart_with(extra_mask: int) -> Scenario:
    """An écart of the taker's first ``extra_mask`` card with plain cards that may go."""

    def scenario(seed: str, players: int) -> list[Any] | None:
        found = bid_until(seed, players, "garde", Phase.ECART)
        if found is None:
            return None
        state, played = found
        hand = taker_hand(state)
        bad = cards_of(hand & extra_mask)
        plain = cards_of(hand & ~(TRUMP_MASK | EXCUSE_BIT | KING_MASK))
        size = 3 if players == 5 else 6
        if not bad or len(plain) < size:
            return None
        return [*played, f"{state.to_move}:ecart:{','.join(map(str, (bad[0], *plain[: size - 1])))}"]

    return scenario


def to_first_trick(seed: str, players: int, contract: str = "garde-sans") -> tuple[GameState, list[str]] | None:
    return bid_until(seed, players, contract, Phase.PLAYING)


def misere_with_a_trump(seed: str, players: int) -> list[Any] | None:
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    return (
        [*played, f"{state.to_move}:misere-atout"] if state.deal.hands[state.deal.to_move or 0] & TRUMP_MASK else None
    )


def first_seat_in_the_first_trick(
    seed: str, players: int, fits: Callable[[int], bool]
) -> tuple[GameState, list[str]] | None:
    """The first trick of a garde sans, played (lowest cards) up to the first seat whose hand ``fits``."""
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    while not state.deal.tricks:
        if fits(state.deal.hands[state.deal.to_move or 0]):
            return state, played
        move = next(move for move in legal_moves(state) if move.action == CARD)
        played.append(str(move))
        state = play(state, move)
    return None


def poignee_of_size(size: int) -> Scenario:
    """A poignée of ``size`` trumps (no poignée has that size)."""

    def scenario(seed: str, players: int) -> list[Any] | None:
        found = first_seat_in_the_first_trick(seed, players, lambda hand: (hand & TRUMP_MASK).bit_count() >= size)
        if found is None:
            return None
        state, played = found
        shown = cards_of(state.deal.hands[state.deal.to_move or 0] & TRUMP_MASK)[:size]
        return [*played, f"{state.to_move}:poignee:{','.join(map(str, shown))}"]

    return scenario


def poignee_with_the_excuse_but_not_every_trump(seed: str, players: int) -> list[Any] | None:
    size = {3: 13, 4: 10, 5: 8}[players]
    found = first_seat_in_the_first_trick(
        seed, players, lambda hand: bool(hand & EXCUSE_BIT) and (hand & TRUMP_MASK).bit_count() >= size
    )
    if found is None:
        return None
    state, played = found
    hand = state.deal.hands[state.deal.to_move or 0]
    shown = (*cards_of(hand & TRUMP_MASK)[: size - 1], cards_of(EXCUSE_BIT)[0])
    return [*played, f"{state.to_move}:poignee:{','.join(map(str, shown))}"]


def chelem_late(seed: str, players: int) -> list[Any] | None:
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    first = next(move for move in legal_moves(state) if move.action == CARD)
    taker = SEATS_OF[players][state.deal.taker or 0]
    return [*played, str(first), f"{taker}:chelem"]


def chelem_not_taker(seed: str, players: int) -> list[Any] | None:
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    return [*played, f"{state.to_move}:chelem"]


def announcement_after_first_trick(seed: str, players: int) -> list[Any] | None:
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    for _ in range(players):
        move = next(move for move in legal_moves(state) if move.action == CARD)
        played.append(str(move))
        state = play(state, move)
    return [*played, f"{state.to_move}:misere-tete"]


def card_not_held(seed: str, players: int) -> list[Any] | None:
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    other = cards_of(state.deal.hands[((state.deal.to_move or 0) + 1) % players])[0]
    return [*played, f"{state.to_move}:{other}"]


def card_not_legal(seed: str, players: int) -> list[Any] | None:
    found = to_first_trick(seed, players)
    if found is None:
        return None
    state, played = found
    move = next(move for move in legal_moves(state) if move.action == CARD)
    played.append(str(move))
    state = play(state, move)
    hand = state.deal.hands[state.deal.to_move or 0]
    illegal = cards_of(hand & ~legal_card_mask(hand, state.deal.trick))
    return [*played, f"{state.to_move}:{illegal[0]}"] if illegal else None


def call_a_queen(seed: str, players: int) -> list[Any] | None:
    found = bid_until(seed, 5, "garde", Phase.CALL)
    if found is None:
        return None
    state, played = found
    return [*played, f"{state.to_move}:call:QH"] if taker_hand(state) & KING_MASK != KING_MASK else None


def first_lead_in_the_called_suit(seed: str, players: int) -> list[Any] | None:
    found = bid_until(seed, 5, "garde-sans", Phase.CALL)
    if found is None:
        return None
    state, played = found
    call = legal_moves(state)[0]
    state = play(state, call)
    called = call.cards[0]
    suit_mask = SUIT_MASKS[called.suit or 0] & ~(1 << called)
    hand = state.deal.hands[state.deal.to_move or 0]
    if not hand & suit_mask:
        return None
    return [*played, str(call), f"{state.to_move}:{cards_of(hand & suit_mask)[0]}"]


def poignee_after_the_hidden_partner(then: str) -> Scenario:
    """At five, two seats able to show a poignée; a garde sans calls the king of the one that plays first
    in the first trick, who shows his poignée while still hidden; then the other shows one: the taker
    (``then`` "taker": accepted, the deal played out) or a defender ("defender": refused). Ruling 10: the
    hidden partner counts as the defence."""

    def scenario(seed: str, players: int) -> list[Any] | None:
        state = new_game(seed, players)
        hands = state.deal.hands
        strong = [seat for seat in range(players) if (hands[seat] & TRUMP_MASK).bit_count() >= 8]
        if len(strong) < 2 or state.deal.phase is not Phase.BIDDING:
            return None
        first, second = strong[:2]
        if then == "taker":
            partner, taker = (first, second) if hands[first] & KING_MASK else (second, first)
        else:  # the taker, left of whom the first trick starts, sits just before the partner
            taker = (first - 1) % players
            partner = first
            if taker == second:
                return None
        if not hands[partner] & KING_MASK:
            return None
        played: list[str] = []
        while state.deal.phase is Phase.BIDDING:
            move = Move(state.to_move, "garde-sans" if state.deal.to_move == taker else "pass")  # type: ignore[arg-type]
            played.append(str(move))
            state = play(state, move)
        call = Move(SEATS_OF[players][taker], "call", cards_of(hands[partner] & KING_MASK)[:1])
        played.append(str(call))
        state = play(state, call)
        shower = second if then == "defender" else taker
        while state.deal.number == 1 and not is_over(state):
            seat = state.deal.to_move or 0
            if (
                not state.deal.tricks
                and seat in (partner, shower)
                and seat not in [s for s, _, _ in state.deal.poignees]
            ):
                shown = cards_of(state.deal.hands[seat] & TRUMP_MASK)[:8]
                played.append(f"{SEATS_OF[players][seat]}:poignee:{','.join(map(str, shown))}")
                if seat != partner and then == "defender":
                    return played
                state = play(state, Move.parse(played[-1], players))
            move = next(move for move in legal_moves(state) if move.action == CARD)
            played.append(str(move))
            state = play(state, move)
        return played

    return scenario


def game_with(predicate: Callable[[list[Move]], bool], players: int, label: str) -> tuple[str, list[str]]:
    for number in range(2000):
        seed = f"golden-{label}-{number}"
        _, played = random_game(seed, players)
        if predicate(played):
            return seed, texts(played)
    raise AssertionError(f"no random game with {label}")


def unfinished(seed: str, players: int, stop: int) -> list[str]:
    chooser = Stream(seed, "random-play")
    state = new_game(seed, players)
    played: list[str] = []
    while not is_over(state) and len(played) < stop:
        move = random_move(state, chooser)
        played.append(str(move))
        state = play(state, move)
    return played


def petit_sec_seed(players: int) -> str:
    for number in range(10_000):
        seed = f"petit-sec-{number}"
        if new_game(seed, players).finished_deals:
            return seed
    raise AssertionError("no petit sec")


def found(scenario: Scenario, players: int, label: str, tries: int = 5000) -> dict[str, Any]:
    for number in range(tries):
        seed = f"golden-{label}-{number}"
        moves = scenario(seed, players)
        if moves is not None:
            return document(players, seed, moves)
    raise AssertionError(f"no seed for {label}")


def records() -> dict[str, bytes | dict[str, Any]]:
    """Every golden record by name: a JSON document, or raw bytes for the unreadable ones."""
    seed4, finished4 = game_with(lambda moves: True, 4, "finished")
    cases: dict[str, bytes | dict[str, Any]] = {
        "empty-moves": document(4, "tarot-exemple", []),
        "empty-moves-after-petit-sec": document(4, petit_sec_seed(4), []),
        "redeal": document(3, "tarot-exemple", ["E:pass", "S:pass", "W:pass", "S:garde"]),
        "finished-3": document(3, *game_with(lambda moves: True, 3, "finished")),
        "finished-4": document(4, seed4, finished4),
        "finished-5": document(5, *game_with(lambda moves: True, 5, "finished")),
        "unfinished-5": document(5, "golden-unfinished", unfinished("golden-unfinished", 5, 140)),
        "poignee-at-five": document(
            5, *game_with(lambda moves: any(move.action == "poignee" for move in moves), 5, "poignee")
        ),
        "poignee-hidden-partner-then-taker-at-five": found(
            poignee_after_the_hidden_partner("taker"), 5, "partner", 50_000
        ),
        "misere-at-five": document(
            5, *game_with(lambda moves: any(move.action.startswith("misere") for move in moves), 5, "misere")
        ),
        "chelem-announced-at-five": document(
            5, *game_with(lambda moves: any(move.action == "chelem" for move in moves), 5, "chelem")
        ),
        "extra-keys": document(4, "tarot-exemple", ["W:pass"], comment="ignored", version=[1, 2]),
        "refused-not-json": b'{"format": "tarot-record/1", "players": 4',
        "refused-not-utf8": b'{"format": "tarot-record/1", "players": 4, "seed": "\xff", "moves": []}',
        "refused-not-an-object": b'["tarot-record/1", 4, "x", []]',
        "refused-duplicate-key": b'{"format": "tarot-record/1", "players": 4, "players": 5, "seed": "x", "moves": []}',
        "refused-players-not-an-integer": document(4.0, "x", []),
        "refused-players-a-string": document("4", "x", []),
        "refused-players-a-boolean": document(True, "x", []),
        "refused-players-six": document(6, "x", []),
        "refused-seed-not-a-string": document(4, 4, []),
        "refused-seed-lone-surrogate": b'{"format": "tarot-record/1", "players": 4, "seed": "\\udc00", "moves": []}',
        "refused-moves-not-a-list": document(4, "x", {"0": "W:pass"}),
        "refused-move-not-a-string": document(4, "tarot-exemple", ["W:pass", ["N:pass"]]),
        "refused-unreadable-move": document(4, "tarot-exemple", ["W-pass"]),
        "refused-unknown-seat": document(3, "tarot-exemple", ["N:pass"]),
        "refused-wrong-seat": document(4, "tarot-exemple", ["N:pass"]),
        "refused-unknown-action": document(4, "tarot-exemple", ["W:prise"]),
        "refused-bid-not-higher": document(4, "tarot-exemple", ["W:garde", "N:petite"]),
        "refused-card-during-bidding": document(4, "tarot-exemple", ["W:4S"]),
        "refused-call-queen-without-kings": found(call_a_queen, 5, "call-queen"),
        "refused-call-at-four": document(4, "tarot-exemple", ["W:garde", "N:pass", "E:pass", "S:pass", "W:call:KH"]),
        "refused-ecart-with-a-king": found(ecart_with(KING_MASK), 4, "ecart-king"),
        "refused-ecart-with-a-bout": found(ecart_with(BOUT_MASK), 3, "ecart-bout"),
        "refused-ecart-with-a-trump": found(ecart_with(TRUMP_MASK & ~BOUT_MASK), 5, "ecart-trump"),
        "refused-ecart-on-garde-sans": document(
            4, "tarot-exemple", ["W:garde-sans", "N:pass", "E:pass", "S:pass", "W:ecart:1C,2C,3C,4C,5C,6C"]
        ),
        "refused-chelem-late": found(chelem_late, 4, "chelem-late"),
        "refused-chelem-not-the-taker": found(chelem_not_taker, 3, "chelem-not-taker"),
        "refused-poignee-wrong-size": found(poignee_of_size(3), 4, "poignee-size"),
        "refused-poignee-excuse-without-every-trump": found(
            poignee_with_the_excuse_but_not_every_trump, 5, "poignee-ex"
        ),
        "refused-poignee-after-the-hidden-partner-at-five": found(
            poignee_after_the_hidden_partner("defender"), 5, "partner-defender", 50_000
        ),
        "refused-misere-with-a-trump": found(misere_with_a_trump, 4, "misere"),
        "refused-announcement-after-the-first-trick": found(announcement_after_first_trick, 4, "late-misere"),
        "refused-card-not-held": found(card_not_held, 4, "not-held"),
        "refused-card-not-legal": found(card_not_legal, 3, "not-legal"),
        "refused-first-lead-in-the-called-suit": found(first_lead_in_the_called_suit, 5, "called-suit"),
        "refused-move-after-the-end": document(4, seed4, [*finished4, "W:pass"]),
    }
    return cases


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, record in records().items():
        data = record if isinstance(record, bytes) else json.dumps(record, indent=1, ensure_ascii=False).encode()
        if not name.startswith("refused-not-json"):
            data += b"\n"
        (GOLDEN / f"{name}.json").write_bytes(data)
        # What ``couyon verify`` prints: the registry's answer (a wrong format is refused there, before tarot).
        expected = verify_record(data)
        assert expected["valid"] == (not name.startswith("refused-")), (name, expected)
        (GOLDEN / f"{name}.expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
        print(f"{name}: {expected.get('error', 'valid')}")


if __name__ == "__main__":
    main()
