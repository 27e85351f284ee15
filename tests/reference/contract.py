"""The ``couyon-record/1`` verifier written again, from record-format.md and the rule book only.

It deliberately shares nothing with ``couyon``: cards are strings, hands are lists,
the game is one loop over the moves. Two programs written from the same page that
agree on thousands of records give confidence that both follow the page.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

SEATS = "SWNE"
RANKS = ["9", "10", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]
DECK = [rank + suit for suit in SUITS for rank in RANKS]
POINTS = {"9": 0, "10": 0, "J": 1, "Q": 2, "K": 3, "A": 4}


class Refusal(Exception):
    """The record is refused; ``move`` is the 0-based index of the move at fault, or None."""

    def __init__(self, message: str, move: int | None = None) -> None:
        super().__init__(message)
        self.move = move


class ContractStream:
    """``stream(seed, label)``: concatenated SHA-256 blocks read as big-endian u32s."""

    def __init__(self, seed: str, label: str) -> None:
        self.seed = seed.encode("utf-8")
        self.label = label.encode("utf-8")
        self.data = b""
        self.offset = 0
        self.blocks = 0

    def u32(self) -> int:
        if self.offset + 4 > len(self.data):
            block = self.seed + b"\0" + self.label + b"\0" + self.blocks.to_bytes(4, "big")
            self.data += hashlib.sha256(block).digest()
            self.blocks += 1
        value = int.from_bytes(self.data[self.offset : self.offset + 4], "big")
        self.offset += 4
        return value

    def uniform(self, n: int) -> int:
        bound = 2**32 - (2**32 % n)
        while True:
            x = self.u32()
            if not x >= bound:
                return x % n


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1])


def suit_of(card: str) -> str:
    return card[-1]


def team_of(seat: str) -> str:
    return "NS" if seat in "NS" else "WE"


def left_of(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def dealt_deck(seed: str, number: int) -> list[str]:
    deck = list(DECK)
    stream = ContractStream(seed, "deal:" + str(number))
    for i in range(23, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def allowed(hand: list[str], table: list[str], trump: str) -> list[str]:
    """Cards of ``hand`` the obligations allow onto ``table`` (rule book "Les obligations", rulings 3 and 4)."""
    if not table:
        return list(hand)
    led = suit_of(table[0])
    of_led = [card for card in hand if suit_of(card) == led]
    if of_led:
        top = max(rank_of(card) for card in table if suit_of(card) == led)
        higher = [card for card in of_led if rank_of(card) > top]
        return higher if higher else of_led
    trumps = [card for card in hand if suit_of(card) == trump]
    if not trumps:
        return list(hand)
    on_table = [rank_of(card) for card in table if suit_of(card) == trump]
    if on_table:
        over = [card for card in trumps if rank_of(card) > max(on_table)]
        if over:
            return over
    return trumps


def winning_index(table: list[str], trump: str) -> int:
    led = suit_of(table[0])

    def strength(card: str) -> int:
        if suit_of(card) == trump:
            return 100 + rank_of(card)
        if suit_of(card) == led:
            return 50 + rank_of(card)
        return -1

    strengths = [strength(card) for card in table]
    return strengths.index(max(strengths))


class Deal:
    """One deal as dealt from the seed: the hands, the turned cards and what happened."""

    def __init__(self, seed: str, number: int, dealer: str, stake: int, lines: dict[str, int]) -> None:
        self.number = number
        self.dealer = dealer
        self.stake = stake
        self.deck = dealt_deck(seed, number)
        self.hands: dict[str, list[str]] = {seat: [] for seat in SEATS}
        seat = left_of(dealer)
        for start in range(0, 16, 2):
            self.hands[seat] += self.deck[start : start + 2]
            seat = left_of(seat)
        self.proposals = [self.deck[16]]
        self.trump: str | None = None
        self.taker: str | None = None
        self.points: dict[str, int] | None = None
        self.outcome: str | None = None
        self.lines = dict(lines)
        self.turn = left_of(dealer)
        self.table: list[str] = []
        self.leader = ""
        self.tricks_played = 0
        self.won = {"NS": 0, "WE": 0}

    def entry(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "proposals": list(self.proposals),
            "trump": self.trump,
            "taker": self.taker,
            "points": None if self.points is None else dict(self.points),
            "outcome": self.outcome,
            "stake": self.stake,
            "lines": None if self.outcome is None else dict(self.lines),
        }


def check_shape(document: Any) -> tuple[str, list[Any]]:
    if not isinstance(document, dict):
        raise Refusal("not an object")
    if document.get("format") != "couyon-record/1":
        raise Refusal("wrong format")
    if document.get("variant") != "standard":
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


def replay(seed: str, moves: list[Any]) -> dict[str, Any]:
    """Play ``moves`` from the seed's first deal and return the contract's report, or raise ``Refusal``."""
    lines = {"NS": 5, "WE": 5}
    stake = 1
    log: list[Deal] = []
    deal = Deal(seed, 1, SEATS[ContractStream(seed, "dealer").uniform(4)], stake, lines)
    log.append(deal)
    winner: str | None = None
    for index, move in enumerate(moves):
        if winner is not None:
            raise Refusal("the game is over", index)
        if not isinstance(move, str) or move.count(":") != 1:
            raise Refusal("unreadable move", index)
        seat, action = move.split(":")
        if seat not in ("S", "W", "N", "E") or (action not in ("take", "pass") and action not in DECK):
            raise Refusal("unreadable move", index)
        if seat != deal.turn:
            raise Refusal("not this seat's turn", index)
        next_deal = False
        if deal.trump is None:
            if action == "take":
                deal.trump = suit_of(deal.proposals[-1])
                deal.taker = seat
                deal.leader = seat
                deal.turn = seat
            elif action == "pass":
                if seat == deal.dealer:
                    if len(deal.proposals) == 8:
                        deal.outcome = "redeal"
                        next_deal = True
                    else:
                        deal.proposals.append(deal.deck[16 + len(deal.proposals)])
                        deal.turn = left_of(deal.dealer)
                else:
                    deal.turn = left_of(seat)
            else:
                raise Refusal("a card during the bidding", index)
        else:
            if action in ("take", "pass"):
                raise Refusal("a bid during the play", index)
            hand = deal.hands[seat]
            if action not in hand:
                raise Refusal("card not held", index)
            if action not in allowed(hand, deal.table, deal.trump):
                raise Refusal("card forbidden", index)
            hand.remove(action)
            deal.table.append(action)
            deal.turn = left_of(seat)
            if len(deal.table) == 4:
                taker_of_trick = deal.leader
                for _ in range(winning_index(deal.table, deal.trump)):
                    taker_of_trick = left_of(taker_of_trick)
                deal.won[team_of(taker_of_trick)] += sum(POINTS[card[:-1]] for card in deal.table)
                deal.table = []
                deal.leader = taker_of_trick
                deal.turn = taker_of_trick
                deal.tricks_played += 1
                if deal.tricks_played == 4:
                    assert deal.taker is not None
                    mine = team_of(deal.taker)
                    theirs = "WE" if mine == "NS" else "NS"
                    deal.points = dict(deal.won)
                    if deal.won[mine] > deal.won[theirs]:
                        deal.outcome = "made"
                        lines[mine] = max(0, lines[mine] - stake)
                        stake = 1
                    elif deal.won[mine] < deal.won[theirs]:
                        deal.outcome = "failed"
                        lines[mine] += stake
                        lines[theirs] = max(0, lines[theirs] - stake)
                        stake = 1
                    else:
                        deal.outcome = "tie"
                        stake = 2
                    next_deal = True
        if next_deal:
            deal.lines = dict(lines)
            for team in ("NS", "WE"):
                if lines[team] == 0:
                    winner = team
            if winner is None:
                deal = Deal(seed, deal.number + 1, left_of(deal.dealer), stake, lines)
                log.append(deal)
    return {
        "valid": True,
        "finished": winner is not None,
        "winner": winner,
        "lines": dict(lines),
        "deals": len(log),
        "score": None if winner is None else 1000 + 100 * lines["WE"] - 100 * lines["NS"],
        "deal_log": [deal.entry() for deal in log],
    }


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Refusal("duplicate key")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise Refusal("not JSON: " + name)


def verify(data: bytes) -> dict[str, Any]:
    """The contract's verifier output for the bytes of a record file."""
    try:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal("not UTF-8") from None
        try:
            document = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise Refusal("not JSON") from None
        seed, moves = check_shape(document)
        return replay(seed, moves)
    except Refusal as refusal:
        return {"valid": False, "error": str(refusal), "move": refusal.move}
