"""Tarot's levels: a tarot game is played against the baseline bots (``beginner``) or the table's experts.

Tarot's leaderboard entries were stored with the level "" (a game without levels, 0008); every one
of them was played against the table, so they become the ``expert`` level's, the daily's and the
free board's default.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TAROT = "('tarot3', 'tarot4', 'tarot5')"


def upgrade() -> None:
    op.get_bind().execute(sa.text(f"UPDATE leaderboard_entries SET level = 'expert' WHERE game IN {TAROT}"))


def downgrade() -> None:
    bind = op.get_bind()
    beginners = bind.execute(
        sa.text(f"SELECT COUNT(*) FROM leaderboard_entries WHERE game IN {TAROT} AND level <> 'expert'")
    ).scalar_one()
    if beginners:
        raise RuntimeError("cannot downgrade: tarot entries of another level than expert are stored")
    bind.execute(sa.text(f"UPDATE leaderboard_entries SET level = '' WHERE game IN {TAROT}"))
