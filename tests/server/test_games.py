"""Complete games through the API: no response ever shows a card South could not know, and events match moves."""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.server.helpers import Answer, send_move

from couyon.games.couyon.bots import bot_move
from couyon.games.couyon.bots.registry import bot_by_id
from couyon.games.couyon.cards import CARD_BY_CODE, Seat, cards_of
from couyon.games.couyon.game import Move, legal_moves, new_game, play
from couyon.games.malmedy.record import variant_named
from couyon.server.games import ReplayProcess, replay_check
from couyon.store import Store, StoredGame

GAMES_PER_BACKEND = 10
FORBIDDEN_KEYS = {"seed", "hands", "deck", "talon"}


@dataclass
class DealKnowledge:
    """The cards South may know in one deal: its own dealt cards, the turned proposals, the cards played."""

    south_dealt: set[str] = field(default_factory=set)
    proposals: set[str] = field(default_factory=set)
    played: set[str] = field(default_factory=set)

    @property
    def known(self) -> set[str]:
        return self.south_dealt | self.proposals | self.played


def knowledge(store: Store, game_id: str) -> tuple[dict[int, DealKnowledge], list[str], str, Any]:
    """The truth, from the database: South's knowledge per deal, the stored moves, the seed and the final state."""
    loaded = store.game(game_id)
    assert loaded is not None
    game, moves = loaded
    state = new_game(game.seed, variant_named(game.variant))
    deals: dict[int, DealKnowledge] = {}

    def note(current: Any) -> None:
        deal = current.deal
        if deal.number not in deals:
            deals[deal.number] = DealKnowledge(south_dealt={str(c) for c in cards_of(deal.hands[Seat.S])})
        deals[deal.number].proposals |= {str(card) for card in deal.proposals}

    note(state)
    for text in moves:
        move = Move.parse(text)
        if move.card is not None:
            deals[state.deal.number].played.add(str(move.card))
        number = state.deal.number
        state = play(state, move)
        for summary in state.finished_deals:
            if summary.number == number:
                deals[number].proposals |= {str(card) for card in summary.proposals}
        note(state)
    return deals, moves, game.seed, state


def cards_in(document: Any) -> set[str]:
    """Every string anywhere in ``document`` that names a card."""
    if isinstance(document, str):
        return {document} if document in CARD_BY_CODE else set()
    if isinstance(document, dict):
        assert not FORBIDDEN_KEYS & set(document), f"forbidden key in {sorted(document)}"
        return set().union(*(cards_in(value) for value in document.values())) if document else set()
    if isinstance(document, list):
        return set().union(*(cards_in(value) for value in document)) if document else set()
    return set()


def check_nothing_hidden_leaks(store: Store, raw: str) -> None:
    answer = json.loads(raw)
    deals, _moves, seed, state = knowledge(store, answer["id"])
    assert seed not in raw
    view = answer["view"]
    current = view["deal"]["number"]
    assert set(view["hand"]) == {str(card) for card in cards_of(state.deal.hands[Seat.S])}
    assert cards_in({key: value for key, value in view.items() if key != "deal_log"}) <= deals[current].known
    for logged in view["deal_log"]:
        assert cards_in(logged) <= deals[logged["number"]].known
    deal_number = current - sum(1 for event in answer["events"] if event["type"] == "deal_start")
    for event in answer["events"]:
        if event["type"] == "deal_start":
            deal_number = event["number"]
        about = event["deal"]["number"] if event["type"] == "deal_end" else deal_number
        assert cards_in(event) <= deals[about].known, event


def check_events_are_the_new_moves(store: Store, before: Answer, raw: str) -> None:
    answer = json.loads(raw)
    _deals, moves, _seed, _state = knowledge(store, answer["id"])
    first = before["view"]["move_number"]
    played = [
        f"{e['seat']}:{'take' if e.get('take') else 'pass'}" if e["type"] == "bid" else f"{e['seat']}:{e['card']}"
        for e in answer["events"]
        if e["type"] in ("bid", "card")
    ]
    assert played == moves[first:]
    assert answer["view"]["move_number"] == len(moves)


