"""A game on paper and in a spreadsheet: the printable score sheet and its CSV, for anyone who can see the game."""

import csv
import io

from babel.numbers import get_decimal_symbol
from flask import Blueprint, Response, render_template
from flask_babel import get_locale

from .i18n import DEFAULT_LANGUAGE, _
from .responses import load_game

bp = Blueprint("sheet", __name__)

BYTE_ORDER_MARK = "\ufeff"  # how a spreadsheet (Excel above all) knows the file is UTF-8
# A cell starting with one of these is read as a formula by spreadsheets (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@bp.get("/games/<int:game_id>/sheet")
def score_sheet(game_id):
    """The game's score sheet, hand by hand, made to print on one page."""
    game = load_game(game_id)
    return render_template("games/sheet.html", game=game, board=game.scoreboard())


@bp.get("/games/<int:game_id>/sheet.csv")
def spreadsheet(game_id):
    """Download the game's points, hand by hand, as a spreadsheet (CSV)."""
    game = load_game(game_id)
    return Response(
        csv_text(sheet_rows(game.names, game.scoreboard()), list_separator()),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="cancellation-hearts-game-{game.id}.csv"'},
    )


def sheet_rows(names, board):
    """The spreadsheet's rows: the names, each hand's points (None for who sat out), the totals."""
    return [
        [_("Hand"), *names],
        *([hand.number, *hand.points] for hand in board.hands),
        [_("Total"), *board.totals],
    ]


def list_separator():
    """The reader's spreadsheet list separator: ";" where the decimal mark is a comma (pt, es, nb), else ","."""
    return ";" if get_decimal_symbol(get_locale() or DEFAULT_LANGUAGE) == "," else ","


def csv_text(rows, separator):
    """``rows`` as CSV text with a byte order mark; numbers as they are, text safe from formula injection."""
    written = io.StringIO()
    writer = csv.writer(written, delimiter=separator)
    writer.writerows([inert(cell) for cell in row] for row in rows)
    return BYTE_ORDER_MARK + written.getvalue()


def inert(cell):
    """A cell as the spreadsheet should read it: typed text that looks like a formula is kept as text."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return "" if cell is None else cell
