"""The rows the trail names by id (seat changes, trick logs) never get an id that another row had.

An undo takes a seat change out and its undo puts it back under the same id, by which the trail names it
(and a removed hand's entry names the seat changes it moved); the entries of a hand's tricks and kitty name
its trick log by id. PostgreSQL's sequences never hand an id out twice; SQLite gives a new row the highest
id in use plus one, so the id of the newest row, once deleted, went to the next row of any game: putting a
seat change back then failed (a 409 with no other device anywhere), and a taken-back trick of a hand whose
log had gone was offered, and entered, into the next hand's log that got its id. SQLite's AUTOINCREMENT
never hands out an id again: both tables are rebuilt with it, and their counters start past every id the
trail names (an id freed before this upgrade stays free). Nothing to do on PostgreSQL.

Revision ID: 0010
Revises: 0009
Create Date: 2027-01-12
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    connection = op.get_bind()
    if connection.dialect.name != "sqlite":
        return
    seats, logs = _ids_the_trail_names(connection)
    _rebuild_seat_change(connection)
    _rebuild_trick_log(connection)
    for table, named in (("seat_change", seats), ("trick_log", logs)):
        highest = max([named, connection.execute(sa.text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")).scalar()])
        connection.execute(sa.text("DELETE FROM sqlite_sequence WHERE name IN (:table, :built)"),
                           {"table": table, "built": f"_{table}_new"})
        connection.execute(sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES (:table, :seq)"),
                           {"table": table, "seq": highest})


def downgrade():
    pass  # AUTOINCREMENT is SQLite's promise never to reuse an id: the earlier schema never relied on reuse


def _ids_the_trail_names(connection):
    """The highest seat change id and trick log id any trail entry names (0 if none)."""
    seats, logs = [0], [0]
    for before, after in connection.execute(sa.text("SELECT before, after FROM change")):
        for facts in (before, after):
            facts = json.loads(facts) if facts else None
            if not isinstance(facts, dict):
                continue
            if facts.get("kind") in ("join", "leave") and isinstance(facts.get("id"), int):
                seats.append(facts["id"])  # a seat change, made or taken back
            # A removed hand: the seat changes it moved, and every seat change with where it then stood.
            named = [*(facts.get("moved") or []),
                     *(pair[0] for pair in facts.get("seats") or [] if isinstance(pair, list) and pair)]
            seats.extend(seat for seat in named if isinstance(seat, int))
            if isinstance(facts.get("log"), int):
                logs.append(facts["log"])  # a trick, the kitty, a recorded hand's log
    return max(seats), max(logs)


def _rebuild_seat_change(connection):
    op.create_table(
        "_seat_change_new",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("before_hand", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player", sa.Integer(), sa.CheckConstraint("player >= 0"), nullable=False),
        sa.Column("at", sa.Integer(), nullable=True),
        sa.Column("start", sa.Integer(), nullable=True),
        sa.CheckConstraint("before_hand >= 2"),
        sa.CheckConstraint("kind IN ('join', 'leave')"),
        sqlite_autoincrement=True,
    )
    columns = "id, game_id, before_hand, kind, player, at, start"
    connection.execute(sa.text(f"INSERT INTO _seat_change_new ({columns}) SELECT {columns} FROM seat_change"))
    op.drop_index("ix_seat_change_game_id", "seat_change")
    op.drop_table("seat_change")  # nothing refers to a seat change: dropping it deletes nothing else
    op.rename_table("_seat_change_new", "seat_change")
    op.create_index("ix_seat_change_game_id", "seat_change", ["game_id"])


def _rebuild_trick_log(connection):
    """Rebuilt with its tricks set aside first: with foreign keys on (they cannot be turned off inside the
    upgrade's transaction), dropping the logs would delete every trick."""
    connection.execute(sa.text("CREATE TABLE _trick_aside AS SELECT id, log_id, number, cards, confirmed FROM trick"))
    op.drop_index("ix_trick_log_id", "trick")
    op.drop_table("trick")
    op.create_table(
        "_trick_log_new",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hand.id", ondelete="CASCADE"), unique=True),
        sa.Column("first_leader", sa.Integer(), sa.CheckConstraint("first_leader >= 0"), nullable=False),
        sa.Column("kitty", sa.String(64)),
        sqlite_autoincrement=True,
    )
    columns = "id, game_id, hand_id, first_leader, kitty"
    connection.execute(sa.text(f"INSERT INTO _trick_log_new ({columns}) SELECT {columns} FROM trick_log"))
    op.drop_index("ix_trick_log_game_id", "trick_log")
    op.drop_table("trick_log")
    op.rename_table("_trick_log_new", "trick_log")
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
    columns = "id, log_id, number, cards, confirmed"
    connection.execute(sa.text(f"INSERT INTO trick ({columns}) SELECT {columns} FROM _trick_aside"))
    connection.execute(sa.text("DROP TABLE _trick_aside"))
    op.create_index("ix_trick_log_id", "trick", ["log_id"])
