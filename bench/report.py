"""The one table the benchmark prints: the figures, section by section, with the budgets beside them."""

import math
import os
import re

from bench import REPOSITORY
from bench.browser import CHROMIUM, CPU_SLOWDOWN, LIVE_PATIENCE
from bench.club import HAND_EVERY, P95_BUDGET, PHONES
from bench.club import POLL_EVERY as CLUB_POLL_EVERY
from bench.games import LONG_HANDS, SHORT_HANDS, pool_plan
from bench.listing import FEW_GAMES
from bench.measure import LIVE_CLIENTS, PAGES, POLL_EVERY, guest_pages
from bench.memory import GAME_PAGES
from bench.projection import project
from bench.server import FLOOR, THREADS
from bench.timing import Spread
from scorekeeper.documents.game import MOST_UPLOADED_HANDS

KB = 1024
MB = KB * KB
SAME = 1.5  # "the same" cost: the dearest within this of the cheapest (as issue 12 reads 20 games vs 10,000)
FLAT = 1.10  # "flat": at most this much more memory at the second size than at the first
MOST_MEMORY = 150 * MB
PERSON_WIRE = 20 * KB


def budgets(settings):
    """What each budget says, by the key its rows count for, with this run's sizes."""
    long, (small, large) = settings.long_hands, settings.season_games
    lists = ", ".join(f"{hands:,}" for hands in sorted(settings.list_hands))
    return {
        # issue 25
        "new hand": f"table view and /watch, first view after a new hand: at most 8x the floor at {LONG_HANDS} "
                    f"hands, 10x at {long:,}",
        "record": f"record a hand: at most 12x at {LONG_HANDS} hands, 15x at {long:,}",
        "form": f"the hand form: at most 4x ({LONG_HANDS} and {long:,} hands)",
        "list": f"games list of {FEW_GAMES} games of {lists} hands: at most 8x each, the same for all "
                f"(the dearest within {SAME:g}x the cheapest)",
        "season": f"/players and /stats.json at {small:,} and {large:,} games, first after a start, warm and "
                  "after a hand: at most 10x each",
        "person": f"a person page of {small // 2:,} games: at most 10x, at most 20 KB on the wire",
        "memory": f"resident memory of one process after every page of {large:,} games: at most 150 MB, flat "
                  f"from {small:,} (at most {FLAT - 1:.0%} more)",
        "club": "club night projection, 40-hand games, phones elsewhere: at least 100 tables on one waitress "
                "process, 250 on four gunicorn workers",
        # issue 11, then those of issue 7 it left standing
        "hit": f"table view and /watch of the long game ({LONG_HANDS} hands x 11 players), cache hit, at most 2x",
        "state": "live state, 200 and 304, at most 1.3x",
        "wire": "table view first load on the wire (gzip), long game, at most 8 KB",
        "repeat": "repeat visit fetches only the HTML, at most 4 KB gzip",
        "longest": f"table view of a {settings.growth[-1]:,}-hand game at most 30 KB raw",
        "sql game": "SQL statements per game page constant, at most 4 on a miss and 1 on a hit",
        "sql": "SQL statements per other page constant and at most 6",
        # 6 reads of the game (its trick logs' tricks among them), the claim, the hand's key, 3 inserts, the
        # games list's summary of the new revision (issue 23), the commit
        "sql write": "SQL statements of recording a hand constant, at most 12, and none after the commit",
        "first load": "table view first load at most 30 KB uncompressed",
        "unchanged poll": "an unchanged poll at most 300 bytes",
        "live update": "live update visible on the second page within 2.5 s",
        # issue 12
        "import": "the biggest import the limits allow at most 500x, one more hand refused in < 50 ms of CPU",
        "many games": f"the games list with {settings.many_games:,} games within {SAME:g}x of the list with "
                      f"{FEW_GAMES}",
        # issue 23
        "guest": f"the most expensive page a guest may ask for of a {MOST_UPLOADED_HANDS}-hand game within 500x",
        # issue 15
        "season sql": f"the season's table and /stats.json of {small:,} games: at most 4 statements again and after "
                      "a hand",
    }


