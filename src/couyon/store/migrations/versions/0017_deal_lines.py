"""Kept deal lines: each verified daily game's deal results (``GameKind.deal_results``), folded once.

Issue 35: the challenge performance compares a person's deals of every past day with the whole field of that day,
and the field's lines were folded again, game by game, by every process on its first read (some two seconds for
thirty days of twenty players). A row is a cache of a function of the game's seed and moves and of the code that
folded it (``version``: ``registry.REVIEW_CODE``, as a kept review's); another version is folded again. Deleting
every row changes no answer, only its speed. New table only: no existing row changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_deal_lines"
down_revision = "0016_puzzles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_lines",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("lines", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deal_lines")
