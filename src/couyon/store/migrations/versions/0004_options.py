"""Games with table options, and longer moves: what tarot and coucou need.

- ``games.options``: the table options a game was dealt with, as canonical JSON
  (``{"players":8,"tokens":3}``); every row written before has none (``""``).
- ``moves.move`` grows from 16 to 160 characters: a tarot poignée names up to 15 trumps and
  an écart six cards (PostgreSQL enforces the length; SQLite does not).

As in 0003, ``games`` only gets a column added in place (rebuilding it on SQLite would delete
its moves through ``ON DELETE CASCADE``); ``moves`` is rebuilt by batch mode, which nothing
references.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("options", sa.String(128), nullable=False, server_default=""))
    with op.batch_alter_table("moves") as batch:
        batch.alter_column("move", type_=sa.String(160), existing_type=sa.String(16), existing_nullable=False)


def downgrade() -> None:
    connection = op.get_bind()
    longer = connection.execute(sa.text("SELECT COUNT(*) FROM moves WHERE LENGTH(move) > 16")).scalar_one()
    with_options = connection.execute(sa.text("SELECT COUNT(*) FROM games WHERE options <> ''")).scalar_one()
    if longer or with_options:
        raise RuntimeError("games with table options or long moves are stored: they cannot go back to revision 0003")
    with op.batch_alter_table("moves") as batch:
        batch.alter_column("move", type_=sa.String(16), existing_type=sa.String(160), existing_nullable=False)
    # Never a rebuild of ``games`` (see above): SQLite 3.35 and later drop a column in place.
    op.drop_column("games", "options")
