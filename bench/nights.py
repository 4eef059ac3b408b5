"""A club night of rounds (R18, issue 36): a round's draw, and the night's page watched from the room.

The draw: 60 people over 4 rounds, each round drawn by ``rules.draw_round``
with the pairs who sat side by side in the rounds before (as
``service.nights`` draws them), at the fewest tables and at the most, timed
in this process on several nights (seeds); then the same through the
service (``service.nights.draw_next_round`` on a real database, 60 checked
in, each round closed before the next is drawn), the 4 draws of a night
timed. The night's page: 110 people at 10 tables of 11 in the second round
(the first played out, the second a few hands in), served as every figure
is: its live state (304 and 200), the page right after a table recorded a
hand, and again unchanged, each after a burst of the floor; then 50
watchers polling its state as the page's script does, each fetching the
page when it moved, while the tables record a hand every 2 s between them.
"""

import os
import random
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass

from bench.club import HAND_EVERY
from bench.games import NEVER_ENDS, GameRef, HandRecorder
from bench.report import live_js_poll_seconds, ms, ms_range, times
from bench.server import FLOOR, GZIP, Client, app_config, migrated_app, running_server, scorer_cookie
from bench.timing import Spread, Timed, Timings, burst, time_rounds
from scorekeeper import rules, service
from scorekeeper.db.models import Game, db
from tests.tabletop import random_taken

DRAWN_PEOPLE, DRAWN_ROUNDS = 60, 4
DRAW_MOST = 0.5  # seconds for the 4 rounds' draws: "well under a second" (issue 36)
NIGHTS_A_ROUND = 4  # nights (seeds) the engine's draw is timed on, per round of the run
WATCHED_TABLES = 10
WATCHED_PEOPLE = WATCHED_TABLES * rules.MAX_PLAYERS  # the largest night of ten tables: the dearest page
PLAYED_IN_SECOND_ROUND = 3  # hands each table has played of the second round when the page is timed
WATCHERS = 50
POLL_MOST = 10  # x the floor per poll (issue 36)
# A table records a hand every HAND_EVERY seconds (bench/club.py): with ten tables the night moves this often.
NIGHT_MOVES_EVERY = HAND_EVERY / WATCHED_TABLES


def budgets():
    """The night's budgets, by the key its rows count for (added to the report's)."""
    return {
        "night draw": f"a draw of {DRAWN_PEOPLE} people over {DRAWN_ROUNDS} rounds, in the engine and through "
                      f"the service: at most {DRAW_MOST:g} s for the {DRAWN_ROUNDS} rounds, CPU and wall, the "
                      "slowest night (issue 36: well under a second)",
        "night poll": f"the night's page, {WATCHED_TABLES} tables and {WATCHERS} watchers: its live state (304) "
                      f"and the watchers' polls all in (the pages a change brings and the hands included): at "
                      f"most {POLL_MOST}x the floor per poll (issue 36; the page rendered after a hand is one "
                      f"of every {WATCHERS} fetches, shown beside without a budget of its own)",
    }


# --- The draw -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineDraws:
    """``rules.draw_round`` on nights of ``DRAWN_ROUNDS`` rounds at tables of ``sizes``: per night, the CPU
    and wall seconds of its rounds' draws together, and each round's repeated neighbours."""

    sizes: tuple[int, ...]
    cpu: list[float]
    wall: list[float]
    repeated: list[tuple[int, ...]]


def draw_night(people, sizes, seed):
    """One night's rounds drawn in the engine, each from its own seed, after the neighbours of the rounds
    before: each round's repeated neighbours."""
    earlier, repeated = frozenset(), []
    for number in range(1, DRAWN_ROUNDS + 1):
        drawn = rules.draw_round(people, sizes, seed * 100 + number, earlier)
        earlier = earlier.union(*(rules.neighbours(table.seating) for table in drawn.tables))
        repeated.append(drawn.repeated)
    return tuple(repeated)


