"""Each game's figures, kept for its revision: a cache of what its hands say (R17), never a source.

Two tables (db/models.py): ``GameFigures``, one row a game (over or not, the
next hand, how many hands, and what the games list shows), and
``SeatFigures``, one row a player of each game (``rules.Figures`` field by
field, their total, and where they finished). Both carry the revision of the
game they were derived from.

Every write to a game writes them for the revision it makes, in its own
transaction (``writing``): a write that has just scored the game passes its
scoreboard, and recording one hand also the figures it tallied from the
ones before (one hand's work, whatever the game's length); a write that
changes nothing derived (a trick, the kitty, a void) moves them on to its
revision. Figures of another revision are stale: ``refreshing.refresh`` scores such
games from their rows, in a few statements for any number of them, and
writes them afresh; ``refigure`` (the command ``flask refigure``) does so for
every game. The hands win: no page shows a stale figure.
"""

import functools
import itertools
import json
from dataclasses import dataclass

from sqlalchemy import and_, bindparam, delete, exists, func, insert, null, select, union_all, update

from .. import rules
from ..db.models import (
    COUNTED,
    FIGURE_COLUMNS,
    HOUSE_RULE_COLUMNS,
    UNCOLLECTED_COLUMNS,
    Club,
    Game,
    GameFigures,
    Hand,
    PersonFigures,
    Player,
    SeatChange,
    SeatFigures,
    Taking,
    counts_in_season,
    db,
    hand_record,
    uncollected,
    variant_of_row,
)
from . import ratings

SCORED_AT_ONCE = 500  # games read and scored in one go (``refreshing.refresh``): a few statements, bounded memory


def list_facts(board, names):
    """What the games list shows of a scoreboard: players in the next hand, target, hands, each roster
    player's total (name and points, roster order), whether it is over, the winners and their points, and
    the next hand's number."""
    return {
        "players": len(board.seating), "target": board.target, "hands": len(board.hands),
        "totals": [[names[player], total] for player, total in enumerate(board.totals)],
        "over": board.over, "winners": [names[player] for player in board.winners], "lowest": board.lowest,
        "next_hand": None if board.next_hand is None else board.next_hand.number,
    }


def keep(game_id, revision, board, names, counted, figures=None):
    """Write game ``game_id``'s figures of ``revision`` from ``board``, inside the write's transaction, and
    follow them in its people's figures and the club's ratings.

    ``names`` are its roster's names; ``counted`` whether the season counts it (not voided); ``figures``
    each player's ``rules.Figures`` if the caller tallied them already (``rules.game_figures``), else they
    are tallied here. The caller holds the game (its claim): the figures it replaces stay as read here
    until the commit. The person of each player is read here too, inside the transaction and after the
    claim, never from what a process kept of the game: a merge changes a player's person without moving the
    game's revision, and holds the game while it does (``people.merge_people``), so a write after it reads
    the person it left. A few statements, whatever the game's length. Returns the people whose figures it
    changed (the players' of the figures replaced, and of the new).
    """
    figures = rules.game_figures(board) if figures is None else figures
    before, people = {}, {}
    for row in db.session.execute(_SEATS_AND_PEOPLE, {"game": game_id}):
        if row.roster_seat is not None:
            people[row.roster_seat] = row.person_now
        if row.seat is not None:
            before[row.seat] = row._mapping
    rows = _seat_rows(game_id, revision, board, people, counted, figures)
    _upsert(GameFigures, [_game_row(game_id, revision, board, names)], ["game_id"])
    _add_to_people(before.values(), rows)
    _follow_ratings(game_id, before, rows)
    _upsert(SeatFigures, rows, ["game_id", "seat"])
    if len(before) > len(rows):  # a joiner gone again (an undo): their figures go with them
        db.session.execute(delete(SeatFigures).where(SeatFigures.game_id == game_id,
                                                     SeatFigures.seat >= len(rows)))
    return {row["person_id"] for row in (*before.values(), *rows)} - {None}


