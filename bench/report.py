"""The one table the benchmark prints: the figures, section by section, with the budgets beside them."""

import math
import os
import re

from bench import REPOSITORY
from bench.browser import CHROMIUM, CPU_SLOWDOWN, LIVE_PATIENCE
from bench.games import LONG_HANDS, SHORT_HANDS
from bench.measure import FEW_GAMES, LIVE_CLIENTS, LONG_LIST_HANDS, PAGES, POLL_EVERY, Spread
from bench.season import SEASON_GAMES
from bench.server import THREADS, TRIVIAL
from scorekeeper.documents.game import MOST_UPLOADED_HANDS

KB = 1024
BUDGETS = {  # issue 11, then those of issue 7 it left standing
    "hit": "table view and /watch of the long game (40 hands x 11 players), cache hit, at most 2x the trivial route",
    "miss": "table view and /watch, first view after a change (miss), at most 10x the trivial route",
    "state": "live state, 200 and 304, at most 1.3x the trivial route",
    "wire": "table view first load on the wire (gzip), long game, at most 9 KB",
    "repeat": "repeat visit fetches only the HTML, at most 4.5 KB gzip",
    "longest": "table view of the longest growth game (1000 hands; 100 with --quick) at most 30 KB raw",
    "sql game": "SQL statements per game page constant, at most 4 on a miss and 1 on a hit",
    "sql": "SQL statements per other page constant and at most 6",
    # 6 reads of the game (its trick logs' tricks among them), the claim, the hand's key, 3 inserts, the
    # games list's summary of the new revision (issue 23), the commit
    "sql write": "SQL statements of recording a hand constant, at most 12, and none after the commit",
    "first load": "table view first load at most 35 KB uncompressed",
    "unchanged poll": "an unchanged poll at most 300 bytes",
    "live update": "live update visible on the second page within 2.5 s",
    # issue 12
    "import": "the biggest import the limits allow at most 500x the trivial route, one more hand refused in < 50 ms",
    "list": f"the games list with many games (10,000; 1,000 with --quick) within 1.5x of the list with {FEW_GAMES}",
    # issue 23
    "long list": f"the games list of {FEW_GAMES} games of {LONG_LIST_HANDS} hands x 11 within 2x the list of "
                 f"{FEW_GAMES} games of 2 hands",
    "guest": "the most expensive page a guest may ask for within 500x the trivial route",
    # issue 15
    "season sql": f"the season's table and /stats.json of {SEASON_GAMES:,} games: at most 4 statements, 1 once seen",
    "season": f"the season's table of {SEASON_GAMES:,} games, once seen, at most 60x the trivial route",
}


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
    after_change = "after a hand correction (untimed)"
    rows = [  # label, what, note, the most x trivial allowed, the budget it counts for
        ("trivial", f"GET {TRIVIAL} (baseline)", "", None, None),
        ("table hit", "table view, long game (scorer), cache hit", "game unchanged", 2.0, "hit"),
        ("watch hit", "read-only view /watch, long game, cache hit", "game unchanged", 2.0, "hit"),
        ("table miss", "table view (scorer), first view after a change", after_change, 10.0, "miss"),
        ("watch miss", "read-only view /watch, first view after a change", after_change, 10.0, "miss"),
        ("state 200", "live state, 200", "", 1.3, "state"),
        ("state 304", "live state, 304 (If-None-Match)", "", 1.3, "state"),
        ("record", "record a hand (POST, scorer)", "", None, None),
        ("settle", "settle a trick (/settle.json, 11 cards)", "", None, None),
        ("export", "export.json, long game", "", None, None),
        ("import most", f"import a game of {MOST_UPLOADED_HANDS} hands (the most allowed)", "half with trick logs",
         500.0, "import"),
    ]
    for label, measure, note, most, key in rows:
        time_taken, ratio = timings.spread(label), timings.ratio(label)
        report.row(measure, ms(time_taken.median), ms_range(time_taken), f"{ratio:.2f}x", note,
                   budget="" if most is None else f"<= {most:g}x", met=None if most is None else ratio <= most,
                   counts_for=key)
    refused = timings.spread("import too many")
    report.row(f"import a game of {MOST_UPLOADED_HANDS + 1} hands, refused (400)", ms(refused.median),
               ms_range(refused), f"{timings.ratio('import too many'):.2f}x", "nothing stored",
               budget="< 50 ms", met=refused.high < 0.050, counts_for="import")


