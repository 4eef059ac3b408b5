"""A club night: many tables at once, each with a scorer recording a hand every 20 s and phones watching.

``python bench/club.py`` serves the app as `flask serve` does, in a
subprocess on 127.0.0.1, and plays a club night against it for a bounded
time: per table, one scorer's phone records a hand every 20 s (the form,
the POST, the table view it is sent back to) and ten phones poll the live
state every 1.5 s as ``static/live.js`` does, fetching the watch page when
it changed. Two setups: (a) one waitress process on SQLite, always; (b)
gunicorn workers on PostgreSQL, when ``--postgres URL`` names a server
database beside which a fresh one may be created (as
``SCOREKEEPER_TEST_DATABASE`` does for the tests).

It prints, per setup, requests per second, p50/p95/p99 latency per kind of
request as the phones saw it, errors, the server's CPU and memory, and
checks afterwards that every hand acknowledged (302) is stored exactly once.
The phones are asyncio tasks in this one process, sharing the machine with
the server: their latencies include waiting for this process's CPU too.
The phones arrive over the first 10 s (a third of a shorter run); every
request is counted, the first visits included.
Exit code 0 whatever the budgets: a benchmark, not a test.
"""

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlencode

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import REPOSITORY  # noqa: E402
from bench.games import never_ending_game  # noqa: E402
from bench.proc import CpuClock, group_processes, resident_memory  # noqa: E402
from bench.server import migrated_app  # noqa: E402
from scorekeeper.db.models import Hand, db  # noqa: E402
from tests.tabletop import ELEVEN, form_fields, hand_form, random_taken, store_games  # noqa: E402

HAND_EVERY = 20.0  # seconds between a table's hands, as the club night has it
POLL_EVERY = 1.5  # static/live.js
PHONES = 10  # watching phones a table, beside the scorer's
STARTING_HANDS = 10
P95_BUDGET = 0.050
START_SECONDS = 30
ARRIVING = 10.0  # seconds over which the phones open the page: a club's tables do not all sit down in one poll


def table_mix(phones=PHONES):
    """The requests one table makes a second, by kind, as this club night plays it (the benchmark's
    projection weighs the CPU of each kind by them): once a hand the scorer's hand form, save and table
    view, and for each phone a poll that answers 200 and a /watch that one phone renders and the others
    find kept; every other poll is a 304."""
    hand = 1 / HAND_EVERY
    return {
        "hand form": hand,
        "save a hand (POST)": hand,
        "table view, first view after the hand": hand,
        "watch page, first view after the hand": hand,
        "watch page, kept": (phones - 1) * hand,
        "live state poll, 200": phones * hand,
        "live state poll, 304": phones / POLL_EVERY - phones * hand,
    }


# --- A minimal HTTP/1.1 client on asyncio streams, keeping its connection -----------------------


class Phone:
    """One phone's keep-alive connection to the server, with its session cookie."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None
        self.cookie = None

    async def request(self, method, path, headers=None, body=b""):
        """Send one request; its status, headers (lower-case names) and body.

        As a browser does, a request on a kept connection that the server
        closed meanwhile (its keep-alive ran out) is sent again on a new one.
        """
        if self.writer is not None:
            try:
                return await self._exchange(method, path, headers, body)
            except (ConnectionError, asyncio.IncompleteReadError) as error:
                if getattr(error, "answered", False):
                    raise
                self.close()
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return await self._exchange(method, path, headers, body)

    async def _exchange(self, method, path, headers, body):
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip"]
        if self.cookie:
            head.append(f"Cookie: {self.cookie}")
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body:
            head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        try:
            return await self._rest(method, status)
        except (ConnectionError, asyncio.IncompleteReadError) as error:
            error.answered = True  # the server began to answer: not a closed idle connection
            raise

    async def _rest(self, method, status):
        received = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            received[name.strip().lower()] = value.strip()
        if "set-cookie" in received:
            self.cookie = received["set-cookie"].split(";", 1)[0]
        if status in (204, 304) or method == "HEAD":
            content = b""
        elif "content-length" in received:
            content = await self.reader.readexactly(int(received["content-length"]))
        else:
            content = await self.reader.read()
        if received.get("connection", "").lower() == "close" or "content-length" not in received and content:
            self.close()
        return status, received, content

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- What the phones saw -----------------------------------------------------------------


@dataclass
class Seen:
    """Latencies by kind of request, errors, and the hands each table's scorer had acknowledged."""

    latencies: dict = field(default_factory=lambda: defaultdict(list))
    errors: list = field(default_factory=list)
    acknowledged: dict = field(default_factory=lambda: defaultdict(list))  # game id -> hand numbers

    async def timed(self, kind, phone, method, path, expected, **options):
        """One request, timed under ``kind``; an answer other than ``expected`` is an error."""
        started = time.perf_counter()
        try:
            status, headers, content = await phone.request(method, path, **options)
        except (OSError, asyncio.IncompleteReadError, ConnectionError, ValueError) as error:
            phone.close()
            self.errors.append(f"{kind}: {type(error).__name__}: {error}")
            return None
        self.latencies[kind].append(time.perf_counter() - started)
        if status not in expected:
            self.errors.append(f"{kind}: {method} {path} answered {status}")
            return None
        return status, headers, content


