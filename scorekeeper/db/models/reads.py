"""A game as its pages read it, in a few statements, as plain values rather than ORM objects.

``read_shown_game`` reads a game (a ``ShownGame``, with its ``ShownHand``s and ``ShownSeatChange``s) in two
statements whatever its length, for the table view, the watch page and the display; ``read_trail`` reads its
trail as plain rows, in one. ``read_open_log`` alone reads ORM objects: the trick log of the hand being played,
with its tricks.
"""

import itertools
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache

from sqlalchemy import String, bindparam, cast, func, select, true
from sqlalchemy.orm import selectinload

from ... import rules
from .base import db
from .facts import (
    HOUSE_RULE_COLUMNS,
    UNCOLLECTED_COLUMNS,
    Change,
    Game,
    Hand,
    Player,
    Scored,
    SeatChange,
    SeatChangeFacts,
    Taking,
    Trick,
    TrickLog,
    hand_record,
    uncollected,
    variant_of_stored,
)
from .nights import Night, NightRound, NightTable


@dataclass(frozen=True)
class ShownHand:
    """A recorded hand as a page shows it: plain values, no ORM object."""

    key: int
    number: int
    has_tricks: bool
    facts: rules.HandRecord

    def record(self):
        return self.facts


@dataclass(frozen=True)
class ShownGame(Scored):
    """A game as the table view, the watch page and the display read it: plain values from rows.

    The first view after a change builds no ORM object: a 40-hand game of 11
    players is about 500 rows, which as ORM objects cost most of the page.
    The trail is read apart (``read_trail``): a page shows its newest entries.
    """

    id: int
    name: str
    target: int
    first_dealer: int
    revision: int
    scorer_key: str
    created_at: datetime
    last_hand_key: int
    playing_trick_by_trick: bool
    voided_at: datetime | None
    void_reason: str | None
    waiting: bool
    played_on: date
    house_rules: tuple[int | str, ...]  # the house rules' stored values, in the registry's order (rules.HOUSE_RULES)
    names: tuple[str, ...]  # what a game keeps of its players: not their people, which a merge changes
    hands: tuple[ShownHand, ...]
    seat_changes: tuple["ShownSeatChange", ...] = ()
    open_log_facts: tuple | None = None  # as ``Game.open_log_facts``
    night_table: "NightTableFacts | None" = None  # the table of a club night it is, if it is one (R18)

    @property
    def variant(self):
        """The game's house rules as one engine value."""
        return variant_of_stored(self.house_rules)


@dataclass(frozen=True)
class NightTableFacts:
    """The club night a game is a table of (R18): the night's id, name and round length (``deals``), the
    round's number and the table's. They never change while the game exists."""

    night_id: int
    night: str
    deals: int | None
    round_number: int
    table: int


@dataclass(frozen=True)
class ShownSeatChange(SeatChangeFacts):
    """A seat change as a page reads it, with ``SeatChange``'s columns."""

    id: int
    kind: str
    before_hand: int
    player: int
    at: int | None
    start: int | None


_SHOWN_GAME_COLUMNS = ("id", "name", "target", "first_dealer", "revision", "scorer_key", "created_at", "last_hand_key",
                       "playing_trick_by_trick", "voided_at", "void_reason", "waiting", "played_on")


def read_shown_game(game_id):
    """Game ``game_id`` as its pages show it, in two statements whatever its length; None if there is none."""
    seat_changes = _seat_changes_text(game_id)
    seated = db.session.execute(
        select(*(getattr(Game, column) for column in _SHOWN_GAME_COLUMNS), *HOUSE_RULE_COLUMNS,
               seat_changes.c.seat_changes, *_open_log_columns(), Player.name.label("player"),
               Night.id.label("night_id"), Night.name.label("night_name"), Night.deals.label("night_deals"),
               NightRound.number.label("night_round"), NightTable.number.label("night_table"))
        .join(Player, Player.game_id == Game.id)
        .outerjoin(seat_changes, true())
        .outerjoin(NightTable, NightTable.game_id == Game.id)
        .outerjoin(NightRound, NightRound.id == NightTable.round_id)
        .outerjoin(Night, Night.id == NightRound.night_id)
        .where(Game.id == game_id)
        .order_by(Player.seat)
    ).all()
    if not seated:
        return None
    rows = db.session.execute(
        select(Hand.key, Hand.number, Hand.has_tricks, Hand.moon, *UNCOLLECTED_COLUMNS, Taking.hearts, Taking.marias,
               Taking.jacks)
        .join(Taking, Taking.hand_id == Hand.id)
        .where(Hand.game_id == game_id)
        .order_by(Hand.number, Taking.seat)
    )
    hands = []
    for _hand, takings in itertools.groupby(rows, key=lambda row: row.key):
        takings = list(takings)
        hand = takings[0]
        hands.append(ShownHand(hand.key, hand.number, hand.has_tricks, hand_record(
            ((row.hearts, row.marias, row.jacks) for row in takings), hand.moon, uncollected(hand))))
    head = seated[0]._mapping
    log = (None if head["log_id"] is None
           else (head["log_id"], head["log_tricks"], head["log_kitty"], head["log_last_trick"]))
    return ShownGame(**{column: head[column] for column in _SHOWN_GAME_COLUMNS},
                     house_rules=tuple(head[rule.name] for rule in rules.HOUSE_RULES),
                     names=tuple(row.player for row in seated), hands=tuple(hands),
                     seat_changes=_read_seat_changes_text(head["seat_changes"]), open_log_facts=log,
                     night_table=None if head["night_id"] is None else NightTableFacts(
                         head["night_id"], head["night_name"], head["night_deals"], head["night_round"],
                         head["night_table"]))


