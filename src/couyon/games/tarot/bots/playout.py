"""A deal played to its end on card masks, fast: the expert's rollouts and the end of its exact solver.

A ``Position`` is one complete deal of the cards as the search imagines it (every hand
known, the camps fixed); ``playout`` plays it out with the usual habits for every seat
and returns what the score needs: the attack's half points and bouts, who took the Petit
au bout, and which camp (if any) won every trick. ``marque_of`` turns that into the
deal's marque S for a contract (ruling 15), exactly as the engine scores it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from couyon.games.tarot.bots.habits import (
    ALLY,
    FOE,
    HIGH_ABOVE,
    HIGH_EXCUSE,
    HIGH_TRUMPS,
    SUIT_INDEX,
    TRUMP,
    habit_card,
    habit_choice,
    high_part,
    plain_part,
    trick_best,
)
from couyon.games.tarot.cards import BOUT_MASK as _BOUT_MASK
from couyon.games.tarot.cards import EXCUSE_BIT as _EXCUSE_BIT
from couyon.games.tarot.cards import EXCUSE_INDEX as _EXCUSE_INDEX
from couyon.games.tarot.cards import FIRST_TRUMP as _FIRST_TRUMP
from couyon.games.tarot.cards import HALF_POINTS as _HALF_POINTS
from couyon.games.tarot.cards import PETIT as _PETIT
from couyon.games.tarot.cards import SUIT_MASKS as _SUIT_MASKS
from couyon.games.tarot.cards import TRUMP_MASK as _TRUMP_MASK
from couyon.games.tarot.cards import TRUMPS_ABOVE as _TRUMPS_ABOVE
from couyon.games.tarot.cards import half_points
from couyon.games.tarot.scoring import Camp, Contract, marque

# The card tables the play reads, bound here as Final: compiled (scripts/compile.py), a Final name is a C
# static read directly, where an imported global is a dictionary lookup on every card.
BOUT_MASK: Final = _BOUT_MASK
EXCUSE_BIT: Final = _EXCUSE_BIT
EXCUSE_INDEX: Final = _EXCUSE_INDEX
FIRST_TRUMP: Final = _FIRST_TRUMP
HALF_POINTS: Final = _HALF_POINTS
PETIT: Final = _PETIT
SUIT_MASKS: Final = _SUIT_MASKS
TRUMP_MASK: Final = _TRUMP_MASK
TRUMPS_ABOVE: Final = _TRUMPS_ABOVE


class Position(NamedTuple):
    """A deal in play with every card placed; seats are indexes, ``attack`` each seat's camp."""

    players: int
    contract: Contract
    taker: int
    attack: tuple[bool, ...]
    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    tricks_left: int
    """Tricks still to complete, the one in progress included."""
    attack_cards: int
    """Cards already counting for the attack: its tricks, its Excuse, the écart or the chien when it is the attack's."""
    excuse_shift: int
    """Half points the Excuse moved so far: +1 to the attack, -1 from it."""
    attack_tricks: int
    defence_tricks: int
    previous: tuple[int, ...]
    """The last completed trick's cards (the Petit au bout when the Excuse wins the last trick)."""
    previous_winner: int
    forbidden_lead: int
    """At five, the first card of the deal may not be of the called suit (the called card aside)."""
    primes: int
    chelem_announced: bool


class Outcome(NamedTuple):
    """What scoring needs from a finished deal."""

    half_points: int
    bouts: int
    petit_au_bout: int
    """+1 the attack took it, -1 the defence, 0 nobody."""
    chelem: int
    """+1 the attack won every trick, -1 the defence, 0 neither."""


def legal_mask(hand: int, trick: Sequence[int], forbidden_lead: int = 0) -> int:
    """``game.legal_card_mask`` on a trick given as any sequence (the same rules)."""
    led = -1
    highest = -1
    for card in trick:
        suit = SUIT_INDEX[card]
        if suit < 0:
            continue
        if led < 0:
            led = suit
        if suit == TRUMP and card > highest:
            highest = card
    if led < 0:
        return hand & ~forbidden_lead if not trick else hand
    excuse = hand & EXCUSE_BIT
    if led != TRUMP:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow | excuse
    trumps = hand & TRUMP_MASK
    if not trumps:
        return hand
    if highest >= 0:
        higher = trumps & TRUMPS_ABOVE[highest]
        if higher:
            return higher | excuse
    return trumps | excuse


_CAMP_ROWS: dict[tuple[bool, ...], tuple[tuple[int, ...], ...]] = {}


