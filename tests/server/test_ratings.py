"""Ratings of play with people (issue 35) on SQLite and PostgreSQL: friends' table games played through the tables'
service rate their people as each ends, ``couyon ratings rebuild`` gives exactly the live numbers, the farming
rule and the leaver's rule hold, and the routes answer the numbers or one sentence."""

from __future__ import annotations

import datetime as dt
import json
import random
import statistics
from typing import Any

import pytest
from tests.server.helpers import new_game, play_to_end

from couyon.cli import main
from couyon.server.clubs.service import deal_value
from couyon.server.games import replay_check
from couyon.server.identity import cookie_player
from couyon.server.ratings.model import FARMING_DAYS, NEW, teams
from couyon.server.tables.service import TableService

pytestmark = pytest.mark.timeout(120)

COUCOU = {"players": 5, "tokens": 1, "level": "easy"}
"""A short game: five players, one token each."""


def named(client: Any, name: str) -> str:
    """The id of the person of ``client``'s cookie, once named ``name``."""
    assert client.put("/api/player", json={"name": name}).status_code == 200
    found = cookie_player(b"test-secret", client.cookies)
    assert found is not None
    return found.player_id


def played(tables: TableService, host: str, guests: dict[str, str], leaver: str | None = None, tokens: int = 1) -> str:
    """A coucou table's game played to its end, each person at his seat by his first legal move; ``leaver``'s seat
    given to the bot by the host after that person's first decision. The game's id."""
    table = tables.open(host, "coucou", COUCOU | {"tokens": tokens}, 0)
    code, secret = table["code"], table["secret"]
    for seat, guest in guests.items():
        tables.take_seat(guest, code, secret, seat)
    tables.start(host, code, secret)
    decided: set[str] = set()
    for _ in range(400):
        plan = tables.plan_bots(code)
        if plan is not None:
            tables.commit(plan)
            continue
        loaded = tables.load(code)
        assert loaded.game is not None
        if loaded.kind.engine.is_over(loaded.state):
            return loaded.game.id
        label = str(loaded.kind.engine.to_move(loaded.state))
        player = loaded.seats[label].player_id
        assert player is not None
        if player == leaver and player in decided:
            tables.give_to_bot(host, code, secret, label)
            continue
        action = str(loaded.kind.engine.legal_moves(loaded.state)[0]).split(":", 1)[1]
        tables.move(player, code, secret, action, len(loaded.moves))
        decided.add(player)
    raise AssertionError("the game did not end")


