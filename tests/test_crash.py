"""Real server processes: killed with SIGKILL while hands are recorded, racing each other for one hand, and
stopped cleanly (Ctrl+C, SIGTERM), after which the SQLite file alone holds every hand.

End to end: `flask serve` on 127.0.0.1 (waitress, or gunicorn with several
workers), a scorer recording hands over HTTP exactly as a browser does (GET
the form, POST it, follow nothing), and the database read directly
afterwards. On SQLite, and on the server database
``SCOREKEEPER_TEST_DATABASE`` names when it is set (but the clean stop, which
is about SQLite's file).
"""

import http.client
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from .conftest import SERVER_DATABASE
from .tabletop import SIX, form_fields, game_form, hand_form

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")

REPOSITORY = Path(__file__).resolve().parents[1]
SECRET_KEY = "crash test secret key"  # fixed, so the scorer's session survives restarts
ROUNDS = 3  # run, SIGKILL, restart; then one last SIGKILL before the database is read (a restart costs 2-3 s)
RUN_SECONDS = (0.5, 1.5)
START_SECONDS = 15  # for a (re)started server to answer
REQUEST_SECONDS = 5
HEARTS = [5, 5, 4, 4, 4, 4]
MARIAS = [0, 1, 0, 1, 0, 0]
# What a dying server looks like to the client: refused, reset, cut short, silent.
CONNECTION_LOST = (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError)


def taken_in_hand(number):
    """Hand ``number``'s (hearts, marias) by seat: a valid hand, rotated so each hand shows its number."""
    shift = number % len(SIX)
    return list(zip(HEARTS[shift:] + HEARTS[:shift], MARIAS[shift:] + MARIAS[:shift]))


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class KeepEveryResponse(urllib.request.HTTPErrorProcessor):
    """Hand back every response as it came: a 302 is an answer, not something to follow."""

    def http_response(self, request, response):
        return response

    https_response = http_response


def browser():
    """A urllib opener with a cookie jar that follows no redirect and ignores any proxy settings."""
    return urllib.request.build_opener(
        urllib.request.ProxyHandler({}),
        urllib.request.HTTPCookieProcessor(CookieJar()),
        KeepEveryResponse(),
    )


def fetch(opener, url):
    """GET ``url``: its status and page."""
    with opener.open(url, timeout=REQUEST_SECONDS) as response:
        return response.status, response.read().decode()


def submit(opener, url, fields):
    """POST a form: the status is the answer (a 302 means the write was acknowledged)."""
    request = urllib.request.Request(url, data=urlencode(fields).encode())
    with opener.open(request, timeout=REQUEST_SECONDS) as response:
        return response.status


class Server:
    """`flask --app scorekeeper serve` on 127.0.0.1, started and SIGKILLed at will (all its processes)."""

    def __init__(self, database_uri, log_path, workers=1):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.env = {name: value for name, value in os.environ.items() if not name.startswith("FLASK_")}
        self.env.update(FLASK_SQLALCHEMY_DATABASE_URI=database_uri, FLASK_SECRET_KEY=SECRET_KEY)
        self.process = None
        self.prober = browser()

    def start(self):
        """Start the server and wait until it answers."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "scorekeeper", "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--workers", str(self.workers)],
            cwd=REPOSITORY, env=self.env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a kill takes gunicorn's workers too
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                status, _page = fetch(self.prober, self.url + "/")
            except CONNECTION_LOST:
                time.sleep(0.05)
                continue
            assert status == 200, f"the server answers / with {status}:\n{self.log_tail()}"
            return
        pytest.fail(f"the server did not answer within {START_SECONDS} s:\n{self.log_tail()}")

    def kill(self):
        """SIGKILL to every process of the server at once, as a power cut: no shutdown, no flush, no cleanup."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)

    def stop(self, signal_number):
        """Send ``signal_number`` to the server's processes, as a terminal's Ctrl+C (SIGINT) or a service
        manager (SIGTERM) does, and wait for it to exit; its exit status."""
        os.killpg(self.process.pid, signal_number)
        try:
            return self.process.wait(timeout=START_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"the server did not stop within {START_SECONDS} s of signal {signal_number}:\n"
                        f"{self.log_tail()}")

    def log_tail(self):
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]

    def close(self):
        self.kill()
        self.log.close()