def camp_rows(attack: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
    """For each seat, every seat seen from it (``ALLY`` or ``FOE``), with the camps known."""
    rows = _CAMP_ROWS.get(attack)
    if rows is None:
        rows = tuple(tuple(ALLY if other == mine else FOE for other in attack) for mine in attack)
        _CAMP_ROWS[attack] = rows
    return rows


def playout(position: Position, first: int = -1) -> Outcome:
    """Play ``position`` to the end with the usual habits for every seat (``first``: the next card, if given).

    The hands are played on split masks (``habits``: plain and high), machine integers when compiled."""
    players = position.players
    plains = [plain_part(hand) for hand in position.hands]
    highs = [high_part(hand) for hand in position.hands]
    attack = position.attack
    rows = camp_rows(attack)
    taker = position.taker
    leader = position.leader
    trick = list(position.trick)
    cards_plain = plain_part(position.attack_cards)
    cards_high = high_part(position.attack_cards)
    shift = position.excuse_shift
    won = position.attack_tricks
    lost = position.defence_tricks
    left = position.tricks_left
    forbidden_plain = plain_part(position.forbidden_lead)
    forbidden_high = high_part(position.forbidden_lead)
    previous = position.previous
    previous_winner = position.previous_winner
    winner = leader
    while left:
        index, best, led = trick_best(trick)
        points = 0
        for card in trick:
            points += HALF_POINTS[card]
        while len(trick) < players:
            played = len(trick)
            seat = (leader + played) % players
            plain = plains[seat]
            high = highs[seat]
            if first >= 0:
                card = first
                first = -1
            else:
                if led < 0:
                    if trick:
                        legal_plain, legal_high = plain, high
                    else:
                        legal_plain, legal_high = plain & ~forbidden_plain, high & ~forbidden_high
                else:
                    legal_plain = 0
                    legal_high = 0
                    if led != TRUMP:
                        legal_plain = plain & SUIT_MASKS[led]
                    if legal_plain:
                        legal_high = high & HIGH_EXCUSE
                    else:
                        trumps = high & HIGH_TRUMPS
                        if not trumps:
                            legal_plain, legal_high = plain, high
                        else:
                            if best >= FIRST_TRUMP:
                                higher = trumps & HIGH_ABOVE[best]
                                if higher:
                                    trumps = higher
                            legal_high = trumps | (high & HIGH_EXCUSE)
                if legal_plain & (legal_plain - 1) or legal_high & (legal_high - 1) or (legal_plain and legal_high):
                    card = habit_choice(
                        players,
                        seat,
                        legal_plain,
                        legal_high,
                        leader,
                        played,
                        index,
                        best,
                        led,
                        points,
                        rows[seat],
                        plains,
                        highs,
                        taker,
                        attack[seat],
                    )
                elif legal_plain:
                    card = legal_plain.bit_length() - 1
                else:
                    card = legal_high.bit_length() - 1 + FIRST_TRUMP
            if card < FIRST_TRUMP:
                plains[seat] = plain & ~(1 << card)
            else:
                highs[seat] = high & ~(1 << (card - FIRST_TRUMP))
            trick.append(card)
            points += HALF_POINTS[card]
            suit = SUIT_INDEX[card]
            if suit >= 0:
                if led < 0:
                    led, best, index = suit, card, played
                elif suit == TRUMP:
                    if card > best:
                        best, index = card, played
                elif suit == led and best < FIRST_TRUMP and card > best:
                    best, index = card, played
        forbidden_plain = 0
        forbidden_high = 0
        last = left == 1
        done = tuple(trick)
        excuse_wins = last and done[0] == EXCUSE_INDEX and (lost == 0 if attack[leader] else won == 0)
        winner = leader if excuse_wins else (leader + index) % players
        attack_wins = attack[winner]
        for offset, card in enumerate(done):
            if card == EXCUSE_INDEX and not last:
                if attack[(leader + offset) % players]:
                    cards_high |= HIGH_EXCUSE
                    if not attack_wins:
                        shift -= 1
                elif attack_wins:
                    shift += 1
            elif attack_wins:
                if card < FIRST_TRUMP:
                    cards_plain |= 1 << card
                else:
                    cards_high |= 1 << (card - FIRST_TRUMP)
        if attack_wins:
            won += 1
        else:
            lost += 1
        left -= 1
        if left:
            previous, previous_winner = done, winner
            leader = winner
            trick = []
        else:
            trick = list(done)
    cards = cards_plain | cards_high << FIRST_TRUMP
    return finish(attack, cards, shift, won, lost, tuple(trick), winner, previous, previous_winner)


def finish(
    attack: tuple[bool, ...],
    cards: int,
    shift: int,
    won: int,
    lost: int,
    last: tuple[int, ...],
    last_winner: int,
    previous: tuple[int, ...],
    previous_winner: int,
) -> Outcome:
    """The outcome once the last trick is complete."""
    petit = 0
    if PETIT in last:
        petit = 1 if attack[last_winner] else -1
    elif last[0] == EXCUSE_INDEX and last_winner == previous_winner and PETIT in previous:
        # The Excuse led to the last trick won it (its leader is the previous trick's winner).
        petit = 1 if attack[previous_winner] else -1
    chelem = 1 if lost == 0 else -1 if won == 0 else 0
    return Outcome(half_points(cards) + shift, (cards & BOUT_MASK).bit_count(), petit, chelem)


def marque_of(contract: Contract, outcome: Outcome, primes: int, chelem_announced: bool) -> int:
    """The deal's marque S (seen from the attack) for ``contract``."""
    petit = None if outcome.petit_au_bout == 0 else Camp.ATTACK if outcome.petit_au_bout > 0 else Camp.DEFENCE
    chelem = None if outcome.chelem == 0 else Camp.ATTACK if outcome.chelem > 0 else Camp.DEFENCE
    return marque(
        contract,
        outcome.half_points,
        outcome.bouts,
        petit_au_bout=petit,
        poignee_primes=primes,
        chelem_announced=chelem_announced,
        chelem=chelem,
    ).marque


def next_card(position: Position) -> int:
    """The card the habits play next in ``position`` (the seat to move is the one after the trick's cards)."""
    players = position.players
    seat = (position.leader + len(position.trick)) % players
    hand = position.hands[seat]
    legal = legal_mask(hand, position.trick, position.forbidden_lead)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    rows = camp_rows(position.attack)
    return habit_card(
        players,
        seat,
        legal,
        position.leader,
        position.trick,
        rows[seat],
        position.hands,
        position.taker,
        position.attack[seat],
    )
