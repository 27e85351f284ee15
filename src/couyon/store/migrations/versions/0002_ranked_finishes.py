"""Ranked finishes: when a ranked game's last move was stored, and why its entry was refused, if it was.

The leaderboard's verifying replay runs after the final move's answer; this row keeps what
it needs (the finish time, for the daily "finished on its day" rule and ``finished_at``) and
its refusal, so a refused game is not replayed again on every request.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ranked_finishes",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("finished_at", sa.DateTime, nullable=False),
        sa.Column("refusal", sa.String(200), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("ranked_finishes")
