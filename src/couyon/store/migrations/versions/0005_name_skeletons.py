"""Names that look alike: every player's name gets its skeleton, and entries an index by player.

- ``players.name_skeleton``: what the name looks like (``couyon.server.names.skeleton``),
  indexed; a new name may not have the skeleton of another player on a leaderboard. Every
  stored name gets its skeleton here (with the rules of this revision).
- ``ix_leaderboard_entries_player_id``: whether a player is on a board, without reading
  every entry.

``players`` only gets a column added in place; nothing is rebuilt.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from couyon.server.names import skeleton

    op.add_column("players", sa.Column("name_skeleton", sa.String(128), nullable=True))
    op.create_index("ix_players_name_skeleton", "players", ["name_skeleton"])
    op.create_index("ix_leaderboard_entries_player_id", "leaderboard_entries", ["player_id"])
    connection = op.get_bind()
    named = connection.execute(sa.text("SELECT id, name FROM players WHERE name IS NOT NULL")).all()
    for player_id, name in named:
        connection.execute(
            sa.text("UPDATE players SET name_skeleton = :skeleton WHERE id = :id"),
            {"skeleton": skeleton(name)[:128], "id": player_id},
        )


def downgrade() -> None:
    op.drop_index("ix_leaderboard_entries_player_id", table_name="leaderboard_entries")
    op.drop_index("ix_players_name_skeleton", table_name="players")
    # SQLite 3.35 and later drop a column in place.
    op.drop_column("players", "name_skeleton")
