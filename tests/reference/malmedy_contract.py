"""The ``couyon-record/1`` verifier for ``"variant": "malmedy"``, written again from malmedy.md,
record-format.md and the French rule text only.

Like ``reference.contract`` it shares nothing with ``couyon``: cards are strings, hands are
lists, the game is one loop over the moves (``replay``; the loop's body is
``MalmedyGame.play`` so that a random player or a perft can move one step at a time).
From ``reference.contract``, itself independent, it borrows only what both variants share
word for word: the random stream, the shuffle, the card helpers and the JSON reading.
"""

from __future__ import annotations

import json
from typing import Any

from reference.contract import (
    DECK,
    POINTS,
    SEATS,
    SUITS,
    ContractStream,
    Refusal,
    _no_constant,
    _no_duplicate_keys,
    dealt_deck,
    left_of,
    rank_of,
    suit_of,
    team_of,
)

START_LINES = 13
TRUMP_ACTIONS = {"trump-" + suit: suit for suit in SUITS}
ANSWERS = ("contra", "recontra", "pass")
ACTIONS = (*TRUMP_ACTIONS, "mite", *ANSWERS)
ALL_MOVE_TEXTS = [f"{seat}:{action}" for seat in SEATS for action in (*ACTIONS, *DECK)]
"""Every readable move text: the seat, then a trump choice, an announcement, an answer or a card."""


def other_team(team: str) -> str:
    return "WE" if team == "NS" else "NS"


def effective_suit(card: str, trump: str, mite: bool) -> str:
    """Ruling 4 and 5: the queen of clubs, and the queen of spades once mite is announced, are trumps."""
    if card == "QC" or (mite and card == "QS"):
        return trump
    return suit_of(card)


def allowed(hand: list[str], table: list[str], trump: str, mite: bool) -> list[str]:
    """Ruling 7, free play: holding the led suit, a card of it or any trump; void, any card."""
    if not table:
        return list(hand)
    led = effective_suit(table[0], trump, mite)
    if any(effective_suit(card, trump, mite) == led for card in hand):
        return [card for card in hand if effective_suit(card, trump, mite) in (led, trump)]
    return list(hand)


def strength(card: str, led: str, trump: str, mite: bool) -> int:
    """Ruling 5 and 8: trumps A, (mite) Q♠, Q♣, K, Q, J, 10, 9; then the led suit by rank; then nothing."""
    suit = effective_suit(card, trump, mite)
    if suit == trump:
        if card == "A" + trump:
            return 200
        if card == "QS" and mite:
            return 199
        if card == "QC":
            return 198
        return 100 + rank_of(card)
    if suit == led:
        return 50 + rank_of(card)
    return -1


def winning_index(table: list[str], trump: str, mite: bool) -> int:
    led = effective_suit(table[0], trump, mite)
    strengths = [strength(card, led, trump, mite) for card in table]
    return strengths.index(max(strengths))


def deal_hands(deck: list[str], dealer: str) -> dict[str, list[str]]:
    """Record differences: 3 cards each from the dealer's left (0–11), the blind (12–15), then 2 each (16–23)."""
    hands: dict[str, list[str]] = {seat: [] for seat in SEATS}
    seat = left_of(dealer)
    for start in range(0, 12, 3):
        hands[seat] += deck[start : start + 3]
        seat = left_of(seat)
    for start in range(16, 24, 2):
        hands[seat] += deck[start : start + 2]
        seat = left_of(seat)
    return hands


def line_changes(chooser_team: str, made: bool, capot: bool, mite: bool, contra: int) -> tuple[str, int, int]:
    """Ruling 10: the deal's winning team, the lines it erases, the lines the choosing team adds."""
    victor = chooser_team if made else other_team(chooser_team)
    erased = 1 + int(capot) + int(mite) + contra
    return victor, erased, 0 if made else 1


