"""Hands keep a key through renumbering; the trail names hands by key and undos by entry.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("game", sa.Column("last_hand_key", sa.Integer(), nullable=False, server_default="0"))
    # A hand's number is unique in its game, so it serves as the first key.
    # Added with a default rather than through a batch copy of the table,
    # which on SQLite would drop the table's unnamed CHECK constraints.
    op.add_column("hand", sa.Column("key", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE hand SET key = number")
    op.execute("UPDATE game SET last_hand_key = (SELECT COALESCE(MAX(hand.key), 0) FROM hand WHERE hand.game_id = game.id)")
    op.create_index("uq_hand_game_id_key", "hand", ["game_id", "key"], unique=True)
    # Earlier entries do not say which hand they touched: they stay in the
    # trail, without a key, and cannot be undone.
    with op.batch_alter_table("change") as batch:
        batch.add_column(sa.Column("hand_key", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("after_key", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("undoes_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_change_undoes_id_change", "change", ["undoes_id"], ["id"])
    op.execute("UPDATE change SET action = 'undo' WHERE action = 'revert'")


def downgrade():
    op.execute("UPDATE change SET action = 'revert' WHERE action = 'undo'")
    with op.batch_alter_table("change") as batch:
        batch.drop_constraint("fk_change_undoes_id_change", type_="foreignkey")
        batch.drop_column("undoes_id")
        batch.drop_column("after_key")
        batch.drop_column("hand_key")
    op.drop_index("uq_hand_game_id_key", "hand")
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("key")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("last_hand_key")
