"""JSON shapes of a coucou game (docs/api.md, "Coucou"): seat 1's view, the events of a move, a board line.

Only ``CoucouView`` (``couyon.games.coucou.view``) and public facts of the fold become JSON, as
ruling 10 sets them: seat 1's own card, every announcement and its outcome, what an
exchange seat 1 was in told it, the stock card once turned, every card at a showdown.
Another seat's card is never written before its showdown unless seat 1 knows it; the
dealer's discards only when seat 1 dealt; the seed never. Seats are numbers (1 … N);
as in the record contract, objects keyed by seat use the seat as a decimal string.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from couyon.common.kind import Json
from couyon.games.coucou.cards import Card
from couyon.games.coucou.game import Coup, GameState, Move, Outcome, Variant
from couyon.games.coucou.view import CoupView, PublicCoup, coup_view, public_coup, view

COUCOU_HUMAN = 1
"""The human's seat at a coucou table (ruling 1)."""


def _by_seat(order: Sequence[int], cards: Sequence[Card]) -> dict[str, str]:
    """Cards keyed by seat (decimal strings), by increasing seat."""
    return {str(seat): str(card) for seat, card in sorted(zip(order, cards, strict=True))}


def _every_seat(tokens: Sequence[int]) -> dict[str, int]:
    return {str(seat): count for seat, count in enumerate(tokens, start=1)}


def _actions(order: Sequence[int], actions: Sequence[Outcome]) -> list[str]:
    """The record contract's spelling of the outcomes so far: ``"3:exchange"``."""
    return [f"{seat}:{outcome}" for seat, outcome in zip(order, actions, strict=False)]


def coups_played(state: GameState, seat: int) -> int:
    """The coups ``seat`` was dealt a card in: up to the one that eliminated it, or every coup dealt."""
    for elimination in state.eliminations:
        if elimination.seat == seat:
            return elimination.coup
    return state.coup.number


def _dealt(coup: CoupView) -> str | None:
    """The card the seat was dealt in this coup: what it handed in its first exchange, else what it holds."""
    if coup.card is None:
        return None
    return str(coup.swaps[0].gave if coup.swaps else coup.card)


def _coup_json(coup: CoupView) -> Json:
    return {
        "number": coup.number,
        "dealer": coup.dealer,
        "order": list(coup.order),
        "actions": _actions(coup.order, coup.actions),
        "position": coup.position,
        "card": None if coup.card is None else str(coup.card),
        "dealt": _dealt(coup),
        "swaps": [{"partner": swap.partner, "gave": str(swap.gave), "got": str(swap.got)} for swap in coup.swaps],
        "known": {str(seat): str(card) for seat, card in coup.known},
        "discards": [str(card) for card in coup.discards],
    } | _as_qui_court_json(coup)


def _as_qui_court_json(coup: CoupView) -> Json:
    """As qui court only (coucou's view is unchanged): the kings laid face up, and whether the dealer has a move."""
    if coup.variant is Variant.COUCOU:
        return {}
    return {
        "kings_shown": [{"seat": seat, "card": str(card)} for seat, card in coup.kings_shown],
        "dealer_has_move": coup.dealer_has_move,
    }


def _public_coup_json(coup: PublicCoup) -> Json:
    return {
        "number": coup.number,
        "dealer": coup.dealer,
        "order": list(coup.order),
        "actions": _actions(coup.order, coup.actions),
        "stock": None if coup.stock is None else str(coup.stock),
        "after": _by_seat(coup.order, coup.after),
        "losers": list(coup.losers),
        "tokens": _every_seat(coup.tokens),
        "eliminated": list(coup.eliminated),
    }