def _game_row(game_id, revision, board, names):
    """The ``GameFigures`` row of a game at ``revision`` derived from its ``board``."""
    return {"game_id": game_id, "revision": revision, "roster": board.players, "hands": len(board.hands),
            "over": board.over, "next_hand": None if board.next_hand is None else board.next_hand.number,
            "facts": json.dumps(list_facts(board, names), ensure_ascii=False)}


def _seat_rows(game_id, revision, board, people, counted, figures):
    """The ``SeatFigures`` rows of a game at ``revision`` derived from its ``board`` and its players' tallied
    ``figures`` (without ratings), ``people`` being ``{roster number: person id}``."""
    return [{"game_id": game_id, "seat": seat, "revision": revision, "person_id": people.get(seat),
             "counted": counted, **_counts(figures[seat]), "total": board.totals[seat], **_finish(finish)}
            for seat, finish in enumerate(rules.finishes(board))]


def _seats_and_people():
    """Each player of a game with the seat figures kept of them (the person they are now, as ``roster_seat``
    and ``person_now``), and the seat figures of a roster number the game no longer has (a join undone):
    one statement."""
    seats = SeatFigures.__table__
    players = (select(Player.seat.label("roster_seat"), Player.person_id.label("person_now"), *seats.c)
               .select_from(Player)
               .outerjoin(seats, and_(seats.c.game_id == Player.game_id, seats.c.seat == Player.seat))
               .where(Player.game_id == bindparam("game")))
    no_player = (select(null().label("roster_seat"), null().label("person_now"), *seats.c)
                 .where(seats.c.game_id == bindparam("game"),
                        ~exists().where(Player.game_id == seats.c.game_id, Player.seat == seats.c.seat)))
    return union_all(players, no_player)


_SEATS_AND_PEOPLE = _seats_and_people()
SUMMED = FIGURE_COLUMNS  # what a person's figures add up of their players


def _add_to_people(before, after):
    """Follow the seat figures ``before`` (rows, as kept) becoming ``after`` (rows) in each person's sums: what
    counted before comes off, what counts now goes on. One statement."""
    change = {}
    for rows, sign in ((before, -1), (after, 1)):
        for row in rows:
            if row["counted"] and row["person_id"] is not None:
                sums = change.setdefault(row["person_id"], dict.fromkeys(("games", *SUMMED), 0))
                sums["games"] += sign
                for name in SUMMED:
                    sums[name] += sign * row[name]
    changed = [{"person_id": person, **sums} for person, sums in change.items() if any(sums.values())]
    if changed:
        db.session.execute(_added_statement(db.session.get_bind().dialect.name), changed)


def _follow_ratings(game_id, before, rows):
    """Give each of ``rows`` (the game's seat figures now) its rating after the game: as before while the
    game's result stands (who finished where, R16); rated now if it has just finished after every other
    counted game; else none, the club's ratings to be worked out again (service/ratings.py)."""
    result_before, result = _result(before.values()), _result(rows)
    if result == result_before:
        for row in rows:
            kept = before.get(row["seat"])
            row["mu"], row["sigma"] = (kept["mu"], kept["sigma"]) if kept is not None else (None, None)
        return
    after = ratings.rate_if_latest(game_id, result) if result and not result_before else None
    if after is None:
        ratings.rate_again_later()
    for row in rows:
        rating = None if after is None else after.get(row["person_id"]) if row["place"] is not None else None
        row["mu"], row["sigma"] = (None, None) if rating is None else (rating.mu, rating.sigma)


def _result(rows):
    """A finished, counted game's result as the ratings read it: ``(person, place)`` of each player at its
    end, in seat order; None for an open game or one the season leaves out."""
    result = [(row["person_id"], row["place"]) for row in sorted(rows, key=lambda row: row["seat"])
              if row["counted"] and row["place"] is not None and row["person_id"] is not None]
    return result or None


def recount(game_id, counted):
    """Game ``game_id`` is left out of the season or counted again (``counted``): its players' figures follow,
    and the club's ratings."""
    people = db.session.execute(select(SeatFigures.person_id).where(SeatFigures.game_id == game_id)).scalars().all()
    db.session.execute(update(SeatFigures).where(SeatFigures.game_id == game_id).values(counted=counted),
                       execution_options={"synchronize_session": False})
    refigure_people(people)


