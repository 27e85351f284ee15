"""The usual tarot play, on card masks: the baseline's rules, and the expert's rollout policy.

One function, ``habit_card``, picks a card for any seat from what that seat may assume of
the others (``holdings``: per seat, the cards it may hold). A bot passes what its view
proves (``knowledge.possible_holdings``); a rollout inside the expert's search passes the
true hands of the deal it imagines, so the same habits play both. The habits:

- never keep the Excuse to the last trick (it would go to the trick's winner); play it
  rather than give a valuable card to the other camp;
- leading: the attack draws trumps with the master trump (hunting the Petit), then cashes
  its masters, then plays its longest suit; the defence makes the taker ruff in a suit he
  is known to lack, cashes its masters, then plays its longest suit; nobody leads the
  Petit while it can be caught;
- following: load a trick that an ally wins for sure (or when playing last) with the most
  valuable card; win a trick of the other camp with the cheapest card that wins for sure,
  with the strongest winner when it holds the Petit or many points; the Petit is played
  whenever it is safe (won for sure, or under an ally's sure trump); otherwise give the
  cheapest card, keeping trumps and the Petit.

Also the baseline's bidding count, écart, call and announcements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from couyon.common.cardsets import cards_in
from couyon.games.tarot.cards import EXCUSE_INDEX as _EXCUSE_INDEX
from couyon.games.tarot.cards import FIRST_TRUMP as _FIRST_TRUMP
from couyon.games.tarot.cards import HALF_POINTS as _HALF_POINTS
from couyon.games.tarot.cards import HAND_SIZES as _HAND_SIZES
from couyon.games.tarot.cards import JACK_MASK as _JACK_MASK
from couyon.games.tarot.cards import KING_MASK as _KING_MASK
from couyon.games.tarot.cards import KNIGHT_MASK as _KNIGHT_MASK
from couyon.games.tarot.cards import PETIT as _PETIT
from couyon.games.tarot.cards import QUEEN_MASK as _QUEEN_MASK
from couyon.games.tarot.cards import RANKS_PER_SUIT as _RANKS_PER_SUIT
from couyon.games.tarot.cards import SUIT_MASKS as _SUIT_MASKS
from couyon.games.tarot.cards import TRUMP_MASK as _TRUMP_MASK
from couyon.games.tarot.cards import TRUMPS_ABOVE as _TRUMPS_ABOVE
from couyon.games.tarot.cards import TWENTY_ONE as _TWENTY_ONE
from couyon.games.tarot.scoring import Contract

# The card tables the play reads, bound here as Final: compiled (scripts/compile.py), a Final name is a C
# static read directly, where an imported global is a dictionary lookup on every card.
EXCUSE_INDEX: Final = _EXCUSE_INDEX
FIRST_TRUMP: Final = _FIRST_TRUMP
HALF_POINTS: Final = _HALF_POINTS
HAND_SIZES: Final = _HAND_SIZES
JACK_MASK: Final = _JACK_MASK
KING_MASK: Final = _KING_MASK
KNIGHT_MASK: Final = _KNIGHT_MASK
PETIT: Final = _PETIT
QUEEN_MASK: Final = _QUEEN_MASK
RANKS_PER_SUIT: Final = _RANKS_PER_SUIT
SUIT_MASKS: Final = _SUIT_MASKS
TRUMP_MASK: Final = _TRUMP_MASK
TRUMPS_ABOVE: Final = _TRUMPS_ABOVE
TWENTY_ONE: Final = _TWENTY_ONE

ALLY: Final = 1
FOE: Final = -1
TRUMP: Final = 4
"""The suit index of trumps in ``SUIT_INDEX`` (plain suits are 0–3; the Excuse has -1)."""
SUIT_INDEX: Final[tuple[int, ...]] = tuple(
    -1 if card == EXCUSE_INDEX else TRUMP if card >= FIRST_TRUMP else card // RANKS_PER_SUIT for card in range(78)
)
PLAIN_MASK: Final = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
ABOVE_IN_SUIT: Final[tuple[int, ...]] = tuple(
    (SUIT_MASKS[card // RANKS_PER_SUIT] & ~((2 << card) - 1)) if card < FIRST_TRUMP else 0 for card in range(78)
)
"""For each plain card, the higher cards of its suit."""
LOW_PLAIN_MASK: Final = PLAIN_MASK & ~(JACK_MASK | KNIGHT_MASK | QUEEN_MASK | KING_MASK)
"""The plain cards worth half a point: the 1 to the 10 of each suit."""
LOAD_ORDER: Final = (KING_MASK, QUEEN_MASK, KNIGHT_MASK, JACK_MASK, LOW_PLAIN_MASK)
"""The plain cards that load a trick most first."""
FACE_ORDER: Final = (JACK_MASK, KNIGHT_MASK, QUEEN_MASK, KING_MASK)
"""The faces that give away least first."""

# The play works on each hand split in two small masks, so that compiled every mask operation is a machine
# integer's (a 78-bit mask is a Python big int): its plain cards (bits 0–55, the card's own bit) and its "high"
# cards, the trumps and the Excuse (bit ``card − FIRST_TRUMP``: the Petit 0, the 21 20, the Excuse 21).
HIGH_EXCUSE: Final = 1 << (EXCUSE_INDEX - FIRST_TRUMP)
HIGH_TRUMPS: Final = HIGH_EXCUSE - 1
HIGH_PETIT: Final = 1
HIGH_TWENTY_ONE: Final = 1 << (TWENTY_ONE - FIRST_TRUMP)
HIGH_MIDDLE_TRUMPS: Final = HIGH_TRUMPS & ~(HIGH_PETIT | HIGH_TWENTY_ONE)
"""2T to 20T."""
HIGH_SIXTEEN_UP: Final = HIGH_TRUMPS & ~((1 << (16 - 1)) - 1)
"""16T to 21T."""
HIGH_ABOVE: Final[tuple[int, ...]] = tuple(above >> FIRST_TRUMP for above in TRUMPS_ABOVE)
"""``TRUMPS_ABOVE`` as high masks."""


def plain_part(mask: int) -> int:
    """The plain cards of a 78-bit ``mask``."""
    return mask & PLAIN_MASK


def high_part(mask: int) -> int:
    """The trumps and the Excuse of a 78-bit ``mask``, as a high mask."""
    return mask >> FIRST_TRUMP


def cheapest(plain: int, high: int) -> int:
    """The card that gives away least: low plain cards, middle trumps, then by points (the lowest of the first
    kind held); the Petit and the Excuse last."""
    cards = plain & LOW_PLAIN_MASK
    if cards:
        return (cards & -cards).bit_length() - 1
    cards = high & HIGH_MIDDLE_TRUMPS
    if cards:
        return (cards & -cards).bit_length() - 1 + FIRST_TRUMP
    for kind in FACE_ORDER:
        cards = plain & kind
        if cards:
            return (cards & -cards).bit_length() - 1
    if high & HIGH_TWENTY_ONE:
        return TWENTY_ONE
    if high & HIGH_PETIT:
        return PETIT
    if high & HIGH_EXCUSE:
        return EXCUSE_INDEX
    raise ValueError("no card to give")


def most_loading(mask: int) -> int:
    """The plain card of ``mask`` worth most (the highest of the first kind in ``LOAD_ORDER``)."""
    for kind in LOAD_ORDER:
        cards = mask & kind
        if cards:
            return cards.bit_length() - 1
    raise ValueError("no plain card to load")


def trick_best(trick: Sequence[int]) -> tuple[int, int, int]:
    """(index, card, led suit) of the card winning ``trick`` so far; (-1, -1, -1) while only the Excuse is in it."""
    led = -1
    best = -1
    index = -1
    for position, card in enumerate(trick):
        suit = SUIT_INDEX[card]
        if suit < 0:
            continue
        if led < 0:
            led, best, index = suit, card, position
        elif suit == TRUMP:
            if card > best or SUIT_INDEX[best] != TRUMP:
                best, index = card, position
        elif suit == led and SUIT_INDEX[best] == led and card > best:
            best, index = card, position
    return index, best, led


def beats(card: int, best: int, led: int) -> bool:
    """Whether ``card`` played now would win over ``best`` (the trick's winning card, ``led`` its led suit)."""
    suit = SUIT_INDEX[card]
    if suit == TRUMP:
        return SUIT_INDEX[best] != TRUMP or card > best
    return suit == led and SUIT_INDEX[best] == led and card > best


def _beatable(card: int, led: int, plains: list[int], highs: list[int], later: list[int]) -> bool:
    """Whether a seat still to play may beat ``card`` (``later``: those seats; ``plains`` and ``highs``: what
    each seat may hold)."""
    if card >= FIRST_TRUMP:
        above = HIGH_ABOVE[card]
        if led == TRUMP:
            return any(highs[seat] & above for seat in later)
        follow = SUIT_MASKS[led]
        return any(highs[seat] & above and not plains[seat] & follow for seat in later)
    above = ABOVE_IN_SUIT[card]
    follow = SUIT_MASKS[led]
    for seat in later:
        plain = plains[seat]
        if plain & above or (not plain & follow and highs[seat] & HIGH_TRUMPS):
            return True
    return False


def habit_card(
    players: int,
    me: int,
    legal: int,
    leader: int,
    trick: Sequence[int],
    camp: Sequence[int],
    holdings: Sequence[int],
    taker: int,
    attack: bool,
) -> int:
    """The card the usual play picks among ``legal`` for seat ``me``.

    ``camp``: each seat seen from ``me`` (``ALLY``, ``FOE`` or 0 for unknown, at five);
    ``holdings``: per seat, the cards it may hold (``holdings[me]`` is the hand).
    """
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    index, best, led = trick_best(trick)
    points = 0
    for card in trick:
        points += HALF_POINTS[card]
    return habit_choice(
        players,
        me,
        plain_part(legal),
        high_part(legal),
        leader,
        len(trick),
        index,
        best,
        led,
        points,
        camp,
        [plain_part(held) for held in holdings],
        [high_part(held) for held in holdings],
        taker,
        attack,
    )


def habit_choice(
    players: int,
    me: int,
    legal_plain: int,
    legal_high: int,
    leader: int,
    played: int,
    index: int,
    best: int,
    led: int,
    points: int,
    camp: Sequence[int],
    plains: list[int],
    highs: list[int],
    taker: int,
    attack: bool,
) -> int:
    """``habit_card`` on split masks (``legal_plain`` and ``legal_high``; per seat, ``plains`` and ``highs``),
    with the trick already read: ``played`` cards in it, the winning ``index`` and ``best`` card (-1 while only
    the Excuse is in it), the ``led`` suit and its ``points`` in half points."""
    if legal_high & HIGH_EXCUSE and plains[me].bit_count() + highs[me].bit_count() == 2:
        return EXCUSE_INDEX
    if index < 0:
        return _lead(players, me, legal_plain, legal_high, camp, plains, highs, taker, attack)
    later = [(leader + position) % players for position in range(played + 1, players)]
    winner = (leader + index) % players
    standing = camp[winner]
    if standing == 0 and attack:
        standing = FOE
    if standing == ALLY:
        if not later or not _beatable(best, led, plains, highs, later):
            if legal_high & HIGH_PETIT and best >= FIRST_TRUMP:
                return PETIT
            if legal_plain:
                return most_loading(legal_plain)
            return _lowest_trump(legal_plain, legal_high)
        return _discard(legal_plain, legal_high)
    if best >= FIRST_TRUMP:
        winning_plain = 0
        winning_high = legal_high & HIGH_ABOVE[best]
    else:
        winning_plain = legal_plain & ABOVE_IN_SUIT[best]
        winning_high = legal_high & HIGH_TRUMPS
    if (winning_plain or winning_high) and standing == FOE:
        if not later:
            sure_plain, sure_high = winning_plain, winning_high
        else:
            sure_plain = 0
            rest = winning_plain
            while rest:
                low = rest & -rest
                rest ^= low
                if not _beatable(low.bit_length() - 1, led, plains, highs, later):
                    sure_plain |= low
            sure_high = 0
            rest = winning_high
            while rest:
                low = rest & -rest
                rest ^= low
                if not _beatable(low.bit_length() - 1 + FIRST_TRUMP, led, plains, highs, later):
                    sure_high |= low
        if sure_high & HIGH_PETIT:
            return PETIT
        if sure_plain or sure_high:
            return cheapest(sure_plain, sure_high)
        if points >= 8:
            strongest = winning_high.bit_length() - 1 + FIRST_TRUMP if winning_high else winning_plain.bit_length() - 1
            if strongest != PETIT:
                return strongest
    elif (winning_plain or winning_high) and not later and winning_high & HIGH_PETIT:
        return PETIT
    return _discard(legal_plain, legal_high)


def _lowest_trump(legal_plain: int, legal_high: int) -> int:
    trumps = legal_high & HIGH_TRUMPS
    if not trumps:
        return cheapest(legal_plain, legal_high)
    others = trumps & ~HIGH_PETIT
    chosen = others or trumps
    return (chosen & -chosen).bit_length() - 1 + FIRST_TRUMP


def _discard(legal_plain: int, legal_high: int) -> int:
    """The card that gives away least; the Excuse instead of a valuable card."""
    rest_high = legal_high & ~HIGH_EXCUSE
    if not legal_plain and not rest_high:
        return EXCUSE_INDEX
    card = cheapest(legal_plain, rest_high)
    if legal_high & HIGH_EXCUSE and HALF_POINTS[card] >= 5:
        return EXCUSE_INDEX
    return card


def _master(suit_mask: int, hand: int, others: int) -> int:
    """The bit of this hand's card of the suit that nobody else may beat, or -1 if it holds none (``others``: what
    they may hold; plain masks for a plain suit, high masks for the trumps)."""
    mine = hand & suit_mask
    if not mine:
        return -1
    top = mine.bit_length() - 1
    if others & suit_mask & ~((2 << top) - 1):
        return -1
    return top


def _lead(
    players: int,
    me: int,
    legal_plain: int,
    legal_high: int,
    camp: Sequence[int],
    plains: list[int],
    highs: list[int],
    taker: int,
    attack: bool,
) -> int:
    others_plain = 0
    others_high = 0
    for seat in range(players):
        if seat != me:
            others_plain |= plains[seat]
            others_high |= highs[seat]
    trumps = legal_high & HIGH_TRUMPS
    plain = legal_plain
    if attack:
        if trumps and others_high & HIGH_TRUMPS:
            master = _master(HIGH_TRUMPS, highs[me], others_high)
            if master >= 0 and legal_high >> master & 1:
                return master + FIRST_TRUMP
        ruffers = [
            plains[seat] for seat in range(players) if seat != me and camp[seat] != ALLY and highs[seat] & HIGH_TRUMPS
        ]
        for suit_mask in SUIT_MASKS:
            if not plain & suit_mask:
                continue
            master = _master(suit_mask, plains[me], others_plain)
            if master >= 0 and all(held & suit_mask for held in ruffers):
                return master
    else:
        taker_plain = plains[taker]
        if highs[taker] & HIGH_TRUMPS:
            for suit_mask in SUIT_MASKS:
                if plain & suit_mask and not taker_plain & suit_mask:
                    return cheapest(plain & suit_mask, 0)
        for suit_mask in SUIT_MASKS:
            if not plain & suit_mask or not taker_plain & suit_mask:
                continue
            master = _master(suit_mask, plains[me], others_plain)
            if master >= 0:
                return master
    if plain:
        longest = SUIT_MASKS[0]
        length = -1
        for suit_mask in SUIT_MASKS:
            count = (plain & suit_mask).bit_count()
            if count > length:
                longest, length = suit_mask, count
        return cheapest(plain & longest, 0)
    if trumps:
        return _lowest_trump(legal_plain, legal_high)
    return EXCUSE_INDEX


# --- bidding, écart, call


BID_THRESHOLDS: Final = (40, 56, 71, 81)
"""Points of the usual count for petite, garde, garde sans and garde contre (on an 18-card hand)."""


def hand_count(hand: int, players: int) -> float:
    """The usual point count of a hand, scaled to an 18-card hand (four players).

    21: 10, Excuse: 8, the Petit 5/7/9 with 4/5/6+ trumps (nothing with fewer); each trump 2,
    and 1 more from the 16 up; kings 6, queens 3, knights 2, jacks 1, a king with its queen 1
    more; a suit of 5, 6, 7+ cards 5, 7, 9; a void 6 and a singleton 3 with 4 trumps or more.
    """
    plain = plain_part(hand)
    high = high_part(hand)
    trumps = (high & HIGH_TRUMPS).bit_count()
    count = 0.0
    if high & HIGH_TWENTY_ONE:
        count += 10
    if high & HIGH_EXCUSE:
        count += 8
    if high & HIGH_PETIT:
        count += 9 if trumps >= 6 else 7 if trumps == 5 else 5 if trumps == 4 else 0
    count += 2 * trumps + (high & HIGH_SIXTEEN_UP).bit_count()
    count += 6 * (plain & KING_MASK).bit_count() + 3 * (plain & QUEEN_MASK).bit_count()
    count += 2 * (plain & KNIGHT_MASK).bit_count() + (plain & JACK_MASK).bit_count()
    for suit_mask in SUIT_MASKS:
        held = plain & suit_mask
        length = held.bit_count()
        if held & KING_MASK and held & QUEEN_MASK:
            count += 1
        if length >= 5:
            count += 5 if length == 5 else 7 if length == 6 else 9
        if trumps >= 4:
            count += 6 if length == 0 else 3 if length == 1 else 0
    return count * HAND_SIZES[4] / HAND_SIZES[players]


def contract_for_count(count: float, thresholds: Sequence[float] = BID_THRESHOLDS) -> Contract | None:
    """The contract the count is worth, or None (pass)."""
    chosen: Contract | None = None
    for contract, threshold in zip(Contract, thresholds, strict=True):
        if count >= threshold:
            chosen = contract
    return chosen


EVIDENCE_WIDTH: Final = 5.0
"""Softness of a bid as evidence: a logistic of (count − threshold) / width."""
EVIDENCE_FLOOR: Final = 0.05


def _logistic(value: float) -> float:
    if value < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value))


