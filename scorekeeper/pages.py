"""Pages that belong to no game: the home page and the rules."""

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    """The home page."""
    return render_template("pages/home.html")


@bp.get("/rules")
def rules():
    """The rules R1-R17 in the app's own words, decisions included."""
    return render_template("pages/rules.html")