async def watcher(seen, port, game_id, arrival, until):
    """A phone showing /watch from ``arrival`` s on: polls the state with its ETag, fetches the page when changed."""
    phone = Phone(port)
    etag = None
    await asyncio.sleep(arrival)
    while time.monotonic() < until:
        headers = {"If-None-Match": etag} if etag else {}
        answer = await seen.timed("live state poll", phone, "GET", f"/games/{game_id}/state", (200, 304),
                                  headers=headers)
        if answer and answer[0] == 200:
            etag = answer[1].get("etag")
            await seen.timed("watch page (after a change)", phone, "GET", f"/games/{game_id}/watch", (200,))
        await asyncio.sleep(POLL_EVERY)
    phone.close()


async def scorer(seen, port, game_id, key, until):
    """The scorer's phone: becomes scorer, then records a hand every ``HAND_EVERY`` seconds."""
    phone = Phone(port)
    rng = random.Random(game_id)
    await seen.timed("scorer link", phone, "GET", f"/games/{game_id}/scorer/{key}", (302,))
    await pause(rng.uniform(0, HAND_EVERY), until)
    while time.monotonic() < until:
        form = await seen.timed("hand form", phone, "GET", f"/games/{game_id}/hands/new", (200,))
        if form:
            fields = form_fields(decoded(form))
            number = int(fields["number"])
            taken = [(seat.hearts, seat.marias) for seat in random_taken(rng, len(ELEVEN))]
            body = urlencode({**fields, **hand_form(taken, number)}).encode()
            if await seen.timed("save a hand (POST)", phone, "POST", f"/games/{game_id}/hands/new", (302,),
                                body=body):
                seen.acknowledged[game_id].append(number)
                await seen.timed("table view (scorer)", phone, "GET", f"/games/{game_id}", (200,))
        await pause(HAND_EVERY, until)
    phone.close()


async def pause(seconds, until):
    """Sleep ``seconds``, or until the night ends if that comes first."""
    await asyncio.sleep(max(0.0, min(seconds, until - time.monotonic())))


def decoded(answer):
    import gzip

    _status, headers, content = answer
    return (gzip.decompress(content) if headers.get("content-encoding") == "gzip" else content).decode()


async def club_night(port, games, phones, seconds):
    """Every table's scorer and watching phones, for ``seconds``; the phones arrive over the first ``ARRIVING``."""
    seen = Seen()
    until = time.monotonic() + seconds
    arriving = min(ARRIVING, seconds / 3)
    tasks = []
    for game_id, key in games:
        tasks.append(scorer(seen, port, game_id, key, until))
        tasks += [watcher(seen, port, game_id, random.uniform(0, arriving), until) for _phone in range(phones)]
    await asyncio.gather(*tasks)
    return seen


# --- The server and its database ---------------------------------------------------------


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(database_uri, workers, folder):
    """`flask --app scorekeeper serve` on 127.0.0.1 with ``workers`` processes; stopped at the end."""
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith("FLASK_")}
    env.update(FLASK_SQLALCHEMY_DATABASE_URI=database_uri, FLASK_SECRET_KEY="club night secret key")
    log = open(os.path.join(folder, f"server-{workers}.log"), "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers)],
        cwd=REPOSITORY, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start; see {log.name}") from None
                time.sleep(0.1)
        yield port, process
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def fill(database_uri, tables):
    """``tables`` 11-player games of ``STARTING_HANDS`` hands each; their (id, scorer key)."""
    app = migrated_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "club night secret key"})
    documents = [never_ending_game(f"Table {table}", STARTING_HANDS, table) for table in range(1, tables + 1)]
    games = store_games(app, documents)
    with app.app_context():
        db.engine.dispose()
    return games


def stored_hands(database_uri):
    """Each game's stored hand numbers, in order."""
    app = migrated_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "club night secret key"})
    with app.app_context():
        rows = db.session.execute(db.select(Hand.game_id, Hand.number).order_by(Hand.game_id, Hand.number)).all()
        db.engine.dispose()
    numbers = defaultdict(list)
    for game_id, number in rows:
        numbers[game_id].append(number)
    return numbers


# --- One setup, measured and checked ---------------------------------------------------------


