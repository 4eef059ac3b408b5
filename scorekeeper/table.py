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

import json
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from . import rendered, rules
from .models import (
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
    variant_columns,
)

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


def record_hand(game, taken, moon, last_trick_reserved, based_on):
    """Record the next hand (R13-R16); a hand played trick by trick keeps its tricks.

    ``taken`` follows the next hand's seating.
    """
    record = rules.check_hand(taken, moon, last_trick_reserved, game.variant)
    game.scoreboard(game.records() + [record])
    with _writing(game, based_on):
        hand = _new_hand(game, len(game.hands) + 1, record)
        game.hands.append(hand)
        log = game.trick_log
        if log is not None and log.tricks:
            log.hand = hand
        elif log is not None:
            game.trick_logs.remove(log)  # nothing was played: nothing to keep
        _trail(game, "record", hand, after=record)
    return hand


def correct_hand(game, number, taken, moon, last_trick_reserved, based_on):
    """Correct hand ``number``; everything derived follows and the trail keeps the old facts (R17)."""
    hand = game.hands[number - 1]
    record = rules.check_hand(taken, moon, last_trick_reserved, game.variant)
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
    game.scoreboard(records)
    with _writing(game, based_on):
        _set_facts(hand, record, game.variant)
        _trail(game, "correct", hand, before=before, after=record)
    return hand


def remove_hand(game, number, based_on):
    """Remove hand ``number``; later hands move up one, and so do the seat changes after it;
    the trail keeps it, tricks too, and which seat changes moved (R17)."""
    hand = game.hands[number - 1]
    records = game.records()
    del records[number - 1]
    moving = _seat_changes_after(game, number)
    game.scoreboard(records, changes=_moved_up(game, moving))
    previous = game.hands[number - 2].key if number > 1 else None
    with _writing(game, based_on):
        _trail(game, "remove", hand, before=hand.record(), trick_log=hand.trick_log, after_key=previous,
               moved=[change.id for change in moving])
        _remove_row(game, hand)


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
        _trail_game(game, "rules", before=before.facts(), after=variant.facts())
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
    game.scoreboard(changes=game.seat_change_values() + [change])
    with _writing(game, based_on):
        if isinstance(change, rules.Join):
            person = _people_of([name])[0]
            _refuse_repeats([*game.names, name], [*(player.person_id for player in game.players), person])
            game.players.append(Player(seat=change.player, name=name, person_id=person))
        row = SeatChange(**_seat_change_columns(change))
        game.seat_changes.append(row)
        db.session.flush()  # the row's id, for the trail to name it
        _trail_game(game, row.kind, hand_number=row.before_hand,
                    after={"id": row.id, "name": name, **_seat_change_columns(change)})


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


@dataclass(frozen=True)
class TrailLine:
    """One trail entry as the table sees it: whether it can be undone, and if not, why.

    ``undone_by`` is the entry that undid it; ``blocked_by`` the newest later
    entry that still stands and touched the same hand (or the hand a removed
    one followed): undo that first. ``legacy`` entries predate hand keys.
    """

    change: Change
    undone_by: Change | None = None
    blocked_by: Change | None = None
    legacy: bool = False
    moved: bool = False  # the game no longer holds what the entry produced, for no entry's sake

    @property
    def undoable(self):
        return (self.change.action != "undo" and self.undone_by is None and self.blocked_by is None
                and not self.legacy and not self.moved)