class Scorer(threading.Thread):
    """Records the next hand again and again, as the scorer's browser would."""

    def __init__(self, opener, url, game_id):
        super().__init__(daemon=True)
        self.opener = opener
        self.form_url = f"{url}/games/{game_id}/hands/new"
        self.stopping = threading.Event()
        self.acknowledged = []  # numbers of the hands whose POST got its 302
        self.in_doubt = 0  # POSTs whose connection died before any answer
        self.in_doubt_committed = 0  # ... of which the next form showed the hand as recorded
        self.failure = None

    def run(self):
        doubtful = None  # the number of the last POST that got no answer
        try:
            while not self.stopping.is_set():
                try:
                    status, page = fetch(self.opener, self.form_url)
                except CONNECTION_LOST:
                    time.sleep(0.02)
                    continue
                assert status == 200, f"the hand form answered {status}"
                fields = form_fields(page)
                number = int(fields["number"])
                if self.acknowledged:
                    assert number > self.acknowledged[-1], (
                        f"the form offers hand {number} after hand {self.acknowledged[-1]} was acknowledged")
                if doubtful is not None:
                    assert number in (doubtful, doubtful + 1), f"hand {number} offered after hand {doubtful}"
                    self.in_doubt_committed += number == doubtful + 1
                    doubtful = None
                fields.update(hand_form(taken_in_hand(number), number))
                try:
                    status = submit(self.opener, self.form_url, fields)
                except CONNECTION_LOST:
                    self.in_doubt += 1
                    doubtful = number
                    continue
                assert status == 302, f"hand {number} was answered {status}, not 302"
                self.acknowledged.append(number)
        except BaseException as error:  # handed to the test, which fails with it
            self.failure = error

    def stop(self):
        self.stopping.set()
        self.join(timeout=2 * REQUEST_SECONDS + 1)
        assert not self.is_alive(), "the scorer did not stop"
        if self.failure is not None:
            raise self.failure


@pytest.fixture(params=[1, 2], ids=["waitress", "gunicorn, 2 workers"])
def server(request, database_uri, tmp_path):
    """A server on a fresh database, one process or several; always killed at the end."""
    served = Server(database_uri, tmp_path / "server.log", workers=request.param)
    yield served
    served.close()


def create_game(opener, url):
    """A six-player game that never ends; its id (the cookie jar now holds its scorer key)."""
    status, page = fetch(opener, url + "/games/new")
    assert status == 200
    fields = {**game_form(SIX, target=100000, name="Crash"), "csrf_token": form_fields(page)["csrf_token"]}
    request = urllib.request.Request(url + "/games/new", data=urlencode(fields).encode())
    with opener.open(request, timeout=REQUEST_SECONDS) as response:
        assert response.status == 302
        return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def wait_for_new_hand(scorer, seen, seconds):
    """Wait until the scorer has had a hand acknowledged beyond the first ``seen``."""
    deadline = time.monotonic() + seconds
    while len(scorer.acknowledged) <= seen and scorer.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(scorer.acknowledged) > seen or scorer.failure, f"no hand acknowledged within {seconds} s"


def read_database(database_uri):
    """Everything the checks need, straight from the database (SQLite replays the WAL on opening).

    SQLite's own checks say whether the file is whole and no row points
    nowhere; PostgreSQL enforces its foreign keys at every commit itself.
    """
    engine = create_engine(database_uri)
    try:
        with engine.connect() as connection:
            integrity, dangling = [("ok",)], []
            if make_url(database_uri).get_backend_name() == "sqlite":
                integrity = [tuple(row) for row in connection.execute(text("PRAGMA integrity_check"))]
                dangling = [tuple(row) for row in connection.execute(text("PRAGMA foreign_key_check"))]
            (game_id, revision), = connection.execute(text("SELECT id, revision FROM game")).all()
            hands = [tuple(row) for row in connection.execute(text(
                "SELECT id, number, uncollected_hearts, uncollected_marias FROM hand WHERE game_id = :game "
                "ORDER BY number"), {"game": game_id})]
            takings = {
                hand_id: [tuple(row) for row in connection.execute(text(
                    "SELECT seat, hearts, marias FROM taking WHERE hand_id = :hand ORDER BY seat"), {"hand": hand_id})]
                for hand_id, *_rest in hands
            }
        return integrity, dangling, revision, hands, takings
    finally:
        engine.dispose()


