"""Game pages kept rendered until their game changes: a repeat view costs a lookup in memory.

A game page (the table view, the watch page, the display) changes only when
its game's revision moves, and every write moves it (``table._claim``). So a
rendered page is kept under everything it depends on: the page (endpoint and
full path), the game and its revision, the reader's role and language, and
the host and scheme its links are built from. It can never be served stale:
after a write the key is new. A page that shows flashed messages is neither
served from nor put in the cache.

The scorer's page carries a CSRF token of its session: it is kept with a
placeholder in the token's place, and each answer gets the reader's own.
Pages without a token keep a gzip copy, made once. Each app keeps its own
pages (``app.extensions``), a few hundred at most, the least recently used
going first; several server processes each keep theirs, keyed the same way.
"""

import gzip
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from flask import Response, abort, current_app, request, session
from flask_babel import get_locale
from sqlalchemy import select

from ..db.models import Game, db
from .access import holds_key
from .assets import encoded
from .forms import ConfirmForm
from .responses import not_stored

MOST_PAGES = 300  # about 40 KB each with its gzip copy: a dozen megabytes at most
MOST_SCOREBOARDS = 300
MOST_REVISIONS = 1000
# How long a game's revision read from the database answers for it in this
# process. A write made here is seen at once (``forget``); one made by another
# server process, within this long: well inside a phone's poll interval.
FRESH_FOR = 0.5
TOKEN_SLOT = "\ue000csrf-token\ue000"  # private-use characters: never in a page's own text


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


@dataclass(frozen=True)
class Page:
    """A rendered page: its bytes (with ``TOKEN_SLOT`` where a CSRF token goes) and a gzip copy."""

    body: bytes
    gzipped: bytes | None  # None when the page has a token slot: compressed per answer

    @classmethod
    def of(cls, html, token=None):
        if token:
            return cls(html.replace(token, TOKEN_SLOT).encode(), None)
        body = html.encode()
        return cls(body, gzip.compress(body, 6, mtime=0))

    def response(self):
        """The page as an answer to this request, with this session's token and gzip if it is taken."""
        if self.gzipped is not None:
            return encoded(Response(mimetype="text/html"), self.body, self.gzipped)
        body = self.body.replace(TOKEN_SLOT.encode(), ConfirmForm().csrf_token.current_token.encode())
        return encoded(Response(mimetype="text/html"), body, gzip.compress(body, 6, mtime=0))


def kept(name, most):
    """The app's ``Kept`` map called ``name``, made on first use (not on every request)."""
    kept = current_app.extensions.get(f"scorekeeper.{name}")
    if kept is None:
        kept = current_app.extensions.setdefault(f"scorekeeper.{name}", Kept(most))
    return kept


def game_page(game_id, render, readonly=False):
    """Game ``game_id``'s page for this request, rendered by ``render(scorer)`` only when not kept.

    ``render`` returns the page's HTML and the CSRF token it holds (or None).
    ``readonly`` pages are the same for everyone; otherwise the scorer's
    device (holding the game's key) gets the scorer's page.
    """
    row = game_revision(game_id)
    if row is None:
        abort(404)
    scorer = not readonly and holds_key(game_id, row.scorer_key)
    if session.get("_flashes"):  # a message for this reader, once: never kept
        html = render(scorer)[0]
        return not_stored(Response(html, mimetype="text/html")) if scorer else html
    # The game's own key names this game for good, should its id ever be reused (a restored database).
    key = (request.endpoint, request.full_path, request.host, request.scheme, str(get_locale()),
           scorer, game_id, row.scorer_key, row.revision)
    pages = kept("pages", MOST_PAGES)
    page = pages.get(key)
    if page is None:
        # After a hand, a whole table's phones ask for the new page within a poll: one renders it,
        # the others wait for it instead of rendering it too.
        with _rendering_lock(key):
            page = pages.get(key)
            if page is None:
                page = Page.of(*render(scorer))
                pages.put(key, page)
    response = page.response()
    return not_stored(response) if scorer else response


RENDERING_LOCKS = 64


def _rendering_lock(key):
    """The lock under which the page ``key`` is rendered: one of a few, shared by the app's threads."""
    locks = current_app.extensions.get("scorekeeper.rendering")
    if locks is None:
        locks = current_app.extensions.setdefault(
            "scorekeeper.rendering", [threading.Lock() for _lock in range(RENDERING_LOCKS)])
    return locks[hash(key) % RENDERING_LOCKS]


def game_revision(game_id):
    """The game's (revision, scorer_key), or None if there is no such game; at most ``FRESH_FOR`` old."""
    revisions = kept("revisions", MOST_REVISIONS)
    known = revisions.get(game_id)
    now = time.monotonic()
    if known is not None and now - known[0] < FRESH_FOR:
        return known[1]
    row = db.session.execute(select(Game.revision, Game.scorer_key).where(Game.id == game_id)).first()
    if row is not None:
        revisions.put(game_id, (now, row))
    return row


def forget(game_id):
    """A write to the game was committed here: its revision is read afresh next time."""
    kept("revisions", MOST_REVISIONS).forget(game_id)


def scoreboard(game):
    """``game.scoreboard()``, computed once per revision of the game and kept (R17)."""
    boards = kept("scoreboards", MOST_SCOREBOARDS)
    board = boards.get(_board_key(game))
    if board is None:
        board = game.scoreboard()
        boards.put(_board_key(game), board)
    return board



def _board_key(game):
    return game.id, game.scorer_key, game.revision

