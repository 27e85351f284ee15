"""The couyon de Malmedy (``../shared/spec/malmedy.md``): the rules as a ``Variant`` and its own fold.

Cards, seats, the random stream, the shuffle, moves, tricks, errors and ``GameState``
are the common game's. What differs is how a deal begins and ends, so ``MALMEDY_FOLD``
holds exactly that: the deal 3 + blind + 2, the chooser naming trump after his first
three cards (no bidding round), the *mite* with *contra* and *recontra* answered just
before the announcer's first card, free play, and the thirteen-line scoring with capot
and couille. ``couyon.games.couyon.game`` hands every Malmedy state to this fold.

Its card rules (trumps, what may be played, the trick's winner, the deal's score) are in
``couyon.games.malmedy.rules``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from couyon.common.errors import IllegalMoveError
from couyon.games.couyon.cards import (
    SEATS,
    SUITS,
    Card,
    Seat,
    Suit,
    Team,
    cards_of,
)
from couyon.games.couyon.game import (
    CHOOSE_TRUMP,
    CONTRA,
    LEFT_OF,
    MITE,
    MOVES_BY_SEAT,
    NO_DEALS,
    PASS,
    RECONTRA,
    GameState,
    Move,
    Phase,
    Trick,
    first_dealer,
    game_end,
    shuffled_deck,
)
from couyon.games.couyon.record import team_values
from couyon.games.couyon.rules import CARD_POINTS, Outcome, Variant
from couyon.games.malmedy.rules import (
    BLIND_SIZE,
    FIRST_PACKET,
    HAND_SIZE,
    QUEEN_OF_SPADES,
    STARTING_LINES,
    legal_cards,
    score_deal,
    trick_winner,
    trump_mask,
)

_CHOICE_SUIT = {f"trump-{suit}": suit for suit in SUITS}


class MalmedySummary(NamedTuple):
    """One deal as the Malmedy ``deal_log`` reports it (malmedy.md, "Record differences")."""

    number: int
    dealer: Seat
    chooser: Seat
    trump: Suit | None
    mite: Seat | None
    contra: int
    points: tuple[int, int]
    tricks: tuple[int, int]
    outcome: Outcome | None
    capot: Team | None
    lines: tuple[int, int] | None


def malmedy_deal_report(deal: MalmedySummary) -> dict[str, Any]:
    """One Malmedy deal as its ``deal_log`` entry (malmedy.md, "Record differences")."""
    return {
        "number": deal.number,
        "dealer": str(deal.dealer),
        "chooser": str(deal.chooser),
        "trump": None if deal.trump is None else str(deal.trump),
        "mite": None if deal.mite is None else str(deal.mite),
        "contra": deal.contra,
        "points": team_values(deal.points),
        "tricks": team_values(deal.tricks),
        "outcome": None if deal.outcome is None else str(deal.outcome),
        "capot": None if deal.capot is None else str(deal.capot),
        "lines": None if deal.lines is None else team_values(deal.lines),
    }


class MalmedyDeal(NamedTuple):
    """The deal in play: the shuffled deck, the hands, the chooser's trump, the announcements and the tricks."""

    number: int
    dealer: Seat
    deck: tuple[Card, ...]
    hands: tuple[int, int, int, int]
    """Cards still held by each seat (all five dealt; the view shows only the first three until trump is named)."""
    first_cards: tuple[int, int, int, int]
    """The three cards each seat received before the trump was named."""
    blind: int
    """The four cards put aside face down; they count for nobody."""
    chooser: Seat
    trump: Suit | None
    mite: Seat | None
    contra: int
    """0, 1 after a contra, 2 after a recontra."""
    asking: str | None
    """The answer awaited from the seat to move: ``contra`` (after a mite) or ``recontra`` (after a contra)."""
    tricks: tuple[Trick, ...]
    leader: Seat
    trick: tuple[Card, ...]
    points: tuple[int, int]
    trick_counts: tuple[int, int]

    @property
    def trumps(self) -> int:
        """The mask of the cards that are trumps now (empty before the trump is named)."""
        return 0 if self.trump is None else trump_mask(self.trump, self.mite is not None)