def bid_likelihood(count: float, bid: Contract | None) -> float:
    """How likely a player of this count makes ``bid`` (None: pass), under the usual thresholds, smoothed."""
    reach = [_logistic((count - threshold) / EVIDENCE_WIDTH) for threshold in BID_THRESHOLDS] + [0.0]
    if bid is None:
        probability = 1.0 - reach[0]
    else:
        strength = bid.strength
        probability = reach[strength] - reach[strength + 1]
    return max(EVIDENCE_FLOOR, probability)


def habit_ecart(hand: int, eligible: int, size: int, max_trumps: int) -> tuple[int, ...]:
    """An écart that makes voids and keeps kings: whole short kingless suits first, then their best cards.

    ``hand`` is the taker's hand with the chien, ``eligible`` the cards that may go (no king,
    no bout); trumps only as forced, the lowest first.
    """
    chosen = 0
    room = size
    plain = eligible & PLAIN_MASK
    kingless = [suit for suit in range(4) if plain & SUIT_MASKS[suit] and not hand & SUIT_MASKS[suit] & KING_MASK]
    for suit in sorted(kingless, key=lambda suit: ((hand & SUIT_MASKS[suit]).bit_count(), suit)):
        cards = plain & SUIT_MASKS[suit]
        if cards.bit_count() <= room:
            chosen |= cards
            room -= cards.bit_count()
    rest = plain & ~chosen
    while room and rest:
        card = min(
            cards_in(rest),
            key=lambda card: ((hand & ~chosen & SUIT_MASKS[SUIT_INDEX[card]]).bit_count(), -HALF_POINTS[card], -card),
        )
        chosen |= 1 << card
        rest &= ~(1 << card)
        room -= 1
    trumps = cards_in(eligible & TRUMP_MASK)
    while room and trumps:
        chosen |= 1 << trumps.pop(0)
        room -= 1
    assert (chosen & TRUMP_MASK).bit_count() <= max_trumps
    return tuple(cards_in(chosen))


def habit_call(hand: int, callable_cards: Sequence[int]) -> int:
    """The card to call at five: one not held, in the suit where the hand holds the most, its queen first."""
    not_held = [card for card in callable_cards if not hand >> card & 1] or list(callable_cards)

    def strength(card: int) -> tuple[int, int, int]:
        suit_mask = SUIT_MASKS[SUIT_INDEX[card]]
        held = hand & suit_mask
        return (1 if held & QUEEN_MASK else 0, held.bit_count(), -card)

    return max(not_held, key=strength)
