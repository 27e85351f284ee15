"""Several games at one site: every game, daily attempt and leaderboard entry keeps its game id.

- ``games.game``: the registry's id of the game (``couyon``, ``malmedy``, …); every row
  written before is the common couyon. The ``variant`` column stays (the record's key).
- ``daily_attempts``: one ranked attempt per player, game and day; the primary key
  becomes (player_id, game, day) and each existing attempt keeps its game.
- ``leaderboard_entries.game``: boards are per game, so the ranking index begins with it.
- ``moves.move`` grows from 8 to 16 characters: a Malmedy move such as ``S:recontra`` is 10,
  and PostgreSQL enforces the length (SQLite does not).

The new columns keep ``'couyon'`` as their server default, so that the rows of a process of
the previous version (one still running while a newer one migrated) land in the common game.

On SQLite, ``games`` is only given a column (``ALTER TABLE ADD COLUMN``), never copied:
with foreign keys on, dropping it to rebuild it would delete every move, attempt and entry
through their ``ON DELETE CASCADE``. The primary key of ``daily_attempts`` and the type of
``moves.move`` can only change by rebuilding those two tables (Alembic's batch mode copies
every row into the new table); nothing references them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

LEGACY_GAME = "couyon"


def _game_column(primary_key: bool = False) -> sa.Column[str]:
    return sa.Column("game", sa.String(32), nullable=False, primary_key=primary_key, server_default=LEGACY_GAME)


def _is_sqlite() -> bool:
    return bool(op.get_bind().dialect.name == "sqlite")


def upgrade() -> None:
    op.add_column("games", _game_column())
    with op.batch_alter_table("moves") as batch:
        batch.alter_column("move", type_=sa.String(16), existing_type=sa.String(8), existing_nullable=False)
    op.add_column("daily_attempts", _game_column())
    if _is_sqlite():
        # SQLite cannot alter a primary key (nor name one): the table is rebuilt, every row copied, its
        # key made of the columns flagged as such, the reflected player_id and day plus this game.
        with op.batch_alter_table("daily_attempts", recreate="always", reflect_args=(_game_column(True),)):
            pass
    else:
        op.drop_constraint("daily_attempts_pkey", "daily_attempts", type_="primary")
        op.create_primary_key("daily_attempts_pkey", "daily_attempts", ["player_id", "game", "day"])
    op.add_column("leaderboard_entries", _game_column())
    op.drop_index("ix_leaderboard_entries_rank", table_name="leaderboard_entries")
    op.create_index(
        "ix_leaderboard_entries_rank", "leaderboard_entries", ["game", "board", "day", "score", "deals", "finished_at"]
    )


def downgrade() -> None:
    # Only rows of the common game fit the previous schema: refuse rather than drop the other games' rows.
    others = op.get_bind().execute(sa.text("SELECT count(*) FROM games WHERE game <> :game"), {"game": LEGACY_GAME})
    if others.scalar_one():
        raise RuntimeError("games other than couyon are stored: revision 0002 cannot hold them")
    op.drop_index("ix_leaderboard_entries_rank", table_name="leaderboard_entries")
    op.create_index(
        "ix_leaderboard_entries_rank", "leaderboard_entries", ["board", "day", "score", "deals", "finished_at"]
    )
    op.drop_column("leaderboard_entries", "game")
    # On SQLite a rebuild whose key loses the column; PostgreSQL drops the key with the column.
    with op.batch_alter_table("daily_attempts") as batch:
        batch.drop_column("game")
    if not _is_sqlite():
        op.create_primary_key("daily_attempts_pkey", "daily_attempts", ["player_id", "day"])
    with op.batch_alter_table("moves") as batch:
        batch.alter_column("move", type_=sa.String(8), existing_type=sa.String(16), existing_nullable=False)
    # Never a rebuild of ``games`` (see above): SQLite 3.35 and later drop a column in place.
    op.drop_column("games", "game")
