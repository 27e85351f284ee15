"""Reviews kept: ``reviews`` holds each finished game's review, built once.

A review costs up to a second of CPU (a Malmedy game's) and was kept only in each process's
memory, for the last 64 games, so a client with more finished games could have every request
build one again. A row per game and ``revealed`` (a daily game's review before its day is
over hides what South did not see, and is a row of its own); ``version`` is the couyon
version that built it, ``body`` its JSON, zlib-compressed. Nothing is stored yet: each review
is built by its first request. It goes with its game.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("revealed", sa.Boolean, primary_key=True),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("body", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