def _seat_after(dealer: Seat, offset: int) -> Seat:
    return SEATS[(dealer + offset) % 4]


def deal_hands(deck: Sequence[Card], dealer: Seat) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Hands, first three cards and blind of a deck dealt 3 + blind 4 + 2 from the dealer's left (ruling 2)."""
    hands = [0, 0, 0, 0]
    first = [0, 0, 0, 0]
    for offset in range(4):
        seat = _seat_after(dealer, offset + 1)
        for card in deck[FIRST_PACKET * offset : FIRST_PACKET * offset + FIRST_PACKET]:
            first[seat] |= 1 << card
    blind = 0
    for card in deck[12 : 12 + BLIND_SIZE]:
        blind |= 1 << card
    for offset in range(4):
        seat = _seat_after(dealer, offset + 1)
        hands[seat] = first[seat]
        for card in deck[16 + 2 * offset : 18 + 2 * offset]:
            hands[seat] |= 1 << card
    return tuple(hands), tuple(first), blind


def _new_deal(seed: str, number: int, dealer: Seat) -> MalmedyDeal:
    deck = shuffled_deck(seed, number)
    hands, first, blind = deal_hands(deck, dealer)
    chooser = dealer.left
    return MalmedyDeal(
        number=number,
        dealer=dealer,
        deck=deck,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        first_cards=(first[0], first[1], first[2], first[3]),
        blind=blind,
        chooser=chooser,
        trump=None,
        mite=None,
        contra=0,
        asking=None,
        tricks=(),
        leader=chooser,
        trick=(),
        points=(0, 0),
        trick_counts=(0, 0),
    )


def may_announce_mite(deal: MalmedyDeal, seat: Seat) -> bool:
    """Ruling 5: the queen of spades' holder, at his turn to play his first card, if nobody announced yet."""
    hand = deal.hands[seat]
    return (
        deal.trump is not None
        and deal.asking is None
        and deal.mite is None
        and bool(hand >> QUEEN_OF_SPADES & 1)
        and hand.bit_count() == HAND_SIZE
    )