def engine_draws(settings):
    """The engine's draw of ``DRAWN_PEOPLE`` (ids, as the service passes them) at the fewest tables and at
    the most, on ``NIGHTS_A_ROUND`` nights a round of the run."""
    people = list(range(1, DRAWN_PEOPLE + 1))
    splits = rules.table_splits(DRAWN_PEOPLE)
    figures = []
    for sizes in dict.fromkeys((splits[0], splits[-1])):
        cpu, wall, repeated = [], [], []
        for seed in range(1, NIGHTS_A_ROUND * settings.rounds + 1):
            cpu_before, began = time.process_time(), time.perf_counter()
            repeated.append(draw_night(people, sizes, seed))
            cpu.append(time.process_time() - cpu_before)
            wall.append(time.perf_counter() - began)
        figures.append(EngineDraws(sizes, cpu, wall, repeated))
    return figures


@dataclass(frozen=True)
class ServiceDraws:
    """``service.nights.draw_next_round`` on nights of ``DRAWN_PEOPLE`` checked in at tables of ``sizes``:
    per night, the CPU (this process: the app and SQLite) and wall seconds of each round's draw."""

    sizes: tuple[int, ...]
    cpu: list[list[float]]
    wall: list[list[float]]

    @property
    def night_cpu(self):
        return [sum(rounds) for rounds in self.cpu]

    @property
    def night_wall(self):
        return [sum(rounds) for rounds in self.wall]


def service_draws(app, settings):
    """``settings.rounds`` nights drawn through the service: each opened, ``DRAWN_PEOPLE`` checked in, then
    ``DRAWN_ROUNDS`` rounds, each closed (untimed) before the next is drawn, as a director closes a round
    whose tables have finished."""
    sizes = rules.table_splits(DRAWN_PEOPLE)[0]  # the split the director's page offers first
    names = [f"Drawn {number:02}" for number in range(1, DRAWN_PEOPLE + 1)]
    cpu, wall = [], []
    with app.app_context():
        for night_number in range(1, settings.rounds + 1):
            night = service.nights.open_night(f"Drawn night {night_number}", target=NEVER_ENDS)
            service.nights.check_in(night, names)
            cpu.append([])
            wall.append([])
            for number in range(1, DRAWN_ROUNDS + 1):
                cpu_before, began = time.process_time(), time.perf_counter()
                service.nights.draw_next_round(night, sizes, seed=night_number * 100 + number)
                cpu[-1].append(time.process_time() - cpu_before)
                wall[-1].append(time.perf_counter() - began)
                service.nights.close_round(night, number)
            db.session.remove()
    return ServiceDraws(sizes, cpu, wall)


# --- The night's page, watched ------------------------------------------------------------------------------


def fill_watched_night(app):
    """The watched night: ``WATCHED_PEOPLE`` checked in, round 1 drawn at ``WATCHED_TABLES`` tables and
    played out (every player deals once), round 2 drawn and a few hands in, each hand recorded through the
    service. Its id and its current round's tables' games."""
    rng = random.Random(36)
    with app.app_context():
        night = service.nights.open_night("Watched night", target=NEVER_ENDS)
        service.nights.check_in(night, [f"Watcher {number:03}" for number in range(1, WATCHED_PEOPLE + 1)])
        sizes = rules.table_splits(WATCHED_PEOPLE)[0]
        for number, hands in ((1, None), (2, PLAYED_IN_SECOND_ROUND)):
            service.nights.draw_next_round(night, sizes, seed=3600 + number)
            for table in service.nights.night_rounds(night)[-1].tables:
                game = db.session.get(Game, table.game_id)
                kept = service.kept_game(game.id, game.revision, game.scorer_key)
                for _hand in range(table.round.length if hands is None else hands):
                    kept = service.record_hand(kept, random_taken(rng, len(table.people)), None, False,
                                               kept.game.revision)
        current = service.nights.night_rounds(night)[-1]
        games = [GameRef(table.game_id, db.session.get(Game, table.game_id).scorer_key) for table in current.tables]
        db.session.remove()
    return night, games