def refigure_people(people):
    """Each of ``people``'s sums worked out again from their seat figures (after a merge, an undone merge, a
    void), which name the person each of their players is now; the club's ratings to be worked out again."""
    people = [person for person in set(people) if person is not None]
    if not people:
        return
    # The seat figures of these people name the person each player is now (a merge moved some players).
    db.session.execute(
        update(SeatFigures).where(SeatFigures.person_id.in_(people)).values(person_id=select(Player.person_id).where(
            Player.game_id == SeatFigures.game_id, Player.seat == SeatFigures.seat).scalar_subquery()),
        execution_options={"synchronize_session": False})
    db.session.execute(delete(PersonFigures).where(PersonFigures.person_id.in_(people)))
    sums = db.session.execute(
        select(SeatFigures.person_id, func.count(), *(func.sum(getattr(SeatFigures, name)) for name in SUMMED))
        .where(SeatFigures.person_id.in_(people), SeatFigures.counted).group_by(SeatFigures.person_id)).all()
    if sums:
        db.session.execute(insert(PersonFigures), [
            {"person_id": person, "games": games, **dict(zip(SUMMED, (int(value) for value in values)))}
            for person, games, *values in sums])
    ratings.rate_again_later()


def _counts(figures):
    """A player's ``rules.Figures`` as ``SeatFigures`` columns (``games`` is the row itself)."""
    return {"finished": figures.finished, "wins": figures.wins, "hands": figures.hands, "points": figures.points,
            "zero_hands": figures.zero_hands, "moons_subtracted": figures.moons_subtracted,
            "moons_added": figures.moons_added, "hearts": figures.hearts, "marias": figures.marias}


def _finish(finish):
    if finish is None:
        return {"place": None, "seated": None, "margin": None, "from_bottom": None}
    return {"place": finish.place, "seated": finish.seated, "margin": finish.margin,
            "from_bottom": finish.seated - finish.place}


def _upsert(model, rows, keys):
    """Insert ``rows`` of ``model``, or update the rows with the same ``keys`` that are of an older revision
    (a page refreshing stale figures never overwrites those a write made meanwhile): one statement."""
    db.session.execute(_upsert_statement(db.session.get_bind().dialect.name, model, tuple(keys)), rows)


def _insert_statement(dialect, model):
    """The dialect's INSERT of ``model`` that can say what to do on a conflict (SQLite and PostgreSQL alike)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    return dialect_insert(model)


@functools.cache
def _upsert_statement(dialect, model, keys):
    """The statement of ``_upsert``, made once a process (making it costs more than running it)."""
    statement = _insert_statement(dialect, model)
    return statement.on_conflict_do_update(
        index_elements=keys, set_={column.name: statement.excluded[column.name]
                                   for column in model.__table__.columns if column.name not in keys},
        where=model.revision <= statement.excluded.revision)


@functools.cache
def _added_statement(dialect):
    """Add each row's figures to its person's, or insert them for a person who had none: made once a
    process."""
    statement = _insert_statement(dialect, PersonFigures)
    return statement.on_conflict_do_update(
        index_elements=["person_id"],
        set_={name: getattr(PersonFigures, name) + statement.excluded[name] for name in ("games", *SUMMED)})


def move_on(game_id, revision):
    """The write to ``revision`` changed nothing derived: the figures of the revision before (if they were
    fresh) are that revision's too."""
    for model in (GameFigures, SeatFigures):
        db.session.execute(update(model).where(model.game_id == game_id, model.revision == revision - 1)
                           .values(revision=revision), execution_options={"synchronize_session": False})


def fresh():
    """The condition that a game's kept figures are of its revision (for statements joining ``Game``)."""
    return and_(GameFigures.game_id == Game.id, GameFigures.revision == Game.revision)