def trail(game):
    """The game's trail, newest first, each entry with what stands in the way of undoing it.

    An entry can be undone while the game still holds what it produced: no
    later entry that still stands touched the same hand. Undos themselves
    stand for good (they are not undone in turn), and an undone entry is
    done with. Undoing the standing entries newest first therefore always
    works, and returns the game to how it was before the oldest of them.
    """
    newest_first = sorted(game.changes, key=lambda change: change.id, reverse=True)
    undone_by = {change.undoes_id: change for change in newest_first if change.action == "undo"}
    hands = {hand.key: hand for hand in game.hands}
    newest_standing = {}  # hand key -> the newest standing entry that touched it, among those seen
    newest_of_kind = {}  # "seat", "rules", "record" -> the newest standing entry of that kind seen
    lines = []
    for change in newest_first:
        if change.action == "undo" or change.id in undone_by:
            lines.append(TrailLine(change, undone_by.get(change.id)))
        elif change.action in GAME_ACTIONS:
            lines.append(_game_line(change, newest_of_kind, len(game.hands)))
            newest_of_kind.setdefault(_kind(change), change)
        elif change.hand_key is None:
            lines.append(TrailLine(change, legacy=True))
        else:
            touched = _touched(change)
            later = [newest_standing[key] for key in touched if key in newest_standing]
            blocker = max(later, key=lambda entry: entry.id, default=None)
            if change.action == "remove" and blocker is None:
                blocker = newest_of_kind.get("seat")  # the seat changes it moved must be where it left them
            moved = blocker is None and not _still_holds(change, hands)
            lines.append(TrailLine(change, blocked_by=blocker, moved=moved))
            for key in touched:
                newest_standing.setdefault(key, change)
            if change.action == "record":
                newest_of_kind.setdefault("record", change)
    return lines


GAME_ACTIONS = ("join", "leave", "rules")  # trail entries about the game rather than one hand


def about_the_game(change, undone=None):
    """Whether a trail entry (or the entry ``undone`` it undid) is about the game, not one hand's facts."""
    return change.action in GAME_ACTIONS or (undone is not None and undone.action in GAME_ACTIONS)


def _kind(change):
    return "rules" if change.action == "rules" else "seat"


def _game_line(change, newest_of_kind, hands):
    """A seat change's or a house rules' entry: undone newest first; a seat change only before its hand is played."""
    played_since = change.action != "rules" and change.hand_number <= hands
    blocker = newest_of_kind.get(_kind(change))
    if blocker is None and played_since:
        blocker = newest_of_kind.get("record")
    return TrailLine(change, blocked_by=blocker, moved=blocker is None and played_since)


def _touched(change):
    """The hands an entry touched: its own, and for a removal the one it followed."""
    keys = {change.hand_key}
    if change.action == "remove" and change.after_key is not None:
        keys.add(change.after_key)
    return keys


def _still_holds(change, hands):
    """Whether the game holds what ``change`` produced (a safeguard; the trail's order implies it)."""
    if change.action == "remove":
        return change.hand_key not in hands and (change.after_key is None or change.after_key in hands)
    hand = hands.get(change.hand_key)
    return hand is not None and hand.record() == Change.record_of(change.after)


def undo(game, change_id, based_on):
    """Undo one trail entry, itself kept in the trail as an undo (R17).

    Raises ``LookupError`` for an entry the game does not have, and
    ``UndoRefused`` when it cannot be undone now.
    """
    line = next((line for line in trail(game) if line.change.id == change_id), None)
    if line is None:
        raise LookupError(change_id)
    if not line.undoable:
        raise UndoRefused(line)
    change = line.change
    if change.action in GAME_ACTIONS:
        return _undo_game_change(game, change, based_on)
    records = game.records()
    if change.action == "remove":
        position = _position_after(game, change.after_key)
        records.insert(position, Change.record_of(change.before))
    else:
        hand = next(hand for hand in game.hands if hand.key == change.hand_key)
        if change.action == "record":
            del records[hand.number - 1]
        else:
            records[hand.number - 1] = Change.record_of(change.before)
    moving = [] if change.action != "record" else _seat_changes_after(game, hand.number)
    if change.action == "remove":
        moved_back = _moved_back(game, change, position)
        game.scoreboard(records, changes=[value for _row, value in moved_back])
    else:
        game.scoreboard(records, changes=_moved_up(game, moving))
    with _writing(game, based_on):
        if change.action == "remove":
            for row, value in moved_back:
                row.before_hand = value.before_hand
            _undo_removal(game, change, position)
        elif change.action == "record":
            _trail(game, "undo", hand, before=hand.record(), trick_log=hand.trick_log, undoes=change)
            _remove_row(game, hand)
        else:
            restored = Change.record_of(change.before)
            _trail(game, "undo", hand, before=hand.record(), after=restored, undoes=change)
            _set_facts(hand, restored, game.variant)
    return change


