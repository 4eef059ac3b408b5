"""Every check once: what recording, correcting and importing a game cost in the engine and in SQL.

The engine's one check of a hand's takings (``rules.hand.takings_problems``),
its scoring of a whole game (``rules.score_game``) and its replay of a trick
log (``rules.check_log``) are counted while the web records, corrects and
imports; and the SQL statements of recording a hand are counted, none of
them after the commit.
"""

import io
import json
import random

from sqlalchemy import event

from scorekeeper import rules
from scorekeeper.db.models import db
from scorekeeper.rules import hand as rules_hand
from scorekeeper.service import names

from .tabletop import (
    ELEVEN,
    PLAYER_NAMES,
    HandMix,
    create_game,
    csrf_token,
    game_document,
    hand_form,
    hidden_fields,
    post_hand,
    random_hand,
)

HAND = [(3, 0), (2, 1), (3, 0), (2, 0), (3, 1), (2, 0), (3, 0), (2, 0), (3, 0), (2, 0), (1, 0)]  # 26 and 2


class Calls:
    """Counts the calls of some engine functions, passing each call through."""

    def __init__(self, monkeypatch, **functions):
        self.counts = dict.fromkeys(functions, 0)
        for name, (owner, attribute) in functions.items():
            original = getattr(owner, attribute)
            monkeypatch.setattr(owner, attribute, self._counting(name, original))

    def _counting(self, name, original):
        def counted(*args, **kwargs):
            self.counts[name] += 1
            return original(*args, **kwargs)
        return counted


def counting(monkeypatch):
    return Calls(monkeypatch, score_game=(rules, "score_game"), score_next_hand=(rules, "score_next_hand"),
                 takings=(rules_hand, "takings_problems"), logs=(rules, "check_log"))


def eleven_hand_game(client):
    game_id = create_game(client, ELEVEN, target=100_000)
    for _hand in range(11):
        assert post_hand(client, game_id, HAND).status_code == 302
    return game_id


def test_recording_a_hand_scores_and_checks_the_new_hand_once_and_no_hand_before_it(client, monkeypatch):
    game_id = eleven_hand_game(client)
    fields = hidden_fields(client, f"/games/{game_id}/hands/new")  # the form as the scorer saw it
    calls = counting(monkeypatch)

    response = client.post(f"/games/{game_id}/hands/new", data={**fields, **hand_form(HAND, 12)})

    assert response.status_code == 302
    assert calls.counts == {"score_game": 0, "score_next_hand": 1, "takings": 1, "logs": 0}


def test_correcting_a_hand_scores_the_game_once_and_checks_the_corrected_hand_once(client, monkeypatch):
    game_id = eleven_hand_game(client)
    fields = hidden_fields(client, f"/games/{game_id}/hands/4")
    calls = counting(monkeypatch)

    response = client.post(f"/games/{game_id}/hands/4", data={**fields, **hand_form(HAND[::-1], 4)})

    assert response.status_code == 302
    assert calls.counts == {"score_game": 1, "score_next_hand": 0, "takings": 1, "logs": 0}


def test_an_import_checks_each_hand_and_each_trick_log_once_and_scores_the_game_once(client, monkeypatch):
    rng = random.Random(11)
    entries = [random_hand(rng, 9, number, 0, HandMix(played=0.4))[1] for number in range(1, 31)]
    document = game_document("Counted", PLAYER_NAMES[:9], 0, 100_000, entries)
    logs = sum(entry["tricks"] is not None for entry in entries)
    assert logs
    token = csrf_token(client, "/games/import")
    calls = counting(monkeypatch)

    upload = (io.BytesIO(json.dumps(document).encode()), "game.json")
    response = client.post("/games/import", data={"csrf_token": token, "document": upload},
                           content_type="multipart/form-data")

    assert response.status_code == 302, response.get_data(as_text=True)
    assert calls.counts == {"score_game": 1, "score_next_hand": 0, "takings": 30, "logs": logs}


