"""The ``coucou-record/2`` verifier (coucou-record-format.md, last section: "As qui court") written again,
from the contract and rulings 20–24 only.

It shares nothing with ``couyon``. From the independent ``coucou-record/1`` reference
(``reference.coucou_contract``) it borrows what the two sections share word for word: the stream,
the decks, the circle, the record's shape, the game around the coups (``CoucouGame``, subclassed:
moves, showdowns, tokens, places, the passing deal) and, for a ``"variant": "coucou"`` record, the
whole ``/1`` report, to which ``/2`` only adds ``variant``. The as qui court coup is its own below:
seats are ints, cards strings, a coup a dict of hands and a list of outcomes.

It also makes records to test with: ``random_moves`` plays whole random games with every choice
drawn from the contract's stream (the dealer's move included), ``record`` writes a ``/2`` record.
"""

from __future__ import annotations

import json
from typing import Any

from reference.contract import ContractStream, Refusal, _no_constant, _no_duplicate_keys
from reference.coucou_contract import (
    CoucouGame,
    check_shape,
    circle,
    is_king,
    rank_of,
    shuffled_deck,
    verify_coucou,
)

FORMAT = "coucou-record/2"
VARIANTS = ("coucou", "as-qui-court")


class Coup:
    """One as qui court coup: the dealer has one card; his left neighbour changes with him; he may then speak."""

    def __init__(self, number: int, dealer: int, order: list[int], before: dict[int, str], stock_top: str) -> None:
        self.number = number
        self.dealer = dealer
        self.order = order
        self.before = dict(before)
        self.hands = dict(before)
        self.stock_top = stock_top
        self.outcomes: list[str] = []
        self.stock: str | None = None
        self.kings_shown: list[int] = []
        self.after: dict[int, str] | None = None
        self.losers: list[int] | None = None
        self.tokens: dict[int, int] | None = None
        self.eliminated: list[int] | None = None

    @staticmethod
    def dealt(seed: str, number: int, dealer: int, in_game: list[int], players: int) -> Coup:
        """Position p to c(p) for p = 0 … m-1 (the dealer gets m-1 only); position m is the stock's top card."""
        order = circle(dealer, in_game, players)
        deck = shuffled_deck(seed, number, players)
        m = len(order)
        return Coup(number, dealer, order, {order[p]: deck[p] for p in range(m)}, deck[m])

    @property
    def speaker(self) -> int | None:
        """c0 … c(m-2) in turn, then the dealer only if c(m-2)'s move was an exchange that handed him an ace."""
        m = len(self.order)
        spoken = len(self.outcomes)
        if spoken < m - 1:
            return self.order[spoken]
        if spoken == m - 1 and self.outcomes[-1] == "exchange" and self.hands[self.dealer][:-1] == "A":
            return self.dealer
        return None

    def move(self, action: str) -> None:
        m = len(self.order)
        p = len(self.outcomes)
        seat = self.order[p]
        if action == "keep":
            self.outcomes.append("keep")
        elif p <= m - 2:
            right = self.order[p + 1]
            if is_king(self.hands[right]):
                self.outcomes.append("king-shown")
                self.kings_shown.append(right)
            else:
                self.hands[seat], self.hands[right] = self.hands[right], self.hands[seat]
                self.outcomes.append("exchange")
        else:
            self.stock = self.stock_top
            if is_king(self.stock_top):
                self.outcomes.append("stock-king")
            else:
                self.hands[seat] = self.stock_top
                self.outcomes.append("stock")

    def showdown(self) -> list[int]:
        ranks = {seat: rank_of(card) for seat, card in self.hands.items()}
        lowest = min(ranks.values())
        if lowest == max(ranks.values()):
            return []
        return sorted(seat for seat, rank in ranks.items() if rank == lowest)

    def entry(self) -> dict[str, Any]:
        def by_seat(hands: dict[int, str]) -> dict[str, str]:
            return {str(seat): hands[seat] for seat in sorted(hands)}

        return {
            "number": self.number,
            "dealer": self.dealer,
            "order": list(self.order),
            "before": by_seat(self.before),
            "actions": [f"{self.order[p]}:{outcome}" for p, outcome in enumerate(self.outcomes)],
            "stock": self.stock,
            "kings_shown": list(self.kings_shown),
            "after": None if self.after is None else by_seat(self.after),
            "losers": self.losers,
            "tokens": None if self.tokens is None else {str(seat): n for seat, n in sorted(self.tokens.items())},
            "eliminated": self.eliminated,
        }


class AsQuiCourtGame(CoucouGame):
    """A whole as qui court game from its seed: coucou's game (``reference.coucou_contract.CoucouGame``: the
    moves' checks, the showdown's tokens, eliminations, places and the passing deal) with this page's coup,
    and a report that names its variant."""

    def deal(self, number: int, dealer: int, in_game: list[int]) -> Coup:
        return Coup.dealt(self.seed, number, dealer, in_game, self.players)

    def report(self) -> dict[str, Any]:
        report = super().report()
        return {"valid": True, "variant": "as-qui-court", **{k: v for k, v in report.items() if k != "valid"}}


def verify_record_2(data: str | bytes) -> dict[str, Any]:
    """The contract's verifier output for a ``coucou-record/2`` record (either variant)."""
    try:
        if isinstance(data, bytes):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise Refusal("the record is not UTF-8") from None
        else:
            text = data
        try:
            document = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise Refusal("the record is not JSON") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise Refusal(f'the format must be "{FORMAT}"')
        variant = document.get("variant")
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise Refusal('the variant must be "coucou" or "as-qui-court"')
        as_one = {**document, "format": "coucou-record/1"}
        if variant == "coucou":
            result = verify_coucou(json.dumps(as_one))
            if not result["valid"]:
                return result
            return {"valid": True, "variant": "coucou", **{k: v for k, v in result.items() if k != "valid"}}
        seed, players, tokens, moves = check_shape(as_one)
        game = AsQuiCourtGame(seed, players, tokens)
        for index, move in enumerate(moves):
            game.play(index, move)
        return game.report()
    except Refusal as refusal:
        return {"valid": False, "error": str(refusal), "move": refusal.move}


def record(variant: Any, seed: Any, players: Any, tokens: Any, moves: Any, **extra: Any) -> str:
    document = {"format": FORMAT, "variant": variant, "players": players, "tokens": tokens, "seed": seed}
    return json.dumps({**document, "moves": moves, **extra})


def random_moves(seed: str, players: int, tokens: int, label: str = "aqc-random-play") -> list[str]:
    """A whole as qui court game's moves, each choice (the dealer's too) drawn from ``stream(seed, label)``."""
    chooser = ContractStream(seed, label)
    change_in_four = 1 + chooser.uniform(3)  # 1, 2 or 3 changes in four, one propensity a game
    game = AsQuiCourtGame(seed, players, tokens)
    moves: list[str] = []
    while True:
        options = game.legal()
        if not options:
            return moves
        move = options[1] if chooser.uniform(4) < change_in_four else options[0]
        game.play(len(moves), move)
        moves.append(move)
