"""Couyon's puzzles (docs/puzzles.md): card decisions of seeded bot games kept when the exact solver proves them.

A source game is played through from its seed by the beginner table's bot (``baseline/1``) at every seat: its
mistakes are the candidates. At each card decision with a choice, the deciding seat's view gives what the
obligations prove of the other hands (``knowledge_of``); the layouts of the hidden cards that agree with it are
counted when there are at most ``EXHAUSTIVE_LIMIT``, else ``SAMPLED_LAYOUTS`` are drawn by the bots' own sampler
(``sample_hands``), each counted once (the bids weigh nothing: a bid is no proof). Each layout is solved exactly
for every legal card (``expert.deal_solver``: the expert's solver and its chalk objective), in lines for the
seat's team. A quick look at ``SCREEN_LAYOUTS`` drawn layouts first drops the decisions where the card played was
not clearly worse than the best one; the others are judged by ``couyon.common.puzzles.judge`` with ``MARGIN``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import NamedTuple

from couyon.common.cardsets import cards_in
from couyon.common.puzzles import EXHAUSTIVE_LIMIT, SAMPLED_LAYOUTS, Json, MinedGame, Puzzle, Verdict, judge
from couyon.common.stream import Stream
from couyon.games.couyon.answers import view_json
from couyon.games.couyon.bots import Bot, bot_move
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import deal_solver
from couyon.games.couyon.bots.knowledge import knowledge_of, sample_hands
from couyon.games.couyon.cards import CARDS, FULL_DECK_MASK, RANKS_PER_SUIT, SEATS, Card, Seat, mask_of
from couyon.games.couyon.game import Deal, GameState, Move, legal_cards, new_game, play
from couyon.games.couyon.rules import CARD_POINTS, STANDARD, standard_trick_winner
from couyon.games.couyon.view import SeatView, standard_view

MARGIN = 0.5
"""Chalk lines: the best card must beat every other card by half a line on average. Two outcomes of a deal differ
by at least a line (a tie against made or failed), so the best card must change the outcome on about half the
layouts or more against each other card."""
SCREEN_LAYOUTS = 24
"""Layouts of the first look: the card played must trail the best by ``MARGIN`` on them to be judged in full."""
UNIT = "lines"

THEMES = {
    "attack": "the deciding seat is on the taker's team",
    "defence": "the deciding seat plays against the taker",
    "lead-trump": "the seat leads the trick and every best card is a trump",
    "keep-trump": "a trump may be played, and no best card is one",
    "master": "the seat leads and every best card is the highest card of its suit not yet played",
    "take-the-trick": "a card follows to the trick, every best card wins it as it stands and some legal card would not",
    "duck": "a card follows to the trick, some legal card would win it as it stands and no best card does",
    "load": "the partner wins the trick as it stands and every best card is worth more points than the cheapest legal card",
    "endgame": "two cards are left in the hand: the last choice of the deal",
}

Hands = tuple[int, int, int, int]
Values = tuple[float, ...]
"""Each legal card's value on one layout, in the order of the legal cards."""


class Decision(NamedTuple):
    """What a miner needs of one card decision: the seat's knowledge of the hidden cards, its legal cards, and the
    exact solve of any layout."""

    seat: int
    hand: int
    unknown: int
    """Cards in another seat's hand or among the cards dealt to nobody."""
    hand_sizes: tuple[int, ...]
    forbidden: tuple[int, ...]
    """Per seat, the cards the view proves it does not hold."""
    required: tuple[int, ...]
    """Per seat, the unseen cards the view proves it holds."""
    legal: tuple[int, ...]
    solve: Callable[[Hands], Mapping[int, float]]
    """Each legal card's value on a layout (every hand known), in ``unit`` for the seat's team."""
    sample: Callable[[Stream], Hands]
    """A layout drawn by the bots' sampler."""


