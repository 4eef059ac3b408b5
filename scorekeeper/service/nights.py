"""A club night (R18), through the one door: a night opened, people checked in (a late arrival for the next
round) or seen off, each round drawn into tables, a game each, all in one transaction, a round closed
before every table finished, and the newest of these undone (and that undone in turn); and the night as it
stands, derived from its tables' games' hands (R17): each table's progress, each player's shares, the
standing. Nothing derived is stored: a correction to a table's hand flows into the night at once.

Every change to a night claims its revision (``Night.revision``), as a write to a game claims the game's:
two directors' devices queue, and the one whose page was out of date is told (``Conflict``). Each is an entry
of the night's trail (``NightChange``): what it found and what it left, of one kind (who is here, a round
drawn, a round closed), so that undoing it puts back what it found, and is an entry the same way.
"""

import json
from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import delete, func, insert, select, update

from .. import rules
from ..db.models import (
    GAME_NAME_LENGTH,
    Change,
    Game,
    Hand,
    Night,
    NightChange,
    NightPlayer,
    NightRound,
    NightTable,
    NightTableFacts,
    Person,
    PersonChange,
    Player,
    SeatFigures,
    TrickLog,
    db,
    today,
    utcnow,
)
from . import figures
from .errors import Conflict, NightRefused
from .games import GameFacts, as_typed, check_game, insert_game
from .kept import kept_game
from .people import claim_unmerged, people_of
from .writing import claim, inserted, writing

PLAYERS, ROUND, CLOSED = "players", "round", "closed"  # the kinds of a night's trail entry (``NightChange``)


def open_night(name, target=rules.DEFAULT_TARGET, deals=None, played_on=None):
    """Open a night named ``name`` on ``played_on`` (today), its tables playing to ``target`` (R16), a round
    being ``deals`` deals (None: every player deals once, R18 c). Its id."""
    rules.check_target(target)
    if deals is not None:
        rules.round_length(rules.MIN_PLAYERS, deals)
    with writing(creating=True):
        return inserted(Night, [{"name": name, "target": target, "deals": deals,
                                 "played_on": played_on or today()}])[0]


def check_in(night_id, names=(), based_on=None, device=None, people=()):
    """Check in the people of ``names`` (typed: found by any spelling, new ones made) and the club's people of
    ids ``people`` (picked from its list), in one transaction, for the next round (R18 f: someone who arrives
    late joins the next draw); one checked in before who left comes back. Their ids, in order (the picked
    first); ``NightRefused("no_night")`` if there is no such night, ``Conflict`` if one picked was merged
    away meanwhile (the list picked from is out of date)."""
    with writing():
        _claim_night(night_id, based_on)
        picked = list(dict.fromkeys(people))
        claim_unmerged(picked)  # Conflict for one merged away (or gone) since the list was shown
        typed = people_of(names, typed=True) if names else []
        everyone = list(dict.fromkeys([*picked, *typed]))
        coming = _rounds_drawn(night_id) + 1
        before = _presence(night_id, everyone)
        after = {person: [coming, None] for person in everyone
                 if before.get(person) is None or before[person][1] is not None}
        if after:
            _set_presence(night_id, {person: before.get(person) for person in after}, after)
            _entry(night_id, "check_in", PLAYERS, {person: before.get(person) for person in after}, after, device)
    return everyone


def see_off(night_id, person_id, based_on=None, device=None):
    """``person_id`` leaves the night after the rounds drawn so far (R18 f): drawn no more, ranked on the
    rounds they finished. ``NightRefused("not_here")`` if they are not checked in, or gone already."""
    with writing():
        _claim_night(night_id, based_on)
        before = _presence(night_id, [person_id]).get(person_id)
        if before is None or before[1] is not None:
            raise NightRefused("not_here")
        drawn = _rounds_drawn(night_id)
        # Never drawn that night (checked in for a round not drawn yet, and at no table before): they leave no
        # trace but the trail's. Someone who played a round keeps their line, so the night knows them (a merge
        # with someone else of the night is refused).
        after = None if before[0] > drawn and not _sat_at(night_id, person_id) else [before[0], drawn]
        _set_presence(night_id, {person_id: before}, {person_id: after})
        _entry(night_id, "see_off", PLAYERS, {person_id: before}, {person_id: after}, device)


def next_draw(night_id):
    """The people the next round draws (checked in for it, not gone), by id."""
    coming = _rounds_drawn(night_id) + 1
    return sorted(db.session.execute(
        select(NightPlayer.person_id).where(NightPlayer.night_id == night_id, NightPlayer.from_round <= coming,
                                            NightPlayer.left_after.is_(None))).scalars())


