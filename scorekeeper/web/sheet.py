"""A game on paper and in a spreadsheet: the printable score sheet and its CSV, for anyone who can see the game."""

from flask import Blueprint, render_template

from .responses import load_game
from .spreadsheets import asked_separator, spreadsheet_response, unknown_separator

bp = Blueprint("sheet", __name__)

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
    separator = asked_separator()
    if separator is None:
        return unknown_separator()
    game = load_game(game_id)
    return spreadsheet_response(sheet_rows(game, game.scoreboard()), separator,
                                f"cancellation-hearts-game-{game.id}.csv")


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
