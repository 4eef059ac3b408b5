"""The games the benchmark measures: generated from tests/tabletop.py, imported, and written to as the scorer.

Two writes: recording one hand more (the game grows), and correcting one hand
back and forth (the game's revision moves, its length stays), which is what
makes the next view of its pages a first view after a change.
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


def fill_database(app, growth):
    """Import the generated games (``growth``: the hands of the games timed for growth); return them by role."""
    plan = {"long": LONG_HANDS, "short": SHORT_HANDS, "record": LONG_HANDS, "miss": LONG_HANDS}
    plan.update({f"growth {hands}": hands for hands in growth})
    documents = [never_ending_game(role, hands, seed) for seed, (role, hands) in enumerate(plan.items())]
    return {role: GameRef(*stored) for role, stored in zip(plan, store_games(app, documents))}


class HandRecorder:
    """Records the next hand of a game as its scorer, keeping number and revision in step.

    The session cookie stays as it was: the flashed "recorded" messages a
    browser would show on the next page are dropped instead of piling up.
    """

    def __init__(self, client, game):
        self.client = client
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
    """The writes the timings make as the scorer: recording on the record game, a correction on the miss game
    and on each growth game (``growth``: their hands), by role."""
    corrected = {"miss": LONG_HANDS, **{f"growth {hands}": hands for hands in growth}}
    return {"record": HandRecorder(client, games["record"]),
            **{role: HandCorrector(client, games[role], plain_hand(hands)) for role, hands in corrected.items()}}


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
