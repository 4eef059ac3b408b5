"""A club night's facts (R18): the night, who is here and from which round, each round's draw (its seed and
its tables), and the game each table plays. Everything the night's page shows beyond these (each table's
progress, the shares, the standing) is derived from the tables' games' hands (service/nights.py)."""

from datetime import date, datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model
from .facts import DEVICE_NAME_LENGTH, GAME_NAME_LENGTH, utcnow


class Night(Model):
    """A club night: its name and day, the round's length (``deals`` agreed, or None: every player deals once,
    R18 c) and the target its tables' games play to (R16)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    played_on: Mapped[date]
    deals: Mapped[int | None] = mapped_column(CheckConstraint("deals IS NULL OR deals >= 1", name="deals_from_one"))
    target: Mapped[int]
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Counts the changes to the night itself (check-ins, leavers, draws, rounds closed, their undoing): each
    # claims it, as a write to a game claims the game's, so two directors' devices queue and the second is
    # told; the night's page's state is this with its tables' games' revisions (service.nights.night_state).
    revision: Mapped[int] = mapped_column(default=1, server_default="1")


class NightPlayer(Model):
    """Someone checked in for a night: they are drawn from round ``from_round`` (a late arrival joins the next
    round's draw, R18 f), until they leave after round ``left_after``, if they do."""

    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"), primary_key=True)
    from_round: Mapped[int]
    left_after: Mapped[int | None]
    checked_in_at: Mapped[datetime] = mapped_column(default=utcnow)


class NightRound(Model):
    """One round of a night: its number, the seed its seats were drawn from (R18 b, shown to the room), and
    whether the director closed it before every table finished (R18 f)."""

    __table_args__ = (UniqueConstraint("night_id", "number", name="uq_night_round_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    seed: Mapped[int]
    repeated: Mapped[int]  # pairs of neighbours the draw seated side by side again
    drawn_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]


class NightTable(Model):
    """A table of a round: its number in the round and the game it plays (its seating and first dealer are
    the game's own)."""

    round_id: Mapped[int] = mapped_column(ForeignKey("night_round.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), unique=True)


class NightChange(Model):
    """One entry of a night's trail: a change to the night, as what it found (``facts``' "before") and what it
    left ("after"), of one ``kind``: "players" (who is checked in from which round, until which, by person id),
    "round" (a round drawn, by its sizes and seed, or not) or "closed" (a round closed early, or not). Its
    ``action`` says what the director did ("check_in", "see_off", "draw", "close", "undo"); undoing an entry
    puts "before" back and is an entry itself, ``undoes_id`` naming the one it undid."""

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))
    undoes_id: Mapped[int | None] = mapped_column(ForeignKey("night_change.id"))
    facts: Mapped[str] = mapped_column(Text)  # JSON: {"kind", "round", "before", "after"}
    device: Mapped[str | None] = mapped_column(String(DEVICE_NAME_LENGTH))
