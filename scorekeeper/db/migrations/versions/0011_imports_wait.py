"""Imports wait: a game imported by a device without the club's secretary's pass is stored but waiting,
counted in no figure of the season until the secretary counts it; and each import is a row of its own, so
that the secretary finds the games of one import together and can leave them out at once.

Every game there before counts as it did (not waiting), and belongs to no import.

Revision ID: 0011
Revises: 0010
Create Date: 2027-01-20
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "game_import",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    # Added in place (SQLite adds a column with a constant default, and a reference that may be null):
    # recreating the game table would take every row that refers to it along.
    op.add_column("game", sa.Column("waiting", sa.Boolean(), nullable=False, server_default=sa.false()))
    if op.get_bind().dialect.name == "sqlite":  # SQLite adds a reference only with its column, in its own words
        op.execute("ALTER TABLE game ADD COLUMN import_id INTEGER REFERENCES game_import (id)")
    else:
        op.add_column("game", sa.Column("import_id", sa.Integer(), sa.ForeignKey("game_import.id"), nullable=True))
    op.create_index("ix_game_import_id", "game", ["import_id"])


def downgrade():
    op.drop_index("ix_game_import_id", "game")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("import_id")
        batch.drop_column("waiting")
    op.drop_table("game_import")
