"""The facts a table recorded, as rows, and the one small place that turns them into engine values (R17).

The rows: a game (its house rules among its columns, one a registered rule: ``HouseRuleColumns``), its
players, hands and takings, its trick logs and tricks, the players who joined or left; the club's people and
the spellings that find them; the trails of a game, of the people and of the club's games; the imports; the
club's own row. Nothing derived from the hands is stored here (``kept`` holds that), save the club's two
numbers that say whether its kept ratings are up to date (``Club.ratings_version``, ``Club.rated_version``);
``Hand.has_tricks`` and ``Game.playing_trick_by_trick`` are not stored but worked out by each query.

The conversions: rows to engine values (``Hand.record``, ``hand_record``,
``record_of_facts``, ``variant_of_row``, ``SeatChange.value``, and ``Scored``, which scores a stored ``Game``
and a ``reads.ShownGame`` alike), and engine values to columns (``variant_columns``, ``hand_columns``,
``taking_rows``, ``cards_text``); and the season's one rule of which games count (``counts_in_season``,
``COUNTED``).
"""

import json
import secrets
from datetime import date, datetime, timezone
from functools import cache

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    and_,
    exists,
    false,
)
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, column_property, mapped_column, relationship

from ... import rules
from .base import Model
from .house_rules import HouseRuleColumns, variant_columns, variant_of_row, variant_of_stored  # noqa: F401

NAME_LENGTH = 40
GAME_NAME_LENGTH = 80
VOID_REASON_LENGTH = 200  # why a game is left out of the season
DEVICE_NAME_LENGTH = 40  # a secretary's name for their device ("Ana's phone")
# Ids and revisions are PostgreSQL integers (SQLite's are wider): a number
# past this, in a path or a form, names nothing and is never sent to the database.
LARGEST_ID = 2**31 - 1
LARGEST_TARGET = 1_000_000  # far past any game; keeps totals well inside the database's integers


def utcnow():
    return datetime.now(timezone.utc).replace(tzinfo=None)


def today():
    """The day it is where the server is (the club's town), as the day a game is played."""
    return date.today()


def new_scorer_key():
    """An unguessable key for a new game."""
    return secrets.token_urlsafe(24)


class Scored:
    """What is derived from a game's names, house rules, seat changes and hands,
    for a stored ``Game``, a ``ShownGame`` and a game's facts before they are stored (``GameFacts``) alike (R17).

    Players are numbered by their place in ``names``: the seating of hand 1,
    then each player who joined, in the order they came (the roster).
    """

    def names_of(self, players):
        """The names of some players (roster numbers), in the order given."""
        names = self.names
        return [names[player] for player in players]

    def records(self):
        """The recorded hands as the rules engine sees them, in order."""
        return [hand.record() for hand in self.hands]

    @property
    def variant(self):
        """The game's house rules as one engine value (the seeds' game by default)."""
        return variant_of_row(self)

    def seat_change_values(self):
        """The players who joined or left, as engine values, in the order they were made."""
        return [change.value() for change in self.seat_changes]

    @property
    def starting_players(self):
        """How many sat down for hand 1."""
        return rules.starting_players(len(self.names), self.seat_change_values())

    def scoreboard(self, records=None, variant=None, changes=None):
        """Everything derived from the recorded hands (or from ``records``, ``variant``, ``changes`` if given)."""
        records = self.records() if records is None else records
        return rules.score_game(
            self.starting_players, self.first_dealer, self.target, records,
            self.variant if variant is None else variant,
            self.seat_change_values() if changes is None else changes,
        )


