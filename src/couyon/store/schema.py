"""The tables of the store: games as game id + seed + variant + bot + moves, and what hangs off them.

Nothing derived from a replay is stored except the leaderboard's verified score, which is
written only after the server has replayed the finished game itself, and a finished game's
review, which is built from the stored moves once and never changes. Migrations (Alembic,
``couyon/store/migrations``) create exactly these tables.

``game`` is the registry's id of a game (``couyon.registry``). Rows written before it existed
(migration 0003) are the common couyon: the column's server default says so, which also lets a
process of the previous version insert rows while a newer one has already migrated.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
)

LEGACY_GAME = "couyon"
"""The game of every row written before the store kept a game id (migration 0003)."""

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(24), nullable=True),
    # Indexed for the retention rule (migration 0006), as is games.created_at.
    Column("created_at", DateTime, nullable=False, index=True),
    # What the name looks like (``couyon.server.names.skeleton``): names of equal skeletons are mistaken
    # for each other, so a name may not look like that of another player on a leaderboard (migration 0005).
    Column("name_skeleton", String(128), nullable=True, index=True),
    # How many new recovery codes the player has made: only a code of this generation is good (migration 0009).
    Column("recovery_generation", Integer, nullable=False, server_default="0"),
)

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("player_id", String(64), nullable=False, index=True),
    Column("mode", String(8), nullable=False),
    Column("day", Date, nullable=True),
    Column("ranked", Boolean, nullable=False),
    Column("seed", String(128), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("bot_id", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False, index=True),
    Column("game", String(32), nullable=False, server_default=LEGACY_GAME),
    # The table options of the game as canonical JSON (``{"players":8,"tokens":3}``), "" for none.
    Column("options", String(128), nullable=False, server_default=""),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # The primary key (game_id, number) is what makes a forked game impossible: move N is written once.
    Column("number", Integer, primary_key=True, autoincrement=False),
    # 160: a tarot poignée shows up to 15 trumps ("NW:poignee:1T,2T,…" is under 80 characters) and an
    # écart six cards; PostgreSQL enforces the length.
    Column("move", String(160), nullable=False),
)

daily_attempts = Table(
    "daily_attempts",
    metadata,
    # One ranked attempt per player, game and Europe/Brussels day, counted from its creation.
    Column("player_id", String(64), primary_key=True),
    Column("game", String(32), primary_key=True, server_default=LEGACY_GAME),
    Column("day", Date, primary_key=True),
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
)

leaderboard_entries = Table(
    "leaderboard_entries",
    metadata,
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("board", String(8), nullable=False),
    Column("day", Date, nullable=True),
    Column("player_id", String(64), nullable=False),
    Column("score", Integer, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("finished_at", DateTime, nullable=False),
    Column("game", String(32), nullable=False, server_default=LEGACY_GAME),
    # The simulated players' level the game was played against; "" for a game without levels (migration 0008).
    # Each level of a game has its own boards.
    Column("level", String(16), nullable=False, server_default=""),
    Index("ix_leaderboard_entries_rank", "game", "board", "level", "day", "score", "deals", "finished_at"),
    # Whether a player is on a board (names, migration 0005).
    Index("ix_leaderboard_entries_player_id", "player_id"),
)

ranked_finishes = Table(
    "ranked_finishes",
    metadata,
    # Written with a ranked game's final move; ``refusal`` is set once its verifying replay refuses it.
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("finished_at", DateTime, nullable=False),
    Column("refusal", String(200), nullable=True),
)

hints = Table(
    "hints",
    metadata,
    # The move numbers at which the player of a free game asked for the expert's move (migration 0008):
    # a game with a hint is never ranked.
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
)

reviews = Table(
    "reviews",
    metadata,
    # A finished game's review, built once (``GameService.review``, migration 0011): it costs up to a second of
    # CPU and never changes. ``seat`` is the label of the seat it is written from (migration 0014: the solo
    # table's human, "S" or "1"; each person's own at a friends' table). ``revealed`` false is the review of a
    # daily game before its day is over, which hides what that seat did not see; true, the whole review.
    # ``version`` is the code that built it (``registry.REVIEW_CODE``: the couyon version and a hash of the games'
    # and common code; other code builds it again); ``body`` its JSON, zlib-compressed.
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    Column("revealed", Boolean, primary_key=True),
    Column("version", String(32), nullable=False),
    Column("body", LargeBinary, nullable=False),
)

deal_lines = Table(
    "deal_lines",
    metadata,
    # A verified daily game's deal results (``GameKind.deal_results``) as JSON, folded once for the day's field
    # (migration 0017); ``version`` is the code that folded them (``registry.REVIEW_CODE``). A cache: deleting it
    # changes no answer.
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", String(32), nullable=False),
    Column("lines", Text, nullable=False),
)

settings = Table(
    "settings",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", String(256), nullable=False),
)

rate_counts = Table(
    "rate_counts",
    metadata,
    # Requests of one kind by one player id or address in one minute, added up by every server process
    # (``couyon.server.limits.RateLimiter``; migration 0007). A row of an older minute is reset when
    # its key comes back, and deleted by the retention rule otherwise.
    Column("key", String(200), primary_key=True),
    Column("minute", BigInteger, nullable=False),
    Column("count", Integer, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    # A friends' table (issue 21, migration 0012): ``code`` is read aloud, ``secret`` is in its link; ``state`` is
    # waiting, playing, over or closed (untouched for the retention period: ``Store.prune``); ``game_id`` its current game; ``moved_at`` when that game's last move was stored
    # (every process derives the clock's deadline from it); ``results`` its own JSON results while it lives.
    Column("code", String(6), primary_key=True),
    Column("secret", String(32), nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", String(128), nullable=False, server_default=""),
    Column("clock", Integer, nullable=False, server_default="0"),
    Column("host_id", String(64), nullable=False),
    Column("state", String(8), nullable=False),
    Column("game_id", String(40), nullable=True),
    Column("games_played", Integer, nullable=False, server_default="0"),
    Column("results", Text, nullable=False, server_default="{}"),
    Column("moved_at", DateTime, nullable=True),
    Column("created_at", DateTime, nullable=False, index=True),
)

table_seats = Table(
    "table_seats",
    metadata,
    # Who holds a seat: a player id, or none (free before the start, the table's bot once it started). ``bot_now``:
    # the host gave the seat to the bot until its player comes back; ``seen_at``: when a process last held a socket
    # of the seat's player (the grace period counts from it, whichever process holds the socket).
    Column("code", String(6), ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    Column("player_id", String(64), nullable=True),
    Column("bot_now", Boolean, nullable=False, server_default=false()),
    Column("rematch", Boolean, nullable=False, server_default=false()),
    Column("seen_at", DateTime, nullable=True),
)

game_seats = Table(
    "game_seats",
    metadata,
    # Who held each seat of a table game (a player id; none: the game's bot). A game without rows is a solo game.
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    Column("player_id", String(64), nullable=True),
)

seat_bot_moves = Table(
    "seat_bot_moves",
    metadata,
    # The moves of a person's seat that the bot made (its clock ran out, its player was gone past the grace period,
    # the host gave it to the bot): the verifying replay recomputes them as bot moves.
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
)
