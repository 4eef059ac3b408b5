"""Each person's figures kept for the season, and the club's ratings: each player's figures in a game name
their person and whether the game counts (so that a person's best game is one index seek), each person's
sums are kept beside them, and each rating after each game the club counts.

The kept figures are a cache of what the hands say: they are emptied here and written again for every game
by the first page that needs them (or `flask refigure`).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

FIGURES = ("finished", "wins", "hands", "points", "zero_hands", "moons_subtracted", "moons_added", "hearts", "marias")


def upgrade():
    op.execute("DELETE FROM game_figures")  # every game stale: written again, with its players' people
    op.drop_table("seat_figures")
    op.create_table(
        "seat_figures",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=True),
        sa.Column("counted", sa.Boolean(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in (*FIGURES, "total")),
        *(sa.Column(name, sa.Integer(), nullable=True) for name in ("place", "seated", "margin")),
        *(sa.Column(name, sa.Double(), nullable=True) for name in ("mu", "sigma")),
        sa.Column("from_bottom", sa.Integer(), nullable=True),
    )
    op.create_index("ix_seat_figures_best", "seat_figures",
                    ["person_id", "place", sa.text("margin DESC"), sa.text("game_id DESC")])
    op.create_index("ix_seat_figures_worst", "seat_figures",
                    ["person_id", "from_bottom", "margin", sa.text("game_id DESC")])
    op.create_table(
        "person_figures",
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("person.id"), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in FIGURES),
        *(sa.Column(name, sa.Double(), nullable=True) for name in ("mu", "sigma")),
    )
    op.add_column("club", sa.Column("ratings_version", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("club", sa.Column("rated_version", sa.Integer(), nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("club") as batch:
        batch.drop_column("rated_version")
        batch.drop_column("ratings_version")
    op.drop_table("person_figures")
    op.drop_index("ix_seat_figures_worst", "seat_figures")
    op.drop_index("ix_seat_figures_best", "seat_figures")
    op.drop_table("seat_figures")
    op.create_table(
        "seat_figures",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in (*FIGURES, "total")),
        *(sa.Column(name, sa.Integer(), nullable=True) for name in ("place", "seated", "margin")),
    )
    op.execute("DELETE FROM game_figures")
