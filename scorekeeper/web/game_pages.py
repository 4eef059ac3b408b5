"""A game's pages as several blueprints render them: the table view (the scorer's and the read-only one),
the table display, and the trail with its Undo buttons."""

from flask import render_template

from .. import service
from ..db.models import record_of_facts
from .chart import score_chart
from .explain import trail_entry, trail_now, why_not_undoable
from .forms import ConfirmForm
from .rendered import scoreboard
from .responses import load_shown_game
from .serving import qr_svg, reachable_by_others, shared_url, watch_url

RECENT_HANDS = 10  # hands in the table view's history; all of them one tap away
RECENT_CHANGES = 5  # trail entries on the table view; the whole trail one tap away


def table_page(game_id, scorer):
    """The table view of a game, with the scorer's controls or read-only; its HTML and CSRF token."""
    game = load_shown_game(game_id)
    board = scoreboard(game)
    trail = trail_page(game, readonly=not scorer, newest=RECENT_CHANGES)
    page = {"game": game, "board": board, "readonly": not scorer,
            "recent_hands": RECENT_HANDS, "chart": score_chart(board, game.names), **trail}
    if scorer and reachable_by_others():
        share = watch_url(game)
        page.update(
            share_url=share, share_qr=qr_svg(share),
            scorer_link=shared_url("games.become_scorer", game_id=game.id, key=game.scorer_key),
        )
    token = trail["undo_form"].csrf_token.current_token if trail["undo_form"] and trail["trail"] else None
    return render_template("games/table.html", **page), token


def display_page(game_id):
    game = load_shown_game(game_id)
    return render_template("games/display.html", game=game, board=scoreboard(game))


def trail_page(game, readonly, newest=None):
    """What a page needs to show the trail (the ``newest`` entries only, if given)."""
    lines = service.trail(game)
    shown = lines if newest is None else lines[:newest]
    seatings = {}  # hand key -> who played it, for entries that did not keep it (read from the page's board)
    if any(line.subject is service.Subject.HAND and "seating" not in (line.after or line.before or {})
           for line in shown):
        seatings = {hand.key: summary.seating for hand, summary in zip(game.hands, scoreboard(game).hands)}
    return {
        "trail": [shown_entry(game, line, seatings) for line in shown],
        "trail_length": len(lines),
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
