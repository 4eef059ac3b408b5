"""Scorer keys, one hand per number, and the trail of corrections and removals.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    # SQLite adds a NOT NULL column only with a default; every existing game
    # then gets its own unguessable key.
    op.add_column("game", sa.Column("scorer_key", sa.String(64), nullable=False, server_default=""))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.text("SELECT id FROM game")).all():
        connection.execute(sa.text("UPDATE game SET scorer_key = :key WHERE id = :id"),
                           {"key": secrets.token_urlsafe(24), "id": game_id})
    op.create_index("uq_hand_game_id_number", "hand", ["game_id", "number"], unique=True)
    op.create_table(
        "change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("before", sa.Text()),
        sa.Column("after", sa.Text()),
    )
    op.create_index("ix_change_game_id", "change", ["game_id"])


def downgrade():
    op.drop_index("ix_change_game_id", "change")
    op.drop_table("change")
    op.drop_index("uq_hand_game_id_number", "hand")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("scorer_key")
