"""Pages that belong to no game: the rules, the language switch, the pages shown for errors, and what an
install over HTTPS keeps for a dropped Wi-Fi (the service worker and its offline page)."""

import hashlib
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask.globals import request_ctx
from markupsafe import escape

from ..words.i18n import COOKIE, LANGUAGES, ONE_YEAR, SAFE_PATH, _
from .access import KEPT_GAMES

bp = Blueprint("pages", __name__)


@bp.get("/language/<code>")
def choose_language(code):
    """Remember a language for this browser and go back to the page it was chosen on."""
    back = request.args.get("next", "")
    if not SAFE_PATH.fullmatch(back):  # only a path of this app: no other host, no header tricks
        back = url_for("games.index")
    response = redirect(_without_lang(back))
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=ONE_YEAR, samesite="Lax", httponly=True, secure=request.is_secure)
    return response


def _without_lang(path):
    """``path`` without a ``lang`` parameter (the settle page's): the language just chosen must win."""
    parts = urlsplit(path)
    query = [(name, value) for name, value in parse_qsl(parts.query, keep_blank_values=True) if name != "lang"]
    return urlunsplit(("", "", parts.path, urlencode(query), ""))


@bp.get("/rules")
def rules():
    """The rules R1-R18 in the app's own words, decisions included."""
    return render_template("pages/rules.html")


# What the service worker keeps at install: the offline page and what it and the game pages need.
SHELL_FILES = ("style.css", "display.css", "live.js", "awake.js", "offline.js", "icons/icon.svg",
               "icons/icon-192.png", "manifest.webmanifest")


@bp.get("/service-worker.js")
def service_worker():
    """The service worker (registered by live.js over HTTPS only), at the root so that it sees every page."""
    shell = [url_for("pages.offline"), *(url_for("static", filename=name) for name in SHELL_FILES)]
    version = hashlib.sha256(" ".join(shell).encode()).hexdigest()[:12]  # a new shell makes a new worker
    script = render_template("pages/service-worker.js", shell=shell, offline=shell[0],
                             shell_cache=f"scorekeeper-shell-{version}",
                             static_path=url_for("static", filename="").split("?")[0])
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True  # a phone learns of a new version at its next visit
    return response


@bp.get("/offline")
def offline():
    """What a phone shows for a page it cannot reach; the service worker keeps it, in the phone's language."""
    return render_template("pages/offline.html")


ERROR_MESSAGES = {
    400: lambda: _("The request did not make sense to the scorekeeper, so nothing was changed."),
    403: lambda: _("Only the scorer's device can change this game."),
    404: lambda: _("There is no such page, game or hand."),
    405: lambda: _("That page cannot be used that way."),
    413: lambda: _("That was more than any form or game file of the scorekeeper holds, so nothing was changed."),
    500: lambda: _("The scorekeeper ran into a fault of its own, not one of yours. What this page was sending "
                   "may not have been saved: open the game again to see what it holds. The server's log says "
                   "what went wrong."),
}
# When even the catalogs fail (the fault may lie there), the page of last resort says this much.
FAULT_UNTRANSLATED = "The scorekeeper ran into a fault of its own (500). The server's log says what went wrong."


SCORER_LINK_COMMAND = "flask --app scorekeeper scorer-link {game_id}"
ANY_GAME = "ID"  # the command's blank for a game's id, when the refused request names no game


@dataclass(frozen=True)
class LostPass:
    """What the 403 page tells a device that may have lost its scorer pass: paragraphs, then a command to run."""

    paragraphs: tuple[str, ...]
    command: str
    game_id: int | None  # the refused game, or None when the request names none


def lost_pass(game_id):
    """How a device gets its scorer pass back: the secret scorer link, and the two places that show it."""
    first = (
        _("A device that started a game or kept its score may have lost its pass to it: each device keeps "
          "the passes of its newest %(kept)s games only.", kept=KEPT_GAMES),
        _("To keep score again, open the game's secret scorer link on this device. The scorer's phone shows it "
          "on the game's page, under “%(section)s”.", section=_("Let a second phone keep score")),
    )
    if game_id is None:
        last = _("On the machine that serves the scorekeeper, this command prints it, with the game's number "
                 "(in its address: /games/%(blank)s) in place of %(blank)s:", blank=ANY_GAME)
        return LostPass((*first, last), SCORER_LINK_COMMAND.format(game_id=ANY_GAME), None)
    last = _("On the machine that serves the scorekeeper, this command prints it:")
    return LostPass((*first, last), SCORER_LINK_COMMAND.format(game_id=game_id), game_id)


@bp.app_errorhandler(400)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
def show_error(error):
    """A plain page for a request the app cannot serve; nothing is changed."""
    message = ERROR_MESSAGES[error.code]()
    scorer_help = lost_pass((request.view_args or {}).get("game_id")) if error.code == 403 else None
    if request_ctx.url_adapter is None:
        # The request could not even be matched to the app (a malformed Host
        # header): the page template's links cannot be built, so a bare page.
        paragraphs = [message, *scorer_help.paragraphs, scorer_help.command] if scorer_help else [message]
        return bare_page(error.code, paragraphs)
    return render_template("pages/error.html", code=error.code, message=message, scorer_help=scorer_help), error.code


@bp.app_errorhandler(500)
def show_fault(_error):
    """The page of a fault of the app's own (its log has the details): in the reader's language, and never
    failing itself; whatever broke the request may break the page's template or catalog too."""
    try:
        return render_template("pages/error.html", code=500, message=ERROR_MESSAGES[500](), scorer_help=None), 500
    except Exception:  # noqa: BLE001 - the page of last resort: in the reader's language if that still works
        try:
            message = ERROR_MESSAGES[500]()
        except Exception:  # noqa: BLE001
            message = FAULT_UNTRANSLATED
        return bare_page(500, [message])


def bare_page(code, paragraphs):
    """A page with no template and no link: for when the app cannot build its pages."""
    page = f'<!doctype html><meta charset="utf-8"><title>{code}</title>' + "".join(
        f"<p>{escape(paragraph)}</p>" for paragraph in paragraphs)
    return Response(page, code, mimetype="text/html")
