"""Benchmark of the scorekeeper: server time, SQL statements, bytes, growth, memory, browser.

``python bench/run.py`` serves the app with waitress in a subprocess on a free
port of 127.0.0.1, on a fresh temporary database filled with generated games,
measures, stops everything and prints one table with the budgets beside the
figures. ``--quick`` (CI) uses small sizes and one round; ``--rounds N`` sets
the rounds. The exit code is 0 even when budgets are missed: it is a
benchmark, not a test.
"""

import argparse
import gzip
import http.client
import math
import os
import platform
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from sqlalchemy import event

from scorekeeper import create_app, rules
from scorekeeper.exchange import FORMAT, VERSION, read_game
from scorekeeper.models import db

STARTED = time.monotonic()  # for the progress lines and the length of the run
NAMES = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil", "Hana", "Ivo", "Jun", "Kai"]
NEVER_ENDS = 100_000  # a target no generated game reaches
LONG_HANDS = 40
SHORT_HANDS = 4
MOON_CHANCE = 0.04
THREADS = 4  # as `flask --app scorekeeper serve` runs waitress
TRIVIAL = "/bench/trivial"
SETTLE = "/settle.json?cards=10S,9H,9H,10S,QS,KD,2C,AH,AH,3S,JD"
LIVE_CLIENTS = 11
POLL_EVERY = 2.0
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
LIVE_PATIENCE = 10  # seconds the second page is watched for a change before it counts as never
KB = 1024
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSRF_FIELD = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
HIDDEN_FIELD = re.compile(r'<input type="hidden" name="(revision|number)" value="([^"]*)"')
PAGES = ["/", "/games/{id}", "/games/{id}/watch", "/games/{id}/display", "/games/{id}/state",
         "/games/{id}/hands/new", "/games/{id}/export.json"]


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


NORMAL = Settings(rounds=5, growth=(10, 100, 1000), poll_seconds=10, round_seconds=0.3, baseline_seconds=0.1)
QUICK = Settings(rounds=1, growth=(10, 50, 100), poll_seconds=3, round_seconds=0.1, baseline_seconds=0.05)

BUDGETS = {
    "table": "table view of the long game at most 3x the trivial route",
    "state": "live-state request at most 1.5x the trivial route",
    "sql": "SQL statements per page constant and at most 6",
    "first load": "table view first load at most 30 KB uncompressed",
    "unchanged poll": "an unchanged poll at most 300 bytes",
    "live update": "live update visible on the second page within 2.5 s",
}


# --- Generated games ----------------------------------------------------------


@dataclass(frozen=True)
class GameRef:
    """A generated game as the benchmark addresses it."""

    id: int
    scorer_key: str


def game_document(name, hands, seed):
    """An export document of an 11-player game that never ends; every second hand has a trick log."""
    rng = random.Random(seed)
    first_dealer = rng.randrange(len(NAMES))
    return {
        "format": FORMAT, "version": VERSION, "name": name, "target": NEVER_ENDS,
        "players": NAMES, "first_dealer": first_dealer,
        "hands": [hand_entry(rng, number, first_dealer, number % 2 == 0) for number in range(1, hands + 1)],
    }


def hand_entry(rng, number, first_dealer, with_tricks):
    """One hand of a document: random counts, or the tallies of a trick log played out."""
    tricks = None
    if with_tricks:
        leader = rules.next_hand(number, first_dealer, len(NAMES)).leader
        play, tricks = played_hand(rng, leader)
        taken = [play.taken[seat] for seat in range(len(NAMES))]
        uncollected = play.uncollected
    else:
        taken = random_taken(rng, MOON_CHANCE)
        uncollected = rules.check_takings(dict(enumerate(taken)))
    shooter = rules.moon_shooter(dict(enumerate(taken)))
    return {
        "number": number,
        "taken": [{"hearts": t.hearts, "marias": t.marias} for t in taken],
        "uncollected": {"hearts": uncollected.hearts, "marias": uncollected.marias},
        "moon": None if shooter is None else rng.choice(["subtract", "add"]),
        "tricks": tricks,
    }