@dataclass(frozen=True)
class Table:
    """A table of a round as it stands: its number, its game, the people at it by roster number, and its
    round (``rules.TableRound``); the game's roster's names, its scoreboard as kept (``service.kept``) and
    the roster number of its first dealer."""

    number: int
    game_id: int
    people: tuple
    round: rules.TableRound
    names: tuple = ()
    board: rules.Scoreboard | None = None
    first_dealer: int = 0

    @property
    def totals(self):
        """Each player's total of the round so far, by roster number (those at the table for its last hand)."""
        return dict(zip(self.round.seating, self.round.totals))

    @property
    def lowest(self):
        """The lowest total of the round so far, None before its first hand."""
        return min(self.round.totals) if self.round.hands else None


@dataclass(frozen=True)
class Round:
    """A round of a night as it stands: its number, seed, the neighbours its draw repeated, whether the
    director closed it, and its tables."""

    number: int
    seed: int
    repeated: int
    closed: bool
    tables: tuple[Table, ...]

    @property
    def over(self):
        """Whether the round is over: every table finished, or the director closed it (R18 f)."""
        return self.closed or all(table.round.over for table in self.tables)


def night_rounds(night_id):
    """The night's rounds as they stand, oldest first, each table's progress derived from its game's hands."""
    night = _night(night_id)
    rows = db.session.execute(
        select(NightRound.number, NightRound.seed, NightRound.repeated, NightRound.closed_at, NightTable.number,
               NightTable.game_id)
        .join(NightTable, NightTable.round_id == NightRound.id)
        .where(NightRound.night_id == night_id).order_by(NightRound.number, NightTable.number)).all()
    # Each table's game as this process keeps it for its revision (service.kept): the night's page reads
    # every table again and again, and pays for a game only when its revision moved.
    kept = {game_id: kept_game(game_id, revision, key) for game_id, revision, key in db.session.execute(
        select(Game.id, Game.revision, Game.scorer_key).where(Game.id.in_({row[5] for row in rows})))}
    people = {}
    for game_id, seat, person in db.session.execute(
            select(Player.game_id, Player.seat, Player.person_id).where(Player.game_id.in_(kept))):
        people.setdefault(game_id, {})[seat] = person
    rounds = {}
    for number, seed, repeated, closed_at, table, game_id in rows:
        seated = people[game_id]
        board = kept[game_id].board
        made = Table(table, game_id, tuple(seated[seat] for seat in sorted(seated)),
                     rules.table_round(board, night.deals), tuple(kept[game_id].game.names), board,
                     kept[game_id].game.first_dealer)
        rounds.setdefault(number, (seed, repeated, closed_at is not None, []))[3].append(made)
    return tuple(Round(number, seed, repeated, closed, tuple(tables))
                 for number, (seed, repeated, closed, tables) in rounds.items())


def draw_next_round(night_id, sizes, seed, based_on=None, device=None):
    """Draw the night's next round (R18 a, b): the people ``next_draw`` gives, at tables of ``sizes`` (one of
    ``rules.table_splits`` of them), their seats and first dealers drawn from ``seed`` preferring people who
    have not sat side by side that night; a game each table, named for the night, the round and the table, all
    in one transaction. The round's number. ``NightRefused``: "round_open" (a table of the last round has not
    finished and the round is not closed), "too_few" (fewer than a table), "split" (``sizes`` is not an even
    split of the people drawn)."""
    night = _night(night_id)
    before = night_rounds(night_id)
    if before and not before[-1].over:
        raise NightRefused("round_open")
    with writing(creating=True):
        _claim_night(night_id, night.revision if based_on is None else based_on)
        number = len(before) + 1
        _draw(night, number, tuple(sizes), seed, before)
        _entry(night_id, "draw", ROUND, None, {"sizes": list(sizes), "seed": seed}, device, number)
    return number


def close_round(night_id, number, based_on=None, device=None):
    """Close round ``number``, the night's newest, before every table finished (R18 f): a table counts as it
    stood after its last recorded hand. ``NightRefused``: "no_round" if it is not the newest round or is
    closed already, "finished" if every table of it has finished (it needs no closing)."""
    rounds = night_rounds(night_id)
    if not rounds or rounds[-1].number != number:
        raise NightRefused("no_round")
    if all(table.round.over for table in rounds[-1].tables):
        raise NightRefused("finished")
    with writing():
        _claim_night(night_id, based_on)
        if not _set_closed(night_id, number, True):
            raise NightRefused("no_round")
        _entry(night_id, "close", CLOSED, False, True, device, number)


