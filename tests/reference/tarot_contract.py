"""The ``tarot-record/1`` verifier written again, from tarot-record-format.md (and the rulings it restates) only.

Like ``reference.contract`` it shares nothing with ``couyon``: cards are strings, hands are
lists, the game is one loop over the moves (``replay``; the loop's body is ``TarotGame.play``
so that a random player can move one step at a time). From ``reference.contract``, itself
independent, it borrows only the random stream and the strict JSON reading.

Besides ``verify_tarot`` it offers what the tests need to drive it: ``legal_moves_after``
(the legal moves of a position; écarts and poignées through ``ecart_allowed`` and
``poignee_allowed``, there are too many to list), ``random_game`` (random legal choices drawn
from the contract stream, never ``random``) and ``mutated`` (a record with one fault).
"""

from __future__ import annotations

import json
from typing import Any

from reference.contract import ContractStream, Refusal, _no_constant, _no_duplicate_keys

FORMAT = "tarot-record/1"
SEATS_OF = {3: ("S", "W", "E"), 4: ("S", "W", "N", "E"), 5: ("S", "W", "NW", "NE", "E")}
ALL_SEATS = ("S", "W", "N", "E", "NW", "NE")
SUITS = ("C", "D", "H", "S")
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
DECK = [rank + suit for suit in SUITS for rank in RANKS] + [f"{number}T" for number in range(1, 22)] + ["EX"]
INDEX = {card: index for index, card in enumerate(DECK)}
BOUTS = ("1T", "21T", "EX")
FACES = ("J", "N", "Q", "K")
BIDS = ("pass", "petite", "garde", "garde-sans", "garde-contre")
MULTIPLIER = {"petite": 1, "garde": 2, "garde-sans": 4, "garde-contre": 6}
NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}
POIGNEE_SIZES = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
PRIMES = (20, 30, 40)
ECART_SIZE = {3: 6, 4: 6, 5: 3}
ANNOUNCEMENTS = ("misere-atout", "misere-tete")
SIMPLE_ACTIONS = (*BIDS, *(f"call:{card}" for card in DECK), "chelem", *ANNOUNCEMENTS, *DECK)
"""Every action but the écart and the poignée (which name a set of cards): bids, calls, announcements, cards."""


def all_move_texts(players: int) -> list[str]:
    """Every readable ``SEAT:ACTION`` of ``SIMPLE_ACTIONS`` for the seats of ``players``."""
    return [f"{seat}:{action}" for seat in SEATS_OF[players] for action in SIMPLE_ACTIONS]


# --- cards


def canonical(cards: Any) -> list[str]:
    """``cards`` in the deck's order (every list of cards in a report is)."""
    return sorted(cards, key=INDEX.__getitem__)


def is_trump(card: str) -> bool:
    """``1T``–``21T``; the Excuse is not a trump."""
    return card.endswith("T")


def suit_of(card: str) -> str | None:
    """``C``, ``D``, ``H``, ``S``, ``T`` for trumps, None for the Excuse."""
    return None if card == "EX" else card[-1]


def strength(card: str) -> int:
    """A trump's number, a suit card's rank from 1 (as) to 14 (roi)."""
    return int(card[:-1]) if is_trump(card) else RANKS.index(card[:-1]) + 1


def half_points(card: str) -> int:
    """Bouts and kings 9, queens 7, knights 5, jacks 3, every other card 1."""
    if card in BOUTS:
        return 9
    return {"K": 9, "Q": 7, "N": 5, "J": 3}.get(card[:-1], 1) if not is_trump(card) else 1