def random_taken(rng, moon_chance):
    """Each seat's hearts and Black Marias: all 26 and 2 spread at random, or now and then a moon."""
    if rng.random() < moon_chance:
        shooter = rng.randrange(len(NAMES))
        return [rules.Taken(26, 2) if seat == shooter else rules.NOTHING for seat in range(len(NAMES))]
    hearts = Counter(rng.choices(range(len(NAMES)), k=rules.HEARTS_IN_HAND))
    marias = Counter(rng.choices(range(len(NAMES)), k=rules.MARIAS_IN_HAND))
    return [rules.Taken(hearts[seat], marias[seat]) for seat in range(len(NAMES))]


def played_hand(rng, leader):
    """A shuffled two-deck deal played out, each seat playing its next card: the play and its log."""
    deck = [rules.Card(rank, suit) for suit in rules.SUITS for rank in range(2, 15)] * rules.COPIES
    rng.shuffle(deck)
    deal = rules.deal(len(NAMES))
    held = [deck[seat * deal.cards_each:(seat + 1) * deal.cards_each] for seat in range(len(NAMES))]
    kitty = deck[len(NAMES) * deal.cards_each:]
    play = rules.HandPlay(len(NAMES), leader, kitty)
    played = []
    for _trick in range(deal.tricks):
        cards = [held[(play.leader + offset) % len(NAMES)].pop() for offset in range(len(NAMES))]
        play.play(cards, confirm=True)
        played.append({"cards": [str(card) for card in cards], "confirmed": True})
    return play, {"first_leader": leader, "kitty": [str(card) for card in kitty], "played": played}


def fill_database(app, settings):
    """Import the generated games; return them by role."""
    plan = {"long": LONG_HANDS, "short": SHORT_HANDS, "record": LONG_HANDS}
    plan.update({f"growth {hands}": hands for hands in settings.growth})
    with app.app_context():
        games = {role: read_game(game_document(role, hands, seed)) for seed, (role, hands) in enumerate(plan.items())}
        db.session.add_all(games.values())
        db.session.commit()
        return {role: GameRef(game.id, game.scorer_key) for role, game in games.items()}


# --- SQL statements per page (in-process) -----------------------------------------


def count_statements(app, games):
    """SQL statements each page runs for the short and the long game, counted in-process."""
    client = app.test_client()
    for game in (games["short"], games["long"]):
        checked_status(client.get(f"/games/{game.id}/scorer/{game.scorer_key}").status_code, 302, "scorer link")
    statements = []

    def count(*_args):
        statements.append(1)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        counts = {}
        for page in PAGES:
            counts[page] = []
            for game in (games["short"], games["long"]):
                statements.clear()
                url = page.format(id=game.id)
                checked_status(client.get(url).status_code, 200, url)
                counts[page].append(len(statements))
        return counts
    finally:
        event.remove(engine, "before_cursor_execute", count)


def checked_status(status, expected, what):
    """Stop the run when a page answers other than it should (``expected`` None: any answer will do)."""
    if expected is not None and status != expected:
        raise RuntimeError(f"{what} answered {status}, expected {expected}")


# --- The server and HTTP ---------------------------------------------------------


def app_config(database_uri):
    """A fresh app's configuration: this database, a throwaway secret key."""
    return {"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": secrets.token_hex(32)}


def serve(database_uri):
    """The server subprocess: the app plus the benchmark's trivial route, served by waitress."""
    import waitress

    app = create_app(app_config(database_uri))
    app.add_url_rule(TRIVIAL, "bench_trivial", lambda: "ok")
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=THREADS, ident="scorekeeper")
    print(server.effective_port, flush=True)
    server.run()


class Server:
    """The server subprocess: its port, CPU time and peak memory."""

    def __init__(self, process, port):
        self.process = process
        self.port = port

    def cpu_seconds(self):
        """User plus system CPU time so far, from /proc/<pid>/stat."""
        with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_memory(self):
        """Peak resident memory in bytes (VmHWM of /proc/<pid>/status)."""
        with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
            line = next(line for line in status if line.startswith("VmHWM:"))
        return int(line.split()[1]) * 1024


