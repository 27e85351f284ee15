"""Levels and hints: each level of a game has its own free board, and a game helped by a hint is not ranked.

- ``leaderboard_entries.level``: the level of the simulated players the game was played
  against (``beginner``, ``expert``, coucou's ``easy``/``normal``/``expert``), "" for a game
  without levels (tarot). Entries already stored get theirs: couyon and Malmedy were only ever
  played against their table (``expert``); a coucou game keeps its level in its options'
  canonical JSON. The ranking index begins with game, board and level.
- ``hints``: the moves of a game at which its player asked for the expert's card (one row per
  move number, however often asked). Nothing else refers to it; it goes with its game.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

COUCOU_LEVELS = ("easy", "normal", "expert")


def upgrade() -> None:
    op.add_column("leaderboard_entries", sa.Column("level", sa.String(16), nullable=False, server_default=""))
    bind = op.get_bind()
    bind.execute(sa.text("UPDATE leaderboard_entries SET level = 'expert' WHERE game IN ('couyon', 'malmedy')"))
    for level in COUCOU_LEVELS:
        bind.execute(
            sa.text(
                "UPDATE leaderboard_entries SET level = :level WHERE game = 'coucou' AND game_id IN "
                "(SELECT id FROM games WHERE options LIKE :pattern)"
            ),
            {"level": level, "pattern": f'%"level":"{level}"%'},
        )
    op.drop_index("ix_leaderboard_entries_rank", table_name="leaderboard_entries")
    op.create_index(
        "ix_leaderboard_entries_rank",
        "leaderboard_entries",
        ["game", "board", "level", "day", "score", "deals", "finished_at"],
    )
    op.create_table(
        "hints",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    )


def downgrade() -> None:
    op.drop_table("hints")
    op.drop_index("ix_leaderboard_entries_rank", table_name="leaderboard_entries")
    op.create_index(
        "ix_leaderboard_entries_rank", "leaderboard_entries", ["game", "board", "day", "score", "deals", "finished_at"]
    )
    op.drop_column("leaderboard_entries", "level")