class NightTables:
    """The current round's scorers, one phone holding every table's key: each call records the next hand at
    the next table in turn, and keeps the night's ETag as the page's script would see it next."""

    def __init__(self, client, watcher, night_id, games):
        self.recorders = [HandRecorder(client, game) for game in games]
        self.watcher, self.state = watcher, f"/nights/{night_id}/state"
        self.hands = 0
        self.etag = self.watcher.get(self.state, GZIP).header("ETag")

    def record(self):
        """The next table records a hand (a POST of the hand form, as its scorer)."""
        self.recorders[self.hands % len(self.recorders)]()
        self.hands += 1

    def __call__(self):
        """A hand recorded, and the night's new ETag read (both untimed, before a timed view)."""
        self.record()
        self.etag = self.watcher.get(self.state, GZIP).header("ETag")


@dataclass(frozen=True)
class WatchedLoad:
    """The watchers' window: the polls (status, latency, whether the connection was kept), the pages fetched
    after a change (latencies), the hands recorded meanwhile, the server's CPU over the window and the
    floor's CPU per request in a burst just before it."""

    seconds: float
    polls: list[tuple[int, float, bool]]
    pages: list[float]
    hands: int
    cpu_seconds: float
    floor_cpu: float

    @property
    def per_poll(self):
        """The server's CPU per poll, the pages it brought included."""
        return self.cpu_seconds / max(1, len(self.polls))


def watchers_polling(server, night_id, tables, settings, every):
    """``WATCHERS`` watchers polling the night's state every ``every`` seconds with their ETag for
    ``settings.poll_seconds``, each on its own keep-alive connection, staggered; a 200 makes that watcher
    fetch the page (as static/live.js does); meanwhile ``tables`` record a hand every ``NIGHT_MOVES_EVERY``
    seconds (their POSTs are in the server's CPU too). A burst of the floor just before."""
    seconds = settings.poll_seconds
    state, page = f"/nights/{night_id}/state", f"/nights/{night_id}"
    polls, pages, failures = [], [], []  # list.append is safe across threads
    start = time.monotonic() + 0.05

    def watcher(offset):
        client, known = Client(server.port), tables.etag
        try:
            due = start + offset
            while due < start + seconds:
                time.sleep(max(0.0, due - time.monotonic()))
                began = time.perf_counter()
                reply = client.request("GET", state, None, {**GZIP, "If-None-Match": known}, expect=None)
                polls.append((reply.status, time.perf_counter() - began, reply.keeps_connection))
                if reply.status == 200:
                    known, began = reply.header("ETag"), time.perf_counter()
                    client.request("GET", page, None, GZIP, expect=200)
                    pages.append(time.perf_counter() - began)
                due += every
        except Exception as error:  # a thread's error would otherwise vanish with it
            failures.append(error)
        finally:
            client.close()

    def scorers():
        due = start + NIGHT_MOVES_EVERY / 2
        try:
            while due < start + seconds:
                time.sleep(max(0.0, due - time.monotonic()))
                tables.record()
                due += NIGHT_MOVES_EVERY
        except Exception as error:
            failures.append(error)

    floor_client = Client(server.port)
    try:
        floor = burst(Timed(lambda: floor_client.get(FLOOR, GZIP)), server.cpu, settings.floor_burst)
    finally:
        floor_client.close()
    hands_before = tables.hands
    threads = [threading.Thread(target=watcher, args=(seat * every / WATCHERS,), daemon=True)
               for seat in range(WATCHERS)] + [threading.Thread(target=scorers, daemon=True)]
    server.cpu.wait_idle()
    cpu_before, wall_before = server.cpu.seconds(), time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed, cpu = time.monotonic() - wall_before, server.cpu.seconds() - cpu_before
    if failures:
        raise RuntimeError(f"{len(failures)} of the watchers and scorers failed") from failures[0]
    return WatchedLoad(elapsed, polls, pages, tables.hands - hands_before, cpu, floor.cpu)


