"""A game's pages as several blueprints render them: the table view (the scorer's, the read-only one, and
the secretary's with the game's season controls), the table display, and the trail with its Undo buttons."""

from flask import Response, abort, render_template

from .. import service
from ..db.models import read_trail, record_of_facts
from ..words.explain import trail_entry, trail_now, why_not_undoable
from .access import holds_key
from .chart import score_chart
from .forms import ConfirmForm, GameSeasonForm
from .rendered import game_revision, kept_row
from .responses import load_game, not_stored
from .serving import reachable_by_others, shared_url, watch_url

RECENT_HANDS = 10  # hands in the table view's history; all of them one tap away
RECENT_CHANGES = 5  # trail entries on the table view; the whole trail one tap away
MOST_ROWS = 5000  # history rows kept rendered, about 1.5 KB each: some 8 MB at most


def table_page(game_id, scorer, season=None):
    """The table view of a game, with the scorer's controls or read-only; its HTML and CSRF token.
    ``season`` (a secretary's page, never kept) holds the game's season controls: their form and problem."""
    kept = load_game(game_id, kept=True)
    game, board = kept.game, kept.board
    trail = trail_page(game, board, readonly=not scorer, newest=RECENT_CHANGES)
    page = {"game": game, "board": board, "readonly": not scorer, "recent_hands": RECENT_HANDS,
            "chart": score_chart(board, game.names), "season": season, **history(board), **trail,
            "night_table": service.nights.table_of_game(game, board)}
    if scorer and reachable_by_others():
        share = watch_url(game)
        page.update(
            share_url=share,
            scorer_link=shared_url("games.become_scorer", game_id=game.id, key=game.scorer_key),
        )
    token = trail["undo_form"].csrf_token.current_token if trail["undo_form"] and trail["trail"] else None
    return render_template("games/table.html", **page), token


def secretary_table(game_id, season_form=None, problem=None):
    """The table view as a secretary's device sees it: the game's page with its season controls (leave it
    out or count it again, count a waiting import, date it, take its scorer's pass), ``season_form`` as
    typed and ``problem`` if a change was refused. Never kept: it holds forms for this device."""
    row = game_revision(game_id)
    if row is None:
        abort(404)
    season = {"form": season_form or GameSeasonForm(), "problem": problem}
    html, _token = table_page(game_id, holds_key(game_id, row.scorer_key), season)
    return not_stored(Response(html, mimetype="text/html"))


def history(board):
    """What a page needs to show the history table of ``board``: its columns and its rows."""
    return {"columns": history_columns(board), "history_row": history_row}


def history_columns(board):
    """The players in seating order round the table, as the history's columns: hand 1's seating, each later
    joiner placed after the player on their right in the first seating they sat in, a player who left kept
    where they sat."""
    columns, placed, previous = [], set(), None
    for seating in [*(summary.seating for summary in board.hands), board.seating]:
        if seating == previous:
            continue  # most hands are dealt to the table of the hand before
        previous = seating
        for place, player in enumerate(seating):
            if player not in placed:
                right = next((other for other in reversed(seating[:place]) if other in placed), None)
                columns.insert(0 if right is None else columns.index(right) + 1, player)
                placed.add(player)
    return tuple(columns + [player for player in range(board.players) if player not in placed])


def history_row(game, summary, columns, readonly):
    """One hand's row of the history table, rendered once for each hand, reader and language, and kept: a
    page after a new hand renders that hand's row and joins the others."""
    has_tricks = game.hands[summary.number - 1].has_tricks
    return kept_row("rows", MOST_ROWS, (game.id, game.scorer_key, summary, has_tricks, columns, game.names, readonly),
                    "games/history_row.html", lambda: (game, summary, columns, readonly, has_tricks))


def display_page(game_id):
    kept = load_game(game_id, kept=True)
    return render_template("games/display.html", game=kept.game, board=kept.board)


def trail_page(game, board, readonly, newest=None):
    """What a page needs to show the trail of ``game`` (with its scoreboard ``board``): every entry, or the
    ``newest`` ones, read with what they undo and no more."""
    if newest is None:
        shown, length = service.trail(game), len(game.changes)
    else:
        rows, length = read_trail(game.id, newest)
        shown = service.trail(game, rows)[:newest]
    seatings = {}  # hand key -> who played it, for entries that did not keep it (read from the page's board)
    if any(line.subject is service.Subject.HAND and "seating" not in (line.after or line.before or {})
           for line in shown):
        seatings = {hand.key: summary.seating for hand, summary in zip(game.hands, board.hands)}
    return {
        "trail": [shown_entry(game, line, seatings) for line in shown],
        "trail_length": length,
        "undo_form": None if readonly else ConfirmForm(),
    }


def shown_entry(game, line, seatings):
    """One trail line as the page shows it: what it did, the figures it replaced or took out, its Undo."""
    entry = {"line": line, "what": trail_entry(line), "now": trail_now(line), "why_not": why_not_undoable(line),
             "changed": None, "removed": None}
    if line.subject is service.Subject.HAND and line.before is not None:
        before = record_of_facts(line.before)
        seating = line.before.get("seating") or seatings.get(line.hand_key) or range(len(before.taken))
        names = game.names_of(seating)
        if line.after is None:  # a hand taken out: all its figures, so nothing has to be retyped
            entry["removed"] = {"seats": list(zip(names, before.taken)), "moon": before.moon}
        else:  # a hand's figures replaced: who changed, and how
            after = record_of_facts(line.after)
            entry["changed"] = {
                "seats": [(name, old, new) for name, old, new in zip(names, before.taken, after.taken) if old != new],
                "moon": (before.moon, after.moon) if before.moon != after.moon else None,
            }
    return entry