class Report:
    """The one table, and whether each budget was met."""

    COLUMNS = ("measure", "figure", "min - max", "x floor", "wall", "wall x floor", "note", "budget", "met")

    def __init__(self, settings):
        self.budgets = budgets(settings)
        self.rows = []
        self.verdicts = {}

    def section(self, title):
        self.rows.append((title,))

    def row(self, measure, figure="", spread="", ratio="", wall="", wall_ratio="", note="", budget="", met=None,
            counts_for=None):
        """One row; a budget named in ``counts_for`` is met only if all its rows are."""
        if counts_for is not None:
            if counts_for not in self.budgets:
                raise KeyError(f"no budget {counts_for!r}")
            self.verdicts[counts_for] = self.verdicts.get(counts_for, True) and met
        self.rows.append(("  " + measure, figure, spread, ratio, wall, wall_ratio, note, budget,
                          {True: "yes", False: "NO", None: ""}[met]))

    def timed(self, timings, label, measure, note="", most=None, counts_for=None):
        """A timed figure's row: server CPU per request (median over rounds, min - max), CPU x the floor
        (median of the rounds' ratios), wall time and wall x the floor; budget: at most ``most`` x the floor."""
        cpu, ratio = timings.spread(label), timings.ratio(label)
        if label in timings.coarse:
            note = "; ".join(filter(None, [note, "coarse: fewer clock ticks a burst than asked for"]))
        self.row(measure, ms(cpu.median), ms_range(cpu), times(ratio), ms(timings.wall_spread(label).median),
                 times(timings.wall_ratio(label)), note, "" if most is None else f"<= {most:g}x",
                 None if most is None else ratio <= most, counts_for)
        return ratio

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
        for key, text in self.budgets.items():
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


def times(ratio):
    return f"{ratio:.2f}x" if ratio < 100 else f"{ratio:,.0f}x"


def kilobytes(size):
    return f"{size / KB:.1f} KB"


def megabytes(size):
    return f"{size / MB:.1f} MB"


def report_times(report, timings, settings):
    """Section 1: server CPU per request on the main database, as ratios to the floor."""
    report.section(f"1. Server CPU per request (from /proc) x the floor, games of 11 players (rounds: "
                   f"{settings.rounds})")
    report.timed(timings, "floor", f"GET {FLOOR} (the floor)", "the app's trivial route")
    report.timed(timings, "table hit", f"table view (scorer), {LONG_HANDS} hands, cache hit", "game unchanged",
                 2, "hit")
    report.timed(timings, "watch hit", f"read-only view /watch, {LONG_HANDS} hands, cache hit", "game unchanged",
                 2, "hit")
    long = settings.long_hands
    for hands, most in ((LONG_HANDS, 8), (long, 10)):
        fewest, most_hands = pool_plan(hands, settings.new_hand_requests).timed_hands
        note = f"a hand recorded (untimed) before each; games of {fewest:,}-{most_hands:,} hands"
        report.timed(timings, f"table new hand {hands}", f"table view (scorer), first view after a new hand, "
                     f"{hands:,} hands", note, most, "new hand")
        report.timed(timings, f"watch new hand {hands}", f"/watch, first view after a new hand, {hands:,} hands",
                     note, most, "new hand")
    for hands, most in ((LONG_HANDS, 12), (long, 15)):
        fewest, most_hands = pool_plan(hands, settings.new_hand_requests).timed_hands
        report.timed(timings, f"record {hands}", f"record a hand (POST, scorer), {hands:,} hands",
                     f"games that never end, of {fewest - 1:,}-{most_hands - 1:,} hands", most, "record")
    for hands in (LONG_HANDS, long):
        report.timed(timings, f"form {hands}", f"the hand form (GET, scorer), {hands:,} hands", "", 4, "form")
    report.timed(timings, "state 200", "live state, 200", "", 1.3, "state")
    report.timed(timings, "state 304", "live state, 304 (If-None-Match)", "", 1.3, "state")
    report.timed(timings, "settle", "settle a trick (/settle.json, 11 cards)")
    report.timed(timings, "export", f"export.json, {LONG_HANDS} hands")
    report.timed(timings, "import most", f"import a game of {MOST_UPLOADED_HANDS} hands (the most allowed)",
                 "half with trick logs", 500, "import")
    refused = timings.spread("import too many")
    report.timed(timings, "import too many", f"import a game of {MOST_UPLOADED_HANDS + 1} hands, refused (400)",
                 "nothing stored")
    report.row("  the refusal's CPU, the slowest round", ms(refused.high), budget="< 50 ms",
               met=refused.high < 0.050, counts_for="import")


