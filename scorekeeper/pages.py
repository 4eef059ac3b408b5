"""Pages that belong to no game: the rules, and the pages shown for errors."""

from flask import Blueprint, render_template

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
    413: lambda: _("That file is too big to be a game exported by the scorekeeper."),
}


@bp.app_errorhandler(400)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
def show_error(error):
    """A plain page for a request the app cannot serve; nothing is changed."""
    return render_template("pages/error.html", code=error.code, message=ERROR_MESSAGES[error.code]()), error.code