class Deal:
    """One deal as dealt from the seed, and what happened in it so far."""

    def __init__(self, seed: str, number: int, dealer: str) -> None:
        self.number = number
        self.dealer = dealer
        self.chooser = left_of(dealer)
        self.deck = dealt_deck(seed, number)
        self.hands = deal_hands(self.deck, dealer)
        self.blind = self.deck[12:16]
        self.trump: str | None = None
        self.mite: str | None = None
        self.contra = 0
        self.asking: str | None = None  # "contra": the announcer's left must answer; "recontra": the announcer
        self.points = {"NS": 0, "WE": 0}
        self.tricks = {"NS": 0, "WE": 0}
        self.outcome: str | None = None
        self.capot: str | None = None
        self.lines: dict[str, int] | None = None
        self.turn = self.chooser
        self.leader = self.chooser
        self.table: list[str] = []

    def entry(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "chooser": self.chooser,
            "trump": self.trump,
            "mite": self.mite,
            "contra": self.contra,
            "points": dict(self.points),
            "tricks": dict(self.tricks),
            "outcome": self.outcome,
            "capot": self.capot,
            "lines": None if self.lines is None else dict(self.lines),
        }


class MalmedyGame:
    """A whole game from its seed: deal 1 is dealt at once, each move is one call to ``play``."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.lines = {"NS": START_LINES, "WE": START_LINES}
        self.winner: str | None = None
        self.deal = Deal(seed, 1, SEATS[ContractStream(seed, "dealer").uniform(4)])
        self.log = [self.deal]

    def play(self, index: int, move: Any) -> None:
        """Apply move number ``index`` of a record, or raise ``Refusal`` naming it."""
        deal = self.deal
        if self.winner is not None:
            raise Refusal("the game is over", index)
        if not isinstance(move, str) or move.count(":") != 1:
            raise Refusal("unreadable move", index)
        seat, action = move.split(":")
        if seat not in ("S", "W", "N", "E") or (action not in ACTIONS and action not in DECK):
            raise Refusal("unreadable move", index)
        if seat != deal.turn:
            raise Refusal("not this seat's turn", index)
        if deal.trump is None:
            if action not in TRUMP_ACTIONS:
                raise Refusal("the chooser must first name trump (trump-C, trump-D, trump-H or trump-S)", index)
            deal.trump = TRUMP_ACTIONS[action]
            return
        if deal.asking == "contra":
            if action not in ("contra", "pass"):
                raise Refusal("the mite must be answered with contra or pass", index)
            if action == "contra":
                deal.contra = 1
                deal.asking = "recontra"
            else:
                deal.asking = None
            assert deal.mite is not None
            deal.turn = deal.mite
            return
        if deal.asking == "recontra":
            if action not in ("recontra", "pass"):
                raise Refusal("the contra must be answered with recontra or pass", index)
            if action == "recontra":
                deal.contra = 2
            deal.asking = None
            return
        hand = deal.hands[seat]
        if action == "mite":
            if deal.mite is not None:
                raise Refusal("mite was already announced in this deal", index)
            if "QS" not in hand:
                raise Refusal("mite without the queen of spades", index)
            if len(hand) != 5:
                raise Refusal("mite is announced only just before one's first card of the deal", index)
            deal.mite = seat
            deal.asking = "contra"
            deal.turn = left_of(seat)
            return
        if action in TRUMP_ACTIONS:
            raise Refusal("trump is already chosen", index)
        if action in ANSWERS:
            raise Refusal(action + " out of place: only a mite is answered", index)
        if action not in hand:
            raise Refusal("card not held", index)
        if action not in allowed(hand, deal.table, deal.trump, deal.mite is not None):
            raise Refusal("card forbidden", index)
        hand.remove(action)
        deal.table.append(action)
        deal.turn = left_of(seat)
        if len(deal.table) < 4:
            return
        taker = deal.leader
        for _ in range(winning_index(deal.table, deal.trump, deal.mite is not None)):
            taker = left_of(taker)
        deal.points[team_of(taker)] += sum(POINTS[card[:-1]] for card in deal.table)
        deal.tricks[team_of(taker)] += 1
        deal.table = []
        deal.leader = taker
        deal.turn = taker
        if deal.tricks["NS"] + deal.tricks["WE"] < 5:
            return
        mine = team_of(deal.chooser)
        made = deal.points[mine] > deal.points[other_team(mine)]
        deal.outcome = "made" if made else "failed"
        for team in ("NS", "WE"):
            if deal.tricks[team] == 5:
                deal.capot = team
        victor, erased, added = line_changes(mine, made, deal.capot is not None, deal.mite is not None, deal.contra)
        self.lines[victor] = max(0, self.lines[victor] - erased)
        self.lines[mine] += added
        deal.lines = dict(self.lines)
        if self.lines[victor] == 0:
            self.winner = victor
        else:
            self.deal = Deal(self.seed, deal.number + 1, left_of(deal.dealer))
            self.log.append(self.deal)

    def legal(self) -> list[str]:
        """Every move text ``play`` accepts now (empty once the game is over)."""
        deal = self.deal
        seat = deal.turn
        if self.winner is not None:
            return []
        if deal.trump is None:
            return [f"{seat}:{action}" for action in TRUMP_ACTIONS]
        if deal.asking == "contra":
            return [f"{seat}:contra", f"{seat}:pass"]
        if deal.asking == "recontra":
            return [f"{seat}:recontra", f"{seat}:pass"]
        hand = deal.hands[seat]
        moves = [f"{seat}:{card}" for card in allowed(hand, deal.table, deal.trump, deal.mite is not None)]
        if deal.mite is None and "QS" in hand and len(hand) == 5:
            moves.append(f"{seat}:mite")
        return moves

    def report(self) -> dict[str, Any]:
        return {
            "valid": True,
            "finished": self.winner is not None,
            "winner": self.winner,
            "lines": dict(self.lines),
            "deals": len(self.log),
            "score": None if self.winner is None else 1000 + 100 * self.lines["WE"] - 100 * self.lines["NS"],
            "deal_log": [deal.entry() for deal in self.log],
        }


def replay(seed: str, moves: list[Any]) -> MalmedyGame:
    """Play ``moves`` from the seed's first deal, or raise ``Refusal`` at the first faulty one."""
    game = MalmedyGame(seed)
    for index, move in enumerate(moves):
        game.play(index, move)
    return game


