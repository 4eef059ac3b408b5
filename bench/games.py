"""The games the benchmark measures: generated from tests/tabletop.py, imported, and written to as the scorer.

Two writes: recording one hand more (the game grows), and correcting one hand
back and forth (the game's revision moves, its length stays). A first view
after a new hand is timed on games that take a hand before each view, in
turn (``GamePool``), so that the length timed stays near the one named.
"""

import json
import random
from dataclasses import dataclass

from bench.server import migrated_app
from scorekeeper import rules, service
from scorekeeper.db.models import db
from scorekeeper.documents.game import MOST_UPLOADED_HANDS
from tests.tabletop import (
    ELEVEN,
    SIX,
    HandMix,
    form_fields,
    game_document,
    hand_form,
    random_hand,
    random_taken,
    store_games,
)

NEVER_ENDS = 100_000  # a target no generated game reaches
LONG_HANDS = 40
SHORT_HANDS = 4
PLAIN = HandMix(moon=0.04, reserved=0, played=0)  # every point collected, now and then a moon
PLAYED = HandMix(moon=0, reserved=0, played=1, whole=1, kitty_known=1)  # a whole trick log, kitty known


@dataclass(frozen=True)
class GameRef:
    """A generated game as the benchmark addresses it."""

    id: int
    scorer_key: str


def never_ending_game(name, hands, seed):
    """An export document of an 11-player game that never ends; every second hand has a trick log."""
    rng = random.Random(seed)
    first_dealer = rng.randrange(len(ELEVEN))
    entries = [random_hand(rng, len(ELEVEN), number, first_dealer, PLAYED if number % 2 == 0 else PLAIN)[1]
               for number in range(1, hands + 1)]
    return game_document(name, ELEVEN, first_dealer, NEVER_ENDS, entries)


def plain_hand(hands):
    """The number of the last hand without a trick log in a generated game of ``hands`` hands (odd ones are plain)."""
    return hands if hands % 2 else hands - 1


# The figures timed on a game that grows by a hand before (or as) each request: the scorer's table view and
# /watch, each the first view after a new hand, and recording a hand. Each such figure has games of its own.
NEW_HAND_KINDS = ("table", "watch", "record")


