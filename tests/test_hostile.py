"""Hostile input: thousands of generated bad requests, never a 500, and a refused one changes nothing.

Every form and endpoint gets wrong types, huge and negative numbers, unicode
junk, missing, extra and duplicated fields, broken JSON, wrong CSRF tokens
and revisions, a phone without the scorer key, wrong methods and odd paths.
After each request the whole database is compared with a snapshot; whatever
a successful request wrote is undone by writing the pristine rows back, so
every example meets the same four games. It runs on SQLite, and on the
server database ``SCOREKEEPER_TEST_DATABASE`` names when it is set.

The bugs these tests found are kept at the end, each as its smallest request.
"""

import csv
import io
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.engine import make_url
from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from scorekeeper.db.models import db
from scorekeeper.documents.season_csv import TEMPLATE_ROWS
from scorekeeper.web.season import LAST_PAGE

from .profiles import examples
from .tabletop import SIX, create_game, csrf_token, hand_form, hidden_fields, make_secretary, record_hand
from .test_tricks import KITTY, NINE, TRICKS, play_trick, play_whole_hand

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
OTHER = [(4, 0), (4, 0), (5, 1), (4, 0), (5, 1), (4, 0)]
NINE_HAND = [(26, 0), (0, 2)] + [(0, 0)] * 7
RESERVED_TRICK = "10♠ 10♠ A♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦"  # the two 10♠ cancel and no spade is left (R9)
# The figures kept from the facts (service/figures.py, service/ratings.py): any page may keep them afresh.
KEPT_TABLES = {"game_figures", "seat_figures", "person_figures"}
KEPT_COLUMNS = {"ratings_version", "rated_version"}  # the club's: how far its kept ratings reach
SQLITE_MAX = 2**63 - 1
PAST_POSTGRES = 2**31  # one past PostgreSQL's integer

