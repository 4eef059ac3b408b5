"""Every change to a game goes through here: one function a change.

Each function takes the game (as the caller loaded it), engine values and
the revision the caller saw. It checks the change through the rules engine
before writing anything, then claims the game with one compare-and-set on
its revision, writes the rows and the trail, and commits: one transaction.

What it raises, for the views to word (scorekeeper/explain.py):

- ``rules.RuleError`` subclasses: the rules refuse the change;
- ``Conflict``: another device wrote first, or the database refused the
  write (a taken hand number, a stale row, a deadlock): nothing was saved;
- ``UndoRefused``: a trail entry that cannot be undone now, and why;
- ``KittyNeeded``: a trick entered before the kitty its winner took;
- ``SamePerson``: two names of one game that are one person;
- ``PeopleRefused``: a rename, merge or undo of the club's people that cannot be made.

The club's people (who the players of every game are) change here too:
linking a game's players as it is created, renaming and merging people.

Views and commands never commit: ``grep -rn commit scorekeeper`` finds
only this module.
"""

import enum
import json
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from .. import rules
from ..db.models import (
    Change,
    Game,
    Hand,
    Person,
    PersonChange,
    PersonName,
    Player,
    SeatChange,
    Taking,
    Trick,
    TrickLog,
    cards_text,
    db,
    name_key,
    record_of_facts,
    seat_change_value,
    variant_columns,
)
from ..web import rendered

# --- Errors ------------------------------------------------------------------


class Conflict(Exception):
    """Another device changed the game first, or the database refused the write; nothing was saved."""


class UndoRefused(Exception):
    """A trail entry that cannot be undone now; ``line`` says why (see ``TrailLine``)."""

    def __init__(self, line):
        super().__init__(f"change {line.change.id} cannot be undone now")
        self.line = line


class NameTaken(Exception):
    """A joiner's name is already a player's in this game (who may have left): names stay unique."""

    def __init__(self, name):
        super().__init__(f"{name!r} already plays or played in this game")
        self.name = name


class SamePerson(Exception):
    """Two names of one game are one person: one name written two ways ("Ana", "Ａｎａ"),
    or the spellings of two people merged into one. ``name`` is the second, ``other`` the first."""

    def __init__(self, name, other):
        super().__init__(f"{name!r} and {other!r} are one person")
        self.name = name
        self.other = other


class PeopleRefused(Exception):
    """A change to the club's people that cannot be made; ``reason`` says why, ``name`` and ``game`` what in.

    Reasons: "name_taken" (the name is another person's), "same" (a person
    merged with themselves), "merged" (someone already merged away),
    "played_together" (both sat in game ``game``: they are two people),
    "undone" (an entry undone already), "later_merge" (merged away since:
    undo that first), "not_undoable" (a rename, or an undo).
    """

    def __init__(self, reason, name=None, game=None):
        super().__init__(f"refused: {reason}")
        self.reason = reason
        self.name = name
        self.game = game


class HandUnderWay(rules.RuleError):
    """A player joining or leaving (or such a change undone) while the open hand has tricks entered: the
    tricks were played by the table as it sits (R1); ``number`` is the hand."""

    rule = "R1"

    def __init__(self, number):
        super().__init__(f"hand {number} is being played trick by trick: nobody joins or leaves now")
        self.number = number


class KittyNeeded(Exception):
    """A trick was entered before the table said what the kitty held (R12)."""

    def __init__(self, taker):
        super().__init__(f"seat {taker} took the kitty: say what it held first (R12)")
        self.taker = taker


# --- Values a change is made of --------------------------------------------------


@dataclass(frozen=True)
class PlayedLog:
    """A hand's trick log as facts: the first leader, the kitty (if known) and each trick."""

    first_leader: int
    kitty: tuple[rules.Card, ...] = ()
    tricks: tuple[tuple[tuple[rules.Card, ...], bool], ...] = ()  # (cards from the leader, lead confirmed)


@dataclass(frozen=True)
class GameFacts:
    """Everything a new or imported game is made of, already checked (R1, R4, R16).

    ``names`` is the roster: hand 1's seating, then each joiner in the order
    of ``seat_changes`` (engine ``Join`` and ``Leave`` values).
    """

    name: str
    target: int
    first_dealer: int
    names: tuple[str, ...]
    hands: tuple[rules.HandRecord, ...] = ()
    logs: tuple[PlayedLog | None, ...] = ()  # one a hand, None where it was not played trick by trick
    variant: rules.Variant = rules.SEEDS
    seat_changes: tuple[rules.SeatChange, ...] = ()

    @property
    def starting_players(self):
        return rules.starting_players(len(self.names), self.seat_changes)

    def scoreboard(self):
        return rules.score_game(self.starting_players, self.first_dealer, self.target, self.hands,
                                self.variant, self.seat_changes)


# --- One transaction, one claim ---------------------------------------------------


@contextmanager
def _writing(game=None, based_on=None):
    """Claim ``game`` at revision ``based_on``, let the caller write, and commit, all or nothing.

    Without a ``game`` (a new one, an import, a restore) there is nothing to claim.

    The claim comes first: it moves the revision only if nobody moved it
    since the caller's form was shown, and on PostgreSQL it also locks the
    game's row, so that two writers of one game queue instead of
    deadlocking. Every refusal of the database inside becomes ``Conflict``.
    """
    try:
        if game is not None:
            _claim(game.id, based_on)
        yield
        db.session.flush()
        db.session.commit()
        if game is not None:
            rendered.forget(game.id)  # its pages and live state move on at once in this process
    except Conflict:
        db.session.rollback()
        raise
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict() from None
    except OperationalError as error:
        db.session.rollback()
        if _contention(error):
            raise Conflict() from None
        raise
    except BaseException:
        db.session.rollback()
        raise


def _claim(game_id, based_on):
    moved = db.session.execute(
        update(Game).where(Game.id == game_id, Game.revision == based_on).values(revision=Game.revision + 1),
        execution_options={"synchronize_session": False},
    )
    if moved.rowcount != 1:
        raise Conflict()


# SQLSTATEs of PostgreSQL's serialization failure and deadlock; SQLite says "locked" or "busy".
_RETRYABLE_STATES = {"40001", "40P01"}