def dealt_deck(seed: str, number: int) -> list[str]:
    """Deal ``number``'s deck: Fisher–Yates from the canonical order on ``stream(seed, "deal:" + number)``."""
    deck = list(DECK)
    stream = ContractStream(seed, "deal:" + str(number))
    for i in range(77, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def left_of(seat: str, seats: tuple[str, ...], places: int = 1) -> str:
    return seats[(seats.index(seat) + places) % len(seats)]


def deal_hands(deck: list[str], dealer: str, seats: tuple[str, ...]) -> tuple[dict[str, list[str]], list[str]]:
    """Packet q (positions 3q–3q+2) to the seat (q mod n) + 1 places left of the dealer; the rest is the chien."""
    packets = 25 if len(seats) == 5 else 24
    hands: dict[str, list[str]] = {seat: [] for seat in seats}
    for q in range(packets):
        hands[left_of(dealer, seats, q % len(seats) + 1)] += deck[3 * q : 3 * q + 3]
    return hands, deck[3 * packets :]


def petit_sec(hand: list[str]) -> bool:
    """The Petit as the only trump, without the Excuse."""
    return [card for card in hand if is_trump(card)] == ["1T"] and "EX" not in hand


def callable_cards(hand: list[str]) -> list[str]:
    """Kings; queens with the four kings; knights with four kings and queens; jacks with all three."""
    cards = []
    for rank in ("K", "Q", "N", "J"):
        cards += [rank + suit for suit in SUITS]
        if not all(rank + suit in hand for suit in SUITS):
            break
    return canonical(cards)


def allowed(hand: list[str], table: list[str], called: str | None = None) -> list[str]:
    """Cards of ``hand`` that may go onto the trick ``table``; ``called`` only for the deal's first lead at five."""
    if not table:
        if called is None:
            return canonical(hand)
        return canonical(card for card in hand if suit_of(card) != suit_of(called) or card == called)
    led = next((suit_of(card) for card in table if card != "EX"), None)
    if led is None:
        return canonical(hand)
    excuse = ["EX"] if "EX" in hand else []
    if led != "T":
        of_led = [card for card in hand if suit_of(card) == led]
        if of_led:
            return canonical(of_led + excuse)
    trumps = [card for card in hand if is_trump(card)]
    if not trumps:
        return canonical(hand)
    top = max((strength(card) for card in table if is_trump(card)), default=0)
    over = [card for card in trumps if strength(card) > top]
    return canonical((over or trumps) + excuse)


def trick_winner(table: list[str], excuse_wins: bool) -> int:
    """Index in ``table`` of the winning card: ``excuse_wins`` is the last trick's exception (Excuse led)."""
    if excuse_wins:
        return 0
    trumps = [(strength(card), index) for index, card in enumerate(table) if is_trump(card)]
    if trumps:
        return max(trumps)[1]
    led = next(suit_of(card) for card in table if card != "EX")
    return max((strength(card), index) for index, card in enumerate(table) if suit_of(card) == led)[1]


# --- scoring


def score_deal(
    seats: tuple[str, ...],
    taker: str,
    partner: str | None,
    contract: str,
    points: int,
    bouts: int,
    petit_au_bout: str | None,
    primes: list[int],
    chelem_announced: bool,
    chelem: str | None,
    miseres: list[str],
) -> dict[str, Any]:
    """Steps 2 to 9 of "Scoring a played deal", from the attack's ``points`` in half points; every number."""
    needed = NEEDED[bouts]
    made = points >= 2 * needed
    margin = (abs(points - 2 * needed) + 1) // 2
    multiplier = MULTIPLIER[contract]
    contract_points = (25 + margin) * multiplier * (1 if made else -1)
    petit = {"attack": 10 * multiplier, "defence": -10 * multiplier, None: 0}[petit_au_bout]
    poignees = sum(primes) * (1 if made else -1)
    chelem_points = 0
    if chelem == "attack":
        chelem_points += 400 if chelem_announced else 200
    elif chelem_announced:
        chelem_points -= 200
    if chelem == "defence":
        chelem_points -= 200
    marque = contract_points + petit + poignees + chelem_points
    n = len(seats)
    scores = {seat: -marque for seat in seats}
    if partner is None:
        scores[taker] = (n - 1) * marque
    else:
        scores[taker] = 2 * marque
        scores[partner] = marque
    for announcer in miseres:
        for seat in seats:
            scores[seat] += 10 * (n - 1) if seat == announcer else -10
    return {
        "needed": needed,
        "result": "made" if made else "failed",
        "margin": margin,
        "contract_points": contract_points,
        "petit_au_bout_points": petit,
        "poignee_points": poignees,
        "chelem_points": chelem_points,
        "marque": marque,
        "scores": scores,
    }


def points_value(half: int) -> int | float:
    """P / 2 as the report writes it: whole, or ending in .5."""
    return half // 2 if half % 2 == 0 else half / 2


# --- the game


class Deal:
    """One deal as dealt from the seed, and what happened in it so far."""

    def __init__(self, seed: str, number: int, dealer: str, seats: tuple[str, ...]) -> None:
        self.seats = seats
        self.n = len(seats)
        self.number = number
        self.dealer = dealer
        self.deck = dealt_deck(seed, number)
        self.hands, self.chien = deal_hands(self.deck, dealer, seats)
        self.dealt = {seat: list(hand) for seat, hand in self.hands.items()}
        self.tricks_in_deal = len(self.hands[dealer])
        self.bids: list[str] = []
        self.phase = "bidding"  # then "call", "ecart", "play", "over"
        self.turn = left_of(dealer, seats)
        self.taker: str | None = None
        self.contract: str | None = None
        self.called: str | None = None
        self.partner: str | None = None
        self.ecart: list[str] | None = None
        self.chelem_open = False
        self.chelem_announced = False
        self.poignees: list[dict[str, Any]] = []
        self.miseres: list[dict[str, str]] = []
        self.leader = ""
        self.table: list[str] = []
        self.tricks: list[tuple[str, list[str], str, bool]] = []  # leader, cards, winner, won by the Excuse
        self.outcome: str | None = None
        self.scoring: dict[str, Any] | None = None
        if any(petit_sec(hand) for hand in self.hands.values()):
            self.outcome = "petit-sec"
            self.phase = "over"

    def attack(self, seat: str) -> bool:
        return seat in (self.taker, self.partner)

    def camp(self, seat: str) -> str:
        return "attack" if self.attack(seat) else "defence"

    def known_camp(self, seat: str) -> str:
        """The camp of ``seat`` as the table knows it now (the one poignée per camp): the taker, and at
        five the called card's holder once that card has been played, against every other seat."""
        played = any(self.called in cards for _, cards, _, _ in self.tricks) or self.called in self.table
        return "attack" if seat == self.taker or (seat == self.partner and played) else "defence"

    def announced(self, seat: str, kind: str) -> bool:
        if kind == "poignee":
            return any(shown["seat"] == seat for shown in self.poignees)
        return any(misere == {"seat": seat, "kind": kind} for misere in self.miseres)

    def first_trick_turn(self) -> bool:
        """Announcements: during the first trick, at the seat's turn (before its card)."""
        return self.phase == "play" and not self.tricks

    def first_lead_call(self) -> str | None:
        """The called card while the deal's first card is due (at five), else None."""
        return self.called if self.phase == "play" and not self.tricks and not self.table else None

    def entry(self) -> dict[str, Any]:
        scoring = self.scoring or {}
        return {
            "number": self.number,
            "dealer": self.dealer,
            "bids": list(self.bids),
            "outcome": self.outcome,
            "taker": self.taker,
            "contract": self.contract,
            "called": self.called,
            "partner": self.partner,
            "chien": canonical(self.chien),
            "ecart": None if self.ecart is None else canonical(self.ecart),
            "chelem_announced": self.chelem_announced,
            "poignees": [{"seat": p["seat"], "cards": list(p["cards"]), "prime": p["prime"]} for p in self.poignees],
            "miseres": [dict(misere) for misere in self.miseres],
            "bouts": scoring.get("bouts"),
            "points": scoring.get("points"),
            "needed": scoring.get("needed"),
            "result": scoring.get("result"),
            "margin": scoring.get("margin"),
            "petit_au_bout": scoring.get("petit_au_bout"),
            "chelem": scoring.get("chelem"),
            "marque": scoring.get("marque"),
            "scores": None if self.scoring is None else dict(scoring["scores"]),
        }

    # --- checks that raise nothing: the rules as predicates

    def ecart_problem(self, cards: list[str]) -> str | None:
        """Why ``cards`` cannot be the taker's écart now, or None."""
        assert self.taker is not None
        hand = self.hands[self.taker]
        size = ECART_SIZE[self.n]
        if len(cards) != size:
            return f"an écart names exactly {size} cards"
        if len(set(cards)) != len(cards):
            return "an écart names each card once"
        for card in cards:
            if card not in hand:
                return f"the taker does not hold {card}"
            if card in BOUTS or (card[:-1] == "K" and not is_trump(card)):
                return f"{card} may not be discarded (no king, no bout)"
        others = [card for card in hand if not is_trump(card) and card != "EX" and card[:-1] != "K"]
        if sum(is_trump(card) for card in cards) > max(0, size - len(others)):
            return "a trump may be discarded only when too few other cards can be"
        return None

    def poignee_problem(self, seat: str, cards: list[str]) -> str | None:
        """Why ``seat`` cannot show ``cards`` as its poignée now, or None."""
        hand = self.hands[seat]
        if len(cards) not in POIGNEE_SIZES[self.n]:
            sizes = ", ".join(str(size) for size in POIGNEE_SIZES[self.n])
            return f"a poignée at {self.n} players shows {sizes} cards"
        if len(set(cards)) != len(cards):
            return "a poignée shows each card once"
        for card in cards:
            if card not in hand:
                return f"{seat} does not hold {card}"
            if not is_trump(card) and card != "EX":
                return f"{card} is neither a trump nor the Excuse"
        if "EX" in cards and any(is_trump(card) and card not in cards for card in hand):
            return "the Excuse may be shown only with every trump of the hand"
        if any(shown["camp"] == self.known_camp(seat) for shown in self.poignees):
            return "this camp, as the table knows it, already showed a poignée"
        return None

    def misere_holds(self, seat: str, kind: str) -> bool:
        return self.misere_holds_hand(self.hands[seat], kind)

    @staticmethod
    def misere_holds_hand(hand: list[str], kind: str | None = None) -> bool:
        """Misère d'atout: no trump (EX allowed); de tête: no J, N, Q, K; ``None``: either."""
        if kind is None:
            return Deal.misere_holds_hand(hand, "atout") or Deal.misere_holds_hand(hand, "tete")
        if kind == "atout":
            return not any(is_trump(card) for card in hand)
        return not any(not is_trump(card) and card != "EX" and card[:-1] in FACES for card in hand)


def parse_cards(text: str) -> list[str] | None:
    """A comma-separated list of card codes, or None when any part is not a card."""
    cards = text.split(",")
    return cards if all(card in INDEX for card in cards) else None


class TarotGame:
    """A whole game from its seed: deal 1 (after any petit-sec deals) at once, each move one call to ``play``."""

    def __init__(self, seed: str, players: int) -> None:
        self.seed = seed
        self.players = players
        self.seats = SEATS_OF[players]
        self.totals = {seat: 0 for seat in self.seats}
        self.played = 0
        self.log: list[Deal] = []
        self._deal(1, self.seats[ContractStream(seed, "dealer").uniform(players)])

    @property
    def deal(self) -> Deal:
        return self.log[-1]

    @property
    def finished(self) -> bool:
        return self.played == self.players

    def _deal(self, number: int, dealer: str) -> None:
        while True:
            deal = Deal(self.seed, number, dealer, self.seats)
            self.log.append(deal)
            if deal.outcome != "petit-sec":
                return
            number, dealer = number + 1, left_of(dealer, self.seats)

    def _next_deal(self) -> None:
        if not self.finished:
            self._deal(self.deal.number + 1, left_of(self.deal.dealer, self.seats))

    def play(self, index: int, move: Any) -> None:
        """Apply move number ``index`` of a record, or raise ``Refusal`` naming it (changing nothing)."""
        if self.finished:
            raise Refusal("the game is over: no move may follow the last card of the last deal", index)
        if not isinstance(move, str) or ":" not in move:
            raise Refusal("a move must be a string SEAT:ACTION", index)
        seat, action = move.split(":", 1)
        if seat not in self.seats:
            raise Refusal(f"there is no seat {seat!r} at {self.players} players", index)
        deal = self.deal
        if deal.phase == "bidding":
            self._bid(deal, index, seat, action)
        elif deal.phase == "call":
            self._call(deal, index, seat, action)
        elif deal.phase == "ecart":
            self._ecart(deal, index, seat, action)
        else:
            self._play(deal, index, seat, action)

    def _bid(self, deal: Deal, index: int, seat: str, action: str) -> None:
        if seat != deal.turn:
            raise Refusal(f"it is {deal.turn}'s turn to bid", index)
        if action not in BIDS:
            raise Refusal("during the bidding a seat says pass, petite, garde, garde-sans or garde-contre", index)
        made = [bid.split(":")[1] for bid in deal.bids]
        if action != "pass" and any(BIDS.index(action) <= BIDS.index(bid) for bid in made):
            raise Refusal(f"{action} is not above every earlier bid", index)
        deal.bids.append(f"{seat}:{action}")
        deal.turn = left_of(seat, self.seats)
        if len(deal.bids) < self.players:
            return
        best = max(range(self.players), key=lambda i: BIDS.index(deal.bids[i].split(":")[1]))
        if deal.bids[best].endswith(":pass"):
            deal.outcome = "redeal"
            deal.phase = "over"
            self._next_deal()
            return
        deal.taker, deal.contract = deal.bids[best].split(":")
        deal.turn = deal.taker
        if self.players == 5:
            deal.phase = "call"
        else:
            self._after_call(deal)

    def _after_call(self, deal: Deal) -> None:
        assert deal.taker is not None
        if deal.contract in ("petite", "garde"):
            deal.phase = "ecart"
            deal.hands[deal.taker] = deal.hands[deal.taker] + deal.chien
        else:
            self._start_play(deal)

    def _start_play(self, deal: Deal) -> None:
        assert deal.taker is not None
        deal.phase = "play"
        deal.chelem_open = True
        deal.leader = deal.turn = left_of(deal.taker, self.seats)

    def _call(self, deal: Deal, index: int, seat: str, action: str) -> None:
        assert deal.taker is not None
        if seat != deal.taker:
            raise Refusal(f"the taker {deal.taker} must call a card", index)
        card = action[5:] if action.startswith("call:") else None
        if card is None:
            raise Refusal("at five players the taker first calls a card (call:CARD)", index)
        if card not in callable_cards(deal.dealt[seat]):
            raise Refusal(f"{card} may not be called: a king, or a lower figure once all those above are held", index)
        deal.called = card
        deal.partner = next((other for other in self.seats if other != seat and card in deal.dealt[other]), None)
        self._after_call(deal)

    def _ecart(self, deal: Deal, index: int, seat: str, action: str) -> None:
        assert deal.taker is not None
        if seat != deal.taker:
            raise Refusal(f"the taker {deal.taker} must make his écart", index)
        cards = parse_cards(action[6:]) if action.startswith("ecart:") else None
        if cards is None:
            raise Refusal("the taker must now discard: ecart: then the cards, comma-separated", index)
        problem = deal.ecart_problem(cards)
        if problem is not None:
            raise Refusal(problem, index)
        deal.ecart = list(cards)
        deal.hands[seat] = [card for card in deal.hands[seat] if card not in cards]
        self._start_play(deal)

    def _play(self, deal: Deal, index: int, seat: str, action: str) -> None:
        if action == "chelem":
            if not (deal.chelem_open and seat == deal.taker):
                raise Refusal("only the taker announces a chelem, right after the bidding, call or écart", index)
            deal.chelem_open = False
            deal.chelem_announced = True
            deal.leader = deal.turn = seat
            return
        if seat != deal.turn:
            raise Refusal(f"it is {deal.turn}'s turn to play", index)
        if action in ANNOUNCEMENTS or action.startswith("poignee:"):
            self._announce(deal, index, seat, action)
            deal.chelem_open = False
            return
        if action not in INDEX:
            raise Refusal(f"{action!r} is not a card, a bid or an announcement of this contract", index)
        hand = deal.hands[seat]
        if action not in hand:
            raise Refusal(f"{seat} does not hold {action}", index)
        if action not in allowed(hand, deal.table, deal.first_lead_call()):
            raise Refusal(f"{action} may not be played on this trick", index)
        deal.chelem_open = False
        hand.remove(action)
        deal.table.append(action)
        deal.turn = left_of(seat, self.seats)
        if len(deal.table) == self.players:
            self._end_trick(deal)

    def _announce(self, deal: Deal, index: int, seat: str, action: str) -> None:
        if not deal.first_trick_turn():
            raise Refusal("announcements are made only during the first trick", index)
        if action.startswith("poignee:"):
            cards = parse_cards(action[8:])
            if cards is None:
                raise Refusal("a poignée is poignee: then the cards, comma-separated", index)
            if deal.announced(seat, "poignee"):
                raise Refusal(f"{seat} already showed a poignée", index)
            problem = deal.poignee_problem(seat, cards)
            if problem is not None:
                raise Refusal(problem, index)
            prime = PRIMES[POIGNEE_SIZES[self.players].index(len(cards))]
            # Each poignée counts for the camp its seat was known to hold when it was shown.
            deal.poignees.append(
                {"seat": seat, "cards": canonical(cards), "prime": prime, "camp": deal.known_camp(seat)}
            )
            return
        kind = action.split("-")[1]
        if deal.announced(seat, kind):
            raise Refusal(f"{seat} already announced this misère", index)
        if not deal.misere_holds(seat, kind):
            raise Refusal(f"{seat}'s hand is no misère " + ("d'atout" if kind == "atout" else "de tête"), index)
        deal.miseres.append({"seat": seat, "kind": kind})

    def _end_trick(self, deal: Deal) -> None:
        last = len(deal.tricks) + 1 == deal.tricks_in_deal
        leader_camp = deal.camp(deal.leader)
        all_won = all(deal.camp(winner) == leader_camp for _, _, winner, _ in deal.tricks)
        excuse_wins = last and deal.table[0] == "EX" and all_won
        winner = left_of(deal.leader, self.seats, trick_winner(deal.table, excuse_wins))
        deal.tricks.append((deal.leader, list(deal.table), winner, excuse_wins))
        deal.table = []
        deal.leader = deal.turn = winner
        if last:
            self._score(deal)

    def _score(self, deal: Deal) -> None:
        assert deal.taker is not None and deal.contract is not None
        cards = {"attack": [], "defence": []}  # type: dict[str, list[str]]
        half = {"attack": 0, "defence": 0}
        for number, (leader, table, winner, _) in enumerate(deal.tricks):
            won_by = deal.camp(winner)
            for offset, card in enumerate(table):
                player = left_of(leader, self.seats, offset)
                if card == "EX" and number + 1 < deal.tricks_in_deal:
                    own = deal.camp(player)
                    cards[own].append(card)
                    half[own] += 9
                    if own != won_by:
                        half[own] -= 1
                        half[won_by] += 1
                else:
                    cards[won_by].append(card)
                    half[won_by] += half_points(card)
        if deal.contract in ("petite", "garde"):
            rest, to = deal.ecart or [], "attack"
        else:
            rest, to = deal.chien, "attack" if deal.contract == "garde-sans" else "defence"
        cards[to] += rest
        half[to] += sum(half_points(card) for card in rest)
        assert half["attack"] + half["defence"] == 182
        bouts = sum(card in cards["attack"] for card in BOUTS)
        petit = None
        _, last_table, last_winner, excuse_won = deal.tricks[-1]
        if "1T" in last_table:
            petit = deal.camp(last_winner)
        elif excuse_won and "1T" in deal.tricks[-2][1]:
            petit = deal.camp(deal.tricks[-2][2])
        winners = {deal.camp(winner) for _, _, winner, _ in deal.tricks}
        chelem = winners.pop() if len(winners) == 1 else None
        numbers = score_deal(
            self.seats,
            deal.taker,
            deal.partner,
            deal.contract,
            half["attack"],
            bouts,
            petit,
            [shown["prime"] for shown in deal.poignees],
            deal.chelem_announced,
            chelem,
            [misere["seat"] for misere in deal.miseres],
        )
        deal.scoring = {
            "bouts": bouts,
            "points": points_value(half["attack"]),
            "petit_au_bout": petit,
            "chelem": chelem,
            **numbers,
        }
        deal.outcome = "played"
        deal.phase = "over"
        for seat in self.seats:
            self.totals[seat] += numbers["scores"][seat]
        self.played += 1
        self._next_deal()

    # --- what may be played now

    def legal(self) -> list[str]:
        """Every move of ``SIMPLE_ACTIONS`` that ``play`` accepts now; écarts and poignées are not listed
        (see ``ecart_allowed`` and ``poignee_allowed``). Empty once the game is over."""
        if self.finished:
            return []
        deal = self.deal
        seat = deal.turn
        if deal.phase == "bidding":
            made = [BIDS.index(bid.split(":")[1]) for bid in deal.bids]
            return [f"{seat}:{bid}" for i, bid in enumerate(BIDS) if i == 0 or i > max(made, default=0)]
        if deal.phase == "call":
            return [f"{seat}:call:{card}" for card in callable_cards(deal.dealt[seat])]
        if deal.phase == "ecart":
            return []
        moves = []
        if deal.chelem_open:
            moves.append(f"{deal.taker}:chelem")
        if deal.first_trick_turn():
            for kind in ("atout", "tete"):
                if not deal.announced(seat, kind) and deal.misere_holds(seat, kind):
                    moves.append(f"{seat}:misere-{kind}")
        hand = deal.hands[seat]
        moves += [f"{seat}:{card}" for card in allowed(hand, deal.table, deal.first_lead_call())]
        return moves

    def ecart_allowed(self, cards: list[str]) -> bool:
        return not self.finished and self.deal.phase == "ecart" and self.deal.ecart_problem(cards) is None

    def poignee_allowed(self, cards: list[str]) -> bool:
        deal = self.deal
        if self.finished or not deal.first_trick_turn() or deal.announced(deal.turn, "poignee"):
            return False
        return deal.poignee_problem(deal.turn, cards) is None

    def report(self) -> dict[str, Any]:
        return {
            "valid": True,
            "finished": self.finished,
            "players": self.players,
            "deals": self.deal.number,
            "played": self.played,
            "scores": dict(self.totals),
            "score": self.totals["S"] if self.finished else None,
            "deal_log": [deal.entry() for deal in self.log],
        }


def replay(seed: str, players: int, moves: list[Any]) -> TarotGame:
    """Play ``moves`` from the seed's first deal, or raise ``Refusal`` at the first faulty one."""
    game = TarotGame(seed, players)
    for index, move in enumerate(moves):
        game.play(index, move)
    return game


def legal_moves_after(seed: str, players: int, moves: list[str]) -> list[str]:
    """The ``SIMPLE_ACTIONS`` moves the rules allow after the (valid) ``moves`` of a record of ``seed``."""
    return replay(seed, players, moves).legal()


def check_shape(document: Any) -> tuple[str, int, list[Any]]:
    if not isinstance(document, dict):
        raise Refusal("a record is a JSON object")
    if document.get("format") != FORMAT:
        raise Refusal(f'the record\'s "format" must be "{FORMAT}"')
    players = document.get("players")
    if type(players) is not int or players not in SEATS_OF:
        raise Refusal('"players" must be the JSON integer 3, 4 or 5')
    seed = document.get("seed")
    if not isinstance(seed, str):
        raise Refusal('"seed" must be a string')
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal('"seed" has no UTF-8 form (a lone surrogate)') from None
    moves = document.get("moves")
    if not isinstance(moves, list):
        raise Refusal('"moves" must be a list')
    return seed, players, moves


def verify_tarot(data: str | bytes) -> dict[str, Any]:
    """The contract's verifier output for a ``tarot-record/1`` record (its bytes or its text)."""
    try:
        if isinstance(data, bytes):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise Refusal("the record is not UTF-8 text") from None
        else:
            text = data
        try:
            document = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise Refusal("the record is not JSON") from None
        seed, players, moves = check_shape(document)
        return replay(seed, players, moves).report()
    except Refusal as refusal:
        return {"valid": False, "error": str(refusal), "move": refusal.move}


def record(seed: Any, players: Any, moves: Any, **changes: Any) -> str:
    """A record's JSON text."""
    return json.dumps({"format": FORMAT, "players": players, "seed": seed, "moves": moves, **changes})


# --- random records


def _pick(chooser: ContractStream, options: list[Any]) -> Any:
    return options[chooser.uniform(len(options))]


def _sample(chooser: ContractStream, options: list[str], count: int) -> list[str]:
    """``count`` of ``options`` in a random order (partial Fisher–Yates on the stream)."""
    pool = list(options)
    for i in range(count):
        j = i + chooser.uniform(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:count]


def random_ecart(game: TarotGame, chooser: ContractStream) -> str:
    """A random legal écart, its cards in a random order: the trumps it must hold, then other discards."""
    deal = game.deal
    assert deal.taker is not None
    hand = deal.hands[deal.taker]
    size = ECART_SIZE[game.players]
    others = [card for card in hand if not is_trump(card) and card != "EX" and card[:-1] != "K"]
    trumps = [card for card in hand if is_trump(card) and card not in BOUTS]
    count = max(0, size - len(others))
    cards = _sample(chooser, trumps, count) + _sample(chooser, others, size - count)
    return f"{deal.taker}:ecart:" + ",".join(_sample(chooser, cards, size))


def random_poignee(game: TarotGame, chooser: ContractStream) -> str | None:
    """A random poignée the seat to play may show now (the Excuse among them when allowed), or None."""
    deal = game.deal
    seat = deal.turn
    if game.finished or not deal.first_trick_turn() or deal.announced(seat, "poignee"):
        return None
    hand = deal.hands[seat]
    trumps = [card for card in hand if is_trump(card)]
    options = []
    for size in POIGNEE_SIZES[game.players]:
        if len(trumps) >= size:
            options.append(_sample(chooser, trumps, size))
        if "EX" in hand and len(trumps) + 1 == size:
            options.append(_sample(chooser, [*trumps, "EX"], size))
    options = [cards for cards in options if game.poignee_allowed(cards)]
    return f"{seat}:poignee:" + ",".join(_pick(chooser, options)) if options else None


def random_game(
    seed: str, players: int, label: str = "tarot-random-play", max_moves: int = 100_000, greedy: bool = False
) -> list[str]:
    """A whole game of random legal moves drawn from ``stream(seed, label)`` (never ``random``).

    Half the bids pass, the others take the lowest contract allowed or, one time in two, any
    higher one; the écart's cards come in a random order; a chelem is announced one time in
    four; a poignée, a misère is made three times in four when the hand allows it. ``greedy``
    makes the attack play its strongest legal card and the defence its weakest (cards are still
    drawn at random one time in eight): lopsided deals, the Excuse kept by the attack to the end.
    """
    chooser = ContractStream(seed, label)
    game = TarotGame(seed, players)
    moves: list[str] = []
    while len(moves) < max_moves and not game.finished:
        deal = game.deal
        options = game.legal()
        move: str | None = None
        if deal.phase == "bidding":
            takes = options[1:]
            if not takes or chooser.uniform(2) == 0:
                move = options[0]
            else:
                move = takes[0] if chooser.uniform(2) == 0 else _pick(chooser, takes)
        elif deal.phase == "ecart":
            move = random_ecart(game, chooser)
        elif deal.phase == "call":
            move = _pick(chooser, options)
        else:
            chelem = [option for option in options if option.endswith(":chelem")]
            announcements = [option for option in options if ":misere-" in option]
            poignee = random_poignee(game, chooser)
            if poignee is not None:
                announcements.append(poignee)
            cards = [option for option in options if option.split(":")[1] in INDEX]
            if chelem and chooser.uniform(4) == 0:
                move = chelem[0]
            elif announcements and chooser.uniform(4) != 0:
                move = _pick(chooser, announcements)
            elif greedy and chooser.uniform(8) != 0:
                ordered = sorted(cards, key=lambda option: _power(option.split(":")[1]))
                move = ordered[-1] if deal.attack(deal.turn) else ordered[0]
            else:
                move = _pick(chooser, cards)
        game.play(len(moves), move)
        moves.append(move)
    return moves


def _power(card: str) -> int:
    """A rough playing strength: trumps above suit cards by rank; the Excuse weakest."""
    if card == "EX":
        return 0
    return 100 + strength(card) if is_trump(card) else strength(card)


# --- invalid records

MUTATIONS = (
    "card not held",
    "card forbidden",
    "bid not above",
    "bid out of place",
    "ecart with a king or bout",
    "ecart malformed",
    "ecart too many trumps",
    "poignee the hand cannot show",
    "poignee twice in a camp",
    "misere the hand does not have",
    "announcement after the first trick",
    "forbidden call",
    "chelem out of place",
    "wrong seat",
    "unknown seat",
    "move after the end",
    "non-string",
    "junk text",
    "dropped",
    "repeated",
    "swapped",
    "truncated",
)


def _game_before(seed: str, players: int, moves: list[str], where: int) -> TarotGame:
    """The game just before move ``where`` (after every move when ``where`` is their number)."""
    game = TarotGame(seed, players)
    for index, move in enumerate(moves[:where]):
        game.play(index, move)
    return game


def _fault(kind: str, game: TarotGame, chooser: ContractStream) -> str | None:
    """A move of fault ``kind`` for the position ``game``, or None when this position cannot have it."""
    if game.finished:
        return None
    deal = game.deal
    seats = game.seats
    seat = deal.turn
    card_due = deal.phase == "play"
    if kind == "card not held" and card_due:
        elsewhere = [card for card in DECK if card not in deal.hands[seat]]
        return f"{seat}:{_pick(chooser, elsewhere)}"
    if kind == "card forbidden" and card_due:
        held = deal.hands[seat]
        forbidden = [card for card in held if card not in allowed(held, deal.table, deal.first_lead_call())]
        return f"{seat}:{_pick(chooser, forbidden)}" if forbidden else None
    if kind == "bid not above" and deal.phase == "bidding":
        made = [BIDS.index(bid.split(":")[1]) for bid in deal.bids]
        if max(made, default=0) > 0:
            return f"{seat}:{BIDS[1 + chooser.uniform(max(made))]}"
    if kind == "bid out of place" and deal.phase != "bidding":
        return f"{seat}:{_pick(chooser, list(BIDS))}"
    if deal.phase == "ecart" and kind.startswith("ecart"):
        assert deal.taker is not None
        legal = random_ecart(game, chooser).split(":")[2].split(",")
        hand = deal.hands[deal.taker]
        if kind == "ecart with a king or bout":
            bad = [card for card in hand if card in BOUTS or card[:-1] == "K"] or ["KS"]
            legal[chooser.uniform(len(legal))] = _pick(chooser, bad)
        elif kind == "ecart malformed":
            variant = chooser.uniform(5)
            if variant == 0:
                legal = legal[:-1]
            elif variant == 1:
                legal.append(_pick(chooser, [card for card in hand if card not in legal]))
            elif variant == 2:
                legal[0] = legal[1]
            elif variant == 3:
                legal[0] = _pick(chooser, [card for card in DECK if card not in hand])
            else:
                return f"{deal.taker}:ecart:" + ", ".join(legal)
        else:
            trumps = [card for card in hand if is_trump(card) and card not in BOUTS and card not in legal]
            plain = [index for index, card in enumerate(legal) if not is_trump(card)]
            if not trumps or not plain:
                return None
            legal[_pick(chooser, plain)] = _pick(chooser, trumps)
        return f"{deal.taker}:ecart:" + ",".join(legal)
    if kind == "poignee the hand cannot show" and deal.first_trick_turn():
        hand = deal.hands[seat]
        trumps = [card for card in hand if is_trump(card)]
        sizes = POIGNEE_SIZES[game.players]
        variant = chooser.uniform(4)
        if variant == 0:  # one card too few
            cards = (trumps + [card for card in hand if not is_trump(card)])[: sizes[0] - 1]
        elif variant == 1:  # the right size, padded with cards of the hand that are not trumps
            cards = (trumps + [card for card in hand if not is_trump(card) and card != "EX"])[: sizes[0]]
        elif variant == 2:  # trumps of the deck the hand lacks
            cards = (trumps + [card for card in DECK if is_trump(card) and card not in hand])[: sizes[0]]
        else:  # the Excuse with one trump of the hand left out
            if "EX" not in hand or len(trumps) < sizes[0]:
                return None
            cards = [*trumps[: sizes[0] - 1], "EX"]
        if game.poignee_allowed(cards):
            return None
        return f"{seat}:poignee:" + ",".join(cards)
    if kind == "poignee twice in a camp" and deal.first_trick_turn() and deal.poignees:
        hand = deal.hands[seat]
        trumps = [card for card in hand if is_trump(card)]
        sizes = POIGNEE_SIZES[game.players]
        if len(trumps) >= sizes[0] and not game.poignee_allowed(trumps[: sizes[0]]):
            return f"{seat}:poignee:" + ",".join(trumps[: sizes[0]])
        return None
    if kind == "misere the hand does not have" and deal.first_trick_turn():
        wrong = [kind for kind in ("atout", "tete") if not deal.misere_holds(seat, kind)]
        return f"{seat}:misere-{_pick(chooser, wrong)}" if wrong else None
    if kind == "announcement after the first trick" and card_due and deal.tricks:
        hand = deal.hands[seat]
        trumps = [card for card in hand if is_trump(card)]
        sizes = POIGNEE_SIZES[game.players]
        if len(trumps) >= sizes[0] and chooser.uniform(2) == 0:
            return f"{seat}:poignee:" + ",".join(trumps[: sizes[0]])
        return f"{seat}:misere-{_pick(chooser, ['atout', 'tete'])}"
    if kind == "forbidden call" and deal.phase == "call":
        return f"{seat}:call:{_pick(chooser, [card for card in DECK if card not in callable_cards(deal.dealt[seat])])}"
    if kind == "chelem out of place":
        if deal.phase == "play" and not deal.chelem_open:
            return f"{deal.taker}:chelem"
        if deal.phase == "play" and deal.chelem_open:
            return f"{_pick(chooser, [other for other in seats if other != deal.taker])}:chelem"
        return f"{seat}:chelem"
    if kind == "wrong seat":
        options = game.legal() or [f"{seat}:pass"]
        action = _pick(chooser, options).split(":", 1)[1]
        others = [other for other in seats if other != seat and not (action == "chelem" and other == deal.taker)]
        return f"{_pick(chooser, others)}:{action}"
    if kind == "unknown seat":
        action = _pick(chooser, game.legal() or [f"{seat}:pass"]).split(":", 1)[1]
        return f"{_pick(chooser, [other for other in (*ALL_SEATS, 's', 'X', '') if other not in seats])}:{action}"
    if kind == "junk text":
        junk = [
            "S",
            "S:",
            "S:PASS",
            "S: pass",
            "S:pass ",
            "S:Garde",
            "S:1t",
            "S:ex",
            "S:ecart:",
            "S:poignee:",
            "S:call:",
            "S:call:K",
            "S:misere",
            "S:misere-atout,",
            "S:chelem:",
            "S:0T",
            "S:22T",
            "S:11S",
            ":EX",
        ]
        text = _pick(chooser, junk)
        return seat + text[1:] if text.startswith("S") else text
    return None


def mutated(
    seed: str, players: int, moves: list[str], chooser: ContractStream, kind: str | None = None
) -> tuple[str, list[Any], int | None]:
    """``moves`` with one fault of ``kind`` (by default a random one of ``MUTATIONS``) at a random place where
    that kind can be: the kind, the moves, and the index of the fault (None when merely truncated).

    The fault replaces the move at its place (or is appended); the moves after it are kept, so a fault
    that happens to be legal (a dropped, repeated or swapped move may be) leaves a record that goes
    wrong later, or not at all. A kind that no position allows falls back to a truncation.
    """
    if kind is None:
        kind = _pick(chooser, list(MUTATIONS))
    changed: list[Any] = list(moves)
    if kind == "move after the end":
        return kind, [*changed, _pick(chooser, [*changed[-3:], "S:pass", "S:EX"])], len(changed)
    if kind in ("dropped", "repeated", "swapped", "non-string") and len(changed) >= 2:
        where = chooser.uniform(len(changed) - 1)
        if kind == "dropped":
            del changed[where]
        elif kind == "repeated":
            changed.insert(where, changed[where])
            where += 1  # the copy is the second of the two
        elif kind == "swapped":
            changed[where], changed[where + 1] = changed[where + 1], changed[where]
        else:
            changed[where] = _pick(chooser, [None, 7, 1.5, True, ["S:pass"], {"S": "pass"}])
        return kind, changed, where
    if kind != "truncated":
        start = chooser.uniform(len(moves) + 1)
        for first in (start, 0):
            game = _game_before(seed, players, moves, first)
            for where in range(first, len(moves) + 1 if first == start else start):
                fault = _fault(kind, game, chooser)
                if fault is not None:
                    return kind, [*changed[:where], fault, *changed[where + 1 :]], where
                if where < len(moves):
                    game.play(where, moves[where])
    return "truncated", changed[: chooser.uniform(len(changed) + 1)], None
