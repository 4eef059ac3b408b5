"""The games the benchmark measures: generated from tests/tabletop.py, imported, and written to as the scorer.

Two writes: recording one hand more (the game grows), and correcting one hand
back and forth (the game's revision moves, its length stays), which is what
makes the next view of its pages a first view after a change.
"""

import random
from dataclasses import dataclass

from tests.tabletop import (
    ELEVEN,
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
