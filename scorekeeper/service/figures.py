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
revision. Figures of another revision are stale: ``refresh`` scores such
games from their rows, in a few statements for any number of them, and
writes them afresh; ``refigure`` (the command ``flask refigure``) does so for
every game. The hands win: no page shows a stale figure.
"""

import functools
import itertools
import json

from sqlalchemy import and_, select, update

from .. import rules
from ..db.models import (
    HOUSE_RULE_COLUMNS,
    UNCOLLECTED_COLUMNS,
    Game,
    GameFigures,
    Hand,
    Player,
    SeatChange,
    SeatFigures,
    Taking,
    db,
    hand_record,
    uncollected,
    variant_of_row,
)

SCORED_AT_ONCE = 500  # games read and scored in one go by ``refresh``: a few statements each, bounded memory


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


def keep(game_id, revision, board, names, figures=None):
    """Write game ``game_id``'s figures of ``revision`` from ``board`` (inside the write's transaction).

    ``names`` are its roster's; ``figures`` each player's ``rules.Figures``
    if the caller tallied them already (``rules.game_figures``), else they
    are tallied here. Two statements, whatever the game's length.
    """
    figures = rules.game_figures(board) if figures is None else figures
    _upsert(GameFigures, [{
        "game_id": game_id, "revision": revision, "roster": board.players, "hands": len(board.hands),
        "over": board.over, "next_hand": None if board.next_hand is None else board.next_hand.number,
        "facts": json.dumps(list_facts(board, names), ensure_ascii=False)}], ["game_id"])
    _upsert(SeatFigures, [
        {"game_id": game_id, "seat": seat, "revision": revision, **_counts(figures[seat]),
         "total": board.totals[seat], **_finish(finish)}
        for seat, finish in enumerate(rules.finishes(board))], ["game_id", "seat"])


def _counts(figures):
    """A player's ``rules.Figures`` as ``SeatFigures`` columns (``games`` is the row itself)."""
    return {"finished": figures.finished, "wins": figures.wins, "hands": figures.hands, "points": figures.points,
            "zero_hands": figures.zero_hands, "moons_subtracted": figures.moons_subtracted,
            "moons_added": figures.moons_added, "hearts": figures.hearts, "marias": figures.marias}


def _finish(finish):
    if finish is None:
        return {"place": None, "seated": None, "margin": None}
    return {"place": finish.place, "seated": finish.seated, "margin": finish.margin}


def _upsert(model, rows, keys):
    """Insert ``rows`` of ``model``, or update the rows with the same ``keys`` that are of an older revision
    (a page refreshing stale figures never overwrites those a write made meanwhile): one statement."""
    db.session.execute(_upsert_statement(db.session.get_bind().dialect.name, model, tuple(keys)), rows)


@functools.cache
def _upsert_statement(dialect, model, keys):
    """The statement of ``_upsert``, made once a process (making it costs more than running it)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    statement = insert(model)
    return statement.on_conflict_do_update(
        index_elements=keys, set_={column.name: statement.excluded[column.name]
                                   for column in model.__table__.columns if column.name not in keys},
        where=model.revision <= statement.excluded.revision)


def move_on(game_id, revision):
    """The write to ``revision`` changed nothing derived: the figures of the revision before (if they were
    fresh) are that revision's too."""
    for model in (GameFigures, SeatFigures):
        db.session.execute(update(model).where(model.game_id == game_id, model.revision == revision - 1)
                           .values(revision=revision), execution_options={"synchronize_session": False})


def fresh():
    """The condition that a game's kept figures are of its revision (for statements joining ``Game``)."""
    return and_(GameFigures.game_id == Game.id, GameFigures.revision == Game.revision)


def list_facts_of(game_ids):
    """The games list's facts of these games, as ``{game id: facts}``: those kept for each game's revision, the
    stale ones scored from their hands (and kept)."""
    rows = db.session.execute(
        select(GameFigures.game_id, GameFigures.facts).join(Game, fresh())
        .where(GameFigures.game_id.in_(game_ids))).all()
    found = {game_id: json.loads(facts) for game_id, facts in rows}
    stale = [game_id for game_id in game_ids if game_id not in found]
    if stale:
        found.update({game_id: list_facts(board, names) for game_id, (board, names) in refresh(stale).items()})
    return found


def stale_games(condition=None):
    """The ids of the games (all, or those meeting ``condition`` on ``Game``) whose figures are not kept for
    their revision."""
    query = select(Game.id).outerjoin(GameFigures, fresh()).where(GameFigures.game_id.is_(None))
    if condition is not None:
        query = query.where(condition)
    return db.session.execute(query).scalars().all()


def refresh(game_ids):
    """Score these games from their rows and keep their figures, in a transaction of its own; their
    ``{id: (board, names)}``. A game that changes meanwhile keeps the figures its write made; should the
    database refuse to keep them now (another writer holds it), they are scored again next time."""
    from .errors import Conflict
    from .writing import writing  # writing keeps the figures of every write: it imports this module

    scored = {}
    for start in range(0, len(game_ids), SCORED_AT_ONCE):
        batch = _scored(game_ids[start:start + SCORED_AT_ONCE])
        try:
            with writing():
                for game_id, (revision, board, names) in batch.items():
                    keep(game_id, revision, board, names)
        except Conflict:
            pass
        scored.update({game_id: (board, names) for game_id, (_revision, board, names) in batch.items()})
    return scored


def refigure():
    """Every game's figures written afresh from its hands (the command ``flask refigure``); how many games."""
    return len(refresh(db.session.execute(select(Game.id).order_by(Game.id)).scalars().all()))


def _scored(game_ids):
    """Each of these games as ``{id: (revision, scoreboard, roster names)}``, read as plain rows in four
    statements and scored by the engine."""
    heads = db.session.execute(
        select(Game.id, Game.revision, Game.target, Game.first_dealer, *HOUSE_RULE_COLUMNS)
        .where(Game.id.in_(game_ids))).all()
    names = {}
    for game_id, name in db.session.execute(select(Player.game_id, Player.name).where(Player.game_id.in_(game_ids))
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
        scored[head.id] = (head.revision, board, roster)
    return scored
