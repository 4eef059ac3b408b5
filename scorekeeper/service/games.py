"""New games, imports and restores: a game's rows written in one transaction, its players linked to people."""

from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import insert, select, update

from .. import rules
from ..db.models import (
    Game,
    GameImport,
    Hand,
    Person,
    PersonName,
    Player,
    Scored,
    SeatChange,
    Taking,
    Trick,
    TrickLog,
    cards_text,
    db,
    hand_columns,
    taking_rows,
    today,
    utcnow,
    variant_columns,
)
from . import figures
from .errors import Conflict, TricksRefused
from .names import check_one_person_each, cleaned
from .people import people_of
from .writing import inserted, writing


@dataclass(frozen=True)
class GameFacts(Scored):
    """Everything a new or imported game is made of (R1, R4, R16): ``check_game`` checks it.

    ``names`` is the roster: hand 1's seating, then each joiner in the order
    of ``seat_changes`` (engine ``Join`` and ``Leave`` values). ``played_on``
    is the day it was played, today if not given. What is derived from them
    (the starting players, the scoreboard) is derived as a stored game's is
    (``Scored``), from values that are the engine's already.
    """

    name: str
    target: int
    first_dealer: int
    names: tuple[str, ...]
    hands: tuple[rules.HandRecord, ...] = ()
    logs: tuple[rules.PlayedLog | None, ...] = ()  # one a hand, None where it was not played trick by trick
    variant: rules.Variant = rules.SEEDS
    seat_changes: tuple[rules.SeatChange, ...] = ()
    played_on: date | None = None

    def records(self):
        return self.hands

    def seat_change_values(self):
        return self.seat_changes


@dataclass(frozen=True)
class CheckedGame:
    """``GameFacts`` the engine accepted, named, with the scoreboard it derived from them, once."""

    facts: GameFacts
    board: rules.Scoreboard


def check_game(facts):
    """``facts`` checked through the engine, once: the table, the target, one person a name, every hand and
    seat change as scored (R1, R4, R16; each hand's takings are checked unless its record was), and each
    trick log played through (R6-R13, refused as ``TricksRefused`` with its hand's number)."""
    rules.check_players(facts.starting_players)
    rules.check_target(facts.target)
    check_one_person_each(facts.names)
    board = facts.scoreboard()
    for number, (log, hand) in enumerate(zip(facts.logs, board.hands), start=1):
        if log is not None:
            try:
                rules.check_log(log, len(hand.seating), facts.variant)
            except rules.RuleError as error:
                raise TricksRefused(number, error) from None
    return CheckedGame(replace(facts, name=facts.name.strip() or date.today().isoformat()), board)


def new_game(name, target, first_dealer, names, variant=rules.SEEDS):
    """Create a game: players clockwise from seat 0, the first dealer, the target, the house rules (R1, R4, R16)."""
    return import_game(GameFacts(name, target, first_dealer, tuple(names), variant=variant))


def import_game(game):
    """Create a game from ``GameFacts`` (checked here) or a ``CheckedGame``: a new one, or an imported one
    with its hands and trick logs. Its names are typed ones: ``cleaned``, and none too alike a person of
    the club it is not (``people_of``)."""
    checked = as_typed(game if isinstance(game, CheckedGame) else check_game(game))
    return written_twice_if_need_be(lambda: insert_game(checked, typed=True, batch=new_import()))


def import_games(games, waiting=False):
    """Create several games (``GameFacts``, checked here, or ``CheckedGame``) in one transaction: all of them
    or none, as a history brought in at once (several documents, a season kept on paper), as one import
    (``GameImport``). Returns them in order. Their names are typed ones, as ``import_game``'s.

    ``waiting`` games (an import from a device without the club's secretary's pass) are stored and shown,
    and count in no figure of the season until the secretary counts them (``club.accept_games``)."""
    return restore_backup(games, typed=True, waiting=waiting)


def new_import():
    """A new ``GameImport``, inside the import's transaction: its id."""
    return inserted(GameImport, [{"made_at": utcnow()}])[0]


def as_typed(checked):
    """A checked game whose names are kept ``cleaned`` (one space between words, no marks that draw nothing):
    the names of a new game or an import, never those of a restored backup, which are kept as they were."""
    names = tuple(cleaned(name) for name in checked.facts.names)
    return checked if names == checked.facts.names else replace(checked, facts=replace(checked.facts, names=names))


@dataclass(frozen=True)
class KnownPerson:
    """A person a backup knew by several names (``keys``, as ``names.key`` makes them): merged or renamed."""

    name: str
    keys: tuple[str, ...]


def restore_backup(games, people=(), typed=False, waiting=False):
    """Create several games in one transaction, all of them or none: imported documents, a season kept on
    paper, a benchmark's club (a backup is restored whole by ``restoring.restore_club``).

    The ``people`` known by several names (``KnownPerson``) come first, so that the games'
    names find them: a person none of whose names is known here is created
    with all of them; names new here join the one person who has the others.
    Names that several people have here stay as they are (merge them by hand). ``games`` are
    ``CheckedGame`` or ``GameFacts`` values (checked here); ``typed`` ones are imported (``import_games``),
    as one ``GameImport``, ``waiting`` or counted at once.
    """
    checked = [game if isinstance(game, CheckedGame) else check_game(game) for game in games]
    if typed:
        checked = [as_typed(game) for game in checked]

    def insert_all():
        made = {know_person(person): person.name for person in people}
        batch = new_import() if typed else None
        games = [insert_game(facts, typed, batch, waiting) for facts in checked]
        made.pop(None, None)
        if made:  # shown as the backup showed them, not by the spelling of the last game restored
            db.session.execute(update(Person), [{"id": person, "name": name} for person, name in made.items()])
        return games

    return written_twice_if_need_be(insert_all)


