"""The season with a thousand games, then two thousand: its pages timed, and one process's memory after it
served every page of every game.

At each size ``/players`` and ``/stats.json`` are timed as the first
request of each after the server started (a fresh server for each, one
request), warm (seen again and again), and right after a hand was recorded
in one of the season's games; a person's page of 500 games (at the first
size) is timed and weighed as sent. The SQL statements of the season's pages
are counted in-process at the first size.
"""

import json
import os
import random
import re
from dataclasses import dataclass

from sqlalchemy import event

from bench.games import GameRef, HandRecorder, never_ending_game
from bench.memory import MemoryScale, serve_every_page
from bench.server import FLOOR, GZIP, Client, Reply, app_config, migrated_app, running_server, scorer_cookie
from bench.timing import Timed, Timings, time_first, time_rounds
from scorekeeper import rules, service
from scorekeeper.db.models import Game, db
from tests.tabletop import PLAYER_NAMES, HandMix, random_hand, random_taken, store_games

PAGES = {"season": "/players", "stats": "/stats.json"}
# The regular plays every second game: at the first size (1,000 games) her page is the person page
# of 500 games.
REGULAR = PLAYER_NAMES[0]
CLUB_MIX = HandMix(played=0)  # moons and reserved last tricks as a club has them; takings only, no trick logs
RESTORED_AT_ONCE = 500  # games a restore transaction holds while the database is filled


def club_night(rng, number):
    """Club night ``number``: 6 to 11 players from a pool of 18 names (the regular in every even-numbered
    one), 8 to 40 hands unless the game ended sooner, as ``GameFacts`` for the service to check.

    The hands are drawn, then scored once to cut them after the hand that
    ended the game (drawing a hand at a time and scoring the game after each
    costs a time that grows with the square of its length).
    """
    players = rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    others = [name for name in PLAYER_NAMES if name != REGULAR]
    names = rng.sample(others, players - 1) + [REGULAR] if number % 2 == 0 else rng.sample(others, players)
    rng.shuffle(names)
    first_dealer, target = rng.randrange(players), rng.choice([30, 60, 100, 150])
    drawn = [random_hand(rng, players, hand, first_dealer, CLUB_MIX)[0] for hand in range(1, rng.randint(8, 40) + 1)]
    try:
        rules.score_game(players, first_dealer, target, drawn)
    except rules.HandAfterGameOver as over:
        drawn = drawn[:over.ended_after]
    hands = tuple(rules.check_record(record.taken, record.moon) for record in drawn)
    return service.GameFacts(f"Club night {number}", target, first_dealer, tuple(names), hands)


def restore_season(app, numbers):
    """Restore club nights ``numbers`` through the service, as a backup's restore does (a few hundred games a
    transaction): what the app writes for a game it writes for these, whatever it keeps beside the hands.
    Their ids and the hands restored."""
    rng = random.Random(numbers[0])
    ids, hands = [], 0
    with app.app_context():
        for start in range(0, len(numbers), RESTORED_AT_ONCE):
            facts = [club_night(rng, number) for number in numbers[start:start + RESTORED_AT_ONCE]]
            ids += [game.id for game in service.restore_backup(facts)]
            hands += sum(len(game.hands) for game in facts)
    return ids, hands


def fill_season(app, games):
    """``games`` club nights: all but the last restored, the last an eleven-player game that never ends
    (the regular at it), imported with a scorer key to record hands on. The ids, the hands, and that game."""
    ids, hands = restore_season(app, list(range(1, games)))
    [(open_id, key)] = store_games(app, [never_ending_game("Open table", 20, seed=games)])
    return [*ids, open_id], hands + 20, GameRef(open_id, key)


def season_statements(app, open_game):
    """Statements of each season page in a fresh app: the first view, the next, and one after a hand was
    recorded (through the service, as the hand form does) in ``open_game``."""
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
                game = db.session.get(Game, open_game.id)
                taken = random_taken(random.Random(game.revision), len(game.names))
                service.record_hand(service.kept_game(game.id, game.revision, game.scorer_key), taken, None, False,
                                    game.revision)
            counts[label] = (first, again, run(url))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return counts