@contextmanager
def running_server(database_uri, folder):
    """Start the server subprocess and stop it at the end, whatever happens."""
    log_path = os.path.join(folder, "server.log")
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--serve", database_uri],
            stdout=subprocess.PIPE, stderr=log, text=True,
        )
    try:
        port = process.stdout.readline().strip()
        if not port.isdigit():
            with open(log_path, encoding="utf-8") as log:
                raise RuntimeError(f"the server did not start:\n{log.read()}")
        yield Server(process, int(port))
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


@dataclass(frozen=True)
class Reply:
    """One HTTP response as received."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name):
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    @property
    def text(self):
        return self.body.decode("utf-8")

    @property
    def sent_bytes(self):
        """Status line, headers and body, rebuilt from the parsed response as the server sent them."""
        head = f"HTTP/1.1 {self.status} {self.reason}\r\n"
        head += "".join(f"{key}: {value}\r\n" for key, value in self.headers) + "\r\n"
        return len(head.encode("latin-1")) + len(self.body)

    def new_session(self):
        """The session cookie this response sets, if any."""
        for key, value in self.headers:
            if key.lower() == "set-cookie":
                cookie = SimpleCookie(value)
                if "session" in cookie:
                    return cookie["session"].value
        return None


class Client:
    """One keep-alive HTTP/1.1 connection to the server, sending a session cookie if given."""

    def __init__(self, port, cookie=None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = cookie

    def get(self, path, headers=None, expect=200):
        return self.request("GET", path, None, headers or {}, expect)

    def post(self, path, fields, expect=302):
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.request("POST", path, urlencode(fields), headers, expect)

    def request(self, method, path, body, headers, expect):
        if self.cookie:
            headers = {**headers, "Cookie": f"session={self.cookie}"}
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        reply = Reply(response.status, response.reason, response.getheaders(), response.read())
        checked_status(reply.status, expect, f"{method} {path}")
        return reply

    def close(self):
        self.connection.close()


def scorer_cookie(port, games):
    """A session cookie holding the scorer key of every game (and a CSRF secret), as one phone's."""
    client = Client(port)
    try:
        for game in games.values():
            client.cookie = client.get(f"/games/{game.id}/scorer/{game.scorer_key}", expect=302).new_session()
        # The form puts the CSRF secret in the session and shows (so clears) the flashed messages.
        client.cookie = client.get(f"/games/{games['record'].id}/hands/new").new_session() or client.cookie
        return client.cookie
    finally:
        client.close()


class HandRecorder:
    """Records the next hand of a game as its scorer, keeping number and revision in step.

    The session cookie stays as it was: the flashed "recorded" messages a
    browser would show on the next page are dropped instead of piling up.
    """

    def __init__(self, client, game):
        self.client = client
        self.path = f"/games/{game.id}/hands/new"
        page = client.get(self.path).text
        self.token = CSRF_FIELD.search(page).group(1)
        hidden = dict(HIDDEN_FIELD.findall(page))
        self.number, self.revision = int(hidden["number"]), int(hidden["revision"])
        self.rng = random.Random(self.number)

    def __call__(self):
        fields = {"csrf_token": self.token, "number": self.number, "revision": self.revision}
        for seat, taken in enumerate(random_taken(self.rng, moon_chance=0)):
            fields[f"takings-{seat}-hearts"] = taken.hearts
            fields[f"takings-{seat}-marias"] = taken.marias
        self.client.post(self.path, fields)
        self.number += 1
        self.revision += 1


# --- Server time per request --------------------------------------------------------


