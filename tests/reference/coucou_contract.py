"""The ``coucou-record/1`` verifier written again, from coucou-record-format.md, coucou-rulings.md
and the French rule text only.

Like ``reference.contract`` it shares nothing with ``couyon``: seats are ints, cards are strings,
a coup is a dict of hands and a list of outcomes, the game is one loop over the moves
(``replay``; the loop's body is ``CoucouGame.play`` so that a random player can move one step at
a time). From ``reference.contract``, itself independent, it borrows only what the contracts
share word for word: the random stream and the strict JSON reading.

It also makes records to test with: ``random_moves``/``random_record`` play whole random games
(every choice drawn from the contract's stream, never from ``random``), ``mutated`` corrupts one
move of a record and ``RECORD_FAULTS`` breaks the record itself.
"""

from __future__ import annotations

import json
from typing import Any

from reference.contract import ContractStream, Refusal, _no_constant, _no_duplicate_keys

FORMAT = "coucou-record/1"
SUITS = ["C", "D", "H", "S"]
RANKS_52 = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
RANKS_32 = ["A", "7", "8", "9", "10", "J", "Q", "K"]
"""Ranks weakest to strongest. The 32 ranks are the 52 ranks' order with 2–6 left out, so one
ordering (``rank_of``) compares cards of either deck."""

MIN_PLAYERS, MAX_PLAYERS = 5, 20
MIN_TOKENS, MAX_TOKENS = 1, 10


def deck_for(players: int) -> list[str]:
    """The canonical deck: 32 cards up to 6 players, 52 from 7; suits C, D, H, S, ranks weakest first."""
    ranks = RANKS_32 if players <= 6 else RANKS_52
    return [rank + suit for suit in SUITS for rank in ranks]


def rank_of(card: str) -> int:
    return RANKS_52.index(card[:-1])


def suit_of(card: str) -> str:
    return card[-1]


def is_king(card: str) -> bool:
    return card[:-1] == "K"


def first_dealer(seed: str, players: int) -> int:
    """Seat ``1 + uniform(N)`` on ``stream(seed, "dealer")``."""
    return 1 + ContractStream(seed, "dealer").uniform(players)


