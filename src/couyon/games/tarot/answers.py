"""JSON shapes of a tarot game (docs/api.md, "French tarot"): South's view and the events between two views.

Only ``TarotView``s and public facts of the fold become JSON here: the bids, the call, the
chien once it is turned face up, the trumps put in the écart, the announcements, the cards
played, the trick winners and the score sheet of every finished deal (all of a deal is
public once it ends, ruling 19). Another seat's hand, an unseen chien, the partner at five
before the called card falls and the seed never do.

The view also says what South may send now: ``legal`` holds every move to send as it is
(bids, calls, ``chelem``, misères, cards, and one écart and one poignée of each size as the
engine lists them); ``ecart_rule`` and ``poignee_rule`` describe every other écart and
poignée South may choose. ``no-chelem`` is the pseudo-action by which a human taker lets his
chelem announcement go (``GameKind.waive_action``): it is never stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from couyon.common.kind import Json
from couyon.games.tarot.cards import EXCUSE_BIT, SEATS_OF, Card, Seat, cards_of, codes, mask_of
from couyon.games.tarot.game import (
    CHELEM,
    DealSummary,
    GameState,
    Move,
    Phase,
    Trick,
    ecart_rule,
    poignee_sizes,
)
from couyon.games.tarot.record import deal_report
from couyon.games.tarot.scoring import CONTRACTS, Contract, deal_scores, poignee_prime
from couyon.games.tarot.view import TarotView, view

HUMAN = Seat.S
NO_CHELEM = "no-chelem"
"""The human taker's answer to his chelem window: no announcement, the leader plays (never stored)."""


def _action(move: Move) -> str:
    """A move as the human sends it: its record spelling without ``SEAT:``."""
    return str(move).split(":", 1)[1]


def _trick_json(trick: Trick, seats: tuple[Seat, ...]) -> Json:
    return {
        "leader": str(trick.leader),
        "cards": [{"seat": str(seat), "card": str(card)} for seat, card in trick.played_by(seats)],
    }


def _bid_json(seat: Seat, bid: Contract | None) -> Json:
    return {"seat": str(seat), "bid": "pass" if bid is None else str(bid)}


def _per_seat(seats: Sequence[Seat], values: Sequence[int]) -> dict[str, int]:
    return {str(seat): value for seat, value in zip(seats, values, strict=True)}


def score_sheet(deal: DealSummary, players: int, totals: Sequence[int]) -> Json:
    """A finished deal with every step of its count (ruling 15) and each seat's running total after it.

    The keys of the record's ``deal_log`` entry, plus ``multiplier``, the marque's parts
    (``contract_points``, ``petit_au_bout_points``, ``poignee_points``, ``chelem_points``), the
    répartition before the misères (``shares``), what the misères moved (``misere_points``),
    ``totals``, and the hands shown for a petit sec (``petit_sec``).
    """
    seats = SEATS_OF[players]
    sheet = deal_report(deal, players)
    result = deal.result
    sheet["multiplier"] = None if deal.contract is None else deal.contract.multiplier
    sheet["petit_sec"] = [{"seat": str(seat), "cards": codes(cards)} for seat, cards in deal.petit_sec]
    for key in ("contract_points", "petit_au_bout_points", "poignee_points", "chelem_points", "shares"):
        sheet[key] = None
    sheet["misere_points"] = None
    if result is not None and deal.taker is not None:
        marque = result.marque
        sheet["contract_points"] = marque.contract_points
        sheet["petit_au_bout_points"] = marque.petit_au_bout_points
        sheet["poignee_points"] = marque.poignee_points
        sheet["chelem_points"] = marque.chelem_points
        partner = None if deal.partner is None else seats.index(deal.partner)
        shares = deal_scores(players, marque.marque, seats.index(deal.taker), partner)
        sheet["shares"] = _per_seat(seats, shares)
        sheet["misere_points"] = _per_seat(
            seats, [score - share for score, share in zip(result.scores, shares, strict=True)]
        )
    sheet["totals"] = _per_seat(seats, totals)
    return sheet


def score_sheets(deals: Sequence[DealSummary], players: int) -> list[Json]:
    """Every finished deal's score sheet, with the running totals after each."""
    totals = [0] * players
    sheets = []
    for deal in deals:
        if deal.result is not None:
            totals = [total + score for total, score in zip(totals, deal.result.scores, strict=True)]
        sheets.append(score_sheet(deal, players, totals))
    return sheets