class Game(Model, HouseRuleColumns, Scored):
    """A game: its players (the roster), the first dealer, the target, the house rules, its hands
    and the players who joined or left between them."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    target: Mapped[int] = mapped_column(CheckConstraint("target >= 1"))
    first_dealer: Mapped[int] = mapped_column(CheckConstraint("first_dealer >= 0"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The day it was played: the day it was created, the import's (a document or backup may say), or the one
    # the club's secretary gave it. The season's filters, its order and the ratings read it.
    played_on: Mapped[date] = mapped_column(default=today, server_default="1900-01-01")  # the server's default
    # only for the rows that were there when the column came (migration 0008 gives each its day)
    # Counts the writes to this game, creating it the first, so that watching
    # phones can ask cheaply whether anything changed (the state and its ETag).
    revision: Mapped[int] = mapped_column(default=1)
    # The key given to the newest hand: every hand gets a key of its own that
    # survives renumbering, so the trail can name it (see Change).
    last_hand_key: Mapped[int] = mapped_column(default=0)
    scorer_key: Mapped[str] = mapped_column(String(64), default=new_scorer_key)
    # Left out of the season by the club's secretary (when, and why): it counts nowhere, and stays shown.
    voided_at: Mapped[datetime | None] = mapped_column()
    void_reason: Mapped[str | None] = mapped_column(String(VOID_REASON_LENGTH))
    # Imported by a device without the secretary's pass: stored, shown, and counted nowhere until the club's
    # secretary counts it (``counts_in_season``). ``import_id`` names the import that brought it, if one did.
    waiting: Mapped[bool] = mapped_column(default=False, server_default=false())
    import_id: Mapped[int | None] = mapped_column(ForeignKey("game_import.id"), index=True)
    players: Mapped[list["Player"]] = relationship(
        order_by="Player.seat", cascade="all, delete-orphan", back_populates="game"
    )
    hands: Mapped[list["Hand"]] = relationship(
        order_by="Hand.number", cascade="all, delete-orphan", back_populates="game"
    )

    @hybrid_property
    def counted(self):
        """Whether the season counts this game (``counts_in_season``); as a condition on ``Game``, the same."""
        return counts_in_season(self)

    @counted.inplace.expression
    @classmethod
    def _counted_condition(cls):
        return and_(cls.voided_at.is_(None), cls.waiting.is_(False))

    trick_logs: Mapped[list["TrickLog"]] = relationship(cascade="all, delete-orphan", back_populates="game")
    changes: Mapped[list["Change"]] = relationship(
        order_by="Change.id.desc()", cascade="all, delete-orphan", back_populates="game"
    )
    seat_changes: Mapped[list["SeatChange"]] = relationship(
        order_by="SeatChange.id", cascade="all, delete-orphan", back_populates="game"
    )

    @property
    def names(self):
        """Player names by roster number: hand 1's seating, then the joiners in the order they came."""
        return [player.name for player in self.players]

    @property
    def trick_log(self):
        """The log of the hand being played trick by trick now, if any."""
        return next((log for log in self.trick_logs if log.hand_id is None and log.hand is None), None)

    @property
    def open_log_facts(self):
        """The open hand's trick log as the trail compares it: (id, tricks entered, kitty text, the last
        trick's cards), or None."""
        log = self.trick_log
        if log is None:
            return None
        return log.id, len(log.tricks), log.kitty, log.tricks[-1].cards if log.tricks else None

    def log_of(self, hand):
        """The trick log kept with ``hand``, if it was played trick by trick.

        Found among the game's logs, already loaded, rather than one query per hand.
        """
        return next((log for log in self.trick_logs if log.hand_id == hand.id), None)


HOUSE_RULE_COLUMNS = tuple(getattr(Game, rule.name) for rule in rules.HOUSE_RULES)


def counts_in_season(game):
    """Whether the season counts ``game`` (a ``Game``, a ``ShownGame`` or a row with ``voided_at`` and
    ``waiting``): not left out of it, and not an import waiting for the club's secretary. The one rule, as
    ``COUNTED`` says it to the database."""
    return game.voided_at is None and not game.waiting


COUNTED = Game.counted  # the games the season counts, as a condition: every figure, rating and quick pick reads it


class GameImport(Model):
    """One import: the games brought in at once (documents, a season kept on paper), which the club's
    secretary can find together, and leave out together."""

    id: Mapped[int] = mapped_column(primary_key=True)
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
Index("ix_game_played_on_id", Game.played_on, Game.id)  # the season in the order it was played


class Player(Model):
    """A player of a game. ``seat`` is their roster number: their seat at hand 1 (0-based,
    clockwise, R1) for the players who started, then each joiner's in the order they came.

    ``name`` is the name as typed for this game; ``person_id`` the person it is.
    Every player has one; the column allows none only because SQLite cannot
    add a required column to a table without copying it.
    """

    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        UniqueConstraint("game_id", "name"),
        Index("uq_player_game_id_person_id", "game_id", "person_id", unique=True),  # one person, one seat
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(CheckConstraint("seat >= 0"))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), index=True)
    game: Mapped[Game] = relationship(back_populates="players")


