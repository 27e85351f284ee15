"""A game of tarot as a fold over moves: ``new_game(seed, players)`` then ``play(state, move)``.

A game is n played deals at n players (ruling 16). Each deal is dealt from the seed
(tarot-record-format.md, "Who deals, and what each deal holds"), then goes through the
bidding, the call at five, the écart on petite and garde, an optional chelem announcement,
and the tricks, with poignées and misères announced in the first trick. States are
immutable ``NamedTuple``s, seats inside them are indexes into ``SEATS_OF[players]``; the
public faces (``Move``, ``to_move``, ``DealSummary``, the view) speak in ``Seat``s.

Moves are the record's strings (``Move.parse``): ``pass``, ``petite``, ``garde``,
``garde-sans``, ``garde-contre``, ``call:KH``, ``ecart:2C,3C,…``, ``chelem``,
``poignee:5T,…``, ``misere-atout``, ``misere-tete``, or a card code.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import NamedTuple

# The errors are couyon's, so that the server maps a tarot move's error as it maps a couyon one.
from couyon.common.errors import CouyonError as CouyonError
from couyon.common.errors import GameOverError as GameOverError
from couyon.common.errors import IllegalMoveError as IllegalMoveError
from couyon.common.errors import InvalidMoveError as InvalidMoveError
from couyon.common.errors import OutOfTurnError as OutOfTurnError
from couyon.common.errors import ReplayError as ReplayError
from couyon.common.stream import Stream
from couyon.games.tarot.cards import (
    BOUT_MASK,
    CARD_BY_CODE,
    CARD_CODES,
    CARDS,
    CHIEN_SIZES,
    DECK_HALF_POINTS,
    EXCUSE,
    EXCUSE_BIT,
    FACE_MASK,
    HAND_SIZES,
    JACK_MASK,
    KING_MASK,
    KNIGHT_MASK,
    PACKET,
    PETIT,
    PLAYER_COUNTS,
    QUEEN_MASK,
    SEATS_OF,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
    Seat,
    Suit,
    bit,
    cards_of,
    half_points,
    mask_of,
)
from couyon.games.tarot.scoring import (
    CONTRACTS,
    POIGNEE_SIZES,
    Camp,
    Contract,
    Marque,
    deal_scores,
    marque,
    poignee_prime,
)

PASS = "pass"
CALL = "call"
ECART = "ecart"
CHELEM = "chelem"
POIGNEE = "poignee"
MISERE_ATOUT = "misere-atout"
MISERE_TETE = "misere-tete"
CARD = "card"
"""The action of a card move; a card move is written as the bare card code (``E:KS``)."""
BIDS = (PASS, *(contract.value for contract in CONTRACTS))
ACTIONS = (*BIDS, CALL, ECART, CHELEM, POIGNEE, MISERE_ATOUT, MISERE_TETE, CARD)
_CARD_LIST_ACTIONS = (ECART, POIGNEE)
_CARDS_OF_ACTION = {CARD: 1, CALL: 1, **{action: 0 for action in (*BIDS, CHELEM, MISERE_ATOUT, MISERE_TETE)}}
"""How many cards each action's move holds (an écart or a poignée: any number, checked by the rules)."""
_CONTRACT_OF = {contract.value: contract for contract in CONTRACTS}


class Phase(enum.Enum):
    """Where a deal stands."""

    BIDDING = "bidding"
    CALL = "call"
    """Five players: the taker names a card (ruling 7)."""
    ECART = "ecart"
    """Petite or garde: the taker holds the chien and discards (ruling 8)."""
    PLAYING = "playing"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class Outcome(enum.StrEnum):
    """How a deal ended: played to its last card, passed out by everyone, or annulled by a petit sec."""

    PLAYED = "played"
    REDEAL = "redeal"
    PETIT_SEC = "petit-sec"

    def __str__(self) -> str:
        return self.value


class Misere(enum.StrEnum):
    """A misère d'atout (no trump) or de tête (no J, N, Q, K) (ruling 11)."""

    ATOUT = "atout"
    TETE = "tete"

    def __str__(self) -> str:
        return self.value


_MISERE_OF_ACTION = {MISERE_ATOUT: Misere.ATOUT, MISERE_TETE: Misere.TETE}
_SEAT_NAMES = {seat.value: seat for seat in Seat}