def report_load(report, load, settings):
    """Section 1, continued: eleven phones polling."""
    latency = Spread.of(load.latencies)
    statuses = ", ".join(f"{count} x {status}" for status, count in sorted(load.statuses.items()))
    kept = ("connection kept (no Connection: close)" if not load.closed
            else f"{load.closed} answered Connection: close, so those phones reconnect")
    report.row(f"{LIVE_CLIENTS} phones polling every {POLL_EVERY:g} s with ETag, {settings.poll_seconds:g} s",
               wall=ms(latency.median), note=f"wall {ms_range(latency)}; {load.requests / load.seconds:.1f} "
                                             f"requests/s; {statuses}; {kept}")
    share = load.cpu_seconds / load.seconds
    report.row("  server CPU meanwhile", f"{share:.1%} of a core",
               note=f"{ms(load.cpu_seconds / max(load.requests, 1))} a poll")


def report_statements(report, counts):
    """Section 2: SQL statements per page for 4 and 40 hands; game pages on a miss and on a hit."""
    report.section(f"2. SQL statements per page (in-process, test client), {SHORT_HANDS} / {LONG_HANDS} hands")
    for page in PAGES:
        if page in counts.pages:
            statements_row(report, page, counts.pages[page], 6, "sql")
        else:
            statements_row(report, f"{page}, miss (first view)", counts.misses[page], 4, "sql game")
            statements_row(report, f"{page}, hit (kept page)", counts.hits[page], 1, "sql game")
    short, long = counts.record
    after = "one read after the commit" if counts.read_after_commit else "none after the commit"
    report.row("record a hand (POST, scorer)", f"{short} / {long}", note=after, budget="constant, <= 12, none after",
               met=short == long <= 12 and not counts.read_after_commit, counts_for="sql write")


def statements_row(report, measure, short_long, most, key):
    """One page's statements for the short and the long game: constant, and at most ``most``."""
    short, long = short_long
    report.row(measure, f"{short} / {long}", note="" if short == long else "grows with hands",
               budget=f"constant, <= {most}", met=short == long and long <= most, counts_for=key)


def report_bytes(report, sizes, unchanged, changed, refetched, hands):
    """Section 3: bytes of the first load, on the wire and raw, of a repeat visit and of live-update polls."""
    report.section("3. Bytes sent (bodies; polls include status line and headers)")
    report_first_load(report, sizes.wire, sizes.raw)
    report_repeat_visit(report, sizes.wire, sizes.repeat)
    report_polls(report, unchanged, changed, refetched, hands)


def report_first_load(report, wire, raw):
    """The table view's first load as sent with gzip, part by part, and raw."""
    plain = f"; not gzip-encoded: {', '.join(wire.not_gzipped)}" if wire.not_gzipped else ""
    report.row("table view first load on the wire, long game (scorer)", kilobytes(wire.total),
               note=f"HTML + CSS + JS as sent with Accept-Encoding: gzip, headers included (bodies "
                    f"{kilobytes(wire.bodies)}){plain}",
               budget="<= 8 KB", met=wire.total <= 8 * KB, counts_for="wire")
    report.row("  of which HTML", kilobytes(len(wire.page.body)), note=f"raw {kilobytes(len(wire.page.decoded))}")
    report.row("  of which CSS", kilobytes(wire.kind(".css")), note=", ".join(wire.named(".css")))
    report.row("  of which JS", kilobytes(wire.kind(".js")), note=", ".join(wire.named(".js")))
    report.row("the same, raw (no Accept-Encoding), bodies", kilobytes(raw.bodies),
               note=f"HTML {kilobytes(len(raw.page.body))} (inline SVG {kilobytes(raw.inline_svg)}), "
                    f"CSS {kilobytes(raw.kind('.css'))}, JS {kilobytes(raw.kind('.js'))}",
               budget="<= 30 KB uncompressed", met=raw.bodies <= 30 * KB, counts_for="first load")


def report_repeat_visit(report, wire, repeat):
    """What a second visit fetches again once the browser keeps the static files it may keep."""
    caching = sorted({reply.header("Cache-Control") or "none" for reply in wire.assets.values()})
    note = (f"fetched again: {', '.join(repeat.refetched)}" if repeat.refetched
            else f"HTML only; static files: Cache-Control {'; '.join(caching)}")
    report.row("repeat visit on the wire (static files kept)", kilobytes(repeat.total), note=note,
               budget="HTML only, <= 4 KB gzip", met=not repeat.refetched and repeat.total <= 4 * KB,
               counts_for="repeat")