def busy_table(joiners):
    """A game of six whose table, before each hand from 2 on, seats five joiners and sees them off again (R1):
    ``joiners`` in all, each a name to check."""
    rng = random.Random(5)
    hands = [random_hand(rng, 6, number, 0)[1] for number in range(1, joiners // 5 + 1)]
    document = game_document("Busy", PLAYER_NAMES[:6], 0, 1_000_000, hands)
    changes = []
    for number in range(joiners):
        before_hand, name = number // 5 + 2, f"Guest {number + 1}"
        changes.append({"before_hand": before_hand, "join": name, "at": 0, "start": 0})
        if number % 5 == 4:
            gone = range(number - 3, number + 2)
            changes += [{"before_hand": before_hand, "leave": f"Guest {leaver}"} for leaver in gone]
    document.update(version=2, seat_changes=changes)
    return document


def name_checks(client, monkeypatch, document):
    """How often importing ``document`` asks the rules about names (their key, what is wrong with one)."""
    token = csrf_token(client, "/games/import")
    calls = Calls(monkeypatch, key=(names, "key"), problem=(names, "problem"))

    upload = (io.BytesIO(json.dumps(document).encode()), "game.json")
    response = client.post("/games/import", data={"csrf_token": token, "document": upload},
                           content_type="multipart/form-data")

    assert response.status_code == 302, response.get_data(as_text=True)
    monkeypatch.undo()
    return calls.counts["key"] + calls.counts["problem"]


def test_an_import_checks_its_names_once_each_however_many_join_and_leave(client, monkeypatch):
    few = name_checks(client, monkeypatch, busy_table(20))

    many = name_checks(client, monkeypatch, busy_table(160))

    # Each name a few times: 8 times the joiners, about 8 times the checks (checking the roster again for
    # every joiner, as imports once did, made it 50 times: O(N²)).
    print(f"name checks: {few} for 20 joiners, {many} for 160")
    assert many <= 9 * few
    assert many <= 5 * (6 + 160)


def test_recording_a_hand_costs_a_few_statements_and_none_after_its_commit(app, client):
    game_id = eleven_hand_game(client)
    fields = hidden_fields(client, f"/games/{game_id}/hands/new")
    statements = []
    with app.app_context():
        engine = db.engine

    def seen(_connection, _cursor, statement, *_rest):
        statements.append(statement.split()[0].upper())

    def committed(_connection):
        statements.append("COMMIT")

    event.listen(engine, "before_cursor_execute", seen)
    event.listen(engine, "commit", committed)
    try:
        client.post(f"/games/{game_id}/hands/new", data={**fields, **hand_form(HAND, 12)})
    finally:
        event.remove(engine, "before_cursor_execute", seen)
        event.remove(engine, "commit", committed)

    print(f"record a hand: {len(statements) - 1} SQL statements ({', '.join(statements)})")
    assert statements[-1] == "COMMIT", "nothing is read after the commit"
    assert statements.count("SELECT") <= 6  # the game and what it holds, loaded once
    assert len(statements) - 1 <= 11  # also printed by the benchmark (section 2); one is the list's summary


class Statements:
    """The SQL statements the app runs, the first word of each, and COMMIT where a transaction committed."""

    def __init__(self, app):
        with app.app_context():
            self.engine = db.engine
        self.seen = []

    def _statement(self, _connection, _cursor, statement, *_rest):
        self.seen.append(statement.split()[0].upper())

    def _commit(self, _connection):
        self.seen.append("COMMIT")

    def during(self, request):
        """Run ``request`` (a callable); the statements it ran, in order."""
        self.seen = []
        event.listen(self.engine, "before_cursor_execute", self._statement)
        event.listen(self.engine, "commit", self._commit)
        try:
            response = request()
        finally:
            event.remove(self.engine, "before_cursor_execute", self._statement)
            event.remove(self.engine, "commit", self._commit)
        return response, self.seen


def test_no_write_reads_the_game_back_after_its_commit(app, client):
    """Every kind of write through the web: a new game, a hand recorded, corrected, removed, an undo, a join,
    a leave, the house rules, a trick, its take-back: each commits once and reads nothing after."""
    from .tabletop import game_form

    watch = Statements(app)
    nine = ELEVEN[:9]

    def posted(url, fields, get=None):
        shown = hidden_fields(client, get or url)
        response, seen = watch.during(lambda: client.post(url, data={**shown, **fields}))
        assert response.status_code == 302, (url, response.get_data(as_text=True)[:500])
        assert seen.count("COMMIT") == 1 and seen[-1] == "COMMIT", (url, seen)
        return response

    fields = {**game_form(nine), "csrf_token": csrf_token(client, "/games/new")}
    response, seen = watch.during(lambda: client.post("/games/new", data=fields))
    assert seen.count("COMMIT") == 1 and seen[-1] == "COMMIT", seen
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    nine_hand = HAND[:8] + [(6, 0)]
    posted(f"/games/{game_id}/hands/new", hand_form(nine_hand, 1))
    posted(f"/games/{game_id}/hands/new", hand_form(nine_hand, 2))
    posted(f"/games/{game_id}/hands/1", hand_form(nine_hand[::-1], 1))
    posted(f"/games/{game_id}/hands/2/remove", {})
    with app.app_context():
        from scorekeeper import service
        from scorekeeper.db.models import Game

        removal = service.trail(db.session.get(Game, game_id))[0].change.id
    posted(f"/games/{game_id}/changes/{removal}/undo", {}, get=f"/games/{game_id}/changes/{removal}/undo")
    posted(f"/games/{game_id}/seating", {"name": "Zoë", "at": "0", "start_rule": "highest"})
    posted(f"/games/{game_id}/seating/leave", {"player": "1"}, get=f"/games/{game_id}/seating/leave?player=1")
    posted(f"/games/{game_id}/rules", {"rules-moon_points": "52", "rules-moon_choice": "either",
                                       "rules-passing": "left right", "rules-cards_passed": "3"})
    trick = {f"cards-{seat}": card for seat, card in enumerate("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣".split())}
    posted(f"/games/{game_id}/play", {"number": "1", **trick})
    posted(f"/games/{game_id}/play/undo", {}, get=f"/games/{game_id}/play")
