"""What is measured, and how: SQL statements in-process; timings in rounds of bursts, live polls and bytes over HTTP."""

import gzip
import re
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import event

from bench.server import TRIVIAL, Client, checked_status
from scorekeeper.models import db

SETTLE = "/settle.json?cards=10S,9H,9H,10S,QS,KD,2C,AH,AH,3S,JD"
LIVE_CLIENTS = 11
POLL_EVERY = 2.0
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


def time_requests(games, settings, watcher, scorer, recorder):
    """Every timing, in rounds, against the trivial route."""
    return time_rounds(timings(games, settings, watcher, scorer, recorder), lambda: watcher.get(TRIVIAL), settings)


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