@dataclass
class Night:
    """One setup's club night: what the phones saw, what the server spent, what the database holds."""

    setup: str
    seconds: float
    seen: Seen
    cpu: float
    phones_cpu: float  # this process's: the load generator's share of the machine
    memory: int
    lost_or_doubled: list


def run_setup(setup, database_uri, workers, settings, folder):
    games = fill(database_uri, settings.tables)
    with served(database_uri, workers, folder) as (port, process):
        server_cpu = CpuClock(lambda: group_processes(process.pid))  # every thread of every worker
        cpu_before, phones_cpu_before = server_cpu.seconds(), time.process_time()
        started = time.monotonic()
        seen = asyncio.run(club_night(port, games, settings.phones, settings.seconds))
        elapsed = time.monotonic() - started
        cpu, phones_cpu = server_cpu.seconds() - cpu_before, time.process_time() - phones_cpu_before
        memory = resident_memory(group_processes(process.pid))
    stored = stored_hands(database_uri)
    lost_or_doubled = []
    for game_id, _key in games:
        acknowledged = seen.acknowledged[game_id]
        expected = list(range(1, STARTING_HANDS + len(acknowledged) + 1))
        if stored[game_id] != expected or len(set(acknowledged)) != len(acknowledged):
            lost_or_doubled.append(f"game {game_id}: stored {stored[game_id][STARTING_HANDS:]}, "
                                   f"acknowledged {acknowledged}")
    return Night(setup, elapsed, seen, cpu, phones_cpu, memory, lost_or_doubled)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(night, settings):
    seen = night.seen
    count = sum(len(values) for values in seen.latencies.values())
    print(f"\n{night.setup}: {settings.tables} tables x (1 scorer + {settings.phones} phones), "
          f"{night.seconds:.0f} s")
    print(f"  {count} requests, {count / night.seconds:.0f} requests/s; server CPU {night.cpu:.1f} s "
          f"({100 * night.cpu / night.seconds:.0f}% of one core); server memory now {night.memory / 2**20:.0f} MB")
    print(f"  the phones (this process) used {night.phones_cpu:.1f} s of CPU "
          f"({100 * night.phones_cpu / night.seconds:.0f}% of one core) on the same {os.cpu_count()} cores")
    print(f"  {'kind':34} {'count':>7} {'p50':>9} {'p95':>9} {'p99':>9}")
    worst_p95 = 0.0
    for kind, values in sorted(seen.latencies.items()):
        p95 = percentile(values, 0.95)
        worst_p95 = max(worst_p95, p95)
        print(f"  {kind:34} {len(values):7} {1000 * statistics.median(values):7.1f}ms "
              f"{1000 * p95:7.1f}ms {1000 * percentile(values, 0.99):7.1f}ms")
    hands = sum(len(numbers) for numbers in seen.acknowledged.values())
    print(f"  errors: {len(seen.errors)}" + "".join(f"\n    {error}" for error in seen.errors[:10]))
    print(f"  hands acknowledged: {hands}; stored once each: "
          + ("yes" if not night.lost_or_doubled else "NO: " + "; ".join(night.lost_or_doubled[:5])))
    met = not seen.errors and worst_p95 <= P95_BUDGET and not night.lost_or_doubled
    print(f"  budget: 0 errors, p95 <= {1000 * P95_BUDGET:.0f} ms for every kind, every hand stored once: "
          + ("met" if met else f"MISSED (worst p95 {1000 * worst_p95:.1f} ms)"))


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--phones", type=int, default=PHONES, help="watching phones per table, beside the scorer")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers of the PostgreSQL setup")
    parser.add_argument("--postgres", help="a PostgreSQL URL beside which a fresh database is made for (b)")
    return parser.parse_args()


def main():
    settings = parse_arguments()
    print(f"Club night · {time.strftime('%Y-%m-%d %H:%M:%S %z')} · {os.cpu_count()} cores · "
          f"a hand every {HAND_EVERY:.0f} s per table, polls every {POLL_EVERY} s")
    with tempfile.TemporaryDirectory(prefix="scorekeeper-club-") as folder:
        sqlite = f"sqlite:///{os.path.join(folder, 'club.sqlite')}"
        report(run_setup("(a) waitress, 1 process, SQLite", sqlite, 1, settings, folder), settings)
        if settings.postgres:
            from tests.conftest import fresh_server_database

            with fresh_server_database(settings.postgres) as url:
                night = run_setup(f"(b) gunicorn, {settings.workers} workers, PostgreSQL", url, settings.workers,
                                  settings, folder)
            report(night, settings)
        else:
            print("\n(b) gunicorn on PostgreSQL: skipped (no --postgres URL)")


if __name__ == "__main__":
    main()