def _contention(error):
    """Whether the database refused a write only because another writer held the game."""
    state = getattr(error.orig, "sqlstate", None)
    message = str(error.orig).lower()
    return state in _RETRYABLE_STATES or "database is locked" in message or "database is busy" in message


# --- Games -------------------------------------------------------------------------


def new_game(name, target, first_dealer, names, variant=rules.SEEDS):
    """Create a game: players clockwise from seat 0, the first dealer, the target, the house rules (R1, R4, R16)."""
    return import_game(GameFacts(name, target, first_dealer, tuple(names), variant=variant))


def import_game(facts):
    """Create a game from ``GameFacts``: a new one, or an imported one with its hands and trick logs."""
    checked = _checked_game(facts)
    return _written_twice_if_need_be(lambda: _insert_game(checked))


@dataclass(frozen=True)
class KnownPerson:
    """A person a backup knew by several names (``keys``, as ``name_key`` makes them): merged or renamed."""

    name: str
    keys: tuple[str, ...]


def restore_backup(games_facts, people=()):
    """Create every game of a backup in one transaction: all of them or none.

    The backup's ``people`` (``KnownPerson``) come first, so that its games'
    names find them: a person none of whose names is known here is created
    with all of them; names new here join the one person who has the others.
    Names that several people have here stay as they are (merge them by hand).
    """
    checked = [_checked_game(facts) for facts in games_facts]

    def insert_all():
        made = {_know(person): person.name for person in people}
        games = [_insert_game(facts) for facts in checked]
        made.pop(None, None)
        if made:  # shown as the backup showed them, not by the spelling of the last game restored
            db.session.execute(update(Person), [{"id": person, "name": name} for person, name in made.items()])
        return games

    return _written_twice_if_need_be(insert_all)


def _written_twice_if_need_be(insert_rows):
    """Insert new games' rows in one transaction, and once more if that was refused (``Conflict``).

    A new game claims no revision: the one race it can lose is another
    device making the same new person at the same moment. The second try
    finds that person and links to them.
    """
    try:
        with _writing():
            return insert_rows()
    except Conflict:
        with _writing():
            return insert_rows()


def _know(person):
    """Make a backup's ``KnownPerson`` known here (see ``restore_backup``); their id if they were made here."""
    owners = dict(db.session.execute(
        select(PersonName.key, PersonName.person_id).where(PersonName.key.in_(person.keys))).all())
    if len(set(owners.values())) > 1:
        return None
    owner = next(iter(owners.values()), None)
    made = owner is None
    if made:
        owner = _inserted(Person, [{"name": person.name}])[0]
    unknown = [key for key in person.keys if key not in owners]
    if unknown:
        db.session.execute(insert(PersonName), [{"key": key, "person_id": owner} for key in unknown])
    return owner if made else None


def _checked_game(facts):
    """``facts`` with a name, if the engine accepts the table, target and hands (R1, R4, R16)."""
    rules.check_players(facts.starting_players)
    rules.check_target(facts.target)
    _check_one_person_each(facts.names)
    board = facts.scoreboard()
    for log, hand in zip(facts.logs, board.hands):
        if log is not None:
            check_log(log, len(hand.seating), facts.variant)
    return replace(facts, name=facts.name.strip() or date.today().isoformat())


def _insert_game(facts):
    """Store checked ``GameFacts``: the game through the ORM, its rows as one multi-row insert a table.

    An imported game of 200 hands holds some 3,000 rows; as ORM objects they
    cost most of the import, as plain inserts a small part of it.
    """
    game = Game(name=facts.name, target=facts.target, first_dealer=facts.first_dealer,
                last_hand_key=len(facts.hands), **variant_columns(facts.variant))
    db.session.add(game)
    db.session.flush()
    db.session.execute(insert(Player), [
        {"game_id": game.id, "seat": seat, "name": name, "person_id": person}
        for seat, (name, person) in enumerate(zip(facts.names, _people_of(facts.names)))])
    if facts.seat_changes:
        db.session.execute(insert(SeatChange), [
            {"game_id": game.id, **_seat_change_columns(change)} for change in facts.seat_changes])
    if not facts.hands:
        return game
    hand_ids = _inserted(Hand, [
        {"game_id": game.id, "number": number, "key": number,
         "moon": None if record.moon is None else record.moon.value,
         **_uncollected_columns(record, facts.variant)}
        for number, record in enumerate(facts.hands, start=1)])
    db.session.execute(insert(Taking), [
        {"hand_id": hand_id, "seat": seat, "hearts": taken.hearts, "marias": taken.marias, "jacks": taken.jacks}
        for hand_id, record in zip(hand_ids, facts.hands) for seat, taken in enumerate(record.taken)])
    played = [(hand_id, log) for hand_id, log in zip(hand_ids, facts.logs) if log is not None]
    if played:
        log_ids = _inserted(TrickLog, [
            {"game_id": game.id, "hand_id": hand_id, "first_leader": log.first_leader,
             "kitty": cards_text(log.kitty) if log.kitty else None}
            for hand_id, log in played])
        tricks = [{"log_id": log_id, "number": number, "cards": cards_text(cards), "confirmed": confirmed}
                  for log_id, (_hand_id, log) in zip(log_ids, played)
                  for number, (cards, confirmed) in enumerate(log.tricks, start=1)]
        if tricks:  # a log may hold only the kitty; an insert of no rows would be one of an empty row
            db.session.execute(insert(Trick), tricks)
    return game


def _inserted(model, rows):
    """Insert ``rows`` of ``model`` in one statement; their new ids, in the order given."""
    return db.session.execute(insert(model).returning(model.id, sort_by_parameter_order=True), rows).scalars().all()


def _uncollected_columns(record, variant):
    """What nobody collected in a hand (R13), as its row holds it."""
    left = _uncollected(record, variant)
    return {"uncollected_hearts": left.hearts, "uncollected_marias": left.marias, "uncollected_jacks": left.jacks}


def _seat_change_columns(change):
    """An engine ``Join`` or ``Leave`` as a ``SeatChange`` row's columns."""
    if isinstance(change, rules.Join):
        return {"kind": "join", "before_hand": change.before_hand, "player": change.player,
                "at": change.at, "start": change.start}
    return {"kind": "leave", "before_hand": change.before_hand, "player": change.player, "at": None, "start": None}


# --- Hands -------------------------------------------------------------------------