def winner_of(state: GameState) -> Seat | None:
    """Once the game is over, the seat with the highest total (the first in turn order on a tie)."""
    if not state.over:
        return None
    best = max(state.totals)
    return state.seats[state.totals.index(best)]


def _poignee_rule(state: GameState, seat_view: TarotView) -> Json | None:
    """The poignées the view's seat may show now: the sizes (with their primes) and the cards a poignée may hold."""
    if seat_view.to_move != seat_view.seat:
        return None
    sizes = poignee_sizes(state)
    if not sizes:
        return None
    hand = mask_of(seat_view.hand)
    trumps = [card for card in seat_view.hand if card.is_trump]
    return {
        "sizes": [{"size": size, "prime": poignee_prime(state.players, size)} for size in sizes],
        "trumps": codes(trumps),
        # The Excuse may be shown only with every trump held (ruling 10).
        "excuse": bool(hand & EXCUSE_BIT),
    }


def _ecart_rule(state: GameState, seat_view: TarotView) -> Json | None:
    """The écart the view's seat must make now: how many cards, the cards that may go, at most how many trumps."""
    if seat_view.to_move != seat_view.seat:
        return None
    rule = ecart_rule(state)
    if rule is None:
        return None
    return {"size": rule.size, "cards": codes(rule.cards), "max_trumps": rule.max_trumps}


def tarot_view_json(state: GameState, seat: Seat) -> Json:
    """The ``view`` object of a tarot game answer: what ``seat`` (South) may know, and what it may send."""
    seat_view = view(state, seat)
    seats = seat_view.seats
    players = seat_view.players
    legal = [_action(move) for move in seat_view.legal_moves]
    if any(move.action == CHELEM for move in seat_view.legal_moves) and seat_view.to_move != seat:
        # The taker's chelem window: the game waits for the leader; the taker may announce or let it go.
        legal.append(NO_CHELEM)
    bidding = seat_view.to_move == seat and str(seat_view.phase) == "bidding"
    contract = seat_view.contract
    return {
        "game": f"tarot{players}",
        "seat": str(seat_view.seat),
        "players": players,
        "seats": [str(one) for one in seats],
        "move_number": seat_view.move_number,
        "phase": str(seat_view.phase),
        "to_move": None if seat_view.to_move is None else str(seat_view.to_move),
        "deals": players,
        "played": seat_view.played,
        "totals": _per_seat(seats, seat_view.totals),
        "winner": None if winner_of(state) is None else str(winner_of(state)),
        "score": seat_view.score,
        "deal": {
            "number": seat_view.deal_number,
            "dealer": str(seat_view.dealer),
            "bids": [_bid_json(bidder, bid) for bidder, bid in seat_view.bids],
            "taker": None if seat_view.taker is None else str(seat_view.taker),
            "contract": None if contract is None else str(contract),
            "multiplier": None if contract is None else contract.multiplier,
            "called": None if seat_view.called is None else str(seat_view.called),
            "partner_known": seat_view.partner_known,
            "partner": None if seat_view.partner is None else str(seat_view.partner),
            "chien": None if seat_view.chien is None else codes(seat_view.chien),
            "ecart": None if seat_view.ecart is None else codes(seat_view.ecart),
            "ecart_trumps": codes(seat_view.ecart_trumps),
            "chelem_announced": seat_view.chelem_announced,
            "poignees": [
                {"seat": str(poignee.seat), "cards": codes(poignee.cards), "prime": poignee.prime}
                for poignee in seat_view.poignees
            ],
            "miseres": [{"seat": str(who), "kind": str(kind)} for who, kind in seat_view.miseres],
            "tricks": [{**_trick_json(trick, seats), "winner": str(trick.winner)} for trick in seat_view.tricks],
            "trick": _trick_json(seat_view.trick, seats),
        },
        "hand": codes(seat_view.hand),
        "hand_sizes": _per_seat(seats, seat_view.hand_sizes),
        "legal": legal,
        "bid_choices": [
            {"bid": contract.value, "multiplier": contract.multiplier}
            for contract in CONTRACTS
            if contract.value in legal
        ]
        if bidding
        else [],
        "ecart_rule": _ecart_rule(state, seat_view),
        "poignee_rule": _poignee_rule(state, seat_view),
        "deal_log": score_sheets(seat_view.deal_log, players),
    }


def _finished(after: GameState, number: int) -> DealSummary | None:
    for deal in reversed(after.finished_deals):
        if deal.number == number:
            return deal
    return None