class MalmedyFold:
    """The Malmedy deal's moves, for ``couyon.games.couyon.game``'s ``new_game``, ``play`` and ``legal_moves``."""

    def new_game(self, seed: str, variant: Variant) -> GameState:
        dealer = first_dealer(seed)
        deal = _new_deal(seed, 1, dealer)
        lines = (variant.starting_lines, variant.starting_lines)
        return GameState(variant, seed, lines, deal, NO_DEALS, deal.chooser, 0, None)

    def legal_moves(self, state: GameState) -> tuple[Move, ...]:
        seat = state.to_move
        if seat is None:
            return ()
        deal: MalmedyDeal = state.deal
        moves = MOVES_BY_SEAT[seat]
        if deal.trump is None:
            return tuple(moves[choice] for choice in CHOOSE_TRUMP)
        if deal.asking is not None:
            return (moves[deal.asking], moves[PASS])
        legal = legal_cards(deal.hands[seat], deal.trick, deal.trump, deal.mite is not None)
        cards = tuple(moves[card] for card in cards_of(legal))
        return (moves[MITE], *cards) if may_announce_mite(deal, seat) else cards

    def view(self, state: GameState, seat: Seat) -> MalmedyView:
        return malmedy_view(state, seat)

    def deal_report(self, deal: MalmedySummary) -> dict[str, Any]:
        return malmedy_deal_report(deal)

    def current_summary(self, state: GameState) -> MalmedySummary:
        deal: MalmedyDeal = state.deal
        return MalmedySummary(
            deal.number,
            deal.dealer,
            deal.chooser,
            deal.trump,
            deal.mite,
            deal.contra,
            deal.points,
            deal.trick_counts,
            None,
            None,
            None,
        )

    def play(self, state: GameState, move: Move) -> GameState:
        """The state after ``move`` (its seat is the one to move: ``couyon.games.couyon.game.play`` checked it)."""
        deal: MalmedyDeal = state.deal
        seat, action = move.seat, move.action
        if deal.trump is None:
            suit = _CHOICE_SUIT.get(action) if isinstance(action, str) else None
            if suit is None:
                raise IllegalMoveError(f"{seat} must first name the trump: trump-C, trump-D, trump-H or trump-S")
            return self._after(state, deal._replace(trump=suit), deal.chooser)
        if deal.asking is not None:
            if action == deal.asking:
                contra = deal.contra + 1
                asking = RECONTRA if action == CONTRA else None
            elif action == PASS:
                contra, asking = deal.contra, None
            else:
                raise IllegalMoveError(f"{seat} must answer the {_asked(deal)}: {deal.asking} or pass")
            announcer = deal.mite
            assert announcer is not None
            to_move = announcer if asking is None or asking == RECONTRA else LEFT_OF[announcer]
            return self._after(state, deal._replace(contra=contra, asking=asking), to_move)
        if action == MITE:
            if not deal.hands[seat] >> QUEEN_OF_SPADES & 1:
                raise IllegalMoveError(f"{seat} cannot announce mite without the queen of spades")
            if deal.mite is not None:
                raise IllegalMoveError(f"{seat} cannot announce mite twice")
            if deal.hands[seat].bit_count() != HAND_SIZE:
                raise IllegalMoveError(f"{seat} can announce mite only just before his first card")
            return self._after(state, deal._replace(mite=seat, asking=CONTRA), LEFT_OF[seat])
        if not isinstance(action, Card):
            raise IllegalMoveError(f"{seat} cannot {action} now: a card must be played")
        return self._play_card(state, deal, seat, action)

    @staticmethod
    def _after(state: GameState, deal: MalmedyDeal, to_move: Seat) -> GameState:
        return state._replace(deal=deal, to_move=to_move, move_count=state.move_count + 1)

    def _play_card(self, state: GameState, deal: MalmedyDeal, seat: Seat, card: Card) -> GameState:
        hand = deal.hands[seat]
        if not hand >> card & 1:
            raise IllegalMoveError(f"{seat} does not hold {card}")
        assert deal.trump is not None
        mite = deal.mite is not None
        legal = legal_cards(hand, deal.trick, deal.trump, mite)
        if not legal >> card & 1:
            allowed = ", ".join(str(c) for c in cards_of(legal))
            raise IllegalMoveError(f"{seat} may not play {card} here: the rules allow only {allowed}")
        hands = list(deal.hands)
        hands[seat] = hand ^ (1 << card)
        trick = (*deal.trick, card)
        if len(trick) < 4:
            played = deal._replace(hands=(hands[0], hands[1], hands[2], hands[3]), trick=trick)
            return self._after(state, played, LEFT_OF[seat])
        winner = SEATS[(deal.leader + trick_winner(trick, deal.trump, mite)) % 4]
        gained = sum(CARD_POINTS[c] for c in trick)
        team = winner.team
        points = list(deal.points)
        points[team] += gained
        counts = list(deal.trick_counts)
        counts[team] += 1
        deal = deal._replace(
            hands=(hands[0], hands[1], hands[2], hands[3]),
            tricks=(*deal.tricks, Trick(deal.leader, trick, winner)),
            leader=winner,
            trick=(),
            points=(points[0], points[1]),
            trick_counts=(counts[0], counts[1]),
        )
        if len(deal.tricks) < HAND_SIZE:
            return self._after(state, deal, winner)
        scored = score_deal(state.lines, deal.chooser.team, deal.points, deal.trick_counts, mite, deal.contra)
        summary = MalmedySummary(
            deal.number,
            deal.dealer,
            deal.chooser,
            deal.trump,
            deal.mite,
            deal.contra,
            deal.points,
            deal.trick_counts,
            scored.outcome,
            scored.capot,
            scored.lines,
        )
        finished = state.finished_deals.appended(summary)
        move_count = state.move_count + 1
        ended = game_end(state._replace(deal=deal), scored.lines, finished, move_count)
        if ended is not None:
            return ended
        # Ruling 1: the deal passes to the left after every deal.
        next_deal = _new_deal(state.seed, deal.number + 1, deal.dealer.left)
        return state._replace(
            lines=scored.lines,
            deal=next_deal,
            finished_deals=finished,
            to_move=next_deal.chooser,
            move_count=move_count,
        )


