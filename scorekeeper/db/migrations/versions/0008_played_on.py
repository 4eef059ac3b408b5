"""The day each game was played: a column of its own, no longer the time it was created (which a secretary
dating a game used to change), for the season's filters, its order and the club's ratings.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

FILLED_BELOW = "1900-01-01"  # never a game's day: the update below gives every row its own


def upgrade():
    # SQLite adds a required column only with a constant default (and recreating the game table would drop
    # its checks, and with foreign keys on, every row that refers to it): every row gets its day just below.
    op.add_column("game", sa.Column("played_on", sa.Date(), nullable=False, server_default=FILLED_BELOW))
    # A game was played the day it was created, or the day its secretary dated it (which moved created_at).
    op.execute("UPDATE game SET played_on = CAST(created_at AS DATE)"
               if op.get_bind().dialect.name == "postgresql" else "UPDATE game SET played_on = DATE(created_at)")
    op.create_index("ix_game_played_on_id", "game", ["played_on", "id"])


def downgrade():
    op.drop_index("ix_game_played_on_id", "game")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("played_on")