# HOSTILE_EXAMPLES=5000 runs a longer campaign; a few hundred per test keep the file under a minute
# (ten times as many on the thorough profile).
HOSTILE = settings(
    max_examples=examples(int(os.environ.get("HOSTILE_EXAMPLES", 250))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

SENT = Counter()  # "requests": every request sent, checks included


# --- The table: an app, its pristine games, a scorer and a stranger ---------------------------


@dataclass
class Table:
    """The app under attack, its games by role, and the means to check and undo each request."""

    app: object
    scorer: object = None
    stranger: object = None
    games: dict = field(default_factory=dict)  # role -> game id
    revisions: dict = field(default_factory=dict)  # game id -> revision
    keys: dict = field(default_factory=dict)  # game id -> scorer key
    hands: dict = field(default_factory=dict)  # game id -> hands recorded
    changes: dict = field(default_factory=dict)  # game id -> change ids
    tokens: dict = field(default_factory=dict)  # client -> its valid CSRF token
    exports: dict = field(default_factory=dict)  # game id -> its export document
    state: dict = None
    pristine: dict = None  # ``full_snapshot`` of the pristine games
    sessions: dict = field(default_factory=dict)  # client -> its session cookie with the pristine games

    def snapshot(self):
        """Every row of every table, in primary-key order: the facts the club recorded. The figures kept from
        them (service/figures.py, service/ratings.py) are left out: a page may keep them afresh when it finds
        them stale, which changes no fact."""
        with self.app.app_context(), db.engine.connect() as connection:
            return {
                table.name: [tuple(row) for row in connection.execute(
                    select(*(column for column in table.columns if column.name not in KEPT_COLUMNS))
                    .order_by(*table.primary_key.columns))]
                for table in db.metadata.sorted_tables if table.name not in KEPT_TABLES
            }

    def full_snapshot(self):
        """Every row of every table, the kept figures too: what ``restore`` puts back."""
        with self.app.app_context(), db.engine.connect() as connection:
            return {
                table.name: [tuple(row) for row in connection.execute(
                    table.select().order_by(*table.primary_key.columns))]
                for table in db.metadata.sorted_tables
            }

    def keep_as_pristine(self):
        self.state = self.snapshot()
        self.pristine = self.full_snapshot()
        self.sessions = {client: client.get_cookie("session") for client in (self.scorer, self.stranger)}

    def restore(self):
        """Put the pristine games back, whatever a successful request wrote: every row, in one transaction.

        The app forgets the revisions and pages it kept since: the database
        went back to revisions it already showed, behind its back.
        """
        tables = db.metadata.sorted_tables
        with self.app.app_context(), db.engine.begin() as connection:
            for table in reversed(tables):
                connection.execute(table.delete())
            for table in tables:
                names = [column.name for column in table.columns]
                for row in self.pristine[table.name]:  # in key order: a change's undo follows what it undid
                    connection.execute(table.insert().values(dict(zip(names, row))))
        for name in [name for name in self.app.extensions if name.startswith("scorekeeper.")]:
            del self.app.extensions[name]
        # The session keeps the newest games' keys only: games made by accepted requests (new ids on
        # every database that never reuses one) would push the pristine games' keys out of it.
        for client, cookie in self.sessions.items():
            if cookie is not None:
                client.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
        assert self.snapshot() == self.state

    def ids(self):
        return list(self.games.values())


@pytest.fixture(scope="module")
def table(module_database_uri):
    """Four games: hands with corrections and a removal, tricks played, a kitty awaited, a game over."""
    app = create_app({
        "TESTING": True,  # an exception reaches the test with its traceback, not as a bare 500
        "SECRET_KEY": "hostile secret key",
        "SQLALCHEMY_DATABASE_URI": module_database_uri,
    })
    table = Table(app, app.test_client(), app.test_client())
    scorer = make_secretary(app, table.scorer)  # the club's secretary too; the stranger is neither

    scored = create_game(scorer, SIX, name="Scored")
    for taken in (SPREAD, OTHER, SPREAD):
        record_hand(scorer, scored, taken)
    url = f"/games/{scored}/hands/2"
    assert scorer.post(url, data={**hidden_fields(scorer, url), **hand_form(SPREAD, 2)}).status_code == 302
    url = f"/games/{scored}/hands/3/remove"
    assert scorer.post(url, data=hidden_fields(scorer, url)).status_code == 302

    tricks = create_game(scorer, NINE, name="Tricks")
    play_whole_hand(scorer, tricks)
    assert play_trick(scorer, tricks, RESERVED_TRICK, 1).status_code == 302

    kitty = create_game(scorer, NINE, name="Kitty")
    assert play_trick(scorer, kitty, TRICKS[0], 1).status_code == 302
    assert play_trick(scorer, kitty, TRICKS[1], 2, confirm=True).status_code == 302

    over = create_game(scorer, SIX, target=10, name="Over")
    record_hand(scorer, over, SPREAD)

    table.games = {"scored": scored, "tricks": tricks, "kitty": kitty, "over": over}
    scorer.get("/")  # the flashed messages are read
    table.tokens = {scorer: csrf_token(scorer, "/games/new"), table.stranger: csrf_token(table.stranger, "/games/new")}
    table.keep_as_pristine()
    for game_id in table.ids():
        table.exports[game_id] = scorer.get(f"/games/{game_id}/export.json").get_json()
        table.hands[game_id] = len(table.exports[game_id]["hands"])
    for row in table.state["game"]:
        game = dict(zip([column.name for column in db.metadata.tables["game"].columns], row))
        table.revisions[game["id"]], table.keys[game["id"]] = game["revision"], game["scorer_key"]
    table.changes = {game_id: [] for game_id in table.ids()}
    for row in table.state["change"]:
        table.changes[row[1]].append(row[0])
    assert table.changes[scored] and table.hands[tricks] == 1

    yield table

    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    answers = ", ".join(f"{count} {kind}" for kind, count in sorted(SENT.items()) if kind != "requests")
    print(f"hostile: {SENT['requests']} requests sent on {make_url(module_database_uri).get_backend_name()}, no 500, "
          f"nothing changed by a rejected request ({answers})")


# --- Sending a request and checking what it did --------------------------------------------

OPENING_TAG = re.compile(r"<(\w+)\b([^>]*)>")
ALERT = re.compile(r'class="(?![^"]*\bflash\b)[^"]*\b(?:error|warning)\b[^"]*"|role="alert"')
ERROR_PAGE = re.compile(r"<h1>[^<]+</h1>\s*<p>([^<]+)</p>")
TAG = re.compile(r"<[^>]+>")
INJECTED = re.compile(r"<(script|img|svg|iframe)\b", re.I)


def shows_a_message(response):
    """Whether a refused request says what was wrong: an alert or error text, or the error page."""
    if response.is_json:
        return bool((response.get_json() or {}).get("error"))
    page = response.get_data(as_text=True)
    # An element marked as an error or alert, with text in it; a flashed message left over from an
    # earlier request does not count.
    alerts = (page[tag.end():page.find(f"</{tag.group(1)}>", tag.end())]
              for tag in OPENING_TAG.finditer(page) if ALERT.search(tag.group(2)))
    return any(TAG.sub("", alert).strip() for alert in alerts) or bool(
        (match := ERROR_PAGE.search(page)) and match.group(1).strip())


def short(value, most=400):
    text = repr(value)
    return text if len(text) <= most else text[:most] + f"… ({len(text)} characters)"


def first(pairs, key):
    return next((value for name, value in pairs if name == key), None)


def stays_on_site(location):
    """A redirect a browser follows to this site (the test client's localhost), reading the
    Location as browsers do: tabs and newlines dropped, backslashes as slashes."""
    seen = re.sub(r"[\t\r\n]", "", location).replace("\\", "/")
    parts = urlsplit(seen)
    if parts.scheme or parts.netloc:
        return parts.scheme in ("http", "https") and parts.netloc == "localhost"
    return not seen.startswith("//")


def send(table, client, method, url, pairs=None, game_id=None, fields=None, **options):
    """Send one request and check it: no 500, a refused one changes nothing and says why.

    ``pairs`` are form fields (duplicates allowed), or ``fields`` the ones to
    judge when the body is built otherwise; ``game_id`` names the game a write
    is aimed at, so its CSRF token and revision can be judged.
    """
    if pairs is not None:
        options["data"] = MultiDict(pairs)
        fields = pairs
    SENT["requests"] += 1
    before = table.state
    try:
        response = client.open(url, method=method, **options)
        response.get_data()
    except Exception as error:  # noqa: BLE001 - whatever escapes the app is a 500
        if table.snapshot() != before:
            table.restore()
        raise AssertionError(f"500: {method} {url} {short(pairs)} {short(options)}") from error
    after = table.snapshot()
    SENT[f"{response.status_code // 100}xx"] += 1
    SENT["refused, nothing changed" if response.status_code >= 400 else "accepted"] += 1
    try:
        status = response.status_code
        where = f"{method} {url} {short(pairs)} {short(options)} -> {status}"

        assert 200 <= status < 500, where
        if status < 300 or status >= 400:
            assert after == before, f"refused but changed: {where}"
        if method in ("GET", "HEAD", "OPTIONS"):
            assert after == before, f"a read changed data: {where}"
        if status in (400, 409) and method != "HEAD":
            assert shows_a_message(response), f"refused without a visible message: {where}"
        if 300 <= status < 400:
            location = response.headers.get("Location", "")
            assert stays_on_site(location), f"redirect off the site to {location!r}: {where}"
        if after != before and method == "POST" and fields is not None:
            assert first(fields, "csrf_token") == table.tokens.get(client), f"written without its CSRF token: {where}"
            if game_id is not None:
                revision = (first(fields, "revision") or "").strip()
                assert revision.isascii() and revision.isdigit() and int(revision) == table.revisions.get(game_id), (
                    f"written without the revision it was made from: {where}")
            created = set(row[0] for row in after["game"]) - set(row[0] for row in before["game"])
            for new_id in created:
                visit_new_game(client, new_id, fields)
    finally:
        if after != before:
            table.restore()
    return response


def visit_new_game(client, game_id, fields):
    """A game made from hostile input shows on every page, with any markup in it as text."""
    names = [value for name, value in fields if name.startswith("players-") or name == "name"]
    for url in [f"/games/{game_id}", f"/games/{game_id}/display", f"/games/{game_id}/export.json",
                f"/games/{game_id}/play", f"/games/{game_id}/hands/1/tricks"]:
        SENT["requests"] += 1
        response = client.get(url)
        page = response.get_data(as_text=True)
        assert response.status_code in (200, 302, 304, 404), f"{url} of a new game -> {response.status_code}"
        for name in names:
            if INJECTED.search(name):
                assert name.strip() not in page, f"markup shown raw on {url}: {name!r}"


# --- Strategies --------------------------------------------------------------------------------

ODD_TEXT = [
    "", " ", "\t", "0", "00", "-0", "-1", "+1", "1.0", "1e3", "0x1A", "1_000", " 7 ", "٣", "²", "¹²", "१",
    "𝟘", "Ⅻ", "NaN", "inf", "None", "null", "true", "[]", "{}", "%00", "\x00", "\x7f", "\u202e", "\ufeff",
    "\u200b", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>',
    "' OR 1=1 --", "../../etc/passwd", "{{7*7}}", "%(name)s", "%s%s%s", "{0}", "10S", "Q♠", "♥️", "10♠",
    "2c 3c", "y", "on", "add", "subtract", str(2**63), str(SQLITE_MAX), str(2**64), str(10**30), str(PAST_POSTGRES),
    "-" + str(10**30), "9" * 5000, "a" * 300, "/\r\n", "/\t/evil.example", "//evil.example", "/\\evil.example",
    "https://evil.example", "/%0d%0a", "\r\nSet-Cookie: x=1",
]
NUMBERS = st.one_of(
    st.integers(-10**30, 10**30),
    st.sampled_from([0, 1, -1, 26, 27, 2, 3, 11, 12, 2**31, 2**63 - 1, 2**63, 2**64, 10**30]),
)
JUNK = st.one_of(
    st.sampled_from(ODD_TEXT),
    NUMBERS.map(str),
    st.text(max_size=24),
    st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=3),
    st.text(st.characters(categories=["Nd", "No"]).filter(str.isdigit), min_size=1, max_size=3),  # "²", "١"
    st.floats().map(str),
)
SMALL = st.integers(-2, 30).map(str)
ANY_KEY = st.one_of(st.text(max_size=12), st.sampled_from(["csrf_token", "revision", "number", "fill", "moon",
                                                            "confirm", "cards", "add", "remove", "document"]))


@st.composite
def hostile(draw, base, keys=ANY_KEY, values=JUNK):
    """``base`` form fields with a few edits drawn: one dropped, one junk, one twice, a stray one added."""
    pairs = list(base)
    for _edit in range(draw(st.integers(0, 4))):
        edit = draw(st.sampled_from(["drop", "junk", "twice", "stray"]))
        if edit == "stray" or not pairs:
            pairs.insert(draw(st.integers(0, len(pairs))), (draw(keys), draw(values)))
            continue
        index = draw(st.integers(0, len(pairs) - 1))
        key, value = pairs[index]
        if edit == "drop":
            del pairs[index]
        elif edit == "junk":
            pairs[index] = (key, draw(values))
        else:
            pairs.insert(draw(st.integers(0, len(pairs))), (key, draw(st.just(value) | values)))
    return pairs


def token(draw, table, client):
    """The CSRF token a form carries: right, someone else's, tampered, junk or missing."""
    choice = draw(st.sampled_from(["right"] * 4 + ["other", "junk", "missing", "tampered"]))
    if choice == "missing":
        return []
    right = table.tokens[client]
    other = next(theirs for holder, theirs in table.tokens.items() if holder is not client)
    value = {"right": right, "other": other, "tampered": right[:-1] + ("1" if right[-1] == "0" else "0")}.get(choice)
    return [("csrf_token", value or draw(JUNK | st.just("20000101000000##00")))]


def revision(draw, table, game_id):
    """The revision a form was made from: the game's, stale, ahead, junk or missing."""
    current = table.revisions.get(game_id, 0)
    choice = draw(st.sampled_from(["right"] * 4 + ["stale", "ahead", "junk", "missing"]))
    if choice == "missing":
        return []
    value = {"right": str(current), "stale": str(current - 1), "ahead": str(current + 1)}.get(choice)
    return [("revision", value or draw(JUNK))]


def token_and_revision(draw, table, client, game_id):
    return token(draw, table, client) + revision(draw, table, game_id)


def game_ids(table):
    """Mostly the pristine games; now and then one that is not there, or past SQLite's integers."""
    return st.sampled_from(table.ids() * 3 + [0, 99, PAST_POSTGRES, SQLITE_MAX, 2**63, 10**30])


# --- New game ------------------------------------------------------------------------------------


@st.composite
def new_game_forms(draw, table):
    names = draw(st.one_of(
        st.lists(st.sampled_from(["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil", "Hana", "Ivo", "Jun", "Kai",
                                  "Lu"]), min_size=0, max_size=13, unique=True),
        st.lists(st.text(max_size=45) | st.sampled_from(ODD_TEXT), max_size=14),
        st.integers(12, 150).map(lambda count: [f"P{seat}" for seat in range(count)]),  # very many players-N
    ))
    seats = draw(st.sampled_from(["in order", "shuffled", "odd indices"]))
    indices = list(range(len(names)))
    if seats == "shuffled":
        indices = draw(st.permutations(indices))
    elif seats == "odd indices":
        indices = [draw(st.sampled_from([index, -index, index * 7, 10**30 + index])) for index in indices]
    base = [(f"players-{index}", name) for index, name in zip(indices, names)]
    base += [("name", draw(st.sampled_from(["Friday", "", "x" * 81]) | JUNK)),
             ("target", draw(st.sampled_from(["150", "1", "0"]) | JUNK)),
             ("first_dealer", draw(SMALL | JUNK))]
    base += token(draw, table, table.scorer)
    if draw(st.booleans()):
        base.append((draw(st.sampled_from(["add", "remove"])), draw(SMALL | JUNK)))
    return draw(hostile(base, keys=st.sampled_from(["name", "target", "first_dealer", "players-0", "players-x",
                                                    "players--1", "add", "remove", "csrf_token"]) | ANY_KEY))


def test_the_new_game_form_refuses_hostile_fields_with_a_message(table):
    @HOSTILE
    @given(pairs=new_game_forms(table))
    @example(pairs=[("csrf_token", "x")] + [(f"players-{seat}", "P") for seat in range(5000)])
    def post(pairs):
        response = send(table, table.scorer, "POST", "/games/new", pairs)

        assert response.status_code in (200, 302, 400)

    post()


# --- Recording, correcting and removing hands ---------------------------------------------------


@st.composite
def hand_requests(draw, table):
    game_id = draw(game_ids(table))
    hands = table.hands.get(game_id, 0)
    number = draw(st.one_of(st.just(None), st.integers(1, hands + 1) if hands else st.just(1),
                            st.sampled_from([0, 99, PAST_POSTGRES, SQLITE_MAX, 2**63])))
    url = f"/games/{game_id}/hands/" + ("new" if number is None else str(number))
    players = 9 if game_id in (table.games["tricks"], table.games["kitty"]) else 6
    taken = draw(st.sampled_from([SPREAD, OTHER, [(26, 2)] + [(0, 0)] * 5, NINE_HAND]))
    base = [(name, value) for name, value in hand_form(taken[:players], number or hands + 1).items()]
    if draw(st.integers(0, 3)) == 0:
        base = [(name, draw(JUNK) if name == "number" else value) for name, value in base]
    base += token_and_revision(draw, table, table.scorer, game_id)
    if draw(st.booleans()):
        base.append(("moon", draw(st.sampled_from(["add", "subtract"]) | JUNK)))
    if draw(st.booleans()):
        base.append(("last_trick_reserved", draw(st.just("y") | JUNK)))
    if draw(st.integers(0, 4)) == 0:
        base.append(("fill", draw(SMALL | JUNK)))
    seat = st.one_of(st.integers(0, 12), st.sampled_from([-1, 99, 10**30])).map(str)
    keys = st.builds(lambda seat, part: f"takings-{seat}-{part}", seat | JUNK,
                     st.sampled_from(["hearts", "marias", "x", ""]))
    method = draw(st.sampled_from(["POST"] * 6 + ["GET", "PUT", "DELETE"]))
    return method, url, game_id, draw(hostile(base, keys=keys | ANY_KEY, values=SMALL | JUNK))


def test_hand_forms_refuse_hostile_fields_and_change_nothing(table):
    @HOSTILE
    @given(request=hand_requests(table))
    def post(request):
        method, url, game_id, pairs = request

        response = send(table, table.scorer, method, url, pairs, game_id=game_id)

        assert response.status_code in (200, 302, 400, 404, 405, 409)

    post()


@st.composite
def removals_and_reverts(draw, table):
    game_id = draw(game_ids(table))
    all_changes = [change for changes in table.changes.values() for change in changes]
    if draw(st.booleans()):
        number = draw(st.integers(1, 4) | st.sampled_from([0, PAST_POSTGRES, SQLITE_MAX, 2**63]))
        url = f"/games/{game_id}/hands/{number}/remove"
        method = draw(st.sampled_from(["POST", "POST", "GET", "PUT"]))
    else:
        change = draw(st.sampled_from(all_changes) | st.integers(0, 50) | st.sampled_from([2**63, 10**30]))
        url = f"/games/{game_id}/changes/{change}/undo"
        method = draw(st.sampled_from(["POST", "POST", "POST", "GET"]))
    return method, url, game_id, draw(hostile(token_and_revision(draw, table, table.scorer, game_id)))


def test_removals_and_reverts_refuse_hostile_fields_and_change_nothing(table):
    @HOSTILE
    @given(request=removals_and_reverts(table))
    def post(request):
        method, url, game_id, pairs = request

        response = send(table, table.scorer, method, url, pairs, game_id=game_id)

        assert response.status_code in (200, 302, 400, 404, 405, 409)

    post()


# --- Playing tricks ---------------------------------------------------------------------------------


@st.composite
def trick_requests(draw, table):
    game_id = draw(game_ids(table))
    action = draw(st.sampled_from(["play", "play", "play", "play/kitty", "play/undo"]))
    method = draw(st.sampled_from(["POST"] * 5 + ["GET", "PATCH"]))
    base = token_and_revision(draw, table, table.scorer, game_id)
    if action == "play":
        trick = draw(st.sampled_from([RESERVED_TRICK, TRICKS[2], TRICKS[4], "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣"]))
        cards = trick.split()
        base += [(f"cards-{position}", card) for position, card in enumerate(cards)]
        base.append(("number", draw(st.sampled_from(["1", "2", "3"]) | JUNK)))
        if draw(st.booleans()):
            base.append(("confirm", draw(st.just("y") | JUNK)))
    elif action == "play/kitty":
        kitties = st.sampled_from([KITTY, "2♥ 3♥", KITTY + " " + KITTY, "10♠ 10♠ 10♠ 2♥ 3♥"])
        base.append(("cards", draw(kitties | JUNK | st.lists(st.sampled_from(ODD_TEXT), max_size=12).map(" ".join))))
    card_keys = st.builds(lambda position: f"cards-{position}", st.integers(0, 12) | st.sampled_from([-1, 10**30]))
    card_values = st.one_of(JUNK, st.builds(lambda rank, suit: f"{rank}{suit}",
                                            st.sampled_from(["2", "10", "1", "11", "Q", "ſ", "A", ""]),
                                            st.sampled_from(["S", "♠", "♡", "h", "♥️", "X", ""])))
    pairs = draw(hostile(base, keys=card_keys | ANY_KEY, values=card_values))
    return method, f"/games/{game_id}/{action}", game_id, pairs


def test_trick_forms_refuse_hostile_cards_and_change_nothing(table):
    @HOSTILE
    @given(request=trick_requests(table))
    def post(request):
        method, url, game_id, pairs = request

        response = send(table, table.scorer, method, url, pairs, game_id=game_id)

        assert response.status_code in (200, 302, 400, 404, 405, 409)

    post()


# --- Import -----------------------------------------------------------------------------------------

SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\ud83d"])
JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), NUMBERS, st.floats(), st.text(max_size=12), SURROGATES, st.sampled_from(ODD_TEXT),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def paths(document, at=()):
    """Every place in a JSON document, as the keys and indices that lead there (the root is ())."""
    places = [at]
    if isinstance(document, dict):
        for key, value in document.items():
            places += paths(value, at + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            places += paths(value, at + (index,))
    return places


def found(document, at):
    """The value at a place in a JSON document."""
    for key in at:
        document = document[key]
    return document


def nested(depth):
    value = []
    for _level in range(depth):
        value = [value]
    return value


@st.composite
def mutated_documents(draw, originals):
    """An exported game with a few edits: a value replaced, dropped, added, nested deep, renumbered or retyped."""
    document = json.loads(json.dumps(draw(st.sampled_from(originals))))
    for _edit in range(draw(st.integers(1, 3))):
        edit = draw(st.sampled_from(["replace", "drop", "add", "deepen", "renumber", "retext"]))
        places = paths(document)
        if draw(st.booleans()):
            places = [at for at in places if len(at) <= 1]  # the game's own fields, often
        kind = {"renumber": (int, float), "retext": (str,)}.get(edit)
        if kind:
            places = [at for at in places if isinstance(found(document, at), kind)] or places
        at = draw(st.sampled_from(places))
        parent, node = (found(document, at[:-1]) if at else None), found(document, at)
        if edit == "renumber":
            value = draw(st.sampled_from([2**63, 2**64, 10**30, SQLITE_MAX, -1, 0, True, 1.0, 1e999]) | NUMBERS)
        elif edit == "retext":
            value = draw(SURROGATES | st.sampled_from(ODD_TEXT) | st.text(max_size=45))
        elif edit == "deepen":
            value = nested(draw(st.sampled_from([10, 100, 900])))
        else:
            value = draw(JSON_VALUES)
        if not at:
            document = document if edit in ("drop", "add") else value
        elif edit == "drop":
            del parent[at[-1]]
        elif edit == "add" and isinstance(node, dict):
            node[draw(st.text(max_size=8) | st.sampled_from(["format", "hands", "tricks", "kitty", "played"]))] = value
        elif edit == "add" and isinstance(node, list):
            node.insert(draw(st.integers(0, len(node))), value)
        else:
            parent[at[-1]] = value
    return document


def encodings(document):
    text = json.dumps(document, allow_nan=True)
    return st.sampled_from([
        text.encode(), b"\xef\xbb\xbf" + text.encode(), text.encode("utf-16"),
        json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass"),
    ])


# What a paper season's cells may hold when a secretary (or a spreadsheet) gets them wrong.
SEASON_CELLS = ["", " ", "0", "26MM", "MMM", "M", "m", "27", "999", "-26", "+1", "7/1", "5 M", "1e3", "٣", "²",
                "subtract", "add", "yes", "no", "Yes", '"', '""', "2026-02-30", "1899-12-31", "3026-01-01", "Game",
                "hand", "moon", "reserved", "date", "Ana", "ANA", "Аna", "\u200bBo", "x" * 300, "9" * 40]


@st.composite
def seasons(draw):
    """The template of a season's CSV with a few edits: a cell replaced, a line dropped, doubled, cut short or
    made longer; written with any separator, its cells quoted or left bare (a stray quote breaks the line)."""
    rows = [list(row) for row in TEMPLATE_ROWS]
    for _edit in range(draw(st.integers(1, 4))):
        if not rows:
            break
        line = draw(st.integers(0, len(rows) - 1))
        edit = draw(st.sampled_from(["cell", "cell", "cell", "drop", "double", "cut", "widen"]))
        if edit == "cell" and rows[line]:
            rows[line][draw(st.integers(0, len(rows[line]) - 1))] = draw(st.sampled_from(SEASON_CELLS) | JUNK)
        elif edit == "drop":
            del rows[line]
        elif edit == "double":
            rows.insert(line, list(rows[line]))
        elif edit == "cut":
            rows[line] = rows[line][:draw(st.integers(0, len(rows[line])))]
        else:
            rows[line].append(draw(st.sampled_from(SEASON_CELLS) | JUNK))
    separator = draw(st.sampled_from([",", ";", "\t"]))
    ending = draw(st.sampled_from(["\r\n", "\n", "\r"]))
    if draw(st.booleans()):
        written = io.StringIO()
        csv.writer(written, delimiter=separator, lineterminator=ending).writerows(rows)
        return written.getvalue()
    return ending.join(separator.join(row) for row in rows)


def season_encodings(text):
    return st.sampled_from([
        text.encode("utf-8", "surrogatepass"), b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"),
        text.encode("utf-16", "surrogatepass"), text.encode("latin-1", "replace"), text.encode("utf-16-le", "replace"),
    ])


@st.composite
def import_requests(draw, table):
    originals = list(table.exports.values())
    content = draw(st.one_of(
        mutated_documents(originals).flatmap(encodings),
        JSON_VALUES.flatmap(encodings),
        seasons().flatmap(season_encodings),
        st.binary(max_size=64),
        st.sampled_from([b"", b"null", b"[]", b"{}", b"NaN", b"1e999", b"\xff\xfe", b"{" * 100_000,
                         b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
                         b'"' + b"\\ud800" * 10 + b'"', b"9" * 5000, b'"' * 100_000, b"," * 100_000,
                         b"game,date,hand," + b"P," * 50_000, b"\n" * 100_000]),
    ))
    upload = draw(st.sampled_from(["file", "file", "file", "field", "missing", "twice", "beside a game"]))
    filename = draw(st.sampled_from(["game.json", "", "../../x.json", "<script>.json", "é.json", "season.csv",
                                     "PAPER.TXT", "<b>season</b>.csv", "a\\b.tsv"]))
    return token(draw, table, table.scorer), upload, content, filename


def multipart(parts):
    """A multipart/form-data body and its content type, built here: the test client would spool a big
    body to a temporary file that it never closes."""
    boundary = "hostile-boundary-7d3f"
    chunks = []
    for name, value, filename in parts:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
        if filename is not None:
            head += f'; filename="{filename}"\r\nContent-Type: application/json'
        chunks.append(head.encode() + b"\r\n\r\n" + value + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def upload_form(pairs, upload, content, filename, game=b"{}"):
    """The import form's parts: the document as a file, twice, after a game's document (``game``), as plain
    text, or not at all."""
    parts = [(name, value.encode(), None) for name, value in pairs]
    if upload in ("file", "twice"):
        parts += [("document", content, filename)] * (2 if upload == "twice" else 1)
    elif upload == "beside a game":
        parts += [("document", game, "first.json"), ("document", content, filename)]
    elif upload == "field":
        parts.append(("document", content, None))
    return multipart(parts)


def test_import_refuses_hostile_documents_and_changes_nothing(table):
    big = b'{"a":' * 50_000 + b"1" + b"}" * 50_000

    @HOSTILE
    @given(request=import_requests(table))
    @example(request=([("csrf_token", table.tokens[table.scorer])], "twice", big, "game.json"))
    def post(request):
        pairs, upload, content, filename = request
        game = json.dumps(table.exports[table.games["scored"]]).encode()
        body, content_type = upload_form(pairs, upload, content, filename, game)

        response = send(table, table.scorer, "POST", "/games/import", fields=pairs, data=body,
                        content_type=content_type)

        assert response.status_code in (302, 400, 413)

    post()


def test_a_document_too_big_to_be_a_game_is_refused(table):
    pairs = [("csrf_token", table.tokens[table.scorer])]
    body, content_type = upload_form(pairs, "file", b'{"padding": "' + b"x" * 1024 * 1024 + b'"}', "big.json")

    response = send(table, table.scorer, "POST", "/games/import", fields=pairs, data=body, content_type=content_type)

    assert response.status_code == 413


# --- Reading pages ---------------------------------------------------------------------------------


@st.composite
def reads(draw, table):
    game_id = draw(game_ids(table))
    key = table.keys.get(game_id, "k" * 32)
    near_miss = draw(st.sampled_from([key[:-1], key + "x", key.upper(), key.swapcase(), key[::-1], " " + key,
                                      key + "\x00", key[:-1] + ("B" if key.endswith("A") else "A")]) | JUNK)
    tail = draw(st.sampled_from(["", "/watch", "/display", "/state", "/export.json", "/sheet", "/sheet.csv",
                                 "/hands/1/tricks",
                                 "/hands/2/tricks", "/hands/99/tricks", "/scorer/" + quote(near_miss, safe="")]))
    query = draw(st.dictionaries(st.sampled_from(["cards", "game", "leader", "next", "x"]) | st.text(max_size=5),
                                 JUNK | st.sampled_from([str(game_id)]), max_size=3))
    url = draw(st.sampled_from([f"/games/{game_id}{tail}", "/", "/rules", "/settle", "/settle.json",
                                "/games/new", "/games/import", "/games/import/season.csv", "/players", "/stats.json",
                                f"/language/{quote(draw(JUNK), safe='') or 'x'}",
                                "/language/en", "/language/nb"]))
    if url.startswith("/language/") and draw(st.booleans()):
        query["next"] = draw(st.sampled_from(["/", "/rules", "//evil.example", "/\\evil.example", "/\t/evil.example",
                                              "/\n/evil.example", "/\r\n", "https://evil.example", "/%2F/x"])
                             | st.text(max_size=12).map(lambda text: "/" + text))
    header_text = st.text(st.characters(codec="latin-1", exclude_categories=["Cc"]), max_size=20)
    headers = {}
    if draw(st.booleans()):
        headers["If-None-Match"] = draw(
            st.sampled_from(['"r1"', "*", 'W/"r0"', "", '"' + "x" * 500 + '"']) | header_text)
    if draw(st.booleans()):
        headers["Accept-Language"] = draw(
            st.sampled_from(["pt", "es-ES;q=0.9", "ms", "nb", "*", "xx", ";;;q=abc"]) | header_text)
    return draw(st.sampled_from(["GET", "GET", "GET", "HEAD"])), url, query, headers


def test_pages_answer_hostile_queries_without_a_500_or_a_change(table):
    @HOSTILE
    @given(request=reads(table))
    @example(request=("GET", "/language/en", {"next": "/\t/evil.example"}, {}))
    def get(request):
        method, url, query, headers = request

        response = send(table, table.stranger, method, url, query_string=query, headers=headers)

        assert response.status_code in (200, 301, 302, 304, 308, 400, 404, 405)
        if "/scorer/" in url and url.split("/")[2].isdigit():
            assert response.status_code == 404, "a wrong scorer key made a scorer"

    get()


# --- The club's people ------------------------------------------------------------------------------


def person_ids(table):
    """The pristine people, and ids that name nobody."""
    people = [row[0] for row in table.state["person"]]
    return st.sampled_from(people * 3 + [0, 999, PAST_POSTGRES, SQLITE_MAX, 2**63])


@st.composite
def people_requests(draw, table):
    """A read of the club's pages, or a change to people or to the club sent by the secretary or a guest."""
    person = draw(person_ids(table))
    other = draw(person_ids(table).map(str) | JUNK)
    action = draw(st.sampled_from(["rename", "merge", "undo", "club undo", "device", "void", "date", "count",
                                   "game undo", "page", "season", "stats", "club", "link"]))
    if action in ("page", "season", "stats", "club", "link"):
        url = {"page": f"/players/{person}", "season": "/players", "stats": "/stats.json", "club": "/club",
               "link": f"/club/secretary/{draw(JUNK)}"}[action]
        query = draw(st.dictionaries(st.sampled_from(["since", "until", "min_games", "sort", "page"])
                                     | st.text(max_size=5),
                                     JUNK | st.sampled_from(["2026-12-01", "2026-02-29", "0001-01-01", "9999-12-31",
                                                             "-wins", "points_per_hand", "name", "2", "42949674"]),
                                     max_size=4))
        return "GET", url, query, None, table.stranger
    sender = draw(st.sampled_from([table.scorer, table.scorer, table.stranger]))
    game = draw(st.sampled_from([str(game_id) for game_id in table.ids()] + ["0", "999"]) | JUNK)
    base = token(draw, table, sender)
    base += {"rename": [("name", draw(st.sampled_from(["Ana", "ＡＮＡ", "Zed", " bo ", "x" * 41, "Zed\u2028",
                                                       "\u202eZed", "\u0301\u0301"]) | JUNK))],
             "merge": [("other", other)],
             "undo": [("change", draw(st.sampled_from(["1", "0"]) | JUNK))],
             "club undo": [("change", draw(st.sampled_from(["1", "0", " "]) | JUNK))],
             "device": [("name", draw(st.sampled_from(["Ana's phone", "", "x" * 41, "a\u2029b"]) | JUNK))],
             "void": [("game", game), ("reason", draw(st.sampled_from(["Practice", "", "x" * 201]) | JUNK))],
             "date": [("game", game), ("day", draw(st.sampled_from(["2026-11-06", "2026-02-30", "1899-12-31",
                                                                    "9999-12-31", ""]) | JUNK))],
             "count": [],
             "game undo": [("change", draw(st.sampled_from(["1", "0", " "]) | JUNK))]}[action]
    url = {"club undo": "/club/undo", "device": "/club/device", "void": "/club/void", "date": "/club/date",
           "count": f"/club/games/{game}/count", "game undo": "/club/games/undo"}.get(
        action, f"/players/{person}/{action}")
    return "POST", url, None, draw(hostile(base)), sender


def test_the_people_pages_and_forms_refuse_hostile_input_with_a_message(table):
    """The secretary's hostile changes are refused in words; a guest's are refused (403), whatever they send."""
    @HOSTILE
    @given(request=people_requests(table))
    def send_one(request):
        method, url, query, pairs, sender = request

        if method == "GET":
            response = send(table, sender, method, url, query_string=query)
        else:
            response = send(table, sender, method, url, pairs)

        assert response.status_code in (200, 302, 400, 403, 404, 409)
        if response.status_code == 403:
            assert sender is table.stranger, f"the secretary was refused: {url}"
        if sender is table.stranger and method == "POST":
            assert response.status_code in (400, 403, 404), f"a guest changed the club: {url} {short(pairs)}"
        if url.startswith("/club/secretary/"):
            assert response.status_code == 404, "a wrong secretary key made a secretary"

    send_one()


# --- A phone without the scorer key ----------------------------------------------------------------


@st.composite
def strangers_writes(draw, table):
    role = draw(st.sampled_from(sorted(table.games)))
    game_id = table.games[role]
    hands = table.hands[game_id]
    reverts = [f"/changes/{change}/undo" for changes in table.changes.values() for change in changes]
    tail = draw(st.sampled_from(["/hands/new", f"/hands/{max(hands, 1)}", f"/hands/{max(hands, 1)}/remove",
                                 "/play", "/play/kitty", "/play/undo", "/hands/1", "/hands/99", "/hands/99/remove",
                                 *reverts]))
    method = draw(st.sampled_from(["POST", "POST", "POST", "GET"]))
    base = token_and_revision(draw, table, table.stranger, game_id)
    players = 9 if role in ("tricks", "kitty") else 6
    base += list(hand_form((SPREAD if players == 6 else NINE_HAND), hands + 1).items())
    base += [(f"cards-{position}", card) for position, card in enumerate(RESERVED_TRICK.split())]
    base.append(("cards", KITTY))
    return method, f"/games/{game_id}{tail}", game_id, draw(hostile(base))


def test_a_phone_without_the_scorer_key_is_refused_whatever_it_sends(table):
    @HOSTILE
    @given(request=strangers_writes(table))
    def post(request):
        method, url, game_id, pairs = request

        response = send(table, table.stranger, method, url, pairs, game_id=game_id)

        posts_only = url.endswith(("/kitty", "/play/undo"))  # an entry's undo asks first on GET: scorers only
        assert response.status_code == (405 if method == "GET" and posts_only else 403)

    post()


# --- Odd paths and methods ---------------------------------------------------------------------------


@st.composite
def odd_requests(draw, table):
    segment = st.one_of(
        st.sampled_from(["games", "hands", "new", "play", "kitty", "undo", "changes", "revert", "remove", "scorer",
                         "state", "watch", "display", "export.json", "tricks", "import", "settle", "settle.json",
                         "language", "rules", "static", "..", ".", "", "%2e%2e", "%2F", "style.css"]),
        st.sampled_from(table.ids()).map(str),
        NUMBERS.map(str),
        JUNK.map(lambda text: quote(text, safe="")),
    )
    path = "/" + "/".join(draw(st.lists(segment, min_size=1, max_size=6))).lstrip("/")
    method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"]))
    return method, path, draw(hostile(token_and_revision(draw, table, table.scorer, None)))


def test_odd_paths_and_methods_are_answered_without_a_500(table):
    @HOSTILE
    @given(request=odd_requests(table))
    def anything(request):
        method, path, pairs = request

        response = send(table, table.scorer, method, path, pairs)

        if method in ("PUT", "DELETE", "PATCH", "TRACE"):
            assert response.status_code in (404, 405)

    anything()


# --- Found by these tests: each bug as its smallest request ---------------------------------------------


@pytest.fixture
def pristine(table):
    """The table, put back as it was after the test whatever the request did."""
    yield table
    if table.snapshot() != table.state:
        table.restore()


def new_game_fields(table, **fields):
    return {"csrf_token": table.tokens[table.scorer], "target": "150", "first_dealer": "0",
            **{f"players-{seat}": name for seat, name in enumerate(SIX)}, **fields}


def import_document(table, change):
    document = json.loads(json.dumps(table.exports[table.games["scored"]]))
    change(document)
    body, content_type = upload_form([("csrf_token", table.tokens[table.scorer])], "file",
                                     json.dumps(document).encode(), "game.json")
    return table.scorer.post("/games/import", data=body, content_type=content_type)


@pytest.mark.parametrize("game_id", [2**31, 3_000_000_000, 2**63])
@pytest.mark.parametrize("tail", ["", "/state", "/watch", "/display", "/export.json", "/scorer/x", "/hands/new"])
def test_a_game_id_past_the_databases_integers_is_not_found(pristine, tail, game_id):
    response = pristine.stranger.get(f"/games/{game_id}{tail}")

    assert response.status_code == 404


@pytest.mark.parametrize("page", ["2", "0", "-1", "²", "x", "", str(LAST_PAGE + 1), "42949674", str(PAST_POSTGRES),
                                  str(2**63)])
def test_a_page_of_a_persons_games_past_their_last_is_not_found(pristine, page):
    """A page number typed into the address past their last page, on PostgreSQL one whose OFFSET the
    database cannot hold too (a 500 there), is no page of theirs: 404 on both databases."""
    person = pristine.state["person"][0][0]

    first = pristine.stranger.get(f"/players/{person}", query_string={"page": "1"})
    response = pristine.stranger.get(f"/players/{person}", query_string={"page": page})

    assert first.status_code == 200 and b"Scored" in first.data
    assert response.status_code == 404


@pytest.mark.parametrize("query", [{"game": str(2**63)}, {"game": "3000000000"}, {"game": "²"},
                                   {"game": "1", "leader": "²"}],
                         ids=["huge game", "past postgresql integers", "superscript game", "superscript leader"])
def test_settling_with_a_game_or_leader_that_is_no_number_ignores_it(pristine, query):
    response = pristine.stranger.get("/settle", query_string=query)

    assert response.status_code == 200


@pytest.mark.parametrize("target", [str(2**63), " "], ids=["past sqlite integers", "blank"])
def test_a_target_too_big_or_blank_is_refused_with_a_message(pristine, target):
    response = pristine.scorer.post("/games/new", data=new_game_fields(pristine, target=target))

    assert response.status_code == 400
    assert shows_a_message(response)
    assert pristine.snapshot() == pristine.state


@pytest.mark.parametrize(("url", "name"), [
    ("/games/new", "players-²"),
    ("/games/{scored}/hands/new", "takings-፩-hearts"),
    ("/games/{scored}/hands/1", "takings-²-marias"),
    ("/games/{tricks}/play", "cards-²"),
], ids=["player", "new hand", "correction", "trick"])
def test_a_list_field_numbered_with_a_superscript_digit_is_refused(pristine, url, name):
    response = pristine.scorer.post(url.format(**pristine.games), data={name: "x"})

    assert response.status_code == 400


def test_a_superscript_digit_as_the_hand_number_is_refused(pristine):
    game_id = pristine.games["scored"]
    fields = {"csrf_token": pristine.tokens[pristine.scorer], "revision": str(pristine.revisions[game_id]),
              "number": "²"}

    response = pristine.scorer.post(f"/games/{game_id}/hands/new", data=fields)

    assert response.status_code == 400


@pytest.mark.parametrize("change", [
    lambda document: document.update(target=2**63),
    lambda document: document.update(name="\ud800"),
    lambda document: document["players"].__setitem__(0, "\udcff"),
], ids=["target past sqlite integers", "lone surrogate in the name", "lone surrogate in a player"])
def test_importing_what_the_database_cannot_hold_is_refused(pristine, change):
    response = import_document(pristine, change)

    assert response.status_code == 400
    assert shows_a_message(response)
    assert pristine.snapshot() == pristine.state


@pytest.mark.parametrize("back", ["/\r\n", "/\t/evil.example", "/\n/evil.example", "//evil.example",
                                  "/\\evil.example", "https://evil.example"])
def test_choosing_a_language_never_leads_off_the_site(pristine, back):
    response = pristine.stranger.get("/language/en", query_string={"next": back})

    assert response.status_code == 302
    assert stays_on_site(response.headers["Location"]), response.headers["Location"]


@pytest.mark.parametrize("url", ["/games/{kitty}/play", "/games/{kitty}/play/kitty"], ids=["trick", "kitty"])
def test_a_form_refused_for_its_token_while_the_kitty_is_awaited_says_why(pristine, url):
    game_id = pristine.games["kitty"]
    fields = {"revision": str(pristine.revisions[game_id]), "number": "3", "cards-0": "A♣", "cards": KITTY}

    response = pristine.scorer.post(url.format(**pristine.games), data=fields)

    assert response.status_code == 400
    assert shows_a_message(response)


def test_removing_a_hand_without_a_revision_is_refused(pristine):
    game_id = pristine.games["scored"]

    response = pristine.scorer.post(f"/games/{game_id}/hands/1/remove",
                                    data={"csrf_token": pristine.tokens[pristine.scorer]})

    assert response.status_code == 400
    assert pristine.snapshot() == pristine.state