def _shortened(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _card_list(cards: Iterable[int]) -> str:
    return ",".join(CARD_CODES[card] for card in cards)


class Move(NamedTuple):
    """One seat's move: a bid, a call, an écart, an announcement, or a card (``action == "card"``)."""

    seat: Seat
    action: str
    cards: tuple[Card, ...] = ()
    """The card of a card move or a call; the cards of an écart or a poignée, in the order written."""

    def __str__(self) -> str:
        if self.action == CARD:
            return f"{self.seat}:{CARD_CODES[self.cards[0]]}"
        if self.action in (CALL, *_CARD_LIST_ACTIONS):
            return f"{self.seat}:{self.action}:{_card_list(self.cards)}"
        return f"{self.seat}:{self.action}"

    @property
    def card(self) -> Card | None:
        """The card played, for a card move."""
        return self.cards[0] if self.action == CARD else None

    @staticmethod
    def parse(text: str, players: int) -> Move:
        """Read ``SEAT:ACTION`` as a record writes it at ``players`` players, e.g. ``W:garde`` or ``E:KS``."""
        try:
            return _SIMPLE_MOVES[players][text]
        except (KeyError, TypeError):
            pass
        if not isinstance(text, str):
            raise InvalidMoveError(f'a move must be a string like "W:pass" or "E:KS", not {_shortened(repr(text))}')
        shown = _shortened(repr(text))
        seat_name, colon, action = text.partition(":")
        if not colon:
            raise InvalidMoveError(f'{shown} is not a move: write SEAT:ACTION, like "W:pass" or "E:KS"')
        seat = _SEAT_NAMES.get(seat_name)
        if seat is None or seat not in SEATS_OF[players]:
            names = ", ".join(SEATS_OF[players])
            raise InvalidMoveError(f"{shown} names no seat of a {players}-player table: the seats are {names}")
        kind, colon, rest = action.partition(":")
        if colon and kind == CALL:
            card = CARD_BY_CODE.get(rest)
            if card is None:
                raise InvalidMoveError(f"{shown} calls no card: write call:CARD, like call:KH")
            return Move(seat, CALL, (card,))
        if colon and kind in _CARD_LIST_ACTIONS:
            cards = []
            for code in rest.split(","):
                card = CARD_BY_CODE.get(code)
                if card is None:
                    raise InvalidMoveError(
                        f"{shown} lists {_shortened(repr(code))}, which is no card: write {kind}:CARD,CARD,…"
                    )
                cards.append(card)
            return Move(seat, kind, tuple(cards))
        raise InvalidMoveError(
            f"{shown} has an unknown action {_shortened(repr(action))}: use a bid ({', '.join(BIDS)}), "
            "call:CARD, ecart:CARDS, chelem, poignee:CARDS, misere-atout, misere-tete or a card"
        )


def _simple_moves(players: int) -> dict[str, Move]:
    moves: dict[str, Move] = {}
    for seat in SEATS_OF[players]:
        for action in (*BIDS, CHELEM, MISERE_ATOUT, MISERE_TETE):
            moves[f"{seat}:{action}"] = Move(seat, action)
        for card in CARDS:
            moves[f"{seat}:{card}"] = Move(seat, CARD, (card,))
    return moves


_SIMPLE_MOVES = {players: _simple_moves(players) for players in PLAYER_COUNTS}


class Poignee(NamedTuple):
    """A poignée shown: who showed it, the cards shown (canonical order) and its prime."""

    seat: Seat
    cards: tuple[Card, ...]
    prime: int


class Trick(NamedTuple):
    """One trick's cards in the order played from ``leader``; ``winner`` once complete."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None

    def played_by(self, seats: tuple[Seat, ...]) -> tuple[tuple[Seat, Card], ...]:
        """Each card with the seat that played it (``seats``: the table's seats in turn order)."""
        start = seats.index(self.leader)
        return tuple((seats[(start + i) % len(seats)], card) for i, card in enumerate(self.cards))


class DealResult(NamedTuple):
    """The score of a played deal: the marque's steps, petit au bout, chelem and each seat's score."""

    marque: Marque
    petit_au_bout: Camp | None
    chelem: Camp | None
    scores: tuple[int, ...]
    """Each seat's score for the deal, misères included, in the order of the table's seats."""


class DealSummary(NamedTuple):
    """One deal as the contract's ``deal_log`` entry reports it (``outcome`` None while unfinished)."""

    number: int
    dealer: Seat
    bids: tuple[tuple[Seat, Contract | None], ...]
    """Each bid in speaking order; ``None`` is ``pass``."""
    outcome: Outcome | None
    taker: Seat | None
    contract: Contract | None
    called: Card | None
    partner: Seat | None
    chien: tuple[Card, ...]
    ecart: tuple[Card, ...] | None
    chelem_announced: bool
    poignees: tuple[Poignee, ...]
    miseres: tuple[tuple[Seat, Misere], ...]
    tricks: tuple[Trick, ...]
    petit_sec: tuple[tuple[Seat, tuple[Card, ...]], ...]
    """The hands shown because they held the Petit alone (ruling 4), for a petit-sec deal."""
    result: DealResult | None


class Deal(NamedTuple):
    """The deal in progress; every seat here is an index into the table's seats."""

    number: int
    dealer: int
    chien: int
    """The chien as a card mask."""
    dealt: tuple[int, ...]
    """Each seat's dealt hand as a mask (the call and the partner are read from it)."""
    hands: tuple[int, ...]
    """The cards each seat holds now, as masks."""
    phase: Phase
    bids: tuple[tuple[int, Contract | None], ...]
    taker: int | None
    contract: Contract | None
    called: Card | None
    partner: int | None
    ecart: int | None
    chelem_announced: bool
    chelem_open: bool
    """True while the taker's chelem is still possible: nothing has happened since the play began."""
    poignees: tuple[tuple[int, int, int], ...]
    """(seat, cards mask, prime) in the order shown."""
    miseres: tuple[tuple[int, Misere], ...]
    tricks: tuple[tuple[int, tuple[Card, ...], int], ...]
    """Completed tricks as (leader, cards, winner)."""
    leader: int
    trick: tuple[Card, ...]
    to_move: int | None


class GameState(NamedTuple):
    """A whole game at one moment, derived from the seed and the moves (never stored)."""

    players: int
    seed: str
    deal: Deal
    """The deal in progress; once the game is over, its last played deal."""
    finished_deals: tuple[DealSummary, ...]
    totals: tuple[int, ...]
    """Each seat's total over the played deals, in the order of the seats."""
    played: int
    """Deals played to their last card (ruling 16: the game ends at n)."""
    move_count: int
    over: bool

    @property
    def seats(self) -> tuple[Seat, ...]:
        return SEATS_OF[self.players]

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.over else self.deal.phase

    @property
    def to_move(self) -> Seat | None:
        """The seat whose move the game waits for (in the chelem window the taker may also announce)."""
        return to_move(self)

    @property
    def score(self) -> int | None:
        """S's total once the game is over (ruling 17), else None."""
        return self.score_of(self.seats[0])

    def score_of(self, seat: Seat) -> int | None:
        """``seat``'s total once the game is over (ruling 17), else None."""
        return self.totals[self.seats.index(seat)] if self.over else None

    @property
    def deal_log(self) -> tuple[DealSummary, ...]:
        """Every deal dealt, the current one included while unfinished (the report's ``deal_log``)."""
        if self.over:
            return self.finished_deals
        return (*self.finished_deals, current_summary(self))


# --- the deal


def first_dealer(seed: str, players: int) -> Seat:
    """``SEATS[uniform(n)]`` on ``stream(seed, "dealer")`` (ruling 2)."""
    return SEATS_OF[players][Stream(seed, "dealer").uniform(players)]


def shuffled_deck(seed: str, number: int) -> tuple[Card, ...]:
    """The deck of deal ``number``: Fisher–Yates on ``stream(seed, "deal:<number>")``."""
    deck = list(CARDS)
    Stream(seed, f"deal:{number}").shuffle(deck)
    return tuple(deck)


def dealt_hands(deck: tuple[Card, ...], players: int, dealer: int) -> tuple[tuple[int, ...], int]:
    """Each seat's hand and the chien, as masks: packet q to the seat (q mod n) + 1 places left of the dealer."""
    hands = [0] * players
    packets = players * HAND_SIZES[players] // PACKET
    for packet in range(packets):
        seat = (dealer + packet % players + 1) % players
        for card in deck[PACKET * packet : PACKET * packet + PACKET]:
            hands[seat] |= 1 << card
    return tuple(hands), mask_of(deck[PACKET * packets :])


def has_petit_sec(hand: int) -> bool:
    """The Petit as the only trump, without the Excuse (ruling 4)."""
    return hand & (TRUMP_MASK | EXCUSE_BIT) == bit(PETIT)


def _new_deal(players: int, number: int, dealer: int, hands: tuple[int, ...], chien: int) -> Deal:
    return Deal(
        number=number,
        dealer=dealer,
        chien=chien,
        dealt=hands,
        hands=hands,
        phase=Phase.BIDDING,
        bids=(),
        taker=None,
        contract=None,
        called=None,
        partner=None,
        ecart=None,
        chelem_announced=False,
        chelem_open=False,
        poignees=(),
        miseres=(),
        tricks=(),
        leader=(dealer + 1) % players,
        trick=(),
        to_move=(dealer + 1) % players,
    )


def _deal_from(
    seed: str, players: int, number: int, dealer: int, finished: tuple[DealSummary, ...]
) -> tuple[Deal, tuple[DealSummary, ...]]:
    """Deal ``number`` and the next ones while a petit sec annuls them; the first deal that stands."""
    seats = SEATS_OF[players]
    while True:
        hands, chien = dealt_hands(shuffled_deck(seed, number), players, dealer)
        deal = _new_deal(players, number, dealer, hands, chien)
        shown = tuple((seats[seat], cards_of(hand)) for seat, hand in enumerate(hands) if has_petit_sec(hand))
        if not shown:
            return deal, finished
        finished = (*finished, _summary(deal, players, Outcome.PETIT_SEC, None, shown))
        number += 1
        dealer = (dealer + 1) % players


def new_game(seed: str, players: int) -> GameState:
    """The game before its first move: deal 1 (and any deals a petit sec annulled before it) dealt."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"tarot is played by 3, 4 or 5 players, not {players!r}")
    dealer = SEATS_OF[players].index(first_dealer(seed, players))
    deal, finished = _deal_from(seed, players, 1, dealer, ())
    return GameState(players, seed, deal, finished, (0,) * players, 0, 0, False)


def game_from_hands(
    seed: str, players: int, dealer: Seat, hands: Iterable[Iterable[int]], chien: Iterable[int], number: int = 1
) -> GameState:
    """A game whose deal ``number`` holds these hands (in the order of the seats) and chien, before its first bid.

    For hand-built positions (tests, bots that sample the unseen cards); the deals after it
    come from ``seed`` as usual. The hands must share out the 78 cards at the rule's sizes.
    """
    if players not in PLAYER_COUNTS:
        raise ValueError(f"tarot is played by 3, 4 or 5 players, not {players!r}")
    masks = tuple(mask_of(hand) for hand in hands)
    chien_mask = mask_of(chien)
    sizes = [mask.bit_count() for mask in masks]
    if len(masks) != players or any(size != HAND_SIZES[players] for size in sizes):
        raise ValueError(f"{players} hands of {HAND_SIZES[players]} cards are needed, not {sizes}")
    if chien_mask.bit_count() != CHIEN_SIZES[players] or sum(masks) + chien_mask != (1 << len(CARDS)) - 1:
        raise ValueError("the hands and the chien must hold each of the 78 cards once")
    deal = _new_deal(players, number, SEATS_OF[players].index(dealer), masks, chien_mask)
    return GameState(players, seed, deal, (), (0,) * players, 0, 0, False)


# --- what the rules allow


def to_move(state: GameState) -> Seat | None:
    """The seat the game waits for; None once over. While the chelem is open, the taker may also move."""
    if state.over or state.deal.to_move is None:
        return None
    return SEATS_OF[state.players][state.deal.to_move]


def is_over(state: GameState) -> bool:
    """True once the n-th deal has been played to its last card (ruling 16)."""
    return state.over


def _camp_of(deal: Deal, seat: int) -> Camp:
    return Camp.ATTACK if seat == deal.taker or seat == deal.partner else Camp.DEFENCE


def _poignee_camp(deal: Deal, seat: int) -> Camp:
    """The camp ``seat`` counts for in the one poignée per camp of ruling 10: the camp as the table
    knows it when the seat may show one, at its turn in the first trick, before its card.

    The table knows the taker, and at five the called card's holder once that card has been
    played. A seat shows its poignée before its first card, so the partner always shows his
    before his called card falls: the attack is the taker alone, and every other seat, the
    hidden partner included, counts as the defence, then and for the rest of the trick. Nothing
    here reads a card nobody has seen, so what a seat may show tells nobody who the partner is.
    """
    return Camp.ATTACK if seat == deal.taker else Camp.DEFENCE


def callable_mask(dealt_hand: int) -> int:
    """The cards a taker with this dealt hand may call: kings; queens with four kings; and so on (ruling 7)."""
    allowed = KING_MASK
    for held, then in ((KING_MASK, QUEEN_MASK), (QUEEN_MASK, KNIGHT_MASK), (KNIGHT_MASK, JACK_MASK)):
        if dealt_hand & held != held:
            break
        allowed |= then
    return allowed


def legal_card_mask(hand: int, trick: tuple[Card, ...], forbidden_lead: int = 0) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (tarot-record-format.md, "Legal cards").

    ``forbidden_lead`` is the cards the leader of the deal's first trick may not lead at five
    (the called suit but the called card).
    """
    led: Suit | None = None
    highest_trump = -1
    for card in trick:
        suit = SUIT_OF[card]
        if suit is None:
            continue
        if led is None:
            led = suit
        if suit is Suit.T and card > highest_trump:
            highest_trump = card
    if led is None:
        return hand & ~forbidden_lead if not trick else hand
    excuse = hand & EXCUSE_BIT
    if led is not Suit.T:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow | excuse
    trumps = hand & TRUMP_MASK
    if not trumps:
        return hand
    if highest_trump >= 0:
        higher = trumps & TRUMPS_ABOVE[highest_trump]
        if higher:
            return higher | excuse
    return trumps | excuse


def trick_winner(trick: tuple[Card, ...], excuse_wins: bool = False) -> int:
    """The index in ``trick`` of the card that wins it: the highest trump, else the highest of the led suit.

    ``excuse_wins``: the last trick, led by a seat whose camp won every other (ruling 14), where
    a led Excuse wins.
    """
    if excuse_wins and trick[0] == EXCUSE:
        return 0
    trumps = [index for index, card in enumerate(trick) if SUIT_OF[card] is Suit.T]
    if trumps:
        return max(trumps, key=trick.__getitem__)
    led = next(SUIT_OF[card] for card in trick if card != EXCUSE)
    return max((index for index, card in enumerate(trick) if SUIT_OF[card] is led), key=trick.__getitem__)


def _forbidden_lead(state: GameState, deal: Deal) -> int:
    if state.players != 5 or deal.tricks or deal.trick or deal.called is None:
        return 0
    suit = SUIT_OF[deal.called]
    assert suit is not None and suit is not Suit.T
    return SUIT_MASKS[suit] & ~bit(deal.called)


def legal_cards(state: GameState) -> tuple[Card, ...]:
    """The cards the seat to move may play now; empty outside the tricks."""
    deal = state.deal
    if state.over or deal.phase is not Phase.PLAYING or deal.to_move is None:
        return ()
    return cards_of(legal_card_mask(deal.hands[deal.to_move], deal.trick, _forbidden_lead(state, deal)))


class EcartRule(NamedTuple):
    """What the taker's écart may hold (ruling 8): ``size`` cards, at most ``max_trumps`` of them trumps."""

    size: int
    cards: tuple[Card, ...]
    """Every card of the hand that may go: no king, no bout."""
    max_trumps: int


def ecart_rule(state: GameState) -> EcartRule | None:
    """The écart the taker must make now, or None when no écart is due."""
    deal = state.deal
    if state.over or deal.phase is not Phase.ECART or deal.taker is None:
        return None
    hand = deal.hands[deal.taker]
    size = CHIEN_SIZES[state.players]
    others = (hand & ~(TRUMP_MASK | EXCUSE_BIT | KING_MASK)).bit_count()
    return EcartRule(size, cards_of(hand & ~(KING_MASK | BOUT_MASK)), max(0, size - others))


def poignee_sizes(state: GameState) -> tuple[int, ...]:
    """The sizes of poignée the seat to move may show now (ruling 10); empty if it may show none."""
    deal = state.deal
    seat = deal.to_move
    if state.over or deal.phase is not Phase.PLAYING or deal.tricks or seat is None:
        return ()
    camp = _poignee_camp(deal, seat)
    if any(_poignee_camp(deal, shown) is camp for shown, _, _ in deal.poignees):
        return ()
    hand = deal.hands[seat]
    trumps = (hand & TRUMP_MASK).bit_count()
    excuse = 1 if hand & EXCUSE_BIT else 0
    return tuple(size for size in POIGNEE_SIZES[state.players] if trumps >= size or trumps + excuse == size)


def _weakest_poignee(hand: int, size: int) -> tuple[Card, ...]:
    trumps = cards_of(hand & TRUMP_MASK)
    return trumps[:size] if len(trumps) >= size else (*trumps, EXCUSE)


def _weakest_ecart(rule: EcartRule) -> tuple[Card, ...]:
    chosen = sorted((card for card in rule.cards if not card.is_trump), key=lambda card: (card.half_points, card))
    chosen = chosen[: rule.size]
    chosen += [card for card in rule.cards if card.is_trump][: rule.size - len(chosen)]
    return tuple(sorted(chosen))


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """The moves the rules allow now, of any seat (the taker's ``chelem`` included while it is open).

    An écart or a poignée is a choice of cards among hundreds of thousands: this lists one of
    each (the weakest cards that may go; the weakest trumps of each size that may be shown),
    and ``play`` accepts any valid choice (``ecart_rule``, ``poignee_sizes`` describe them).
    """
    deal = state.deal
    position = deal.to_move
    if state.over or position is None:
        return ()
    seats = SEATS_OF[state.players]
    seat = seats[position]
    phase = deal.phase
    if phase is Phase.BIDDING:
        highest = max((bid.strength for _, bid in deal.bids if bid is not None), default=-1)
        return (
            Move(seat, PASS),
            *(Move(seat, contract.value) for contract in CONTRACTS if contract.strength > highest),
        )
    if phase is Phase.CALL:
        return tuple(Move(seat, CALL, (card,)) for card in cards_of(callable_mask(deal.dealt[position])))
    if phase is Phase.ECART:
        rule = ecart_rule(state)
        assert rule is not None
        return (Move(seat, ECART, _weakest_ecart(rule)),)
    moves: list[Move] = []
    if deal.chelem_open:
        assert deal.taker is not None
        moves.append(Move(seats[deal.taker], CHELEM))
    hand = deal.hands[position]
    if not deal.tricks:
        moves.extend(Move(seat, POIGNEE, _weakest_poignee(hand, size)) for size in poignee_sizes(state))
        announced = {kind for shown, kind in deal.miseres if shown == position}
        if Misere.ATOUT not in announced and not hand & TRUMP_MASK:
            moves.append(Move(seat, MISERE_ATOUT))
        if Misere.TETE not in announced and not hand & FACE_MASK:
            moves.append(Move(seat, MISERE_TETE))
    legal = legal_card_mask(hand, deal.trick, _forbidden_lead(state, deal))
    moves.extend(Move(seat, CARD, (card,)) for card in cards_of(legal))
    return tuple(moves)


# --- the fold


def play(state: GameState, move: Move) -> GameState:
    """The state after ``move``; raises an ``IllegalMoveError`` (or ``InvalidMoveError``) naming the rule."""
    if state.over:
        raise GameOverError(f"the game is over ({state.players} deals played): no move can follow")
    deal = state.deal
    seats = SEATS_OF[state.players]
    if move.seat not in seats:
        names = ", ".join(seats)
        raise InvalidMoveError(f"{move.seat} is no seat of a {state.players}-player table: the seats are {names}")
    if move.action not in ACTIONS:
        raise InvalidMoveError(f"{_shortened(repr(move.action))} is no tarot action")
    if len(move.cards) != _CARDS_OF_ACTION.get(move.action, len(move.cards)) or (
        move.action in _CARD_LIST_ACTIONS and not move.cards
    ):
        raise InvalidMoveError(f"a {move.action} move cannot hold {len(move.cards)} cards")
    position = seats.index(move.seat)
    if move.action == CHELEM and deal.chelem_open and position == deal.taker:
        return _announce_chelem(state, deal)
    # What the phase forbids whoever plays it comes first: its sentence says more than "not your turn".
    _check_phase(state, deal, move, position)
    assert deal.to_move is not None
    if position != deal.to_move:
        raise OutOfTurnError(f"it is {seats[deal.to_move]}'s turn, not {move.seat}'s")
    action = move.action
    if action in _CONTRACT_OF or action == PASS:
        return _bid(state, deal, position, _CONTRACT_OF.get(action))
    if action == CALL:
        return _call(state, deal, move)
    if action == ECART:
        return _ecart(state, deal, move)
    if action == CARD:
        return _play_card(state, deal, move)
    return _announce(state, deal, move)


def _doing(move: Move) -> str:
    """The move as a verb phrase for an error sentence: "play KS", "bid garde", "show a poignée"."""
    action = move.action
    if action == CARD:
        return f"play {move.cards[0]}"
    if action == CALL:
        return f"call {move.cards[0]}"
    if action == PASS:
        return "pass"
    if action in _CONTRACT_OF:
        return f"bid {action}"
    return _DOING[action]


_DOING = {
    ECART: "make an écart",
    CHELEM: "announce a chelem",
    POIGNEE: "show a poignée",
    MISERE_ATOUT: "announce a misère d'atout",
    MISERE_TETE: "announce a misère de tête",
}


def _check_phase(state: GameState, deal: Deal, move: Move, position: int) -> None:
    """Raise if no seat may make this kind of move now (a bid after the bidding, a card before the écart…)."""
    seat = move.seat
    action = move.action
    phase = deal.phase
    doing = _doing(move)
    taker = None if deal.taker is None else SEATS_OF[state.players][deal.taker]
    bid = action in _CONTRACT_OF or action == PASS
    if phase is Phase.BIDDING:
        if not bid:
            raise IllegalMoveError(
                f"{seat} cannot {doing} now: the bidding comes first (pass, petite, garde, garde-sans or garde-contre)"
            )
        return
    if bid:
        raise IllegalMoveError(f"{seat} cannot {doing}: the bidding is over")
    if action == CALL and phase is not Phase.CALL:
        if state.players != 5:
            raise IllegalMoveError(f"{seat} cannot call a card: there is no call at {state.players} players")
        raise IllegalMoveError(f"{seat} cannot call a card now: the call comes right after the bidding")
    if phase is Phase.CALL:
        if action != CALL:
            raise IllegalMoveError(f"{seat} cannot {doing} now: {taker} must first call a card (call:CARD)")
        return
    if action == ECART and phase is not Phase.ECART:
        raise IllegalMoveError(
            f"{seat} cannot make an écart now: only the taker makes one, on petite or garde, before the play"
        )
    if phase is Phase.ECART:
        if action != ECART:
            raise IllegalMoveError(f"{seat} cannot {doing} now: {taker} must first make the écart (ecart:CARDS)")
        return
    if action == CHELEM:
        if position != deal.taker:
            raise IllegalMoveError(f"{seat} cannot announce a chelem: only the taker ({taker}) may")
        raise IllegalMoveError(f"{seat} can no longer announce a chelem: it comes before any other move of the play")
    if action != CARD and deal.tricks:
        raise IllegalMoveError(f"{seat} cannot {doing} now: announcements belong to the first trick")


def _moved(state: GameState, deal: Deal) -> GameState:
    return state._replace(deal=deal, move_count=state.move_count + 1)


def _bid(state: GameState, deal: Deal, seat: int, contract: Contract | None) -> GameState:
    seats = SEATS_OF[state.players]
    if contract is not None:
        for bidder, earlier in deal.bids:
            if earlier is not None and earlier.strength >= contract.strength:
                raise IllegalMoveError(
                    f"{seats[seat]} cannot bid {contract}: a bid must be higher than {seats[bidder]}'s {earlier}"
                )
    bids = (*deal.bids, (seat, contract))
    players = state.players
    if len(bids) < players:
        return _moved(state, deal._replace(bids=bids, to_move=(seat + 1) % players))
    taken = [(bidder, bid) for bidder, bid in bids if bid is not None]
    if not taken:
        return _end_deal(state, deal._replace(bids=bids, to_move=None), Outcome.REDEAL, None)
    taker, contract = taken[-1]  # every bid is above the earlier ones: the last is the highest
    deal = deal._replace(bids=bids, taker=taker, contract=contract)
    if players == 5:
        return _moved(state, deal._replace(phase=Phase.CALL, to_move=taker))
    return _moved(state, _after_call(deal))


def _after_call(deal: Deal) -> Deal:
    """Petite or garde: the taker takes the chien and discards; else the play begins."""
    assert deal.taker is not None and deal.contract is not None
    if deal.contract.takes_chien:
        hands = list(deal.hands)
        hands[deal.taker] |= deal.chien
        return deal._replace(phase=Phase.ECART, hands=tuple(hands), to_move=deal.taker)
    return _begin_play(deal)


def _begin_play(deal: Deal) -> Deal:
    assert deal.taker is not None
    leader = (deal.taker + 1) % len(deal.hands)
    return deal._replace(phase=Phase.PLAYING, chelem_open=True, leader=leader, to_move=leader)


def _call(state: GameState, deal: Deal, move: Move) -> GameState:
    assert deal.taker is not None
    card = move.cards[0]
    if not bit(card) & callable_mask(deal.dealt[deal.taker]):
        raise IllegalMoveError(f"{move.seat} may not call {card}: {_why_not_callable(card)}")
    holders = [seat for seat, hand in enumerate(deal.dealt) if hand & bit(card) and seat != deal.taker]
    partner = holders[0] if holders else None
    return _moved(state, _after_call(deal._replace(called=card, partner=partner)))


def _why_not_callable(card: Card) -> str:
    card_bit = bit(card)
    if card_bit & QUEEN_MASK:
        return "a queen may be called only by a taker who holds the four kings"
    if card_bit & KNIGHT_MASK:
        return "a knight may be called only by a taker who holds the four kings and the four queens"
    if card_bit & JACK_MASK:
        return "a jack may be called only by a taker who holds every king, queen and knight"
    return "the taker calls a king (or, holding all four, a queen, and so on down to a jack)"


def _distinct(seat: Seat, what: str, cards: tuple[Card, ...]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise IllegalMoveError(f"{seat}'s {what} names {card} twice")
        seen.add(card)


def _not_held(seat: Seat, what: str, cards: tuple[Card, ...], hand: int) -> None:
    for card in cards:
        if not hand & bit(card):
            raise IllegalMoveError(f"{seat}'s {what} names {card}, which {seat} does not hold")


def _ecart(state: GameState, deal: Deal, move: Move) -> GameState:
    seat = move.seat
    cards = move.cards
    size = CHIEN_SIZES[state.players]
    if len(cards) != size:
        raise IllegalMoveError(f"{seat}'s écart must hold exactly {size} cards, not {len(cards)}")
    _distinct(seat, "écart", cards)
    assert deal.taker is not None
    hand = deal.hands[deal.taker]
    _not_held(seat, "écart", cards, hand)
    for card in cards:
        if bit(card) & KING_MASK:
            raise IllegalMoveError(f"{seat} may not put {card} in the écart: a king never goes to the écart")
        if bit(card) & BOUT_MASK:
            raise IllegalMoveError(f"{seat} may not put {card} in the écart: a bout never goes to the écart")
    ecart = mask_of(cards)
    others = (hand & ~(TRUMP_MASK | EXCUSE_BIT | KING_MASK)).bit_count()
    allowed = max(0, size - others)
    trumps = (ecart & TRUMP_MASK).bit_count()
    if trumps > allowed:
        reason = (
            "no trump, holding enough other cards"
            if allowed == 0
            else f"at most {allowed}, holding only {others} other cards that may go"
        )
        raise IllegalMoveError(f"{seat}'s écart holds {trumps} trump{'s' if trumps > 1 else ''}: {reason}")
    hands = list(deal.hands)
    hands[deal.taker] = hand & ~ecart
    return _moved(state, _begin_play(deal._replace(hands=tuple(hands), ecart=ecart)))


def _announce_chelem(state: GameState, deal: Deal) -> GameState:
    assert deal.taker is not None
    return _moved(
        state,
        deal._replace(chelem_announced=True, chelem_open=False, leader=deal.taker, to_move=deal.taker),
    )


def _announce(state: GameState, deal: Deal, move: Move) -> GameState:
    seat = move.seat
    action = move.action
    position = deal.to_move
    assert position is not None
    hand = deal.hands[position]
    if action == POIGNEE:
        return _moved(state, _poignee(state, deal, move, position, hand))
    kind = _MISERE_OF_ACTION[action]
    if (position, kind) in deal.miseres:
        raise IllegalMoveError(f"{seat} has already announced the misère {_MISERE_NAMES[kind]}")
    if kind is Misere.ATOUT and hand & TRUMP_MASK:
        raise IllegalMoveError(f"{seat} cannot announce a misère d'atout while holding a trump")
    if kind is Misere.TETE and hand & FACE_MASK:
        raise IllegalMoveError(f"{seat} cannot announce a misère de tête while holding a king, queen, knight or jack")
    return _moved(state, deal._replace(miseres=(*deal.miseres, (position, kind)), chelem_open=False))


_MISERE_NAMES = {Misere.ATOUT: "d'atout", Misere.TETE: "de tête"}


def _poignee(state: GameState, deal: Deal, move: Move, position: int, hand: int) -> Deal:
    seat = move.seat
    cards = move.cards
    prime = poignee_prime(state.players, len(cards))
    if prime is None:
        sizes = ", ".join(str(size) for size in POIGNEE_SIZES[state.players])
        raise IllegalMoveError(
            f"{seat}'s poignée shows {len(cards)} cards: at {state.players} players a poignée shows {sizes}"
        )
    _distinct(seat, "poignée", cards)
    _not_held(seat, "poignée", cards, hand)
    shown = mask_of(cards)
    for card in cards:
        if not bit(card) & (TRUMP_MASK | EXCUSE_BIT):
            raise IllegalMoveError(f"{seat}'s poignée shows {card}: a poignée shows only trumps and the Excuse")
    if shown & EXCUSE_BIT and hand & TRUMP_MASK & ~shown:
        raise IllegalMoveError(f"{seat} may show the Excuse in a poignée only with every trump held")
    seats = SEATS_OF[state.players]
    camp = _poignee_camp(deal, position)
    for earlier, _, _ in deal.poignees:
        if earlier == position:
            raise IllegalMoveError(f"{seat} has already shown a poignée")
        if _poignee_camp(deal, earlier) is camp:
            raise IllegalMoveError(_same_camp(state.players, seat, seats[earlier], camp))
    return deal._replace(poignees=(*deal.poignees, (position, shown, prime)), chelem_open=False)


def _same_camp(players: int, seat: Seat, earlier: Seat, camp: Camp) -> str:
    """Why ``seat`` may not show a poignée after ``earlier`` did, in words that name no hidden camp."""
    if players == 5 and camp is Camp.DEFENCE:
        return (
            f"{seat} cannot show a poignée: {earlier} showed one for the defence"
            " (at five, for this rule, every seat but the taker counts as the defence, the hidden partner included)"
        )
    return f"{seat} cannot show a poignée: {earlier}, of the {camp.value}, showed one"


def _play_card(state: GameState, deal: Deal, move: Move) -> GameState:
    seat = move.seat
    card = move.cards[0]
    position = deal.to_move
    assert position is not None
    hand = deal.hands[position]
    if not hand & bit(card):
        raise IllegalMoveError(f"{seat} does not hold {card}")
    legal = legal_card_mask(hand, deal.trick, _forbidden_lead(state, deal))
    if not legal & bit(card):
        allowed = ", ".join(str(c) for c in cards_of(legal))
        raise IllegalMoveError(f"{seat} may not play {card} here: the rules require one of {allowed}")
    players = state.players
    hands = list(deal.hands)
    hands[position] = hand ^ bit(card)
    trick = (*deal.trick, card)
    if len(trick) < players:
        deal = deal._replace(hands=tuple(hands), trick=trick, chelem_open=False, to_move=(position + 1) % players)
        return _moved(state, deal)
    last = len(deal.tricks) + 1 == HAND_SIZES[players]
    leader = deal.leader
    excuse_wins = last and all(_camp_of(deal, winner) is _camp_of(deal, leader) for _, _, winner in deal.tricks)
    winner = (leader + trick_winner(trick, excuse_wins)) % players
    tricks = (*deal.tricks, (leader, trick, winner))
    deal = deal._replace(hands=tuple(hands), trick=(), tricks=tricks, leader=winner, to_move=winner, chelem_open=False)
    if not last:
        return _moved(state, deal)
    return _end_deal(state, deal._replace(to_move=None), Outcome.PLAYED, _score(state.players, deal))


def _score(players: int, deal: Deal) -> DealResult:
    """Steps 1 to 9 of "Scoring a played deal"."""
    assert deal.taker is not None and deal.contract is not None
    attack_cards = 0
    excuse_shift = 0
    count = len(deal.tricks)
    for index, (leader, cards, winner) in enumerate(deal.tricks):
        winner_attacks = _camp_of(deal, winner) is Camp.ATTACK
        for offset, card in enumerate(cards):
            if card == EXCUSE and index < count - 1:
                # The Excuse goes back to its player's camp, which gives half a point for it (ruling 13).
                player_attacks = _camp_of(deal, (leader + offset) % players) is Camp.ATTACK
                if player_attacks:
                    attack_cards |= EXCUSE_BIT
                if player_attacks != winner_attacks:
                    excuse_shift += 1 if winner_attacks else -1
            elif winner_attacks:
                attack_cards |= bit(card)
    if deal.contract.takes_chien:
        assert deal.ecart is not None
        attack_cards |= deal.ecart
    elif deal.contract is Contract.GARDE_SANS:
        attack_cards |= deal.chien
    points = half_points(attack_cards) + excuse_shift
    assert 0 <= points <= DECK_HALF_POINTS
    bouts = (attack_cards & BOUT_MASK).bit_count()
    last_leader, last_cards, last_winner = deal.tricks[-1]
    petit_trick = None
    if PETIT in last_cards:
        petit_trick = deal.tricks[-1]
    elif last_cards[0] == EXCUSE and last_winner == last_leader and PETIT in deal.tricks[-2][1]:
        petit_trick = deal.tricks[-2]
    petit_au_bout = None if petit_trick is None else _camp_of(deal, petit_trick[2])
    camps = {_camp_of(deal, winner) for _, _, winner in deal.tricks}
    chelem = camps.pop() if len(camps) == 1 else None
    result = marque(
        deal.contract,
        points,
        bouts,
        petit_au_bout=petit_au_bout,
        poignee_primes=sum(prime for _, _, prime in deal.poignees),
        chelem_announced=deal.chelem_announced,
        chelem=chelem,
    )
    scores = deal_scores(players, result.marque, deal.taker, deal.partner, (seat for seat, _ in deal.miseres))
    return DealResult(result, petit_au_bout, chelem, scores)


def _end_deal(state: GameState, deal: Deal, outcome: Outcome, result: DealResult | None) -> GameState:
    players = state.players
    finished = (*state.finished_deals, _summary(deal, players, outcome, result, ()))
    move_count = state.move_count + 1
    if result is None:
        totals, played = state.totals, state.played
    else:
        totals = tuple(total + score for total, score in zip(state.totals, result.scores, strict=True))
        played = state.played + 1
        if played == players:
            return GameState(players, state.seed, deal, finished, totals, played, move_count, True)
    next_deal, finished = _deal_from(state.seed, players, deal.number + 1, (deal.dealer + 1) % players, finished)
    return GameState(players, state.seed, next_deal, finished, totals, played, move_count, False)


def _summary(
    deal: Deal,
    players: int,
    outcome: Outcome | None,
    result: DealResult | None,
    petit_sec: tuple[tuple[Seat, tuple[Card, ...]], ...],
) -> DealSummary:
    seats = SEATS_OF[players]

    def seat_of(position: int | None) -> Seat | None:
        return None if position is None else seats[position]

    return DealSummary(
        number=deal.number,
        dealer=seats[deal.dealer],
        bids=tuple((seats[seat], bid) for seat, bid in deal.bids),
        outcome=outcome,
        taker=seat_of(deal.taker),
        contract=deal.contract,
        called=deal.called,
        partner=seat_of(deal.partner),
        chien=cards_of(deal.chien),
        ecart=None if deal.ecart is None else cards_of(deal.ecart),
        chelem_announced=deal.chelem_announced,
        poignees=tuple(Poignee(seats[seat], cards_of(cards), prime) for seat, cards, prime in deal.poignees),
        miseres=tuple((seats[seat], kind) for seat, kind in deal.miseres),
        tricks=tuple(Trick(seats[leader], cards, seats[winner]) for leader, cards, winner in deal.tricks),
        petit_sec=petit_sec,
        result=result,
    )


def current_summary(state: GameState) -> DealSummary:
    """The deal in progress as the report shows it (omniscient: the chien and the partner included)."""
    return _summary(state.deal, state.players, None, None, ())


def replay(seed: str, players: int, moves: Iterable[Move | str]) -> GameState:
    """Fold ``moves`` over a new game; an error names the rule and, via ``ReplayError``, the move's index."""
    state = new_game(seed, players)
    for index, move in enumerate(moves):
        try:
            state = play(state, move if isinstance(move, Move) else Move.parse(move, players))
        except CouyonError as error:
            raise ReplayError(str(error), index) from error
    return state
