"""Crash durability: `flask serve` killed with SIGKILL while hands are recorded loses nothing it acknowledged.

End to end: a real waitress process on 127.0.0.1, a scorer recording hands
over HTTP exactly as a browser does (GET the form, POST it, follow nothing),
and the database file read directly with ``sqlite3`` afterwards.
"""

import http.client
import os
import random
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

from .tabletop import SIX, form_fields, game_form, hand_form

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")

REPOSITORY = Path(__file__).resolve().parents[1]
SECRET_KEY = "crash test secret key"  # fixed, so the scorer's session survives restarts
ROUNDS = 5  # run, SIGKILL, restart; then one last SIGKILL before the database is read
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
    """`flask --app scorekeeper serve` on 127.0.0.1, started and SIGKILLed at will."""

    def __init__(self, database, log_path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.env = {name: value for name, value in os.environ.items() if not name.startswith("FLASK_")}
        self.env.update(FLASK_SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}", FLASK_SECRET_KEY=SECRET_KEY)
        self.process = None
        self.prober = browser()

    def start(self):
        """Start the server and wait until it answers."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "scorekeeper", "serve",
             "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=REPOSITORY, env=self.env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
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
        """SIGKILL: no shutdown, no flush, no cleanup of any kind."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

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


@pytest.fixture
def server(tmp_path):
    """A serving process on a temporary database; always killed at the end."""
    served = Server(tmp_path / "crash.sqlite", tmp_path / "server.log")
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


def read_database(path):
    """Everything the checks need, straight from the file (SQLite replays the WAL on opening)."""
    connection = sqlite3.connect(path)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchall()
        dangling = connection.execute("PRAGMA foreign_key_check").fetchall()
        (game_id, revision), = connection.execute("SELECT id, revision FROM game").fetchall()
        hands = connection.execute(
            "SELECT id, number, uncollected_hearts, uncollected_marias FROM hand WHERE game_id = ? ORDER BY number",
            (game_id,),
        ).fetchall()
        takings = {
            hand_id: connection.execute(
                "SELECT seat, hearts, marias FROM taking WHERE hand_id = ? ORDER BY seat", (hand_id,)
            ).fetchall()
            for hand_id, *_rest in hands
        }
        return integrity, dangling, revision, hands, takings
    finally:
        connection.close()


def test_hands_acknowledged_before_a_kill_survive_it_whole(server, tmp_path):
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

    integrity, dangling, revision, hands, takings = read_database(tmp_path / "crash.sqlite")
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
    print(f"crash: {kills} kills survived, {len(acknowledged)} acknowledged hands all present"
          f" ({len(hands)} recorded; {scorer.in_doubt} POSTs cut off by a kill,"
          f" {scorer.in_doubt_committed} of them committed)")