def written_twice_if_need_be(insert_rows):
    """Insert new games' rows in one transaction, and once more if that was refused (``Conflict``).

    A new game claims no revision: the one race it can lose is another
    device making the same new person at the same moment. The second try
    finds that person and links to them.
    """
    try:
        with writing(creating=True):
            return insert_rows()
    except Conflict:
        with writing(creating=True):
            return insert_rows()


def know_person(person):
    """Make a backup's ``KnownPerson`` known here (see ``restore_backup``); their id if they were made here."""
    owners = dict(db.session.execute(
        select(PersonName.key, PersonName.person_id).where(PersonName.key.in_(person.keys))).all())
    if len(set(owners.values())) > 1:
        return None
    owner = next(iter(owners.values()), None)
    made = owner is None
    if made:
        owner = inserted(Person, [{"name": person.name}])[0]
    unknown = [key for key in person.keys if key not in owners]
    if unknown:
        db.session.execute(insert(PersonName), [{"key": key, "person_id": owner} for key in unknown])
    return owner if made else None


def insert_game(checked, typed=False, batch=None, waiting=False, people=None):
    """Store a ``CheckedGame``: the game through the ORM, its rows as one multi-row insert a table; ``typed``
    names are refused when too alike a person of the club they are not (``people_of``). ``batch`` is the
    ``GameImport`` that brings it, ``waiting`` whether it waits for the secretary. ``people`` seats the
    club's people of those ids, one a name (a night's draw, claimed by the caller), rather than the people
    the names find."""
    facts = checked.facts
    game = Game(name=facts.name, target=facts.target, first_dealer=facts.first_dealer, import_id=batch,
                waiting=waiting, last_hand_key=len(facts.hands), played_on=facts.played_on or today(),
                **variant_columns(facts.variant))
    db.session.add(game)
    db.session.flush()
    people = people_of(facts.names, typed=typed) if people is None else people
    db.session.execute(insert(Player), [
        {"game_id": game.id, "seat": seat, "name": name, "person_id": person}
        for seat, (name, person) in enumerate(zip(facts.names, people))])
    figures.keep(game.id, game.revision, checked.board, facts.names, not waiting)
    if facts.seat_changes:
        db.session.execute(insert(SeatChange), [
            {"game_id": game.id, **seat_change_columns(change)} for change in facts.seat_changes])
    insert_hands(game.id, checked)
    return game


def insert_hands(game_id, checked, keys=None, recorded_at=None):
    """Store a ``CheckedGame``'s hands, their takings and trick logs as one multi-row insert a table; the ids
    of the hands and of their logs (None for a hand without one), in the hands' order. ``keys`` are the
    hands' own keys (``Hand.key``; 1, 2, 3... by default), ``recorded_at`` when each was recorded (now).

    An imported game of 200 hands holds some 3,000 rows; as ORM objects they
    cost most of the import, as plain inserts a small part of it.
    """
    facts = checked.facts
    if not facts.hands:
        return [], []
    keys = keys or range(1, len(facts.hands) + 1)
    times = [{"recorded_at": at} for at in recorded_at] if recorded_at else [{}] * len(facts.hands)
    hand_ids = inserted(Hand, [
        {"game_id": game_id, "number": number, "key": key, **at, **hand_columns(record, summary.uncollected)}
        for number, (key, at, record, summary) in enumerate(zip(keys, times, facts.hands, checked.board.hands),
                                                            start=1)])
    db.session.execute(insert(Taking), [row for hand_id, record in zip(hand_ids, facts.hands)
                                        for row in taking_rows(hand_id, record)])
    played = [(hand_id, log) for hand_id, log in zip(hand_ids, facts.logs) if log is not None]
    log_ids = dict(zip([hand_id for hand_id, _log in played], insert_logs(game_id, played)))
    return hand_ids, [log_ids.get(hand_id) for hand_id in hand_ids]


def insert_logs(game_id, played):
    """Store trick logs, each ``(hand id or None for the open hand, rules.PlayedLog)``, with their tricks; their
    ids, in order."""
    if not played:
        return []
    log_ids = inserted(TrickLog, [
        {"game_id": game_id, "hand_id": hand_id, "first_leader": log.first_leader,
         "kitty": cards_text(log.kitty) if log.kitty else None}
        for hand_id, log in played])
    tricks = [{"log_id": log_id, "number": number, "cards": cards_text(cards), "confirmed": confirmed}
              for log_id, (_hand_id, log) in zip(log_ids, played)
              for number, (cards, confirmed) in enumerate(log.tricks, start=1)]
    if tricks:  # a log may hold only the kitty; an insert of no rows would be one of an empty row
        db.session.execute(insert(Trick), tricks)
    return log_ids


def seat_change_columns(change):
    """An engine ``Join`` or ``Leave`` as a ``SeatChange`` row's columns."""
    if isinstance(change, rules.Join):
        return {"kind": "join", "before_hand": change.before_hand, "player": change.player,
                "at": change.at, "start": change.start}
    return {"kind": "leave", "before_hand": change.before_hand, "player": change.player, "at": None, "start": None}