def test_complete_games_never_show_a_card_south_cannot_know(make_client: Any) -> None:
    rng = random.Random(2026)
    client = make_client()
    store = client.app.state.store
    responses = 0
    for index in range(GAMES_PER_BACKEND):
        mode = "daily" if index % 4 == 0 else "free"
        created = client.post("/api/games", json={"mode": mode, "ranked": index == 0})
        assert created.status_code == 201
        check_nothing_hidden_leaks(store, created.text)
        answer = created.json()
        while answer["view"]["winner"] is None:
            response = send_move(client, answer, rng.choice(answer["view"]["legal"]))
            assert response.status_code == 200, response.text
            check_nothing_hidden_leaks(store, response.text)
            check_events_are_the_new_moves(store, answer, response.text)
            responses += 1
            answer = response.json()
            if responses % 25 == 0:
                shown = client.get(f"/api/games/{answer['id']}")
                check_nothing_hidden_leaks(store, shown.text)
                assert shown.json()["view"] == answer["view"]
        assert answer["events"][-1]["type"] == "game_over"
        assert answer["events"][-1]["score"] == answer["view"]["score"]
    assert responses > GAMES_PER_BACKEND * 10


def test_the_leak_check_catches_a_leak(make_client: Any) -> None:
    """The scanner above is not vacuous: a response carrying West's hand is caught."""
    client = make_client()
    store = client.app.state.store
    created = client.post("/api/games", json={"mode": "free"})
    _deals, _moves, _seed, state = knowledge(store, created.json()["id"])
    leaky = created.json()
    leaky["view"]["west"] = [str(card) for card in cards_of(state.deal.hands[Seat.W])]
    with pytest.raises(AssertionError):
        check_nothing_hidden_leaks(store, json.dumps(leaky))


def test_the_fold_cache_never_disagrees_with_the_stored_moves() -> None:
    import datetime as dt

    from couyon.games.couyon.game import legal_moves, replay
    from couyon.server.games import FoldCache
    from couyon.store import StoredGame

    game = StoredGame(
        "g_cache", "p_1", "free", None, True, "cache-seed", "standard", "random/1", dt.datetime(2026, 1, 1)
    )
    state = new_game(game.seed)
    moves: list[str] = []
    for _ in range(30):
        move = legal_moves(state)[0]
        moves.append(str(move))
        state = play(state, move)
    cache = FoldCache(capacity=2)
    assert cache.fold(game, moves[:20]) == replay(game.seed, moves[:20])
    # Moves appended elsewhere (another process) are folded on top of the cached prefix.
    assert cache.fold(game, moves) == replay(game.seed, moves)
    # A rewritten list of the same length is folded anew, not taken from the cache.
    other_state = new_game(game.seed)
    rewritten: list[str] = []
    for _ in range(30):
        move = legal_moves(other_state)[-1]
        rewritten.append(str(move))
        other_state = play(other_state, move)
    assert rewritten != moves
    assert cache.fold(game, rewritten) == replay(game.seed, rewritten)
    # A shorter list (moves removed) is folded anew too.
    assert cache.fold(game, moves[:5]) == replay(game.seed, moves[:5])


def test_the_replay_process_gives_the_replay_check_verdict_and_is_replaced_when_it_dies() -> None:
    game = StoredGame(
        "g_1", "p_1", "free", None, True, "replay-seed", "standard", "random/1", dt.datetime(2026, 11, 29)
    )
    state, played, rng = new_game(game.seed), [], random.Random(3)
    while state.winner is None:
        move = rng.choice(legal_moves(state)) if state.to_move == Seat.S else bot_move(state, bot_by_id(game.bot_id))
        played.append(str(move))
        state = play(state, move)
    # Other tests' apps may still own replay processes: look only at the ones this one starts.
    others = set(multiprocessing.active_children())
    replay = ReplayProcess()
    try:
        assert replay(game, played) == replay_check(game, played) == (state.score, state.finished_deals[-1].number)
        children = set(multiprocessing.active_children()) - others
        assert len(children) == 1  # The replay process, started by the first replay.
        for child in children:
            child.kill()
            child.join()
        assert replay(game, played[:-1]) == "the game is not finished"
    finally:
        replay.close()
    assert set(multiprocessing.active_children()) - others == set()
