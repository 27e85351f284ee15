"""A game of coucou as a fold over moves: ``new_game(seed, players, tokens, variant)`` then ``play(state, move)``.

Everything — who deals, who holds which card, the tokens, the eliminations, the
score — is derived by replaying the moves from the seed, as the contract fixes it
(coucou-record-format.md); nothing here does I/O, reads a clock or uses a global
random generator. States are immutable ``NamedTuple``s holding the hidden cards too:
only ``couyon.games.coucou.view.view`` shows a state to a player.

A seat is an ``int`` from 1 to N. Seat numbers increase to the right (ruling 3): the
right-hand neighbour of seat s is s + 1, of seat N seat 1, skipping eliminated seats.

One fold plays both variants (``Variant``): coucou, and Méry's "as qui court" (rulings 20–24,
coucou-record-format.md's last section), which differs only in the deal (the dealer takes one
card), in who the dealer's left neighbour changes with (the dealer, not the stock), in the
dealer's one move after he has just received an ace, and in a king being shown rather than
announced. Everything else — the circle, the showdown, tokens, places, scores — is shared.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import NamedTuple

from couyon.common.errors import (
    CouyonError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    OutOfTurnError,
    ReplayError,
)
from couyon.common.stream import Stream
from couyon.games.coucou.cards import ACE, KING, MAX_PLAYERS, MIN_PLAYERS, Card, deck_of, deck_size

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "OutOfTurnError",
    "ReplayError",
]

Seat = int
"""A seat number, 1 … N (seat 1 is the human)."""

MIN_TOKENS = 1
MAX_TOKENS = 10
DEFAULT_PLAYERS = 8
DEFAULT_TOKENS = 3
"""Ruling 1: the default table and the daily challenge are 8 players with 3 tokens each."""


class Variant(enum.StrEnum):
    """Which table: coucou itself, or as qui court (rulings 20–24); records ``coucou-record/2`` name it."""

    COUCOU = "coucou"
    AS_QUI_COURT = "as-qui-court"


COUCOU = Variant.COUCOU
AS_QUI_COURT = Variant.AS_QUI_COURT


class Action(enum.StrEnum):
    """What a speaking player says: "Je garde" or "Je change"."""

    KEEP = "keep"
    CHANGE = "change"


KEEP = Action.KEEP
CHANGE = Action.CHANGE


class Outcome(enum.StrEnum):
    """What a move did, as the contract's ``actions`` log spells it."""

    KEEP = "keep"
    EXCHANGE = "exchange"
    """Changed with the right-hand neighbour: the two cards swapped, face down."""
    COUCOU = "coucou"
    """Asked a neighbour who holds a king: refused, nothing moved (ruling 8)."""
    STOCK = "stock"
    """The dealer's left neighbour (as qui court: the dealer) took the stock's top card; his own left play."""
    STOCK_KING = "stock-king"
    """The stock's top card was a king: it stays, he keeps his card (ruling 9, ruling 22)."""
    KING_SHOWN = "king-shown"
    """As qui court: asked a neighbour who holds a king, who lays it face up; nothing moved (ruling 23)."""


_SEAT_NUMERAL = re.compile(r"[1-9][0-9]{0,3}")
"""A seat as records write it: decimal, no sign, no leading zero, ASCII digits (``7``, not ``07``)."""


class Move(NamedTuple):
    """One seat's move: ``keep`` or ``change``, written ``"7:change"``."""

    seat: Seat
    action: Action

    def __str__(self) -> str:
        return f"{self.seat}:{self.action}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``SEAT:ACTION`` as a record writes it; ``InvalidMoveError`` says why a text is not a move."""
        if not isinstance(text, str):
            raise InvalidMoveError(f'a move must be a string like "3:keep", not {_shortened(repr(text))}')
        if text.count(":") != 1:
            raise InvalidMoveError(f'{_shortened(repr(text))} is not a move: write SEAT:ACTION, like "3:keep"')
        seat, _, action = text.partition(":")
        if not _SEAT_NUMERAL.fullmatch(seat):
            raise InvalidMoveError(
                f"{_shortened(repr(text))} names no seat: a seat is written as its number 1 … 20, "
                'without a leading zero ("7", not "07")'
            )
        try:
            return Move(int(seat), Action(action))
        except ValueError:
            raise InvalidMoveError(
                f"{_shortened(repr(text))} has an unknown action {_shortened(repr(action))}: use keep or change"
            ) from None


