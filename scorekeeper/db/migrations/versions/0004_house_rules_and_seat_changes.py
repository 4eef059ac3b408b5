"""House rules kept with each game, J♦ counted under that rule, players who join or leave.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    # Every existing game keeps the seeds' rules: the server defaults are theirs.
    # Columns are added with defaults rather than through a batch copy of the
    # table, which on SQLite would drop the table's unnamed CHECK constraints.
    op.add_column("game", sa.Column("moon_points", sa.Integer(), nullable=False, server_default="26"))
    op.add_column("game", sa.Column("moon_choice", sa.String(8), nullable=False, server_default="either"))
    op.add_column("game", sa.Column("passing", sa.String(96), nullable=False, server_default="left right"))
    op.add_column("game", sa.Column("cards_passed", sa.Integer(), nullable=False, server_default="3"))
    op.add_column("game", sa.Column("jack_of_diamonds", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("taking", sa.Column("jacks", sa.Integer(), sa.CheckConstraint("jacks BETWEEN 0 AND 2"),
                                      nullable=False, server_default="0"))
    op.add_column("hand", sa.Column("uncollected_jacks", sa.Integer(),
                                    sa.CheckConstraint("uncollected_jacks BETWEEN 0 AND 2"),
                                    nullable=False, server_default="0"))
    op.create_table(
        "seat_change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("before_hand", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player", sa.Integer(), sa.CheckConstraint("player >= 0"), nullable=False),
        sa.Column("at", sa.Integer(), nullable=True),
        sa.Column("start", sa.Integer(), nullable=True),
        sa.CheckConstraint("before_hand >= 2"),
        sa.CheckConstraint("kind IN ('join', 'leave')"),
    )
    op.create_index("ix_seat_change_game_id", "seat_change", ["game_id"])


def downgrade():
    op.drop_index("ix_seat_change_game_id", "seat_change")
    op.drop_table("seat_change")
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("uncollected_jacks")
    with op.batch_alter_table("taking") as batch:
        batch.drop_column("jacks")
    with op.batch_alter_table("game") as batch:
        for column in ("jack_of_diamonds", "cards_passed", "passing", "moon_choice", "moon_points"):
            batch.drop_column(column)
