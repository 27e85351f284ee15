"""The clubs' tables (migration 0013, after the friends' tables of 0012) on both backends: up from 0011 with every row kept, the writes, and undone."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from tests.store.helpers import upgraded_from_0011
from tests.store.test_store import NOW, downgrade, rows_of

from couyon.store import LeaderboardEntry, Store, StoredGame
from couyon.store.clubs import AlreadyMember, Challenge, Club, ClubStore, Tournament

TABLES = ("clubs", "club_members", "tournaments", "tournament_entries", "challenges", "challenge_games")


def game(game_id: str, player_id: str, mode: str = "club") -> StoredGame:
    return StoredGame(game_id, player_id, mode, None, True, "seed-" + game_id, "standard", "random/1", NOW)


def tournament(tournament_id: str, series: str, opens: dt.datetime) -> Tournament:
    closes = opens + dt.timedelta(days=1)
    return Tournament(tournament_id, "c_1", "Lundi", "couyon", "", 2, opens, closes, True, series, NOW)


def test_migration_0013_keeps_every_row_and_its_tables_work_and_can_be_undone(database_url: str) -> None:
    store = Store(database_url)
    try:
        upgraded_from_0011(store, "g_old", NOW)
        assert set(TABLES) <= set(inspect(store.engine).get_table_names())

        clubs = ClubStore(store)
        club = Club("c_1", "Café", "ABCDEFGHJK", "ab" * 16, NOW)
        clubs.create_club(club, "p_1")
        with pytest.raises(IntegrityError):  # A code is one club's.
            clubs.create_club(Club("c_2", "Autre", "ABCDEFGHJK", "cd" * 16, NOW), "p_2")
        assert clubs.club("c_2") is None and clubs.clubs_of("p_2") == []  # Nothing of it was stored.
        assert clubs.club_by_code("ABCDEFGHJK") == club == clubs.club_by_code("ab" * 16)
        clubs.join("c_1", "p_2", NOW)
        with pytest.raises(AlreadyMember):
            clubs.join("c_1", "p_2", NOW)
        assert [(member.player_id, member.role, member.name) for member in clubs.members("c_1")] == [
            ("p_1", "creator", "Marie"),
            ("p_2", "member", None),
        ]
        assert clubs.hand_over("c_1", "p_1", "p_2")
        assert {member.player_id: member.role for member in clubs.members("c_1")} == {
            "p_1": "manager",
            "p_2": "creator",
        }
        assert not clubs.remove_member("c_1", "p_2")  # The creator stays.
        day = NOW.date()
        store.create_game(StoredGame("g_day", "p_2", "daily", day, True, "s", "standard", "expert/3", NOW), [])
        store.enter(LeaderboardEntry("g_day", "daily", day, "p_2", 1300, 9, NOW))
        store.create_game(StoredGame("g_out", "p_9", "daily", day, True, "s", "standard", "expert/3", NOW), [])
        store.enter(LeaderboardEntry("g_out", "daily", day, "p_9", 1500, 9, NOW))  # Not a member.
        assert [entry.game_id for entry in clubs.daily_entries("c_1", "couyon", day, day)] == ["g_day"]
        assert clubs.names(["p_1", "p_2"]) == {"p_1": "Marie", "p_2": None}

        first = tournament("t_1", "t_1", NOW)
        assert clubs.add_tournament(first)
        # One tournament per series and week: a second request making the same week finds it made.
        assert not clubs.add_tournament(tournament("t_2", "t_1", NOW))
        assert clubs.tournaments_of("c_1") == [first]
        assert clubs.create_entry("t_1", 1, game("g_a", "p_2"), ["E:pass"]) == "g_a"
        # A second device of the same player gets the same game: no second try.
        assert clubs.create_entry("t_1", 1, game("g_b", "p_2"), []) == "g_a"
        assert store.game("g_b") is None and store.game("g_a") is not None
        assert clubs.entries(["t_1"]) == [("t_1", "p_2", 1, "g_a", None)]
        # What the kept standings are checked against: the entries, the verified ones and their scores; the names.
        assert clubs.entries_state("t_1") == (1, 0, 0) and clubs.entries_state("t_2") == (0, 0, 0)
        store.enter(LeaderboardEntry("g_a", "club", None, "p_2", 1200, 9, NOW))
        assert clubs.entries_state("t_1") == (1, 1, 1200)
        assert clubs.entrant_names("t_1") == {"p_2": None} and clubs.entrant_names("t_2") == {}
        assert clubs.tournament_of_game("g_a") == first
        # The retention rule keeps an unfinished tournament game: its entry is the player's one try.
        # (The free game of 0011, ranked and left unfinished, goes as the rule says.)
        assert store.prune(NOW + dt.timedelta(days=30), lambda game, played: True).games == 1
        assert store.game("g_a") is not None and store.game("g_old") is None
        assert clubs.lines(["g_a"]) == {}
        clubs.set_lines("g_a", '[{"deal":1}]')
        assert clubs.lines(["g_a", "g_b"]) == {"g_a": '[{"deal":1}]'}

        store.create_game(game("g_old", "p_1", "free"), [])
        clubs.create_challenge(Challenge("d_1", "g_old", "p_1", NOW))
        assert clubs.take_challenge("d_1", game("g_c", "p_2", "duel"), []) == "g_c"
        assert clubs.take_challenge("d_1", game("g_d", "p_2", "duel"), []) == "g_c"
        assert clubs.challenge_games("d_1") == [("p_2", "g_c")]
        assert (
            clubs.challenge_of_game("g_c") == clubs.challenge_of_game("g_old") == Challenge("d_1", "g_old", "p_1", NOW)
        )

        # An entry and a challenge go with their game.
        assert store._delete_games(["g_a", "g_old"]) == 2
        assert rows_of(store, "tournament_entries") == [] and rows_of(store, "challenges") == []
        assert rows_of(store, "challenge_games") == []

        downgrade(store, "0011")
        assert not set(TABLES) & set(inspect(store.engine).get_table_names())
        store.migrate()
    finally:
        store.close()