def record_hand(game, taken, moon, last_trick_reserved, based_on, nothing_collected=False):
    """Record the next hand (R13-R16); a hand played trick by trick keeps its tricks.

    ``taken`` follows the next hand's seating; ``nothing_collected`` says the
    table confirmed that nobody collected anything (``rules.NothingCollected``).
    """
    record = rules.check_hand(taken, moon, last_trick_reserved, game.variant,
                              nothing_collected_confirmed=nothing_collected)
    board = game.scoreboard(game.records() + [record])
    with _writing(game, based_on):
        hand = _new_hand(game, len(game.hands) + 1, record)
        game.hands.append(hand)
        log = game.trick_log
        if log is not None and log.tricks:
            log.hand = hand
        elif log is not None:
            game.trick_logs.remove(log)  # nothing was played: nothing to keep
        _trail(game, Action.RECORD, hand, after=_hand_facts(record, board.hands[-1].seating, log=log))
    return hand


def correct_hand(game, number, taken, moon, last_trick_reserved, based_on, nothing_collected=False):
    """Correct hand ``number``; everything derived follows and the trail keeps the old facts (R17)."""
    hand = game.hands[number - 1]
    record = rules.check_hand(taken, moon, last_trick_reserved, game.variant,
                              nothing_collected_confirmed=nothing_collected)
    before = hand.record()
    if record == before:
        # Nothing to write, but a stale form is still refused. The revision is
        # read again, after the hands: a write that slipped in between the
        # reads of the game and of its hands shows here.
        if db.session.execute(select(Game.revision).where(Game.id == game.id)).scalar() != based_on:
            raise Conflict()
        return hand
    records = game.records()
    records[number - 1] = record
    seating = game.scoreboard(records).hands[number - 1].seating
    with _writing(game, based_on):
        _set_facts(hand, record, game.variant)
        _trail(game, Action.CORRECT, hand, before=_hand_facts(before, seating), after=_hand_facts(record, seating))
    return hand


def remove_hand(game, number, based_on):
    """Remove hand ``number``; later hands move up one, and so do the seat changes after it;
    the trail keeps it, tricks too, and where every seat change then stood (R17)."""
    hand = game.hands[number - 1]
    facts, previous, apply = _deletion(game, hand)
    with _writing(game, based_on):
        _trail(game, Action.REMOVE, hand, before=facts, after_key=previous)
        apply()


def _deletion(game, hand):
    """Take ``hand`` out of the game, checked through the engine first (R16, R1): its facts as the trail
    keeps them, the key of the hand it followed, and the function that then deletes its rows.

    Later hands move up one number, and so do the seat changes after it; the
    facts keep its trick log, which seat changes moved and where every seat
    change then stands, so that putting it back can restore exactly that.
    """
    number = hand.number
    records = game.records()
    del records[number - 1]
    moving = _seat_changes_after(game, number)
    game.scoreboard(records, changes=_moved_up(game, moving))
    seating = rules.seatings(game.starting_players, game.seat_change_values(), len(game.hands),
                             game.target)[number - 1]
    facts = _hand_facts(hand.record(), seating, trick_log=hand.trick_log, moved=[change.id for change in moving],
                        seats=[[change.id, change.before_hand - (change in moving)] for change in game.seat_changes])
    previous = game.hands[number - 2].key if number > 1 else None
    return facts, previous, lambda: _remove_row(game, hand)


def _seat_changes_after(game, number):
    """The seat changes that follow hand ``number``: they move up one with the hands after it."""
    return [change for change in game.seat_changes if change.before_hand > number]


def _moved_up(game, moving):
    """The game's seat changes as engine values, those in ``moving`` one hand earlier."""
    return [replace(change.value(), before_hand=change.before_hand - 1) if change in moving else change.value()
            for change in game.seat_changes]


# --- House rules and a changing table ---------------------------------------------------


def change_house_rules(game, variant, based_on):
    """Play the game under other house rules from now on and through every recorded hand (R17).

    Refused (a ``rules.RuleError``) when a recorded hand does not fit them,
    e.g. J♦ counted where they no longer score.
    """
    before = game.variant
    if variant == before:
        return game
    _check_hands_under(game, variant)
    with _writing(game, based_on):
        _set_house_rules(game, variant)
        _trail_game(game, Action.RULES, before=before.facts(), after=variant.facts())
    return game


def _set_house_rules(game, variant):
    for column, value in variant_columns(variant).items():
        setattr(game, column, value)


def _check_hands_under(game, variant):
    """Every recorded hand, scored under ``variant``; raises ``JacksFixed`` or ``HandDoesNotFit``."""
    if game.hands and variant.jack_of_diamonds != game.variant.jack_of_diamonds:
        raise JacksFixed()
    for hand in game.hands:
        record = hand.record()
        try:
            rules.score_hand(dict(enumerate(record.taken)), record.moon, variant)
        except rules.RuleError as error:
            raise HandDoesNotFit(hand.number, error) from None
    game.scoreboard(variant=variant)


class JacksFixed(Exception):
    """The J♦ house rule changed once hands are recorded: they do not say who took the J♦ (or would lose it)."""


class HandDoesNotFit(rules.RuleError):
    """A recorded hand that other house rules would refuse: ``number`` and the engine's ``error``."""

    def __init__(self, number, error):
        super().__init__(f"hand {number}: {error}")
        self.number = number
        self.error = error
        self.rule = error.rule


def seat_player(game, name, at, start, based_on):
    """A player joins before the next hand, at place ``at`` of the seating as it stands, with ``start`` points (R1).

    ``start`` is a total or a ``rules.StartRule``; raises ``NameTaken`` for
    a name already in the game and ``rules.SeatingRefused`` for a table the
    rules cannot seat.
    """
    name = name.strip()
    if any(name_key(name) == name_key(taken) for taken in game.names):
        raise NameTaken(name)
    if isinstance(start, (rules.StartRule, str)):
        start = rules.starting_total(game.scoreboard(), start)
    join = rules.Join(len(game.hands) + 1, len(game.names), at, start)
    _add_seat_change(game, join, name, based_on)
    return join


def see_off(game, player, based_on):
    """Player ``player`` (a roster number) leaves before the next hand, keeping their total (R1)."""
    leave = rules.Leave(len(game.hands) + 1, player)
    _add_seat_change(game, leave, game.names[player], based_on)
    return leave