def _asked(deal: MalmedyDeal) -> str:
    return "mite" if deal.asking == CONTRA else "contra"


MALMEDY_FOLD = MalmedyFold()


def _applied_by_the_fold(*_: object) -> object:
    raise AssertionError("MALMEDY_FOLD applies the Malmedy rules itself: they also depend on the mite")


MALMEDY = Variant(
    name="malmedy",
    hand_size=HAND_SIZE,
    deal_pattern=(FIRST_PACKET, 2),
    starting_lines=STARTING_LINES,
    card_points=CARD_POINTS,
    # The fold applies ``legal_cards``, ``trick_winner`` and ``score_deal`` of this module, whose
    # answers also depend on the mite and the tricks won: the common game's slots are not used.
    legal_cards=_applied_by_the_fold,  # type: ignore[arg-type]
    trick_winner=_applied_by_the_fold,  # type: ignore[arg-type]
    score_deal=_applied_by_the_fold,  # type: ignore[arg-type]
    actions="trump-C, trump-D, trump-H, trump-S, mite, contra, recontra, pass or a card like AH or 10C",
    fold=MALMEDY_FOLD,
)


@dataclass(frozen=True, slots=True)
class MalmedyView:
    """What one seat may know of a Malmedy game: its hand (three cards until trump is named), public facts."""

    seat: Seat
    variant: str
    move_number: int
    phase: Phase
    to_move: Seat | None
    lines: tuple[int, int]
    winner: Team | None
    score: int | None
    deal_number: int
    dealer: Seat
    chooser: Seat
    trump: Suit | None
    mite: Seat | None
    contra: int
    asking: str | None
    hand: tuple[Card, ...]
    trumps: tuple[Card, ...]
    """The cards of the hand that count as trumps now."""
    hand_sizes: tuple[int, int, int, int]
    tricks: tuple[Trick, ...]
    trick: Trick
    points: tuple[int, int]
    trick_counts: tuple[int, int]
    legal_moves: tuple[Move, ...]
    deal_log: tuple[MalmedySummary, ...]

    @property
    def mite_announced(self) -> bool:
        return self.mite is not None


def malmedy_view(state: GameState, seat: Seat) -> MalmedyView:
    """Exactly what ``seat`` may know: before the trump is named, only the first three cards of each hand exist."""
    deal: MalmedyDeal = state.deal
    held = deal.hands if deal.trump is not None else deal.first_cards
    hand = held[seat]
    return MalmedyView(
        seat=seat,
        variant=state.variant.name,
        move_number=state.move_count,
        phase=state.phase,
        to_move=state.to_move,
        lines=state.lines,
        winner=state.winner,
        score=state.score_of(seat),
        deal_number=deal.number,
        dealer=deal.dealer,
        chooser=deal.chooser,
        trump=deal.trump,
        mite=deal.mite,
        contra=deal.contra,
        asking=deal.asking,
        hand=cards_of(hand),
        trumps=cards_of(hand & deal.trumps),
        hand_sizes=(held[0].bit_count(), held[1].bit_count(), held[2].bit_count(), held[3].bit_count()),
        tricks=deal.tricks,
        trick=Trick(deal.leader, deal.trick, None),
        points=deal.points,
        trick_counts=deal.trick_counts,
        legal_moves=MALMEDY_FOLD.legal_moves(state) if state.to_move == seat else (),
        deal_log=state.deal_log,
    )