@dataclass(frozen=True)
class NightScale:
    """Everything measured of the night."""

    engine: list[EngineDraws]
    service: ServiceDraws
    timings: Timings  # the night's page and its state
    load: WatchedLoad
    poll_every: float
    window: float


def night_page_figures(server, night_id, games, settings):
    """The night's page and its state, each after a burst of the floor, in rounds; then the watchers."""
    watcher = Client(server.port)
    scorer = Client(server.port, scorer_cookie(server.port, dict(enumerate(games))))
    try:
        tables = NightTables(scorer, watcher, night_id, games)
        state, page = f"/nights/{night_id}/state", f"/nights/{night_id}"
        timed = {
            "night state 304": Timed(lambda: watcher.get(state, {**GZIP, "If-None-Match": tables.etag}, 304)),
            "night state 200": Timed(lambda: watcher.get(state, GZIP)),
            "night page after a hand": Timed(lambda: watcher.get(page, GZIP), tables, settings.most_new_hands),
            "night page again": Timed(lambda: watcher.get(page, GZIP)),
        }
        timings = time_rounds(timed, Timed(lambda: watcher.get(FLOOR, GZIP)), server.cpu, settings)
        every = live_js_poll_seconds()
        load = watchers_polling(server, night_id, tables, settings, every)
    finally:
        watcher.close()
        scorer.close()
    return timings, load, every


def night_scale(folder, settings, progress):
    """The draw in the engine; a database of its own drawn through the service and filled with the watched
    night; then served, and the night's page measured."""
    progress(f"the club night: drawing {DRAWN_PEOPLE} people over {DRAWN_ROUNDS} rounds")
    engine = engine_draws(settings)
    uri = f"sqlite:///{os.path.join(folder, 'nights.sqlite')}"
    app = migrated_app(app_config(uri))
    try:
        drawn = service_draws(app, settings)
        progress(f"the club night: {WATCHED_PEOPLE} people at {WATCHED_TABLES} tables, two rounds")
        night_id, games = fill_watched_night(app)
    finally:
        with app.app_context():
            db.engine.dispose()
    with running_server(uri, folder) as server:
        progress(f"the club night's page, then {WATCHERS} watchers")
        timings, load, every = night_page_figures(server, night_id, games, settings)
    return NightScale(engine, drawn, timings, load, every, settings.poll_seconds)


# --- The report ---------------------------------------------------------------------------------------------


def seconds_spread(values):
    spread = Spread.of(values)
    return ms(spread.median), ms_range(spread)


def mean_repeated(figures):
    """The repeated neighbours of each round, on average over the nights."""
    return ", ".join(f"{statistics.mean(night[number] for night in figures.repeated):.2g}"
                     for number in range(DRAWN_ROUNDS))


