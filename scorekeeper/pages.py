"""Pages that belong to no game: the rules, and the pages shown for errors."""

from flask import Blueprint, Response, render_template
from flask.globals import request_ctx
from markupsafe import escape

from .i18n import _

bp = Blueprint("pages", __name__)


@bp.get("/rules")
def rules():
    """The rules R1-R17 in the app's own words, decisions included."""
    return render_template("pages/rules.html")


ERROR_MESSAGES = {
    400: lambda: _("The request did not make sense to the scorekeeper, so nothing was changed."),
    403: lambda: _("Only the scorer's device can change this game. Ask the scorer for the secret "
                   "scorer link if you are to keep score too."),
    404: lambda: _("There is no such page, game or hand."),
    405: lambda: _("That page cannot be used that way."),
    413: lambda: _("That was more than any form or game file of the scorekeeper holds, so nothing was changed."),
}


@bp.app_errorhandler(400)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
def show_error(error):
    """A plain page for a request the app cannot serve; nothing is changed."""
    message = ERROR_MESSAGES[error.code]()
    if request_ctx.url_adapter is None:
        # The request could not even be matched to the app (a malformed Host
        # header): the page template's links cannot be built, so a bare page.
        page = f'<!doctype html><meta charset="utf-8"><title>{error.code}</title><p>{escape(message)}</p>'
        return Response(page, error.code, mimetype="text/html")
    return render_template("pages/error.html", code=error.code, message=message), error.code
