"""What one seat may know of a coucou game (ruling 10): the only shape in which a game leaves the engine.

Public: every announcement and its outcome (``keep``, ``exchange``, ``coucou``,
``stock``, ``stock-king``), the stock card once turned, the tokens, and every card
at each showdown. Private: the seat's own card; an exchange is face down, so only
its two players learn something (each now knows the card the other holds); the
dealer saw his two discards. Never another seat's card before the showdown, never
the stock's face-down card, never the seed (the daily challenge's seed would
reveal every deal).

``known`` follows what the seat was told through the public outcomes: a card the
seat knows moves with every exchange it is in, and the stock card a player took is
public. A "Coucou !" shows that the refuser holds a king (its rank, not its suit):
that fact is in ``actions``, not in ``known``.

As qui court (rulings 20–24): a king is laid face up instead of announced, so every seat
sees it from then on (``kings_shown``, and in ``known`` while it stays in that hand or
moves where all can follow it); the dealer speaks only if his left neighbour's exchange
has just handed him an ace, which ``dealer_has_move`` says; he has no discards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from couyon.games.coucou.cards import Card
from couyon.games.coucou.game import COUCOU, Coup, Elimination, GameState, Move, Outcome, Seat, Variant, legal_moves


class Swap(NamedTuple):
    """An exchange this seat took part in this coup: it handed ``gave`` to ``partner`` and received ``got``."""

    partner: Seat
    gave: Card
    got: Card


@dataclass(frozen=True, slots=True)
class PublicCoup:
    """A finished coup as the whole table saw it at the showdown (cards by position in ``order``)."""

    number: int
    dealer: Seat
    order: tuple[Seat, ...]
    actions: tuple[Outcome, ...]
    stock: Card | None
    after: tuple[Card, ...]
    losers: tuple[Seat, ...]
    tokens: tuple[int, ...]
    """Every seat's tokens after the coup, by seat − 1."""
    eliminated: tuple[Seat, ...]
    kings_shown: tuple[Seat, ...] = ()
    """As qui court: the seats that laid a king face up in this coup, in order; () at coucou."""


@dataclass(frozen=True, slots=True)
class CoupView:
    """The coup in play as one seat sees it."""

    number: int
    dealer: Seat
    order: tuple[Seat, ...]
    """``c0 … c(m-1)``: who speaks in turn, the dealer last."""
    actions: tuple[Outcome, ...]
    """The outcome of each move so far: ``actions[p]`` is ``order[p]``'s."""
    card: Card | None
    """The seat's own card; None if it is out of the game."""
    swaps: tuple[Swap, ...]
    """The exchanges this seat took part in: handed a card by its left neighbour, then (its own move) with its right."""
    known: tuple[tuple[Seat, Card], ...]
    """Other seats' cards this seat knows now, by increasing seat."""
    discards: tuple[Card, ...]
    """The dealer's two cards out of play, for the dealer only (he saw them); empty for everyone else."""
    position: int | None
    """Where the seat sits in ``order``: 0 speaks first, m − 2 is the dealer's left neighbour, m − 1 the dealer;
    None if it is out."""
    variant: Variant = COUCOU
    kings_shown: tuple[tuple[Seat, Card], ...] = ()
    """As qui court: each king laid face up so far in this coup, with the seat that showed it, in order (public)."""
    dealer_has_move: bool | None = False
    """Whether the dealer has a move in this coup: always False at coucou; as qui court None until his left
    neighbour has spoken, then True when that exchange handed him an ace (he is then to speak)."""

    @property
    def players_in(self) -> int:
        """m, the players in this coup."""
        return len(self.order)


@dataclass(frozen=True, slots=True)
class CoucouView:
    """The game as ``seat`` sees it."""

    seat: Seat
    players: int
    deck_size: int
    starting_tokens: int
    move_number: int
    to_move: Seat | None
    legal_moves: tuple[Move, ...]
    """The moves this seat may make now; empty when it is not its turn."""
    tokens: tuple[int, ...]
    """Every seat's tokens after the last finished coup, by seat − 1 (0: out)."""
    eliminations: tuple[Elimination, ...]
    winner: Seat | None
    place: int | None
    """This seat's final place once it is out or has won."""
    score: int | None
    """This seat's score (ruling 16) once the game is over."""
    coup: CoupView | None
    """The coup in play; None once the game is over."""
    history: tuple[PublicCoup, ...]
    """Every finished coup, as shown at its showdown."""

    def tokens_of(self, seat: Seat) -> int:
        return self.tokens[seat - 1]