def stale_games(condition=None):
    """The ids of the games (all, or those meeting ``condition`` on ``Game``) whose figures are not kept for
    their revision.

    Figures are kept for the revision their write made, and a game's revision
    only grows: when the games and their figures are as many and their
    revisions add up to the same, every game's are fresh. That is one pass
    over each table, without a join; the games are looked at one by one only
    when the sums differ (after an upgrade, or a row changed by hand).
    """
    if db.session.execute(_ALL_FRESH).scalar():
        return []
    query = select(Game.id).outerjoin(GameFigures, fresh()).where(GameFigures.game_id.is_(None))
    if condition is not None:
        query = query.where(condition)
    return db.session.execute(query).scalars().all()


def _count_and_sum(model, column):
    return (select(func.count()).select_from(model).scalar_subquery(),
            select(func.coalesce(func.sum(column), 0)).scalar_subquery())


_ALL_FRESH = select(and_(*(games == kept for games, kept in zip(_count_and_sum(Game, Game.revision),
                                                                 _count_and_sum(GameFigures, GameFigures.revision)))))


@dataclass(frozen=True)
class _Scored:
    """A game read from its rows and scored: what ``keep`` writes its figures from."""

    revision: int
    board: rules.Scoreboard
    names: list
    counted: bool


def scored_games(game_ids):
    """Each of these games as ``{id: _Scored}``, read as plain rows in four statements and scored by the
    engine."""
    heads = db.session.execute(
        select(Game.id, Game.revision, Game.voided_at, Game.waiting, Game.target, Game.first_dealer,
               *HOUSE_RULE_COLUMNS)
        .where(Game.id.in_(game_ids))).all()
    names = {}
    for game_id, name in db.session.execute(
            select(Player.game_id, Player.name).where(Player.game_id.in_(game_ids))
            .order_by(Player.game_id, Player.seat)):
        names.setdefault(game_id, []).append(name)
    takings = db.session.execute(
        select(Hand.game_id, Hand.number, Hand.moon, *UNCOLLECTED_COLUMNS, Taking.hearts, Taking.marias, Taking.jacks)
        .join(Taking, Taking.hand_id == Hand.id).where(Hand.game_id.in_(game_ids))
        .order_by(Hand.game_id, Hand.number, Taking.seat))
    records = {}
    for (game_id, _number), rows in itertools.groupby(takings, key=lambda row: (row.game_id, row.number)):
        rows = list(rows)
        records.setdefault(game_id, []).append(hand_record(
            ((row.hearts, row.marias, row.jacks) for row in rows), rows[0].moon, uncollected(rows[0])))
    seat_changes = {}
    for row in db.session.execute(select(SeatChange).where(SeatChange.game_id.in_(game_ids))
                                  .order_by(SeatChange.id)).scalars():
        seat_changes.setdefault(row.game_id, []).append(row.value())
    scored = {}
    for head in heads:
        roster, made = names.get(head.id, []), seat_changes.get(head.id, [])
        board = rules.score_game(rules.starting_players(len(roster), made), head.first_dealer, head.target,
                                 records.get(head.id, []), variant_of_row(head), made)
        scored[head.id] = _Scored(head.revision, board, roster, counts_in_season(head))
    return scored


RATING_TOLERANCE = 1e-9  # a rating kept and one worked out afresh are the same sums in the same order