def report_polls(report, unchanged, changed, refetched, hands):
    """An unchanged poll, a changed one, and the page live.js then refetches."""
    kept = "keeps the connection" if unchanged.keeps_connection else "Connection: close, so every poll reconnects"
    report.row("live poll, nothing changed (304)", f"{unchanged.sent_bytes} B",
               note=f"{len(unchanged.headers)} headers; {kept}",
               budget="<= 300 B", met=unchanged.sent_bytes <= 300, counts_for="unchanged poll")
    report.row("live poll, a hand was added (200 JSON)", f"{changed.sent_bytes} B", note=f"body {len(changed.body)} B")
    report.row(f"then the page live.js refetches (/watch, {hands} hands)", kilobytes(len(refetched.body)),
               note=f"{'gzip' if refetched.gzipped else 'not gzip-encoded'}; raw {kilobytes(len(refetched.decoded))}")


def report_growth(report, timings, settings, longest_page):
    """Section 4: the table view's first view after a change for games of growing length; per hand it must
    not rise."""
    report.section("4. Growth: table view (scorer) by game length, first view after a hand's correction")
    per_hand = [timings.ratio(f"growth {hands}") / hands for hands in settings.growth]
    for index, hands in enumerate(settings.growth):
        cpu = timings.spread(f"growth {hands}")
        note = f"{ms(cpu.median / hands)} per hand"
        if index:
            rising = per_hand[index] / per_hand[index - 1]
            report.timed(timings, f"growth {hands}", f"table view, {hands:,} hands", f"{note}; per hand "
                         f"{rising:.2f}x the size before (budget <= 1.25x: {'yes' if rising <= 1.25 else 'NO'})")
        else:
            report.timed(timings, f"growth {hands}", f"table view, {hands:,} hands", note)
    first, last = settings.growth[0], settings.growth[-1]
    step = (timings.spread(f"growth {last}").median - timings.spread(f"growth {first}").median) / (last - first)
    report.row(f"CPU of one more hand ({first} to {last:,} hands)", ms(step))
    report.row(f"table view, {last:,} hands, raw size", kilobytes(longest_page), note="HTML, no Accept-Encoding",
               budget="<= 30 KB raw", met=longest_page <= 30 * KB, counts_for="longest")


def report_memory(report, memory):
    """Section 5: one process's resident memory after every page of the season's games, at both sizes."""
    pages = ", ".join(page.removeprefix("/games/{id}") or "table view" for page in GAME_PAGES)
    report.section(f"5. Memory of one server process after every page of every game ({pages}) and the club's")
    for games, served in ((memory.small, memory.at_small), (memory.large, memory.at_large)):
        note = (f"{served.requests:,} requests over {served.seconds:.0f} s for {served.games:,} games; "
                f"peak (VmHWM) {megabytes(served.peak)}")
        if games == memory.small:
            report.row(f"resident memory (VmRSS) after every page of {games:,} games", megabytes(served.resident),
                       note=note)
        else:
            growth = served.resident / memory.at_small.resident
            more = served.resident - memory.at_small.resident
            report.row(f"resident memory (VmRSS) after every page of {games:,} games", megabytes(served.resident),
                       note=f"{note}; {more / MB:+.1f} MB ({growth - 1:+.1%}) from {memory.small:,}",
                       budget=f"<= 150 MB, <= {FLAT - 1:+.0%} from {memory.small:,}",
                       met=served.resident <= MOST_MEMORY and growth <= FLAT, counts_for="memory")


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
    report.row("Save on the hand form -> change shown on /watch", wall=seconds(delays.median),
               note=f"wall {seconds(delays.low)} - {seconds(delays.high)}; saves: {len(figures.live_delays)}; "
                    f"/watch polls every {live_js_poll_seconds():g} s",
               budget="<= 2.5 s, every save", met=delays.high <= 2.5, counts_for="live update")
    report.row(f"first contentful paint, table view, CPU {CPU_SLOWDOWN}x slower", wall=ms(paints.median),
               note=f"wall {ms_range(paints)}; phone viewport, cold cache, long game")