# --- The night's trail --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightEntry:
    """An entry of a night's trail as the director sees it: the ``NightChange``; the change a chain of undos
    began with (``origin``, its kind, round and what it left, ``made``) and how many undos lie between
    (``depth``: 0 the change itself, odd taken back, even made again); and whether it is the newest, the one
    that can be undone."""

    change: NightChange
    origin: NightChange
    depth: int
    kind: str
    round: int | None
    made: object
    newest: bool


def night_trail(night_id):
    """The night's trail, newest first (``NightEntry``): the newest can be undone (``undo_newest``)."""
    return night_trails([night_id]).get(night_id, [])


def night_trails(night_ids):
    """The trails of the nights of ``night_ids`` (as ``night_trail`` gives each), by night, in one statement."""
    changes = {}
    for change in db.session.execute(select(NightChange).where(NightChange.night_id.in_(list(night_ids)))
                                     .order_by(NightChange.id.desc())).scalars():
        changes.setdefault(change.night_id, []).append(change)
    return {night_id: _entries(listed) for night_id, listed in changes.items()}


def _entries(changes):
    """One night's ``NightChange`` rows, newest first, as ``NightEntry`` values."""
    by_id = {change.id: change for change in changes}
    entries = []
    for index, change in enumerate(changes):
        origin, depth = change, 0
        while origin.undoes_id is not None and origin.undoes_id in by_id:
            origin, depth = by_id[origin.undoes_id], depth + 1
        facts = json.loads(origin.facts)
        entries.append(NightEntry(change, origin, depth, facts["kind"], facts.get("round"),
                                  _ids(facts["after"], facts["kind"]), index == 0))
    return entries


def undo_newest(night_id, entry_id, based_on=None, device=None):
    """Undo the night's newest change ``entry_id`` (as the director saw it): what it found is put back, and the
    undo is the newest entry, which can be undone in turn (the change made again). A draw is undone while no
    table of it has anything recorded: its games go, and a draw made again draws from the same seed.
    ``Conflict`` if another change came meanwhile; ``NightRefused("played")`` if a table of the draw has a
    hand or a trick recorded, "nothing" if the night has no change to undo."""
    with writing(creating=True):
        night = _claim_night(night_id, based_on)
        newest = db.session.execute(select(NightChange).where(NightChange.night_id == night_id)
                                    .order_by(NightChange.id.desc()).limit(1)).scalar()
        if newest is None:
            raise NightRefused("nothing")
        if newest.id != entry_id:
            raise Conflict()
        facts = json.loads(newest.facts)
        kind, number = facts["kind"], facts.get("round")
        before, after = _ids(facts["before"], kind), _ids(facts["after"], kind)
        if kind == PLAYERS:
            _set_presence(night_id, after, before)
        elif kind == CLOSED:
            if not _set_closed(night_id, number, before):
                raise Conflict()
        elif before is None:
            _remove_round(night_id, number)
        else:
            _draw(night, number, tuple(before["sizes"]), before["seed"], night_rounds(night_id))
        _entry(night_id, "undo", kind, after, before, device, number, undoes=newest.id)


def _entry(night_id, action, kind, before, after, device, number=None, undoes=None):
    facts = {"kind": kind, "round": number, "before": before, "after": after}
    db.session.add(NightChange(night_id=night_id, action=action, undoes_id=undoes, device=device,
                               facts=json.dumps(facts)))


def _ids(value, kind):
    """A players entry's facts with the people's ids as numbers again (JSON keeps them as text)."""
    if kind != PLAYERS:
        return value
    return {int(person): state for person, state in value.items()}


# --- The night's facts, set as an entry found them ------------------------------------------------------------


def _claim_night(night_id, based_on):
    """Move the night's revision on from ``based_on`` (from whatever it is, if None), or raise ``Conflict``
    (another device changed the night since the caller's page was shown); ``NightRefused("no_night")`` if
    there is no such night. The night, as it is now."""
    statement = update(Night).where(Night.id == night_id).values(revision=Night.revision + 1)
    if based_on is not None:
        statement = statement.where(Night.revision == based_on)
    if db.session.execute(statement, execution_options={"synchronize_session": False}).rowcount != 1:
        _night(night_id)
        raise Conflict()
    night = _night(night_id)
    db.session.refresh(night)
    return night


def _presence(night_id, people):
    """Each of ``people`` checked in: ``[from_round, left_after]``, by id."""
    return {person: [start, left] for person, start, left in db.session.execute(
        select(NightPlayer.person_id, NightPlayer.from_round, NightPlayer.left_after)
        .where(NightPlayer.night_id == night_id, NightPlayer.person_id.in_(list(people))))}