@dataclass(frozen=True)
class SeasonFigures:
    """The season's pages timed on ``games`` games: "season first", "season warm", "season after a hand",
    the same for "stats", and "person" (the regular's page, at the first size only), with its bytes."""

    games: int
    timings: Timings
    person_games: int | None = None
    person_wire: Reply | None = None  # asked for with gzip
    person_raw: Reply | None = None  # asked for without


@dataclass(frozen=True)
class SeasonScale:
    """Both sizes, the statements of the first, and the memory of one process over both."""

    hands: int
    statements: dict  # page -> (first view, again, after one game changed)
    sizes: list[SeasonFigures]
    memory: MemoryScale


def person_path(client, name):
    """The path of ``name``'s page, as the season's table links it."""
    page = client.get(PAGES["season"], GZIP).text
    found = re.search(rf'href="(/players/\d+)"[^>]*>\s*{re.escape(name)}\s*<', page)
    if found is None:
        raise RuntimeError(f"the season's table links no page of {name}")
    return found.group(1)


def season_figures(uri, folder, settings, games, open_game, with_person, then=lambda _server: None):
    """Time the season's pages on ``games`` games: each first view in fresh servers (``settings.starts``
    each), then, in the last of them, the rest in rounds; then ``then(server)`` in that server too. The
    figures, and what ``then`` returned."""
    firsts = [(label, path) for _start in range(settings.starts) for label, path in PAGES.items()]
    parts = []
    for index, (label, path) in enumerate(firsts, start=1):
        with running_server(uri, folder) as server:
            client = Client(server.port)
            try:
                parts.append(time_first(f"{label} first", lambda: client.get(path, GZIP),
                                        Timed(lambda: client.get(FLOOR, GZIP)), server.cpu, settings))
                if index == len(firsts):
                    figures = seen_figures(server, client, settings, games, open_game, with_person, parts)
                    return figures, then(server)
            finally:
                client.close()


def seen_figures(server, watcher, settings, games, open_game, with_person, firsts):
    """The season's pages warm and after a hand, and the regular's page, in rounds; with ``firsts``."""
    scorer = Client(server.port, scorer_cookie(server.port, {"open": open_game}))
    try:
        recorder = HandRecorder(scorer, open_game)
        timed = {}
        for label, path in PAGES.items():
            timed[f"{label} warm"] = Timed(lambda path=path: watcher.get(path, GZIP))
            timed[f"{label} after a hand"] = Timed(lambda path=path: watcher.get(path, GZIP), recorder)
        person = person_path(watcher, REGULAR) if with_person else None
        if person is not None:
            timed["person"] = Timed(lambda: watcher.get(person, GZIP))
        timings = Timings.joined([*firsts, time_rounds(timed, Timed(lambda: watcher.get(FLOOR, GZIP)), server.cpu,
                                                       settings)])
        if person is None:
            return SeasonFigures(games, timings)
        stats = json.loads(watcher.get(PAGES["stats"], GZIP).text)
        person_games = next(player["games"] for player in stats["players"] if player["name"] == REGULAR)
        return SeasonFigures(games, timings, person_games, watcher.get(person, GZIP), watcher.get(person))
    finally:
        scorer.close()


def season_scale(folder, settings, progress):
    """The season at ``settings.season_games``: filled, counted, timed; the last server that timed it at the
    first size then serves every page of every game, and again once the database holds the second size."""
    small, large = settings.season_games
    uri = f"sqlite:///{os.path.join(folder, 'season.sqlite')}"
    app = migrated_app(app_config(uri))
    try:
        progress(f"the season: restoring {small:,} games")
        ids, hands, open_game = fill_season(app, small)
        statements = season_statements(app, open_game)

        def every_page(server):
            progress(f"the same process serving every page of {small:,} games")
            at_small = serve_every_page(server, ids)
            progress(f"the season: restoring {large - small:,} games more, then serving every page of them")
            more, more_hands = restore_season(app, list(range(small + 1, large + 1)))
            return more_hands, MemoryScale(small, at_small, large, serve_every_page(server, more))

        progress(f"the season's pages at {small:,} games")
        first, (more_hands, memory) = season_figures(uri, folder, settings, small, open_game, with_person=True,
                                                     then=every_page)
    finally:
        with app.app_context():
            db.engine.dispose()
    progress(f"the season's pages at {large:,} games")
    second, _ = season_figures(uri, folder, settings, large, open_game, with_person=False)
    return SeasonScale(hands + more_hands, statements, [first, second], memory)
