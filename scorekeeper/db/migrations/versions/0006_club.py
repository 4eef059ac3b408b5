"""The club: its secretary's key, the device behind each change to people, names that stay as chosen, and
games left out of the season (voided) and games' dates, with their trail, and each game's summary for the
games list.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "club",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("secretary_key", sa.String(64), nullable=False),
    )
    # Made once, here, at the first start: several server processes starting at
    # once migrate one at a time (db/migrate.py), so they all find this key.
    op.bulk_insert(sa.table("club", sa.column("id", sa.Integer), sa.column("secretary_key", sa.String)),
                   [{"id": 1, "secretary_key": secrets.token_urlsafe(24)}])
    op.add_column("person_change", sa.Column("device", sa.String(40), nullable=True))
    op.add_column("game", sa.Column("voided_at", sa.DateTime(), nullable=True))
    op.add_column("game", sa.Column("void_reason", sa.String(200), nullable=True))
    op.create_table(
        "game_change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("facts", sa.Text(), nullable=True),
        sa.Column("device", sa.String(40), nullable=True),
    )
    op.create_index("ix_game_change_game_id", "game_change", ["game_id"])
    # Filled by each write from now on, and for older games by `flask rebuild-summaries`
    # (until then the games list derives them from the hands).
    op.create_table(
        "game_summary",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("facts", sa.Text(), nullable=False),
    )
    _first_spellings()


def _first_spellings():
    """Each person not renamed is shown by the first spelling they were typed as (the oldest game's), not
    the latest: typing another spelling finds a person and no longer renames them."""
    connection = op.get_bind()
    renamed = {person for (person,) in connection.execute(sa.text(
        "SELECT DISTINCT person_id FROM person_change WHERE action = 'rename'"))}
    first = {}
    for person, name in connection.execute(sa.text(
            "SELECT player.person_id, player.name FROM player JOIN game ON game.id = player.game_id "
            "WHERE player.person_id IS NOT NULL ORDER BY game.created_at DESC, game.id DESC, player.id DESC")):
        first[person] = name  # the oldest comes last
    changes = [{"person": person, "name": name} for person, name in first.items() if person not in renamed]
    if changes:
        connection.execute(sa.text("UPDATE person SET name = :name WHERE id = :person"), changes)


def downgrade():
    op.drop_table("game_summary")
    op.drop_index("ix_game_change_game_id", "game_change")
    op.drop_table("game_change")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("void_reason")
        batch.drop_column("voided_at")
    with op.batch_alter_table("person_change") as batch:
        batch.drop_column("device")
    op.drop_table("club")
