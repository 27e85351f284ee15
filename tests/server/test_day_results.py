"""Issue 12: the day's results (distribution, percentile, traveller), personal statistics and the archive."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest
from tests.server.helpers import new_game, play_to_end

from couyon.games.coucou import game as coucou_game
from couyon.games.couyon.record import report as report_of
from couyon.registry import GAMES, REVIEW_CODE
from couyon.server.results import best_streak, better_than_percent, current_streak
from couyon.store import Store

DAY = "2026-11-29"  # The clock fixture's Brussels day.


def finished_daily(client: Any, seed: int, **fields: Any) -> dict[str, Any]:
    """The player's ranked attempt of the day, played to its end with random legal moves, then verified."""
    answer = play_to_end(client, new_game(client, "daily", **fields), random.Random(seed))
    shown = client.get(f"/api/games/{answer['id']}").json()  # Runs the verifying replay if it has not run.
    assert shown["leaderboard"] is not None
    return shown


def test_today_s_results_wait_for_the_player_s_finished_ranked_attempt(make_client: Any) -> None:
    marie, jules, newcomer = make_client(table_bot="random/1"), make_client(table_bot="random/1"), make_client()
    hidden = "A day's results are shown once your ranked attempt of it is finished, or once the day is over."
    assert newcomer.get("/api/daily/results").json() == {"error": {"code": "results_hidden", "message": hidden}}
    started = new_game(marie, "daily")
    assert marie.get("/api/daily/results").status_code == 403  # Started, not finished: still hidden.
    assert marie.get(f"/api/daily/results?day={DAY}").status_code == 403
    assert marie.get("/api/daily/results?day=2026-11-30").status_code == 403  # A day to come.
    mine = play_to_end(marie, started, random.Random(3))
    marie.get(f"/api/games/{mine['id']}")
    results = marie.get("/api/daily/results").json()
    score, deals = mine["view"]["score"], mine["view"]["deal_log"][-1]["number"]
    assert results == {
        "game": "couyon",
        "day": DAY,
        "over": False,
        "players": 1,
        "scores": [{"score": score, "players": 1}],
        "deals": [{"deals": deals, "players": 1}],
        "you": {"score": score, "deals": deals, "rank": 1, "better_than_percent": None},
        "traveller": None,  # How the field did with each deal waits for the day's end.
    }
    other = finished_daily(jules, 5)
    both = jules.get("/api/daily/results").json()
    assert both["players"] == 2 and both["traveller"] is None
    assert sum(line["players"] for line in both["scores"]) == 2
    assert sorted(line["score"] for line in both["scores"]) == sorted({score, other["view"]["score"]})
    ranks = {marie.get("/api/daily/results").json()["you"]["rank"], both["you"]["rank"]}
    assert ranks == {1, 2}
    first = both if both["you"]["rank"] == 1 else marie.get("/api/daily/results").json()
    assert first["you"]["better_than_percent"] == 100
    assert newcomer.get("/api/daily/results").status_code == 403  # Others' results tell nothing yet.
    assert make_client().get("/api/daily/results?game=malmedy").status_code == 403  # Per game.


def test_once_the_day_is_over_anyone_sees_the_traveller_of_each_deal(make_client: Any, clock: Any) -> None:
    marie, jules = make_client(table_bot="random/1"), make_client(table_bot="random/1")
    mine = finished_daily(marie, 11)
    finished_daily(jules, 12)
    clock.advance(dt.timedelta(days=1))
    results = make_client().get(f"/api/daily/results?day={DAY}").json()
    assert results["over"] is True and results["players"] == 2 and results["you"] is None
    traveller = results["traveller"]
    assert [line["deal"] for line in traveller] == list(range(1, len(traveller) + 1))
    assert traveller[0]["games"] == 2  # Both games played the first deal (the same cards for both).
    for line in traveller:
        taken = line["taken_by_us"] + line["taken_by_them"]
        assert line["not_taken"] + taken == line["games"]
        assert line["made"] + line["failed"] + line["tie"] == taken
        assert line["you"] is None
    own = marie.get(f"/api/daily/results?day={DAY}").json()
    assert own["traveller"][0]["games"] == 2
    assert own["you"]["rank"] in (1, 2)
    # The player's own line of each deal is the deal of their game, as its record tells it.
    record = marie.get(f"/api/games/{mine['id']}/record").json()
    assert record["challenge"] == DAY
    expected = [
        {"taker": deal["taker"], "outcome": deal["outcome"]} for deal in mine["view"]["deal_log"] if deal["outcome"]
    ]
    told = [{"taker": line["you"]["taker"], "outcome": line["you"]["outcome"]} for line in own["traveller"]]
    assert told[: len(expected)] == expected
    for line in own["traveller"]:
        if line["you"] is not None and line["you"]["taker"] is not None:
            assert line["you"]["side"] == ("us" if line["you"]["taker"] in "SN" else "them")