def test_hands_acknowledged_before_a_kill_survive_it_whole(server, database_uri):
    scorer_browser = browser()
    server.start()
    game_id = create_game(scorer_browser, server.url)
    scorer = Scorer(scorer_browser, server.url, game_id)
    scorer.start()
    kills = 0
    try:
        for round_number in range(ROUNDS + 1):
            seen = len(scorer.acknowledged)
            time.sleep(random.uniform(*RUN_SECONDS))
            wait_for_new_hand(scorer, seen, seconds=10)  # kill only while hands are being recorded
            server.kill()
            kills += 1
            if round_number < ROUNDS:  # the last kill is followed by reading the file
                server.start()
    finally:
        scorer.stop()
    server.kill()

    integrity, dangling, revision, hands, takings = read_database(database_uri)
    numbers = [number for _id, number, *_counts in hands]
    acknowledged = scorer.acknowledged

    assert integrity == [("ok",)]
    assert dangling == []
    assert numbers == list(range(1, len(hands) + 1)), "hand numbers have gaps"
    assert revision == 1 + len(hands), "the game's revision moved without its hand, or the other way round"
    for hand_id, number, uncollected_hearts, uncollected_marias in hands:
        rows = takings[hand_id]
        assert [seat for seat, _hearts, _marias in rows] == list(range(len(SIX))), f"hand {number} is partial"
        assert sum(hearts for _seat, hearts, _marias in rows) + uncollected_hearts == 26
        assert sum(marias for _seat, _hearts, marias in rows) + uncollected_marias == 2
        assert [(hearts, marias) for _seat, hearts, marias in rows] == taken_in_hand(number)
    assert len(set(acknowledged)) == len(acknowledged), "a hand number was acknowledged twice"
    assert set(acknowledged) <= set(numbers), f"acknowledged hands lost: {sorted(set(acknowledged) - set(numbers))}"
    assert len(acknowledged) <= len(hands) <= len(acknowledged) + scorer.in_doubt
    print(f"crash: {server.workers} server process(es), {kills} kills survived,"
          f" {len(acknowledged)} acknowledged hands all present"
          f" ({len(hands)} recorded; {scorer.in_doubt} POSTs cut off by a kill,"
          f" {scorer.in_doubt_committed} of them committed)")


RACES = 8


def race(posts):
    """Send the POSTs at the same moment, one thread each; their statuses in the order given."""
    start = threading.Barrier(len(posts))
    statuses = [None] * len(posts)

    def send(index, opener, url, fields):
        start.wait()
        statuses[index] = submit(opener, url, fields)

    threads = [threading.Thread(target=send, args=(index, *post)) for index, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * REQUEST_SECONDS)
    return statuses


def test_two_server_processes_racing_for_one_hand_record_it_once(database_uri, tmp_path):
    servers = [Server(database_uri, tmp_path / f"server {number}.log") for number in (1, 2)]
    try:
        for served in servers:
            served.start()
        scorers = [browser(), browser()]
        game_id = create_game(scorers[0], servers[0].url)
        engine = create_engine(database_uri)
        with engine.connect() as connection:
            key = connection.execute(text("SELECT scorer_key FROM game")).scalar_one()
        engine.dispose()
        status, _page = fetch(scorers[1], f"{servers[1].url}/games/{game_id}/scorer/{key}")  # the second scorer
        assert status == 302

        outcomes = []
        for number in range(1, RACES + 1):
            posts = []
            for opener, served in zip(scorers, servers):
                url = f"{served.url}/games/{game_id}/hands/new"
                _status, page = fetch(opener, url)
                fields = form_fields(page)
                assert int(fields["number"]) == number
                posts.append((opener, url, {**fields, **hand_form(taken_in_hand(number), number)}))
            outcomes.append(sorted(race(posts)))
    finally:
        for served in servers:
            served.close()

    integrity, dangling, revision, hands, takings = read_database(database_uri)

    assert outcomes == [[302, 409]] * RACES, "each race has one winner, and the other scorer is told (409)"
    assert [number for _id, number, *_counts in hands] == list(range(1, RACES + 1))
    assert revision == 1 + RACES
    assert all([(hearts, marias) for _seat, hearts, marias in takings[hand_id]] == taken_in_hand(number)
               for hand_id, number, *_counts in hands)
    assert integrity == [("ok",)] and dangling == []
    print(f"races: {RACES} record races across two server processes, each hand recorded once, the loser told 409")