def timings(games, settings, watcher, scorer, recorder):
    """What is timed, by label: one request each."""
    long_game, etag = games["long"].id, watcher.get(f"/games/{games['long'].id}/state").header("ETag")
    timed = {
        "table": lambda: scorer.get(f"/games/{long_game}"),
        "watch": lambda: watcher.get(f"/games/{long_game}/watch"),
        "state 200": lambda: watcher.get(f"/games/{long_game}/state"),
        "state 304": lambda: watcher.get(f"/games/{long_game}/state", {"If-None-Match": etag}, expect=304),
        "record": recorder,
        "settle": lambda: watcher.get(SETTLE),
        "export": lambda: watcher.get(f"/games/{long_game}/export.json"),
    }
    for hands in settings.growth:
        game = games[f"growth {hands}"].id
        timed[f"growth {hands}"] = lambda game=game: scorer.get(f"/games/{game}")
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
        request()
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


def burst(request, settings, least_seconds):
    """The median time of back-to-back requests, made for at least ``least_seconds``."""
    times, start = [], time.perf_counter()
    while len(times) < settings.most_requests and (
            len(times) < settings.least_requests or time.perf_counter() - start < least_seconds):
        began = time.perf_counter()
        request()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


# --- Live polling under load ---------------------------------------------------------


@dataclass(frozen=True)
class PollLoad:
    """The polls made in the window: their statuses and latencies, and the server's CPU time meanwhile."""

    seconds: float
    statuses: Counter
    latencies: list[float]
    cpu_seconds: float

    @property
    def requests(self):
        return len(self.latencies)


def poll_load(server, path, etag, seconds):
    """Eleven phones polling the live state every two seconds with its ETag, staggered."""
    polls = []  # (status, seconds); list.append is safe across threads
    start = time.monotonic() + 0.05

    def phone(offset):
        client = Client(server.port)
        try:
            due = start + offset
            while due < start + seconds:
                time.sleep(max(0.0, due - time.monotonic()))
                began = time.perf_counter()
                reply = client.request("GET", path, None, {"If-None-Match": etag}, expect=None)
                polls.append((reply.status, time.perf_counter() - began))
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
    return PollLoad(elapsed, Counter(status for status, _ in polls), [latency for _, latency in polls], cpu)


# --- Bytes ----------------------------------------------------------------------


@dataclass(frozen=True)
class FirstLoad:
    """A page and its same-origin stylesheets and scripts, as bodies sent."""

    html: bytes
    assets: dict[str, bytes]

    @property
    def parts(self):
        return [self.html, *self.assets.values()]

    @property
    def total(self):
        return sum(len(part) for part in self.parts)

    @property
    def gzipped(self):
        """Each response gzipped on its own (level 6, a server's usual)."""
        return sum(len(gzip.compress(part, compresslevel=6)) for part in self.parts)

    def named(self, suffix):
        """The paths of the assets of one kind (".css", ".js")."""
        return [path for path in self.assets if path.split("?")[0].endswith(suffix)]

    def kind(self, suffix):
        return sum(len(self.assets[path]) for path in self.named(suffix))

    @property
    def inline_svg(self):
        return sum(len(svg) for svg in re.findall(rb"<svg\b.*?</svg>", self.html, flags=re.S))


def first_load(client, path):
    """The page plus every stylesheet and script it links from its own origin."""
    html = client.get(path).body
    page = html.decode("utf-8")
    links = [tag for tag in re.findall(r"<link\b[^>]*>", page) if re.search(r'\brel="stylesheet"', tag)]
    sources = [re.search(r'\bhref="([^"]+)"', tag).group(1) for tag in links]
    sources += re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', page)
    own = [source for source in sources if source.startswith("/") and not source.startswith("//")]
    return FirstLoad(html, {source: client.get(source).body for source in own})


def poll_replies(watcher, recorder, games):
    """An unchanged poll (304), a poll after a hand was recorded (200) and the page it refetches."""
    state = f"/games/{games['record'].id}/state"
    etag = watcher.get(state).header("ETag")
    unchanged = watcher.get(state, {"If-None-Match": etag}, expect=304)
    recorder()
    changed = watcher.get(state, {"If-None-Match": etag})
    refetched = watcher.get(f"/games/{games['record'].id}/watch")
    return unchanged, changed, refetched


# --- In the browser -------------------------------------------------------------