def _add_seat_change(game, change, name, based_on):
    """Check a ``Join`` or ``Leave`` through the engine (after the game is over it refuses any), then store it
    with its trail entry; a joiner becomes a player of the game under ``name``."""
    _refuse_while_under_way(game)
    game.scoreboard(changes=game.seat_change_values() + [change])
    with _writing(game, based_on):
        facts = _seated(game, change, name)
        _trail_game(game, Action(facts["kind"]), hand_number=change.before_hand, after=facts)


def _refuse_while_under_way(game):
    """Raise ``HandUnderWay`` when the open hand has tricks entered (by the table as it sits now)."""
    log = game.trick_log
    if log is not None and log.tricks:
        raise HandUnderWay(len(game.hands) + 1)


def _seated(game, change, name, row_id=None, player_id=None):
    """Write a ``Join`` or ``Leave`` (and a joiner's player, linked to their person); the facts the trail keeps.

    ``row_id`` and ``player_id`` put back the rows an undo took out under the ids they had.
    """
    player = None
    if isinstance(change, rules.Join):
        person = _people_of([name])[0]
        _refuse_repeats([*game.names, name], [*(player.person_id for player in game.players), person])
        player = Player(id=player_id, seat=change.player, name=name, person_id=person)
        game.players.append(player)
    row = SeatChange(id=row_id, **_seat_change_columns(change))
    game.seat_changes.append(row)
    db.session.flush()  # the rows' ids, for the trail to name them
    facts = {"id": row.id, "name": name, **_seat_change_columns(change)}
    if player is not None:
        facts["player_id"] = player.id
    return facts


# --- People: the club's memory ---------------------------------------------------------


def _check_one_person_each(names):
    """Refuse a table where two names are one name written two ways ("Ana", "ana ", "Ａｎａ")."""
    _refuse_repeats(names, [name_key(name) for name in names])


def _refuse_repeats(names, identities):
    """Raise ``SamePerson`` for the first name whose identity (a name's key, a person) an earlier name has."""
    first = {}
    for place, identity in enumerate(identities):
        if identity is None:  # a player nobody linked yet is nobody's repeat
            continue
        earlier = first.setdefault(identity, place)
        if earlier != place:
            raise SamePerson(names[place], names[earlier])


def _people_of(names):
    """The person of each of a new game's (or a joiner's) names, creating the people not known yet.

    A known person takes the spelling just typed (a person is shown by the
    spelling used most recently). Raises ``SamePerson`` when two names are
    the spellings of one merged person.
    """
    keys = [name_key(name) for name in names]
    known = {key: (person, shown) for key, person, shown in db.session.execute(
        select(PersonName.key, Person.id, Person.name).join(Person, Person.id == PersonName.person_id)
        .where(PersonName.key.in_(set(keys)))).all()}
    new = {key: name for key, name in zip(keys, names) if key not in known}
    if new:
        ids = _inserted(Person, [{"name": name} for name in new.values()])
        db.session.execute(insert(PersonName), [{"key": key, "person_id": person} for key, person in zip(new, ids)])
    respelled = {known[key][0]: name for key, name in zip(keys, names) if key in known and known[key][1] != name}
    if respelled:
        db.session.execute(update(Person), [{"id": person, "name": name} for person, name in respelled.items()])
    people = {**{key: person for key, (person, _shown) in known.items()}, **dict(zip(new, ids if new else ()))}
    linked = [people[key] for key in keys]
    _refuse_repeats(names, linked)
    return linked


def rename_person(person, name):
    """Show ``person`` as ``name`` from now on; the name also finds them when typed in a new game.

    Games keep the names they were played under. Refused with
    ``PeopleRefused("name_taken")`` when the name is another person's.
    """
    name = name.strip()
    key = name_key(name)
    owner = db.session.execute(select(PersonName.person_id).where(PersonName.key == key)).scalar()
    if owner is not None and owner != person.id:
        raise PeopleRefused("name_taken", name=name)
    if name == person.name:
        return person
    with _writing():
        facts = {"before": person.name, "after": name}
        person.name = name
        if owner is None:
            db.session.add(PersonName(key=key, person_id=person.id))
        db.session.add(PersonChange(action="rename", person_id=person.id, facts=json.dumps(facts, ensure_ascii=False)))
    return person


def merge_people(person, other):
    """Merge ``other`` into ``person``: their games, figures and spellings become ``person``'s.

    An entry of the club's trail, which undoing moves them all back. Refused
    when both sat in one game (they are two people), or either is merged away.
    """
    if other.id == person.id:
        raise PeopleRefused("same", name=other.name)
    if person.merged_into_id is not None or other.merged_into_id is not None:
        raise PeopleRefused("merged", name=other.name if other.merged_into_id else person.name)
    both = select(Player.game_id).where(Player.person_id == person.id).intersect(
        select(Player.game_id).where(Player.person_id == other.id)).limit(1)
    shared = db.session.execute(both).scalar()
    if shared is not None:
        raise PeopleRefused("played_together", name=other.name, game=db.session.get(Game, shared))
    with _writing():
        _claim_person(other.id, None, person.id)
        players = _moved(Player, Player.id, Player.person_id == other.id, person.id)
        spellings = _moved(PersonName, PersonName.key, PersonName.person_id == other.id, person.id)
        latest = db.session.execute(select(func.max(Player.id))).scalar()
        facts = {"players": players, "names": spellings, "latest_player": latest, "name": person.name}
        db.session.add(PersonChange(action="merge", person_id=person.id, other_id=other.id,
                                    facts=json.dumps(facts, ensure_ascii=False)))
    return other


