"""Clubs and tournaments: clubs, their members, tournaments and their entries, and friends' challenges.

Issue 22. New tables only: no existing row changes. A tournament's games are rows of ``games``
(mode ``club``) tied to it by ``tournament_entries``; a challenge's games (mode ``duel``) by
``challenge_games``; both go with their game (``ON DELETE CASCADE``). Players are named by id
without a foreign key, as ``daily_attempts`` does. Independent of ``0012_tables``: it touches
none of its tables.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("link", sa.String(32), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_club_members_player_id", "club_members", ["player_id"])
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.String(128), nullable=False, server_default=""),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("opens_at", sa.DateTime, nullable=False),
        sa.Column("closes_at", sa.DateTime, nullable=False),
        sa.Column("weekly", sa.Boolean, nullable=False),
        sa.Column("series_id", sa.String(24), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("series_id", "opens_at", name="uq_tournaments_series_week"),
    )
    op.create_index("ix_tournaments_club_id", "tournaments", ["club_id"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
        sa.Column("lines", sa.Text, nullable=True),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "challenge_games",
        sa.Column("challenge_id", sa.String(24), sa.ForeignKey("challenges.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
    )


def downgrade() -> None:
    for table in ("challenge_games", "challenges", "tournament_entries", "tournaments", "club_members", "clubs"):
        op.drop_table(table)
