"""Benchmark of the scorekeeper: server CPU per request, SQL statements, bytes, growth, memory, browser, the
games list, the season, the club night projected from them, and a club night of rounds.

``python bench/run.py`` serves the app with waitress in subprocesses on free
ports of 127.0.0.1, on fresh temporary databases filled with generated
games, measures, stops everything and prints one table with the budgets
beside the figures. ``--quick`` (CI) uses small sizes and one round;
``--rounds N`` sets the rounds. The exit code is 0 even when budgets are
missed: it is a benchmark, not a test. ``--nights`` runs only the club night of
rounds (section 11).
"""

import argparse
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import datetime

STARTED = time.monotonic()  # for the progress lines and the length of the run
# The bench package and tests/tabletop.py (the generated games) import from the repository root.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import REPOSITORY  # noqa: E402
from bench.browser import BrowserFigures, browser_figures  # noqa: E402
from bench.games import LONG_HANDS, NEW_HAND_KINDS, fill_database, pool_games, pool_plan, scorer_writes  # noqa: E402
from bench.listing import FEW_GAMES, ListScale, list_scale  # noqa: E402
from bench.measure import (  # noqa: E402
    LIVE_CLIENTS,
    NORMAL,
    QUICK,
    PageBytes,
    PollLoad,
    StatementCounts,
    count_statements,
    new_hand_pools,
    page_bytes,
    poll_load,
    poll_replies,
    raw_size,
    time_requests,
)
from bench.nights import NightScale, night_notes, night_scale, report_nights  # noqa: E402
from bench.report import Report, build_report, notes  # noqa: E402
from bench.season import SeasonScale, season_scale  # noqa: E402
from bench.server import Client, Reply, app_config, migrated_app, running_server, scorer_cookie  # noqa: E402
from bench.timing import Timings  # noqa: E402
from scorekeeper.db.models import db  # noqa: E402


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

    cpu_source: str  # where the server's CPU time was read from
    statements: StatementCounts
    page_bytes: PageBytes
    polls: tuple[Reply, Reply, Reply]  # unchanged, changed, the page refetched
    refetched_hands: int
    timings: Timings
    longest_page: int  # raw bytes of the table view of the longest growth game
    polling: PollLoad
    browser: BrowserFigures | None
    list_scale: ListScale | None = None
    season: SeasonScale | None = None
    nights: NightScale | None = None


def measure(settings):
    """Fill a temporary database, count statements in-process, then serve it and measure the rest; then the
    games list and the season, each on a database of its own."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        database_uri = f"sqlite:///{os.path.join(folder, 'bench.sqlite')}"
        app = migrated_app(app_config(database_uri))
        progress("generating and importing games")
        plans = [pool_plan(hands, settings.new_hand_requests) for hands in (LONG_HANDS, settings.long_hands)]
        games = fill_database(app, settings.growth, plans)
        progress("counting SQL statements")
        statements = count_statements(app, games)
        with app.app_context():
            db.engine.dispose()
        with running_server(database_uri, folder) as server:
            progress(f"serving on 127.0.0.1:{server.port}; server CPU from {server.cpu.source}")
            results = measure_served(server, games, statements, settings)
        progress(f"the games list: {FEW_GAMES} games of {', '.join(map(str, settings.list_hands))} hands, then "
                 f"{settings.many_games:,} games")
        results = replace(results, list_scale=list_scale(folder, settings))
        results = replace(results, season=season_scale(folder, settings, progress))
        return replace(results, nights=night_scale(folder, settings, progress))


def measure_nights(settings):
    """Only the club night of rounds, on a temporary database of its own."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        return night_scale(folder, settings, progress)


def measure_served(server, games, statements, settings):
    """Everything measured through the running server."""
    port = server.port
    pooled = {(kind, hands): pool_games(games, kind, hands)
              for kind in NEW_HAND_KINDS for hands in (LONG_HANDS, settings.long_hands)}
    pooled_ids = {game.id for pool in pooled.values() for game in pool}
    cookie = scorer_cookie(port, {role: game for role, game in games.items() if game.id not in pooled_ids})
    watcher, scorer = Client(port), Client(port, cookie)
    # Each new-hand figure's scorer holds the keys of its own games (a session keeps 40 at most).
    clients = {key: Client(port, scorer_cookie(port, dict(enumerate(pool)))) for key, pool in pooled.items()}
    try:
        writes = scorer_writes(scorer, games, settings.growth)
        load = page_bytes(scorer, f"/games/{games['long'].id}")
        polls = poll_replies(watcher, writes["record"], games)
        refetched_hands = writes["record"].number - 1
        longest_page = raw_size(scorer, f"/games/{games[f'growth {settings.growth[-1]}'].id}")
        progress("timing requests")
        pools = new_hand_pools(games, clients, watcher, settings)
        measured = time_requests(games, settings, server, watcher, scorer, writes, pools)
        etag = watcher.get(f"/games/{games['long'].id}/state").header("ETag")
    finally:
        for client in [watcher, scorer, *clients.values()]:
            client.close()
    progress(f"{LIVE_CLIENTS} phones polling")
    polling = poll_load(server, f"/games/{games['long'].id}/state", etag, settings.poll_seconds)
    progress("in the browser")
    figures = browser_figures(port, games["long"], cookie, settings.rounds)
    return Results(server.cpu.source, statements, load, polls, refetched_hands, measured, longest_page, polling,
                   figures)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and one round (CI)")
    parser.add_argument("--rounds", type=int, help="rounds of every timing (default 5, 1 with --quick)")
    parser.add_argument("--nights", action="store_true", help="only the club night of rounds (section 11)")
    return parser.parse_args()


def stop(signal_number, _frame):
    """SIGTERM (a cancelled CI job) unwinds like Ctrl+C, so the server and browser are stopped."""
    raise SystemExit(128 + signal_number)


def main():
    arguments = parse_arguments()
    signal.signal(signal.SIGTERM, stop)
    settings = QUICK if arguments.quick else NORMAL
    if arguments.rounds:
        settings = replace(settings, rounds=max(1, arguments.rounds))
    header = machine()
    if arguments.nights:
        nights = measure_nights(settings)
        report, lines = Report(settings), night_notes(nights)
        report.budgets = {}  # only the night's budgets are checked
    else:
        results = measure(settings)
        nights = results.nights
        report, lines = build_report(results, settings), [*notes(results, settings), *night_notes(nights)]
    report_nights(report, nights, settings)
    print(f"Scorekeeper benchmark{' (quick)' if arguments.quick else ''}"
          f"{' (the club night of rounds only)' if arguments.nights else ''} · {header}")
    print("\n".join(lines))
    print()
    print(report.render())
    print()
    print(report.summary())
    print(f"Whole run: {time.monotonic() - STARTED:.0f} s. Exit code 0 whatever the budgets: a benchmark, not a test.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