# --- A clean stop leaves the database file whole -------------------------------------------------


def record_hands(opener, url, game_id, count):
    """Record the next ``count`` hands of the game, one after another; their numbers (each acknowledged)."""
    form_url = f"{url}/games/{game_id}/hands/new"
    numbers = []
    for _hand in range(count):
        status, page = fetch(opener, form_url)
        assert status == 200
        fields = form_fields(page)
        number = int(fields["number"])
        assert submit(opener, form_url, {**fields, **hand_form(taken_in_hand(number), number)}) == 302
        numbers.append(number)
    return numbers


def hands_in_the_file_alone(database, folder):
    """Copy the SQLite file ``database`` alone (no -wal, no -shm) into ``folder`` and read it there: SQLite's
    integrity check, the tables it holds, each hand's number and takings."""
    folder.mkdir()
    copy = shutil.copy(database, folder / database.name)
    connection = sqlite3.connect(copy)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchall()
        tables = {name for name, in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        hands = {}
        if "hand" in tables:
            for number, hearts, marias in connection.execute(
                    "SELECT hand.number, taking.hearts, taking.marias FROM hand "
                    "JOIN taking ON taking.hand_id = hand.id ORDER BY hand.number, taking.seat"):
                hands.setdefault(number, []).append((hearts, marias))
    finally:
        connection.close()
    return integrity, tables, hands


# (server processes, how they are stopped): a service manager's SIGTERM to waitress (Ctrl+C takes the same way
# out of it), Ctrl+C to gunicorn's arbiter and workers, as a terminal sends it (each worker gets the SIGINT, then
# the arbiter's SIGQUIT, which once cut the first one's clean-up short; SIGTERM is the same clean-up, unhurried).
STOPS = [(1, signal.SIGTERM), (2, signal.SIGINT)]


@pytest.mark.skipif(bool(SERVER_DATABASE), reason="the file whole after a stop is SQLite's")
def test_a_server_stopped_by_ctrl_c_or_sigterm_leaves_every_hand_in_the_database_file_alone(tmp_path):
    database = tmp_path / "instance" / "scorekeeper.sqlite"
    database.parent.mkdir()
    scorer = browser()
    game_id = None
    seen = []
    for start, (workers, stop_signal) in enumerate(STOPS):
        served = Server(f"sqlite:///{database}", tmp_path / f"server {start}.log", workers=workers)
        try:
            served.start()
            game_id = game_id or create_game(scorer, served.url)
            recorded = record_hands(scorer, served.url, game_id, count=2)
            status = served.stop(stop_signal)
        finally:
            served.close()
        log = database.with_name(database.name + "-wal")
        left_in_the_log = log.stat().st_size if log.exists() else 0
        seen.append((status, recorded, left_in_the_log, hands_in_the_file_alone(database, tmp_path / f"copy {start}")))

    for start, (status, recorded, left_in_the_log, (integrity, tables, hands)) in enumerate(seen):
        assert status == 0, f"start {start} exited with {status}"
        assert left_in_the_log == 0, f"start {start} left {left_in_the_log} bytes in the write-ahead log"
        assert integrity == [("ok",)]
        assert {"game", "hand", "taking"} <= tables, f"start {start}: the file alone has no tables"
        assert sorted(hands) == list(range(1, recorded[-1] + 1)), f"start {start}: hands missing from the file"
        assert all(hands[number] == taken_in_hand(number) for number in hands)
    assert [recorded for _status, recorded, _log, _file in seen] == [[1, 2], [3, 4]]