def _set_presence(night_id, found, left):
    """Set who is here from ``found`` (``_presence``'s, None: not checked in) to ``left``, or ``Conflict`` if
    the night is not as ``found`` says."""
    if _presence(night_id, found) != {person: state for person, state in found.items() if state is not None}:
        raise Conflict()
    gone = [person for person, state in left.items() if state is None]
    if gone:
        db.session.execute(delete(NightPlayer).where(NightPlayer.night_id == night_id,
                                                     NightPlayer.person_id.in_(gone)))
    kept = [person for person, state in left.items() if state is not None and found.get(person) is not None]
    for person in kept:
        db.session.execute(update(NightPlayer).where(NightPlayer.night_id == night_id,
                                                     NightPlayer.person_id == person)
                           .values(from_round=left[person][0], left_after=left[person][1]),
                           execution_options={"synchronize_session": False})
    new = [person for person, state in left.items() if state is not None and found.get(person) is None]
    if new:
        claim_unmerged(new)
        db.session.execute(insert(NightPlayer), [
            {"night_id": night_id, "person_id": person, "from_round": left[person][0],
             "left_after": left[person][1]} for person in new])


def _sat_at(night_id, person_id):
    """Whether ``person_id`` sat at a table of the night."""
    return db.session.execute(
        select(Player.id).join(NightTable, NightTable.game_id == Player.game_id)
        .join(NightRound, NightRound.id == NightTable.round_id)
        .where(NightRound.night_id == night_id, Player.person_id == person_id).limit(1)).scalar() is not None


def _set_closed(night_id, number, closed):
    """Close round ``number`` (or open it again); whether it was as the change found it."""
    now = NightRound.closed_at.is_(None) if closed else NightRound.closed_at.is_not(None)
    return db.session.execute(
        update(NightRound).where(NightRound.night_id == night_id, NightRound.number == number, now)
        .values(closed_at=utcnow() if closed else None), execution_options={"synchronize_session": False}).rowcount == 1


def _draw(night, number, sizes, seed, before):
    """Draw round ``number`` from ``seed`` at tables of ``sizes``, after the rounds ``before``, inside the
    caller's transaction (see ``draw_next_round``)."""
    people = next_draw(night.id)
    if len(people) < rules.MIN_PLAYERS:
        raise NightRefused("too_few")
    if sizes not in rules.table_splits(len(people)):
        raise NightRefused("split")
    claim_unmerged(people)  # a merge meanwhile makes this a Conflict, never a seat for someone merged away
    earlier = frozenset().union(*(rules.neighbours(table.people) for past in before for table in past.tables))
    drawn = rules.draw_round(people, sizes, seed, earlier)
    names = dict(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(people))).all())
    round_id = inserted(NightRound, [{"night_id": night.id, "number": number, "seed": seed,
                                      "repeated": drawn.repeated}])[0]
    for table_number, table in enumerate(drawn.tables, start=1):
        facts = GameFacts(_table_name(night.name, number, table_number, len(drawn.tables)), night.target,
                          table.first_dealer, tuple(names[person] for person in table.seating),
                          played_on=night.played_on)
        game = insert_game(as_typed(check_game(facts)), people=list(table.seating))
        db.session.execute(insert(NightTable).values(round_id=round_id, number=table_number, game_id=game.id))
    return drawn


def _remove_round(night_id, number):
    """Take round ``number`` back, its tables' games with it: refused as "played" if any of them has a hand,
    a trick or a trail entry. Each game is claimed first, so a scorer's first hand racing this is a
    ``Conflict`` for one of the two, never a hand of a game that goes."""
    round_id = db.session.execute(select(NightRound.id).where(NightRound.night_id == night_id,
                                                             NightRound.number == number)).scalar()
    if round_id is None or number != _rounds_drawn(night_id):
        raise Conflict()
    games = db.session.execute(select(Game.id, Game.revision).join(NightTable, NightTable.game_id == Game.id)
                               .where(NightTable.round_id == round_id).order_by(Game.id)).all()
    for game_id, revision in games:
        claim(game_id, revision)
    ids = [game_id for game_id, _revision in games]
    for model in (Hand, TrickLog, Change):
        if db.session.execute(select(func.count()).select_from(model).where(model.game_id.in_(ids))).scalar():
            raise NightRefused("played")
    people = db.session.execute(select(SeatFigures.person_id).where(SeatFigures.game_id.in_(ids))).scalars().all()
    db.session.execute(delete(NightRound).where(NightRound.id == round_id))
    db.session.execute(delete(Game).where(Game.id.in_(ids)))
    figures.refigure_people(people)