@dataclass(frozen=True)
class PoolPlan:
    """The games one such figure uses in turn for ``requests`` requests at about ``hands`` hands: ``count``
    games of ``first_hands`` hands, each taking ``per_game`` hands more, one before (or as) each request."""

    hands: int
    requests: int
    first_hands: int
    count: int

    @property
    def per_game(self):
        return -(-self.requests // self.count)

    @property
    def timed_hands(self):
        """The fewest and the most hands of a game when a request is timed on it."""
        return self.first_hands + 1, self.first_hands + self.per_game


def pool_plan(hands, requests):
    """The games for ``requests`` requests (every round's and the warm-up's) at about ``hands`` hands: each
    game takes up to a tenth of its length (at least 4) in new hands, from half of them below ``hands``."""
    most = max(4, hands // 10)
    return PoolPlan(hands, requests, hands - min(most, requests) // 2, -(-requests // most))


def fill_database(app, growth, plans, guest_hands=MOST_UPLOADED_HANDS):
    """Import the generated games, return them by role: the long, short and record games; one for each
    length in ``growth`` (timed for growth); one for the guest's pages; each new-hand figure's games
    (``plans``: a ``PoolPlan`` for each length; roles "table 40 #1"...)."""
    plan = {"long": LONG_HANDS, "short": SHORT_HANDS, "record": LONG_HANDS, "guest": guest_hands}
    plan.update({f"growth {hands}": hands for hands in growth})
    for pool in plans:
        plan.update({f"{kind} {pool.hands} #{number}": pool.first_hands
                     for kind in NEW_HAND_KINDS for number in range(1, pool.count + 1)})
    documents = [never_ending_game(role, hands, seed) for seed, (role, hands) in enumerate(plan.items())]
    return {role: GameRef(*stored) for role, stored in zip(plan, store_games(app, documents))}


def pool_games(games, kind, hands):
    """The games of one new-hand figure, in the order it uses them."""
    prefix = f"{kind} {hands} #"
    return [game for role, game in games.items() if role.startswith(prefix)]


class HandRecorder:
    """Records the next hand of a game as its scorer, keeping number and revision in step.

    The session cookie stays as it was: the flashed "recorded" messages a
    browser would show on the next page are dropped instead of piling up.
    """

    def __init__(self, client, game):
        self.client = client
        self.game = game
        self.path = f"/games/{game.id}/hands/new"
        fields = form_fields(client.get(self.path).text)
        self.token, self.number, self.revision = fields["csrf_token"], int(fields["number"]), int(fields["revision"])
        self.rng = random.Random(self.number)

    def __call__(self):
        taken = [(seat_taken.hearts, seat_taken.marias) for seat_taken in random_taken(self.rng, len(ELEVEN))]
        fields = {**hand_form(taken, self.number), "csrf_token": self.token, "revision": self.revision}
        self.client.post(self.path, fields)
        self.number += 1
        self.revision += 1


class GamePool:
    """The games of one new-hand figure, used in turn by the scorer (``client``, holding their scorer keys).

    ``next()`` is called untimed before each request: it moves to the next
    game once this one took ``uses`` hands, and then calls ``warm(game)``
    (which views the page timed once, as the table saw it after the hand
    before), so that only the new hand is new to the server.
    """

    def __init__(self, client, games, uses, warm=None):
        self.client, self.games, self.uses, self.warm = client, list(games), uses, warm  # uses: PoolPlan.per_game
        self.recorder, self.used = None, uses

    def next(self):
        """The recorder of the game to use now."""
        if self.used == self.uses:
            if not self.games:
                raise RuntimeError("a new-hand figure used up its games: more requests than its pool_plan allows")
            game = self.games.pop(0)
            self.recorder, self.used = HandRecorder(self.client, game), 0
            if self.warm is not None:
                self.warm(game)
        self.used += 1
        return self.recorder

    def record(self):
        """Record a hand on the game to use now (untimed, before a view)."""
        self.next()()


class HandCorrector:
    """Corrects one plain hand of a game as its scorer, back and forth between two takings.

    Every call moves the game's revision, so its pages are rendered afresh on
    their next view, and leaves the game as long as it was. The session cookie
    stays as it was, as with ``HandRecorder``.
    """

    def __init__(self, client, game, number):
        self.client = client
        self.path = f"/games/{game.id}/hands/{number}"
        self.number = number
        fields = form_fields(client.get(self.path).text)
        self.token, self.revision = fields["csrf_token"], int(fields["revision"])
        rng = random.Random(number)
        first = random_taken(rng, len(ELEVEN))
        second = first
        while second == first:
            second = random_taken(rng, len(ELEVEN))
        self.takings = [[(seat.hearts, seat.marias) for seat in taken] for taken in (first, second)]
        self.corrections = 0

    def __call__(self):
        taken = self.takings[self.corrections % 2]
        fields = {**hand_form(taken, self.number), "csrf_token": self.token, "revision": self.revision}
        self.client.post(self.path, fields)
        self.corrections += 1
        self.revision += 1


def scorer_writes(client, games, growth):
    """The writes the scorer makes untimed, by role: recording on the record game (the live poll after a
    hand), and a correction of each growth game (``growth``: their hands) before each of its views."""
    return {"record": HandRecorder(client, games["record"]),
            **{f"growth {hands}": HandCorrector(client, games[f"growth {hands}"], plain_hand(hands))
               for hands in growth}}


class Importer:
    """Imports a generated game of ``hands`` hands through the import form, as anyone on the network may.

    The biggest game the limits allow (``MOST_UPLOADED_HANDS``, every second
    hand with a trick log) is stored; one hand more is refused (400).
    """

    def __init__(self, client, hands):
        self.client = client
        self.token = form_fields(client.get("/games/import").text)["csrf_token"]
        self.document = json.dumps(never_ending_game("Imported", hands, seed=hands), ensure_ascii=False).encode()
        self.expect = 302 if hands <= MOST_UPLOADED_HANDS else 400

    def __call__(self):
        return self.client.post_file("/games/import", {"csrf_token": self.token}, "document", "game.json",
                                     self.document, expect=self.expect)


MANY_AT_ONCE = 1000  # games a transaction adds


def add_many_games(database_uri, count, hands=3, players=SIX):
    """Add ``count`` games of ``players`` and ``hands`` plain hands to the database, through the service as
    a restore does (a thousand games a transaction), from an app of this process's own."""
    app = migrated_app({"TESTING": True, "SECRET_KEY": "benchmark", "SQLALCHEMY_DATABASE_URI": database_uri})
    rng = random.Random(count)
    try:
        with app.app_context():
            for first in range(0, count, MANY_AT_ONCE):
                service.restore_backup([
                    service.GameFacts(f"Club game {first + number + 1}", NEVER_ENDS, 0, tuple(players), tuple(
                        rules.check_record(random_taken(rng, len(players))) for _hand in range(hands)))
                    for number in range(min(MANY_AT_ONCE, count - first))])
            if db.engine.dialect.name == "sqlite":  # games that came over months were checkpointed long ago
                with db.engine.connect() as connection:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