def _moved_back(game, removal, position):
    """Each seat change with its place once a removed hand is back at ``position``: those the
    removal moved up move down one again (no seat change came since: the trail sees to that)."""
    moved = set(json.loads(removal.before).get("moved", ()))
    back = []
    for row in game.seat_changes:
        value = row.value()
        if row.id in moved:
            value = replace(value, before_hand=value.before_hand + 1)
        back.append((row, value))
    return back


def _undo_game_change(game, change, based_on):
    """Undo a seat change (the joiner is gone again, or the leaver back) or a change of house rules."""
    if change.action == "rules":
        restored = rules.Variant.from_facts(json.loads(change.before))
        _check_hands_under(game, restored)
        with _writing(game, based_on):
            _set_house_rules(game, restored)
            _trail_game(game, "undo", before=json.loads(change.after), after=json.loads(change.before),
                        undoes=change)
        return change
    seat_change_id = json.loads(change.after)["id"]
    row = next(row for row in game.seat_changes if row.id == seat_change_id)
    game.scoreboard(changes=[other.value() for other in game.seat_changes if other is not row])
    with _writing(game, based_on):
        _trail_game(game, "undo", hand_number=change.hand_number, before=json.loads(change.after),
                    undoes=change)
        game.seat_changes.remove(row)
        if row.joins:
            joiner = next(player for player in game.players if player.seat == row.player)
            game.players.remove(joiner)
    return change


def _position_after(game, key):
    """The index in the game's hands just after the hand with ``key`` (0 for None)."""
    if key is None:
        return 0
    return next(index for index, hand in enumerate(game.hands) if hand.key == key) + 1


def _undo_removal(game, change, position):
    record = Change.record_of(change.before)
    hand = Hand(number=position + 1, key=change.hand_key)
    _set_facts(hand, record, game.variant)
    _insert_row(game, hand)
    log = Change.trick_log_of(change.before)
    if log is not None:
        _attach_log(game, hand, log)
    _trail(game, "undo", hand, after=record, undoes=change)


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
    """Enter the next trick of the open hand, cards in play order from its leader (R6-R13).

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
        log.tricks.append(Trick(number=played.number, cards=cards_text(played.result.cards), confirmed=confirm))
    return play


def enter_kitty(game, cards, based_on):
    """Say what the kitty held once its winner turned it over (R3, R12)."""
    board, log, play = open_play(game)
    if play is None or not kitty_needed(log, play):
        return play
    if len(cards) != play.deal.kitty:
        raise rules.KittySize(len(cards), play.deal.kitty, play.players)
    kitty = rules.parse_cards(cards)
    play = log.replay(play.players, kitty, board.variant)
    with _writing(game, based_on):
        log.kitty = cards_text(kitty)
    return play


def take_back_trick(game, based_on):
    """Take back the last trick entered; return its number, or None if none was."""
    log = game.trick_log
    if log is None or not log.tricks:
        return None
    number = log.tricks[-1].number
    with _writing(game, based_on):
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


def _trail(game, action, hand, before=None, after=None, trick_log=None, after_key=None, undoes=None, moved=None):
    game.changes.append(Change(
        action=action, hand_number=hand.number, hand_key=hand.key, after_key=after_key,
        undoes_id=None if undoes is None else undoes.id,
        before=Change.facts(before, trick_log, moved), after=Change.facts(after),
    ))


def _trail_game(game, action, hand_number=0, before=None, after=None, undoes=None):
    """A trail entry about the game rather than one hand: house rules, or a seat change (its facts as JSON)."""
    game.changes.append(Change(
        action=action, hand_number=hand_number, hand_key=None, after_key=None,
        undoes_id=None if undoes is None else undoes.id,
        before=None if before is None else json.dumps(before, ensure_ascii=False),
        after=None if after is None else json.dumps(after, ensure_ascii=False),
    ))


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
