"""Thousands of random tarot deals at 3, 4 and 5 players, checked against a naive model written from the contract.

The model below works on card codes (strings) and lists, imports nothing of the engine's
rules, and says for any move whether the contract allows it, who wins a trick and what a
played deal scores. Every position of every random game is checked for the move played;
one position in ``PROBE_ONE_IN`` is probed with every listed move and a batch of junk moves
(any seat, any action, random écarts and poignées): the engine accepts exactly what the
model allows.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from tests.games.tarot.helpers import random_move

from couyon.common.errors import CouyonError
from couyon.common.stream import Stream
from couyon.games.tarot.cards import CARD_CODES, SEATS_OF, cards_of
from couyon.games.tarot.game import (
    CARD,
    GameState,
    Move,
    Outcome,
    Phase,
    is_over,
    legal_moves,
    new_game,
    play,
)

GAMES = {3: 340, 4: 260, 5: 210}
"""Games per player count: each holds n played deals, so 1,000 or more played deals at each count."""
PROBE_ONE_IN = 20

# --- the naive model: cards as codes


def suit(code: str) -> str | None:
    return None if code == "EX" else code[-1]


def rank(code: str) -> int:
    if code.endswith("T"):
        return int(code[:-1])
    return ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"].index(code[:-1])


def is_trump(code: str) -> bool:
    return suit(code) == "T"


BOUTS = {"1T", "21T", "EX"}
VALUE = {"K": 9, "Q": 7, "N": 5, "J": 3}


def half_points(code: str) -> int:
    if code in BOUTS:
        return 9
    return 1 if is_trump(code) else VALUE.get(code[:-1], 1)


def naive_legal(hand: list[str], trick: list[str], forbidden_suit: str | None, called: str | None) -> set[str]:
    """Contract, "Legal cards", read literally."""
    if not trick:
        if forbidden_suit is None:
            return set(hand)
        return {card for card in hand if suit(card) != forbidden_suit or card == called}
    led_cards = [card for card in trick if card != "EX"]
    if not led_cards:
        return set(hand)
    led = suit(led_cards[0])
    excuse = {"EX"} & set(hand)
    if led != "T":
        following = {card for card in hand if suit(card) == led}
        if following:
            return following | excuse
    trumps = [card for card in hand if is_trump(card)]
    if not trumps:
        return set(hand)
    best = max((rank(card) for card in trick if is_trump(card)), default=0)
    higher = {card for card in trumps if rank(card) > best}
    return (higher or set(trumps)) | excuse


def naive_winner(trick: list[str], excuse_wins: bool) -> int:
    if excuse_wins and trick[0] == "EX":
        return 0
    trumps = [index for index, card in enumerate(trick) if is_trump(card)]
    if trumps:
        return max(trumps, key=lambda index: rank(trick[index]))
    led = next(suit(card) for card in trick if card != "EX")
    return max((index for index, card in enumerate(trick) if suit(card) == led), key=lambda index: rank(trick[index]))


def callable_cards(dealt: list[str]) -> set[str]:
    allowed = {f"K{s}" for s in "CDHS"}
    for held, then in (("K", "Q"), ("Q", "N"), ("N", "J")):
        if not all(f"{held}{s}" in dealt for s in "CDHS"):
            break
        allowed |= {f"{then}{s}" for s in "CDHS"}
    return allowed


SIZES = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
STRENGTH = {"petite": 0, "garde": 1, "garde-sans": 2, "garde-contre": 3}


def naive_allowed(state: GameState, move: Move) -> bool:
    """Whether the contract allows ``move`` now, from the public facts of the position."""
    if is_over(state):
        return False
    deal = state.deal
    seats = list(SEATS_OF[state.players])
    if move.seat not in seats:
        return False
    seat = seats.index(move.seat)
    hand = [CARD_CODES[card] for card in cards_of(deal.hands[seat])]
    listed = [CARD_CODES[card] for card in move.cards]
    action = move.action
    nothing_played = not deal.tricks and not deal.trick and not deal.poignees and not deal.miseres
    if action == "chelem":
        return deal.phase is Phase.PLAYING and seat == deal.taker and nothing_played and not deal.chelem_announced
    if seat != deal.to_move:
        return False
    if action in ("pass", *STRENGTH):
        if deal.phase is not Phase.BIDDING:
            return False
        return action == "pass" or all(bid is None or STRENGTH[bid.value] < STRENGTH[action] for _, bid in deal.bids)
    if action == "call":
        dealt = [CARD_CODES[card] for card in cards_of(deal.dealt[seat])]
        return deal.phase is Phase.CALL and listed[0] in callable_cards(dealt)
    if action == "ecart":
        size = 3 if state.players == 5 else 6
        others = [card for card in hand if not is_trump(card) and card != "EX" and card[0] != "K"]
        return (
            deal.phase is Phase.ECART
            and len(listed) == size
            and len(set(listed)) == size
            and set(listed) <= set(hand)
            and not any(card in BOUTS or card.startswith("K") for card in listed)
            and sum(is_trump(card) for card in listed) <= max(0, size - len(others))
        )
    if deal.phase is not Phase.PLAYING:
        return False
    if action == CARD:
        card = listed[0]
        first_card = not deal.tricks and not deal.trick and state.players == 5
        called = None if deal.called is None else CARD_CODES[deal.called]
        forbidden = suit(called) if first_card and called else None
        trick = [CARD_CODES[card] for card in deal.trick]
        return card in hand and card in naive_legal(hand, trick, forbidden, called)
    if deal.tricks:
        return False
    if action == "poignee":
        trumps = [card for card in hand if is_trump(card)]

        # At five the camps as the table knows them at each poignée: the taker, and the partner
        # only once the called card lies on the table before that seat's turn.
        def known_attack(who: int) -> bool:
            before = deal.trick[: (who - deal.leader) % state.players]
            return who == deal.taker or (who == deal.partner and deal.called in before)

        shown_by_camp = any(known_attack(who) == known_attack(seat) for who, _, _ in deal.poignees)
        return (
            len(listed) in SIZES[state.players]
            and len(set(listed)) == len(listed)
            and set(listed) <= set(hand)
            and all(is_trump(card) or card == "EX" for card in listed)
            and ("EX" not in listed or set(trumps) <= set(listed))
            and not shown_by_camp
        )
    if action == "misere-atout":
        return (seat, "atout") not in [(who, str(kind)) for who, kind in deal.miseres] and not any(
            is_trump(card) for card in hand
        )
    if action == "misere-tete":
        return (seat, "tete") not in [(who, str(kind)) for who, kind in deal.miseres] and not any(
            card[:-1] in ("J", "N", "Q", "K") for card in hand if not is_trump(card) and card != "EX"
        )
    return False


def naive_score(state: GameState, summary: Any) -> None:
    """Check a played deal's cards, tricks and score against the contract's steps 1 to 9."""
    players = state.players
    seats = list(SEATS_OF[players])
    taker = seats.index(summary.taker)
    partner = None if summary.partner is None else seats.index(summary.partner)
    attack = {taker, partner} - {None}
    # Every card once: the tricks with the écart (petite, garde) or the chien.
    in_tricks = [CARD_CODES[card] for trick in summary.tricks for card in trick.cards]
    aside = summary.ecart if summary.ecart is not None else summary.chien
    assert sorted(in_tricks + [CARD_CODES[card] for card in aside]) == sorted(CARD_CODES)
    assert len(summary.tricks) == {3: 24, 4: 18, 5: 15}[players]
    attack_points = defence_points = 0
    attack_cards: list[str] = []
    leader = None
    winners_attack = []
    for index, trick in enumerate(summary.tricks):
        start = seats.index(trick.leader)
        if leader is not None:
            assert start == leader, "the winner of a trick leads the next"
        cards = [CARD_CODES[card] for card in trick.cards]
        assert len(cards) == players
        last = index == len(summary.tricks) - 1
        leader_attacks = start in attack
        excuse_wins = last and all(won == leader_attacks for won in winners_attack)
        winner = (start + naive_winner(cards, excuse_wins)) % players
        assert seats[winner] == trick.winner
        winner_attacks = winner in attack
        winners_attack.append(winner_attacks)
        for offset, card in enumerate(cards):
            player_attacks = (start + offset) % players in attack
            if card == "EX" and not last:
                keeper = player_attacks
                value = 9
                if player_attacks != winner_attacks:
                    value -= 1
                    if winner_attacks:
                        attack_points += 1
                    else:
                        defence_points += 1
            else:
                keeper, value = winner_attacks, half_points(card)
            if keeper:
                attack_points += value
                attack_cards.append(card)
            else:
                defence_points += value
        leader = winner
    contract = summary.contract.value
    aside_codes = [CARD_CODES[card] for card in aside]
    if contract in ("petite", "garde", "garde-sans"):
        attack_points += sum(half_points(card) for card in aside_codes)
        attack_cards += aside_codes
    else:
        defence_points += sum(half_points(card) for card in aside_codes)
    assert attack_points + defence_points == 182, "91 points in every played deal"
    result = summary.result
    bouts = len(BOUTS & set(attack_cards))
    needed = (56, 51, 41, 36)[bouts]
    assert (result.marque.half_points, result.marque.bouts, result.marque.needed) == (attack_points, bouts, needed)
    made = attack_points >= 2 * needed
    margin = -(-abs(attack_points - 2 * needed) // 2)
    multiplier = {"petite": 1, "garde": 2, "garde-sans": 4, "garde-contre": 6}[contract]
    marque = (25 + margin) * multiplier * (1 if made else -1)
    last_cards = [CARD_CODES[card] for card in summary.tricks[-1].cards]
    excuse_won_last = last_cards[0] == "EX" and summary.tricks[-1].winner == summary.tricks[-1].leader
    petit = None
    if "1T" in last_cards:
        petit = winners_attack[-1]
    elif excuse_won_last and "1T" in [CARD_CODES[card] for card in summary.tricks[-2].cards]:
        petit = winners_attack[-2]
    if petit is not None:
        marque += (10 if petit else -10) * multiplier
    primes = sum(poignee.prime for poignee in summary.poignees)
    marque += primes if made else -primes
    chelem = "attack" if all(winners_attack) else "defence" if not any(winners_attack) else None
    if chelem == "attack":
        marque += 400 if summary.chelem_announced else 200
    elif summary.chelem_announced:
        marque -= 200
    if chelem == "defence":
        marque -= 200
    assert result.marque.marque == marque
    assert (None if petit is None else ("attack" if petit else "defence")) == (
        None if result.petit_au_bout is None else str(result.petit_au_bout)
    )
    assert chelem == (None if result.chelem is None else str(result.chelem))
    scores = [-marque] * players
    if partner is None:
        scores[taker] = (players - 1) * marque
    else:
        scores[taker], scores[partner] = 2 * marque, marque
    for who, _ in summary.miseres:
        scores = [score + (10 * (players - 1) if seats[i] == who else -10) for i, score in enumerate(scores)]
    assert list(result.scores) == scores and sum(scores) == 0


# --- random moves to probe with


def junk_moves(state: GameState, chooser: Stream) -> list[Move]:
    """A few moves of every kind, most of them wrong: any seat, any action, random cards."""
    seats = SEATS_OF[state.players]
    junk: list[Move] = []
    for _ in range(6):
        seat = chooser.choice(seats)
        kind = chooser.uniform(8)
        card = cards_of(1 << chooser.uniform(78))[0]
        if kind == 0:
            junk.append(Move(seat, chooser.choice(("pass", "petite", "garde", "garde-sans", "garde-contre"))))
        elif kind == 1:
            junk.append(Move(seat, "call", (card,)))
        elif kind in (2, 3):
            hand = list(cards_of(state.deal.hands[seats.index(seat)])) or [card]
            chooser.shuffle(hand)
            size = chooser.choice((3, 6, 8, 10, 13, 15, 18))
            pool = [c for c in hand if c.is_trump or c == 77] if kind == 3 and chooser.uniform(2) else hand
            junk.append(Move(seat, "ecart" if kind == 2 else "poignee", tuple(pool[:size])))
        elif kind == 4:
            junk.append(Move(seat, chooser.choice(("chelem", "misere-atout", "misere-tete"))))
        else:
            hand = cards_of(state.deal.hands[seats.index(seat)])
            junk.append(Move(seat, CARD, (chooser.choice(hand) if hand and kind != 7 else card,)))
    return junk


def accepts(state: GameState, move: Move) -> bool:
    try:
        play(state, move)
    except CouyonError:
        return False
    return True


def check_position(state: GameState, chooser: Stream) -> None:
    listed = legal_moves(state)
    for move in listed:
        assert naive_allowed(state, move), f"listed but not allowed: {move}"
    for move in (*listed, *junk_moves(state, chooser)):
        assert accepts(state, move) == naive_allowed(state, move), f"{move} at {state.deal.phase}"
    if state.deal.phase is Phase.PLAYING:
        # Every card of the seat to move: accepted exactly when the model says so.
        seat = SEATS_OF[state.players][state.deal.to_move or 0]
        for card in cards_of(state.deal.hands[state.deal.to_move or 0]):
            move = Move(seat, CARD, (card,))
            assert (move in listed) == naive_allowed(state, move)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_follow_the_contract(players: int) -> None:
    """Properties over >1,000 played deals at each count: the 78 cards once, 91 points, scores summing to zero,
    the n-th played deal ending the game, no illegal move accepted and no legal one refused."""
    played_deals = 0
    seen: set[str] = set()
    for number in range(GAMES[players]):
        seed = f"simulation-{players}-{number}"
        chooser = Stream(seed, "random-play")
        state = new_game(seed, players)
        while not is_over(state):
            if chooser.uniform(PROBE_ONE_IN) == 0:
                check_position(state, chooser)
            move = random_move(state, chooser)
            assert naive_allowed(state, move), move
            seen.add(move.action)
            state = play(state, move)
        totals = [0] * players
        for deal in state.deal_log:
            if deal.outcome is Outcome.PLAYED:
                played_deals += 1
                naive_score(state, deal)
                assert deal.result is not None
                totals = [total + score for total, score in zip(totals, deal.result.scores, strict=True)]
            elif deal.outcome is Outcome.PETIT_SEC:
                assert deal.petit_sec and deal.bids == ()
            else:
                assert deal.outcome is Outcome.REDEAL and all(bid is None for _, bid in deal.bids)
                assert len(deal.bids) == players
        assert state.played == players and list(state.totals) == totals and sum(totals) == 0
        assert [deal.number for deal in state.deal_log] == list(range(1, len(state.deal_log) + 1))
        dealers = [SEATS_OF[players].index(deal.dealer) for deal in state.deal_log]
        assert all(b == (a + 1) % players for a, b in itertools.pairwise(dealers))
    assert played_deals >= 1000
    # Poignées and misères are rare in random hands (at three, 13 trumps in 24 cards); hand-built tests cover them.
    expected = {"pass", "petite", "garde", "garde-sans", "garde-contre", "ecart", "chelem", CARD}
    assert expected <= seen and ("call" in seen) == (players == 5)
