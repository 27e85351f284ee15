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
from collections.abc import Mapping
from itertools import combinations

from couyon.common.cardsets import cards_in
from couyon.common.puzzles import EXHAUSTIVE_LIMIT, SAMPLED_LAYOUTS, Json, MinedGame, Puzzle, Verdict, judge
from couyon.common.stream import Stream
from couyon.games.couyon.answers import view_json
from couyon.games.couyon.bots import Bot, bot_move
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import deal_solver
from couyon.games.couyon.bots.knowledge import Knowledge, knowledge_of, sample_hands
from couyon.games.couyon.cards import CARDS, FULL_DECK_MASK, SEATS, Card, Seat, mask_of
from couyon.games.couyon.game import GameState, Move, legal_cards, new_game, play
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
"""Each legal card's value on one layout, in the order of the legal moves."""


def layouts(knowledge: Knowledge, limit: int) -> list[Hands] | None:
    """Every deal of the hidden cards to the other seats that agrees with ``knowledge``, or None when there are more
    than ``limit`` (the untouched talon keeps what is not dealt)."""
    others = [seat for seat in range(4) if seat != knowledge.seat]
    allowed = {seat: knowledge.unknown & ~knowledge.forbidden[seat] for seat in others}
    order = sorted(others, key=lambda seat: (allowed[seat].bit_count() - knowledge.hand_sizes[seat], seat))
    if _count_exceeds(knowledge, order, allowed, limit):
        return None
    found: list[Hands] = []
    hands = [0, 0, 0, 0]
    hands[knowledge.seat] = knowledge.hand
    last = order[-1]

    def place(index: int, free: int) -> None:
        seat = order[index]
        for chosen in combinations(cards_in(allowed[seat] & free), knowledge.hand_sizes[seat]):
            hands[seat] = mask_of(chosen)
            if index + 1 < len(order) - 1:
                place(index + 1, free & ~hands[seat])
                continue
            for rest in combinations(cards_in(allowed[last] & free & ~hands[seat]), knowledge.hand_sizes[last]):
                hands[last] = mask_of(rest)
                found.append((hands[0], hands[1], hands[2], hands[3]))

    place(0, knowledge.unknown)
    return found


def _count_exceeds(knowledge: Knowledge, order: list[int], allowed: dict[int, int], limit: int) -> bool:
    """Whether there are more than ``limit`` layouts: the first seats' hands enumerated, the last seat's counted."""
    total = 0

    def count(index: int, free: int) -> bool:
        nonlocal total
        seat = order[index]
        pool = cards_in(allowed[seat] & free)
        size = knowledge.hand_sizes[seat]
        if index == len(order) - 1:
            total += math.comb(len(pool), size)
            return total > limit
        return any(count(index + 1, free & ~mask_of(chosen)) for chosen in combinations(pool, size))

    return count(0, knowledge.unknown)


def _wins(trick: tuple[Card, ...], card: int, trump: int) -> bool:
    return standard_trick_winner((*trick, card), trump) == len(trick)


def themes_of(seat_view: SeatView, best: tuple[Card, ...]) -> tuple[str, ...]:
    """The themes (``THEMES``) of a decision whose best cards are ``best``."""
    trump = seat_view.trump
    taker = seat_view.taker
    assert trump is not None and taker is not None
    legal = [move.card for move in seat_view.legal_moves if move.card is not None]
    trick = seat_view.trick.cards
    tags = ["attack" if seat_view.seat.team == taker.team else "defence"]
    trumps = [card for card in legal if card.suit == trump]
    if not trick and all(card.suit == trump for card in best):
        tags.append("lead-trump")
    if trumps and not any(card.suit == trump for card in best):
        tags.append("keep-trump")
    if not trick:
        gone = mask_of(seat_view.proposals) | mask_of(card for done in seat_view.tricks for card in done.cards)
        unseen = FULL_DECK_MASK & ~gone

        def master(card: Card) -> bool:
            return all(other.suit != card.suit or other <= card for other in map(CARDS.__getitem__, cards_in(unseen)))

        if all(master(card) for card in best):
            tags.append("master")
    else:
        winning = [card for card in legal if _wins(trick, card, trump)]
        if winning and len(winning) < len(legal) and all(card in winning for card in best):
            tags.append("take-the-trick")
        if winning and not any(card in winning for card in best):
            tags.append("duck")
        leading = (seat_view.trick.leader + standard_trick_winner(trick, trump)) % 4
        cheapest = min(CARD_POINTS[card] for card in legal)
        if leading == seat_view.seat.partner and all(CARD_POINTS[card] > cheapest for card in best):
            tags.append("load")
    if len(seat_view.hand) == 2:
        tags.append("endgame")
    return tuple(tags)


