"""Tarot test helpers: hand-built tables, moves from strings, and random play driven by the contract's stream."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from couyon.common.stream import Stream
from couyon.games.tarot.cards import CARD_BY_CODE, CARDS, CHIEN_SIZES, HAND_SIZES, SEATS_OF, Card, Seat, cards_of
from couyon.games.tarot.game import (
    CARD,
    ECART,
    POIGNEE,
    GameState,
    Move,
    Phase,
    ecart_rule,
    game_from_hands,
    is_over,
    legal_moves,
    new_game,
    play,
    poignee_sizes,
)


def cards(text: str) -> tuple[Card, ...]:
    """``"KS 1T EX"`` as cards."""
    return tuple(CARD_BY_CODE[code] for code in text.split())


def table(players: int, dealer: str, given: Mapping[str, str], chien: str = "", seed: str = "table") -> GameState:
    """A deal whose seats hold ``given`` cards (and the chien ``chien``), the other cards shared out in deck order.

    Unnamed cards go, in canonical order, first to the chien up to its size, then to the seats
    in turn order as far as each has room: tests name the cards that matter and nothing else.
    """
    seats = SEATS_OF[players]
    hands: dict[Seat, list[Card]] = {seat: list(cards(given.get(seat, ""))) for seat in seats}
    pile = list(cards(chien))
    used = {card for hand in hands.values() for card in hand} | set(pile)
    assert len(used) == sum(len(hand) for hand in hands.values()) + len(pile), "a card is given twice"
    rest = [card for card in CARDS if card not in used]
    for card in rest:
        if len(pile) < CHIEN_SIZES[players] and not chien:
            pile.append(card)
            continue
        seat = next(seat for seat in seats if len(hands[seat]) < HAND_SIZES[players])
        hands[seat].append(card)
    return game_from_hands(seed, players, Seat(dealer), [hands[seat] for seat in seats], pile)


def moves(state: GameState, *texts: str) -> GameState:
    """``state`` after the moves written as in a record."""
    for text in texts:
        state = play(state, Move.parse(text, state.players))
    return state


def held(state: GameState, seat: str) -> tuple[Card, ...]:
    return cards_of(state.deal.hands[SEATS_OF[state.players].index(Seat(seat))])


def random_move(state: GameState, chooser: Stream, take_one_in: int = 3) -> Move:
    """A random legal move; écarts and poignées drawn among every valid choice, not only the listed one."""
    options = legal_moves(state)
    deal = state.deal
    if deal.phase is Phase.BIDDING:
        # Bid with care, so that a good share of deals is played and some are passed out.
        if chooser.uniform(take_one_in) != 0 or len(options) == 1:
            return options[0]
        return options[1 + chooser.uniform(len(options) - 1)]
    if deal.phase is Phase.ECART:
        rule = ecart_rule(state)
        assert rule is not None
        while True:
            pool = list(rule.cards)
            chooser.shuffle(pool)
            chosen = pool[: rule.size]
            if sum(card.is_trump for card in chosen) <= rule.max_trumps:
                return Move(options[0].seat, ECART, tuple(chosen))
    move = options[chooser.uniform(len(options))]
    if move.action == POIGNEE:
        size = chooser.choice(poignee_sizes(state))
        hand = cards_of(deal.hands[deal.to_move or 0])
        trumps = [card for card in hand if card.is_trump]
        chooser.shuffle(trumps)
        shown = tuple(trumps[:size]) if len(trumps) >= size else (*trumps, CARDS[-1])
        return Move(move.seat, POIGNEE, shown)
    # Announcements are rare at a real table: play a card most of the time.
    if deal.phase is Phase.PLAYING and move.action != CARD and chooser.uniform(3) != 0:
        card_moves = [option for option in options if option.action == CARD]
        return card_moves[chooser.uniform(len(card_moves))]
    return move


def random_game(seed: str, players: int, label: str = "random-play") -> tuple[GameState, list[Move]]:
    """A whole game of random legal moves from ``seed``; the final state and the moves."""
    chooser = Stream(seed, label)
    state = new_game(seed, players)
    played: list[Move] = []
    while not is_over(state):
        move = random_move(state, chooser)
        played.append(move)
        state = play(state, move)
    return state, played


def move_texts(moves: Iterable[Move]) -> list[str]:
    return [str(move) for move in moves]
