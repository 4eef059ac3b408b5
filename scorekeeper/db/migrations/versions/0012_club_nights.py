"""A club night (R18): the night, who is here from which round, each round's draw (its seed, how many
neighbours it seated side by side again, whether it was closed early) and the game each table plays.

Revision ID: 0012
Revises: 0011
Create Date: 2027-01-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "night",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=True),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("deals IS NULL OR deals >= 1", name="deals_from_one"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "night_player",
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("from_round", sa.Integer(), nullable=False),
        sa.Column("left_after", sa.Integer(), nullable=True),
        sa.Column("checked_in_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["night.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["person_id"], ["person.id"]),
        sa.PrimaryKeyConstraint("night_id", "person_id"),
    )
    op.create_table(
        "night_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("repeated", sa.Integer(), nullable=False),
        sa.Column("drawn_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["night_id"], ["night.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("night_id", "number", name="uq_night_round_number"),
    )
    op.create_index("ix_night_round_night_id", "night_round", ["night_id"])
    op.create_table(
        "night_table",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["round_id"], ["night_round.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("round_id", "number"),
        sa.UniqueConstraint("game_id"),
    )


def downgrade():
    op.drop_table("night_table")
    op.drop_index("ix_night_round_night_id", "night_round")
    op.drop_table("night_round")
    op.drop_table("night_player")
    op.drop_table("night")