def test_table_games_rate_their_people_live_and_the_rebuild_gives_the_same_numbers(
    make_client: Any, clock: Any, database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    anne_client, bob_client, carl_client = make_client(), make_client(), make_client()
    anne, bob, carl = named(anne_client, "Anne"), named(bob_client, "Bob"), named(carl_client, "Carl")
    app = anne_client.app
    tables: TableService = app.state.tables
    ratings = app.state.ratings
    games = [played(tables, anne, {"3": bob}) for _ in range(3)]
    left = played(tables, anne, {"2": bob, "4": carl}, leaver=carl, tokens=3)
    clock.advance(dt.timedelta(days=FARMING_DAYS, seconds=1))
    games += [played(tables, anne, {"3": bob}), left]
    rated = ratings.store.rated_games()
    assert [row.game_id for row in rated] == [*games[:3], left, games[3]]
    # The farming rule: Anne's first three games with Bob weigh 1, ½, ⅓; the one with Carl too is new (1); a week
    # later the window has passed and the next with Bob weighs 1 again. Anne made every decision of her seat.
    current, points = ratings.store.everything()
    assert current[(anne, "coucou")].games == pytest.approx(1 + 1 / 2 + 1 / 3 + 1 + 1)
    # Carl left: he finished last, below everyone who stayed, so his μ went down; his share is his part of the
    # decisions of his seat (he made one).
    carl_after = current[(carl, "coucou")]
    assert carl_after.mu < NEW.mu and 0 < carl_after.games < 1
    # A win never lowers the number shown.
    for row in rated:
        holders = tables.store.holders(row.game_id)
        stored = tables.games.store.game(row.game_id)
        assert stored is not None
        state = tables.games._folds.fold(*stored)
        for player in {anne, bob}:
            if player not in holders.values():
                continue
            label = next(label for label, holder in holders.items() if holder == player)
            previous = [key for key in points if key[1] == player and key[0] < row.number]
            if getattr(state, "winner", None) is not None and str(state.winner) == label and previous:
                assert points[(row.number, player)].shown >= points[max(previous)].shown
    # The rebuild recomputes every rating from the stored games: exactly the live numbers, from the service and from
    # the command (which sets its options in the environment: restored after the test).
    assert ratings.rebuild() == len(rated)
    assert ratings.store.everything() == (current, points)
    monkeypatch.setenv("COUYON_DATABASE_URL", database_url)
    assert main(["ratings", "rebuild", "--database-url", database_url]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == len(rated)
    assert ratings.store.everything() == (current, points)
    # A table's lobby shows each person's rating in its game, and nothing for a seat without one.
    lobby = tables.open(anne, "coucou", COUCOU, 0)
    tables.take_seat(bob, lobby["code"], lobby["secret"], "2")
    seats = {seat["seat"]: seat for seat in tables.show(anne, lobby["code"], lobby["secret"])["seats"]}
    assert seats["1"]["rating"] == round(current[(anne, "coucou")].shown, 2) and seats["1"]["rating_provisional"]
    assert seats["2"]["rating"] == round(current[(bob, "coucou")].shown, 2) and seats["3"]["rating"] is None
    # A game already rated is not rated twice.
    assert ratings.rate(games[0]) is False
    # The routes: my level with its curve; the board only once no longer provisional.
    mine = anne_client.get("/api/ratings/me").json()
    [coucou] = mine["games"]
    assert coucou["game"] == "coucou" and len(coucou["curve"]) == 5 and coucou["rating"]["provisional"] is True
    assert coucou["rating"]["rating"] == round(current[(anne, "coucou")].shown, 2) and coucou["challenge"] is None
    assert bob_client.get("/api/ratings/board", params={"game": "coucou"}).json() == {"game": "coucou", "entries": []}
    assert make_client().get("/api/ratings/me").json()["games"] == []


def test_bad_input_to_the_ratings_routes_is_one_sentence(make_client: Any) -> None:
    client = make_client()
    unknown = client.get("/api/ratings/board", params={"game": "whist"})
    assert unknown.status_code == 422 and unknown.json()["error"]["message"].startswith("There is no game 'whist'")
    nobody = client.get("/api/ratings/board", params={"game": "coucou", "name": "Zoé"})
    assert nobody.status_code == 404
    assert nobody.json()["error"]["message"] == "Nobody named 'Zoé' is on the board by rating of Coucou."
    missing = client.get("/api/ratings/board")
    assert missing.status_code == 422 and "message" in missing.json()["error"]


def test_closed_tournaments_give_a_challenge_performance_corrected_for_the_field(make_client: Any, clock: Any) -> None:
    clients = [make_client() for _ in range(2)]
    for client, name in zip(clients, ("Anne", "Bob"), strict=True):
        client.app.state.service.replay = replay_check  # Verified in this process, as tests/server/test_clubs.py does.
        named(client, name)
    club = clients[0].post("/api/clubs", json={"name": "Café du Marché"}).json()
    assert clients[1].post("/api/clubs/join", json={"code": club["code"]}).status_code == 200
    body = {"name": "Tournoi", "game": "couyon", "options": {"level": "beginner"}, "count": None, "deals": 3}
    body |= {"opens_at": clock.now.isoformat(), "closes_at": (clock.now + dt.timedelta(hours=2)).isoformat()}
    tournament = clients[0].post(f"/api/clubs/{club['id']}/tournaments", json=body).json()
    for index, client in enumerate(clients):
        rng = random.Random(index)
        while (started := client.post(f"/api/tournaments/{tournament['id']}/play")).status_code == 201:
            play_to_end(client, started.json(), rng)
    ratings = clients[0].app.state.ratings
    # Open: no challenge performance yet (the field is not complete).
    assert clients[0].get("/api/ratings/me").json()["games"][0]["challenge"] is None
    clock.advance(dt.timedelta(hours=3))
    results = clients[0].get(f"/api/tournaments/{tournament['id']}/results").json()
    rows = {row["name"]: row for row in results["standings"]}
    deals = [
        clients[0].get(f"/api/tournaments/{tournament['id']}/deals/{deal['game']}/{deal['deal']}").json()["results"]
        for deal in results["deals"]
    ]
    for client, name, other in ((clients[0], "Anne", "Bob"), (clients[1], "Bob", "Anne")):
        own = [line["percent"] for lines in deals for line in lines if line["entrant"] == rows[name]["entrant"]]
        # Each deal's percentage plus how far its field (the other's duplicate score) is above 50.
        corrected = [percent + rows[other]["duplicate"] - 50 for percent in own]
        expected = statistics.fmean(corrected)
        interval = 1.96 * statistics.stdev(corrected) / len(corrected) ** 0.5  # 95 % of the mean
        [couyon] = client.get("/api/ratings/me").json()["games"]
        # Each verified tournament game rated its person against the bots' anchor as it was entered, but for a deal
        # both teams finished equal (a tie, a deal nobody took): one team, nothing to rate.
        decided = [
            game["game_id"]
            for game in client.get(f"/api/tournaments/{tournament['id']}").json()["games"]
            if len(teams(ratings._places(game["game_id"])[1])) > 1
        ]
        assert couyon["game"] == "couyon" and len(couyon["curve"]) == len(decided)
        assert (couyon["rating"] or {"games": 0})["games"] == len(decided)
        challenge = couyon["challenge"]
        assert challenge["deals"] == 3 and challenge["provisional"] is True
        assert challenge["performance"] == pytest.approx(expected, abs=0.1)
        assert challenge["interval"] == pytest.approx(interval, abs=0.1)
    live = ratings.store.everything()
    assert ratings.rebuild() == 6 and ratings.store.everything() == live


def daily_played(clients: list[Any], game: str) -> None:
    """Each client's ranked attempt of ``game``'s challenge of the day, played to its end with random legal moves,
    then verified."""
    for index, client in enumerate(clients):
        answer = play_to_end(client, new_game(client, "daily", game=game), random.Random(index))
        assert client.get(f"/api/games/{answer['id']}").json()["leaderboard"] is not None


def corrected_deals(clients: list[Any], game: str, day: str) -> list[list[float]]:
    """Each client's corrected percentage on each deal of ``game``'s challenge of ``day`` (over), in deal order,
    worked out here from each one's line of each deal as the day's traveller tells it: matchpoints against the
    others who played the deal, plus how far their average duplicate score is above 50."""
    own = [client.get(f"/api/daily/results?game={game}&day={day}").json()["traveller"] for client in clients]
    played = [{line["deal"]: line["you"] for line in lines if line["you"] is not None} for lines in own]
    everyone = range(len(clients))

    def percent(player: int, deal: int) -> float:
        mine = deal_value(played[player][deal])
        others = [deal_value(played[other][deal]) for other in everyone if other != player and deal in played[other]]
        wins = sum(1.0 if mine > value else 0.5 if mine == value else 0.0 for value in others)
        return round(100 * wins / len(others), 1) if others else 50.0

    duplicate = [round(statistics.fmean(percent(player, deal) for deal in played[player]), 1) for player in everyone]
    found = []
    for player in everyone:
        corrected = []
        for deal in sorted(played[player]):
            field = [duplicate[other] for other in everyone if other != player and deal in played[other]]
            corrected.append(percent(player, deal) + (statistics.fmean(field) if field else 50.0) - 50)
        found.append(corrected)
    return found


def assert_challenge(challenge: dict[str, Any], corrected: list[float]) -> None:
    assert challenge["deals"] == len(corrected) and challenge["provisional"] is True
    assert challenge["performance"] == pytest.approx(statistics.fmean(corrected), abs=0.1)
    assert challenge["interval"] == pytest.approx(1.96 * statistics.stdev(corrected) / len(corrected) ** 0.5, abs=0.1)


def test_the_daily_challenge_of_a_day_that_is_over_gives_a_challenge_performance(make_client: Any, clock: Any) -> None:
    clients = [make_client(table_bot="random/1") for _ in range(3)]
    for index, client in enumerate(clients):
        named(client, f"Joueur {index}")
    daily_played(clients, "couyon")
    # The day still runs: its field is not complete, nothing counts yet.
    assert all(client.get("/api/ratings/me").json()["games"] == [] for client in clients)
    day = clock.now.date().isoformat()
    clock.advance(dt.timedelta(days=1))
    for client, corrected in zip(clients, corrected_deals(clients, "couyon", day), strict=True):
        [couyon] = client.get("/api/ratings/me").json()["games"]
        assert couyon["game"] == "couyon" and couyon["rating"] is None  # A solo game rates no play with people.
        assert couyon["challenge"]["games"] == ["couyon"]
        assert_challenge(couyon["challenge"], corrected)


def test_tarot_at_3_and_at_4_give_one_challenge_performance_of_their_family(make_client: Any, clock: Any) -> None:
    clients = [make_client(table_bot="random/1") for _ in range(2)]
    for index, client in enumerate(clients):
        named(client, f"Joueur {index}")
    daily_played(clients, "tarot3")
    daily_played(clients, "tarot4")
    day = clock.now.date().isoformat()
    clock.advance(dt.timedelta(days=1))
    at_3, at_4 = corrected_deals(clients, "tarot3", day), corrected_deals(clients, "tarot4", day)
    for index, client in enumerate(clients):
        games = client.get("/api/ratings/me").json()["games"]
        # One entry for each game played, each with the family's performance: both days' deals, together.
        assert [game["game"] for game in games] == ["tarot3", "tarot4"]
        assert games[0]["challenge"] == games[1]["challenge"]
        assert games[0]["challenge"]["games"] == ["tarot3", "tarot4"]
        assert_challenge(games[0]["challenge"], at_3[index] + at_4[index])
