"""Per-seat views (view.py): a seat sees its own hand and the public cards, nothing else (ruling 9)."""

from __future__ import annotations

import dataclasses

from couyon.games.couyon.cards import SEATS, Card, cards_of
from couyon.games.couyon.game import PASS, TAKE, Move, legal_moves, new_game, play
from couyon.games.couyon.view import view


def test_view_shows_own_hand_and_only_the_sizes_of_the_others() -> None:
    """Design: view(state, seat) holds exactly what that seat may know; other hands appear as counts only."""
    state = new_game("view")
    for seat in SEATS:
        seen = view(state, seat)
        assert seen.hand == cards_of(state.deal.hands[seat])
        assert seen.hand_sizes == (4, 4, 4, 4)
        other_cards = {str(card) for other in SEATS if other != seat for card in cards_of(state.deal.hands[other])}
        assert not other_cards & {str(card) for card in seen.hand}


def test_view_never_holds_another_hand_the_talon_or_the_seed() -> None:
    """Ruling 9: turned cards are public; cards never turned and other hands stay hidden; the seed too."""
    state = new_game("secret seed")
    state = play(state, Move.parse(f"{state.to_move}:{PASS}"))
    seen = view(state, state.deal.dealer)
    text = repr(dataclasses.astuple(seen))
    assert "secret seed" not in text
    hidden = set(state.deal.deck[17:]) | {
        card for other in SEATS if other != seen.seat for card in cards_of(state.deal.hands[other])
    }
    public = set(seen.hand) | set(seen.proposals)
    visible = _cards_in(dataclasses.astuple(seen))
    assert visible <= public
    assert not hidden & visible


def _cards_in(value: object) -> set[Card]:
    """Every card anywhere inside a nest of tuples."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return {card for item in value for card in _cards_in(item)}
    return set()


def test_turned_proposals_are_public() -> None:
    """Ruling 9: every card turned during bidding is shown to every seat."""
    state = new_game("public")
    for _ in range(4):
        assert state.to_move is not None
        state = play(state, Move.parse(f"{state.to_move}:{PASS}"))
    for seat in SEATS:
        assert view(state, seat).proposals == state.deal.deck[16:18]
        assert view(state, seat).current_proposal == state.deal.deck[17]


def test_legal_moves_only_for_the_seat_to_move() -> None:
    """The seat to move sees its legal moves; every other seat sees none."""
    state = new_game("moves")
    state = play(state, Move.parse(f"{state.to_move}:{TAKE}"))
    for seat in SEATS:
        expected = legal_moves(state) if seat == state.to_move else ()
        assert view(state, seat).legal_moves == expected


def test_played_cards_are_public_and_leave_the_hand() -> None:
    """Rule book: cards played to a trick are seen by everyone and leave the player's hand."""
    state = new_game("played")
    state = play(state, Move.parse(f"{state.to_move}:{TAKE}"))
    leader = state.to_move
    assert leader is not None
    card = legal_moves(state)[0]
    state = play(state, card)
    assert card.card is not None
    for seat in SEATS:
        seen = view(state, seat)
        assert seen.trick.cards == (card.card,) and seen.trick.leader == leader
    assert card.card not in view(state, leader).hand and view(state, leader).hand_sizes[leader] == 3
