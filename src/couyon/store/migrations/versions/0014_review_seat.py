"""Reviews by seat: ``reviews.seat``, the label of the seat a kept review is written from, joins its key.

Issue 21: at a friends' table each person reads the review from his own seat (his hand, his
decisions judged, his camp's totals), so a game has a review per seat, each kept once. Every row
stored until now is the solo table's review, written from its human's seat: seat 1 at coucou and
as qui court, South at every other game (tarot has no review). Those rows are kept, their seat set
so; the key becomes game, seat and revealed. Going back keeps the human seat's rows only: revision
0013 keys a review by its game and revealed alone, and would serve another seat's as the human's.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

SEAT_ONE_GAMES = "('coucou', 'as-qui-court')"
"""The games whose solo table's human holds seat 1; South holds it at every other."""
HUMAN_SEAT = f"CASE WHEN game_id IN (SELECT id FROM games WHERE game IN {SEAT_ONE_GAMES}) THEN '1' ELSE 'S' END"
"""The label of the solo table's human's seat, for a row of ``reviews``."""


def _is_sqlite() -> bool:
    return bool(op.get_bind().dialect.name == "sqlite")


def upgrade() -> None:
    op.add_column("reviews", sa.Column("seat", sa.String(8), nullable=False, server_default="S"))
    op.get_bind().execute(sa.text(f"UPDATE reviews SET seat = {HUMAN_SEAT}"))
    if _is_sqlite():
        # SQLite cannot alter a primary key: the table is rebuilt, every row copied, its key made of the columns
        # flagged as such (the reflected game_id and revealed, and this seat), the seat without a default.
        seat = sa.Column("seat", sa.String(8), nullable=False, primary_key=True)
        with op.batch_alter_table("reviews", recreate="always", reflect_args=(seat,)):
            pass
    else:
        op.alter_column("reviews", "seat", server_default=None)
        op.drop_constraint("reviews_pkey", "reviews", type_="primary")
        op.create_primary_key("reviews_pkey", "reviews", ["game_id", "seat", "revealed"])


def downgrade() -> None:
    op.get_bind().execute(sa.text(f"DELETE FROM reviews WHERE seat <> {HUMAN_SEAT}"))
    # On SQLite a rebuild whose key loses the column; PostgreSQL drops the key with the column.
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("seat")
    if not _is_sqlite():
        op.create_primary_key("reviews_pkey", "reviews", ["game_id", "revealed"])
