"""A new recovery code: ``players.recovery_generation`` counts the new codes a player has made.

A recovery code is signed with its generation (``couyon.server.identity``); the server accepts
only the code of the player's current generation, so making a new code ends every older one.
Players stored before keep 0: their codes, which carry no number, stay good until they make one.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("recovery_generation", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("players", "recovery_generation")
