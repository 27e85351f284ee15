"""The tarot fold, one test per ruling (tarot-rulings.md) on hand-built tables, citing the contract."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest
from tests.games.tarot.helpers import cards, held, moves, random_game, table

from couyon.common.errors import GameOverError, IllegalMoveError, InvalidMoveError, OutOfTurnError
from couyon.games.tarot.answers import tarot_view_json
from couyon.games.tarot.cards import CARDS, SEATS_OF, Card, Seat, Suit, cards_of, mask_of
from couyon.games.tarot.game import (
    CARD,
    CHELEM,
    GameState,
    Move,
    Outcome,
    Phase,
    callable_mask,
    ecart_rule,
    is_over,
    legal_card_mask,
    legal_cards,
    legal_moves,
    new_game,
    play,
    poignee_sizes,
    replay,
    to_move,
    trick_winner,
)
from couyon.games.tarot.scoring import Camp, Contract
from couyon.games.tarot.view import view

# --- helpers


def lowest_card(state: GameState) -> Move:
    return next(move for move in legal_moves(state) if move.action == CARD)


def play_out(state: GameState, script: Mapping[str, str] = {}) -> GameState:
    """Play the deal's cards to its end: each seat's scripted cards in order, then its lowest legal card."""
    planned = {Seat(seat): list(cards(codes)) for seat, codes in script.items()}
    number = state.deal.number
    while not is_over(state) and state.deal.number == number:
        seat = to_move(state)
        assert seat is not None
        move = Move(seat, CARD, (planned[seat].pop(0),)) if planned.get(seat) else lowest_card(state)
        state = play(state, move)
    return state


def refused(state: GameState, text: str, error: type[Exception] = IllegalMoveError) -> str:
    with pytest.raises(error) as caught:
        play(state, Move.parse(text, state.players))
    return str(caught.value)


def seat_names(players: int) -> list[str]:
    return [str(seat) for seat in SEATS_OF[players]]


# Four-player tables where S, the taker, ends up with trumps only and nobody else holds one.
ALL_TRUMPS = " ".join(f"{number}T" for number in range(6, 22))
TRUMPS_5_TO_21 = " ".join(f"{number}T" for number in range(5, 22))


def strong_south() -> GameState:
    """S holds 1T, 6T–21T and the Excuse; the chien 2T–5T 1C 2C: his écart must take four trumps."""
    return table(4, "E", {"S": f"1T {ALL_TRUMPS} EX"}, "2T 3T 4T 5T 1C 2C")


def strong_south_excuse_west() -> GameState:
    """S holds 1T, 4T–20T; W the Excuse; the chien 2T 3T 21T 1C 2C 3C (a bout: where it goes matters)."""
    trumps = " ".join(f"{number}T" for number in range(4, 21))
    return table(4, "E", {"S": f"1T {trumps}", "W": "EX"}, "2T 3T 21T 1C 2C 3C")


# --- ruling 1 and 2: the table and the dealer


@pytest.mark.parametrize(("players", "hand", "chien"), [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_table_sizes_and_seats(players: int, hand: int, chien: int) -> None:
    """Ruling 1: hands of 24 / 18 / 15, chien of 6 / 6 / 3; seats S W E, S W N E, S W NW NE E."""
    state = new_game("sizes", players)
    assert [held.bit_count() for held in state.deal.hands] == [hand] * players
    assert state.deal.chien.bit_count() == chien
    assert seat_names(players) == {3: ["S", "W", "E"], 4: ["S", "W", "N", "E"], 5: ["S", "W", "NW", "NE", "E"]}[players]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bidding_starts_left_of_the_dealer_and_turns_left(players: int) -> None:
    """Ruling 1 and 5: the bidding starts at the dealer's left, the dealer speaks last."""
    names = seat_names(players)
    for dealer in range(players):
        state = table(players, names[dealer], {})
        spoken = []
        for _ in range(players - 1):
            spoken.append(str(to_move(state)))
            state = moves(state, f"{to_move(state)}:pass")
        spoken.append(str(to_move(state)))
        assert spoken == [names[(dealer + k) % players] for k in range(1, players + 1)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_deal_passes_left_after_every_deal(players: int) -> None:
    """Ruling 2: after a played, passed-out or annulled deal, the next dealer is the left of the last."""
    state, _ = random_game(f"dealers-{players}", players)
    names = seat_names(players)
    dealers = [names.index(str(deal.dealer)) for deal in state.deal_log]
    assert all(later == (earlier + 1) % players for earlier, later in itertools.pairwise(dealers))
    assert [deal.number for deal in state.deal_log] == list(range(1, len(state.deal_log) + 1))


# --- ruling 4: petit sec


def petit_sec_seed(players: int) -> str:
    for number in range(10_000):
        seed = f"petit-sec-{number}"
        if new_game(seed, players).finished_deals:
            return seed
    raise AssertionError("no petit sec in 10,000 seeds")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_petit_sec_annuls_the_deal_before_the_bidding(players: int) -> None:
    """Ruling 4: the Petit as the only trump, without the Excuse, annuls the deal; the next dealer deals."""
    state = new_game(petit_sec_seed(players), players)
    annulled = state.finished_deals[0]
    assert annulled.outcome is Outcome.PETIT_SEC and annulled.bids == () and annulled.result is None
    assert annulled.petit_sec
    for _, hand in annulled.petit_sec:
        assert [card for card in hand if card.is_trump] == list(cards("1T")) and CARDS[77] not in hand
    names = seat_names(players)
    assert state.deal.number == len(state.finished_deals) + 1
    assert state.deal.dealer == (names.index(str(state.finished_deals[-1].dealer)) + 1) % players
    assert state.played == 0 and state.totals == (0,) * players


def test_petit_with_the_excuse_or_another_trump_is_not_sec() -> None:
    """Ruling 4: the Excuse, or a second trump, keeps the deal."""
    from couyon.games.tarot.game import has_petit_sec

    assert has_petit_sec(mask_of(cards("1T 1C KS")))
    assert not has_petit_sec(mask_of(cards("1T EX 1C")))
    assert not has_petit_sec(mask_of(cards("1T 2T 1C")))
    assert not has_petit_sec(mask_of(cards("2T 1C")))


# --- ruling 5 and 6: bidding, passed-out deals


def test_a_bid_must_be_higher_than_every_earlier_one() -> None:
    """Ruling 5: passe, petite, garde, garde sans, garde contre, each above every earlier bid."""
    state = moves(table(4, "E", {}), "S:garde")
    assert "higher than S's garde" in refused(state, "W:petite")
    assert "higher than S's garde" in refused(state, "W:garde")
    assert [str(move) for move in legal_moves(state)] == ["W:pass", "W:garde-sans", "W:garde-contre"]
    state = moves(state, "W:pass", "N:garde-contre")
    assert [str(move) for move in legal_moves(state)] == ["E:pass"]
    state = moves(state, "E:pass")
    assert state.deal.taker == 2 and state.deal.contract is Contract.GARDE_CONTRE
    # Garde contre: no call at four, no écart; the play begins at the taker's left.
    assert state.deal.phase is Phase.PLAYING and to_move(state) == Seat.E


def test_each_seat_speaks_once_and_a_card_cannot_be_played_while_bidding() -> None:
    """Ruling 5: one round; contract step 1: bids only."""
    state = table(4, "E", {})
    assert "the bidding comes first" in refused(state, f"S:{cards_of(state.deal.hands[0])[0]}")
    assert "turn" in refused(moves(state, "S:pass"), "S:petite", OutOfTurnError)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_all_pass_redeals_and_the_deal_does_not_count(players: int) -> None:
    """Ruling 5 and 6: if all pass the next dealer deals; the deal is numbered but not played."""
    state = table(players, seat_names(players)[0], {})
    for _ in range(players):
        state = moves(state, f"{to_move(state)}:pass")
    assert state.finished_deals[-1].outcome is Outcome.REDEAL
    assert state.deal.number >= 2 and state.played == 0 and state.totals == (0,) * players
    assert str(state.finished_deals[0].dealer) == seat_names(players)[0]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_is_n_played_deals(players: int) -> None:
    """Ruling 16: the game ends with the last card of the n-th played deal; nothing may follow."""
    state, _ = random_game(f"game-length-{players}", players)
    played = [deal for deal in state.deal_log if deal.outcome is Outcome.PLAYED]
    assert len(played) == players == state.played and state.deal_log[-1].outcome is Outcome.PLAYED
    assert is_over(state) and to_move(state) is None and legal_moves(state) == ()
    assert state.score == state.totals[0] and sum(state.totals) == 0
    with pytest.raises(GameOverError):
        play(state, Move(Seat.S, "pass"))


# --- ruling 7: the call at five


def five_player_taker(given: Mapping[str, str], chien: str = "", contract: str = "garde") -> GameState:
    """Five players, dealer E: S takes at ``contract``, the others pass; S is to call."""
    state = table(5, "E", given, chien)
    return moves(state, f"S:{contract}", "W:pass", "NW:pass", "NE:pass", "E:pass")


def test_the_taker_calls_a_king() -> None:
    """Ruling 7: any king; a queen only with the four kings."""
    state = five_player_taker({"S": "KC 1T 2T", "W": "KH"})
    assert state.deal.phase is Phase.CALL and to_move(state) == Seat.S
    assert [str(move) for move in legal_moves(state)] == ["S:call:KC", "S:call:KD", "S:call:KH", "S:call:KS"]
    assert "a queen may be called only" in refused(state, "S:call:QH")
    assert "calls a king" in refused(state, "S:call:1T")
    assert "S must first call a card" in refused(state, "S:ecart:1C,2C,3C")
    state = moves(state, "S:call:KH")
    assert state.deal.called == cards("KH")[0] and state.deal.partner == 1


def test_queens_knights_and_jacks_may_be_called_only_with_every_higher_face() -> None:
    """Ruling 7 (FFT): a queen with four kings, a knight with four kings and queens, a jack with all three."""
    kings, queens, knights = cards("KC KD KH KS"), cards("QC QD QH QS"), cards("NC ND NH NS")
    assert cards_of(callable_mask(mask_of(kings[:3]))) == kings
    assert cards_of(callable_mask(mask_of(kings))) == tuple(sorted(kings + queens))
    assert cards_of(callable_mask(mask_of(kings + queens))) == tuple(sorted(kings + queens + knights))
    every = kings + queens + knights
    assert len(cards_of(callable_mask(mask_of(every)))) == 16
    state = five_player_taker({"S": "KC KD KH KS", "NE": "QD"})
    state = moves(state, "S:call:QD")
    assert state.deal.partner == SEATS_OF[5].index(Seat.NE)


@pytest.mark.parametrize(("where", "partner"), [("S", None), ("chien", None), ("E", 4)])
def test_the_taker_is_alone_when_he_holds_the_called_king_or_it_is_in_the_chien(
    where: str, partner: int | None
) -> None:
    """Ruling 7: whoever holds it is the partner; the taker holding it, or the chien, means alone against four."""
    given = {} if where == "chien" else {where: "KS"}
    state = moves(five_player_taker(given, chien="KS 1C 2C" if where == "chien" else ""), "S:call:KS")
    assert state.deal.partner == partner


def test_the_first_lead_at_five_may_not_be_of_the_called_suit_but_the_called_card() -> None:
    """Ruling 7 (FFT): the first card of the first trick may not be of the called suit, except the called king."""
    state = five_player_taker({"W": "1H 2H KH 3C 4T", "S": "1T EX", "NW": "3H 4H 5C"}, contract="garde-sans")
    state = moves(state, "S:call:KH")
    assert to_move(state) == Seat.W
    assert "may not play 1H" in refused(state, "W:1H")
    assert not set(cards("1H 2H")) & set(legal_cards(state))
    assert set(cards("KH 3C 4T")) <= set(legal_cards(state))
    after = moves(state, "W:KH")
    assert after.deal.trick == cards("KH")
    # Only the first card: later in the trick, hearts must be followed.
    assert set(cards("3H 4H")) <= set(legal_cards(after))
    assert {card.suit for card in legal_cards(after)} == {Suit.H}


# --- ruling 8: chien and écart


def test_the_chien_joins_the_takers_hand_on_petite_and_garde() -> None:
    """Ruling 8: petite or garde, the taker adds the chien and discards as many cards."""
    state = moves(table(4, "E", {}, chien="KC 1T 5D 6D 7D 8D"), "S:petite", "W:pass", "N:pass", "E:pass")
    assert state.deal.phase is Phase.ECART and to_move(state) == Seat.S
    assert set(cards("KC 1T 5D 6D 7D 8D")) <= set(held(state, "S")) and len(held(state, "S")) == 24
    assert "S must first make the écart" in refused(state, "S:5D")


def ecart_table(south: str, chien: str) -> GameState:
    return moves(table(4, "E", {"S": south}, chien), "S:garde", "W:pass", "N:pass", "E:pass")


def test_the_ecart_never_holds_a_king_or_a_bout() -> None:
    """Ruling 8: never a king, never a bout."""
    state = ecart_table("KC 21T EX 2C 3C 4C 5C 6C 7C", "1T 8C 9C 10C 2T 3T")
    assert "a king never goes" in refused(state, "S:ecart:KC,2C,3C,4C,5C,6C")
    assert "a bout never goes" in refused(state, "S:ecart:1T,2C,3C,4C,5C,6C")
    assert "a bout never goes" in refused(state, "S:ecart:EX,2C,3C,4C,5C,6C")
    assert "a bout never goes" in refused(state, "S:ecart:21T,2C,3C,4C,5C,6C")


def test_the_ecart_holds_exactly_the_chiens_size_of_different_held_cards() -> None:
    """Contract step 3: exactly 6 cards (3 at five), all different, all in his hand."""
    state = ecart_table("2C 3C 4C 5C 6C 7C", "8C 9C 10C 1D 2D 3D")
    assert "exactly 6 cards, not 5" in refused(state, "S:ecart:2C,3C,4C,5C,6C")
    assert "exactly 6 cards, not 7" in refused(state, "S:ecart:2C,3C,4C,5C,6C,7C,8C")
    assert "names 2C twice" in refused(state, "S:ecart:2C,2C,4C,5C,6C,7C")
    assert "does not hold" in refused(state, "S:ecart:1H,3C,4C,5C,6C,7C")
    assert "no card" in refused(state, "S:ecart:2C,3C,4C,5C,6C,", InvalidMoveError)
    after = moves(state, "S:ecart:7C,2C,3C,4C,5C,6C")
    assert after.deal.ecart == mask_of(cards("2C 3C 4C 5C 6C 7C")) and len(held(after, "S")) == 18


def test_a_trump_goes_to_the_ecart_only_when_the_taker_lacks_other_cards() -> None:
    """Ruling 8: a trump only if he has too few other cards, then at most the missing number."""
    state = ecart_table("2C 3C 4C 5C 6C 7C 2T", "8C 9C 10C 1D 2D 3D")
    assert "no trump" in refused(state, "S:ecart:2T,3C,4C,5C,6C,7C")
    # 2 cards that may go besides trumps, kings and the Excuse: exactly 4 trumps must go with them.
    trumps_only = f"{' '.join(f'{n}T' for n in range(1, 17))} KC KD"
    state = ecart_table(trumps_only, "17T 18T 19T 20T 2C 3C")
    rule = ecart_rule(state)
    assert rule is not None and (rule.size, rule.max_trumps) == (6, 4)
    assert "at most 4" in refused(state, "S:ecart:2T,3T,4T,5T,6T,2C")
    after = moves(state, "S:ecart:2T,3T,4T,5T,2C,3C")
    assert after.deal.ecart == mask_of(cards("2T 3T 4T 5T 2C 3C"))


def test_on_garde_sans_and_garde_contre_nobody_sees_the_chien() -> None:
    """Ruling 8: garde sans and garde contre, no écart: the play begins at the taker's left."""
    for contract in ("garde-sans", "garde-contre"):
        state = moves(table(4, "E", {}), f"S:{contract}", "W:pass", "N:pass", "E:pass")
        assert state.deal.phase is Phase.PLAYING and state.deal.ecart is None and to_move(state) == Seat.W
        assert "cannot make an écart" in refused(moves(state, str(lowest_card(state))), "N:ecart:1C,2C,3C,4C,5C,6C")


@pytest.mark.parametrize(
    ("contract", "points", "bouts"), [("garde", 174, 2), ("garde-sans", 174, 2), ("garde-contre", 160, 1)]
)
def test_the_ecart_or_the_chien_counts_for_its_camp(contract: str, points: int, bouts: int) -> None:
    """Ruling 8: the écart for the attack; the chien for the attack on garde sans, the defence on garde contre.

    S wins every trick; W's Excuse goes back to W's camp, which gives half a point for it (182 − 9 + 1);
    on garde contre the chien (2T 3T 21T 1C 2C 3C: 14 half points and the 21) is the defence's.
    """
    state = moves(strong_south_excuse_west(), f"S:{contract}", "W:pass", "N:pass", "E:pass")
    if contract == "garde":
        state = moves(state, "S:ecart:1C,2C,3C,2T,3T,4T")
    state = play_out(state, {"W": "EX"})
    result = state.finished_deals[-1].result
    assert result is not None
    assert (result.marque.half_points, result.marque.bouts, result.chelem) == (points, bouts, Camp.ATTACK)


# --- ruling 9 and 14: chelem


def test_the_chelem_is_the_takers_first_move_after_the_ecart_and_he_then_leads() -> None:
    """Ruling 9: only the taker, once, right after his écart, before anything else; he then leads."""
    state = moves(strong_south(), "S:garde", "W:pass", "N:pass", "E:pass")
    assert "S must first make the écart" in refused(state, "S:chelem")
    state = moves(state, "S:ecart:1C,2C,2T,3T,4T,5T")
    assert to_move(state) == Seat.W and Move(Seat.S, CHELEM) in legal_moves(state)
    assert "only the taker" in refused(state, "W:chelem")
    announced = moves(state, "S:chelem")
    assert announced.deal.chelem_announced and to_move(announced) == Seat.S
    assert "no longer" in refused(announced, "S:chelem")
    # Anything else first closes it: here W's card.
    later = moves(state, str(lowest_card(state)))
    assert Move(Seat.S, CHELEM) not in legal_moves(later)
    assert "no longer" in refused(later, "S:chelem")


def test_an_announced_chelem_made_with_the_excuse_led_last_and_the_petit_au_bout_before_it() -> None:
    """Ruling 14: the Excuse led to the last trick by a camp that won all the others wins it; the Petit in the
    trick before is au bout. 91 points with 3 bouts at garde: (25 + 55) × 2 + 20 + 400 = 580."""
    state = moves(strong_south(), "S:garde", "W:pass", "N:pass", "E:pass", "S:ecart:1C,2C,2T,3T,4T,5T", "S:chelem")
    high_to_low = " ".join(f"{number}T" for number in range(21, 5, -1))
    state = play_out(state, {"S": f"{high_to_low} 1T EX"})
    deal = state.finished_deals[-1]
    assert deal.tricks[-1].cards[0] == CARDS[77] and deal.tricks[-1].winner == Seat.S
    assert deal.result is not None
    marque, result = deal.result.marque, deal.result
    assert (marque.half_points, marque.bouts, marque.margin) == (182, 3, 55)
    assert (result.petit_au_bout, result.chelem, marque.chelem_points, marque.marque) == (
        Camp.ATTACK,
        Camp.ATTACK,
        400,
        580,
    )
    assert result.scores == (1740, -580, -580, -580)


def test_an_unannounced_chelem_and_the_excuse_kept_by_the_defence() -> None:
    """Rulings 13–15: W's Excuse goes back to W's camp for half a point; S wins every trick: chelem +200."""
    state = moves(strong_south_excuse_west(), "S:garde", "W:pass", "N:pass", "E:pass", "S:ecart:1C,2C,3C,2T,3T,4T")
    # W leads the Excuse; the next card sets the suit; S, with trumps only, trumps with his lowest: the Petit.
    state = play_out(state, {"W": "EX"})
    deal = state.finished_deals[-1]
    assert deal.tricks[0].cards[0] == CARDS[77] and cards("1T")[0] in deal.tricks[0].cards
    result = deal.result
    assert result is not None
    assert (result.chelem, result.marque.chelem_points, result.petit_au_bout) == (Camp.ATTACK, 200, None)
    assert (result.marque.half_points, result.marque.bouts) == (182 - 9 + 1, 2)


def test_the_excuse_in_the_last_trick_goes_to_the_trick_winner() -> None:
    """Ruling 13: played in the last trick, the Excuse belongs to whoever wins that trick."""
    state = moves(strong_south_excuse_west(), "S:garde", "W:pass", "N:pass", "E:pass", "S:ecart:1C,2C,3C,2T,3T,4T")
    # W, who cannot trump, keeps the Excuse to the end (it is his highest card); S keeps the Petit to the end.
    state = play_out(state, {"S": " ".join(f"{number}T" for number in range(21, 4, -1)) + " 1T"})
    deal = state.finished_deals[-1]
    assert cards("EX")[0] in deal.tricks[-1].cards and cards("1T")[0] in deal.tricks[-1].cards
    assert deal.result is not None and deal.result.marque.bouts == 3 and deal.result.marque.half_points == 182


def test_an_announced_chelem_missed_costs_200() -> None:
    """Ruling 15f: −200 when announced and not made (W's 21T beats S's first lead)."""
    trumps = " ".join(f"{number}T" for number in range(6, 21))
    state = table(4, "E", {"S": f"1T {trumps} EX 3C", "W": "21T"}, "2T 3T 4T 5T 1C 2C")
    state = moves(state, "S:garde", "W:pass", "N:pass", "E:pass", "S:ecart:1C,2C,3C,2T,3T,4T", "S:chelem")
    state = play_out(state, {"S": "20T"})
    deal = state.finished_deals[-1]
    assert deal.tricks[0].winner == Seat.W and deal.chelem_announced
    assert deal.result is not None and deal.result.chelem is None and deal.result.marque.chelem_points == -200


# --- ruling 10 and 11: announcements


def first_trick(given: Mapping[str, str], contract: str = "garde-sans", players: int = 4) -> GameState:
    """S takes at ``contract`` with dealer E (no écart): W is to lead the first trick."""
    names = seat_names(players)
    state = table(players, "E", given)
    return moves(state, f"S:{contract}", *(f"{seat}:pass" for seat in names[1:]))


TEN_TRUMPS = "2T 3T 4T 5T 6T 7T 8T 9T 10T 11T"


def test_a_poignee_shows_exactly_a_size_of_held_trumps() -> None:
    """Ruling 10: 10/13/15 at four players, trumps from the hand, all different."""
    state = first_trick({"W": f"{TEN_TRUMPS} 12T 13T"})
    assert poignee_sizes(state) == (10,)
    assert "shows 9 cards" in refused(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T")
    assert "shows 11 cards" in refused(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,11T,12T")
    assert "does not hold" in refused(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,21T")
    assert "twice" in refused(state, "W:poignee:2T,2T,4T,5T,6T,7T,8T,9T,10T,11T")
    # With more than ten, the player chooses which to show.
    after = moves(state, "W:poignee:13T,3T,4T,5T,6T,7T,8T,9T,10T,12T")
    assert after.deal.poignees == ((1, mask_of(cards("3T 4T 5T 6T 7T 8T 9T 10T 12T 13T")), 20),)
    assert "already shown" in refused(after, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,11T")


def test_the_excuse_is_shown_only_with_every_trump() -> None:
    """Ruling 10: the Excuse may be shown only by a player who shows all his trumps."""
    state = first_trick({"W": "2T 3T 4T 5T 6T 7T 8T 9T 10T EX 1C"})
    assert poignee_sizes(state) == (10,)
    moves(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,EX")
    state = first_trick({"W": f"{TEN_TRUMPS} EX"})
    assert "every trump held" in refused(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,EX")
    assert "shows 1C" in refused(first_trick({"W": f"{TEN_TRUMPS} 1C"}), "W:poignee:1C,3T,4T,5T,6T,7T,8T,9T,10T,11T")


def test_one_poignee_per_camp() -> None:
    """Ruling 10: at most one per camp; the other camp may still show one."""
    state = first_trick({"W": TEN_TRUMPS, "N": "12T 13T 14T 15T 16T 17T 18T 19T 20T 21T"})
    state = moves(state, "W:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,11T", str(lowest_card(moves(state))))
    assert to_move(state) == Seat.N
    assert refused(state, "N:poignee:12T,13T,14T,15T,16T,17T,18T,19T,20T,21T") == (
        "N cannot show a poignée: W, of the defence, showed one"
    )
    assert poignee_sizes(state) == ()


def test_poignees_only_in_the_first_trick_at_ones_turn() -> None:
    """Ruling 10: at one's turn in the first trick, just before one's card."""
    state = first_trick({"W": "1C 2C", "N": TEN_TRUMPS})
    assert "turn" in refused(state, "N:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,11T", OutOfTurnError)
    for _ in range(4):
        state = play(state, lowest_card(state))
    assert len(state.deal.tricks) == 1
    while to_move(state) != Seat.N:
        state = play(state, lowest_card(state))
    assert "first trick" in refused(state, "N:poignee:2T,3T,4T,5T,6T,7T,8T,9T,10T,11T")


def test_at_five_a_hidden_partner_may_show_one_after_the_taker() -> None:
    """Ruling 10: at five the camps as the table knows them; W, the hidden partner, counts as the
    defence when he shows one, and still does once his called card has fallen: the taker S may
    show one after him."""
    given = {"W": "1T 2T 3T 4T 5T 6T 7T 8T KH", "S": "9T 10T 11T 12T 13T 14T 15T 16T"}
    state = moves(first_trick(given, players=5), "S:call:KH")
    assert state.deal.partner == SEATS_OF[5].index(Seat.W)
    state = moves(state, "W:poignee:1T,2T,3T,4T,5T,6T,7T,8T", "W:KH")
    while to_move(state) != Seat.S:
        state = play(state, lowest_card(state))
    assert poignee_sizes(state) == (8,)
    state = moves(state, "S:poignee:9T,10T,11T,12T,13T,14T,15T,16T")
    assert [seat for seat, _, _ in state.deal.poignees] == [1, 0]


# At five, NW takes (garde sans, no écart) and calls KH; NE leads, E shows a poignée before S.
E_SHOWS = "1T 2T 3T 4T 5T 6T 7T 8T"
S_TRUMPS = "9T 10T 11T 12T 13T 14T 15T 16T"
S_HAND = f"{S_TRUMPS} 1C 2C 3C 4C 5C 6C"


def e_shows_before_s(holder: str) -> GameState:
    """NW's garde sans at five calling KH, held by ``holder``; NE leads, E shows a poignée; S to move."""
    given = {"E": E_SHOWS, "S": S_HAND + (" KH" if holder == "S" else " 7C"), "NW": "KS KD KC"}
    if holder != "S":
        given[holder] = given.get(holder, "") + " KH"
    state = moves(table(5, "E", given), "S:pass", "W:pass", "NW:garde-sans", "NE:pass", "E:pass", "NW:call:KH")
    partner = state.deal.partner
    assert partner is not None and SEATS_OF[5][partner] == Seat(holder)
    state = play(state, lowest_card(state))
    state = moves(state, f"E:poignee:{E_SHOWS.replace(' ', ',')}")
    state = play(state, lowest_card(state))
    assert to_move(state) == Seat.S
    return state


def test_at_five_what_s_may_show_does_not_tell_who_the_partner_is() -> None:
    """Ruling 10: after E's poignée, S may or may not show his by the camps the table knows, the
    same whether E, S or W holds the called card: the sizes, the listed moves (in the view and in the
    server's answer, with its poignee_rule), the refusal."""
    answers = set()
    for holder in ("W", "E", "S"):
        state = e_shows_before_s(holder)
        listed = [move for move in view(state, Seat.S).legal_moves if move.action == "poignee"]
        answer = tarot_view_json(state, Seat.S)
        sent = tuple(action for action in answer["legal"] if action.startswith("poignee"))
        why = refused(state, f"S:poignee:{S_TRUMPS.replace(' ', ',')}")
        answers.add((poignee_sizes(state), tuple(listed), sent, answer["poignee_rule"], why))
    assert len(answers) == 1
    ((sizes, listed, sent, rule, why),) = answers
    assert sizes == () and listed == () and sent == () and rule is None
    assert why == (
        "S cannot show a poignée: E showed one for the defence"
        " (at five, for this rule, every seat but the taker counts as the defence, the hidden partner included)"
    )


def test_at_five_a_poignee_keeps_its_camp_when_the_called_card_falls() -> None:
    """Ruling 10: E, the partner, shows one and leads the called card: his poignée still counts as
    the defence's, so S, a defender, may not show one once the table knows E's camp."""
    given = {"E": f"{E_SHOWS} KH", "S": f"{S_HAND} 7C"}
    state = moves(table(5, "NW", given), "NE:garde-sans", "E:pass", "S:pass", "W:pass", "NW:pass", "NE:call:KH")
    state = moves(state, f"E:poignee:{E_SHOWS.replace(' ', ',')}", "E:KH")
    assert state.deal.partner == SEATS_OF[5].index(Seat.E) and view(state, Seat.S).partner_known
    assert "E showed one for the defence" in refused(state, f"S:poignee:{S_TRUMPS.replace(' ', ',')}")
    assert poignee_sizes(state) == ()


def test_misere_d_atout_and_de_tete() -> None:
    """Ruling 11: no trump (the Excuse allowed), no J, N, Q, K; one player may announce both, each once."""
    no_trump_no_face = "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1D 2D 3D 4D 5D 6D 7D EX"
    state = first_trick({"W": no_trump_no_face})
    listed = {move.action for move in legal_moves(state)}
    assert {"misere-atout", "misere-tete"} <= listed
    state = moves(state, "W:misere-atout", "W:misere-tete")
    assert "already announced" in refused(state, "W:misere-atout")
    assert state.deal.miseres[0][0] == 1
    with_trump = first_trick({"W": "1C 2C 3T"})
    assert "while holding a trump" in refused(with_trump, "W:misere-atout")
    with_face = first_trick({"W": "1C 2C JD"})
    assert "king, queen, knight or jack" in refused(with_face, "W:misere-tete")


def test_a_misere_pays_ten_from_every_other_seat() -> None:
    """Ruling 11: 10 × (n − 1) to its announcer, −10 to every other seat, outside the répartition."""
    no_trump_no_face = "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1D 2D 3D 4D 5D 6D 7D 8D"
    state = moves(first_trick({"W": no_trump_no_face}), "W:misere-atout")
    state = play_out(state)
    result = state.finished_deals[-1].result
    assert result is not None
    marque = result.marque.marque
    assert result.scores == (3 * marque - 10, -marque + 30, -marque - 10, -marque - 10)


# --- ruling 12 and 13: the play


def hand(text: str) -> int:
    return mask_of(cards(text))


def legal(hand_text: str, trick: str, forbidden: str = "") -> str:
    return " ".join(str(card) for card in cards_of(legal_card_mask(hand(hand_text), cards(trick), hand(forbidden))))


def test_follow_suit_if_you_can_without_needing_to_beat() -> None:
    """Ruling 12: follow suit (no need to beat); the Excuse may always be played."""
    assert legal("1H KH 5T EX 3C", "5H") == "1H KH EX"


def test_trump_when_you_cannot_follow_and_overtrump_if_you_can() -> None:
    """Ruling 12: otherwise trump; a trump must beat the trumps in the trick if it can, partner or not."""
    assert legal("3T 12T 1C EX", "5H") == "3T 12T EX"
    assert legal("3T 12T 1C EX", "5H 10T") == "12T EX"
    assert legal("3T 4T 1C", "5H 10T") == "3T 4T"
    assert legal("3T 12T 1C", "7T") == "12T"
    assert legal("3T 4T 1C", "7T 9T") == "3T 4T"


def test_with_neither_the_suit_nor_a_trump_any_card() -> None:
    """Ruling 12: with neither, any card."""
    assert legal("1C 2D EX", "5H 10T") == "1C 2D EX"
    assert legal("1C 2D", "7T") == "1C 2D"


def test_a_led_excuse_lets_the_next_card_set_the_suit() -> None:
    """Ruling 12: when the Excuse is led, the next card sets the suit."""
    assert legal("1C 2H 3T", "EX") == "1C 2H 3T"
    assert legal("1C 2H 3T", "EX 5H") == "2H"
    assert legal("1C 3T 9T", "EX 5T") == "9T"


def test_leading_the_first_trick_at_five_with_a_forbidden_suit() -> None:
    """Ruling 7: ``forbidden_lead`` applies to the trick's first card only."""
    assert legal("1H KH 3C", "", "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH QH") == "3C KH"
    assert legal("1H KH 3C", "3H", "1H 2H") == "1H KH"


def test_trick_winner() -> None:
    """Ruling 12: the highest trump, else the highest of the led suit; the Excuse never wins, but for ruling 14."""
    assert trick_winner(cards("5H KH 2H 1C")) == 1
    assert trick_winner(cards("5H 1T KH 2T")) == 3
    assert trick_winner(cards("EX 5H KH 1C")) == 2
    assert trick_winner(cards("5H EX 1C 2H")) == 0
    assert trick_winner(cards("EX 5H KH 1C"), excuse_wins=True) == 0
    assert trick_winner(cards("5H EX KH 1C"), excuse_wins=True) == 2


def test_a_card_not_held_or_not_legal_is_refused() -> None:
    """Contract, "Legal cards": a card not held, or not legal, is refused with the cards allowed."""
    state = first_trick({"W": "1C 2C", "N": "3C 4C"})
    assert refused(state, "W:KS") == "W does not hold KS"
    state = moves(state, "W:1C")
    message = refused(state, f"N:{next(card for card in held(state, 'N') if card.suit is not Suit.C)}")
    assert "the rules require one of 3C, 4C" in message


# --- moves


@pytest.mark.parametrize(
    "text",
    [
        "W:pass",
        "E:garde-contre",
        "NW:call:KH",
        "S:ecart:2C,3C,4C,5C,6C,7C",
        "S:chelem",
        "E:poignee:1T,EX",
        "W:10H",
        "W:misere-atout",
        "W:misere-tete",
        "S:EX",
        "S:21T",
    ],
)
def test_moves_print_as_they_parse(text: str) -> None:
    """Contract: moves are SEAT:ACTION, split at the first colon; str() gives back the record's text."""
    move = Move.parse(text, 5)
    assert str(move) == text and Move.parse(str(move), 5) == move
    assert eval(repr(move), {"Move": Move, "Seat": Seat, "Card": Card}) == move


@pytest.mark.parametrize(
    ("text", "players", "why"),
    [
        ("N:pass", 3, "names no seat"),
        ("NW:pass", 4, "names no seat"),
        ("N:pass", 5, "names no seat"),
        ("W pass", 4, "is not a move"),
        ("W:Pass", 4, "unknown action"),
        ("W:call:XX", 5, "calls no card"),
        ("W:ecart:2C,,3C", 4, "no card"),
        ("W:10h", 4, "unknown action"),
        ("W:ecart", 4, "unknown action"),
        (" W:pass", 4, "names no seat"),
    ],
)
def test_unreadable_moves(text: str, players: int, why: str) -> None:
    """Contract: an unknown seat for this player count, an unknown action, a move without a colon."""
    with pytest.raises(InvalidMoveError, match=why):
        Move.parse(text, players)


def test_replay_names_the_faulty_move() -> None:
    """``replay`` folds strings and names the index of the first faulty move."""
    from couyon.common.errors import ReplayError

    with pytest.raises(ReplayError) as caught:
        replay("x", 4, ["W:pass", "W:pass"])
    assert caught.value.index in (0, 1)