def public_coup(coup: Coup) -> PublicCoup:
    """A finished coup without what stayed hidden (the deal, the discards, the stock's face-down card)."""
    if coup.losers is None or coup.tokens is None or coup.eliminated is None:
        raise ValueError(f"coup {coup.number} is not over: it has no public showdown yet")
    return PublicCoup(
        coup.number,
        coup.dealer,
        coup.order,
        coup.actions,
        coup.turned,
        coup.cards,
        coup.losers,
        coup.tokens,
        coup.eliminated,
        coup.kings_shown,
    )


def coup_view(coup: Coup, seat: Seat) -> CoupView:
    """What ``seat`` knows of ``coup`` now: its card, the exchanges it was in, and where the cards it knows went."""
    order = coup.order
    cards = list(coup.before)
    known: dict[Seat, Card] = {}
    swaps: list[Swap] = []
    shown: list[tuple[Seat, Card]] = []
    last = len(order) - 2
    stocked = last if coup.variant is COUCOU else last + 1
    for position, outcome in enumerate(coup.actions):
        speaker = order[position]
        if outcome is Outcome.EXCHANGE:
            partner = order[position + 1]
            given, received = cards[position], cards[position + 1]
            cards[position], cards[position + 1] = received, given
            if seat == speaker:
                swaps.append(Swap(partner, given, received))
                known[partner] = given
            elif seat == partner:
                swaps.append(Swap(speaker, received, given))
                known[speaker] = received
            else:
                # Face down for the others, but they saw the two cards change hands.
                left, right = known.pop(speaker, None), known.pop(partner, None)
                if left is not None:
                    known[partner] = left
                if right is not None:
                    known[speaker] = right
        elif outcome is Outcome.KING_SHOWN:
            # Ruling 23: laid face up for all; the asker keeps his card, the king stays where it is.
            holder = order[position + 1]
            shown.append((holder, cards[position + 1]))
            if seat != holder:
                known[holder] = cards[position + 1]
        elif outcome is Outcome.STOCK:
            assert position == stocked and coup.turned is not None
            cards[position] = coup.turned
            if seat != speaker:
                known[speaker] = coup.turned  # turned face up for all, then taken
    own = coup.position_of(seat)
    return CoupView(
        coup.number,
        coup.dealer,
        order,
        coup.actions,
        None if own is None else cards[own],
        tuple(swaps),
        tuple(sorted(known.items())),
        coup.discards if seat == coup.dealer else (),
        own,
        coup.variant,
        tuple(shown),
        _dealer_has_move(coup),
    )


def _dealer_has_move(coup: Coup) -> bool | None:
    """``CoupView.dealer_has_move``: public, since the whole table sees whether the dealer is to speak."""
    if coup.variant is COUCOU:
        return False
    if len(coup.actions) < len(coup.order) - 1:
        return None
    return coup.dealer_has_move or len(coup.actions) == len(coup.order)


def view(state: GameState, seat: Seat, history: tuple[PublicCoup, ...] | None = None) -> CoucouView:
    """Exactly what ``seat`` may know of ``state`` (ruling 10).

    ``history``: the public history of ``state.finished`` when the caller already holds it (it must equal
    ``tuple(public_coup(coup) for coup in state.finished)``, the same for every seat); made here otherwise.
    """
    if not 1 <= seat <= state.players:
        raise ValueError(f"there is no seat {seat} at this table: the seats are 1 to {state.players}")
    over = state.winner is not None
    to_move = state.to_move
    return CoucouView(
        seat=seat,
        players=state.players,
        deck_size=state.deck_size,
        starting_tokens=state.starting_tokens,
        move_number=state.move_count,
        to_move=to_move,
        legal_moves=legal_moves(state) if to_move == seat else (),
        tokens=state.tokens,
        eliminations=state.eliminations,
        winner=state.winner,
        place=state.place_of(seat),
        score=state.score_of(seat),
        coup=None if over else coup_view(state.coup, seat),
        history=tuple(public_coup(coup) for coup in state.finished) if history is None else history,
    )
