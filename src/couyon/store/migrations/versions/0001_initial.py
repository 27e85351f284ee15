"""The first schema: players, games, moves, daily attempts, leaderboard entries, settings."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(24), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("day", sa.Date, nullable=True),
        sa.Column("ranked", sa.Boolean, nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("bot_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_games_player_id", "games", ["player_id"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("move", sa.String(8), nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
    )
    op.create_table(
        "leaderboard_entries",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("board", sa.String(8), nullable=False),
        sa.Column("day", sa.Date, nullable=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=False),
    )
    op.create_index(
        "ix_leaderboard_entries_rank", "leaderboard_entries", ["board", "day", "score", "deals", "finished_at"]
    )
    op.create_table(
        "settings",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(256), nullable=False),
    )


def downgrade() -> None:
    for table in ("settings", "leaderboard_entries", "daily_attempts", "moves", "games", "players"):
        op.drop_table(table)
