"""The retention rule reads games and players by creation time: index ``created_at`` of both.

``Store.prune`` deletes the games left unfinished and the players owning nothing some days
after their creation; without these indexes each run would read both tables whole.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_index("ix_players_created_at", "players", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_players_created_at", table_name="players")
    op.drop_index("ix_games_created_at", table_name="games")
