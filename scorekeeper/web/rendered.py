"""Game pages kept rendered until their game changes: a repeat view costs a lookup in memory.

A game page (the table view, the watch page, the display, the hand form)
shows its game's rows, which only a write changes, and every write moves the
game's revision (``writing.claim``); what else a page shows is the reader's
and the request's. A rendered page is kept under all of it, listed in one
place (``page_key``, and docs/figures.md): the page (endpoint and full
path), the game, its key and its revision, the reader's role and language,
the scheme, host and script root its links are built from, and on the
scorer's table view the address of the link it hands to other phones (from
the server's Wi-Fi address, which can change under a running server). A
page that shows flashed messages is neither served from nor put in the
cache. Nothing a page shows of a game depends on the club's people (a game
shows the names its players were typed with): a merge or a rename moves
no game page. The club night a game is a table of (its name, round and
length) is fixed while the game exists, and read with the game.

The revision a page is looked up with is the database's: read at most
``FRESH_FOR`` ago in this process, or at once after a write made here
(``forget``). So a write made by another server process shows here within
``FRESH_FOR``, well inside a phone's poll; the scorer's forms read the
revision afresh every time.

The scorer's page carries a CSRF token of its session: it is kept with a
placeholder in the token's place, and each answer gets the reader's own.
Pages without a token keep a gzip copy, made once. Each app keeps its own
pages (``app.extensions``), a few hundred at most, the least recently used
going first; several server processes each keep theirs, keyed the same way.
"""

import gzip
import struct
import threading
import time
import zlib
from dataclasses import dataclass

from flask import Response, abort, current_app, get_template_attribute, request, session
from flask_babel import get_locale
from sqlalchemy import bindparam, select

from ..db.models import Game, db
from ..service.kept import Kept
from .access import holds_key
from .assets import encoded
from .forms import ConfirmForm
from .serving import shared_url

MOST_PAGES = 300  # about 40 KB each with its gzip copy: a dozen megabytes at most
MOST_REVISIONS = 1000  # a game's revision and key: some 200 bytes each
# How long a game's revision read from the database answers for it in this
# process. A write made here is seen at once (``forget``); one made by another
# server process, within this long: well inside a phone's poll interval.
FRESH_FOR = 0.5
TOKEN_SLOT = "\ue000csrf-token\ue000"  # private-use characters: never in a page's own text


@dataclass(frozen=True)
class Page:
    """A rendered page: its bytes, with ``TOKEN_SLOT`` where a CSRF token goes, and its gzip encoding.

    A page without a token keeps its whole gzip copy. A page with tokens keeps
    the pieces between them each compressed once, as deflate blocks that
    refer to nothing before them (``Z_FULL_FLUSH``): an answer compresses only
    the reader's token and joins the pieces around it into one gzip stream, so
    that no scorer's view compresses the whole page again.
    """

    body: bytes
    gzipped: bytes | None  # the whole page gzipped, when it has no token slot
    pieces: tuple[bytes, ...] = ()  # the deflate blocks of the parts between token slots, the last one final

    @classmethod
    def of(cls, html, token=None):
        if token:
            body = html.replace(token, TOKEN_SLOT).encode()
            parts = body.split(TOKEN_SLOT.encode())
            return cls(body, None, tuple(_deflated(part, last=index == len(parts) - 1)
                                         for index, part in enumerate(parts)))
        body = html.encode()
        return cls(body, gzip.compress(body, 6, mtime=0))

    def response(self):
        """The page as an answer to this request, with this session's token and gzip if it is taken."""
        if self.gzipped is not None:
            return encoded(Response(mimetype="text/html"), self.body, self.gzipped)
        token = ConfirmForm().csrf_token.current_token.encode()
        body = self.body.replace(TOKEN_SLOT.encode(), token)
        stream = _deflated(token, last=False).join(self.pieces)
        gzipped = b"".join((GZIP_HEADER, stream, struct.pack("<II", zlib.crc32(body), len(body) & 0xFFFFFFFF)))
        return encoded(Response(mimetype="text/html"), body, gzipped)


GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown system (RFC 1952)


def _deflated(data, last):
    """``data`` as raw deflate blocks that refer to nothing before them, ending byte-aligned so that other
    blocks may follow (``last``: the stream's final block)."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


def kept(name, most):
    """The app's ``Kept`` map called ``name``, made on first use (not on every request)."""
    found = current_app.extensions.get(f"scorekeeper.{name}")
    if found is None:
        found = current_app.extensions.setdefault(f"scorekeeper.{name}", Kept(most))
    return found


