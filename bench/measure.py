"""What is measured, and how: SQL statements in-process; timings in rounds of bursts, live polls and bytes over HTTP."""

import os
import random
import re
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sqlalchemy import event

from bench.games import Importer, add_many_games
from bench.server import GZIP, TRIVIAL, Client, Reply, checked_status, running_server
from scorekeeper.db.models import db
from scorekeeper.documents.game import MOST_UPLOADED_HANDS
from tests.tabletop import ELEVEN, form_fields, hand_form, random_taken

SETTLE = "/settle.json?cards=10S,9H,9H,10S,QS,KD,2C,AH,AH,3S,JD"
LIVE_CLIENTS = 11
POLL_EVERY = 2.0
PAGES = ["/", "/games/{id}", "/games/{id}/watch", "/games/{id}/display", "/games/{id}/state",
         "/games/{id}/hands/new", "/games/{id}/export.json"]
GAME_PAGES = {"/games/{id}", "/games/{id}/watch", "/games/{id}/display"}  # kept rendered until the game changes


@dataclass(frozen=True)
class Settings:
    """How big and how long: the normal run, or the quick one for CI."""

    rounds: int
    growth: tuple[int, ...]  # hands of the games whose table view is timed for growth
    poll_seconds: float  # the live-polling window
    round_seconds: float  # the least time one timing spends per round
    baseline_seconds: float  # the least time of the baseline burst before each timing
    least_requests: int = 3
    most_requests: int = 200
    many_games: int = 10_000  # the games in the database when the games list is timed again


NORMAL = Settings(rounds=5, growth=(10, 100, 1000), poll_seconds=10, round_seconds=0.3, baseline_seconds=0.1)
# The quick run adds its many games through the service as a restore does (about 4 ms a game here): fewer of them.
QUICK = Settings(rounds=1, growth=(10, 50, 100), poll_seconds=3, round_seconds=0.1, baseline_seconds=0.05,
                 many_games=1_000)


# --- SQL statements per page (in-process) -----------------------------------------


@dataclass(frozen=True)
class StatementCounts:
    """SQL statements of one request to each page, for the short and the long game.

    Game pages are counted twice: on a miss (the first view since the game
    last changed, rendered) and on a hit (the next view, answered from the
    pages kept in memory).
    """

    pages: dict[str, list[int]]  # the other pages
    misses: dict[str, list[int]]
    hits: dict[str, list[int]]
    record: list[int] = field(default_factory=list)  # recording a hand (POST, the form shown), short and long
    read_after_commit: bool = False  # whether any of those writes ran a statement after its commit


def count_statements(app, games):
    """SQL statements each page runs for the short and the long game, counted in-process."""
    client = app.test_client()
    for game in (games["short"], games["long"], games["record"]):
        checked_status(client.get(f"/games/{game.id}/scorer/{game.scorer_key}").status_code, 302, "scorer link")
    client.get("/")  # shows the flashed "you are the scorer": a page with a message is never kept
    with app.app_context():
        engine = db.engine
    statements = []

    def count(*_args):
        statements.append(1)

    def run(url):
        statements.clear()
        checked_status(client.get(url).status_code, 200, url)
        return len(statements)

    event.listen(engine, "before_cursor_execute", count)
    try:
        counts = StatementCounts({}, {}, {})
        for page in PAGES:
            for game in (games["short"], games["long"]):
                url = page.format(id=game.id)
                if page in GAME_PAGES:  # nothing viewed yet in this app: the first view renders
                    counts.misses.setdefault(page, []).append(run(url))
                    counts.hits.setdefault(page, []).append(run(url))
                else:
                    counts.pages.setdefault(page, []).append(run(url))
        committed = []  # the statements run when each write committed

        def commit(_connection):
            committed.append(len(statements))

        event.listen(engine, "commit", commit)
        try:
            for game in (games["short"], games["record"]):  # 4 and 40 hands; the pages timed later are others
                path = f"/games/{game.id}/hands/new"
                fields = {**form_fields(client.get(path).get_data(as_text=True)),  # the form as shown, untimed
                          **hand_form([(taken.hearts, taken.marias) for taken in random_taken(random.Random(1), 11)],
                                      int(form_fields(client.get(path).get_data(as_text=True))["number"]))}
                statements.clear()
                checked_status(client.post(path, data=fields).status_code, 302, "record a hand")
                counts.record.append(len(statements))
                counts = replace(counts, read_after_commit=counts.read_after_commit or committed[-1] != len(statements))
        finally:
            event.remove(engine, "commit", commit)
        return counts
    finally:
        event.remove(engine, "before_cursor_execute", count)