def report_list_scale(report, scale):
    """Section 7: the games list costs the same with a page of games or ten thousand."""
    if scale is None:
        report.section(f"7. The games list (/), {FEW_GAMES} games, then many in the same database")
        report.row("skipped")
        return
    report.section(f"7. The games list (/), {FEW_GAMES} games, then {scale.games:,} in the same database")
    few, many = scale.few.spread("list"), scale.many.spread("list")
    report.row(f"games list, {FEW_GAMES} games", ms(few.median), ms_range(few), f"{scale.few.ratio('list'):.2f}x",
               "a page shows 20 games")
    growth = scale.many.ratio("list") / scale.few.ratio("list")
    report.row(f"games list, {scale.games:,} games", ms(many.median), ms_range(many),
               f"{scale.many.ratio('list'):.2f}x", f"{growth:.2f}x the list with {FEW_GAMES}",
               budget="<= 1.5x", met=growth <= 1.5, counts_for="list")


def report_guest_scale(report, scale):
    """Section 9: the games list costs the same for short games and long ones; every page a guest may ask
    for, the most expensive named."""
    report.section(f"9. The games list of long games, and a guest's pages ({FEW_GAMES} games of 11 players)")
    if scale is None:
        report.row("skipped")
        return
    short, long = scale.short.spread("list"), scale.long.spread("list")
    report.row(f"games list, {FEW_GAMES} games of 2 hands", ms(short.median), ms_range(short),
               f"{scale.short.ratio('list'):.2f}x")
    growth = scale.long.ratio("list") / scale.short.ratio("list")
    report.row(f"games list, {FEW_GAMES} games of {LONG_LIST_HANDS} hands", ms(long.median), ms_range(long),
               f"{scale.long.ratio('list'):.2f}x", f"{growth:.2f}x the list of short games", budget="<= 2x",
               met=growth <= 2, counts_for="long list")
    labels = [label for label in scale.long.ratios if label not in ("trivial", "list")]
    for label in labels:
        spread = scale.long.spread(label)
        report.row(f"guest: {label}, a {LONG_LIST_HANDS}-hand game", ms(spread.median), ms_range(spread),
                   f"{scale.long.ratio(label):.2f}x")
    worst = max(labels, key=scale.long.ratio)
    report.row(f"the most expensive guest page: {worst}", "", "", f"{scale.long.ratio(worst):.2f}x",
               budget="<= 500x", met=scale.long.ratio(worst) <= 500, counts_for="guest")


def report_season(report, season):
    """Section 8: the season's table costs a few statements whatever the number of games."""
    if season is None:
        report.section("8. The season's table")
        report.row("skipped")
        return
    report.section(f"8. The season's table, {season.games:,} games ({season.hands:,} hands) of 6-11 players")
    for label, (first, again, changed) in season.statements.items():
        report.row(f"SQL statements, {label}: first view / again / after a game changed",
                   f"{first} / {again} / {changed}", note="games scored once a revision, then kept",
                   budget="<= 4 / 1 / 4", met=first <= 4 and again == 1 and changed <= 4, counts_for="season sql")
    report.row("first /players after the server started (every game scored)", ms(season.first_seconds),
               note="once a server process")
    for label, name in (("season", "/players"), ("stats", "/stats.json")):
        spread, ratio = season.timings.spread(label), season.timings.ratio(label)
        report.row(f"{name}, games already seen", ms(spread.median), ms_range(spread), f"{ratio:.2f}x",
                   budget="<= 60x", met=ratio <= 60, counts_for="season")


