"""Who may write: the scorer key of each game, and the club's secretary key, each proven by a pass kept in
the device's session.

Creating or importing a game makes that device a scorer; the secret scorer
link (which holds the game's key) makes a second device one. The session
cookie is signed, not encrypted, so it keeps a pass derived from the key and
the app's secret, never the key itself. Every write needs the pass; everyone
else sees the game read-only. Pages only a scorer sees are never stored by
the browser (Cache-Control: no-store): they hold forms and the secret link.

The club's secretary link (``flask club-link``) makes a device a secretary
in the same way: only a secretary renames, merges and unmerges people; a
new key (``club-link --new``) ends every pass made from the old one.
"""

import hashlib
import hmac
from dataclasses import dataclass

from flask import abort, current_app, g, make_response, render_template, session

from .. import service
from ..words.i18n import _

SESSION_KEYS = "scorer_keys"  # the name from when the session held the keys themselves
KEPT_GAMES = 40  # passes of the newest games only: the session cookie stays well under a browser's 4 KB

def scorer_pass(scorer_key):
    """What the session keeps to prove it holds ``scorer_key``: a keyed hash, useless without the app's secret."""
    return _pass_of(b"scorer key ", scorer_key)


def _pass_of(kind, key):
    """A keyed hash of ``key`` with the app's secret, ``kind`` telling a scorer's pass from a secretary's."""
    secret = current_app.config["SECRET_KEY"].encode()
    return hmac.new(secret, kind + key.encode(), hashlib.sha256).hexdigest()


def grant(game):
    """Make this device a scorer of ``game``: its pass becomes the newest kept, the oldest beyond ``KEPT_GAMES`` go."""
    passes = [[game_id, held] for game_id, held in held_passes() if game_id != game.id]
    session[SESSION_KEYS] = [*passes, [game.id, scorer_pass(game.scorer_key)]][-KEPT_GAMES:]
    session.permanent = True


def is_scorer(game):
    """Whether this device holds ``game``'s scorer key, proven by its pass (compared in constant time)."""
    return holds_key(game.id, game.scorer_key)


def holds_key(game_id, scorer_key):
    """Whether this device holds ``scorer_key``, the key of game ``game_id``."""
    passes = held_passes()
    held = dict(passes).get(game_id)
    if held is None:
        return False
    if matches(held, scorer_pass(scorer_key)):
        return True
    if matches(held, scorer_key):  # a cookie from before passes: the key itself, swapped for its pass now
        session[SESSION_KEYS] = [[kept_id, scorer_pass(scorer_key) if kept_id == game_id else kept]
                                 for kept_id, kept in passes]
        return True
    return False


def held_passes():
    """This device's passes as ``[game id, pass]`` pairs, oldest first.

    The session keeps them as such a list because its serializer sorts a
    dict's keys as text, which loses the order of the newest. A cookie from
    before holds a dict ``{game id as text: pass}``: read in whatever order it
    comes, and written back as a list by the next grant or key swapped for its pass.
    """
    kept = session.get(SESSION_KEYS)
    if isinstance(kept, dict):
        return [[int(game_id), held] for game_id, held in kept.items()]
    return kept if isinstance(kept, list) else []


def matches(offered, key):
    """Constant-time comparison of an offered key with the game's."""
    return hmac.compare_digest(offered.encode("utf-8", "replace"), key.encode("utf-8"))


SECRETARY_PASS = "secretary_pass"
DEVICE_NAME = "device_name"  # what a secretary calls this device, kept on the club's trail


def secretary_pass(secretary_key):
    """What the session keeps to prove it holds the club's ``secretary_key`` (as ``scorer_pass``)."""
    return _pass_of(b"secretary key ", secretary_key)


def grant_secretary(secretary_key):
    """Make this device a secretary of the club."""
    session[SECRETARY_PASS] = secretary_pass(secretary_key)
    session.permanent = True


def is_secretary():
    """Whether this device holds the club's current secretary key; read once a request, and only for a
    device that holds some pass (a guest costs no statement)."""
    held = session.get(SECRETARY_PASS)
    if not isinstance(held, str):
        return False
    if "is_secretary" not in g:
        g.is_secretary = matches(held, secretary_pass(service.secretary_key()))
    return g.is_secretary


def device_name():
    """The name this secretary gave their device, or None."""
    name = session.get(DEVICE_NAME)
    return name if isinstance(name, str) and name else None


CLUB_LINK_COMMAND = "flask --app scorekeeper club-link"


@dataclass(frozen=True)
class SecretaryOnly:
    """What the 403 page tells a device that is no secretary: paragraphs, then the command that prints the link."""

    paragraphs: tuple[str, ...]
    command: str


def secretary_powers():
    """The secretary's powers, whole, in one sentence: for a guest's notes and a refused request alike."""
    return _("Only the club's secretary can rename, merge and unmerge people, leave games out of the season "
             "and count them again, date games, and undo any of these, from a device that opened the club's "
             "secretary link.")


def secretary_only():
    """Why a request only a secretary may make was refused, and how to get the secretary's link: a device that
    held a pass made from an earlier key is told so."""
    paragraphs = [_("On the machine that serves the scorekeeper, this command prints the club's secretary "
                    "link; open it on this device:")]
    if isinstance(session.get(SECRETARY_PASS), str):
        paragraphs.insert(0, _("This device opened a secretary link before, but the club has a new one since "
                               "(club-link --new ends every earlier link and pass)."))
    return SecretaryOnly(tuple(paragraphs), CLUB_LINK_COMMAND)


def require_secretary():
    """Refuse the request (403) unless this device is a secretary of the club: a page that says so and how
    the link is obtained, never the scorer's words."""
    if not is_secretary():
        page = render_template("pages/error.html", code=403, message=secretary_powers(), scorer_help=None,
                               secretary_help=secretary_only())
        abort(make_response(page, 403))


def require_scorer(game):
    """Refuse the request (403) unless this device is ``game``'s scorer."""
    if not is_scorer(game):
        abort(403)