# --- Server time per request --------------------------------------------------------


@dataclass(frozen=True)
class Timed:
    """One request to time, and what to do before each one, untimed (a write that makes the next view a miss)."""

    request: Callable[[], object]
    before: Callable[[], object] | None = None


def timings(games, settings, watcher, scorer, writers):
    """What is timed, by label: one request each.

    A hit repeats the view of an unchanged game; a miss is the one view
    right after a correction moved the game's revision (``writers``: the
    game's ``HandCorrector`` by role, and the ``HandRecorder``). Every
    request asks for gzip, as browsers do.
    """
    long_game, miss_game = games["long"].id, games["miss"].id
    etag = watcher.get(f"/games/{long_game}/state").header("ETag")
    conditional = {**GZIP, "If-None-Match": etag}
    timed = {
        "table hit": Timed(lambda: scorer.get(f"/games/{long_game}", GZIP)),
        "watch hit": Timed(lambda: watcher.get(f"/games/{long_game}/watch", GZIP)),
        "table miss": Timed(lambda: scorer.get(f"/games/{miss_game}", GZIP), writers["miss"]),
        "watch miss": Timed(lambda: watcher.get(f"/games/{miss_game}/watch", GZIP), writers["miss"]),
        "state 200": Timed(lambda: watcher.get(f"/games/{long_game}/state", GZIP)),
        "state 304": Timed(lambda: watcher.get(f"/games/{long_game}/state", conditional, expect=304)),
        "record": Timed(writers["record"]),
        "settle": Timed(lambda: watcher.get(SETTLE, GZIP)),
        "export": Timed(lambda: watcher.get(f"/games/{long_game}/export.json", GZIP)),
        "import most": Timed(Importer(scorer, MOST_UPLOADED_HANDS)),
        "import too many": Timed(Importer(scorer, MOST_UPLOADED_HANDS + 1)),
    }
    for hands in settings.growth:
        game = games[f"growth {hands}"].id
        timed[f"growth {hands}"] = Timed(lambda game=game: scorer.get(f"/games/{game}", GZIP),
                                         writers[f"growth {hands}"])
    return timed


