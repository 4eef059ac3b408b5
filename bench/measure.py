"""What is measured on the main database: SQL statements in-process; the sizes of a normal and a quick run;
server CPU per request of each figure (see ``bench.timing``), live polls and bytes over HTTP."""

import random
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace

from sqlalchemy import event

from bench.games import LONG_HANDS, NEW_HAND_KINDS, GamePool, Importer, pool_games, pool_plan
from bench.server import FLOOR, GZIP, Client, Reply, checked_status
from bench.timing import BurstSizes, Timed, time_rounds
from scorekeeper.db.models import db
from scorekeeper.documents.game import MOST_UPLOADED_HANDS
from tests.tabletop import form_fields, hand_form, random_taken

SETTLE = "/settle.json?cards=10S,9H,9H,10S,QS,KD,2C,AH,AH,3S,JD"
LIVE_CLIENTS = 11
POLL_EVERY = 2.0
PAGES = ["/", "/games/{id}", "/games/{id}/watch", "/games/{id}/display", "/games/{id}/state",
         "/games/{id}/hands/new", "/games/{id}/export.json"]
GAME_PAGES = {"/games/{id}", "/games/{id}/watch", "/games/{id}/display"}  # kept rendered until the game changes


@dataclass(frozen=True)
class Settings:
    """How big and how long: the normal run, or the quick one for CI (every figure, small sizes)."""

    rounds: int
    starts: int  # fresh servers for each figure "first after the server started" (one request each)
    growth: tuple[int, ...]  # hands of the games whose table view is timed for growth; the last is the long game's
    list_hands: tuple[int, ...]  # hands of the 20 games of each games list timed
    season_games: tuple[int, int]  # the season's games when its pages are timed, and when timed again
    poll_seconds: float  # the live-polling window
    round_seconds: float  # the least wall time of a figure's burst in a round
    floor_seconds: float  # the least wall time of the floor's burst before each figure
    least_cpu_units: int  # the least CPU of a burst, in units of the clock (1 ns, or a 10 ms tick)
    least_requests: int = 3
    most_requests: int = 200
    most_seconds: float = 5.0  # a burst's longest, whatever the CPU clock asks for
    most_new_hands: int = 8  # requests a burst makes at most of a figure that records a hand before each
    many_games: int = 10_000  # the games in the database when the games list is timed again

    @property
    def long_hands(self):
        """The issue's "1,000 hands" (in the quick run fewer): the length of the long figures."""
        return self.growth[-1]

    @property
    def burst(self):
        return BurstSizes(self.least_requests, self.round_seconds, self.least_cpu_units, self.most_requests,
                          self.most_seconds)

    @property
    def floor_burst(self):
        return BurstSizes(self.least_requests, self.floor_seconds, self.least_cpu_units, self.most_requests,
                          self.most_seconds)

    @property
    def new_hand_requests(self):
        """The requests of a new-hand figure over a run: its rounds' and one to warm up."""
        return self.rounds * self.most_new_hands + 1


NORMAL = Settings(rounds=5, starts=3, growth=(10, 100, 1000), list_hands=(2, 100, 1000),
                  season_games=(1000, 2000), poll_seconds=10, round_seconds=0.3, floor_seconds=0.1,
                  least_cpu_units=50)
# Every code path of the normal run, on small sizes and one round, in well under a minute (CI runs it).
QUICK = Settings(rounds=1, starts=1, growth=(10, 50, 100), list_hands=(2, 20, 100), season_games=(40, 80),
                 poll_seconds=2, round_seconds=0.02, floor_seconds=0.01, least_cpu_units=10, least_requests=1,
                 most_new_hands=4, many_games=200)


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


# --- Server CPU per request ---------------------------------------------------------


def new_hand_pools(games, clients, watcher, settings):
    """The games of each new-hand figure, by (kind, hands), each used by a scorer of its own (``clients``:
    a client holding their scorer keys, by kind and hands); the table view and /watch are viewed once on
    each game before its first timed view."""
    pools = {}
    for hands in (LONG_HANDS, settings.long_hands):
        per_game = pool_plan(hands, settings.new_hand_requests).per_game
        for kind in NEW_HAND_KINDS:
            client = clients[kind, hands]
            warm = {"table": lambda game, client=client: client.get(f"/games/{game.id}", GZIP),
                    "watch": lambda game: watcher.get(f"/games/{game.id}/watch", GZIP)}.get(kind)
            pools[kind, hands] = GamePool(client, pool_games(games, kind, hands), per_game, warm)
    return pools