class CouyonPuzzles:
    """The common couyon's ``PuzzleMiner`` (``couyon.common.puzzles``)."""

    unit = UNIT
    margin = MARGIN
    themes: Mapping[str, str] = THEMES

    def __init__(self, game: str, source_bot: Bot | None = None) -> None:
        self.game = game
        self.source_bot = source_bot or BaselineBot()

    def mine(self, seed: str) -> MinedGame:
        state = new_game(seed, STANDARD)
        moves: list[str] = []
        puzzles: list[Puzzle] = []
        decisions = candidates = 0
        while not state.over:
            move = bot_move(state, self.source_bot)
            if move.card is not None and len(legal_cards(state)) > 1:
                decisions += 1
                candidate, puzzle = self.examine(state, move, tuple(moves))
                candidates += candidate
                if puzzle is not None:
                    puzzles.append(puzzle)
            state = play(state, move)
            moves.append(str(move))
        return MinedGame(tuple(puzzles), decisions, candidates)

    def examine(self, state: GameState, move: Move, moves: tuple[str, ...]) -> tuple[bool, Puzzle | None]:
        """Whether the card decision ``move`` of ``state`` (reached by ``moves``) is a candidate (the card played
        lost clearly against the best), and its puzzle when it is also well posed."""
        seat_view = standard_view(state, move.seat)
        knowledge = knowledge_of(seat_view)
        solve = deal_solver(seat_view)
        rng = Stream(state.seed, f"puzzle:{state.move_count}")

        legal = legal_cards(state)
        cards = [str(card) for card in legal]

        def values(hands: Hands) -> Values:
            solved = solve.card_values(hands)
            return tuple(solved[card] for card in legal)

        played = str(move.card)
        if not _trails(cards, [values(sample_hands(knowledge, rng)) for _ in range(SCREEN_LAYOUTS)], played):
            return False, None
        counted = layouts(knowledge, EXHAUSTIVE_LIMIT)
        hands_list = counted if counted is not None else [sample_hands(knowledge, rng) for _ in range(SAMPLED_LAYOUTS)]
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
        failures = _failures(cards, verdict, first, knowledge.seat)
        if failures is None:
            return True, None
        best_cards = tuple(Card.parse(card) for card in verdict.best)
        return True, Puzzle(
            game=self.game,
            options={},
            seed=state.seed,
            moves=moves,
            seat=str(move.seat),
            view=view_json(state, move.seat),
            played=played,
            best=verdict.best,
            values=verdict.values,
            unit=UNIT,
            layouts=len(hands_list),
            exhaustive=counted is not None,
            certain=verdict.certain,
            share=round(verdict.share, 4),
            margin=round(verdict.margin, 4),
            themes=themes_of(seat_view, best_cards),
            failures=failures,
        )

    def hidden_cards(self, puzzle: Puzzle) -> frozenset[str]:
        state = new_game(puzzle.seed, STANDARD)
        for text in puzzle.moves:
            state = play(state, Move.parse(text))
        deal = state.deal
        seat = Seat.parse(puzzle.seat)
        tricks = [card for trick in deal.tricks for card in trick.cards]
        seen = deal.hands[seat] | mask_of(deal.proposals) | mask_of(tricks) | mask_of(deal.trick)
        return frozenset(str(CARDS[card]) for card in cards_in(FULL_DECK_MASK & ~seen))


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
