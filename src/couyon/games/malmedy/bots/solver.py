"""Exact solver of a Malmedy deal's play with every hand known: bitmasks, alpha-beta, transposition table.

A position is four hand masks (indexed by seat), the trump suit and whether a mite
was announced (the *trump mask*: the trump suit, the queen of clubs, and the queen of
spades after a mite; ``couyon.games.malmedy.game``), the seat that led the trick in progress and
the cards already on it. Play is free (ruling 7): lead anything; holding the led suit,
play one of it or any trump; void in it, play anything; a trump lead asks for trump.
The blind is in no hand and counts for nobody.

The deal's result is ordinal (rulings 9 and 10): the choosing team makes it with
strictly more card points, and a team that wins all five tricks (*capot*) erases one
line more. The solver's value, for North–South, is

    Z = NS card points − WE card points + CAPOT × [NS took every trick] − CAPOT × [WE took every trick]

with ``CAPOT`` larger than all the points, so that NS's capot > NS wins on points >
WE wins on points > WE's capot is a non-decreasing function of Z, and the minimax of
any line value of the deal is that value of the minimax Z. A search returns the part
of Z still to come: the points of the tricks left, plus the capot term when the team
that won every trick so far also takes the rest (the *alive* bits say which team may
still be capot: bit 0 NS, bit 1 WE; a bit left out at the root is a capot that does
not matter and is never scored). Searching inside a window (``alpha``, ``beta``) is
fail-soft, so null-window searches around the thresholds of the result (the sign of
the points and the capot) settle each card for the chalk (``card_outcomes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from couyon.common.cardsets import top_down
from couyon.games.couyon.cards import DECK_SIZE
from couyon.games.couyon.cards import RANKS_PER_SUIT as _RANKS_PER_SUIT
from couyon.games.couyon.cards import SUIT_MASKS as _SUIT_MASKS
from couyon.games.couyon.rules import CARD_POINTS as _CARD_POINTS
from couyon.games.malmedy.rules import strength, trump_mask

# The tables the search reads are Final here: compiled (scripts/compile.py), a Final name is a C static read
# directly, where an imported or plain global is a dictionary lookup on every node.
RANKS_PER_SUIT: Final = 6
assert RANKS_PER_SUIT == _RANKS_PER_SUIT
SUIT_MASKS: Final[tuple[int, ...]] = _SUIT_MASKS
CARD_POINTS: Final[tuple[int, ...]] = _CARD_POINTS
CAPOT: Final = 100
"""Weight of a capot in the solver's value: more than all the card points (40)."""
CAPOT_THRESHOLD: Final = 60
"""NS took every trick exactly when Z ≥ 60 (otherwise |Z| ≤ 40); WE did exactly when Z ≤ −60."""
_INFINITY: Final = 1000
_NINES: Final = sum(1 << (suit * RANKS_PER_SUIT) for suit in range(4))
"""The nine of each suit: a nine held with the ten of its suit is the same card for the play (both 0 points,
nothing between them), so the search tries only the ten."""
_SUIT_CHUNK: Final = (1 << RANKS_PER_SUIT) - 1
_POINTS_OF_CHUNK: Final = tuple(
    sum(CARD_POINTS[rank] for rank in range(RANKS_PER_SUIT) if chunk >> rank & 1)
    for chunk in range(1 << RANKS_PER_SUIT)
)

MADE_CAPOT, MADE, FAILED, FAILED_CAPOT = 3, 2, 1, 0
"""Outcome classes of a deal for the choosing team, best first: made with all five tricks, made, failed (the
couille), failed with the other team capot."""

TranspositionTable = dict[int, tuple[int, int]]


class TrickRules(NamedTuple):
    """The tables the search reads, for one trump suit with or without the mite."""

    trumps: int
    follow: tuple[int, int, int, int]
    """By led (effective) suit: the cards that follow it (for the trump suit: every trump)."""
    counts: tuple[int, int, int, int]
    """By led suit: the cards that can win a trick led in it (that suit's cards and every trump)."""
    suit_of: tuple[int, ...]
    """Effective suit of each card."""
    key: tuple[int, ...]
    """Each card's rank among the cards that can win: 100 + strength for a trump, the strength otherwise."""
    beats: tuple[int, ...]
    """For each card winning a trick, the cards that would beat it (its suit's stronger cards, and the trumps)."""