def _shortened(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters, so that one huge move cannot flood an error sentence."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Coup(NamedTuple):
    """One coup (a deal and its round of speaking), with its hidden cards; cards are by position in ``order``."""

    number: int
    dealer: Seat
    order: tuple[Seat, ...]
    """The circle ``c0 … c(m-1)``: from the dealer's right-hand neighbour round to the dealer, last."""
    before: tuple[Card, ...]
    """The cards after the deal, the dealer's being the highest of his three (as qui court: his one card)."""
    discards: tuple[Card, ...]
    """The dealer's two other cards, out of play, never shown at the table (ruling 6); none at as qui court."""
    stock: Card
    """The stock's top card, face down until the dealer's left neighbour (as qui court: the dealer) changes."""
    cards: tuple[Card, ...]
    """The cards now (at the showdown once the coup is over)."""
    actions: tuple[Outcome, ...]
    """The outcome of each move so far: ``actions[p]`` is ``order[p]``'s."""
    turned: Card | None
    """The stock card once turned up, else None."""
    losers: tuple[Seat, ...] | None
    """Seats that lost a token at the showdown, increasing; None until the coup is over."""
    tokens: tuple[int, ...] | None
    """Every seat's tokens after the coup (by seat − 1); None until the coup is over."""
    eliminated: tuple[Seat, ...] | None
    """Seats left with no token by this coup, increasing; None until the coup is over."""
    variant: Variant = COUCOU
    kings_shown: tuple[Seat, ...] = ()
    """As qui court: the seats that have laid a king face up in this coup, in order (ruling 23); always () at coucou."""

    @property
    def is_over(self) -> bool:
        return self.losers is not None

    @property
    def dealer_has_move(self) -> bool:
        """As qui court: the dealer's left neighbour's exchange has just handed the dealer an ace (ruling 22)."""
        last = len(self.order) - 2
        return (
            self.variant is AS_QUI_COURT
            and self.losers is None
            and len(self.actions) == last + 1
            and self.actions[last] is Outcome.EXCHANGE
            and self.cards[last + 1].rank == ACE
        )

    @property
    def speaker(self) -> Seat | None:
        """The seat to speak now, None once every player but the dealer has spoken (and the dealer, if he may)."""
        spoken = len(self.actions)
        if spoken < len(self.order) - 1:
            return self.order[spoken]
        return self.dealer if self.dealer_has_move else None

    def position_of(self, seat: Seat) -> int | None:
        """``seat``'s place in ``order`` (0 speaks first, m − 1 is the dealer), None if it is out."""
        try:
            return self.order.index(seat)
        except ValueError:
            return None

    def card_of(self, seat: Seat) -> Card | None:
        """The card ``seat`` holds now, None if it is out of the game."""
        position = self.position_of(seat)
        return None if position is None else self.cards[position]


class Elimination(NamedTuple):
    """A seat that lost its last token: in which coup, and the place it shares."""

    seat: Seat
    coup: int
    place: int


class GameState(NamedTuple):
    """A whole game at one moment; derived from the seed and the moves, never stored."""

    seed: str
    players: int
    starting_tokens: int
    tokens: tuple[int, ...]
    """Every seat's tokens after the last finished coup, by seat − 1 (0: eliminated)."""
    finished: tuple[Coup, ...]
    """Every finished coup."""
    coup: Coup
    """The coup in play, or the final one (also ``finished[-1]``) once the game is over."""
    eliminations: tuple[Elimination, ...]
    """Every elimination so far, by coup then by seat."""
    winner: Seat | None
    move_count: int
    variant: Variant = COUCOU

    @property
    def coups(self) -> tuple[Coup, ...]:
        """Every coup dealt, the one in play last."""
        return self.finished if self.winner is not None else (*self.finished, self.coup)

    @property
    def deck_size(self) -> int:
        return deck_size(self.players)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> Seat | None:
        """The seat to speak, None once the game is over."""
        return None if self.winner is not None else self.coup.speaker

    @property
    def seats_in(self) -> tuple[Seat, ...]:
        """The seats still in the game, increasing."""
        return tuple(seat for seat in range(1, self.players + 1) if self.tokens[seat - 1] > 0)

    def tokens_of(self, seat: Seat) -> int:
        """``seat``'s tokens after the last finished coup."""
        return self.tokens[seat - 1]

    def place_of(self, seat: Seat) -> int | None:
        """``seat``'s final place: 1 for the winner, shared by the seats out in the same coup; None while it plays."""
        if seat == self.winner:
            return 1
        for elimination in self.eliminations:
            if elimination.seat == seat:
                return elimination.place
        return None

    def score_of(self, seat: Seat) -> int | None:
        """Ruling 16's score of ``seat`` once the game is over, else None."""
        if self.winner is None:
            return None
        if seat == self.winner:
            return 1000 + 10 * self.tokens[seat - 1]
        players = self.players
        for elimination in self.eliminations:
            if elimination.seat == seat:
                return 1000 * (players - elimination.place) // (players - 1) + min(elimination.coup, 50)
        raise AssertionError(f"seat {seat} neither won nor was eliminated in a finished game")

    @property
    def score(self) -> int | None:
        """Seat 1's score (the leaderboard's), None until the game is over."""
        return self.score_of(1)


def first_dealer(seed: str, players: int) -> Seat:
    """The first dealer: seat ``1 + uniform(N)`` on ``stream(seed, "dealer")`` (ruling 4)."""
    return 1 + Stream(seed, "dealer").uniform(players)


def shuffled_deck(seed: str, number: int, size: int) -> tuple[Card, ...]:
    """Coup ``number``'s deck: the canonical deck of ``size`` cards, Fisher–Yates on ``stream(seed, "coup:<number>")``."""
    deck = list(deck_of(size))
    Stream(seed, f"coup:{number}").shuffle(deck)
    return tuple(deck)


def circle(dealer: Seat, tokens: tuple[int, ...]) -> tuple[Seat, ...]:
    """The seats still in, in playing order from the dealer's right-hand neighbour, the dealer last."""
    players = len(tokens)
    return tuple(
        seat for seat in (((dealer + step - 1) % players) + 1 for step in range(1, players + 1)) if tokens[seat - 1] > 0
    )


def next_seat_right(seat: Seat, tokens: tuple[int, ...]) -> Seat:
    """The first seat still in after ``seat`` in the order seat + 1, seat + 2, …, N, 1, 2, …"""
    players = len(tokens)
    for step in range(1, players + 1):
        candidate = ((seat + step - 1) % players) + 1
        if tokens[candidate - 1] > 0:
            return candidate
    raise ValueError("no seat is still in the game")


def deal(seed: str, number: int, dealer: Seat, tokens: tuple[int, ...], size: int, variant: Variant = COUCOU) -> Coup:
    """Coup ``number`` dealt by ``dealer`` to the seats with tokens left (the contract's "The deal").

    Shuffled positions 0 … m − 2 go to ``c0 … c(m-2)``; m − 1, m and m + 1 to the dealer,
    who keeps the highest (by rank, then suit C < D < H < S); m + 2 is the stock's top card.
    As qui court (ruling 20): position m − 1 is the dealer's one card, m the stock's top card.
    """
    order = circle(dealer, tokens)
    players_in = len(order)
    deck = shuffled_deck(seed, number, size)
    if variant is AS_QUI_COURT:
        dealt = deck[:players_in]
        return Coup(number, dealer, order, dealt, (), deck[players_in], dealt, (), None, None, None, None, variant)
    dealers_three = deck[players_in - 1 : players_in + 2]
    kept = max(dealers_three)  # tuples compare by rank, then suit: the contract's choice
    discards = tuple(card for card in dealers_three if card != kept)
    before = (*deck[: players_in - 1], kept)
    return Coup(
        number,
        dealer,
        order,
        before,
        (discards[0], discards[1]),
        deck[players_in + 2],
        before,
        (),
        None,
        None,
        None,
        None,
    )


def new_game(
    seed: str, players: int = DEFAULT_PLAYERS, tokens: int = DEFAULT_TOKENS, variant: Variant = COUCOU
) -> GameState:
    """The game before its first move: the first dealer drawn and coup 1 dealt, ``c0`` to speak."""
    if variant not in (COUCOU, AS_QUI_COURT):
        raise ValueError(f"coucou's variants are coucou and as-qui-court, not {variant!r}")
    variant = Variant(variant)
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"coucou is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    if type(tokens) is not int or not MIN_TOKENS <= tokens <= MAX_TOKENS:
        raise ValueError(f"each player starts with {MIN_TOKENS} to {MAX_TOKENS} tokens, not {tokens!r}")
    if not isinstance(seed, str):
        raise ValueError(f"the seed must be a string, not {type(seed).__name__}")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the seed is not valid Unicode text (it holds a lone surrogate)") from None
    starting = (tokens,) * players
    coup = deal(seed, 1, first_dealer(seed, players), starting, deck_size(players), variant)
    return GameState(seed, players, tokens, starting, (), coup, (), None, 0, variant)


def to_move(state: GameState) -> Seat | None:
    """The seat to speak, None once the game is over."""
    return state.to_move


def is_over(state: GameState) -> bool:
    """Whether one seat is left (ruling 14)."""
    return state.winner is not None


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every move the rules allow now: keep and change for the seat to speak (both always legal); none once over.

    As qui court, the dealer is to speak (and so has these two moves) only when he has just received an ace."""
    seat = state.to_move
    if seat is None:
        return ()
    return (Move(seat, KEEP), Move(seat, CHANGE))


def play(state: GameState, move: Move) -> GameState:
    """The state after ``move``; raises ``GameOverError``, ``InvalidMoveError`` or ``OutOfTurnError`` saying why not."""
    if state.winner is not None:
        raise GameOverError(f"the game is over (seat {state.winner} won): no move can follow")
    seat, action = move
    players = state.players
    if type(seat) is not int or not 1 <= seat <= players:
        raise InvalidMoveError(f"there is no seat {seat!r} at this table: the seats are 1 to {players}")
    if action not in (KEEP, CHANGE):
        raise InvalidMoveError(f"{action!r} is not an action: use keep or change")
    coup = state.coup
    if seat != coup.speaker:
        raise OutOfTurnError(_why_not_your_turn(state, seat))
    speaker = len(coup.actions)
    order = coup.order
    cards = coup.cards
    last = len(order) - 2
    as_qui_court = coup.variant is AS_QUI_COURT
    turned = None
    kings_shown = coup.kings_shown
    if action == KEEP:
        outcome = Outcome.KEEP
    elif speaker < last or (as_qui_court and speaker == last):
        # Ruling 8: a neighbour holding a king always says "Coucou !"; the asker keeps his card.
        # Rulings 21 and 23: as qui court, the dealer's left neighbour changes with the dealer too, and a king
        # is laid face up instead of announced.
        if cards[speaker + 1].rank == KING:
            if as_qui_court:
                outcome = Outcome.KING_SHOWN
                kings_shown = (*kings_shown, order[speaker + 1])
            else:
                outcome = Outcome.COUCOU
        else:
            outcome = Outcome.EXCHANGE
            swapped = list(cards)
            swapped[speaker], swapped[speaker + 1] = cards[speaker + 1], cards[speaker]
            cards = tuple(swapped)
    else:
        # Ruling 9: the dealer's left neighbour changes with the stock's top card, turned up for all.
        # Ruling 22: as qui court, it is the dealer who does, with the ace he has just received.
        turned = coup.stock
        if turned.rank == KING:
            outcome = Outcome.STOCK_KING
        else:
            outcome = Outcome.STOCK
            cards = (*cards[:speaker], turned, *cards[speaker + 1 :])
    actions = (*coup.actions, outcome)
    coup = Coup(*coup[:6], cards, actions, turned, None, None, None, coup.variant, kings_shown)
    if coup.speaker is not None:
        return GameState(
            state.seed,
            players,
            state.starting_tokens,
            state.tokens,
            state.finished,
            coup,
            state.eliminations,
            None,
            state.move_count + 1,
            state.variant,
        )
    return _showdown(state, coup)


def _why_not_your_turn(state: GameState, seat: Seat) -> str:
    coup = state.coup
    speaker = coup.order[len(coup.actions)]
    turn = f"it is seat {speaker}'s turn to speak, not seat {seat}'s"
    if state.tokens[seat - 1] == 0:
        return f"{turn}: seat {seat} is out of the game"
    if seat == coup.dealer:
        if coup.variant is AS_QUI_COURT:
            return f"{turn}: the dealer speaks last, and only if his left neighbour has just handed him an ace"
        return f"{turn}: the dealer has no move"
    if seat in coup.order[: len(coup.actions)]:
        return f"{turn}: seat {seat} has already spoken in this coup"
    if coup.variant is AS_QUI_COURT and not coup.actions and state.finished and state.finished[-1].dealer == seat:
        return f"{turn}: seat {seat}, the last coup's dealer, had no move (he had not just received an ace)"
    return turn


def _showdown(state: GameState, coup: Coup) -> GameState:
    """Rules 11–14: the lowest rank loses a token unless all ranks are equal; out at zero; the deal passes."""
    ranks = [card.rank for card in coup.cards]
    lowest = min(ranks)
    losers: tuple[Seat, ...] = ()
    if lowest != max(ranks):
        losers = tuple(sorted(seat for seat, rank in zip(coup.order, ranks, strict=True) if rank == lowest))
    tokens = list(state.tokens)
    for seat in losers:
        tokens[seat - 1] -= 1
    after = tuple(tokens)
    eliminated = tuple(seat for seat in losers if after[seat - 1] == 0)
    still_in = [seat for seat in coup.order if after[seat - 1] > 0]
    place = 1 + len(still_in)
    eliminations = (*state.eliminations, *(Elimination(seat, coup.number, place) for seat in eliminated))
    coup = coup._replace(losers=losers, tokens=after, eliminated=eliminated)
    move_count = state.move_count + 1
    finished = (*state.finished, coup)
    seed, players, starting = state.seed, state.players, state.starting_tokens
    if len(still_in) == 1:
        return GameState(
            seed, players, starting, after, finished, coup, eliminations, still_in[0], move_count, state.variant
        )
    # Ruling 13: the deal passes to the next seat still in at the dealer's right (also if he just went out).
    dealer = next_seat_right(coup.dealer, after)
    following = deal(seed, coup.number + 1, dealer, after, deck_size(players), state.variant)
    return GameState(seed, players, starting, after, finished, following, eliminations, None, move_count, state.variant)


def replay(seed: str, players: int, tokens: int, moves: Iterable[Move | str], variant: Variant = COUCOU) -> GameState:
    """Fold ``moves`` over a new game; an error names the rule and, via ``ReplayError``, the 0-based move index."""
    state = new_game(seed, players, tokens, variant)
    for index, move in enumerate(moves):
        try:
            if state.winner is not None:
                raise GameOverError(f"the game is over (seat {state.winner} won): no move can follow")
            state = play(state, move if isinstance(move, Move) else Move.parse(move))
        except CouyonError as error:
            raise ReplayError(str(error), index) from error
    return state