class _HistoryJson:
    """The JSON of finished coups, made once per coup: every answer of a game repeats its whole history.

    Keyed by the coup's ``id``; each entry keeps the coup itself, so that id cannot be reused while it lives.
    A finished coup is public and the same for every seat (``public_coup``). The least recently shown coups
    go first: the cache holds the games being played, and few objects, since every object it holds is one
    more that each full garbage collection of the server process walks through.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, tuple[Coup, Json]] = OrderedDict()

    def of(self, finished: tuple[Coup, ...]) -> list[Json]:
        shown: list[Json] = []
        with self._lock:
            for coup in finished:
                cached = self._entries.get(id(coup))
                if cached is None or cached[0] is not coup:
                    cached = (coup, _public_coup_json(public_coup(coup)))
                    self._entries[id(coup)] = cached
                    while len(self._entries) > self.capacity:
                        self._entries.popitem(last=False)
                else:
                    self._entries.move_to_end(id(coup))
                shown.append(cached[1])
        return shown


_HISTORY = _HistoryJson(2048)
"""About 45 whole 20-seat games: 2,048 coups, some 15,000 objects (a dict and its lists per coup)."""


def coucou_view_json(state: GameState, seat: int) -> Json:
    """The ``view`` object of a coucou game answer: exactly what ``seat`` may know (ruling 10).

    The history is the public showdowns of ``state.finished``, written from a cache; the rest of the view
    from ``view``, asked for no history.
    """
    seat_view = view(state, seat, history=())
    over = seat_view.winner is not None
    return {
        "game": "coucou",
        "seat": seat_view.seat,
        "players": seat_view.players,
        "deck": seat_view.deck_size,
        "starting_tokens": seat_view.starting_tokens,
        "move_number": seat_view.move_number,
        "phase": "over" if over else "playing",
        "to_move": seat_view.to_move,
        "legal": [str(move.action) for move in seat_view.legal_moves],
        "tokens": _every_seat(seat_view.tokens),
        "eliminations": [{"seat": out.seat, "coup": out.coup, "place": out.place} for out in seat_view.eliminations],
        "winner": seat_view.winner,
        "place": seat_view.place,
        "score": seat_view.score,
        "coup": None if seat_view.coup is None else _coup_json(seat_view.coup),
        "history": _HISTORY.of(state.finished),
    }


def _coup_after(before: GameState, after: GameState) -> Coup:
    """The coup ``before`` was playing, as it stands in ``after`` (finished if the move ended it)."""
    return after.finished[-1] if len(after.finished) > len(before.finished) else after.coup


def coucou_events_of(before: GameState, move: Move, after: GameState, seen_by: int = COUCOU_HUMAN) -> list[Json]:
    """What ``seen_by`` (seat 1 at the solo table) saw happen when ``move`` turned ``before`` into ``after``.

    One event for the move (``keep``, ``exchange``, ``coucou``, ``king-shown`` (with the ``king``), ``stock`` or
    ``stock-king``, with the ``seat`` that spoke); an exchange carries both cards only when ``seen_by`` was one of the two.
    When the move ends the coup: ``showdown``, then ``eliminated`` if anyone is out, then
    ``game_over`` or the next coup's ``coup_start``.
    """
    coup = _coup_after(before, after)
    position = len(before.coup.actions)
    seat = move.seat
    outcome = coup.actions[position]
    event: Json = {"type": str(outcome), "seat": seat}
    if outcome in (Outcome.EXCHANGE, Outcome.COUCOU, Outcome.KING_SHOWN):
        partner = coup.order[position + 1]
        event["with"] = partner
        if outcome is Outcome.KING_SHOWN:
            event["king"] = str(coup.cards[position + 1])  # laid face up for the whole table (ruling 23)
        if outcome is Outcome.EXCHANGE and seen_by in (seat, partner):
            # Face down for the table; the two players each learn the card the other now holds.
            event["cards"] = {str(seat): str(coup.cards[position]), str(partner): str(coup.cards[position + 1])}
    elif outcome in (Outcome.STOCK, Outcome.STOCK_KING):
        assert coup.turned is not None
        event["card"] = str(coup.turned)
    events = [event]
    if coup.losers is None:
        return events
    assert coup.tokens is not None and coup.eliminated is not None
    ranks = [card.rank for card in coup.cards]
    events.append(
        {
            "type": "showdown",
            "number": coup.number,
            "cards": _by_seat(coup.order, coup.cards),
            "lowest": None if not coup.losers else str(coup.cards[ranks.index(min(ranks))])[:-1],
            "losers": list(coup.losers),
            "tokens": _every_seat(coup.tokens),
        }
    )
    if coup.eliminated:
        place = next(out.place for out in after.eliminations if out.seat == coup.eliminated[0])
        events.append({"type": "eliminated", "seats": list(coup.eliminated), "place": place, "coup": coup.number})
    if after.winner is not None:
        events.append(
            {
                "type": "game_over",
                "winner": after.winner,
                "place": after.place_of(seen_by),
                "score": after.score_of(seen_by),
                "coups": after.coup.number,
                "survived": coups_played(after, seen_by),
                "places": {str(seat): after.place_of(seat) for seat in range(1, after.players + 1)},
            }
        )
    else:
        following = coup_view(after.coup, seen_by)
        events.append(
            {
                "type": "coup_start",
                "number": following.number,
                "dealer": following.dealer,
                "order": list(following.order),
                "card": None if following.card is None else str(following.card),
                "discards": [str(card) for card in following.discards],
            }
        )
    return events


def coucou_board_facts(score: int, coups: int, options: Mapping[str, int | str]) -> Json:
    """A coucou board line's place and table size, read back from ruling 16's score (``{}`` if it cannot be).

    The winner scores 1000 or more; anyone else ``floor(1000 × (N − place) / (N − 1)) + min(coups, 50)``,
    which is below 1000 and falls as the place grows, so the place is the one that gives the score.
    """
    players = options.get("players")
    if not isinstance(players, int) or players < 2:
        return {}
    if score >= 1000:
        return {"place": 1, "players": players}
    share = score - min(coups, 50)
    for place in range(2, players + 1):
        if 1000 * (players - place) // (players - 1) == share:
            return {"place": place, "players": players}
    return {}
