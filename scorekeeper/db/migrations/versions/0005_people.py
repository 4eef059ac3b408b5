"""People across games: each player of a game is linked to a person the club knows.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import unicodedata

import sqlalchemy as sa
from alembic import op


def name_key(name):
    """The key of a name as this migration made it (NFKC, trimmed, case-folded), kept here as it was:
    a migration must do the same on every database, whatever the app's name rules become."""
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    return unicodedata.normalize("NFKC", folded)

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("merged_into_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=True),
    )
    op.create_table(
        "person_name",
        sa.Column("key", sa.Text(), primary_key=True),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=False),
    )
    op.create_index("ix_person_name_person_id", "person_name", ["person_id"])
    op.create_table(
        "person_change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=False),
        sa.Column("other_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=True),
        sa.Column("undoes_id", sa.Integer(), sa.ForeignKey("person_change.id"), nullable=True),
        sa.Column("facts", sa.Text(), nullable=False),
    )
    # Added as a plain column rather than through a batch copy of the table,
    # which on SQLite would drop the table's unnamed CHECK constraints. SQLite
    # adds a column with its REFERENCES clause, but Alembic would add the
    # foreign key as a separate ALTER, which SQLite has not.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE player ADD COLUMN person_id INTEGER REFERENCES person (id)")
    else:
        op.add_column("player", sa.Column("person_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=True))
    _link_existing_players()
    op.create_index("ix_player_person_id", "player", ["person_id"])
    op.create_index("uq_player_game_id_person_id", "player", ["game_id", "person_id"], unique=True)


def _link_existing_players():
    """Every existing player linked to the person of their name, oldest game first, so that each
    person is shown by the spelling used most recently.

    Two players of one game whose names are one key (possible before keys
    were compared this way) stay two people: the second gets a person of
    their own, found by no typed name, to be merged by hand if the club wishes.
    """
    connection = op.get_bind()
    players = connection.execute(sa.text(
        "SELECT player.id, player.game_id, player.name FROM player JOIN game ON game.id = player.game_id "
        "ORDER BY game.created_at, game.id, player.seat")).all()
    people = {}  # key -> index into spellings
    spellings = []  # one a person: the latest spelling
    links = []  # (player id, index into spellings)
    seated = set()  # (game id, person index)
    for player_id, game_id, name in players:
        key = name_key(name)
        person = people.get(key)
        if person is None or (game_id, person) in seated:
            person = len(spellings)
            spellings.append(name)
            people.setdefault(key, person)
        spellings[person] = name
        seated.add((game_id, person))
        links.append((player_id, person))
    if not spellings:
        return
    person_table = sa.table("person", sa.column("id", sa.Integer), sa.column("name", sa.String))
    names_table = sa.table("person_name", sa.column("key", sa.Text), sa.column("person_id", sa.Integer))
    first = (connection.execute(sa.text("SELECT COALESCE(MAX(id), 0) FROM person")).scalar() or 0) + 1
    op.bulk_insert(person_table, [{"id": first + index, "name": name} for index, name in enumerate(spellings)])
    op.bulk_insert(names_table, [{"key": key, "person_id": first + index} for key, index in people.items()])
    connection.execute(sa.text("UPDATE player SET person_id = :person WHERE id = :player"),
                       [{"person": first + person, "player": player_id} for player_id, person in links])
    if connection.dialect.name == "postgresql":  # ids were given: the sequence moves past them
        connection.execute(sa.text("SELECT setval(pg_get_serial_sequence('person', 'id'), "
                                   "(SELECT MAX(id) FROM person))"))


def downgrade():
    op.drop_index("uq_player_game_id_person_id", "player")
    op.drop_index("ix_player_person_id", "player")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("person_id")
    op.drop_table("person_change")
    op.drop_index("ix_person_name_person_id", "person_name")
    op.drop_table("person_name")
    op.drop_table("person")