def timings(games, settings, watcher, scorer, writers, pools):
    """What is timed on the main database, by label: one request each.

    A hit repeats the view of an unchanged game. A first view after a new
    hand is the one view right after the scorer recorded a hand (untimed),
    on the games of its ``pools``; recording a hand records one more on
    them. Every request asks for gzip, as browsers do.
    """
    long_game, guest_game = games["long"].id, games["guest"].id
    etag = watcher.get(f"/games/{long_game}/state").header("ETag")
    conditional = {**GZIP, "If-None-Match": etag}

    def get(client, path, headers=GZIP, expect=200):
        return lambda: client.get(path, headers, expect)

    timed = {
        "table hit": Timed(get(scorer, f"/games/{long_game}")),
        "watch hit": Timed(get(watcher, f"/games/{long_game}/watch")),
    }
    most = settings.most_new_hands
    for hands in (LONG_HANDS, settings.long_hands):
        table, watch, record = pools["table", hands], pools["watch", hands], pools["record", hands]
        form_game = long_game if hands == LONG_HANDS else games[f"growth {hands}"].id
        timed.update({
            f"table new hand {hands}": Timed(lambda pool=table: pool.client.get(f"/games/{pool.recorder.game.id}",
                                                                                 GZIP), table.record, most),
            f"watch new hand {hands}": Timed(lambda pool=watch: watcher.get(f"/games/{pool.recorder.game.id}/watch",
                                                                             GZIP), watch.record, most),
            f"record {hands}": Timed(lambda pool=record: pool.recorder(), record.next, most),
            f"form {hands}": Timed(get(scorer, f"/games/{form_game}/hands/new")),
        })
    timed.update({
        "state 200": Timed(get(watcher, f"/games/{long_game}/state")),
        "state 304": Timed(get(watcher, f"/games/{long_game}/state", conditional, 304)),
        "settle": Timed(get(watcher, SETTLE)),
        "export": Timed(get(watcher, f"/games/{long_game}/export.json")),
        "import most": Timed(Importer(scorer, MOST_UPLOADED_HANDS)),
        "import too many": Timed(Importer(scorer, MOST_UPLOADED_HANDS + 1)),
    })
    for hands in settings.growth:
        game = games[f"growth {hands}"].id
        timed[f"growth {hands}"] = Timed(get(scorer, f"/games/{game}"), writers[f"growth {hands}"])
    for label, path in guest_pages(guest_game).items():
        timed[f"guest {label}"] = Timed(get(watcher, path))
    return timed


def guest_pages(game_id):
    """Every page of a game a guest (no scorer key) may ask for, and the club's trail."""
    return {"table view": f"/games/{game_id}", "hands": f"/games/{game_id}/hands",
            "trail": f"/games/{game_id}/trail", "sheet": f"/games/{game_id}/sheet",
            "sheet.csv": f"/games/{game_id}/sheet.csv", "export": f"/games/{game_id}/export.json",
            "display": f"/games/{game_id}/display", "state": f"/games/{game_id}/state", "club": "/club"}


def time_requests(games, settings, server, watcher, scorer, writers, pools):
    """Every figure of the main database, in rounds, each after a burst of the floor."""
    timed = timings(games, settings, watcher, scorer, writers, pools)
    return time_rounds(timed, Timed(lambda: watcher.get(FLOOR, GZIP)), server.cpu, settings)


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
    cpu_before, wall_before = server.cpu.seconds(), time.monotonic()
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join()
    elapsed, cpu = time.monotonic() - wall_before, server.cpu.seconds() - cpu_before
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
        """What the first load took on the wire: each answer's status line, headers and body as sent
        (gzip-encoded where the server encoded it)."""
        return sum(part.sent_bytes for part in self.parts)

    @property
    def bodies(self):
        """The bodies alone, as sent."""
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
        """What the visit took on the wire: status lines, headers and bodies as sent."""
        return self.page.sent_bytes + sum(reply.sent_bytes for reply in self.refetched.values())


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
