"""The games the benchmark measures: generated from tests/tabletop.py, imported, and recorded hand by hand."""

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


def fill_database(app, growth):
    """Import the generated games (``growth``: the hands of the games timed for growth); return them by role."""
    plan = {"long": LONG_HANDS, "short": SHORT_HANDS, "record": LONG_HANDS}
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
