"""Ratings of play with people (issue 35): the games rated in their order, each person's rating per game, and
each rated game's new ratings.

New tables only: no existing row changes. ``ratings`` and ``rating_points`` are derived from the rated games
(``couyon ratings rebuild`` recomputes them); everything goes with its game (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_ratings"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_games",
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("people", sa.String(32), nullable=False),
        sa.Column("rated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_rating_games_people", "rating_games", ["game", "people", "rated_at"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("shown", sa.Float, nullable=False),
        sa.Column("games", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "shown"])
    op.create_table(
        "rating_points",
        sa.Column("number", sa.Integer, sa.ForeignKey("rating_games.number", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("shown", sa.Float, nullable=False),
        sa.Column("games", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_points_player_id", "rating_points", ["player_id"])


def downgrade() -> None:
    for table in ("rating_points", "ratings", "rating_games"):
        op.drop_table(table)