def undo_merge(change):
    """Undo a merge: the person merged away is back, with their games and spellings, and the
    players of later games who were typed with one of their spellings (an entry of its own)."""
    refusal = merge_refusal(change, _people_trail())
    if refusal is not None:
        raise PeopleRefused(refusal)
    facts = json.loads(change.facts)
    spellings = set(facts["names"])
    latest_names = {player_id: name for player_id, name in db.session.execute(
        select(Player.id, Player.name).where(Player.person_id == change.person_id,
                                             Player.id > (facts["latest_player"] or 0))).all()
                    if name_key(name) in spellings}
    later = list(latest_names)
    survivor, merged = db.session.get(Person, change.person_id), db.session.get(Person, change.other_id)
    with _writing():
        _claim_person(change.other_id, change.person_id, None)
        players = _moved(Player, Player.id, Player.id.in_(facts["players"] + later) & (
            Player.person_id == change.person_id), change.other_id)
        _moved(PersonName, PersonName.key, PersonName.key.in_(spellings) & (
            PersonName.person_id == change.person_id), change.other_id)
        # Spellings typed since the merge go back with them, and so does being shown by one.
        if later:
            merged.name = latest_names[max(later)]
        if name_key(survivor.name) in spellings:
            survivor.name = facts["name"]
        db.session.add(PersonChange(action="undo", person_id=change.person_id, other_id=change.other_id,
                                    undoes_id=change.id, facts=json.dumps({"players": players})))
    return change


def merge_refusal(change, entries):
    """Why the trail entry ``change`` cannot be undone now (None if it can), among all ``entries`` of the trail.

    Only a merge can be undone, once, and only while neither person was merged away since.
    """
    if change.action != "merge":
        return "not_undoable"
    if any(entry.undoes_id == change.id for entry in entries):
        return "undone"
    undone = {entry.undoes_id for entry in entries if entry.action == "undo"}
    later = [entry for entry in entries if entry.action == "merge" and entry.id > change.id
             and entry.id not in undone and entry.other_id in (change.person_id, change.other_id)]
    return "later_merge" if later else None


def _people_trail():
    return db.session.execute(select(PersonChange).order_by(PersonChange.id.desc())).scalars().all()


def _claim_person(person_id, merged_into, becomes):
    """Move a person's ``merged_into_id`` from ``merged_into`` to ``becomes`` (None: not merged), or raise
    ``Conflict`` if another device moved it first."""
    now = Person.merged_into_id.is_(None) if merged_into is None else Person.merged_into_id == merged_into
    moved = db.session.execute(
        update(Person).where(Person.id == person_id, now).values(merged_into_id=becomes),
        execution_options={"synchronize_session": False})
    if moved.rowcount != 1:
        raise Conflict()


def _moved(model, returned, where, person_id):
    """Point the rows of ``model`` that match ``where`` to ``person_id``; the ``returned`` column of each, in order."""
    moved = db.session.execute(
        update(model).where(where).values(person_id=person_id).returning(returned),
        execution_options={"synchronize_session": False}).scalars().all()
    return sorted(moved)


# --- The trail and its undo ----------------------------------------------------------


class Action(str, enum.Enum):
    """What a trail entry did, as ``Change.action`` stores it."""

    RECORD = "record"  # a hand recorded
    CORRECT = "correct"  # a hand's facts changed
    REMOVE = "remove"  # a hand taken out; later hands move up one
    JOIN = "join"  # a player sat down before the next hand (R1)
    LEAVE = "leave"  # a player left before the next hand (R1)
    RULES = "rules"  # the house rules changed
    TRICK = "trick"  # a trick of the open hand entered (R9-R13)
    KITTY = "kitty"  # what the kitty held, said once its winner turned it over (R12)
    UNDO = "undo"  # an entry undone, an undo included


class Subject(enum.Enum):
    """What a trail entry changes: undoing it sets that back to what the entry found."""

    HAND = "hand"  # one hand's facts, and whether it is there (by its key)
    SEATS = "seats"  # one seat change (by its id)
    RULES = "rules"  # the house rules
    TRICKS = "tricks"  # the last trick of the open hand's log
    KITTY = "kitty"  # the kitty of the open hand's log


SUBJECTS = {
    Action.RECORD: Subject.HAND, Action.CORRECT: Subject.HAND, Action.REMOVE: Subject.HAND,
    Action.JOIN: Subject.SEATS, Action.LEAVE: Subject.SEATS, Action.RULES: Subject.RULES,
    Action.TRICK: Subject.TRICKS, Action.KITTY: Subject.KITTY,
}


@dataclass(frozen=True)
class TrailLine:
    """One trail entry as the table sees it: what it did, and whether it can be undone, and if not, why.

    Every entry holds what it found (``before``) and what it left
    (``after``), as plain facts (None: no such hand, seat change or trick);
    undoing it puts ``before`` back in place of ``after``, and is itself an
    entry, which can be undone in turn. ``origin`` is the first entry of a
    chain of undos and ``depth`` how many undos lie between (0: the entry
    is an origin; odd: the undos took its change back; even: they made it
    again). An entry can be undone while the game still holds what it left
    (``holds``); ``blocked_by`` is then the newest later entry that still
    stands and touched the same thing: undo that first.
    """

    change: object  # a ``Change`` row, or a row of its columns (a page's plain read)
    subject: Subject
    origin: object
    depth: int
    before: dict | None
    after: dict | None
    holds: bool
    now: int | None = None  # the number of the hand (or the hand a seat change comes before) today
    undone_by: "TrailLine | None" = None
    blocked_by: "TrailLine | None" = None
    legacy: bool = False  # kept from an earlier version, without what undoing it needs

    @property
    def action(self):
        return Action(self.change.action)

    @property
    def origin_action(self):
        return Action(self.origin.action)

    @property
    def again(self):
        """An undo that made its origin's change again (an undo of an undo)."""
        return self.depth > 0 and self.depth % 2 == 0

    @property
    def undoable(self):
        return self.undone_by is None and not self.legacy and self.holds

    @property
    def moved(self):
        """The game no longer holds what the entry left, and no standing entry says why."""
        return self.undone_by is None and not self.legacy and not self.holds and self.blocked_by is None

    @property
    def removes_a_hand(self):
        """Undoing this entry takes a hand out of the game (a removal: the table is asked first)."""
        return self.subject is Subject.HAND and self.before is None and self.after is not None

    @property
    def hand_key(self):
        return self.change.hand_key


@dataclass(frozen=True)
class _Holding:
    """What the game holds now, as far as the trail compares it with what entries left."""

    hands: dict  # hand key -> its engine record
    seats: dict  # seat change id -> the hand it comes before
    roster: int
    rules: dict  # the house rules' facts
    log: tuple | None  # the open hand's trick log: (id, tricks entered, kitty text or None, last trick's cards)


