"""What a seat sees of a tarot game (ruling 19): its hand and the public facts, nothing else."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from tests.games.tarot.helpers import cards, moves, random_move, table

from couyon.common.stream import Stream
from couyon.games.tarot.cards import SEATS_OF, TRUMP_MASK, Card, Seat, cards_of, mask_of
from couyon.games.tarot.game import GameState, Phase, is_over, new_game, play, to_move
from couyon.games.tarot.view import TarotView, view


def cards_in(value: Any) -> Iterator[Card]:
    """Every card anywhere in a view (fields, tuples, summaries), however deep."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from cards_in(getattr(value, item.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)


def public_cards(state: GameState, seen: TarotView) -> set[Card]:
    """What anyone may know of the current deal, plus this seat's own écart."""
    deal = state.deal
    public = {card for _, cards_played, _ in deal.tricks for card in cards_played} | set(deal.trick)
    public |= {card for _, shown, _ in deal.poignees for card in cards_of(shown)}
    public |= set(cards_of((deal.ecart or 0) & TRUMP_MASK))
    if deal.called is not None:
        public.add(deal.called)
    if seen.chien is not None:
        public |= set(seen.chien)
    if deal.ecart is not None and SEATS_OF[state.players].index(seen.seat) == deal.taker:
        public |= set(cards_of(deal.ecart))
    # The cards a taker may call are options, not knowledge.
    public |= {card for move in seen.legal_moves if move.action == "call" for card in move.cards}
    return public


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_view_holds_no_card_a_seat_may_not_know(players: int) -> None:
    """Ruling 19: a view's cards are the seat's hand and public cards, at every move of random games."""
    for number in range(2):
        seed = f"view-{players}-{number}"
        chooser = Stream(seed, "random-play")
        state = new_game(seed, players)
        while not is_over(state):
            for seat in SEATS_OF[players]:
                seen = view(state, seat)
                # Finished deals are public (ruling 19: chien and écart once the deal ends).
                assert seen.deal_log is state.finished_deals
                shown = set(cards_in(dataclasses.replace(seen, deal_log=())))
                assert shown <= set(seen.hand) | public_cards(state, seen)
                assert all(move.seat == seat for move in seen.legal_moves)
                assert seen.to_move == to_move(state)
            state = play(state, random_move(state, chooser))
        final = view(state, Seat.S)
        assert final.score == state.totals[0] and final.phase is Phase.OVER


def bid_garde(players: int = 4, given: dict[str, str] | None = None, chien: str = "") -> GameState:
    names = [str(seat) for seat in SEATS_OF[players]]
    state = table(players, names[-1], given or {}, chien)
    return moves(state, "S:garde", *(f"{seat}:pass" for seat in names[1:]))


def test_the_chien_is_shown_on_petite_and_garde_but_not_before() -> None:
    """Ruling 8: the chien is turned face up for all on petite or garde; not during the bidding."""
    state = table(4, "E", {}, chien="KC 1T 5D 6D 7D 8D")
    assert all(view(state, seat).chien is None for seat in SEATS_OF[4])
    state = moves(state, "S:garde", "W:pass", "N:pass", "E:pass")
    assert all(view(state, seat).chien == cards("KC 5D 6D 7D 8D 1T") for seat in SEATS_OF[4])
    assert len(view(state, Seat.S).hand) == 24 and view(state, Seat.W).hand_sizes == (24, 18, 18, 18)


@pytest.mark.parametrize("contract", ["garde-sans", "garde-contre"])
def test_the_chien_stays_hidden_on_garde_sans_and_contre_until_the_deal_ends(contract: str) -> None:
    """Ruling 8: unseen on garde sans and garde contre; shown to all when the deal ends."""
    state = moves(table(4, "E", {}), f"S:{contract}", "W:pass", "N:pass", "E:pass")
    assert all(view(state, seat).chien is None for seat in SEATS_OF[4])
    while state.deal.number == 1:
        state = play(state, random_move(state, Stream("chien", "shown")))
    assert view(state, Seat.W).deal_log[0].chien == cards_of(table(4, "E", {}).deal.chien)


def test_the_ecart_is_the_takers_with_its_trumps_shown_to_all() -> None:
    """Ruling 8: the écart face down; trumps put in it shown to all; the taker knows his own."""
    trumps = " ".join(f"{n}T" for n in range(1, 17))
    state = bid_garde(given={"S": f"{trumps} KC KD"}, chien="17T 18T 19T 20T 2C 3C")
    state = moves(state, "S:ecart:2T,3T,4T,5T,2C,3C")
    assert view(state, Seat.S).ecart == cards("2C 3C 2T 3T 4T 5T")
    for seat in (Seat.W, Seat.N, Seat.E):
        assert view(state, seat).ecart is None and view(state, seat).ecart_trumps == cards("2T 3T 4T 5T")


def test_the_partner_is_known_when_the_called_card_falls() -> None:
    """Ruling 19: at five, the partner when the called card falls; the holder knows it from his hand."""
    state = bid_garde(players=5, given={"NE": "KH 1H 2H", "S": "1T 2T 3T"})
    state = moves(state, "S:call:KH", "S:ecart:1C,2C,3C")
    assert not view(state, Seat.W).partner_known and view(state, Seat.W).partner is None
    assert view(state, Seat.NE).partner_known and view(state, Seat.NE).partner == Seat.NE
    assert view(state, Seat.W).called == cards("KH")[0]
    # W leads a heart (not the called suit... W has none here): play until NE plays KH.
    chooser = Stream("partner", "known")
    while cards("KH")[0] not in {card for _, played, _ in state.deal.tricks for card in played} | set(state.deal.trick):
        if to_move(state) == Seat.NE and cards("KH")[0] in view(state, Seat.NE).legal_moves[-1].cards:
            state = moves(state, "NE:KH")
            break
        state = play(state, random_move(state, chooser))
    assert view(state, Seat.W).partner_known and view(state, Seat.W).partner == Seat.NE


def test_alone_with_the_called_card_in_the_chien_is_public_on_garde() -> None:
    """Ruling 7 and 8: the called card shown in the chien tells everyone the taker is alone."""
    state = bid_garde(players=5, chien="KS 1C 2C")
    state = moves(state, "S:call:KS")
    seen = view(state, Seat.E)
    assert seen.partner_known and seen.partner is None and seen.chien == cards("1C 2C KS")


def test_poignees_and_miseres_are_public() -> None:
    """Ruling 19: announcements with the poignée's cards."""
    state = moves(table(4, "E", {"W": "2T 3T 4T 5T 6T 7T 8T 9T 10T 11T"}), "S:garde-sans", "W:pass", "N:pass", "E:pass")
    state = moves(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,11T")
    shown = view(state, Seat.E).poignees
    assert len(shown) == 1 and shown[0].seat == Seat.W and shown[0].prime == 20
    assert mask_of(shown[0].cards) == mask_of(cards("2T 3T 4T 5T 6T 7T 8T 9T 10T 11T"))
