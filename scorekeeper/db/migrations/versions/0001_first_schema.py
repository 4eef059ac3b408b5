"""The first schema: games, players, hands and their takings, trick logs.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("target", sa.Integer(), sa.CheckConstraint("target >= 1"), nullable=False),
        sa.Column("first_dealer", sa.Integer(), sa.CheckConstraint("first_dealer >= 0"), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), sa.CheckConstraint("seat >= 0"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.UniqueConstraint("game_id", "seat"),
        sa.UniqueConstraint("game_id", "name"),
    )
    op.create_index("ix_player_game_id", "player", ["game_id"])
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), sa.CheckConstraint("number >= 1"), nullable=False),
        sa.Column("moon", sa.String(8)),
        sa.Column("uncollected_hearts", sa.Integer(), nullable=False),
        sa.Column("uncollected_marias", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("uncollected_hearts BETWEEN 0 AND 26"),
        sa.CheckConstraint("uncollected_marias BETWEEN 0 AND 2"),
        sa.CheckConstraint("moon IS NULL OR moon IN ('subtract', 'add')"),
    )
    op.create_index("ix_hand_game_id", "hand", ["game_id"])
    op.create_table(
        "taking",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hand.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), sa.CheckConstraint("seat >= 0"), nullable=False),
        sa.Column("hearts", sa.Integer(), nullable=False),
        sa.Column("marias", sa.Integer(), nullable=False),
        sa.UniqueConstraint("hand_id", "seat"),
        sa.CheckConstraint("hearts BETWEEN 0 AND 26"),
        sa.CheckConstraint("marias BETWEEN 0 AND 2"),
    )
    op.create_index("ix_taking_hand_id", "taking", ["hand_id"])
    op.create_table(
        "trick_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hand.id", ondelete="CASCADE"), unique=True),
        sa.Column("first_leader", sa.Integer(), sa.CheckConstraint("first_leader >= 0"), nullable=False),
        sa.Column("kitty", sa.String(64)),
    )
    op.create_index("ix_trick_log_game_id", "trick_log", ["game_id"])
    op.create_table(
        "trick",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("log_id", sa.Integer(), sa.ForeignKey("trick_log.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), sa.CheckConstraint("number >= 1"), nullable=False),
        sa.Column("cards", sa.String(64), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("log_id", "number"),
    )
    op.create_index("ix_trick_log_id", "trick", ["log_id"])


def downgrade():
    for table in ("trick", "trick_log", "taking", "hand", "player", "game"):
        op.drop_table(table)