def layouts(decision: Decision, limit: int) -> list[Hands] | None:
    """Every deal of the hidden cards to the other seats that agrees with ``decision``, or None when there are more
    than ``limit`` (what is not dealt stays with nobody: the talon, the blind)."""
    others = [seat for seat in range(4) if seat != decision.seat]
    allowed = {seat: decision.unknown & ~decision.forbidden[seat] & ~decision.required[seat] for seat in others}
    needed = {seat: decision.hand_sizes[seat] - decision.required[seat].bit_count() for seat in others}
    given = decision.required[0] | decision.required[1] | decision.required[2] | decision.required[3]
    order = sorted(others, key=lambda seat: (allowed[seat].bit_count() - needed[seat], seat))
    free = decision.unknown & ~given
    if _count_exceeds(order, allowed, needed, free, limit):
        return None
    found: list[Hands] = []
    hands = list(decision.required)
    hands[decision.seat] = decision.hand
    last = order[-1]

    def place(index: int, free: int) -> None:
        seat = order[index]
        for chosen in combinations(cards_in(allowed[seat] & free), needed[seat]):
            dealt = mask_of(chosen)
            hands[seat] = dealt | decision.required[seat]
            if index + 1 < len(order) - 1:
                place(index + 1, free & ~dealt)
                continue
            for rest in combinations(cards_in(allowed[last] & free & ~dealt), needed[last]):
                hands[last] = mask_of(rest) | decision.required[last]
                found.append((hands[0], hands[1], hands[2], hands[3]))

    place(0, free)
    return found


def _count_exceeds(order: list[int], allowed: dict[int, int], needed: dict[int, int], free: int, limit: int) -> bool:
    """Whether there are more than ``limit`` layouts: the first seats' hands enumerated, the last seat's counted."""
    total = 0

    def count(index: int, free: int) -> bool:
        nonlocal total
        seat = order[index]
        pool = cards_in(allowed[seat] & free)
        if index == len(order) - 1:
            total += math.comb(len(pool), needed[seat])
            return total > limit
        return any(count(index + 1, free & ~mask_of(chosen)) for chosen in combinations(pool, needed[seat]))

    return count(0, free)


