"""Rate limits shared by every server process of a database: ``rate_counts``.

Each row is one player id's or address's count of requests of one kind (new games, moves,
reads) in one minute (``minute``: minutes since 1970), added up by every process
(``couyon.server.limits.RateLimiter``). Nothing else refers to it; the retention rule deletes
the rows of past minutes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counts",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("minute", sa.BigInteger, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_counts")
