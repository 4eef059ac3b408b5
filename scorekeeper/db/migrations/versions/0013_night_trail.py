"""A club night's trail (R18, R17): the night's revision, which every change to it claims (two directors'
devices queue, the second told), and each change to it (a check-in, a leaver, a draw, a round closed, the
undoing of one), undoable in turn.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("night") as night:
        night.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="1"))
    op.create_table(
        "night_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("undoes_id", sa.Integer(), nullable=True),
        sa.Column("facts", sa.Text(), nullable=False),
        sa.Column("device", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["night_id"], ["night.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["undoes_id"], ["night_change.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_night_change_night_id", "night_change", ["night_id"])


def downgrade():
    op.drop_index("ix_night_change_night_id", "night_change")
    op.drop_table("night_change")
    with op.batch_alter_table("night") as night:
        night.drop_column("revision")
