"""What one seat may know of a tarot game: the only shape in which a game leaves the engine toward a player.

Ruling 19: a seat sees its hand, the bids, the call, the chien on petite and garde, the
trumps put in the écart, the announcements with the poignée cards, every card played, at
five the partner once the called card falls, and the chien and écart once the deal ends.
No other hand, no unshown chien, no seed (a daily challenge's seed would reveal every deal).
"""

from __future__ import annotations

from dataclasses import dataclass

from couyon.games.tarot.cards import SEATS_OF, TRUMP_MASK, Card, Seat, bit, cards_of
from couyon.games.tarot.game import (
    DealSummary,
    GameState,
    Misere,
    Move,
    Phase,
    Poignee,
    Trick,
    legal_moves,
    to_move,
)
from couyon.games.tarot.scoring import Contract


@dataclass(frozen=True, slots=True)
class TarotView:
    """The game as ``seat`` sees it."""

    seat: Seat
    players: int
    seats: tuple[Seat, ...]
    """The table's seats in turn order (each one's left is the next)."""
    move_number: int
    phase: Phase
    to_move: Seat | None
    totals: tuple[int, ...]
    """Each seat's total over the played deals, in the order of ``seats``."""
    played: int
    score: int | None
    """S's total once the game is over."""
    deal_number: int
    dealer: Seat
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[Seat, Contract | None], ...]
    """Each bid in speaking order; ``None`` is ``pass``."""
    taker: Seat | None
    contract: Contract | None
    called: Card | None
    partner_known: bool
    """At five: whether this seat knows who the partner is (or that the taker is alone)."""
    partner: Seat | None
    """The partner once known; None while unknown or when the taker is alone."""
    chien: tuple[Card, ...] | None
    """The chien once shown: on petite and garde before the écart, to everyone once the deal ends."""
    ecart: tuple[Card, ...] | None
    """The whole écart: the taker's own, or everyone's once the deal ends."""
    ecart_trumps: tuple[Card, ...]
    """The trumps put in the écart, shown to all (ruling 8)."""
    chelem_announced: bool
    poignees: tuple[Poignee, ...]
    miseres: tuple[tuple[Seat, Misere], ...]
    tricks: tuple[Trick, ...]
    """The current deal's completed tricks."""
    trick: Trick
    """The trick in progress (its ``winner`` is None)."""
    legal_moves: tuple[Move, ...]
    """This seat's moves now (one choice each for an écart or a poignée, see ``game.legal_moves``)."""
    deal_log: tuple[DealSummary, ...]
    """Every finished deal: all of it is public once a deal ends (a petit sec's hand included)."""


def view(state: GameState, seat: Seat) -> TarotView:
    """Exactly what ``seat`` may know of ``state``."""
    seats = SEATS_OF[state.players]
    position = seats.index(seat)
    deal = state.deal
    ended = state.over
    hand = deal.hands[position]

    def seat_of(index: int | None) -> Seat | None:
        return None if index is None else seats[index]

    taker = seat_of(deal.taker)
    chien_shown = ended or (
        deal.contract is not None
        and deal.contract.takes_chien
        and deal.phase is not Phase.CALL
        and deal.taker is not None
    )
    tricks = tuple(Trick(seats[leader], cards, seats[winner]) for leader, cards, winner in deal.tricks)
    trick = Trick(seats[deal.leader], deal.trick, None)
    partner_known = False
    partner: Seat | None = None
    called = deal.called
    if called is not None:
        played_by = [who for one in (*tricks, trick) for who, card in one.played_by(seats) if card == called]
        if ended or played_by or hand & bit(called) or (chien_shown and deal.chien & bit(called)):
            partner_known = True
            partner = seat_of(deal.partner)
    ecart: tuple[Card, ...] | None = None
    ecart_trumps: tuple[Card, ...] = ()
    if deal.ecart is not None:
        ecart_trumps = cards_of(deal.ecart & TRUMP_MASK)
        if ended or position == deal.taker:
            ecart = cards_of(deal.ecart)
    return TarotView(
        seat=seat,
        players=state.players,
        seats=seats,
        move_number=state.move_count,
        phase=state.phase,
        to_move=to_move(state),
        totals=state.totals,
        played=state.played,
        score=state.score_of(seat),
        deal_number=deal.number,
        dealer=seats[deal.dealer],
        hand=cards_of(hand),
        hand_sizes=tuple(held.bit_count() for held in deal.hands),
        bids=tuple((seats[bidder], bid) for bidder, bid in deal.bids),
        taker=taker,
        contract=deal.contract if deal.taker is not None else None,
        called=called,
        partner_known=partner_known,
        partner=partner,
        chien=cards_of(deal.chien) if chien_shown else None,
        ecart=ecart,
        ecart_trumps=ecart_trumps,
        chelem_announced=deal.chelem_announced,
        poignees=tuple(Poignee(seats[who], cards_of(cards), prime) for who, cards, prime in deal.poignees),
        miseres=tuple((seats[who], kind) for who, kind in deal.miseres),
        tricks=tricks,
        trick=trick,
        legal_moves=tuple(move for move in legal_moves(state) if move.seat == seat),
        deal_log=state.finished_deals,
    )