@dataclass(frozen=True)
class Spread:
    """Median, min and max of some figures."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values):
        return cls(statistics.median(values), min(values), max(values))


@dataclass(frozen=True)
class Timings:
    """Per round: seconds per request of each timing, and its ratio to the baseline burst just before it."""

    seconds: dict[str, list[float]]
    ratios: dict[str, list[float]]

    def spread(self, label):
        return Spread.of(self.seconds[label])

    def ratio(self, label):
        return statistics.median(self.ratios[label])


def time_rounds(timed, baseline, settings):
    """Every timing in turn, each right after a burst of the baseline, for several rounds."""
    for request in [baseline, *timed.values()]:  # warm up: templates compiled, connections open
        burst(request, replace(settings, least_requests=1), 0)
    seconds = {"trivial": [], **{label: [] for label in timed}}
    ratios = {"trivial": [], **{label: [] for label in timed}}
    for _round in range(settings.rounds):
        bases = []
        for label, request in timed.items():
            bases.append(burst(baseline, settings, settings.baseline_seconds))
            seconds[label].append(burst(request, settings, settings.round_seconds))
            ratios[label].append(seconds[label][-1] / bases[-1])
        seconds["trivial"].append(statistics.median(bases))
        ratios["trivial"].append(1.0)
    return Timings(seconds, ratios)


def burst(timed, settings, least_seconds):
    """The median time of back-to-back requests, made for at least ``least_seconds`` (untimed work included)."""
    times, start = [], time.perf_counter()
    while len(times) < settings.most_requests and (
            len(times) < settings.least_requests or time.perf_counter() - start < least_seconds):
        if timed.before is not None:
            timed.before()
        began = time.perf_counter()
        timed.request()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def time_requests(games, settings, watcher, scorer, writers):
    """Every timing, in rounds, against the trivial route."""
    timed = timings(games, settings, watcher, scorer, writers)
    return time_rounds(timed, Timed(lambda: watcher.get(TRIVIAL, GZIP)), settings)


# --- The games list with few games and with many -------------------------------------

FEW_GAMES = 20  # one page of the list: with fewer, the page would show less, not cost less


@dataclass(frozen=True)
class ListScale:
    """The games list timed on a database of ``FEW_GAMES`` games, then of ``games`` (``Settings.many_games``)."""

    few: Timings
    many: Timings
    games: int


@dataclass(frozen=True)
class GuestScale:
    """A page of games of two hands and a page of games of ``LONG_LIST_HANDS``, both of eleven players: the
    games list on each, and every page a guest may ask for on the long games."""

    short: Timings
    long: Timings


LONG_LIST_HANDS = 200  # the most an import allows: the longest games a club's list shows


def guest_pages(game_id):
    """Every page a guest (no scorer key, no secretary pass) may ask for, of game ``game_id`` and the club."""
    return {"list": "/", "season": "/players", "stats": "/stats.json", "club": "/club",
            "table view": f"/games/{game_id}", "hands": f"/games/{game_id}/hands",
            "trail": f"/games/{game_id}/trail", "sheet": f"/games/{game_id}/sheet",
            "sheet.csv": f"/games/{game_id}/sheet.csv", "export": f"/games/{game_id}/export.json",
            "display": f"/games/{game_id}/display", "state": f"/games/{game_id}/state"}


def guest_scale(folder, settings):
    """Time the list of ``FEW_GAMES`` games of 2 hands of eleven players, then, served from another database,
    the list of as many games of ``LONG_LIST_HANDS`` hands and every guest page of the newest of them."""
    timings = []
    for name, hands, pages in (("short", 2, lambda _newest: {"list": "/"}), ("long", LONG_LIST_HANDS, guest_pages)):
        uri = f"sqlite:///{os.path.join(folder, f'{name} list.sqlite')}"
        add_many_games(uri, FEW_GAMES, hands=hands, players=ELEVEN)
        with running_server(uri, folder) as server:
            client = Client(server.port)
            try:
                timed = {label: _guest_get(client, path) for label, path in pages(FEW_GAMES).items()}
                timings.append(time_rounds(timed, Timed(lambda: client.get(TRIVIAL, GZIP)), settings))
            finally:
                client.close()
    return GuestScale(*timings)


def _guest_get(client, path):
    return Timed(lambda: client.get(path, GZIP))


def list_scale(client, database_uri, settings):
    """Time / with a page of games in the database, then again once it holds ``settings.many_games``."""
    timed = {"list": Timed(lambda: client.get("/", GZIP))}
    baseline = Timed(lambda: client.get(TRIVIAL, GZIP))
    add_many_games(database_uri, FEW_GAMES)
    few = time_rounds(timed, baseline, settings)
    add_many_games(database_uri, settings.many_games - FEW_GAMES)
    return ListScale(few, time_rounds(timed, baseline, settings), settings.many_games)


# --- Live polling under load ---------------------------------------------------------


@dataclass(frozen=True)
class PollLoad:
    """The polls made in the window: their statuses and latencies, how many answers closed the connection,
    and the server's CPU time meanwhile."""

    seconds: float
    statuses: Counter
    latencies: list[float]
    closed: int  # answers with "Connection: close": the phone's next poll opens a new connection
    cpu_seconds: float

    @property
    def requests(self):
        return len(self.latencies)


def poll_load(server, path, etag, seconds):
    """Eleven phones polling the live state every two seconds with its ETag, staggered."""
    polls = []  # (status, seconds, connection kept); list.append is safe across threads
    start = time.monotonic() + 0.05

    def phone(offset):
        client = Client(server.port)
        try:
            due = start + offset
            while due < start + seconds:
                time.sleep(max(0.0, due - time.monotonic()))
                began = time.perf_counter()
                reply = client.request("GET", path, None, {**GZIP, "If-None-Match": etag}, expect=None)
                polls.append((reply.status, time.perf_counter() - began, reply.keeps_connection))
                due += POLL_EVERY
        finally:
            client.close()

    phones = [threading.Thread(target=phone, args=(seat * POLL_EVERY / LIVE_CLIENTS,), daemon=True)
              for seat in range(LIVE_CLIENTS)]
    cpu_before, wall_before = server.cpu_seconds(), time.monotonic()
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join()
    elapsed, cpu = time.monotonic() - wall_before, server.cpu_seconds() - cpu_before
    return PollLoad(elapsed, Counter(status for status, _, _ in polls), [latency for _, latency, _ in polls],
                    sum(1 for _, _, kept in polls if not kept), cpu)


