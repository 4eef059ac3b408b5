"""The season's table with a thousand games (issue 15): SQL statements and time, first and again.

The season's pages score each game once per revision and keep its figures:
the first view after the server starts scores every game, a view after one
game changed scores that one, and every other view reads one statement.
"""

import os
import random
import time
from dataclasses import dataclass

from sqlalchemy import event, update

from bench.measure import Timed, Timings, time_rounds
from bench.server import GZIP, TRIVIAL, Client, app_config, migrated_app, running_server
from scorekeeper.db.models import Game, db
from scorekeeper.documents.backup import FORMAT, VERSION, restore_document
from tests.tabletop import random_game_document

SEASON_GAMES = 1_000
QUICK_SEASON_GAMES = 200
RESTORED_AT_ONCE = 100  # games a restore transaction holds while the database is filled
PAGES = {"season": "/players", "stats": "/stats.json"}


@dataclass(frozen=True)
class SeasonScale:
    """The season measured on ``games`` games: statements first, again and after a change; times."""

    games: int
    hands: int
    statements: dict  # page -> (first view, again, after one game changed)
    first_seconds: float  # the served /players right after the server started: every game scored
    timings: Timings


def fill_season(app, games):
    """``games`` club nights of 6 to 11 players from a pool of 18 names, most played to the end; the hands."""
    chance = random.Random(games)
    documents = [random_game_document(chance, f"Club night {number}", 8, 40) for number in range(1, games + 1)]
    with app.app_context():
        for start in range(0, games, RESTORED_AT_ONCE):
            restore_document({"format": FORMAT, "version": VERSION,
                              "games": documents[start:start + RESTORED_AT_ONCE]})
    return sum(len(document["hands"]) for document in documents)


def season_statements(app):
    """Statements of each season page in a fresh app: the first view, the next, and one after a game changed."""
    client = app.test_client()
    with app.app_context():
        engine = db.engine
    seen = []

    def count(*_args):
        seen.append(1)

    def run(url):
        seen.clear()
        status = client.get(url).status_code
        if status != 200:
            raise RuntimeError(f"{url} answered {status}")
        return len(seen)

    counts = {}
    event.listen(engine, "before_cursor_execute", count)
    try:
        for label, url in PAGES.items():
            first, again = run(url), run(url)
            with app.app_context():
                db.session.execute(update(Game).where(Game.id == 1).values(revision=Game.revision + 1))
                db.session.commit()
            counts[label] = (first, again, run(url))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return counts


def season_scale(folder, settings, quick):
    """Fill a database with a season, count its statements in-process, then time it served."""
    games = QUICK_SEASON_GAMES if quick else SEASON_GAMES
    uri = f"sqlite:///{os.path.join(folder, 'season.sqlite')}"
    app = migrated_app(app_config(uri))
    try:
        hands = fill_season(app, games)
        statements = season_statements(app)
    finally:
        with app.app_context():
            db.engine.dispose()
    with running_server(uri, folder) as server:
        client = Client(server.port)
        try:
            began = time.perf_counter()
            client.get(PAGES["season"], GZIP)  # every game scored once, then kept
            first_seconds = time.perf_counter() - began
            timed = {label: Timed(lambda url=url: client.get(url, GZIP)) for label, url in PAGES.items()}
            timings = time_rounds(timed, Timed(lambda: client.get(TRIVIAL, GZIP)), settings)
        finally:
            client.close()
    return SeasonScale(games, hands, statements, first_seconds, timings)