def report_list_scale(report, scale):
    """Section 7: the games list costs the same for short games and long ones, and with a page of games or
    ten thousand."""
    report.section(f"7. The games list (/): {FEW_GAMES} games of 11 players of each length, newest first, in "
                   "one database, then many games")
    ratios = {}
    for hands, timings in sorted(scale.by_hands.items()):
        ratios[hands] = report.timed(timings, "list", f"games list, {FEW_GAMES} games of {hands:,} hands",
                                     most=8, counts_for="list")
    dearest, cheapest = max(ratios.values()), min(ratios.values())
    report.row("  the same for all: the dearest / the cheapest", times(dearest / cheapest),
               note=" / ".join(f"{hands:,} hands {times(ratio)}" for hands, ratio in sorted(ratios.items())),
               budget=f"<= {SAME:g}x", met=dearest / cheapest <= SAME, counts_for="list")
    shortest = min(scale.by_hands)
    growth = scale.many.ratio("list") / ratios[shortest]
    report.timed(scale.many, "list", f"games list, {scale.games:,} games",
                 f"{growth:.2f}x the list of {FEW_GAMES} (newest {FEW_GAMES}: {shortest} hands each)")
    report.row(f"  {scale.games:,} games / {FEW_GAMES} games", times(growth), budget=f"<= {SAME:g}x",
               met=growth <= SAME, counts_for="many games")


def report_season(report, season):
    """Section 8: the season's pages at both sizes: statements, first after a start, warm, after a hand; a
    person's page."""
    small = season.sizes[0].games
    report.section(f"8. The season: {', then '.join(f'{size.games:,}' for size in season.sizes)} games of 6-11 "
                   f"players ({season.hands:,} hands at the end)")
    for label, (first, again, changed) in season.statements.items():
        report.row(f"SQL statements, {label}, {small:,} games: first view / again / after a hand",
                   f"{first} / {again} / {changed}",
                   note="in-process, a fresh app: any figures stale? the ratings up to date? each person's kept sums "
                   "with their best and worst games' ids; those games (the first view after a restore rates every "
                   "game again, once)",
                   budget="<= 4 again and after a hand", met=again == changed <= 4, counts_for="season sql")
    for size in season.sizes:
        for label, name in (("season", "/players"), ("stats", "/stats.json")):
            report.timed(size.timings, f"{label} first", f"{name}, {size.games:,} games, first after the server "
                         "started", "one request in a fresh server, each round", 10, "season")
            report.timed(size.timings, f"{label} warm", f"{name}, {size.games:,} games, warm", "", 10, "season")
            report.timed(size.timings, f"{label} after a hand", f"{name}, {size.games:,} games, after a hand",
                         "a hand recorded (untimed) in a game of the season before each", 10, "season")
        if size.person_wire is not None:
            report.timed(size.timings, "person", f"a person's page, {size.person_games:,} games "
                                 f"(of {size.games:,})", "as served by default", 10, "person")
            wire = len(size.person_wire.body)
            encoding = "gzip" if size.person_wire.gzipped else "not gzip-encoded"
            report.row("  the same on the wire (asked with gzip)", kilobytes(wire),
                       note=f"{encoding}; raw {kilobytes(len(size.person_raw.body))}", budget="<= 20 KB",
                       met=wire <= PERSON_WIRE, counts_for="person")


def report_guests(report, timings, labels):
    """Section 9: every page of a long game a guest may ask for, the most expensive named."""
    report.section(f"9. A guest's pages of a {MOST_UPLOADED_HANDS}-hand game (11 players)")
    for label in labels:
        report.timed(timings, f"guest {label}", f"guest: {label}")
    worst = max(labels, key=lambda label: timings.ratio(f"guest {label}"))
    ratio = timings.ratio(f"guest {worst}")
    report.row(f"the most expensive guest page: {worst}", ratio=times(ratio), budget="<= 500x", met=ratio <= 500,
               counts_for="guest")


