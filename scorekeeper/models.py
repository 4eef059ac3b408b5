"""Database models: the facts a table recorded, never anything derived (R17)."""

import json
import sqlite3
from datetime import datetime, timezone

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import CheckConstraint, Engine, ForeignKey, Index, String, Text, UniqueConstraint, event, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from . import rules
from .access import new_scorer_key

NAME_LENGTH = 40
GAME_NAME_LENGTH = 80
LARGEST_ID = 2**63 - 1  # SQLite's integers are signed 64-bit
LARGEST_TARGET = 1_000_000  # far past any game; keeps totals well inside the database's integers


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


def utcnow():
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Game(db.Model):
    """A game: its players in seating order, the first dealer, the target and its hands."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    target: Mapped[int] = mapped_column(CheckConstraint("target >= 1"))
    first_dealer: Mapped[int] = mapped_column(CheckConstraint("first_dealer >= 0"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Counts the writes to this game, so that watching phones can ask cheaply
    # whether anything changed (the state and its ETag).
    revision: Mapped[int] = mapped_column(default=0)
    scorer_key: Mapped[str] = mapped_column(String(64), default=new_scorer_key)
    players: Mapped[list["Player"]] = relationship(
        order_by="Player.seat", cascade="all, delete-orphan", back_populates="game"
    )
    hands: Mapped[list["Hand"]] = relationship(
        order_by="Hand.number", cascade="all, delete-orphan", back_populates="game"
    )
    trick_logs: Mapped[list["TrickLog"]] = relationship(cascade="all, delete-orphan", back_populates="game")
    changes: Mapped[list["Change"]] = relationship(
        order_by="Change.id.desc()", cascade="all, delete-orphan", back_populates="game"
    )

    @property
    def names(self):
        """Player names in seating order, indexed by seat."""
        return [player.name for player in self.players]

    @property
    def trick_log(self):
        """The log of the hand being played trick by trick now, if any."""
        return next((log for log in self.trick_logs if log.hand_id is None and log.hand is None), None)

    def log_of(self, hand):
        """The trick log kept with ``hand``, if it was played trick by trick.

        Found among the game's logs, already loaded, rather than one query per hand.
        """
        return next((log for log in self.trick_logs if log.hand_id == hand.id), None)

    def names_of(self, seats):
        """The names at some seats, in the order given."""
        return [self.players[seat].name for seat in seats]

    def scoreboard(self, hands=None):
        """Everything derived from the recorded hands (or from ``hands`` if given)."""
        records = [hand.record() for hand in self.hands] if hands is None else hands
        return rules.score_game(len(self.players), self.first_dealer, self.target, records)


class Player(db.Model):
    """A player at a seat; seats are 0-based, clockwise (R1)."""

    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        UniqueConstraint("game_id", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(CheckConstraint("seat >= 0"))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    game: Mapped[Game] = relationship(back_populates="players")


class Hand(db.Model):
    """One recorded hand: each seat's takings, what nobody collected, the moon choice."""

    __table_args__ = (
        Index("uq_hand_game_id_number", "game_id", "number", unique=True),  # two devices cannot both record hand 3
        CheckConstraint("uncollected_hearts BETWEEN 0 AND 26"),
        CheckConstraint("uncollected_marias BETWEEN 0 AND 2"),
        CheckConstraint("moon IS NULL OR moon IN ('subtract', 'add')"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(CheckConstraint("number >= 1"))
    moon: Mapped[str | None] = mapped_column(String(8))
    uncollected_hearts: Mapped[int] = mapped_column(default=0)
    uncollected_marias: Mapped[int] = mapped_column(default=0)
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    game: Mapped[Game] = relationship(back_populates="hands")
    takings: Mapped[list["Taking"]] = relationship(
        order_by="Taking.seat", cascade="all, delete-orphan", back_populates="hand"
    )
    trick_log: Mapped["TrickLog | None"] = relationship(back_populates="hand", cascade="all, delete-orphan")

    def record(self):
        """This hand as the rules engine sees it."""
        return rules.HandRecord(
            tuple(rules.Taken(taking.hearts, taking.marias) for taking in self.takings),
            None if self.moon is None else rules.Moon(self.moon),
        )

    def set_facts(self, record):
        """Replace this hand's takings and moon choice, and note what nobody collected (R13)."""
        uncollected = rules.check_takings(dict(enumerate(record.taken)))
        if len(self.takings) != len(record.taken):
            self.takings = [Taking(seat=seat) for seat in range(len(record.taken))]
        # Updated in place: new rows would meet the old ones' (hand, seat) key.
        for taking, taken in zip(self.takings, record.taken):
            taking.hearts, taking.marias = taken.hearts, taken.marias
        self.moon = None if record.moon is None else record.moon.value
        self.uncollected_hearts = uncollected.hearts
        self.uncollected_marias = uncollected.marias


class Taking(db.Model):
    """The hearts and Black Marias one seat took in one hand (R14)."""

    __table_args__ = (
        UniqueConstraint("hand_id", "seat"),
        CheckConstraint("hearts BETWEEN 0 AND 26"),
        CheckConstraint("marias BETWEEN 0 AND 2"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(CheckConstraint("seat >= 0"))
    hearts: Mapped[int]
    marias: Mapped[int]
    hand: Mapped[Hand] = relationship(back_populates="takings")


class TrickLog(db.Model):
    """A hand played trick by trick: who led first, the kitty once seen, the tricks.

    While the hand is being played it belongs to the game only; once the hand
    is recorded it belongs to that hand, as the record that settles disputes.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), unique=True)
    first_leader: Mapped[int] = mapped_column(CheckConstraint("first_leader >= 0"))
    kitty: Mapped[str | None] = mapped_column(String(64))  # cards as text, e.g. "2♣ 10♥"
    game: Mapped[Game] = relationship(back_populates="trick_logs")
    hand: Mapped[Hand | None] = relationship(back_populates="trick_log")
    tricks: Mapped[list["Trick"]] = relationship(
        order_by="Trick.number", cascade="all, delete-orphan", back_populates="log"
    )

    @property
    def kitty_cards(self):
        return rules.parse_cards(self.kitty.split()) if self.kitty else ()

    def replay(self, players):
        """The hand as the engine sees it after the recorded tricks (R9-R13)."""
        play = rules.HandPlay(players, self.first_leader, self.kitty_cards)
        for trick in self.tricks:
            play.play(trick.cards.split(), confirm=trick.confirmed)
        return play


class Trick(db.Model):
    """One trick's cards in play order from its leader, and whether an odd lead was confirmed."""

    __table_args__ = (UniqueConstraint("log_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    log_id: Mapped[int] = mapped_column(ForeignKey("trick_log.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(CheckConstraint("number >= 1"))
    cards: Mapped[str] = mapped_column(String(64))  # e.g. "10♠ 9♥ 9♥ 10♠"
    confirmed: Mapped[bool] = mapped_column(default=False)
    log: Mapped[TrickLog] = relationship(back_populates="tricks")


class Change(db.Model):
    """One correction or removal of a recorded hand, kept so that it can be reverted (R17)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(16))  # "correct", "remove" or "revert"
    hand_number: Mapped[int]
    before: Mapped[str | None] = mapped_column(Text)  # the hand's facts as JSON, None if it did not exist
    after: Mapped[str | None] = mapped_column(Text)  # None once removed
    game: Mapped[Game] = relationship(back_populates="changes")

    @staticmethod
    def facts(record):
        """A hand's facts as the JSON text kept in the trail."""
        if record is None:
            return None
        return json.dumps({
            "taken": [[taken.hearts, taken.marias] for taken in record.taken],
            "moon": None if record.moon is None else record.moon.value,
        })

    @staticmethod
    def record_of(text):
        """The engine record kept as ``text`` (None stays None)."""
        if text is None:
            return None
        facts = json.loads(text)
        return rules.HandRecord(
            tuple(rules.Taken(hearts, marias) for hearts, marias in facts["taken"]),
            None if facts["moon"] is None else rules.Moon(facts["moon"]),
        )


class ChangedMeanwhile(Exception):
    """Another device changed the game after this form was shown; nothing was saved."""


def commit_change(game, based_on=None):
    """Commit one change to ``game`` as one transaction, moving its revision.

    ``based_on`` is the revision the change was made from (the one the form
    showed); if another device has written since, everything is rolled back
    and ``ChangedMeanwhile`` raised. The check and the increment are one
    UPDATE, so two devices cannot both pass it.
    """
    try:
        db.session.flush()  # a new game needs its id; a taken hand number fails here
        condition = [Game.id == game.id]
        if based_on is not None:
            condition.append(Game.revision == based_on)
        moved = db.session.execute(
            update(Game).where(*condition).values(revision=Game.revision + 1),
            execution_options={"synchronize_session": False},
        )
        if moved.rowcount != 1:
            raise ChangedMeanwhile()
        db.session.commit()
    except (ChangedMeanwhile, IntegrityError):
        db.session.rollback()
        raise ChangedMeanwhile() from None


def cards_text(cards):
    """Cards as stored: their short names separated by spaces."""
    return " ".join(str(card) for card in cards)


@event.listens_for(Engine, "connect")
def _configure_sqlite(connection, _record):
    """SQLite in WAL mode with foreign keys on: readers never block the writer,
    and a killed process leaves every committed hand whole."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


def init_app(app):
    """Bind the database to the app."""
    db.init_app(app)