def report_load(report, load, settings):
    """Section 1, continued: eleven phones polling."""
    latency = Spread.of(load.latencies)
    statuses = ", ".join(f"{count} x {status}" for status, count in sorted(load.statuses.items()))
    kept = ("connection kept (no Connection: close)" if not load.closed
            else f"{load.closed} answered Connection: close, so those phones reconnect")
    report.row(f"{LIVE_CLIENTS} phones polling every {POLL_EVERY:g} s with ETag, {settings.poll_seconds:g} s",
               ms(latency.median), ms_range(latency),
               note=f"{load.requests / load.seconds:.1f} requests/s; {statuses}; {kept}")
    share = load.cpu_seconds / load.seconds
    report.row("  server CPU meanwhile", f"{share:.1%} of a core",
               note=f"{load.requests / max(load.cpu_seconds, 1e-9):.0f} polls per CPU-second")


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
               note=f"HTML + CSS + JS as sent with Accept-Encoding: gzip{plain}",
               budget="<= 9 KB", met=wire.total <= 9 * KB, counts_for="wire")
    report.row("  of which HTML", kilobytes(len(wire.page.body)), note=f"raw {kilobytes(len(wire.page.decoded))}")
    report.row("  of which CSS", kilobytes(wire.kind(".css")), note=", ".join(wire.named(".css")))
    report.row("  of which JS", kilobytes(wire.kind(".js")), note=", ".join(wire.named(".js")))
    report.row("the same, raw (no Accept-Encoding)", kilobytes(raw.total),
               note=f"HTML {kilobytes(len(raw.page.body))} (inline SVG {kilobytes(raw.inline_svg)}), "
                    f"CSS {kilobytes(raw.kind('.css'))}, JS {kilobytes(raw.kind('.js'))}",
               budget="<= 35 KB uncompressed", met=raw.total <= 35 * KB, counts_for="first load")


def report_repeat_visit(report, wire, repeat):
    """What a second visit fetches again once the browser keeps the static files it may keep."""
    caching = sorted({reply.header("Cache-Control") or "none" for reply in wire.assets.values()})
    note = (f"fetched again: {', '.join(repeat.refetched)}" if repeat.refetched
            else f"HTML only; static files: Cache-Control {'; '.join(caching)}")
    report.row("repeat visit on the wire (static files kept)", kilobytes(repeat.total), note=note,
               budget="HTML only, <= 4.5 KB gzip", met=not repeat.refetched and repeat.total <= 4.5 * KB,
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
    """Section 4: the table view's first view after a change for games of growing length; per hand it must not rise."""
    report.section("4. Growth: table view (scorer) by game length, first view after a change (miss)")
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
    report.row(f"table view, {last} hands, raw size", kilobytes(longest_page), note="HTML, no Accept-Encoding",
               budget="<= 30 KB raw", met=longest_page <= 30 * KB, counts_for="longest")


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


def build_report(results, settings):
    """The table, section by section."""
    report = Report()
    report_times(report, results.timings, settings)
    report_load(report, results.polling, settings)
    report_statements(report, results.statements)
    report_bytes(report, results.page_bytes, *results.polls, results.refetched_hands)
    report_growth(report, results.timings, settings, results.longest_page)
    report.section("5. Memory")
    report.row("peak resident memory of the server process (VmHWM)", f"{results.peak_memory / KB / KB:.1f} MB")
    report_browser(report, results.browser)
    report_list_scale(report, results.list_scale)
    report_season(report, results.season)
    report_guest_scale(report, results.guest_scale)
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
        "Kept pages: a hit is a repeat view of an unchanged game, answered from the pages the server keeps; "
        "a miss is the one view right after a write, timed alone: the scorer corrects a hand of another "
        f"{LONG_HANDS}-hand game (of each growth game in section 4) back and forth, untimed, before each view.",
        f"Timings: median, min and max over {settings.rounds} round(s) of the median request in a burst of "
        f">= {settings.round_seconds:g} s (>= {settings.least_requests} requests) on a keep-alive http.client "
        "connection, asking for gzip as browsers do; x trivial: median over rounds of the ratio to a "
        f"{settings.baseline_seconds:g} s burst of the trivial route just before. 1 KB = 1024 bytes.",
    ]
