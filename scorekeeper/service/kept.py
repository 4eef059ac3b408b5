"""Each game as this process last derived it, kept for its revision, so that a page or a write after a hand
needs neither to read every hand again nor to score them.

A kept game is the game's own rows as plain values (``ShownGame``: the
game, its players' names, its hands and takings, its seat changes, the hand
being played trick by trick) and the scoreboard the engine derived from
them. Only a write to the game changes those rows, and every write moves
its revision (``writing.claim``); a game is looked up with its id, its key
and the revision just read from the database (``kept_game``: the one list
of its inputs), so it answers for that revision only. It holds nothing of
the club's people: a merge changes a player's person without moving any
revision, so a write reads its players' people inside its own transaction
(``figures.keep``), never from here. Recording a hand keeps the next revision at once, derived
from the one before by scoring the one new hand (``rules.score_next_hand``);
any other write leaves the game to be read and scored afresh when next
asked for. Each app keeps at most ``MOST_GAMES`` games, the least recently
used going first; several server processes each keep theirs.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from .. import rules
from ..db.models import ShownGame, db, read_shown_game

# A game of 40 hands of 11 players keeps about 60 KB (its rows and its scoreboard); one of 1,000 hands about
# 1.5 MB. A club night's tables and the long games someone browses fit well inside some 30 MB.
MOST_GAMES = 200


class Kept:
    """A bounded, thread-safe map that forgets the least recently used entry first."""

    def __init__(self, most):
        self.most = most
        self._entries = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key, value):
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.most:
                self._entries.popitem(last=False)

    def forget(self, key):
        with self._lock:
            self._entries.pop(key, None)

    def __len__(self):
        return len(self._entries)


_GAMES = Kept(MOST_GAMES)  # (database engine, game id) -> KeptGame


@dataclass(frozen=True)
class KeptGame:
    """A game at one revision: its rows as plain values, its scoreboard, and each player's ``rules.Figures``
    if they were tallied already (``figures()`` tallies them otherwise)."""

    game: ShownGame
    board: rules.Scoreboard
    tallied: tuple[rules.Figures, ...] | None = None

    def figures(self):
        return rules.game_figures(self.board) if self.tallied is None else self.tallied


def kept_game(game_id, revision, scorer_key):
    """Game ``game_id`` at ``revision`` (its key ``scorer_key`` names it for good, should a restored database
    reuse its id), from what this process keeps, else read and scored; None if there is no such game.

    A game read afresh is as the database holds it now, and is kept for the revision it has then.
    """
    found = _GAMES.get((db.engine, game_id))
    if found is not None and (found.game.revision, found.game.scorer_key) == (revision, scorer_key):
        return found
    game = read_shown_game(game_id)
    if game is None:
        return None
    return keep(KeptGame(game, game.scoreboard()))


def keep(found):
    """Keep ``found`` (a ``KeptGame``) as its game's newest revision, once its write is committed; return it."""
    _GAMES.put((db.engine, found.game.id), found)
    return found