def _holding(game):
    hands = {hand.key: hand.record() for hand in game.hands}
    seats = {change.id: change.before_hand for change in game.seat_changes}
    return _Holding(hands, seats, len(game.names), game.variant.facts(), game.open_log_facts)


def trail(game):
    """The game's trail, newest first, each entry with what stands in the way of undoing it (see ``TrailLine``).

    Undoing an entry and then undoing that undo returns the very same game;
    undoing, newest first, every entry whose change stands (an origin not
    undone, or an undo of an undo not undone) returns the game to its start.
    """
    changes = sorted(game.changes, key=lambda change: change.id)
    by_id = {change.id: change for change in changes}
    undone = {change.undoes_id: change.id for change in changes if change.action == Action.UNDO}
    now = _holding(game)
    lines = {}
    standing = {}  # a thing an entry touched -> the newest entry that touched it and still stands
    for change in reversed(changes):
        origin, depth = change, 0
        while origin.action == Action.UNDO and origin.undoes_id in by_id:
            origin, depth = by_id[origin.undoes_id], depth + 1
        subject = SUBJECTS.get(origin.action)
        before, after = _facts(change.before), _facts(change.after)
        undone_by = lines.get(undone.get(change.id))
        legacy = subject is None or _legacy(change, subject, before, after)
        holds = not legacy and _HOLDS[subject](change, before, after, now)
        touched, depends = (set(), set()) if legacy else _touched(change, subject, before, after)
        blocker = None
        if undone_by is None and not legacy and not holds:
            blocker = max((standing[thing] for thing in depends if thing in standing),
                          key=lambda line: line.change.id, default=None)
        line = TrailLine(change, subject, origin, depth, before, after, holds,
                         _number_now(subject, change, before, after, game), undone_by, blocker, legacy)
        lines[change.id] = line
        if undone_by is None:
            for thing in touched:
                standing.setdefault(thing, line)
    return [lines[change.id] for change in reversed(changes)]


def _facts(text):
    return None if text is None else json.loads(text)


def _legacy(change, subject, before, after):
    """An entry from before the trail kept what undoing it needs: hands without keys, an undo that took
    a hand out without noting where every seat change then stood."""
    if subject is Subject.HAND:
        return change.hand_key is None or (change.action == Action.UNDO and after is None and "moved" not in before)
    return False


def _number_now(subject, change, before, after, game):
    """The number today of the hand an entry is about (a seat change's: the hand it comes before)."""
    if subject is Subject.HAND:
        return next((hand.number for hand in game.hands if hand.key == change.hand_key), None)
    if subject is Subject.SEATS:
        facts = after or before
        return next((row.before_hand for row in game.seat_changes if row.id == facts["id"]), None)
    return None


def _touched(change, subject, before, after):
    """What an entry touched, and what its undo depends on: to name the later entry in the way."""
    if subject is Subject.HAND:
        touched = {("hand", change.hand_key)}
        if (before is None) != (after is None):  # a hand came or went: the numbers after it moved
            touched |= {("hand", change.after_key), ("seats",), ("hands",)}
        log = (after or {}).get("log")
        if log is not None:
            touched.add(("log", log))  # the open hand's trick log went with the recorded hand
        return touched, touched
    if subject is Subject.SEATS:  # made before the next hand, and not while its tricks are being entered
        return {("seats",), ("hands",)}, {("seats",), ("hands",), ("tricks entered",)}
    if subject is Subject.RULES:
        return {("rules",)}, {("rules",)}
    log = ("log", (after or before)["log"])
    return {log, ("tricks entered",)}, {log}


def _hand_holds(change, before, after, now):
    if after is not None:
        return now.hands.get(change.hand_key) == record_of_facts(after)
    if change.hand_key in now.hands or (change.after_key is not None and change.after_key not in now.hands):
        return False
    if "seats" in before:  # every seat change where the removal left it
        return now.seats == {seat: number for seat, number in before["seats"]}
    return all(seat in now.seats for seat in before.get("moved", ()))


def _seats_hold(change, before, after, now):
    if now.log is not None and now.log[1]:  # the open hand's tricks were played by the table as it sits
        return False
    if after is not None:  # a seat change made: still the newest, and its hand not played yet
        seat = after["id"]
        return (now.seats.get(seat) == after["before_hand"] and seat == max(now.seats)
                and after["before_hand"] > len(now.hands))
    seat, number = before["id"], before["before_hand"]  # a seat change taken back: it would be the newest again
    return (seat not in now.seats and all(other < seat for other in now.seats) and number == len(now.hands) + 1
            and (before["kind"] != "join" or before["player"] == now.roster))


def _rules_hold(change, before, after, now):
    return now.rules == after


def _tricks_hold(change, before, after, now):
    if after is not None:  # still the last trick of that log, as it was entered
        return now.log is not None and now.log[:2] + now.log[3:] == (after["log"], after["trick"], after["cards"])
    return now.log is not None and now.log[:2] == (before["log"], before["trick"] - 1)


def _kitty_holds(change, before, after, now):
    return now.log is not None and (now.log[0], now.log[2]) == (after["log"], after["kitty"])


_HOLDS = {Subject.HAND: _hand_holds, Subject.SEATS: _seats_hold, Subject.RULES: _rules_hold,
          Subject.TRICKS: _tricks_hold, Subject.KITTY: _kitty_holds}


def undo(game, change_id, based_on):
    """Undo one trail entry, itself kept in the trail as an undo that can be undone in turn (R17).

    Returns the entry's ``TrailLine``. Raises ``LookupError`` for an entry
    the game does not have, ``UndoRefused`` when it cannot be undone now, and
    the engine's refusals when the game it would leave breaks the rules.
    """
    line = trail_line(game, change_id)
    if line is None:
        raise LookupError(change_id)
    if not line.undoable:
        raise UndoRefused(line)
    _UNDO[line.subject](game, line, based_on)
    return line


def trail_line(game, change_id):
    """The ``TrailLine`` of entry ``change_id`` of the game, or None."""
    return next((line for line in trail(game) if line.change.id == change_id), None)