def seat_1_coups(record: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each coup of a coucou record that seat 1 was dealt a card in, folded move by move from the record.

    Seat 1's card as dealt, its own move in the coup (None: it dealt, so had none), and whether
    its tokens fell (lost) to zero (eliminated) at the showdown.
    """
    state = coucou_game.new_game(record["seed"], record["players"], record["tokens"])
    coups: dict[int, dict[str, Any]] = {}
    for text in record["moves"]:
        coup = state.coup
        if state.tokens_of(1) > 0:
            line = coups.setdefault(coup.number, {"card": str(coup.card_of(1)), "said": None})
            if text.startswith("1:"):
                line["said"] = text.removeprefix("1:")
        before = state.tokens_of(1)
        state = coucou_game.play(state, coucou_game.Move.parse(text))
        if coup.number in coups and len(state.finished) == coup.number:
            coups[coup.number] |= {"lost": state.tokens_of(1) < before, "eliminated": before > state.tokens_of(1) == 0}
    assert state.is_over
    return coups


def test_each_coup_s_result_is_seat_1_s_coup_as_its_record_folds() -> None:
    kind = GAMES["coucou"]
    assert kind.deal_results is not None
    rng = random.Random("coucou")
    said = set()
    for seed in ("a", "b", "c", "d"):
        state, moves = kind.new_game(seed), []
        while not kind.engine.is_over(state):
            move = rng.choice(kind.engine.legal_moves(state))
            moves.append(str(move))
            state = kind.engine.play(state, move)
        record = {"seed": seed, "players": state.players, "tokens": state.starting_tokens, "moves": moves}
        lines = kind.deal_results(state)
        assert lines == [{"coup": number} | line for number, line in seat_1_coups(record).items()]
        said |= {line["said"] for line in lines}
    assert said == {"keep", "change", None}  # Seat 1 kept, changed and dealt in these games.


def test_coucou_s_traveller_counts_seat_1_s_say_and_tokens_at_each_coup(make_client: Any, clock: Any) -> None:
    players = [make_client() for _ in range(3)]
    games = [finished_daily(client, 30 + n, game="coucou") for n, client in enumerate(players)]
    assert players[0].get("/api/daily/results?game=coucou").json()["traveller"] is None  # The day is not over.
    clock.advance(dt.timedelta(days=1))
    results = players[0].get(f"/api/daily/results?game=coucou&day={DAY}").json()
    assert results["players"] == 3 and results["you"]["rank"] in (1, 2, 3)
    folds = [
        seat_1_coups(client.get(f"/api/games/{game['id']}/record").json())
        for client, game in zip(players, games, strict=True)
    ]
    numbers = sorted({number for coups in folds for number in coups})
    traveller = results["traveller"]
    assert [line["coup"] for line in traveller] == numbers
    assert traveller[0]["coup"] == 1 and traveller[0]["games"] == 3
    for line in traveller:
        these = [coups[line["coup"]] for coups in folds if line["coup"] in coups]
        assert line == {
            "coup": line["coup"],
            "games": len(these),
            "keep": sum(coup["said"] == "keep" for coup in these),
            "change": sum(coup["said"] == "change" for coup in these),
            "dealer": sum(coup["said"] is None for coup in these),
            "lost": sum(coup["lost"] for coup in these),
            "eliminated": sum(coup["eliminated"] for coup in these),
            "you": folds[0].get(line["coup"]),
        }
    assert sum(line["eliminated"] for line in traveller) == sum(game["view"]["place"] > 1 for game in games)
    assert any(line["lost"] for line in traveller)
    stranger = make_client().get(f"/api/daily/results?game=coucou&day={DAY}").json()
    assert stranger["traveller"] == [line | {"you": None} for line in traveller]  # The field's lines, no own coup.


def test_bad_questions_get_one_sentence(make_client: Any) -> None:
    client = make_client()
    assert client.get("/api/daily/results?day=2026-02-30").status_code == 422
    assert client.get("/api/daily/results?game=chess").status_code == 422
    assert client.get("/api/player/stats?game=chess").status_code == 422


def test_statistics_count_ranked_games_wins_and_daily_streaks(make_client: Any, clock: Any) -> None:
    client = make_client(table_bot="random/1")
    assert client.get("/api/player/stats").json() == {
        "game": "couyon",
        "today": DAY,
        "games": {"played": 0, "won": 0, "average_score": None, "best_score": None},
        "daily": {"played": 0, "streak": 0, "best_streak": 0, "days": []},
    }
    first = finished_daily(client, 21)
    clock.advance(dt.timedelta(days=1))
    assert client.get("/api/player/stats").json()["daily"]["streak"] == 1  # Today's challenge is still to play.
    second = finished_daily(client, 22)
    free = play_to_end(client, new_game(client, "free"), random.Random(23))
    client.get(f"/api/games/{free['id']}")
    unranked = play_to_end(client, new_game(client, "free", ranked=False), random.Random(24))
    client.get(f"/api/games/{unranked['id']}")
    stats = client.get("/api/player/stats").json()
    scores = [first["view"]["score"], second["view"]["score"], free["view"]["score"]]
    assert stats["games"] == {
        "played": 3,  # The unranked game is not counted: only verified ranked games are.
        "won": sum(score > 1000 for score in scores),
        "average_score": round(sum(scores) / 3, 1),
        "best_score": max(scores),
    }
    assert stats["daily"]["played"] == 2 and stats["daily"]["streak"] == 2 and stats["daily"]["best_streak"] == 2
    assert [day["day"] for day in stats["daily"]["days"]] == [DAY, "2026-11-30"]
    assert stats["daily"]["days"][0] == {
        "day": DAY,
        "score": first["view"]["score"],
        "deals": first["leaderboard"]["deals"],
        "rank": 1,
        "players": 1,
    }
    clock.advance(dt.timedelta(days=2))  # A day missed: the streak starts again.
    later = client.get("/api/player/stats").json()["daily"]
    assert later["streak"] == 0 and later["best_streak"] == 2
    assert make_client().get("/api/player/stats?game=malmedy").json()["games"]["played"] == 0


def test_a_past_day_is_played_again_unranked_from_the_archive(make_client: Any, clock: Any) -> None:
    client = make_client(table_bot="random/1")
    attempt = new_game(client, "daily")
    clock.advance(dt.timedelta(days=1))
    archived = client.post("/api/games", json={"mode": "daily", "ranked": False, "day": DAY})
    assert archived.status_code == 201
    body = archived.json()
    assert (body["mode"], body["day"], body["ranked"]) == ("daily", DAY, False)
    assert body["view"]["hand"] == attempt["view"]["hand"]  # That day's cards.
    finished = play_to_end(client, body, random.Random(2))
    assert finished["leaderboard"] is None and finished["leaderboard_pending"] is False
    assert client.get(f"/api/leaderboard?board=daily&day={DAY}").json()["entries"] == []
    # Another player never played that day: the archive is open to everyone.
    assert make_client().post("/api/games", json={"mode": "daily", "ranked": False, "day": DAY}).status_code == 201


@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ({"mode": "daily", "ranked": False, "day": "2026-11-29"}, 403),  # today
        ({"mode": "daily", "ranked": False, "day": "2026-12-05"}, 403),  # to come
        ({"mode": "daily", "day": "2026-11-28"}, 422),  # ranked
        ({"mode": "free", "ranked": False, "day": "2026-11-28"}, 422),
        ({"mode": "daily", "ranked": False, "day": "2026-02-30"}, 422),
        ({"mode": "daily", "ranked": False, "day": "28/11/2026"}, 422),
    ],
)
def test_the_archive_refuses_what_is_not_a_past_day_unranked(
    make_client: Any, fields: dict[str, Any], status: int
) -> None:
    client = make_client()
    response = client.post("/api/games", json=fields)
    assert response.status_code == status
    assert response.json()["error"]["message"].endswith(".")
    with client.app.state.store.engine.connect() as connection:
        from sqlalchemy import text

        assert connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one() == 0


def test_percentile_and_streak_rules() -> None:
    assert better_than_percent(1, 1) is None
    assert [better_than_percent(rank, 5) for rank in range(1, 6)] == [100, 75, 50, 25, 0]
    day = dt.date(2026, 11, 29)
    days = [day - dt.timedelta(days=offset) for offset in (0, 1, 2, 5, 6, 7, 8)]
    assert current_streak(days, day) == 3
    assert current_streak(days[1:], day) == 2  # Today still to play: yesterday's streak holds.
    assert current_streak(days, day + dt.timedelta(days=2)) == 0
    assert best_streak(days) == 4 and best_streak([]) == 0


@pytest.mark.parametrize("game", ["couyon", "malmedy"])
def test_each_deal_s_result_is_the_record_s_taker_and_outcome(game: str) -> None:
    kind = GAMES[game]
    assert kind.deal_results is not None
    rng = random.Random(game)
    for seed in ("a", "b", "c"):
        state = kind.new_game(seed)
        while not kind.engine.is_over(state):
            state = kind.engine.play(state, rng.choice(kind.engine.legal_moves(state)))
        reports = [report_of(state)["deal_log"][index] for index in range(len(state.finished_deals))]
        takers = [report.get("chooser", report.get("taker")) for report in reports]
        assert kind.deal_results(state) == [
            {
                "deal": report["number"],
                "taker": taker,
                "side": None if taker is None else "us" if taker in ("S", "N") else "them",
                "outcome": report["outcome"],
            }
            for report, taker in zip(reports, takers, strict=True)
        ]


def test_tarot_s_traveller_counts_each_contract_and_south_s_average_points(make_client: Any, clock: Any) -> None:
    players = [make_client(table_bot="tarot4=random/1") for _ in range(3)]
    games = [finished_daily(client, 20 + n, game="tarot4") for n, client in enumerate(players)]
    clock.advance(dt.timedelta(days=1))
    results = players[0].get(f"/api/daily/results?game=tarot4&day={DAY}").json()
    assert results["players"] == 3
    # What each game's own score sheets say of every deal it dealt (the same cards in every game).
    sheets: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        for sheet in game["view"]["deal_log"]:
            sheets.setdefault(sheet["number"], []).append(sheet)
    traveller = results["traveller"]
    assert [line["deal"] for line in traveller] == sorted(sheets)
    for line in traveller:
        dealt = sheets[line["deal"]]
        played = [sheet for sheet in dealt if sheet["outcome"] == "played"]
        assert line["games"] == len(dealt) and line["not_taken"] == len(dealt) - len(played)
        assert line["taken_by_us"] == sum(sheet["taker"] == "S" for sheet in played)
        assert line["taken_by_them"] == sum(sheet["taker"] != "S" for sheet in played)
        assert line["made"] == sum(sheet["result"] == "made" for sheet in played)
        assert line["failed"] == len(played) - line["made"] and line["tie"] == 0
        expected = []
        for contract in ("petite", "garde", "garde-sans", "garde-contre"):
            these = [sheet for sheet in played if sheet["contract"] == contract]
            if these:
                expected.append(
                    {
                        "contract": contract,
                        "taken_by_us": sum(sheet["taker"] == "S" for sheet in these),
                        "taken_by_them": sum(sheet["taker"] != "S" for sheet in these),
                        "made": sum(sheet["result"] == "made" for sheet in these),
                        "failed": sum(sheet["result"] == "failed" for sheet in these),
                    }
                )
        assert line["contracts"] == expected
        south = [sheet["scores"]["S"] if sheet["outcome"] == "played" else 0 for sheet in dealt]
        assert line["average_points"] == round(sum(south) / len(south), 1)
    assert any(line["contracts"] for line in traveller)
    # The player's own deal, with its contract and South's points.
    first = games[0]["view"]["deal_log"][0]
    you = traveller[0]["you"]
    assert you["outcome"] == (first["result"] if first["outcome"] == "played" else first["outcome"])
    assert you["points"] == (first["scores"]["S"] if first["outcome"] == "played" else 0)
    assert you["contract"] == (first["contract"] if first["outcome"] == "played" else None)


def test_a_day_s_deal_lines_are_kept_as_its_games_enter_the_board_and_read_by_every_process(
    make_client: Any, clock: Any, database_url: str
) -> None:
    marie, jules = make_client(table_bot="random/1"), make_client(table_bot="random/1")
    games = [finished_daily(marie, 11)["id"], finished_daily(jules, 12)["id"]]
    clock.advance(dt.timedelta(days=1))
    store = Store(database_url)
    try:
        kept = store.deal_lines(games, REVIEW_CODE)
        assert sorted(kept) == sorted(games)  # Kept as each game entered the day's board.
        store.keep_deal_lines({games[1]: kept[games[1]]}, "another-version")  # As if another code had kept it.
        told = make_client().get(f"/api/daily/results?day={DAY}").json()["traveller"]
        assert store.deal_lines(games, REVIEW_CODE) == kept  # Folded again by the first read, and kept.
        # Another process (a new app: nothing in memory) reads the kept lines instead of folding the games again:
        # a kept line changed by hand is what it tells.
        lines = json.loads(kept[games[0]])
        lines[0]["outcome"] = "redeal" if lines[0]["outcome"] != "redeal" else "made"
        store.keep_deal_lines({games[0]: json.dumps(lines)}, REVIEW_CODE)
        changed = make_client(max_body_bytes=4097).get(f"/api/daily/results?day={DAY}").json()["traveller"]
        assert changed != told
        # Lines another code version folded are folded again, and replaced.
        store.keep_deal_lines({games[0]: kept[games[0]]}, "another-version")
        again = make_client(max_body_bytes=4098).get(f"/api/daily/results?day={DAY}").json()["traveller"]
        assert again == told
        assert store.deal_lines(games, REVIEW_CODE) == kept
    finally:
        store.close()
