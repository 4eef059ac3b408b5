"""Phones that wait: what a 304 poll costs the server while many phones hold idle keep-alive connections
(issue 37, item 1).

``python bench/idle.py`` serves the app as `flask serve` does, in a subprocess on 127.0.0.1, once with
waitress (one process, the default) and once with gunicorn's gthread workers (``--workers 2``), on a SQLite
database of one game. For each server, in rounds that interleave the counts of idle phones (0, then 200, 800
and the other way round, ``--rounds`` times), it opens that many connections that each made one poll and now
wait, as a phone between polls does, then times a burst of polls of the game's state with its ETag (304) on
one more connection: the server's CPU per poll (all its processes' threads, bench/proc.py) and the wall time,
against a burst of the floor (``/settle.json?cards=2C``) just before on the same server. It prints the median
of each over the rounds, beside the issue's target: a 304 poll with 800 phones connected within 1.5x of one
with none. Exit code 0 whatever the figures: a benchmark, not a test.
"""

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.club import served  # noqa: E402
from bench.games import never_ending_game  # noqa: E402
from bench.proc import CpuClock, group_processes  # noqa: E402
from bench.server import Client, migrated_app  # noqa: E402
from scorekeeper.db.models import db  # noqa: E402
from tests.tabletop import store_games  # noqa: E402

IDLE_COUNTS = (0, 200, 800)
POLLS = 400  # polls a burst
FLOOR = "/settle.json?cards=2C"
TARGET = 1.5  # a poll with 800 idle phones, at most this many times one with none (issue 37)
SERVERS = {"waitress (one process)": 1, "gunicorn gthread (2 workers)": 2}


def one_game(database_uri):
    """A database holding one game of a few hands; the game's id."""
    app = migrated_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "idle phones secret key"})
    [(game_id, _key)] = store_games(app, [never_ending_game("Waiting", 10, 1)])
    with app.app_context():
        db.engine.dispose()
    return game_id


def idle_phones(port, count, path):
    """``count`` connections, each having polled ``path`` once and kept open, waiting as a phone does."""
    phones = []
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    for _phone in range(count):
        phone = socket.create_connection(("127.0.0.1", port), timeout=30)
        phone.sendall(request)
        phone.recv(65536)  # the answer (small: a JSON revision); the connection stays open
        phones.append(phone)
    return phones


def burst(clock, client, path, headers, expect):
    """Server CPU (ns) and wall (s) per request over ``POLLS`` requests of ``path``."""
    clock.wait_idle()
    cpu, wall = clock.read(), time.perf_counter()
    for _request in range(POLLS):
        client.get(path, headers, expect=expect)
    return (clock.read() - cpu) / POLLS, (time.perf_counter() - wall) / POLLS


def measure(port, process, game_id, rounds):
    """For each count of idle phones, the (cpu ratio, cpu ms, wall ms) of a 304 poll, one a round."""
    clock = CpuClock(lambda: group_processes(process.pid))
    client = Client(port)
    state = f"/games/{game_id}/state"
    etag = client.get(state).header("ETag")
    figures = {count: [] for count in IDLE_COUNTS}
    for number in range(rounds):
        order = IDLE_COUNTS if number % 2 == 0 else IDLE_COUNTS[::-1]
        for count in order:
            phones = idle_phones(port, count, state)
            try:
                time.sleep(0.5)  # the server settles with them open
                floor_cpu, _floor_wall = burst(clock, client, FLOOR, {}, 200)
                cpu, wall = burst(clock, client, state, {"If-None-Match": etag}, 304)
                figures[count].append((cpu / floor_cpu, cpu / 1e6, wall * 1e3))
            finally:
                for phone in phones:
                    phone.close()
    client.close()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every count (default 5)")
    arguments = parser.parse_args()
    print(f"{POLLS} polls a burst (304), {arguments.rounds} rounds interleaving {IDLE_COUNTS} idle phones; "
          f"medians; target: 800 idle phones within {TARGET}x of none")
    for name, workers in SERVERS.items():
        with tempfile.TemporaryDirectory() as folder:
            uri = f"sqlite:///{os.path.join(folder, 'idle.sqlite')}"
            game_id = one_game(uri)
            try:
                with served(uri, workers, folder) as (port, process):
                    figures = measure(port, process, game_id, arguments.rounds)
            except RuntimeError as error:
                print(f"{name}: not measured ({error})")
                continue
        none = statistics.median(cpu for _ratio, cpu, _wall in figures[0])
        for count in IDLE_COUNTS:
            ratio = statistics.median(ratio for ratio, _cpu, _wall in figures[count])
            cpu = statistics.median(cpu for _ratio, cpu, _wall in figures[count])
            wall = statistics.median(wall for _ratio, _cpu, wall in figures[count])
            grown = cpu / none
            verdict = f"; {grown:.2f}x the poll with none (target <= {TARGET}x: " \
                      f"{'met' if grown <= TARGET else 'MISSED'})" if count == IDLE_COUNTS[-1] else ""
            print(f"{name}, {count:>4} idle phones: {cpu:.3f} ms CPU a poll ({ratio:.2f}x the floor), "
                  f"wall {wall:.3f} ms{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
