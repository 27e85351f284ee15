"""Friends' tables (issue 21): ``tables``, their ``table_seats``, and each table game's ``game_seats`` and ``seat_bot_moves``.

A table is a code and a secret, a game with its options and clock, a host, a state, its current game and its own
results; its seats name who holds them (a player id, or none: free before the start, the table's bot after it).
A stored game keeps who held its seats (``game_seats``: a player id, none for the bot) and which moves of a
person's seat the bot made (``seat_bot_moves``: a clock that ran out, a player gone past the grace period, a seat
the host gave to the bot), so that the verifying replay knows which moves to recompute. Existing rows are not
touched: a game without ``game_seats`` is a solo game, as every game was before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("code", sa.String(6), primary_key=True),
        sa.Column("secret", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.String(128), nullable=False, server_default=""),
        sa.Column("clock", sa.Integer, nullable=False, server_default="0"),
        sa.Column("host_id", sa.String(64), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=True),
        sa.Column("games_played", sa.Integer, nullable=False, server_default="0"),
        sa.Column("results", sa.Text, nullable=False, server_default="{}"),
        sa.Column("moved_at", sa.DateTime, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False, index=True),
    )
    op.create_table(
        "table_seats",
        sa.Column("code", sa.String(6), sa.ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(8), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=True),
        sa.Column("bot_now", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("rematch", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("seen_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(8), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=True),
    )
    op.create_table(
        "seat_bot_moves",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    )


def downgrade() -> None:
    op.drop_table("seat_bot_moves")
    op.drop_table("game_seats")
    op.drop_table("table_seats")
    op.drop_table("tables")