@dataclass(frozen=True)
class BrowserFigures:
    """Seconds, one figure per round."""

    live_delays: list[float]
    first_paints: list[float]


def browser_figures(port, game, cookie, rounds):
    """Save-to-second-page delays and throttled first paints in headless Chromium, or None without it."""
    if not os.path.exists(CHROMIUM):
        return None
    from playwright.sync_api import TimeoutError, sync_playwright

    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            paints = [first_paint(browser, base, game, cookie) for _round in range(rounds)]
            return BrowserFigures(live_delays(browser, base, game, cookie, rounds, TimeoutError), paints)
        finally:
            browser.close()


def phone_context(browser, base, cookie=None):
    """A phone-sized browser context, a scorer's when given the session cookie."""
    context = browser.new_context(base_url=base, viewport=PHONE, locale="en-US")
    if cookie:
        context.add_cookies([{"name": "session", "value": cookie, "url": base}])
    return context


def first_paint(browser, base, game, cookie):
    """First contentful paint of the table view, in seconds, with the CPU slowed down 4x."""
    context = phone_context(browser, base, cookie)
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        page.goto(f"/games/{game.id}")
        page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
        return page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime") / 1000
    finally:
        context.close()


def live_delays(browser, base, game, cookie, rounds, timeout_error):
    """Seconds from clicking Save on the scorer's hand form to the new hand showing on a /watch page.

    A change not shown within ``LIVE_PATIENCE`` seconds counts as never (infinity).
    """
    scorer_context, watcher_context = phone_context(browser, base, cookie), phone_context(browser, base)
    try:
        scorer, watcher = scorer_context.new_page(), watcher_context.new_page()
        watcher.goto(f"/games/{game.id}/watch")
        delays = []
        for _round in range(rounds):
            scorer.goto(f"/games/{game.id}/hands/new")
            for seat, hearts in enumerate([12, 8, 6]):
                scorer.locator(f"#takings-{seat}-hearts").fill(str(hearts))
            scorer.locator('label[for="takings-3-marias-2"]').click()
            revision = watcher.locator("[data-live]").get_attribute("data-revision")
            start = time.perf_counter()
            scorer.get_by_role("button", name=re.compile(r"^Save hand")).click()
            try:
                watcher.wait_for_function(
                    "revision => document.querySelector('[data-live]').dataset.revision !== revision",
                    arg=revision, timeout=LIVE_PATIENCE * 1000)
                delays.append(time.perf_counter() - start)
            except timeout_error:
                delays.append(math.inf)
            scorer.wait_for_load_state()
        return delays
    finally:
        scorer_context.close()
        watcher_context.close()


# --- The table -------------------------------------------------------------------


