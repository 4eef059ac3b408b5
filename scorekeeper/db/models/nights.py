"""A club night's facts (R18): the night, who is here and from which round, each round's draw (its seed and
its tables), and the game each table plays. Everything the night's page shows beyond these (each table's
progress, the shares, the standing) is derived from the tables' games' hands (service/nights.py)."""

from datetime import date, datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model
from .facts import GAME_NAME_LENGTH, utcnow


class Night(Model):
    """A club night: its name and day, the round's length (``deals`` agreed, or None: every player deals once,
    R18 c) and the target its tables' games play to (R16)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    played_on: Mapped[date]
    deals: Mapped[int | None] = mapped_column(CheckConstraint("deals IS NULL OR deals >= 1", name="deals_from_one"))
    target: Mapped[int]
    made_at: Mapped[datetime] = mapped_column(default=utcnow)


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
