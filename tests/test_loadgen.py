"""``couyon load``: a small run on SQLite and PostgreSQL ends without error, and its checks can fail."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from couyon.cli import main
from couyon.common.stream import Stream
from couyon.games.couyon.game import legal_moves, new_game, play
from couyon.games.couyon.record import record_of
from couyon.loadgen import LoadOptions, PlayedGame, ServerProcess, _check, percentiles, run_load
from couyon.registry import GAMES


def test_ten_players_play_complete_games_that_replay_to_what_they_saw(database_url: str) -> None:
    report = run_load(LoadOptions(players=10, games=1, duration=240, seed="test"), database_url=database_url)
    assert report["errors"] == {} and report["error_count"] == 0
    assert report["games_started"] == report["games_finished"] == report["records_verified"] == 10
    assert report["move_requests"] >= 10 * 5
    assert set(report["move_latency_ms"]) == {"p50", "p90", "p99", "max"}


def test_players_of_malmedy_play_complete_games_that_replay_to_what_they_saw(database_url: str) -> None:
    options = LoadOptions(players=4, games=1, duration=240, seed="test-malmedy", game="malmedy")
    report = run_load(options, database_url=database_url)
    assert report["errors"] == {} and report["error_count"] == 0
    assert report["game"] == "malmedy"
    assert report["games_started"] == report["games_finished"] == report["records_verified"] == 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("load-every-game")) as running:
        yield running


@pytest.mark.parametrize("game", list(GAMES))
def test_a_player_of_every_game_plays_two_that_replay_to_what_he_saw(server: ServerProcess, game: str) -> None:
    """Each kind's record is replayed by its own verifier (a tarot report names no winner); the second game
    starts like the first (its request once carried the last move's body instead, refused with 422)."""
    options = LoadOptions(players=1, games=2, duration=240, seed=f"every-{game}", game=game)
    report = run_load(options, url=server.url)
    assert report["errors"] == {} and report["error_count"] == 0
    assert report["games_started"] == report["games_finished"] == report["records_verified"] == 2


def test_coucou_players_play_at_the_table_size_asked_for(server: ServerProcess) -> None:
    """``table`` reaches the server as the games' options: each answer is checked to carry them (a 20-seat table)."""
    options = LoadOptions(players=2, games=1, duration=240, seed="coucou-20", game="coucou", table={"players": 20})
    report = run_load(options, url=server.url)
    assert report["errors"] == {} and report["table"] == {"players": 20}
    assert report["games_started"] == report["games_finished"] == report["records_verified"] == 2


def test_a_table_option_the_server_refuses_is_counted_as_an_error(server: ServerProcess) -> None:
    options = LoadOptions(players=1, games=1, duration=240, seed="coucou-21", game="coucou", table={"players": 21})
    report = run_load(options, url=server.url)
    assert report["errors"] == {"new game: 422 invalid_fields": 1} and report["games_started"] == 0


def test_the_time_budget_stops_the_run_and_cut_games_resume(tmp_path: Path) -> None:
    """Games cut by the budget are checked too: each must resume at its player's last view."""
    report = run_load(LoadOptions(players=3, games=1000, duration=0.5, seed="budget", think=0.01))
    assert report["error_count"] == 0, report["errors"]
    assert report["games_started"] < 3 * 1000


def finished_record() -> tuple[bytes, int, str, int]:
    """A complete random game's record, its move count, its winner and its score."""
    chooser = Stream("loadgen-test", "moves")
    state = new_game("loadgen-test")
    moves = []
    while state.winner is None:
        move = chooser.choice(legal_moves(state))
        moves.append(move)
        state = play(state, move)
    assert state.score is not None and state.winner is not None
    return record_of(state, moves).to_json().encode(), len(moves), str(state.winner), state.score


@pytest.mark.parametrize(
    ("seen_score", "seen_moves", "problem"),
    [
        ("same", "same", None),
        ("other", "same", "stored record replays to another result than the player saw"),
        ("same", "fewer", "stored record holds another number of moves than the player saw"),
    ],
)
def test_the_record_check_catches_a_difference(seen_score: str, seen_moves: str, problem: str | None) -> None:
    record, move_count, winner, score = finished_record()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=record))
    view = {
        "winner": winner,
        "score": score + (0 if seen_score == "same" else 100),
        "move_number": move_count - (0 if seen_moves == "same" else 1),
    }
    game = PlayedGame("g_test", "couyon", 0, {"view": view, "ranked": False, "leaderboard": None}, finished=True)

    async def check() -> str | None:
        async with httpx.AsyncClient(transport=transport, base_url="http://load.test") as client:
            return await _check(client, game)

    assert asyncio.run(check()) == problem


def test_percentiles_are_nearest_rank() -> None:
    values = [float(value) for value in range(1, 101)]
    assert percentiles(values) == {"p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert percentiles([]) == {"p50": None, "p90": None, "p99": None, "max": None}


def test_bad_arguments_are_refused_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["load", "--players", "0"]) == 2
    assert capsys.readouterr().err == "couyon load: --players must be at least 1, not 0.\n"
    assert main(["load", "--think", "5", "--duration", "1"]) == 2
    assert capsys.readouterr().err == "couyon load: --think must be from 0 to less than --duration, not 5.0.\n"
    assert main(["load", "--game", "coucou", "--option", "players"]) == 2
    assert capsys.readouterr().err == "couyon load: --option takes NAME=VALUE, like players=20, not 'players'.\n"
    with pytest.raises(SystemExit) as refused:
        main(["load", "--game", "tarot"])
    assert refused.value.code == 2
    assert "invalid choice: 'tarot'" in capsys.readouterr().err