class SolvedPuzzles:
    """A ``PuzzleMiner`` (``couyon.common.puzzles``) for a game of four seats whose cards are couyon's 24 and whose
    solver is exact: the mining walk, the screen, the layouts, the judgement and the failing layouts. A game gives
    its fold, its source bot, its decisions, its view, its themes and what a seat has seen."""

    unit = UNIT
    margin = MARGIN
    themes: Mapping[str, str] = THEMES

    def __init__(self, game: str, source_bot: Bot) -> None:
        self.game = game
        self.source_bot = source_bot

    def new_game(self, seed: str) -> GameState:
        return new_game(seed, STANDARD)

    def decision(self, state: GameState, move: Move) -> Decision | None:
        """The card decision ``move`` of ``state`` to examine, or None (no choice, or not only a card)."""
        raise NotImplementedError

    def view_json(self, state: GameState, seat: Seat) -> Json:
        return view_json(state, seat)

    def themes_of(self, state: GameState, seat: Seat, best: tuple[Card, ...]) -> tuple[str, ...]:
        raise NotImplementedError

    def seen(self, state: GameState, seat: Seat) -> int:
        """The cards ``seat`` has seen in the deal in play: its hand and every card shown."""
        raise NotImplementedError

    def mine(self, seed: str) -> MinedGame:
        state = self.new_game(seed)
        moves: list[str] = []
        puzzles: list[Puzzle] = []
        decisions = candidates = 0
        while not state.over:
            move = bot_move(state, self.source_bot)
            decision = self.decision(state, move) if move.card is not None else None
            if decision is not None:
                decisions += 1
                candidate, puzzle = self.examine(state, move, decision, tuple(moves))
                candidates += candidate
                if puzzle is not None:
                    puzzles.append(puzzle)
            state = play(state, move)
            moves.append(str(move))
        return MinedGame(tuple(puzzles), decisions, candidates)

    def examine(
        self, state: GameState, move: Move, decision: Decision, moves: tuple[str, ...]
    ) -> tuple[bool, Puzzle | None]:
        """Whether the card decision ``move`` of ``state`` (reached by ``moves``) is a candidate (the card played
        lost clearly against the best), and its puzzle when it is also well posed."""
        rng = Stream(state.seed, f"puzzle:{state.move_count}")
        legal = decision.legal
        cards = [str(CARDS[card]) for card in legal]

        def values(hands: Hands) -> Values:
            solved = decision.solve(hands)
            return tuple(solved[card] for card in legal)

        played = str(move.card)
        if not _trails(cards, [values(decision.sample(rng)) for _ in range(SCREEN_LAYOUTS)], played):
            return False, None
        counted = layouts(decision, EXHAUSTIVE_LIMIT)
        hands_list = counted if counted is not None else [decision.sample(rng) for _ in range(SAMPLED_LAYOUTS)]
        outcomes: Counter[Values] = Counter()
        first: dict[Values, Hands] = {}
        for hands in hands_list:
            found = values(hands)
            outcomes[found] += 1
            first.setdefault(found, hands)
        verdict = judge(cards, outcomes, MARGIN, counted is not None)
        means = {value.card: value.value for value in verdict.values}
        if played in verdict.best or means[verdict.best[0]] - means[played] < MARGIN:
            return False, None
        if not verdict.well_posed:
            return True, None
        failures = _failures(cards, verdict, first, decision.seat)
        if failures is None:
            return True, None
        best_cards = tuple(Card.parse(card) for card in verdict.best)
        return True, Puzzle(
            game=self.game,
            options={},
            seed=state.seed,
            moves=moves,
            seat=str(move.seat),
            view=self.view_json(state, move.seat),
            played=played,
            best=verdict.best,
            values=verdict.values,
            unit=UNIT,
            layouts=len(hands_list),
            exhaustive=counted is not None,
            certain=verdict.certain,
            share=round(verdict.share, 4),
            margin=round(verdict.margin, 4),
            themes=self.themes_of(state, move.seat, best_cards),
            failures=failures,
        )

    def position(self, puzzle: Puzzle) -> GameState:
        """The source game at the puzzle's decision."""
        state = self.new_game(puzzle.seed)
        for text in puzzle.moves:
            state = play(state, Move.parse(text, state.variant.actions))
        return state

    def hidden_cards(self, puzzle: Puzzle) -> frozenset[str]:
        seen = self.seen(self.position(puzzle), Seat.parse(puzzle.seat))
        return frozenset(str(CARDS[card]) for card in cards_in(FULL_DECK_MASK & ~seen))


class CouyonPuzzles(SolvedPuzzles):
    """The common couyon's puzzles."""

    def __init__(self, game: str) -> None:
        super().__init__(game, BaselineBot())

    def decision(self, state: GameState, move: Move) -> Decision | None:
        legal = legal_cards(state)
        if len(legal) < 2:
            return None
        seat_view = standard_view(state, move.seat)
        knowledge = knowledge_of(seat_view)
        solve = deal_solver(seat_view)
        return Decision(
            seat=knowledge.seat,
            hand=knowledge.hand,
            unknown=knowledge.unknown,
            hand_sizes=knowledge.hand_sizes,
            forbidden=knowledge.forbidden,
            required=(0, 0, 0, 0),
            legal=tuple(legal),
            solve=solve.card_values,
            sample=lambda rng: sample_hands(knowledge, rng),
        )

    def themes_of(self, state: GameState, seat: Seat, best: tuple[Card, ...]) -> tuple[str, ...]:
        return themes_of(couyon_table(standard_view(state, seat)), best)

    def seen(self, state: GameState, seat: Seat) -> int:
        deal: Deal = state.deal
        tricks = [card for trick in deal.tricks for card in trick.cards]
        return deal.hands[seat] | mask_of(deal.proposals) | mask_of(tricks) | mask_of(deal.trick)