def kept_row(name, most, key, template, arguments):
    """A row a page repeats (a hand of the history, a person's game, a person's row of the season's table):
    the ``row`` macro of ``template`` called with ``arguments()``, rendered once for each ``key`` (all the row
    shows), the reader's language and the root its links are built from, and kept in the ``Kept`` map
    ``name`` (at most ``most`` rows). A page that changed renders only the rows whose key is new."""
    rows = kept(name, most)
    key = (*key, str(get_locale()), request.script_root)
    row = rows.get(key)
    if row is None:
        row = get_template_attribute(template, "row")(*arguments())
        rows.put(key, row)
    return row


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
    return kept_page(game_id, row.revision, row.scorer_key, scorer, lambda: render(scorer))


def kept_guest_page(key, render):
    """A page the same for every guest (no pass, no message waiting): kept under ``key`` (all it shows beyond
    the request: a club night's state, web/nights.py) with the request's own (``request_key``), and rendered by
    ``render()`` (its HTML) only when not kept."""
    if session.get("_flashes"):
        return render()
    return _kept_or_rendered(("guest", *request_key(), *key), lambda: Page.of(render())).response()


def not_stored(response):
    """Keep a scorer's page out of the browser's and any proxy's cache."""
    response.cache_control.no_store = True
    return response


def kept_page(game_id, revision, scorer_key, scorer, render):
    """The page of this request about game ``game_id`` at ``revision``: kept, else rendered by ``render()``
    (its HTML and the CSRF token it holds, or None) and kept. ``scorer`` pages are kept out of caches."""
    if session.get("_flashes"):  # a message for this reader, once: never kept
        html = render()[0]
        return not_stored(Response(html, mimetype="text/html")) if scorer else html
    response = _kept_or_rendered(page_key(game_id, revision, scorer_key, scorer),
                                 lambda: Page.of(*render())).response()
    return not_stored(response) if scorer else response


def _kept_or_rendered(key, render):
    """The ``Page`` kept under ``key``, else made by ``render()`` and kept. After a hand, a whole table's
    phones (or a night's watchers) ask for the new page within a poll: one renders it, the others wait for it
    instead of rendering it too."""
    pages = kept("pages", MOST_PAGES)
    page = pages.get(key)
    if page is None:
        with _rendering_lock(key):
            page = pages.get(key)
            if page is None:
                page = render()
                pages.put(key, page)
    return page


def page_key(game_id, revision, scorer_key, scorer):
    """Everything a kept game page of this request depends on: the one list of its inputs.

    The game's own key names it for good, should its id ever be reused (a
    restored database). A scorer's page may show the links they hand to
    other phones, built from the server's address as it is now (its Wi-Fi
    address can change while it serves): their address is in the key.
    """
    shared = shared_url("live.watch", game_id=game_id) if scorer else None  # the address other phones type
    return (*request_key(), scorer, game_id, scorer_key, revision, shared)


def request_key():
    """What every kept page depends on of the request itself: the page (endpoint, full path), the scheme,
    host and script root its links are built from, and the reader's language."""
    return (request.endpoint, request.full_path, request.scheme, request.host, request.script_root,
            str(get_locale()))


RENDERING_LOCKS = 64


def _rendering_lock(key):
    """The lock under which the page ``key`` is rendered: one of a few, shared by the app's threads."""
    locks = current_app.extensions.get("scorekeeper.rendering")
    if locks is None:
        locks = current_app.extensions.setdefault(
            "scorekeeper.rendering", [threading.Lock() for _lock in range(RENDERING_LOCKS)])
    return locks[hash(key) % RENDERING_LOCKS]


_REVISION = select(Game.revision, Game.scorer_key).where(Game.id == bindparam("game_id"))


def game_revision(game_id, fresh=False):
    """The game's (revision, scorer_key), or None if there is no such game; at most ``FRESH_FOR`` old, or with
    ``fresh`` read from the database now (a scorer's form, whichever process wrote last)."""
    if fresh:
        return db.session.execute(_REVISION, {"game_id": game_id}).first()
    revisions = kept("revisions", MOST_REVISIONS)
    known = revisions.get(game_id)
    now = time.monotonic()
    if known is not None and now - known[0] < FRESH_FOR:
        return known[1]
    row = db.session.execute(_REVISION, {"game_id": game_id}).first()
    if row is not None:
        revisions.put(game_id, (now, row))
    return row


def forget(game_id):
    """A write to the game was committed here: its revision is read afresh next time."""
    kept("revisions", MOST_REVISIONS).forget(game_id)
