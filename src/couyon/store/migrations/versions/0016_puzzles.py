"""Puzzles (issue 34, docs/puzzles.md): the mined puzzles and the source games they came from, each player's puzzle
rating per game, his answers (one per player and puzzle, by the primary key), his rating after each answer, and
the puzzle of each day.

New tables only: no existing row changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_puzzles"
down_revision = "0015_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_sources",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("seed", sa.String(200), primary_key=True),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("candidates", sa.Integer, nullable=False),
        sa.Column("puzzles", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(20), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seed", sa.String(200), nullable=False),
        sa.Column("certain", sa.Boolean, nullable=False),
        sa.Column("themes", sa.String(200), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("answers", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.ForeignKeyConstraint(
            ["game", "seed"],
            ["puzzle_sources.game", "puzzle_sources.seed"],
            name="fk_puzzles_source",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_puzzles_game_rating", "puzzles", ["game", "rating"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("answers", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("puzzle_id", sa.String(20), sa.ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("card", sa.String(8), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("daily", sa.Date, nullable=True),
        sa.Column("answered_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("player_id", "game", "number", name="uq_puzzle_attempts_number"),
    )
    op.create_table(
        "puzzle_rating_points",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("puzzle_id", sa.String(20), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("answered_at", sa.DateTime, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id", "puzzle_id"],
            ["puzzle_attempts.player_id", "puzzle_attempts.puzzle_id"],
            name="fk_puzzle_rating_points_attempt",
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "puzzle_dailies",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("puzzle_id", sa.String(20), sa.ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
    )


def downgrade() -> None:
    for table in ("puzzle_dailies", "puzzle_rating_points", "puzzle_attempts", "puzzle_ratings", "puzzles"):
        op.drop_table(table)
    op.drop_table("puzzle_sources")