def legal_moves_after(seed: str, moves: list[str]) -> list[str]:
    """The move texts the rules allow after the (valid) ``moves`` of a record of ``seed``."""
    return replay(seed, moves).legal()


def check_shape(document: Any) -> tuple[str, list[Any]]:
    """As ``reference.contract.check_shape``, for ``"variant": "malmedy"``."""
    if not isinstance(document, dict):
        raise Refusal("not an object")
    if document.get("format") != "couyon-record/1":
        raise Refusal("wrong format")
    if document.get("variant") != "malmedy":
        raise Refusal("unknown variant")
    seed = document.get("seed")
    if not isinstance(seed, str):
        raise Refusal("seed is not a string")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal("seed is not UTF-8 text") from None
    moves = document.get("moves")
    if not isinstance(moves, list):
        raise Refusal("moves is not a list")
    return seed, moves


def verify_malmedy(data: str | bytes) -> dict[str, Any]:
    """The contract's verifier output for a Malmedy record (its bytes or its text)."""
    try:
        if isinstance(data, bytes):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise Refusal("not UTF-8") from None
        else:
            text = data
        try:
            document = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise Refusal("not JSON") from None
        seed, moves = check_shape(document)
        return replay(seed, moves).report()
    except Refusal as refusal:
        return {"valid": False, "error": str(refusal), "move": refusal.move}


def random_game(seed: str, label: str = "malmedy-random-play", max_moves: int = 100_000) -> list[str]:
    """A whole game of uniformly random legal moves, drawn from ``stream(seed, label)`` (never ``random``).

    A mite is announced, a contra and a recontra given, one time in two when allowed.
    """
    chooser = ContractStream(seed, label)
    game = MalmedyGame(seed)
    moves: list[str] = []
    while len(moves) < max_moves:
        options = game.legal()
        if not options:
            break
        mite = [option for option in options if option.endswith(":mite")]
        if mite and chooser.uniform(2) == 0:
            move = mite[0]
        else:
            cards = [option for option in options if not option.endswith(":mite")]
            move = cards[chooser.uniform(len(cards))]
        game.play(len(moves), move)
        moves.append(move)
    return moves
