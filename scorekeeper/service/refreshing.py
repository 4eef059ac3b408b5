"""Kept figures brought up to the hands when they are behind (R17): games whose figures are stale scored
and kept again (``refresh``), every game's (``refigure``, the command ``flask refigure``), the games list's
facts, and the club's ratings worked out again when a change asked it.

Each of these reads, and then writes what it derived in a transaction of its own (``writing``), which keeps
the figures of every write (``figures``, ``ratings``): this module sits above all three, so that none of
them imports another in a circle.
"""

import json

from sqlalchemy import bindparam, delete, select, update

from ..db.models import COUNTED, Club, Game, GameFigures, PersonFigures, Player, SeatFigures, db
from .errors import Conflict
from .figures import SCORED_AT_ONCE, fresh, keep, list_facts, refigure_people, scored_games
from .ratings import CLUB, SET_SEAT_RATING, Rating, counted_results, rate_in_order, set_people_ratings
from .writing import writing


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


def refresh(game_ids):
    """Score these games from their rows and keep their figures, in a transaction of its own; their
    ``{id: (board, names)}``. Each game is held while its figures are written, as a write holds it: one that
    changed since it was read keeps the figures its own write made. Should the database refuse to keep them
    now (another writer holds it), they are scored again next time."""
    scored = {}
    for start in range(0, len(game_ids), SCORED_AT_ONCE):
        batch = scored_games(game_ids[start:start + SCORED_AT_ONCE])
        try:
            with writing():
                people = set()
                for game_id, game in batch.items():
                    if db.session.execute(_HOLD, {"game": game_id, "revision": game.revision}).rowcount:
                        people |= keep(game_id, game.revision, game.board, game.names, game.counted)
                # Stale figures may be wrong figures: their people are added up again from the fresh ones.
                refigure_people(people)
        except Conflict:
            pass
        scored.update({game_id: (game.board, game.names) for game_id, game in batch.items()})
    return scored


# Holds a game as a write's claim does (locked on PostgreSQL, SQLite's one writer), if it is still at the revision
# read, without moving it: a refresh does not change the game.
_HOLD = (update(Game).where(Game.id == bindparam("game"), Game.revision == bindparam("revision"))
         .values(revision=Game.revision).execution_options(synchronize_session=False))


def refigure():
    """Every game's figures and every person's written afresh from the hands (the command ``flask refigure``);
    the ratings worked out again when next read. How many games."""
    games = db.session.execute(select(Game.id).order_by(Game.id)).scalars().all()
    refresh(games)
    with writing():
        db.session.execute(delete(PersonFigures))
        refigure_people(db.session.execute(select(Player.person_id).distinct()).scalars().all())
    return len(games)


# --- The club's ratings ----------------------------------------------------------------------------------


def rated_again_if_need_be():
    """Have the kept ratings reach every change (one statement when they do): if a change since asks it, every
    game is rated again and kept (when the database lets this request write), and those ratings returned,
    ``{person id: Rating}``; None when the kept ones are up to date (``PersonFigures.mu``, ``sigma``)."""
    version, done = db.session.execute(select(Club.ratings_version, Club.rated_version).where(Club.id == CLUB)).one()
    return _rate_again(version) if done < version else None


def kept_ratings():
    """Each person's rating over the whole season, as kept (worked out again first if a change asks it):
    ``{person id: Rating}``."""
    again = rated_again_if_need_be()
    if again is not None:
        return again
    return {person: Rating(mu, sigma) for person, mu, sigma in db.session.execute(
        select(PersonFigures.person_id, PersonFigures.mu, PersonFigures.sigma).where(PersonFigures.mu.is_not(None)))}


def _rate_again(version):
    """Every counted finished game rated again from the first, kept as of ``version``; the ratings."""
    now, after_game = rate_in_order(counted_results(COUNTED))
    try:
        with writing():
            db.session.execute(update(SeatFigures).values(mu=None, sigma=None)
                               .where(SeatFigures.mu.is_not(None)), execution_options={"synchronize_session": False})
            if after_game:
                db.session.execute(SET_SEAT_RATING, [
                    {"game": game_id, "at": seat, "mu": rating.mu, "sigma": rating.sigma}
                    for (game_id, seat), rating in after_game.items()],
                    execution_options={"synchronize_session": False})
            db.session.execute(update(PersonFigures).values(mu=None, sigma=None),
                               execution_options={"synchronize_session": False})
            if now:
                set_people_ratings(now)
            db.session.execute(update(Club).where(Club.id == CLUB, Club.rated_version < version)
                               .values(rated_version=version), execution_options={"synchronize_session": False})
    except Conflict:
        pass  # another writer held the database: these ratings answer this request, and are worked out next time
    return now
