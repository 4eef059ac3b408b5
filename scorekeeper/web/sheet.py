"""A game on paper and in a spreadsheet: the printable score sheet and its CSV, for anyone who can see the game."""

import csv
import io

from flask import Blueprint, Response, render_template, request

from .i18n import _
from .responses import load_game

bp = Blueprint("sheet", __name__)

BYTE_ORDER_MARK = "\ufeff"  # how a spreadsheet (Excel above all) knows the file is UTF-8
# A cell starting with one of these is read as a formula by spreadsheets (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The CSV's ``sep`` parameter: a comma unless asked, whatever the page's language, so that one link
# always gives the same file. A spreadsheet set to a comma decimal mark (pt, es, nb) reads semicolons.
SEPARATORS = {"comma": ",", "semicolon": ";", "tab": "\t", ",": ",", ";": ";", "\t": "\t"}
# The CSV's words, fixed (in English) like the column names of a file format, whatever the page's language.
CSV_WORDS = {"game": "Game", "date": "Date", "target": "Target", "hand": "Hand", "start": "Start",
             "total": "Total"}


@bp.get("/games/<int:game_id>/sheet")
def score_sheet(game_id):
    """The game's score sheet, hand by hand, made to print on one page."""
    game = load_game(game_id)
    board = game.scoreboard()
    return render_template("games/sheet.html", game=game, board=board,
                           starts=start_totals(game, board), joined=joined_before(game))


@bp.get("/games/<int:game_id>/sheet.csv")
def spreadsheet(game_id):
    """Download the game's points, hand by hand, as a spreadsheet (CSV); ``sep`` picks the separator."""
    separator = SEPARATORS.get(request.args.get("sep", "comma"))
    if separator is None:
        return Response(_("The separator (sep) is comma, semicolon or tab."), 400, mimetype="text/plain")
    game = load_game(game_id)
    board = game.scoreboard()
    return Response(
        csv_text(sheet_rows(game, board), separator),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="cancellation-hearts-game-{game.id}.csv"'},
    )


def joined_before(game):
    """The hand each player who joined late joined before, by roster number."""
    return {change.player: change.before_hand for change in game.seat_changes if change.joins}


def start_totals(game, board):
    """Each player's total before their first hand (0 for the players of hand 1, the agreed start for a
    joiner), by roster number; None when nobody joined, as then every column adds up without it."""
    joined = {change.player: change.start for change in game.seat_changes if change.joins}
    if not joined:
        return None
    return [joined.get(player, 0) for player in range(board.players)]


def sheet_rows(game, board):
    """The spreadsheet's rows: the game's name, date and target; then the names, the start totals when
    someone joined late, each hand's points (None for who sat out), the totals."""
    starts = start_totals(game, board)
    return [
        [CSV_WORDS["game"], game.name],
        [CSV_WORDS["date"], game.played_on.isoformat()],
        [CSV_WORDS["target"], board.target],
        [],
        [CSV_WORDS["hand"], *game.names],
        *([[CSV_WORDS["start"], *starts]] if starts else []),
        *([hand.number, *hand.points] for hand in board.hands),
        [CSV_WORDS["total"], *board.totals],
    ]


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