def check():
    """Every kept figure compared with a fresh derivation from the hands, writing nothing (the command
    ``flask refigure --check``): one line for each difference, none when every kept figure is what the
    hands say now. Compared: each game's figures and each player's (their person as the players say now,
    whether the game counts), each person's sums, and, where the kept ratings say they are up to date, every
    rating after every game and each person's now."""
    game_ids = db.session.execute(select(Game.id).order_by(Game.id)).scalars().all()
    people = {}
    for game_id, seat, person in db.session.execute(select(Player.game_id, Player.seat, Player.person_id)):
        people.setdefault(game_id, {})[seat] = person
    games, seats = {}, {}
    for start in range(0, len(game_ids), SCORED_AT_ONCE):
        for game_id, game in scored_games(game_ids[start:start + SCORED_AT_ONCE]).items():
            games[game_id] = _game_row(game_id, game.revision, game.board, game.names)
            for row in _seat_rows(game_id, game.revision, game.board, people.get(game_id, {}), game.counted,
                                  rules.game_figures(game.board)):
                seats[(game_id, row["seat"])] = row
    differences = [*_compared("game", games, _kept(GameFigures, ("game_id",)), ignored=()),
                   *_compared("player", seats, _kept(SeatFigures, ("game_id", "seat")), ignored=("mu", "sigma"))]
    sums = {}
    for row in seats.values():
        if row["counted"] and row["person_id"] is not None:
            person = sums.setdefault(row["person_id"], dict.fromkeys(("games", *SUMMED), 0))
            person["games"] += 1
            for name in SUMMED:
                person[name] += row[name]
    kept_people = _kept(PersonFigures, ("person_id",))
    nobody = dict.fromkeys(("games", *SUMMED), 0)
    for person in sorted(set(sums) | set(kept_people)):
        derived = sums.get(person, nobody)
        kept = {name: kept_people.get(person, nobody)[name] for name in derived}
        if kept != derived:
            differences.append(f"person {person}: kept {_differing(kept, derived)}")
    return differences + _ratings_checked(games, seats, kept_people)


def _kept(model, keys):
    """Every row of ``model`` as a dict, by its ``keys``."""
    return {tuple(row[key] for key in keys) if len(keys) > 1 else row[keys[0]]: dict(row)
            for row in db.session.execute(select(model.__table__)).mappings()}


def _compared(what, derived, kept, ignored):
    """Lines for each row of ``derived`` (rows by key) that ``kept`` lacks or holds otherwise, and each kept row
    of no derived one; ``ignored`` columns are not compared."""
    lines = []
    for key in sorted(set(derived) | set(kept), key=repr):
        if key not in kept:
            lines.append(f"{what} {key}: not kept")
        elif key not in derived:
            lines.append(f"{what} {key}: kept, of no {what} the hands have")
        else:
            row, found = derived[key], {name: kept[key][name] for name in derived[key] if name not in ignored}
            if what == "game":
                row, found = {**row, "facts": json.loads(row["facts"])}, {**found, "facts": json.loads(found["facts"])}
            row = {name: value for name, value in row.items() if name not in ignored}
            if found != row:
                lines.append(f"{what} {key}: kept {_differing(found, row)}")
    return lines


def _differing(kept, derived):
    return ", ".join(f"{name} {kept[name]!r} (the hands say {derived[name]!r})"
                     for name in derived if kept[name] != derived[name])


def _ratings_checked(games, seats, kept_people):
    """Lines for each rating kept otherwise than the games rated afresh in the order played give it, when the
    kept ratings say they have reached every change (else they are worked out again when next read)."""
    version, done = db.session.execute(
        select(Club.ratings_version, Club.rated_version).where(Club.id == ratings.CLUB)).one()
    if done < version:
        return []
    order = {game_id: index for index, game_id in enumerate(db.session.execute(
        select(Game.id).where(COUNTED).order_by(Game.played_on, Game.id)).scalars())}
    results = []
    for game_id in sorted(order, key=order.get):
        table = [(seat, row["person_id"], row["place"]) for (game, seat), row in sorted(seats.items())
                 if game == game_id and row["place"] is not None and row["person_id"] is not None]
        if table and games[game_id]["over"]:
            results.append((game_id, table))
    now, after_game = ratings.rate_in_order(results)
    kept_seats = _kept(SeatFigures, ("game_id", "seat"))
    lines = []
    for key, row in sorted(kept_seats.items()):
        lines += _rating_lines(f"player {key}", (row["mu"], row["sigma"]), after_game.get(key))
    for person, row in sorted(kept_people.items()):
        lines += _rating_lines(f"person {person}", (row["mu"], row["sigma"]), now.get(person))
    return lines


def _rating_lines(what, kept, derived):
    derived = (None, None) if derived is None else (derived.mu, derived.sigma)
    if None in kept or None in derived:
        return [] if kept == derived else [f"{what}: rating kept {kept}, the hands say {derived}"]
    if all(abs(a - b) <= RATING_TOLERANCE for a, b in zip(kept, derived)):
        return []
    return [f"{what}: rating kept {kept}, the hands say {derived}"]