def report_nights(report, scale, settings):
    """Section 11: the club night of rounds."""
    report.budgets.update(budgets())
    report.section(f"11. A club night of rounds (R18, issue 36): the draw of {DRAWN_PEOPLE} people over "
                   f"{DRAWN_ROUNDS} rounds; the night's page with {WATCHED_TABLES} tables and {WATCHERS} watchers")
    for figures in scale.engine:
        cpu, spread = seconds_spread(figures.cpu)
        worst = max(max(figures.cpu), max(figures.wall))
        report.row(f"rules.draw_round, {DRAWN_ROUNDS} rounds at {tables_words(figures.sizes)}", cpu, spread,
                   wall=ms(statistics.median(figures.wall)),
                   note=f"this process's CPU, the {DRAWN_ROUNDS} rounds of a night together; {len(figures.cpu)} "
                        f"nights (seeds); repeated neighbours by round, mean: {mean_repeated(figures)}",
                   budget=f"<= {DRAW_MOST:g} s", met=worst <= DRAW_MOST, counts_for="night draw")
    drawn = scale.service
    cpu, spread = seconds_spread(drawn.night_cpu)
    by_round = ", ".join(ms(statistics.median(night[number] for night in drawn.wall))
                         for number in range(DRAWN_ROUNDS))
    worst = max(max(drawn.night_cpu), max(drawn.night_wall))
    report.row(f"service.nights.draw_next_round x {DRAWN_ROUNDS}, {DRAWN_PEOPLE} checked in, "
               f"{tables_words(drawn.sizes)}", cpu, spread, wall=ms(statistics.median(drawn.night_wall)),
               note=f"this process (app and SQLite), the {DRAWN_ROUNDS} draws of a night; {len(drawn.cpu)} "
                    f"night(s), each round closed (untimed) before the next; wall by round: {by_round}",
               budget=f"<= {DRAW_MOST:g} s", met=worst <= DRAW_MOST, counts_for="night draw")
    timings = scale.timings
    night = (f"{WATCHED_PEOPLE} people at {WATCHED_TABLES} tables of {rules.MAX_PLAYERS}, round 2 of 2 "
             f"({PLAYED_IN_SECOND_ROUND}+ hands a table, round 1 played out)")
    report.timed(timings, "floor", f"GET {FLOOR} (the floor, the night's server)", "the app's trivial route")
    report.timed(timings, "night state 304", "the night's live state, 304 (If-None-Match)", night, POLL_MOST,
                 "night poll")
    report.timed(timings, "night state 200", "the night's live state, 200", "a watcher's first poll after a hand")
    report.timed(timings, "night page after a hand", "the night's page (GET /nights/<id>) after a table recorded "
                 "a hand", "the hand (scorer, POST) untimed before each; the first watcher's fetch renders it")
    report.timed(timings, "night page again", "the night's page again, unchanged",
                 f"the other {WATCHERS - 1} watchers' fetches after the same hand (kept for the night's state)")
    report_watchers(report, scale)


def report_watchers(report, scale):
    """The watchers' window: their polls, the pages a change brought, the server's CPU."""
    load = scale.load
    statuses = Counter(status for status, _latency, _kept in load.polls)
    closed = sum(1 for _status, _latency, kept in load.polls if not kept)
    latency = Spread.of([latency for _status, latency, _kept in load.polls] or [0.0])
    pages = Spread.of(load.pages or [0.0])
    words = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
    report.row(f"{WATCHERS} watchers polling every {scale.poll_every:g} s with ETag, {scale.window:g} s; a hand "
               f"every {NIGHT_MOVES_EVERY:g} s", wall=ms(latency.median),
               note=f"polls: wall {ms_range(latency)}; {len(load.polls) / load.seconds:.1f} a second; {words}; "
                    f"{len(load.pages)} pages fetched after {load.hands} hands (wall median {ms(pages.median)}, "
                    f"{ms_range(pages)}); "
                    + ("connections kept" if not closed else f"{closed} answered Connection: close"))
    ratio = load.per_poll / load.floor_cpu
    report.row("  server CPU meanwhile, per poll (the pages and hands included)", ms(load.per_poll),
               ratio=times(ratio), note=f"{load.cpu_seconds / load.seconds:.0%} of one core; floor "
                                        f"{ms(load.floor_cpu)} in a burst just before",
               budget=f"<= {POLL_MOST}x", met=ratio <= POLL_MOST, counts_for="night poll")


def tables_words(sizes):
    counts = Counter(sizes)
    return " + ".join(f"{count} table{'s' if count > 1 else ''} of {size}"
                      for size, count in sorted(counts.items(), reverse=True))


def night_notes(scale):
    """What the night's figures are, printed above the table."""
    return [
        f"The club night (section 11): the draw timed in this process (time.process_time and wall), "
        f"{DRAWN_PEOPLE} people as ids, each round after the neighbours of the rounds before; through the service "
        "on a SQLite database of its own. The night's page and its state on a server of their own, timed as "
        f"section 1 is; then {WATCHERS} watchers, each on its own connection, polling as static/live.js does "
        f"(every {scale.poll_every:g} s, fetching the page after a 200) while the tables record a hand every "
        f"{NIGHT_MOVES_EVERY:g} s between them (one every {HAND_EVERY:g} s a table).",
    ]