def report_projection(report, timings):
    """Section 10: the club night projected from the CPU of each kind of request (see bench/projection.py)."""
    mix, setups = project(timings)
    report.section(f"10. Club night projected from the CPU per request, {LONG_HANDS}-hand games, phones "
                   f"elsewhere: a hand every {HAND_EVERY:g} s, {PHONES} phones polling every "
                   f"{CLUB_POLL_EVERY:g} s a table")
    for kind in mix.kinds:
        report.row(f"{kind.name}: {kind.rate:.3f} a second a table", ms(kind.cpu),
                   note=f"{kind.rate * kind.cpu * 1000:.3f} ms of CPU a second a table; figure '{kind.figure}'")
    report.row(f"a table: r = {mix.rate:.3f} requests a second", f"{mix.demand * 1000:.3f} ms/s",
               note=f"CPU a second a table (D); mean S = D / r = {ms(mix.mean)}; cs2 = {mix.variability:.2f}; "
                    f"dearest: {mix.dearest.name}, {ms(mix.dearest.cpu)}")
    for setup in setups:
        held, more = setup.held, setup.one_more
        report.row(f"{setup.name}: c = {setup.servers} ({setup.why})", f"{held.tables:,} tables",
                   note=f"at {held.tables:,}: {model_steps(held)}; at {more.tables:,}: p95 {ms(more.p95)}",
                   budget=f">= {setup.least_tables} tables", met=held.tables >= setup.least_tables,
                   counts_for="club")


def model_steps(load):
    """The model's steps at one load, for a reader to check."""
    return (f"lambda = {load.arrivals:,.0f}/s, a = {load.load:.3f}, rho = {load.utilisation:.3f}, "
            f"C = {load.waiting_chance:.3f}, E[W] = {ms(load.mean_wait)}, W95 = {ms(load.wait95)}, "
            f"p95 = {ms(load.p95)}")


def build_report(results, settings):
    """The table, section by section."""
    report = Report(settings)
    report_times(report, results.timings, settings)
    report_load(report, results.polling, settings)
    report_statements(report, results.statements)
    report_bytes(report, results.page_bytes, *results.polls, results.refetched_hands)
    report_growth(report, results.timings, settings, results.longest_page)
    report_memory(report, results.season.memory)
    report_browser(report, results.browser)
    report_list_scale(report, results.list_scale)
    report_season(report, results.season)
    report_guests(report, results.timings, list(guest_pages(0)))
    report_projection(report, results.timings)
    return report


def notes(results, settings):
    """What the figures are, printed above the table."""
    return [
        f"Server: waitress ({THREADS} threads) in a subprocess on 127.0.0.1, fresh SQLite databases in a "
        "temporary folder.",
        f"Figure: the server's CPU per request, read from /proc ({results.cpu_source}) before and after each request "
        "and summed over the server's threads. x floor: that CPU over the CPU of the floor, GET "
        f"{FLOOR} (the app's trivial route), in a burst just before, median over rounds; the budgets are "
        "read on it. Wall: the time per request as the client saw it, and its ratio to the floor's: on a "
        "shared machine it moves with every neighbour. Both are a burst's total over its requests, so a "
        "full garbage collection that one request pays for is shared by all.",
        f"Bursts: >= {settings.round_seconds:g} s (floor {settings.floor_seconds:g} s), >= "
        f"{settings.least_requests} requests and >= {settings.least_cpu_units} units of the CPU clock, at most "
        f"{settings.most_requests} requests ({settings.most_new_hands} where each records a hand); "
        f"{settings.rounds} round(s); min - max over rounds. Keep-alive http.client connections asking for gzip "
        "as browsers do. 1 KB = 1024 bytes.",
        f"Games: 11 players, never ending, every second hand with a trick log; the long game has {LONG_HANDS} "
        "hands. A first view after a new hand is timed right after the scorer recorded a hand (untimed), on "
        "games of about that length taking a few hands each in turn, each viewed once before, as after the "
        "hand before. A cache hit is a repeat view of an unchanged game.",
        "The season: club nights of 6-11 players from 18 names, 8-40 hands unless over sooner, restored "
        "through the service as a backup is; one player is in every second game; one game of 11 never ends.",
        f"Club night projection: M/G/c (Allen-Cunneen) with c = 1 for one waitress process, c = min(4, "
        f"{os.cpu_count()} cores) for four gunicorn workers; p95 of a kind = its CPU + W95; W95 = E[W] / C x "
        "ln(C / 0.05) (0 if C <= 0.05); E[W] = C x S / (c (1 - rho)) x (1 + cs2) / 2; C = Erlang C(c, a = "
        f"lambda S); lambda = tables x r. The most tables with the dearest kind's p95 <= "
        f"{P95_BUDGET * 1000:.0f} ms (bench/projection.py).",
    ]