class Report:
    """The one table, and whether each budget was met."""

    COLUMNS = ("measure", "median", "min - max", "x trivial", "note", "budget", "met")

    def __init__(self):
        self.rows = []
        self.verdicts = {}

    def section(self, title):
        self.rows.append((title,))

    def row(self, measure, median="", spread="", ratio="", note="", budget="", met=None, counts_for=None):
        """One row; a budget named in ``counts_for`` is met only if all its rows are."""
        if counts_for is not None:
            self.verdicts[counts_for] = self.verdicts.get(counts_for, True) and met
        self.rows.append(("  " + measure, median, spread, ratio, note, budget,
                          {True: "yes", False: "NO", None: ""}[met]))

    def render(self):
        cells = [row for row in self.rows if len(row) > 1]
        widths = [max(len(str(row[column])) for row in [self.COLUMNS, *cells]) for column in range(len(self.COLUMNS))]
        lines = ["  ".join(name.ljust(width) for name, width in zip(self.COLUMNS, widths)).rstrip()]
        lines.append("  ".join("-" * width for width in widths))
        for row in self.rows:
            if len(row) == 1:
                lines.append(row[0])
            else:
                lines.append("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
        return "\n".join(lines)

    def summary(self):
        """Which budgets were met, missed or skipped."""
        lines = []
        for key, text in BUDGETS.items():
            verdict = self.verdicts.get(key)
            word = "met" if verdict else "MISSED" if verdict is False else "skipped"
            lines.append(f"  {word:7}  {text}")
        met = sum(1 for verdict in self.verdicts.values() if verdict)
        checked = sum(1 for verdict in self.verdicts.values() if verdict is not None)
        return f"Budgets met: {met} of {checked} checked.\n" + "\n".join(lines)


def ms(seconds):
    value = seconds * 1000
    return f"{value:.3g} ms" if value < 100 else f"{value:.0f} ms"


def seconds(value):
    return f"never (> {LIVE_PATIENCE} s)" if value == math.inf else f"{value:.2f} s"


def ms_range(spread):
    return f"{ms(spread.low)} - {ms(spread.high)}"


def kilobytes(size):
    return f"{size / KB:.1f} KB"


def report_times(report, timings, settings):
    """Section 1: server time per request, as ratios to the trivial route."""
    report.section(f"1. Server time per request over keep-alive HTTP (rounds: {settings.rounds})")
    rows = [  # label, what, the most x trivial allowed, the budget it counts for
        ("trivial", f"GET {TRIVIAL} (baseline)", None, None),
        ("table", "table view, long game (scorer)", 3.0, "table"),
        ("watch", "read-only view /watch, long game", None, None),
        ("state 200", "live state, 200", 1.5, "state"),
        ("state 304", "live state, 304 (If-None-Match)", 1.5, "state"),
        ("record", "record a hand (POST, scorer)", None, None),
        ("settle", "settle a trick (/settle.json, 11 cards)", None, None),
        ("export", "export.json, long game", None, None),
    ]
    for label, measure, most, key in rows:
        time_taken, ratio = timings.spread(label), timings.ratio(label)
        report.row(measure, ms(time_taken.median), ms_range(time_taken), f"{ratio:.2f}x",
                   budget="" if most is None else f"<= {most:g}x", met=None if most is None else ratio <= most,
                   counts_for=key)


def report_growth(report, timings, settings):
    """Section 4: the table view's time for games of growing length; per hand it must not rise."""
    report.section("4. Growth: table view (scorer) by game length")
    per_hand = [timings.ratio(f"growth {hands}") / hands for hands in settings.growth]
    for index, hands in enumerate(settings.growth):
        time_taken = timings.spread(f"growth {hands}")
        budget, met = "", None
        if index:
            budget, met = "per hand <= 1.25x the size before", per_hand[index] <= 1.25 * per_hand[index - 1]
        report.row(f"table view, {hands} hands", ms(time_taken.median), ms_range(time_taken),
                   f"{timings.ratio(f'growth {hands}'):.2f}x", f"{ms(time_taken.median / hands)} per hand",
                   budget, met)
    first, last = settings.growth[0], settings.growth[-1]
    step = (timings.spread(f"growth {last}").median - timings.spread(f"growth {first}").median) / (last - first)
    report.row(f"cost of one more hand ({first} to {last} hands)", ms(step),
               note="the per-hand checks compare x trivial / hands")


def report_statements(report, counts):
    """Section 2: SQL statements per page for 4 and 40 hands."""
    report.section(f"2. SQL statements per page (in-process, test client), {SHORT_HANDS} / {LONG_HANDS} hands")
    for page, (short, long) in counts.items():
        met = short == long and long <= 6
        report.row(page, f"{short} / {long}", note="" if short == long else "grows with hands",
                   budget="constant, <= 6", met=met, counts_for="sql")


def report_bytes(report, load, unchanged, changed, refetched, hands):
    """Section 3: bytes of the first load and of live-update polls."""
    report.section("3. Bytes sent (bodies; polls include status line and headers)")
    report.row("table view first load, long game (scorer)", kilobytes(load.total), note="HTML + CSS + JS",
               budget="<= 30 KB uncompressed", met=load.total <= 30 * KB, counts_for="first load")
    report.row("  of which HTML", kilobytes(len(load.html)), note=f"inline SVG {kilobytes(load.inline_svg)}")
    report.row("  of which CSS", kilobytes(load.kind(".css")), note=", ".join(load.named(".css")))
    report.row("  of which JS", kilobytes(load.kind(".js")), note=", ".join(load.named(".js")))
    report.row("  the same, gzipped (level 6, each file)", kilobytes(load.gzipped))
    closes = unchanged.header("Connection") == "close"
    report.row("live poll, nothing changed (304)", f"{unchanged.sent_bytes} B",
               note=f"{len(unchanged.headers)} headers" + ("; Connection: close, so every poll reconnects"
                                                          if closes else ""),
               budget="<= 300 B", met=unchanged.sent_bytes <= 300, counts_for="unchanged poll")
    report.row("live poll, a hand was added (200 JSON)", f"{changed.sent_bytes} B", note=f"body {len(changed.body)} B")
    report.row(f"then the page live.js refetches (/watch, {hands} hands)", kilobytes(len(refetched.body)),
               note=f"gzip {kilobytes(len(gzip.compress(refetched.body, compresslevel=6)))}")


def report_load(report, load, settings):
    """Section 1, continued: eleven phones polling."""
    latency = Spread.of(load.latencies)
    statuses = ", ".join(f"{count} x {status}" for status, count in sorted(load.statuses.items()))
    report.row(f"{LIVE_CLIENTS} phones polling every {POLL_EVERY:g} s with ETag, {settings.poll_seconds:g} s",
               ms(latency.median), ms_range(latency),
               note=f"{load.requests / load.seconds:.1f} requests/s; {statuses}")
    share = load.cpu_seconds / load.seconds
    report.row("  server CPU meanwhile", f"{share:.1%} of a core",
               note=f"{load.requests / max(load.cpu_seconds, 1e-9):.0f} polls per CPU-second")



def live_js_poll_seconds():
    """How often the pages' own script (static/live.js) asks for the live state."""
    with open(os.path.join(REPOSITORY, "static", "live.js"), encoding="utf-8") as live_js:
        script = live_js.read()
    return int(re.search(r"var EVERY = (\d+);", script).group(1)) / 1000

def report_browser(report, figures):
    """Section 6: the browser figures."""
    report.section(f"6. In headless Chromium ({CHROMIUM})")
    if figures is None:
        report.row("skipped: no chromium")
        return
    delays, paints = Spread.of(figures.live_delays), Spread.of(figures.first_paints)
    report.row("Save on the hand form -> change shown on /watch", seconds(delays.median),
               f"{seconds(delays.low)} - {seconds(delays.high)}",
               note=f"saves: {len(figures.live_delays)}; /watch polls every {live_js_poll_seconds():g} s",
               budget="<= 2.5 s, every save", met=delays.high <= 2.5, counts_for="live update")
    report.row(f"first contentful paint, table view, CPU {CPU_SLOWDOWN}x slower", ms(paints.median),
               ms_range(paints), note="phone viewport, cold cache, long game")


# --- Running it all ------------------------------------------------------------------


def machine():
    """Date, Python, CPU model and cores, and the app's commit."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPOSITORY,
                            capture_output=True, text=True).stdout.strip() or "unknown"
    return (f"{datetime.now().astimezone():%Y-%m-%d %H:%M:%S %z} · Python {platform.python_version()} · "
            f"{model} · {os.cpu_count()} cores · app at {commit}")


def progress(message):
    """A line on standard error while the run goes on."""
    print(f"... {time.monotonic() - STARTED:5.1f} s  {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Results:
    """Everything measured, ready for the table."""

    port: int
    statements: dict[str, list[int]]
    first_load: FirstLoad
    polls: tuple[Reply, Reply, Reply]  # unchanged, changed, the page refetched
    refetched_hands: int
    timings: Timings
    polling: PollLoad
    browser: BrowserFigures | None
    peak_memory: int


def measure(settings):
    """Fill a temporary database, count statements in-process, then serve it and measure the rest."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        database_uri = f"sqlite:///{os.path.join(folder, 'bench.sqlite')}"
        app = create_app(app_config(database_uri))
        progress("generating and importing games")
        games = fill_database(app, settings)
        progress("counting SQL statements")
        statements = count_statements(app, games)
        with app.app_context():
            db.engine.dispose()
        with running_server(database_uri, folder) as server:
            progress(f"serving on 127.0.0.1:{server.port}")
            return measure_served(server, games, statements, settings)


def measure_served(server, games, statements, settings):
    """Everything measured through the running server."""
    cookie = scorer_cookie(server.port, games)
    watcher, scorer = Client(server.port), Client(server.port, cookie)
    try:
        recorder = HandRecorder(scorer, games["record"])
        load = first_load(scorer, f"/games/{games['long'].id}")
        polls = poll_replies(watcher, recorder, games)
        refetched_hands = recorder.number - 1
        progress("timing requests")
        measured = time_rounds(timings(games, settings, watcher, scorer, recorder), lambda: watcher.get(TRIVIAL),
                              settings)
        etag = watcher.get(f"/games/{games['long'].id}/state").header("ETag")
    finally:
        watcher.close()
        scorer.close()
    progress(f"{LIVE_CLIENTS} phones polling")
    polling = poll_load(server, f"/games/{games['long'].id}/state", etag, settings.poll_seconds)
    progress("in the browser")
    figures = browser_figures(server.port, games["long"], cookie, settings.rounds)
    return Results(server.port, statements, load, polls, refetched_hands, measured, polling, figures,
                   server.peak_memory())


def build_report(results, settings):
    """The table, section by section."""
    report = Report()
    report_times(report, results.timings, settings)
    report_load(report, results.polling, settings)
    report_statements(report, results.statements)
    report_bytes(report, results.first_load, *results.polls, results.refetched_hands)
    report_growth(report, results.timings, settings)
    report.section("5. Memory")
    report.row("peak resident memory of the server process (VmHWM)", f"{results.peak_memory / KB / KB:.1f} MB")
    report_browser(report, results.browser)
    return report


def notes(results, settings):
    """What the figures are, printed above the table."""
    return [
        f"Server: waitress ({THREADS} threads) in a subprocess on 127.0.0.1:{results.port}, "
        "fresh SQLite database in a temporary folder.",
        f"Baseline 'trivial': GET {TRIVIAL}, a view returning \"ok\" that this benchmark registers on its "
        "own app object before serving (not part of the app).",
        f"Games: 11 players, never ending; the long game has {LONG_HANDS} hands, every second one with a "
        "trick log. Record-a-hand runs on another such game, one hand more per request.",
        f"Timings: median, min and max over {settings.rounds} round(s) of the median request in a burst of "
        f">= {settings.round_seconds:g} s (>= {settings.least_requests} requests) on a keep-alive http.client "
        f"connection; x trivial: median over rounds of the ratio to a {settings.baseline_seconds:g} s burst of "
        "the trivial route just before. 1 KB = 1024 bytes.",
    ]


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and one round (CI)")
    parser.add_argument("--rounds", type=int, help="rounds of every timing (default 5, 1 with --quick)")
    parser.add_argument("--serve", metavar="DATABASE_URI", help=argparse.SUPPRESS)
    return parser.parse_args()


def stop(signal_number, _frame):
    """SIGTERM (a cancelled CI job) unwinds like Ctrl+C, so the server and browser are stopped."""
    raise SystemExit(128 + signal_number)


def main():
    arguments = parse_arguments()
    if arguments.serve:
        serve(arguments.serve)
        return 0
    signal.signal(signal.SIGTERM, stop)
    settings = QUICK if arguments.quick else NORMAL
    if arguments.rounds:
        settings = replace(settings, rounds=max(1, arguments.rounds))
    header = machine()
    results = measure(settings)
    report = build_report(results, settings)
    print(f"Scorekeeper benchmark{' (quick)' if arguments.quick else ''} · {header}")
    print("\n".join(notes(results, settings)))
    print()
    print(report.render())
    print()
    print(report.summary())
    print(f"Whole run: {time.monotonic() - STARTED:.0f} s. Exit code 0 whatever the budgets: a benchmark, not a test.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