def _undo_hand(game, line, based_on):
    """A hand recorded is taken out, a removed one put back in its place, a corrected one set back."""
    change, before = line.change, line.before
    if before is not None and line.after is None:
        _put_back(game, change, before, based_on)
        return
    hand = next(hand for hand in game.hands if hand.key == change.hand_key)
    if before is None:
        facts, previous, apply = _deletion(game, hand)
        with _writing(game, based_on):
            _trail(game, Action.UNDO, hand, before=facts, after_key=previous, undoes=change)
            apply()
        return
    restored = record_of_facts(before)
    records = game.records()
    records[hand.number - 1] = restored
    seating = game.scoreboard(records).hands[hand.number - 1].seating
    with _writing(game, based_on):
        _trail(game, Action.UNDO, hand, before=_hand_facts(hand.record(), seating),
               after=_hand_facts(restored, seating), undoes=change)
        _set_facts(hand, restored, game.variant)


def _put_back(game, change, before, based_on):
    """A hand taken out is back at its place, with its number, its trick log and the seat changes
    after it where they stood (checked through the engine first, R16)."""
    record = record_of_facts(before)
    position = _position_after(game, change.after_key)
    moved = set(before.get("moved", ()))
    records = game.records()
    records.insert(position, record)
    back = [(row, replace(row.value(), before_hand=row.before_hand + (row.id in moved))) for row in game.seat_changes]
    game.scoreboard(records, changes=[value for _row, value in back])
    with _writing(game, based_on):
        for row, value in back:
            row.before_hand = value.before_hand
        hand = Hand(number=position + 1, key=change.hand_key)
        _set_facts(hand, record, game.variant)
        _insert_row(game, hand)
        if "tricks" in before:
            _attach_log(game, hand, TrickLog.from_facts(before["tricks"]))
        _trail(game, Action.UNDO, hand, after=_hand_facts(record, before.get("seating")), after_key=change.after_key,
               undoes=change)


def _undo_seats(game, line, based_on):
    """A seat change made is taken back (a joiner gone again, a leaver back), one taken back is made again."""
    change = line.change
    _refuse_while_under_way(game)
    if line.after is not None:
        row = next(row for row in game.seat_changes if row.id == line.after["id"])
        game.scoreboard(changes=[other.value() for other in game.seat_changes if other is not row])
        facts = {**line.after}
        with _writing(game, based_on):
            if row.joins:
                joiner = next(player for player in game.players if player.seat == row.player)
                facts["player_id"] = joiner.id
                game.players.remove(joiner)
            game.seat_changes.remove(row)
            _trail_game(game, Action.UNDO, hand_number=row.before_hand, before=facts, undoes=change)
        return
    facts = line.before
    value = seat_change_value(facts)
    game.scoreboard(changes=game.seat_change_values() + [value])
    with _writing(game, based_on):
        again = _seated(game, value, facts["name"], row_id=facts["id"], player_id=facts.get("player_id"))
        _trail_game(game, Action.UNDO, hand_number=value.before_hand, after=again, undoes=change)


def _undo_rules(game, line, based_on):
    """The house rules as the entry found them, every recorded hand scored under them again."""
    restored = rules.Variant.from_facts(line.before)
    _check_hands_under(game, restored)
    with _writing(game, based_on):
        _set_house_rules(game, restored)
        _trail_game(game, Action.UNDO, before=line.after, after=line.before, undoes=line.change)


def _undo_tricks(game, line, based_on):
    """The last trick entered taken back, or one taken back entered again (R6-R13)."""
    board, log, play = open_play(game)
    if line.after is not None:
        with _writing(game, based_on):
            log.tricks.pop()
            _trail_game(game, Action.UNDO, hand_number=board.next_hand.number, before=line.after, undoes=line.change)
        return
    trick = line.before
    if kitty_needed(log, play):
        raise KittyNeeded(play.kitty_taken_by)
    play.play(trick["cards"].split(), confirm=trick["confirmed"])
    with _writing(game, based_on):
        log.tricks.append(Trick(number=trick["trick"], cards=trick["cards"], confirmed=trick["confirmed"]))
        _trail_game(game, Action.UNDO, hand_number=board.next_hand.number, after=trick, undoes=line.change)


def _undo_kitty(game, line, based_on):
    """The kitty as the entry found it: unknown again, or known again (R12)."""
    board, log, play = open_play(game)
    kitty = line.before["kitty"]
    log.replay(play.players, rules.parse_cards(kitty.split()) if kitty else (), board.variant)
    with _writing(game, based_on):
        log.kitty = kitty
        _trail_game(game, Action.UNDO, hand_number=board.next_hand.number, before=line.after, after=line.before,
                    undoes=line.change)


_UNDO = {Subject.HAND: _undo_hand, Subject.SEATS: _undo_seats, Subject.RULES: _undo_rules,
         Subject.TRICKS: _undo_tricks, Subject.KITTY: _undo_kitty}


def _position_after(game, key):
    """The index in the game's hands just after the hand with ``key`` (0 for None)."""
    if key is None:
        return 0
    return next(index for index, hand in enumerate(game.hands) if hand.key == key) + 1


# --- Trick by trick ------------------------------------------------------------------


def open_play(game):
    """The open hand as played so far: (scoreboard, its trick log or None, ``rules.HandPlay``).

    The play is None when the game is over.
    """
    board = game.scoreboard()
    if board.over:
        return board, None, None
    log = game.trick_log
    upcoming = board.next_hand
    players = len(upcoming.seating)
    play = (log.replay(players, variant=board.variant) if log
            else rules.HandPlay(players, upcoming.place(upcoming.leader), variant=board.variant))
    return board, log, play


def kitty_needed(log, play):
    """The kitty's winner has it but the table has not said what it held (R12)."""
    return play.deal.kitty > 0 and play.kitty_taken_by is not None and not (log and log.kitty)


def play_trick(game, cards, confirm, based_on):
    """Enter the next trick of the open hand, cards in play order from its leader (R6-R13); a trail entry.

    ``cards`` may be text ("10S", "Q♠"); the engine reads them. An apparently
    illegal lead raises ``rules.IllegalLead`` unless ``confirm``.
    """
    board, log, play = open_play(game)
    if play is None:
        raise rules.HandAfterGameOver(len(board.hands), len(board.hands) + 1)
    if kitty_needed(log, play):
        raise KittyNeeded(play.kitty_taken_by)
    play.play(cards, confirm=confirm)
    played = play.tricks[-1]
    with _writing(game, based_on):
        if log is None:
            log = TrickLog(first_leader=board.next_hand.place(board.next_hand.leader))
            game.trick_logs.append(log)
        trick = Trick(number=played.number, cards=cards_text(played.result.cards), confirmed=confirm)
        log.tricks.append(trick)
        db.session.flush()  # the log's id, for the trail to name it
        _trail_game(game, Action.TRICK, hand_number=board.next_hand.number, after=_trick_facts(log, trick))
    return play