class Person(Model):
    """Someone the club knows: the players of many games are one person.

    ``name`` is the first spelling they were typed as, or the name a
    secretary gave them; typing another spelling finds them, and renames
    nobody. A person merged into another keeps their row, hidden, so that
    the merge can be undone; ``merged_into_id`` names who they became.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"))


class PersonName(Model):
    """A spelling's key (``service.names.key``) and the person it names: how a typed name finds its person.

    Each key names one person; a person has every spelling they were typed
    as, and the names they were given.
    """

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"), index=True)


class PersonChange(Model):
    """One entry of the club's trail of people: a rename, a merge, or an undo of a merge.

    A merge (``other_id`` merged into ``person_id``) keeps in ``facts`` the
    players and spellings it moved, so that undoing it moves them back.
    ``device`` is the name the secretary's device was given, if any.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(16))  # "rename", "merge", "undo"
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    other_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"))
    undoes_id: Mapped[int | None] = mapped_column(ForeignKey("person_change.id"))
    facts: Mapped[str] = mapped_column(Text)  # JSON
    device: Mapped[str | None] = mapped_column(String(DEVICE_NAME_LENGTH))


class GameChange(Model):
    """One entry of the club's trail of games: a game left out of the season ("void", with its reason),
    counted again ("count", keeping the reason it had), or its date changed ("date", ``facts`` holding the
    days before and after); a waiting import counted ("accept") or made to wait again ("wait"); the games
    of one import left out at once ("void_import", with its reason, ``facts`` listing the games it left out,
    ``game_id`` the first of them) or counted again ("count_import", the same); with the name of the
    secretary's device."""

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(16))  # "void", "count", "date", "accept", "wait", "void_import"...
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    reason: Mapped[str | None] = mapped_column(String(VOID_REASON_LENGTH))
    facts: Mapped[str | None] = mapped_column(Text)  # JSON: a date change's "before" and "after" days, an
    # import's "games"
    device: Mapped[str | None] = mapped_column(String(DEVICE_NAME_LENGTH))


class Club(Model):
    """The club itself, one row: the key of its secretary's link (``flask club-link``), made at the first start."""

    id: Mapped[int] = mapped_column(primary_key=True)
    secretary_key: Mapped[str] = mapped_column(String(64))
    # The club's ratings are of every counted, finished game in the order played: a change that a rating
    # cannot follow by rating one more game (a correction, a void, a merge, a game dated earlier) moves
    # ``ratings_version`` on, and the ratings are worked out again to it (``rated_version``) when next read.
    ratings_version: Mapped[int] = mapped_column(default=1, server_default="1")
    rated_version: Mapped[int] = mapped_column(default=0, server_default="0")


class SeatChangeFacts:
    """What a seat change is, for a stored ``SeatChange`` and a ``ShownSeatChange`` alike."""

    @property
    def joins(self):
        return self.kind == "join"

    def value(self):
        """This change as the engine sees it: a ``rules.Join`` or ``rules.Leave``."""
        if self.joins:
            return rules.Join(self.before_hand, self.player, self.at, self.start)
        return rules.Leave(self.before_hand, self.player)


def seat_change_value(facts):
    """A seat change's facts as the trail keeps them (``kind``, ``before_hand``, ``player``, ``at``,
    ``start``) as the engine's ``rules.Join`` or ``rules.Leave``."""
    if facts["kind"] == "join":
        return rules.Join(facts["before_hand"], facts["player"], facts["at"], facts["start"])
    return rules.Leave(facts["before_hand"], facts["player"])