# --- Bytes ----------------------------------------------------------------------


@dataclass(frozen=True)
class FirstLoad:
    """A page and its same-origin stylesheets and scripts, as the server sent them."""

    page: Reply
    assets: dict[str, Reply]

    @property
    def parts(self):
        return [self.page, *self.assets.values()]

    @property
    def total(self):
        """The bodies as sent: gzip-encoded where the server encoded them."""
        return sum(len(part.body) for part in self.parts)

    def named(self, suffix):
        """The paths of the assets of one kind (".css", ".js")."""
        return [path for path in self.assets if path.split("?")[0].endswith(suffix)]

    def kind(self, suffix):
        return sum(len(self.assets[path].body) for path in self.named(suffix))

    @property
    def not_gzipped(self):
        """The paths (the page is "page") sent without gzip encoding."""
        return [path for path, reply in [("page", self.page), *self.assets.items()] if not reply.gzipped]

    @property
    def not_kept(self):
        """The assets a browser may not keep for a day without asking again."""
        return [path for path, reply in self.assets.items() if reply.cached_for < 24 * 3600]

    @property
    def inline_svg(self):
        return sum(len(svg) for svg in re.findall(rb"<svg\b.*?</svg>", self.page.decoded, flags=re.S))


def first_load(client, path, headers=None):
    """The page plus every stylesheet and script it links from its own origin, asked for with ``headers``."""
    page = client.get(path, headers)
    text = page.text
    links = [tag for tag in re.findall(r"<link\b[^>]*>", text) if re.search(r'\brel="stylesheet"', tag)]
    sources = [re.search(r'\bhref="([^"]+)"', tag).group(1) for tag in links]
    sources += re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', text)
    own = [source for source in sources if source.startswith("/") and not source.startswith("//")]
    return FirstLoad(page, {source: client.get(source, headers) for source in own})


@dataclass(frozen=True)
class RepeatVisit:
    """What a browser fetches again on a second visit: the page, and the assets it was not let keep."""

    page: Reply
    refetched: dict[str, Reply]

    @property
    def total(self):
        return len(self.page.body) + sum(len(reply.body) for reply in self.refetched.values())


def repeat_visit(client, path, load):
    """The page asked for again with gzip, and any asset of ``load`` whose answer did not let it be kept."""
    return RepeatVisit(client.get(path, GZIP), {source: client.get(source, GZIP) for source in load.not_kept})


@dataclass(frozen=True)
class PageBytes:
    """The table view's bytes: the first load on the wire (gzip) and raw, and a repeat visit."""

    wire: FirstLoad
    raw: FirstLoad
    repeat: RepeatVisit


def page_bytes(client, path):
    """The first load asked for as a browser does (gzip) and without encoding, then a repeat visit."""
    wire = first_load(client, path, GZIP)
    return PageBytes(wire, first_load(client, path), repeat_visit(client, path, wire))


def poll_replies(watcher, recorder, games):
    """An unchanged poll (304), a poll after a hand was recorded (200) and the page it refetches, as sent with gzip."""
    state = f"/games/{games['record'].id}/state"
    etag = watcher.get(state, GZIP).header("ETag")
    unchanged = watcher.get(state, {**GZIP, "If-None-Match": etag}, expect=304)
    recorder()
    changed = watcher.get(state, {**GZIP, "If-None-Match": etag})
    refetched = watcher.get(f"/games/{games['record'].id}/watch", GZIP)
    return unchanged, changed, refetched


def raw_size(client, path):
    """The bytes of the body of ``path`` sent without encoding (no Accept-Encoding)."""
    reply = client.get(path)
    if reply.gzipped:
        raise RuntimeError(f"GET {path} came gzip-encoded, though gzip was not asked for")
    return len(reply.body)