def trick_rules(trump: int, mite: bool) -> TrickRules:
    trumps = trump_mask(trump, mite)
    plain = [SUIT_MASKS[suit] & ~trumps for suit in range(4)]
    follow = list(plain)
    follow[trump] = trumps
    counts = [mask | trumps for mask in plain]
    suit_of = tuple(trump if trumps >> card & 1 else card // RANKS_PER_SUIT for card in range(DECK_SIZE))
    key = tuple((100 if trumps >> card & 1 else 0) + strength(card, trump, mite) for card in range(DECK_SIZE))
    beats = tuple(
        sum(1 << other for other in range(DECK_SIZE) if counts[suit_of[card]] >> other & 1 and key[other] > key[card])
        for card in range(DECK_SIZE)
    )
    return TrickRules(
        trumps,
        (follow[0], follow[1], follow[2], follow[3]),
        (counts[0], counts[1], counts[2], counts[3]),
        suit_of,
        key,
        beats,
    )


_RULES: Final = {(trump, mite): trick_rules(trump, mite) for trump in range(4) for mite in (False, True)}


def rules_for(trump: int, mite: bool) -> TrickRules:
    return _RULES[trump, mite]


def points_of(mask: int) -> int:
    """Card points of a set of cards."""
    return (
        _POINTS_OF_CHUNK[mask & _SUIT_CHUNK]
        + _POINTS_OF_CHUNK[mask >> RANKS_PER_SUIT & _SUIT_CHUNK]
        + _POINTS_OF_CHUNK[mask >> 2 * RANKS_PER_SUIT & _SUIT_CHUNK]
        + _POINTS_OF_CHUNK[mask >> 3 * RANKS_PER_SUIT]
    )


def legal_mask(hand: int, led: int, rules: TrickRules) -> int:
    """Free play (ruling 7) with ``led`` the led effective suit, or −1 for a lead."""
    if led < 0:
        return hand
    following = hand & rules.follow[led]
    return following | hand & rules.trumps if following else hand


class SearchAborted(Exception):
    """The search reached its node limit before settling the question (the caller drops that deal)."""


class Search:
    """One deal's search: its rules, its transposition table (valid for these hands only) and its node count.

    ``node_limit`` bounds the work: past it, the next trick start raises ``SearchAborted``,
    so a caller can keep a decision's cost bounded without reading a clock. The four search functions are
    methods of this (compiled: native) class, with the rules' tables as attributes, so that their mutual
    recursion is direct C calls; as closures sharing a ``nonlocal`` count, mypyc compiled them as Python-level
    callables.
    """

    def __init__(self, rules: TrickRules, node_limit: int = 1 << 62) -> None:
        self.rules = rules
        self.table: TranspositionTable = {}
        self.node_limit = node_limit
        self.visited = 0
        """Search nodes so far (the positions at the trick's last card, and every ``play`` call)."""
        self.killers = [0] * 8
        """By cards in hand: the last lead that cut a search off, tried first at the next lead."""
        self.trumps = rules.trumps
        # Variable-length tuples here: compiled, a fixed-length tuple[int, int, int, int] is a C struct, which
        # indexing by a variable boxes into a new tuple every time.
        self.follow: tuple[int, ...] = rules.follow
        self.counts: tuple[int, ...] = rules.counts
        self.suit_of = rules.suit_of
        self.key_of = rules.key
        self.beats = rules.beats

    def nodes(self) -> int:
        return self.visited

    def last_trick(self, h0: int, h1: int, h2: int, h3: int, leader: int, alive: int) -> int:
        """Value for NS of the last trick, one card in each hand (``h0`` the leader's, then in playing order)."""
        key_of = self.key_of
        card = h0.bit_length() - 1
        led_counts = self.counts[self.suit_of[card]]
        best_key = key_of[card]
        winner = leader
        points = CARD_POINTS[card]
        card = h1.bit_length() - 1
        points += CARD_POINTS[card]
        if led_counts >> card & 1 and key_of[card] > best_key:
            best_key, winner = key_of[card], leader + 1
        card = h2.bit_length() - 1
        points += CARD_POINTS[card]
        if led_counts >> card & 1 and key_of[card] > best_key:
            best_key, winner = key_of[card], leader + 2
        card = h3.bit_length() - 1
        points += CARD_POINTS[card]
        if led_counts >> card & 1 and key_of[card] > best_key:
            winner = leader + 3
        if winner & 1:
            return -points - CAPOT if alive & 2 else -points
        return points + CAPOT if alive & 1 else points

    def start(self, hands: Sequence[int], leader: int, alive: int, alpha: int, beta: int) -> int:
        """``trick_start`` of hands indexed by seat."""
        return self.trick_start(
            hands[leader],
            hands[(leader + 1) & 3],
            hands[(leader + 2) & 3],
            hands[(leader + 3) & 3],
            leader,
            alive,
            alpha,
            beta,
        )

    def trick_start(self, h0: int, h1: int, h2: int, h3: int, leader: int, alive: int, alpha: int, beta: int) -> int:
        """Value for NS of the tricks left, from the start of a trick, with bounds kept per (cards left, leader).

        The hands are ints in playing order from the leader (``h0`` the leader's), not a list: a list stores
        each changed hand as a new Python int object, where ints passed along are C values once compiled.
        """
        if (h0 & (h0 - 1)) == 0:
            return self.last_trick(h0, h1, h2, h3, leader, alive)
        if self.visited > self.node_limit:
            raise SearchAborted
        left = h0 | h1 | h2 | h3
        table = self.table
        at_stake = (
            _POINTS_OF_CHUNK[left & 63]
            + _POINTS_OF_CHUNK[left >> 6 & 63]
            + _POINTS_OF_CHUNK[left >> 12 & 63]
            + _POINTS_OF_CHUNK[left >> 18]
        )
        # The tricks left move the value by at most their points (and a capot still alive).
        high = at_stake + CAPOT if alive & 1 else at_stake
        if high <= alpha:
            return high
        low = -at_stake - CAPOT if alive & 2 else -at_stake
        if low >= beta:
            return low
        key = left << 4 | leader << 2 | alive
        bounds = table.get(key)
        if bounds is not None:
            lower, upper = bounds
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
        else:
            lower, upper = -_INFINITY, _INFINITY
        value = self.trick(h0, h1, h2, h3, leader, alive, alpha, beta)
        if value <= alpha:
            table[key] = (lower, value)
        elif value >= beta:
            table[key] = (value, upper)
        else:
            table[key] = (value, value)
        return value

    def trick(self, h0: int, h1: int, h2: int, h3: int, leader: int, alive: int, alpha: int, beta: int) -> int:
        """Value for NS of a whole trick from its lead and every trick after it: the four plays as nested loops.

        Inside the trick values are for the leader's team (positions 0 and 2 maximise,
        1 and 3 minimise), converted to NS's at the next trick start.
        """
        trumps, follow, suit_of, beats, killers = self.trumps, self.follow, self.suit_of, self.beats, self.killers
        ns_leads = not leader & 1
        if ns_leads:
            a0, b0 = alpha, beta
            own_alive, other_alive = alive & 1, alive & 2
        else:
            a0, b0 = -beta, -alpha
            own_alive, other_alive = alive & 2, alive & 1
        final = h0 & (h0 - 1) == 0
        """This trick is the deal's last."""
        last = h0 & (h0 - 1) & ((h0 & (h0 - 1)) - 1) == 0
        """After this trick one card is left in each hand: the next trick is settled directly."""
        best0 = -_INFINITY
        legal0 = h0 ^ (h0 & h0 >> 1 & _NINES)
        size = h0.bit_count()
        killer = killers[size] & legal0
        # Each seat tries its cards in two groups, in turn (two names, not a tuple: compiled, a tuple of two masks
        # is three objects allocated per node); the killer lead first, then the others.
        first0, then0 = killer, legal0 ^ killer
        for turn0 in range(2):
            group0 = first0 if turn0 == 0 else then0
            while group0:
                c0 = group0.bit_length() - 1
                bit0 = 1 << c0
                group0 ^= bit0
                n0 = h0 ^ bit0
                led = suit_of[c0]
                led_follow = follow[led]
                p0 = CARD_POINTS[c0]
                beats0 = beats[c0]
                # Position 1 (the other team) minimises.
                best1 = _INFINITY
                b1 = b0
                following = h1 & led_follow
                legal1 = following | h1 & trumps if following else h1
                legal1 ^= legal1 & legal1 >> 1 & _NINES
                winners1 = legal1 & beats0
                first1, then1 = winners1, legal1 ^ winners1
                for turn1 in range(2):
                    group1 = first1 if turn1 == 0 else then1
                    while group1:
                        c1 = group1.bit_length() - 1
                        bit1 = 1 << c1
                        group1 ^= bit1
                        if beats0 >> c1 & 1:
                            high1, position1 = c1, 1
                        else:
                            high1, position1 = c0, 0
                        n1 = h1 ^ bit1
                        p1 = p0 + CARD_POINTS[c1]
                        beats1 = beats[high1]
                        # Position 2 (the leader's partner) maximises.
                        best2 = -_INFINITY
                        a2 = a0
                        following = h2 & led_follow
                        legal2 = following | h2 & trumps if following else h2
                        legal2 ^= legal2 & legal2 >> 1 & _NINES
                        winners2 = legal2 & beats1
                        if position1:
                            first2, then2 = winners2, legal2 ^ winners2
                        else:
                            first2, then2 = legal2 ^ winners2, winners2
                        for turn2 in range(2):
                            group2 = first2 if turn2 == 0 else then2
                            while group2:
                                c2 = group2.bit_length() - 1
                                bit2 = 1 << c2
                                group2 ^= bit2
                                if beats1 >> c2 & 1:
                                    high2, position2 = c2, 2
                                else:
                                    high2, position2 = high1, position1
                                n2 = h2 ^ bit2
                                p2 = p1 + CARD_POINTS[c2]
                                beats2 = beats[high2]
                                # Position 3 (the other team) minimises.
                                best3 = _INFINITY
                                b3 = b1
                                following = h3 & led_follow
                                legal3 = following | h3 & trumps if following else h3
                                legal3 ^= legal3 & legal3 >> 1 & _NINES
                                winners3 = legal3 & beats2
                                if position2 & 1:
                                    first3, then3 = legal3 ^ winners3, winners3
                                else:
                                    first3, then3 = winners3, legal3 ^ winners3
                                for turn3 in range(2):
                                    group3 = first3 if turn3 == 0 else then3
                                    while group3:
                                        c3 = group3.bit_length() - 1
                                        bit3 = 1 << c3
                                        group3 ^= bit3
                                        self.visited += 1
                                        gained = p2 + CARD_POINTS[c3]
                                        position3 = 3 if beats2 >> c3 & 1 else position2
                                        if position3 & 1:
                                            gained = -gained
                                            winner_alive = other_alive
                                        else:
                                            winner_alive = own_alive
                                        n3 = h3 ^ bit3
                                        if final:
                                            value = gained
                                            if winner_alive:
                                                value += CAPOT if position3 & 1 == 0 else -CAPOT
                                        else:
                                            # The next trick's hands, in playing order from its leader.
                                            if position3 == 0:
                                                r0, r1, r2, r3 = n0, n1, n2, n3
                                            elif position3 == 1:
                                                r0, r1, r2, r3 = n1, n2, n3, n0
                                            elif position3 == 2:
                                                r0, r1, r2, r3 = n2, n3, n0, n1
                                            else:
                                                r0, r1, r2, r3 = n3, n0, n1, n2
                                            winner = (leader + position3) & 3
                                            if last:
                                                after = self.last_trick(r0, r1, r2, r3, winner, winner_alive)
                                            elif ns_leads:
                                                after = self.trick_start(
                                                    r0, r1, r2, r3, winner, winner_alive, a2 - gained, b3 - gained
                                                )
                                            else:
                                                after = self.trick_start(
                                                    r0, r1, r2, r3, winner, winner_alive, gained - b3, gained - a2
                                                )
                                            # ``after`` is for NS, ``gained`` and ``value`` for the leader's team.
                                            value = gained + after if ns_leads else gained - after
                                        if value < best3:
                                            best3 = value
                                            if value < b3:
                                                b3 = value
                                                if a2 >= b3:
                                                    break
                                    else:
                                        continue
                                    break
                                if best3 > best2:
                                    best2 = best3
                                    if best3 > a2:
                                        a2 = best3
                                        if a2 >= b1:
                                            break
                            else:
                                continue
                            break
                        if best2 < best1:
                            best1 = best2
                            if best2 < b1:
                                b1 = best2
                                if a0 >= b1:
                                    break
                    else:
                        continue
                    break
                if best1 > best0:
                    best0 = best1
                    if best1 > a0:
                        a0 = best1
                        if a0 >= b0:
                            killers[size] = bit0
                            break
            else:
                continue
            break
        return best0 if ns_leads else -best0

    def play(
        self,
        hands: list[int],
        leader: int,
        position: int,
        led: int,
        high: int,
        high_position: int,
        points: int,
        alive: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Value for NS of the trick in progress (``position`` cards on it, ``high`` winning it) and every trick after."""
        self.visited += 1
        trumps, follow, suit_of, beats = self.trumps, self.follow, self.suit_of, self.beats
        seat = (leader + position) & 3
        hand = hands[seat]
        maximizing = seat & 1 == 0
        best = -_INFINITY if maximizing else _INFINITY
        if position == 0:
            legal = hand ^ (hand & hand >> 1 & _NINES)
            groups: tuple[int, ...] = (legal,)
        else:
            following = hand & follow[led]
            legal = following | hand & trumps if following else hand
            legal ^= legal & legal >> 1 & _NINES
            winners = legal & beats[high]
            # An opponent winning the trick: try to beat it first; the partner winning: try the other cards first.
            groups = (winners, legal ^ winners) if (high_position - position) & 1 else (legal ^ winners, winners)
        for group in groups:
            while group:
                card = group.bit_length() - 1
                bit = 1 << card
                group ^= bit
                if position == 0:
                    new_led, new_high, new_position = suit_of[card], card, 0
                elif beats[high] >> card & 1:
                    new_led, new_high, new_position = led, card, position
                else:
                    new_led, new_high, new_position = led, high, high_position
                hands[seat] = hand ^ bit
                if position == 3:
                    # The trick is complete: settle it here rather than one call deeper.
                    gained = points + CARD_POINTS[card]
                    if (leader + new_position) & 1:
                        winner_alive = alive & 2
                        gained = -gained
                    else:
                        winner_alive = alive & 1
                    winner = (leader + new_position) & 3
                    if hands[0]:
                        value = gained + self.start(hands, winner, winner_alive, alpha - gained, beta - gained)
                    elif winner_alive:
                        value = gained + CAPOT if winner_alive == 1 else gained - CAPOT
                    else:
                        value = gained
                else:
                    value = self.play(
                        hands,
                        leader,
                        position + 1,
                        new_led,
                        new_high,
                        new_position,
                        points + CARD_POINTS[card],
                        alive,
                        alpha,
                        beta,
                    )
                hands[seat] = hand
                if maximizing:
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                return best
                elif value < best:
                    best = value
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            return best
        return best


class Position(NamedTuple):
    """A Malmedy position with every hand known."""

    hands: tuple[int, int, int, int]
    """Cards still held, by seat."""
    trump: int
    mite: bool
    leader: int
    trick: tuple[int, ...]
    """Cards on the table in the trick in progress, from the leader."""
    ns_lead: int
    """Card points NS won minus WE won in the completed tricks."""
    alive: int
    """Which team may still be capot and whose capot matters: bit 0 NS, bit 1 WE (0: capot ignored)."""


def alive_bits(tricks_won: tuple[int, int]) -> int:
    """Which team has won every completed trick (both before the first trick ends): bit 0 NS, bit 1 WE."""
    ns, we = tricks_won
    return (1 if we == 0 else 0) | (2 if ns == 0 else 0)


def _trick_state(trick: Sequence[int], rules: TrickRules) -> tuple[int, int, int, int]:
    """Led suit, the card winning the trick in progress, its position and the points laid on it."""
    if not trick:
        return -1, 0, 0, 0
    led = rules.suit_of[trick[0]]
    high, high_position = trick[0], 0
    points = 0
    for position, card in enumerate(trick):
        points += CARD_POINTS[card]
        if rules.beats[high] >> card & 1:
            high, high_position = card, position
    return led, high, high_position, points


def legal_of(position: Position) -> int:
    """The cards the seat to move may play in ``position``."""
    rules = rules_for(position.trump, position.mite)
    seat = (position.leader + len(position.trick)) & 3
    led = rules.suit_of[position.trick[0]] if position.trick else -1
    return legal_mask(position.hands[seat], led, rules)


def new_search(position: Position, node_limit: int = 1 << 62) -> Search:
    """A fresh search for the deal of ``position`` (its table is valid for these hands only)."""
    return Search(rules_for(position.trump, position.mite), node_limit)


def root_value(search: Search, position: Position, card: int | None, alpha: int, beta: int) -> int:
    """The value still to come for NS (``ns_lead`` not included) after the seat to move plays ``card``
    (or of the position itself with ``card`` None): fail-soft in (``alpha``, ``beta``)."""
    hands = list(position.hands)
    trick = position.trick
    if card is not None:
        hands[(position.leader + len(trick)) & 3] ^= 1 << card
        trick = (*trick, card)
    if not trick:
        if not hands[0]:
            return 0
        return search.start(hands, position.leader, position.alive, alpha, beta)
    led, high, high_position, points = _trick_state(trick, search.rules)
    if len(trick) < 4:
        return search.play(
            hands, position.leader, len(trick), led, high, high_position, points, position.alive, alpha, beta
        )
    winner = (position.leader + high_position) & 3
    if winner & 1:
        gained, alive = -points, position.alive & 2
    else:
        gained, alive = points, position.alive & 1
    if not hands[0]:
        return gained + (CAPOT if alive == 1 else -CAPOT if alive == 2 else 0)
    return gained + search.start(hands, winner, alive, alpha - gained, beta - gained)


def exact_values(position: Position) -> dict[int, int]:
    """For each legal card, the exact value still to come for NS (full window): for tests and analysis."""
    search = new_search(position)
    return {card: root_value(search, position, card, -_INFINITY, _INFINITY) for card in top_down(legal_of(position))}


def outcome_of(z: int, chooser_team: int) -> int:
    """The outcome class, for the choosing team, of a final value Z (``ns_lead`` included)."""
    if z >= CAPOT_THRESHOLD:
        return MADE_CAPOT if chooser_team == 0 else FAILED_CAPOT
    if z <= -CAPOT_THRESHOLD:
        return FAILED_CAPOT if chooser_team == 0 else MADE_CAPOT
    made = z > 0 if chooser_team == 0 else z < 0
    return MADE if made else FAILED


def classify(search: Search, position: Position, card: int | None, chooser_team: int) -> int:
    """The outcome class for the choosing team with perfect play, after ``card`` (or of the position).

    One null-window search around the points threshold (NS wins the deal with Z ≥ 1
    when NS chose trump, with Z ≥ 0 otherwise), then, only when the deal's winner may
    still be capot (``position.alive``) and the first bound does not settle it, one
    around the capot threshold. The transposition table is shared by every search of
    this deal: its bounds hold whatever the window.
    """
    lead = position.ns_lead
    threshold = (1 if chooser_team == 0 else 0) - lead
    value = root_value(search, position, card, threshold - 1, threshold)
    if value >= threshold:
        capot = CAPOT_THRESHOLD - lead
        if position.alive & 1 and value < capot:
            value = root_value(search, position, card, capot - 1, capot)
        return outcome_of(CAPOT_THRESHOLD if value >= capot else threshold + lead, chooser_team)
    capot = -CAPOT_THRESHOLD - lead
    if position.alive & 2 and value > capot:
        value = root_value(search, position, card, capot, capot + 1)
    return outcome_of(-CAPOT_THRESHOLD if value <= capot else threshold - 1 + lead, chooser_team)


def card_outcomes(
    position: Position, chooser_team: int, search: Search | None = None, cards: int = (1 << DECK_SIZE) - 1
) -> dict[int, int]:
    """For each legal card of the seat to move (among ``cards``), the outcome class for the choosing team with
    perfect play."""
    search = search or new_search(position)
    return {card: classify(search, position, card, chooser_team) for card in top_down(legal_of(position) & cards)}


def position_outcome(position: Position, chooser_team: int, search: Search | None = None) -> int:
    """The outcome class for the choosing team of ``position`` with perfect play by all."""
    return classify(search or new_search(position), position, None, chooser_team)