def shuffled_deck(seed: str, number: int, players: int) -> list[str]:
    """Coup ``number``'s deck: Fisher–Yates on ``stream(seed, "coup:<number>")`` from the canonical order."""
    deck = deck_for(players)
    stream = ContractStream(seed, "coup:" + str(number))
    for i in range(len(deck) - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def next_right(seat: int, in_game: list[int], players: int) -> int:
    """The first seat still in the game in the cyclic order seat + 1, seat + 2, …, N, 1, 2, …"""
    candidate = seat
    for _ in range(players):
        candidate = candidate % players + 1
        if candidate in in_game:
            return candidate
    raise AssertionError("nobody is left in the game")


def circle(dealer: int, in_game: list[int], players: int) -> list[int]:
    """``c0 … c(m-1)``: from the dealer's right neighbour round to the dealer himself."""
    order = [next_right(dealer, in_game, players)]
    while order[-1] != dealer:
        order.append(next_right(order[-1], in_game, players))
    assert len(order) == len(in_game)
    return order


def dealers_card(three: list[str]) -> str:
    """The highest rank of the dealer's three; on equal ranks the suit that comes last in C, D, H, S."""
    best = three[0]
    for card in three[1:]:
        if (rank_of(card), SUITS.index(suit_of(card))) > (rank_of(best), SUITS.index(suit_of(best))):
            best = card
    return best


class Coup:
    """One coup: the cards after the deal, and what the moves did to them so far."""

    def __init__(self, number: int, dealer: int, order: list[int], before: dict[int, str], stock_top: str) -> None:
        assert order[-1] == dealer and sorted(before) == sorted(order) and len(order) >= 2
        self.number = number
        self.dealer = dealer
        self.order = list(order)
        self.before = dict(before)
        self.hands = dict(before)
        self.stock_top = stock_top
        self.actions: list[str] = []
        self.stock: str | None = None
        self.after: dict[int, str] | None = None
        self.losers: list[int] | None = None
        self.tokens: dict[int, int] | None = None
        self.eliminated: list[int] | None = None

    @classmethod
    def dealt(cls, seed: str, number: int, dealer: int, in_game: list[int], players: int) -> Coup:
        """Coup ``number`` dealt from the seed: position p to c(p), m-1 … m+1 to the dealer, m+2 the stock."""
        order = circle(dealer, in_game, players)
        m = len(order)
        deck = shuffled_deck(seed, number, players)
        before = {order[p]: deck[p] for p in range(m - 1)}
        before[dealer] = dealers_card(deck[m - 1 : m + 2])
        return cls(number, dealer, order, before, deck[m + 2])

    @property
    def speaker(self) -> int | None:
        """The seat whose move comes next (c0 … c(m-2)), or None once everyone has spoken."""
        if len(self.actions) < len(self.order) - 1:
            return self.order[len(self.actions)]
        return None

    def move(self, action: str) -> str:
        """The speaker's ``keep`` or ``change``; returns and logs the outcome."""
        seat = self.speaker
        assert seat is not None and action in ("keep", "change")
        p = len(self.actions)
        m = len(self.order)
        if action == "keep":
            outcome = "keep"
        elif p <= m - 3:
            neighbour = self.order[p + 1]
            if is_king(self.hands[neighbour]):
                outcome = "coucou"
            else:
                self.hands[seat], self.hands[neighbour] = self.hands[neighbour], self.hands[seat]
                outcome = "exchange"
        else:
            self.stock = self.stock_top
            if is_king(self.stock_top):
                outcome = "stock-king"
            else:
                self.hands[seat] = self.stock_top
                outcome = "stock"
        self.actions.append(f"{seat}:{outcome}")
        return outcome

    def showdown(self) -> list[int]:
        """The seats holding the lowest rank, or nobody if every card has the same rank."""
        ranks = [rank_of(card) for card in self.hands.values()]
        if min(ranks) == max(ranks):
            return []
        return sorted(seat for seat, card in self.hands.items() if rank_of(card) == min(ranks))

    def entry(self) -> dict[str, Any]:
        def by_seat(cards: dict[int, str]) -> dict[str, str]:
            return {str(seat): cards[seat] for seat in sorted(cards)}

        return {
            "number": self.number,
            "dealer": self.dealer,
            "order": list(self.order),
            "before": by_seat(self.before),
            "actions": list(self.actions),
            "stock": self.stock,
            "after": None if self.after is None else by_seat(self.after),
            "losers": None if self.losers is None else list(self.losers),
            "tokens": None if self.tokens is None else {str(seat): self.tokens[seat] for seat in sorted(self.tokens)},
            "eliminated": None if self.eliminated is None else list(self.eliminated),
        }


def play_coup(order: list[int], before: dict[int, str], stock_top: str, actions: list[str]) -> Coup:
    """A coup on cards set by hand (the dealer is ``order[-1]``), played with ``keep``/``change`` words."""
    coup = Coup(1, order[-1], order, before, stock_top)
    for action in actions:
        coup.move(action)
    if coup.speaker is None:
        coup.after = dict(coup.hands)
        coup.losers = coup.showdown()
    return coup


class CoucouGame:
    """A whole game from its seed: coup 1 is dealt at once, each move is one call to ``play``."""

    def __init__(self, seed: str, players: int, tokens: int) -> None:
        self.seed = seed
        self.players = players
        self.tokens = {seat: tokens for seat in range(1, players + 1)}
        self.eliminated: list[dict[str, int]] = []
        self.winner: int | None = None
        self.coup = self.deal(1, first_dealer(seed, players), self.in_game())
        self.log = [self.coup]

    def deal(self, number: int, dealer: int, in_game: list[int]) -> Any:
        """Coup ``number`` dealt by ``dealer`` to the seats ``in_game`` (a variant deals its own coup)."""
        return Coup.dealt(self.seed, number, dealer, in_game, self.players)

    def in_game(self) -> list[int]:
        return [seat for seat in range(1, self.players + 1) if self.tokens[seat] > 0]

    def play(self, index: int, move: Any) -> None:
        """Apply move number ``index`` of a record, or raise ``Refusal`` naming it."""
        if self.winner is not None:
            raise Refusal("the game is over: no move may follow its last coup", index)
        if not isinstance(move, str) or move.count(":") != 1:
            raise Refusal("a move is a string with exactly one colon, seat then action", index)
        seat, action = move.split(":")
        expected = self.coup.speaker
        assert expected is not None
        if seat != str(expected):
            raise Refusal(f"it is seat {expected}'s turn to speak, written {expected}", index)
        if action not in ("keep", "change"):
            raise Refusal("the action must be keep or change", index)
        coup = self.coup
        coup.move(action)
        if coup.speaker is not None:
            return
        coup.after = dict(coup.hands)
        coup.losers = coup.showdown()
        for loser in coup.losers:
            self.tokens[loser] -= 1
        coup.eliminated = [seat for seat in coup.losers if self.tokens[seat] == 0]
        coup.tokens = dict(self.tokens)
        left = self.in_game()
        for out in coup.eliminated:
            self.eliminated.append({"seat": out, "coup": coup.number, "place": 1 + len(left)})
        if len(left) == 1:
            self.winner = left[0]
            return
        dealer = next_right(coup.dealer, left, self.players)
        self.coup = self.deal(coup.number + 1, dealer, left)
        self.log.append(self.coup)

    def legal(self) -> list[str]:
        """Every move text ``play`` accepts now (empty once the game is over)."""
        seat = self.coup.speaker
        if self.winner is not None or seat is None:
            return []
        return [f"{seat}:keep", f"{seat}:change"]

    def seat_one(self) -> tuple[int | None, int | None]:
        """Seat 1's place and score, both None unless the game is finished."""
        if self.winner is None:
            return None, None
        n = self.players
        if self.winner == 1:
            return 1, 1000 + 10 * self.tokens[1]
        out = next(entry for entry in self.eliminated if entry["seat"] == 1)
        return out["place"], 1000 * (n - out["place"]) // (n - 1) + min(out["coup"], 50)

    def report(self) -> dict[str, Any]:
        place, score = self.seat_one()
        return {
            "valid": True,
            "finished": self.winner is not None,
            "winner": self.winner,
            "tokens": {str(seat): self.tokens[seat] for seat in range(1, self.players + 1)},
            "coups": len(self.log),
            "eliminated": [dict(entry) for entry in self.eliminated],
            "place": place,
            "score": score,
            "coup_log": [coup.entry() for coup in self.log],
        }


def replay(seed: str, players: int, tokens: int, moves: list[Any]) -> CoucouGame:
    """Play ``moves`` from coup 1, or raise ``Refusal`` at the first faulty one."""
    game = CoucouGame(seed, players, tokens)
    for index, move in enumerate(moves):
        game.play(index, move)
    return game


def is_count(value: Any, low: int, high: int) -> bool:
    """A plain JSON integer in ``low … high`` (``true`` and ``8.0`` are not integers)."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_shape(document: Any) -> tuple[str, int, int, list[Any]]:
    """The record's seed, players, tokens and moves, or a ``Refusal`` with ``move`` None."""
    if not isinstance(document, dict):
        raise Refusal("a record is a JSON object")
    if document.get("format") != FORMAT:
        raise Refusal(f'the format must be "{FORMAT}"')
    players: Any = document.get("players")
    if not is_count(players, MIN_PLAYERS, MAX_PLAYERS):
        raise Refusal(f"players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}")
    tokens: Any = document.get("tokens")
    if not is_count(tokens, MIN_TOKENS, MAX_TOKENS):
        raise Refusal(f"tokens must be an integer from {MIN_TOKENS} to {MAX_TOKENS}")
    seed = document.get("seed")
    if not isinstance(seed, str):
        raise Refusal("the seed must be a string")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal("the seed is not UTF-8 text (a lone surrogate)") from None
    moves = document.get("moves")
    if not isinstance(moves, list):
        raise Refusal("moves must be a list")
    return seed, players, tokens, moves


def verify_coucou(data: str | bytes) -> dict[str, Any]:
    """The contract's verifier output for a coucou record (its bytes or its text)."""
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
        seed, players, tokens, moves = check_shape(document)
        return replay(seed, players, tokens, moves).report()
    except Refusal as refusal:
        return {"valid": False, "error": str(refusal), "move": refusal.move}


# --- records to test with


def record(seed: Any, players: Any, tokens: Any, moves: Any, **extra: Any) -> str:
    """A record's JSON text (extra keys last, as a site would add ``bots`` or ``player``)."""
    document = {"format": FORMAT, "players": players, "tokens": tokens, "seed": seed, "moves": moves, **extra}
    return json.dumps(document)


STYLES = ("coin", "always-keep", "always-change", "threshold", "mostly-change")
"""How ``random_moves`` chooses, one style a game: a fair coin, always keep, always change, keep from
the middle rank up (a king always kept), or change three times in four."""


def random_moves(
    seed: str, players: int, tokens: int, label: str = "coucou-random-play", max_moves: int = 100_000
) -> list[str]:
    """A whole game's moves, every choice drawn from ``stream(seed, label)`` (never ``random``)."""
    chooser = ContractStream(seed, label)
    style = STYLES[chooser.uniform(len(STYLES))]
    game = CoucouGame(seed, players, tokens)
    moves: list[str] = []
    middle = RANKS_52.index("9" if players <= 6 else "7")
    while len(moves) < max_moves:
        options = game.legal()
        if not options:
            break
        seat = game.coup.speaker
        assert seat is not None
        card = game.coup.hands[seat]
        if style == "coin":
            change = chooser.uniform(2) == 0
        elif style == "always-keep":
            change = False
        elif style == "always-change":
            change = True
        elif style == "threshold":
            change = rank_of(card) < middle
        else:
            change = chooser.uniform(4) != 0
        move = options[1] if change else options[0]
        game.play(len(moves), move)
        moves.append(move)
    return moves


def random_record(seed: str, players: int, tokens: int, label: str = "coucou-random-play", **extra: Any) -> str:
    """A finished random game's record (see ``random_moves``)."""
    return record(seed, players, tokens, random_moves(seed, players, tokens, label), **extra)


BAD_ACTIONS = ["Keep", "CHANGE", "keep ", " change", "swap", "", "exchange", "coucou", "stock", "garde", "kept"]
NOT_STRINGS: list[Any] = [None, 7, 1.5, True, False, ["1:keep"], {"1": "keep"}]
BAD_SHAPES = ["1keep", "1:keep:", ":", "", "1::keep", "keep", "1;keep", "1:keep:change"]


def seat_written_otherwise(seat: str) -> list[str]:
    """The right seat's number in other spellings: a leading zero or sign, spaces, other digits."""
    arabic_indic = "".join(chr(0x660 + int(digit)) for digit in seat)
    fullwidth = "".join(chr(0xFF10 + int(digit)) for digit in seat)
    return ["0" + seat, "00" + seat, "+" + seat, " " + seat, seat + " ", seat + ".0", arabic_indic, fullwidth]


def mutated(moves: list[str], players: int, chooser: ContractStream) -> tuple[str, list[Any]]:
    """``moves`` with one corruption drawn from ``chooser``: its kind's name and the new move list.

    Most kinds make the corrupted move itself faulty; ``flip`` (keep for change or back) stays legal,
    ``drop``, ``repeat`` and ``swap`` shift the turn so that a later move is usually the first fault.
    """
    changed: list[Any] = list(moves)
    kinds = ["wrong-seat", "seat-spelling", "bad-action", "not-string", "bad-shape", "after-end"]
    kinds += ["flip", "drop", "repeat", "swap"]
    kind = kinds[chooser.uniform(len(kinds))]
    if not changed or kind == "after-end":
        seat = 1 + chooser.uniform(players)
        changed.append(f"{seat}:{['keep', 'change'][chooser.uniform(2)]}")
        return "after-end", changed
    where = chooser.uniform(len(changed))
    seat, action = changed[where].split(":")
    if kind == "wrong-seat":
        others = [str(other) for other in range(0, players + 2) if str(other) != seat]
        changed[where] = others[chooser.uniform(len(others))] + ":" + action
    elif kind == "seat-spelling":
        spellings = seat_written_otherwise(seat)
        changed[where] = spellings[chooser.uniform(len(spellings))] + ":" + action
    elif kind == "bad-action":
        changed[where] = seat + ":" + BAD_ACTIONS[chooser.uniform(len(BAD_ACTIONS))]
    elif kind == "not-string":
        changed[where] = NOT_STRINGS[chooser.uniform(len(NOT_STRINGS))]
    elif kind == "bad-shape":
        shapes = [*BAD_SHAPES, seat + ":" + action + ":", seat + action, ":" + seat + ":" + action]
        changed[where] = shapes[chooser.uniform(len(shapes))]
    elif kind == "flip":
        changed[where] = seat + ":" + ("keep" if action == "change" else "change")
    elif kind == "drop":
        del changed[where]
    elif kind == "repeat":
        changed.insert(where, changed[where])
    elif kind == "swap" and where + 1 < len(changed):
        changed[where], changed[where + 1] = changed[where + 1], changed[where]
    else:
        changed.insert(where, seat + ":" + action)
    return kind, changed


RECORD_FAULTS: list[tuple[str, dict[str, Any]]] = [
    ("format missing", {"format": None}),
    ("wrong format", {"format": "coucou-record/2"}),
    ("couyon format", {"format": "couyon-record/1"}),
    ("players too few", {"players": 4}),
    ("players too many", {"players": 21}),
    ("players zero", {"players": 0}),
    ("players negative", {"players": -8}),
    ("players a float", {"players": 8.0}),
    ("players true", {"players": True}),
    ("players a string", {"players": "8"}),
    ("players null", {"players": None}),
    ("tokens zero", {"tokens": 0}),
    ("tokens too many", {"tokens": 11}),
    ("tokens a float", {"tokens": 3.0}),
    ("tokens true", {"tokens": True}),
    ("tokens a list", {"tokens": [3]}),
    ("seed a number", {"seed": 5}),
    ("seed null", {"seed": None}),
    ("seed a list", {"seed": ["coucou"]}),
    ("moves a string", {"moves": "1:keep"}),
    ("moves null", {"moves": None}),
    ("moves an object", {"moves": {"0": "1:keep"}}),
]
"""Faults of the record itself, refused with ``move`` null: the key set to the value (None is JSON null,
except that ``format: None`` means the key is left out)."""


def faulty_record(seed: str, players: int, tokens: int, moves: list[Any], fault: dict[str, Any]) -> str:
    """``record(...)`` with one key changed as a ``RECORD_FAULTS`` entry says."""
    document: dict[str, Any] = {"format": FORMAT, "players": players, "tokens": tokens, "seed": seed, "moves": moves}
    for key, value in fault.items():
        if key == "format" and value is None:
            del document[key]
        else:
            document[key] = value
    return json.dumps(document)