# --- Reading the night ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableOfNight:
    """A game as a table of a night (R18): the night's id and name, the round and the table, and where the
    table's round stands (``rules.TableRound``)."""

    night_id: int
    night: str
    round_number: int
    table: int
    round: rules.TableRound


def table_of_game(game, board):
    """``game`` (a ``Game`` or a ``ShownGame``) as a table of a night, its round derived from ``board`` (its
    scoreboard); None for a game of no night. What it reads never changes while the game exists, so a page
    kept for the game's revision may show it; a ``ShownGame`` has read it with its game (no statement)."""
    facts = getattr(game, "night_table", _NOT_READ)
    if facts is _NOT_READ:
        row = db.session.execute(
            select(Night.id, Night.name, Night.deals, NightRound.number, NightTable.number)
            .join(NightRound, NightRound.night_id == Night.id).join(NightTable, NightTable.round_id == NightRound.id)
            .where(NightTable.game_id == game.id)).first()
        facts = None if row is None else NightTableFacts(*row)
    if facts is None:
        return None
    return TableOfNight(facts.night_id, facts.night, facts.round_number, facts.table,
                        rules.table_round(board, facts.deals))


_NOT_READ = object()


def night_state(night_id):
    """What the night's pages show moves when this does (None: no such night), in one statement: the night's
    revision, the count and sum of its tables' games' revisions (each only grows), and the newest change to
    the club's people (a rename or a merge changes a name the night shows), as one text for the pages' ETag
    and the key they are kept under (web/nights.py)."""
    tables = (select(Game.revision).join(NightTable, NightTable.game_id == Game.id)
              .join(NightRound, NightRound.id == NightTable.round_id)
              .where(NightRound.night_id == Night.id).correlate(Night).subquery())
    row = db.session.execute(select(
        Night.revision,
        select(func.count()).select_from(tables).scalar_subquery(),
        select(func.coalesce(func.sum(tables.c.revision), 0)).scalar_subquery(),
        select(func.coalesce(func.max(PersonChange.id), 0)).scalar_subquery(),
    ).where(Night.id == night_id)).first()
    return None if row is None else ".".join(str(value) for value in row)


@dataclass(frozen=True)
class NightLine:
    """A player's line of the night's standing (R18 d, e): their place, name, mean share, each round's share
    (None where they did not play it), rounds played and won outright, their points (raw, beside) and
    points a hand."""

    person: int
    name: str
    place: int
    share: Fraction
    shares: tuple[Fraction | None, ...]
    rounds: int
    won: int
    points: int
    points_per_hand: Fraction | None


def standing(night_id, rounds=None, provisional=False):
    """The night's standing (R18 d, e, f), best first (tied players by name): every player's results of the
    rounds over at their table (or closed by the director, a table counting as it stood); ``provisional``
    counts the tables still playing too, as they stand."""
    rounds = night_rounds(night_id) if rounds is None else rounds
    results, by_round = {}, {}
    for past in rounds:
        for table in past.tables:
            counts = table.round.over or past.closed or provisional
            if not counts or not table.round.hands:
                continue
            for seat, result in zip(table.round.seating, rules.round_results(table.round.totals, table.round.hands)):
                person = table.people[seat]
                results.setdefault(person, []).append(result)
                by_round.setdefault(person, {})[past.number] = result
    lines = rules.night_standing(results)
    names = dict(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(list(results)))).all())
    numbers = [past.number for past in rounds]
    made = [NightLine(line.person, names[line.person], line.place, line.score,
                      tuple(by_round[line.person][n].share if n in by_round[line.person] else None for n in numbers),
                      line.rounds, line.won, sum(result.points for result in results[line.person]),
                      line.points_per_hand) for line in lines]
    return sorted(made, key=lambda line: (line.place, line.name.casefold(), line.person))


def _night(night_id):
    night = db.session.get(Night, night_id)
    if night is None:
        raise NightRefused("no_night")
    return night


def _rounds_drawn(night_id):
    return db.session.execute(select(func.count()).select_from(NightRound)
                              .where(NightRound.night_id == night_id)).scalar()


def _table_name(night, round_number, table, tables):
    """A table's game as the games list shows it: the night's name, then round.table in figures, which read
    the same in every language ("Friday · 2.1"; a night of one table: "Friday · 2"), the night's name cut to
    leave room for them."""
    suffix = f" · {round_number}.{table}" if tables > 1 else f" · {round_number}"
    return night[:GAME_NAME_LENGTH - len(suffix)].rstrip() + suffix