class Table(NamedTuple):
    """What the themes read of a decision: the seat's side, its cards, the trick and the rules of the deal."""

    seat: Seat
    attacking: bool
    """Whether the seat is on the team that took (couyon) or chose the trump (Malmedy)."""
    hand_size: int
    legal: tuple[Card, ...]
    leader: Seat
    trick: tuple[Card, ...]
    gone: int
    """The cards out of play: played in this deal, or turned up."""
    is_trump: Callable[[int], bool]
    suit_of: Callable[[int], int]
    """A card's suit for the play (Malmedy's queen of clubs is a trump)."""
    winner: Callable[[Sequence[int]], int]
    """The position of the winning card of a trick, complete or not."""


def themes_of(table: Table, best: tuple[Card, ...]) -> tuple[str, ...]:
    """The themes (``THEMES``, each tagged by its rule) of a decision whose best cards are ``best``."""
    legal, trick, is_trump = table.legal, table.trick, table.is_trump
    tags = ["attack" if table.attacking else "defence"]
    if not trick and all(is_trump(card) for card in best):
        tags.append("lead-trump")
    if any(is_trump(card) for card in legal) and not any(is_trump(card) for card in best):
        tags.append("keep-trump")
    if not trick:
        unseen = cards_in(FULL_DECK_MASK & ~table.gone)

        def master(card: Card) -> bool:
            suit = table.suit_of(card)
            return all(
                table.winner((card, other)) == 0 for other in unseen if table.suit_of(other) == suit and other != card
            )

        if all(master(card) for card in best):
            tags.append("master")
    else:
        winning = [card for card in legal if table.winner((*trick, card)) == len(trick)]
        if winning and len(winning) < len(legal) and all(card in winning for card in best):
            tags.append("take-the-trick")
        if winning and not any(card in winning for card in best):
            tags.append("duck")
        leading = (table.leader + table.winner(trick)) % 4
        cheapest = min(CARD_POINTS[card] for card in legal)
        if leading == table.seat.partner and all(CARD_POINTS[card] > cheapest for card in best):
            tags.append("load")
    if table.hand_size == 2:
        tags.append("endgame")
    return tuple(tags)


def couyon_table(seat_view: SeatView) -> Table:
    """The ``Table`` of a decision of the common couyon."""
    trump, taker = seat_view.trump, seat_view.taker
    assert trump is not None and taker is not None
    played = [card for trick in seat_view.tricks for card in trick.cards]
    return Table(
        seat=seat_view.seat,
        attacking=seat_view.seat.team == taker.team,
        hand_size=len(seat_view.hand),
        legal=tuple(move.card for move in seat_view.legal_moves if move.card is not None),
        leader=seat_view.trick.leader,
        trick=seat_view.trick.cards,
        gone=mask_of(seat_view.proposals) | mask_of(played) | mask_of(seat_view.trick.cards),
        is_trump=lambda card: card // RANKS_PER_SUIT == trump,
        suit_of=lambda card: card // RANKS_PER_SUIT,
        winner=lambda cards: standard_trick_winner(cards, trump),
    )


def _trails(cards: list[str], screen: list[Values], played: str) -> bool:
    """Whether ``played`` averages at least ``MARGIN`` below the best card over the first look's layouts."""
    means = [sum(values[i] for values in screen) / len(screen) for i in range(len(cards))]
    return max(means) - means[cards.index(played)] >= MARGIN


def _failures(cards: list[str], verdict: Verdict, first: dict[Values, Hands], seat: int) -> dict[str, Json] | None:
    """For each card outside the best group, a layout (each other seat's hand) where it does worse than the best
    card while the best card is best there: the first solved of those; None if some card has none."""
    best = cards.index(verdict.best[0])
    failures: dict[str, Json] = {}
    for index, card in enumerate(cards):
        if card in verdict.best:
            continue
        hands = next(
            (hands for values, hands in first.items() if values[index] < values[best] == max(values)),
            None,
        )
        if hands is None:
            return None
        failures[card] = {
            str(other): [str(CARDS[held]) for held in cards_in(hands[other])] for other in SEATS if other != seat
        }
    return failures