def _trick_facts(log, trick):
    return {"log": log.id, "trick": trick.number, "cards": trick.cards, "confirmed": trick.confirmed}


def enter_kitty(game, cards, based_on):
    """Say what the kitty held once its winner turned it over (R3, R12); a trail entry."""
    board, log, play = open_play(game)
    if play is None or not kitty_needed(log, play):
        return play
    if len(cards) != play.deal.kitty:
        raise rules.KittySize(len(cards), play.deal.kitty, play.players)
    kitty = rules.parse_cards(cards)
    play = log.replay(play.players, kitty, board.variant)
    with _writing(game, based_on):
        _trail_game(game, Action.KITTY, hand_number=board.next_hand.number,
                    before={"log": log.id, "kitty": log.kitty}, after={"log": log.id, "kitty": cards_text(kitty)})
        log.kitty = cards_text(kitty)
    return play


def take_back_trick(game, based_on):
    """Take back the last trick entered, as an undo of its trail entry (which can be undone in turn);
    return its number, or None if none was entered."""
    log = game.trick_log
    if log is None or not log.tricks:
        return None
    number = log.tricks[-1].number
    line = next((line for line in trail(game) if line.subject is Subject.TRICKS and line.undoable
                 and line.after is not None), None)
    if line is not None:
        _undo_tricks(game, line, based_on)
        return number
    # A trick entered before tricks were entries of the trail: its entry and the undo, so it can come back.
    upcoming = game.scoreboard().next_hand
    with _writing(game, based_on):
        facts = _trick_facts(log, log.tricks[-1])
        entered = _trail_game(game, Action.TRICK, hand_number=upcoming.number, after=facts)
        db.session.flush()  # the entry's id, for its undo to name it
        _trail_game(game, Action.UNDO, hand_number=upcoming.number, before=facts, undoes=entered)
        log.tricks.pop()
    return number


# Logs found valid, with the table size and house rules: a log checked by the document reader
# (which words an error hand by hand) is not replayed again on its way in. Weak: gone with the log.
_CHECKED_LOGS = weakref.WeakKeyDictionary()


def check_log(log, players, variant=rules.SEEDS):
    """Check a ``PlayedLog`` by playing it through the engine (R6-R13); raises a ``rules.RuleError``."""
    if _CHECKED_LOGS.get(log) == (players, variant):
        return
    play = rules.HandPlay(players, log.first_leader, log.kitty, variant)
    for cards, confirmed in log.tricks:
        play.play(cards, confirm=confirmed)
    _CHECKED_LOGS[log] = (players, variant)


# --- Rows ----------------------------------------------------------------------------


def _new_hand(game, number, record):
    game.last_hand_key = (game.last_hand_key or 0) + 1
    hand = Hand(number=number, key=game.last_hand_key)
    _set_facts(hand, record, game.variant)
    return hand


def _set_facts(hand, record, variant):
    hand.set_facts(record, _uncollected(record, variant))


def _uncollected(record, variant):
    """What nobody collected in a hand: all its hearts and Black Marias (and J♦) less those taken (R13)."""
    return rules.check_takings(dict(enumerate(record.taken)), variant)


def _attach_log(game, hand, log):
    log.hand = hand
    game.trick_logs.append(log)


def _hand_facts(record, seating=None, trick_log=None, moved=None, seats=None, log=None):
    """A hand's facts as the trail keeps them: each seat's takings and the moon (``Change.record_of`` reads
    them back), who played it (roster numbers, in its seating), and, for a hand taken out, its trick log,
    the seat changes it moved and where every seat change then stood; ``log`` the trick log a recorded
    hand took with it."""
    facts = {
        "taken": [[taken.hearts, taken.marias, taken.jacks] if taken.jacks else [taken.hearts, taken.marias]
                  for taken in record.taken],
        "moon": None if record.moon is None else record.moon.value,
    }
    if seating is not None:
        facts["seating"] = list(seating)
    if trick_log is not None:
        facts["tricks"] = trick_log.facts()
    if moved is not None:
        facts["moved"] = moved
        facts["seats"] = seats
    if log is not None:
        facts["log"] = log.id
    return facts


def _trail(game, action, hand, before=None, after=None, after_key=None, undoes=None):
    """An entry of the trail about one hand: its facts before and after (plain dicts, None: no hand)."""
    return _entry(game, action, hand.number, hand.key, after_key, before, after, undoes)


def _trail_game(game, action, hand_number=0, before=None, after=None, undoes=None):
    """An entry of the trail about the game rather than one hand: house rules, a seat change, a trick, the kitty."""
    return _entry(game, action, hand_number, None, None, before, after, undoes)


def _entry(game, action, hand_number, hand_key, after_key, before, after, undoes):
    change = Change(
        action=Action(action).value, hand_number=hand_number, hand_key=hand_key, after_key=after_key,
        undoes_id=None if undoes is None else undoes.id,
        before=None if before is None else json.dumps(before, ensure_ascii=False),
        after=None if after is None else json.dumps(after, ensure_ascii=False),
    )
    game.changes.append(change)
    return change


def _remove_row(game, hand):
    """Delete one hand (and its trick log); later hands, and the seat changes after it, move up one number.

    Each move is flushed on its own, in an order that never puts two hands
    on one number, which the (game, number) unique index forbids.
    """
    for change in _seat_changes_after(game, hand.number):
        change.before_hand -= 1
    later = [other for other in game.hands if other.number > hand.number]
    if hand.trick_log is not None:
        game.trick_logs.remove(hand.trick_log)
    game.hands.remove(hand)
    db.session.flush()
    for other in later:
        other.number -= 1
        db.session.flush()


def _insert_row(game, hand):
    """Insert ``hand`` at its number; that hand and the later ones move down one, last first."""
    for other in sorted((h for h in game.hands if h.number >= hand.number), key=lambda h: -h.number):
        other.number += 1
        db.session.flush()
    game.hands.insert(hand.number - 1, hand)
