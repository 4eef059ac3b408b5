"""Each game's figures kept per revision: the games list's summary becomes the game's figures, and each
player's figures in each game are kept beside them, for the season's table and the person pages.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    # A cache of what the hands say: nothing is lost by dropping the summaries. The figures are written by
    # every write from now on, by `flask refigure` for every game, and for a game whose figures are missing
    # or stale by the first page that needs them (service/figures.py).
    op.drop_table("game_summary")
    op.create_table(
        "game_figures",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("roster", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("next_hand", sa.Integer(), nullable=True),
        sa.Column("facts", sa.Text(), nullable=False),
    )
    op.create_table(
        "seat_figures",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False)
          for name in ("finished", "wins", "hands", "points", "zero_hands", "moons_subtracted", "moons_added",
                       "hearts", "marias", "total")),
        *(sa.Column(name, sa.Integer(), nullable=True) for name in ("place", "seated", "margin")),
    )


def downgrade():
    op.drop_table("seat_figures")
    op.drop_table("game_figures")
    op.create_table(
        "game_summary",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("facts", sa.Text(), nullable=False),
    )