class SeatChange(Model, SeatChangeFacts):
    """A player joining or leaving the table before hand ``before_hand`` (R1), in the order made (``id``).

    ``player`` is the roster number (``Player.seat``); a joiner also has
    ``at``, their place in the seating left by the changes before, and
    ``start``, the total they begin with.
    """

    __table_args__ = (
        CheckConstraint("before_hand >= 2"),
        CheckConstraint("kind IN ('join', 'leave')"),
        {"sqlite_autoincrement": True},  # the trail names them by id: never hand one out twice (migration 0010)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    before_hand: Mapped[int]
    kind: Mapped[str] = mapped_column(String(8))
    player: Mapped[int] = mapped_column(CheckConstraint("player >= 0"))
    at: Mapped[int | None]
    start: Mapped[int | None]
    game: Mapped[Game] = relationship(back_populates="seat_changes")


class Hand(Model):
    """One recorded hand: each seat's takings, what nobody collected, the moon choice."""

    __table_args__ = (
        Index("uq_hand_game_id_number", "game_id", "number", unique=True),  # two devices cannot both record hand 3
        Index("uq_hand_game_id_key", "game_id", "key", unique=True),
        CheckConstraint("uncollected_hearts BETWEEN 0 AND 26"),
        CheckConstraint("uncollected_marias BETWEEN 0 AND 2"),
        CheckConstraint("moon IS NULL OR moon IN ('subtract', 'add')"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(CheckConstraint("number >= 1"))
    key: Mapped[int]  # the hand's own key in its game, kept through renumbering (Game.last_hand_key)
    moon: Mapped[str | None] = mapped_column(String(8))
    uncollected_hearts: Mapped[int] = mapped_column(default=0)
    uncollected_marias: Mapped[int] = mapped_column(default=0)
    uncollected_jacks: Mapped[int] = mapped_column(  # J♦, under that house rule
        CheckConstraint("uncollected_jacks BETWEEN 0 AND 2"), default=0, server_default="0")
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    game: Mapped[Game] = relationship(back_populates="hands")
    takings: Mapped[list["Taking"]] = relationship(
        order_by="Taking.seat", cascade="all, delete-orphan", back_populates="hand"
    )
    trick_log: Mapped["TrickLog | None"] = relationship(back_populates="hand", cascade="all, delete-orphan")

    def record(self):
        """This hand as the rules engine sees it."""
        return hand_record(((taking.hearts, taking.marias, taking.jacks) for taking in self.takings), self.moon,
                           (self.uncollected_hearts, self.uncollected_marias, self.uncollected_jacks))

    def set_facts(self, record, uncollected):
        """Replace this hand's takings and moon choice, and note what nobody collected (R13)."""
        if len(self.takings) != len(record.taken):
            self.takings = [Taking(seat=seat) for seat in range(len(record.taken))]
        # Updated in place: new rows would meet the old ones' (hand, seat) key.
        for taking, taken in zip(self.takings, record.taken):
            taking.hearts, taking.marias, taking.jacks = taken.hearts, taken.marias, taken.jacks
        for column, value in hand_columns(record, uncollected).items():
            setattr(self, column, value)


class Taking(Model):
    """The hearts and Black Marias (and J♦, under that house rule) one seat took in one hand (R14).

    ``seat`` is the place in that hand's seating.
    """

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
    jacks: Mapped[int] = mapped_column(CheckConstraint("jacks BETWEEN 0 AND 2"), default=0, server_default="0")
    hand: Mapped[Hand] = relationship(back_populates="takings")


def taking_rows(hand_id, record):
    """A hand's takings as ``Taking`` rows to insert in one statement, seat by seat."""
    return [{"hand_id": hand_id, "seat": seat, "hearts": taken.hearts, "marias": taken.marias, "jacks": taken.jacks}
            for seat, taken in enumerate(record.taken)]


def hand_columns(record, uncollected):
    """A hand's moon choice and what nobody collected (R13), as its ``Hand`` row holds them."""
    return {"moon": None if record.moon is None else record.moon.value, "uncollected_hearts": uncollected.hearts,
            "uncollected_marias": uncollected.marias, "uncollected_jacks": uncollected.jacks}


class TrickLog(Model):
    """A hand played trick by trick: who led first, the kitty once seen, the tricks.

    While the hand is being played it belongs to the game only; once the hand
    is recorded it belongs to that hand, as the record that settles disputes.
    """

    __table_args__ = ({"sqlite_autoincrement": True},)  # the trail names them by id: never hand one out twice

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

    def replay(self, players, kitty=None, variant=rules.SEEDS):
        """The hand as the engine sees it after the recorded tricks (R9-R13), under ``variant``'s house rules.

        ``kitty`` replays it with those kitty cards instead of the stored ones.
        """
        play = rules.HandPlay(players, self.first_leader, self.kitty_cards if kitty is None else kitty, variant)
        for trick in self.tricks:
            play.play(trick.cards.split(), confirm=trick.confirmed)
        return play

    def facts(self):
        """The log as plain JSON-ready facts: first leader, kitty, each trick's cards and confirmation."""
        return {
            "first_leader": self.first_leader,
            "kitty": self.kitty,
            "tricks": [[trick.cards, trick.confirmed] for trick in self.tricks],
        }

    @classmethod
    def from_facts(cls, facts):
        """A new, unsaved log from ``facts()``."""
        return cls(
            first_leader=facts["first_leader"],
            kitty=facts["kitty"],
            tricks=[Trick(number=number, cards=cards, confirmed=confirmed)
                    for number, (cards, confirmed) in enumerate(facts["tricks"], start=1)],
        )


class Trick(Model):
    """One trick's cards in play order from its leader, and whether an odd lead was confirmed."""

    __table_args__ = (UniqueConstraint("log_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    log_id: Mapped[int] = mapped_column(ForeignKey("trick_log.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(CheckConstraint("number >= 1"))
    cards: Mapped[str] = mapped_column(String(64))  # e.g. "10♠ 9♥ 9♥ 10♠"
    confirmed: Mapped[bool] = mapped_column(default=False)
    log: Mapped[TrickLog] = relationship(back_populates="tricks")


class Change(Model):
    """One entry of a game's trail (R17): what one change found and what it left, as JSON facts.

    ``action`` is one of ``service.Action``: a hand recorded, corrected or
    removed, a player who joined or left, the house rules changed, a trick
    or the kitty of the open hand entered, or an entry undone (``undoes_id``
    names it; an undo can be undone in turn). ``before`` and ``after`` are
    the facts of what the entry changed (None where there was, or is, no
    such hand, seat change or trick), so that undoing it puts ``before`` back.

    ``hand_number`` is the number of the hand it was about when it was made
    (a seat change's: the hand it came before); ``hand_key`` names that hand
    (``Hand.key``) whatever its number became since; ``after_key`` is the hand
    a hand taken out followed, so that putting it back finds its place.
    Hand entries from before hands had keys have no ``hand_key`` and cannot be undone.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(16))  # a service.Action (service/entries.py)
    hand_number: Mapped[int]
    hand_key: Mapped[int | None]
    after_key: Mapped[int | None]
    undoes_id: Mapped[int | None] = mapped_column(ForeignKey("change.id"))
    before: Mapped[str | None] = mapped_column(Text)  # JSON facts, None if there was no such thing
    after: Mapped[str | None] = mapped_column(Text)  # None once it is gone
    game: Mapped[Game] = relationship(back_populates="changes")

    @staticmethod
    def record_of(text):
        """The engine record kept as ``text`` (None stays None)."""
        return None if text is None else record_of_facts(json.loads(text))


@cache
def taken(hearts, marias, jacks=0):
    """The engine's ``Taken``; one value for each of the few (hearts, Black Marias, J♦) counts, made once."""
    return rules.Taken(hearts, marias, jacks)


def record_of_facts(facts):
    """The engine record of a hand's facts as the trail keeps them (``{"taken": [[h, m(, j)], ...], "moon": ...}``)."""
    return hand_record(facts["taken"], facts["moon"])


def hand_record(takings, moon, uncollected=None):
    """One small place turns stored facts into the engine's record: ``(hearts, marias[, jacks])`` per seat, the
    moon, and for a stored hand what nobody collected (its row's three counts): the engine then scores it
    without checking again what was checked when it was written."""
    return rules.HandRecord(tuple(taken(*counts) for counts in takings), None if moon is None else rules.Moon(moon),
                            None if uncollected is None else taken(*uncollected))


# A hand's uncollected counts, as statements read them (``uncollected`` puts them back together).
UNCOLLECTED_COLUMNS = (Hand.uncollected_hearts, Hand.uncollected_marias, Hand.uncollected_jacks)


def uncollected(row):
    """A row's (or ORM hand's) uncollected hearts, Black Marias and J♦, for ``hand_record``."""
    return row.uncollected_hearts, row.uncollected_marias, row.uncollected_jacks


# Whether a hand was played trick by trick, and whether a hand is being played
# so now: a column of each query, so that a page needs no trick log loaded.
Hand.has_tricks = column_property(exists().where(TrickLog.hand_id == Hand.id))
Game.playing_trick_by_trick = column_property(
    exists().where(TrickLog.game_id == Game.id, TrickLog.hand_id.is_(None))
)


def cards_text(cards):
    """Cards as stored: their short names separated by spaces."""
    return " ".join(str(card) for card in cards)