def read_trail(game_id, newest=None):
    """Game ``game_id``'s trail entries as plain rows with ``Change``'s columns, newest first, and how many it
    has: every entry, or the ``newest`` ones and the entries they undo (an undo's first entry included, at
    any depth), in one statement whatever the trail's length."""
    if newest is None:
        rows = db.session.execute(_trail_statement(None), {"game_id": game_id}).all()
        return tuple(rows), len(rows)
    rows = db.session.execute(_trail_statement(newest), {"game_id": game_id}).all()
    return tuple(rows), rows[0].entries if rows else 0


@cache
def _trail_statement(newest):
    """The statement of ``read_trail``, made once a process for each ``newest``."""
    entries = select(Change.__table__).where(Change.game_id == bindparam("game_id"))
    if newest is None:
        return entries.order_by(Change.id.desc())
    latest = entries.order_by(Change.id.desc()).limit(newest).subquery()
    chain = select(latest).cte("chain", recursive=True)
    chain = chain.union(select(Change.__table__).join(chain, Change.id == chain.c.undoes_id))
    count = select(func.count(Change.id)).where(Change.game_id == bindparam("game_id")).scalar_subquery()
    return select(chain, count.label("entries")).order_by(chain.c.id.desc())


def read_open_log(game_id):
    """The trick log of the hand being played trick by trick in game ``game_id``, with its tricks; or None."""
    return db.session.execute(
        select(TrickLog).where(TrickLog.game_id == game_id, TrickLog.hand_id.is_(None))
        .options(selectinload(TrickLog.tricks))).scalars().first()


def _open_log_columns():
    """The open hand's trick log, as columns of the game's own statement: its id, its tricks, its kitty and
    its last trick's cards."""
    # Correlated to the outer statement's game explicitly: nested in the other
    # columns' subqueries, automatic correlation would take any game's open log.
    log_id = (select(TrickLog.id).where(TrickLog.game_id == Game.id, TrickLog.hand_id.is_(None))
              .limit(1).correlate(Game).scalar_subquery())
    tricks = select(func.count(Trick.id)).where(Trick.log_id == log_id).scalar_subquery()
    kitty = select(TrickLog.kitty).where(TrickLog.id == log_id).scalar_subquery()
    last = (select(Trick.cards).where(Trick.log_id == log_id).order_by(Trick.number.desc()).limit(1)
            .scalar_subquery())
    return log_id.label("log_id"), tricks.label("log_tricks"), kitty.label("log_kitty"), last.label("log_last_trick")


_SEAT_CHANGE_COLUMNS = (SeatChange.id, SeatChange.kind, SeatChange.before_hand, SeatChange.player,
                        SeatChange.at, SeatChange.start)


def _seat_changes_text(game_id):
    """Game ``game_id``'s seat changes as one text, "id kind before_hand player at start" for each, separated
    by ";" (in no set order): a derived table of one row, aggregated once, not once for each player's row."""
    fields = [func.coalesce(cast(column, String), "-") for column in _SEAT_CHANGE_COLUMNS]
    row = fields[0]
    for field in fields[1:]:
        row = row + " " + field
    return (select(func.aggregate_strings(row, ";").label("seat_changes"))
            .where(SeatChange.game_id == game_id).subquery("seat_changes"))


def _read_seat_changes_text(text):
    """The seat changes of ``_seat_changes_text``, in the order they were made."""
    rows = sorted((entry.split(" ") for entry in (text or "").split(";") if entry), key=lambda row: int(row[0]))
    return tuple(
        ShownSeatChange(int(seat), kind, int(before_hand), int(player), None if at == "-" else int(at),
                        None if start == "-" else int(start))
        for seat, kind, before_hand, player, at, start in rows)