def _partner_news(before: GameState, move: Move, after: GameState, seat: Seat) -> Json | None:
    """At five, the moment ``seat`` learns who the partner is (or that the taker is alone) during the deal.

    That can only be the call (South holds the called card, or the chien shown holds it) or the
    called card falling, so the two views are built only after such a move.
    """
    called = after.deal.called
    if after.players != 5 or called is None or (move.action != "call" and move.card != called):
        return None
    known = view(after, seat)
    if not known.partner_known or view(before, seat).partner_known:
        return None
    return {"type": "partner", "partner": None if known.partner is None else str(known.partner)}


def tarot_events_of(before: GameState, move: Move, after: GameState, seen_by: Seat = HUMAN) -> list[Json]:
    """What ``seen_by`` (South at the solo table) saw happen when ``move`` turned ``before`` into ``after``.

    Each move is one event naming the ``seat`` that moved (``bid``, ``call``, ``ecart``,
    ``chelem``, ``poignee``, ``misere``, ``card``); the others (``contract``, ``chien``,
    ``partner``, ``trick``, ``deal_end``, ``deal_start``, ``game_over``) name no ``seat``.
    """
    seats = SEATS_OF[before.players]
    deal = before.deal
    seat = str(move.seat)
    action = move.action
    events: list[Json] = []
    if action == "card":
        card = move.cards[0]
        events.append({"type": "card", "seat": seat, "card": str(card)})
        if len(deal.trick) + 1 == before.players:
            finished = _finished(after, deal.number)
            tricks = finished.tricks if finished is not None else None
            trick = tricks[-1] if tricks else _last_trick(after, seats)
            events.append({"type": "trick", "winner": str(trick.winner), **_trick_json(trick, seats)})
    elif action == "call":
        events.append({"type": "call", "seat": seat, "card": str(move.cards[0])})
    elif action == "ecart":
        trumps = cards_sorted(card for card in move.cards if card.is_trump)
        event: Json = {"type": "ecart", "seat": seat, "size": len(move.cards), "trumps": trumps}
        if move.seat == seen_by:
            event["cards"] = cards_sorted(move.cards)
        events.append(event)
    elif action == "chelem":
        events.append({"type": "chelem", "seat": seat})
    elif action == "poignee":
        cards = cards_sorted(move.cards)
        prime = poignee_prime(before.players, len(move.cards))
        events.append({"type": "poignee", "seat": seat, "cards": cards, "prime": prime})
    elif action in ("misere-atout", "misere-tete"):
        events.append({"type": "misere", "seat": seat, "kind": action.removeprefix("misere-")})
    else:
        events.append({"type": "bid", "seat": seat, "bid": action})
    same_deal = after.deal.number == deal.number and not after.over
    if same_deal:
        if deal.taker is None and after.deal.taker is not None:
            contract = after.deal.contract
            assert contract is not None
            events.append(
                {
                    "type": "contract",
                    "taker": str(seats[after.deal.taker]),
                    "contract": str(contract),
                    "multiplier": contract.multiplier,
                }
            )
        if after.deal.phase is Phase.ECART and deal.phase is not Phase.ECART:
            # Petite or garde: the chien is turned face up for all before the taker takes it (ruling 8).
            events.append({"type": "chien", "cards": codes(cards_of(after.deal.chien))})
        news = _partner_news(before, move, after, seen_by)
        if news is not None:
            events.append(news)
    if len(after.finished_deals) > len(before.finished_deals):
        sheets = score_sheets(after.finished_deals, after.players)
        for sheet in sheets[len(before.finished_deals) :]:
            events.append({"type": "deal_end", "deal": sheet})
        if not after.over:
            events.append({"type": "deal_start", "number": after.deal.number, "dealer": str(seats[after.deal.dealer])})
    if after.over:
        winner = winner_of(after)
        events.append(
            {
                "type": "game_over",
                "winner": None if winner is None else str(winner),
                "score": after.score,
                "deals": after.finished_deals[-1].number,
                "totals": _per_seat(seats, after.totals),
            }
        )
    return events


def _last_trick(after: GameState, seats: tuple[Seat, ...]) -> Trick:
    leader, cards, winner = after.deal.tricks[-1]
    return Trick(seats[leader], cards, seats[winner])


def cards_sorted(cards: Iterable[Card]) -> list[str]:
    """Card codes in the deck's canonical order."""
    return codes(sorted(cards))
