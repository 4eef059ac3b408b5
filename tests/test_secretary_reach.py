"""Every game in the secretary's reach (issue 34): each game's own season controls, any game found on the
club's page by name, day, player or import a page at a time, several changed at once, and one import
undone at once, its undo undone in turn."""

import re
import threading
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from scorekeeper import service
from scorekeeper.db.models import Game, GameChange, db

from .tabletop import SIX, game_document, hidden_fields, make_secretary, on_threads, store_games, text_of
from .test_waiting_imports import FINISHED, imported_games, stats

FIRST_DAY = date(2026, 6, 5)  # a Friday: the season's first evening; the 20th is in October


def a_season(app, games=60):
    """``games`` finished games, three an evening, every one named "Friday" or "Friday table 2", so that
    names repeat; stored at once, as a restored backup stores them. Their ids, oldest first."""
    documents = []
    for number in range(games):
        document = game_document("Friday" if number % 3 == 0 else "Friday table 2", SIX if number % 2 else
                                 ["Ana", "Bo", "Caio", "Dee", "Eli", "Yuki"], 0, 50, FINISHED)
        documents.append({**document, "version": 2,
                          "played_on": (FIRST_DAY + timedelta(days=7 * (number // 3))).isoformat()})
    return [game_id for game_id, _key in store_games(app, documents)]


def post(client, url, page, fields):
    return client.post(url, data={**hidden_fields(client, page), **fields})


def found_ids(response):
    """The games the club's page found, in its order."""
    return [int(game) for game in re.findall(r'name="games" value="(\d+)"', response.get_data(as_text=True))]


def nothing_differs(app):
    with app.app_context():
        assert service.figures.check() == []


def game_row(app, game_id):
    with app.app_context():
        return db.session.execute(select(Game.voided_at, Game.void_reason, Game.played_on)
                                  .where(Game.id == game_id)).one()


def test_the_oldest_of_60_games_is_left_out_and_dated_from_its_own_page(app, client):
    oldest, *_others = a_season(app)
    secretary = make_secretary(app, app.test_client())
    before = stats(client)

    page = secretary.get(f"/games/{oldest}")
    guest_page = client.get(f"/games/{oldest}").get_data(as_text=True)
    refused = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}", {"action": "void", "reason": "a\u2028b"})
    left_out = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}", {"action": "void",
                                                                               "reason": "A practice game"})
    during = stats(client)
    nothing_differs(app)
    twice = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}", {"action": "void", "reason": "Again"})
    bad_day = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}", {"action": "date", "day": "2026-13-40"})
    too_late = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}",
                    {"action": "date", "day": (date.today() + timedelta(days=2)).isoformat()})
    dated = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}", {"action": "date", "day": "2026-06-04"})
    counted = post(secretary, f"/games/{oldest}/season", f"/games/{oldest}", {"action": "count"})
    nothing_differs(app)

    assert page.status_code == 200 and "This game in the season" in text_of(page)
    assert page.headers["Cache-Control"] == "no-store"
    assert "This game in the season" not in guest_page and "/season" not in guest_page
    assert refused.status_code == 400 and 'value="a\u2028b"' in refused.get_data(as_text=True)
    assert "A reason cannot hold line breaks or invisible characters." in text_of(refused)
    assert left_out.status_code == 302 and left_out.headers["Location"] == f"/games/{oldest}"
    assert during["Yuki"]["games"] == before["Yuki"]["games"] - 1
    assert twice.status_code == 409 and "nothing was saved" in text_of(twice)  # another device was first
    assert "Count it again" in text_of(twice)  # the game as it is now: left out already
    assert bad_day.status_code == 400 and 'value="2026-13-40"' in bad_day.get_data(as_text=True)
    assert too_late.status_code == 400  # the refusal says which days it takes: up to tomorrow
    assert f"Enter a day from 1900-01-01 to {date.today() + timedelta(days=1)}, tomorrow" in text_of(too_late)
    assert dated.status_code == 302 and game_row(app, oldest).played_on == date(2026, 6, 4)
    assert counted.status_code == 302 and stats(client) == before


def test_the_oldest_of_60_games_is_found_by_name_and_left_out_and_dated_from_a_search(app, client):
    games = a_season(app)
    oldest = games[0]
    secretary = make_secretary(app, app.test_client())

    first = secretary.get("/club?q=friday")
    last = secretary.get("/club?q=Friday&page=2")
    beyond = secretary.get("/club?q=Friday&page=400000")
    left_out = post(secretary, "/club/games", "/club", {"q": "Friday", "page": "2", "games": [str(oldest)],
                                                        "action": "void", "reason": "Imported twice"})
    dated = post(secretary, "/club/games", "/club", {"games": [str(oldest), str(games[1])], "action": "date",
                                                     "day": "2026-06-04"})
    nothing_differs(app)

    assert first.status_code == 200 and len(found_ids(first)) == 20 and "Page 1 of 3" in text_of(first)
    assert oldest not in found_ids(first)
    assert found_ids(beyond) == found_ids(secretary.get("/club?q=Friday&page=3"))  # the last page
    assert oldest in found_ids(beyond) and oldest not in found_ids(last)
    assert "Jun 5, 2026: Ana, Bo, Caio, Dee, Eli, and Yuki" in text_of(beyond)  # a name repeated, told apart
    assert left_out.status_code == 302 and left_out.headers["Location"] == "/club?q=Friday"
    assert game_row(app, oldest).void_reason == "Imported twice"
    assert dated.status_code == 302
    assert game_row(app, oldest).played_on == game_row(app, games[1]).played_on == date(2026, 6, 4)
    with app.app_context():
        assert [action for action in db.session.execute(
            select(GameChange.action).order_by(GameChange.id)).scalars()] == ["void", "date", "date"]


def test_every_game_of_a_day_is_left_out_and_counted_again_at_once_each_an_entry_of_its_own(app, client):
    games = a_season(app, 9)
    secretary = make_secretary(app, app.test_client())

    left_out = post(secretary, "/club/games", "/club", {"day": "2026-06-12", "which": "found", "action": "void",
                                                        "reason": "A practice evening"})
    during = stats(client)
    counted = post(secretary, "/club/games", "/club", {"day": "2026-06-12", "which": "found", "action": "count"})
    nothing_differs(app)

    assert left_out.status_code == 302 and during["Ana"]["games"] == 6
    assert [game_row(app, game).void_reason for game in games[3:6]] == [None] * 3
    assert counted.status_code == 302 and stats(client)["Ana"]["games"] == 9
    with app.app_context():
        assert len(db.session.execute(select(GameChange.id)).all()) == 6


@pytest.mark.parametrize("page", ["abc", "0", "-1", "99999999999999", "²"])
def test_a_page_that_is_no_page_number_is_not_found(app, client, page):
    a_season(app, 3)

    assert client.get(f"/club?page={page}").status_code == 404


def test_bad_changes_of_several_games_keep_the_form_and_name_the_field(app, client):
    games = a_season(app, 3)
    secretary = make_secretary(app, app.test_client())

    no_reason = post(secretary, "/club/games", "/club", {"games": [str(games[0])], "action": "void", "reason": ""})
    no_games = post(secretary, "/club/games", "/club", {"action": "void", "reason": "Why not"})
    no_action = post(secretary, "/club/games", "/club", {"games": [str(games[0])], "action": "burn"})
    by_guest = post(client, "/club/games", "/games/new", {"games": [str(games[0])], "action": "count"})

    assert no_reason.status_code == 400 and "Say why the game is left out of the season." in text_of(no_reason)
    assert no_games.status_code == 400 and 'value="Why not"' in no_games.get_data(as_text=True)
    assert "Tick the games to change" in text_of(no_games)
    assert no_action.status_code == 400 and by_guest.status_code == 403


def test_a_secretary_takes_the_scorer_pass_of_any_game_and_a_guest_cannot(app, client):
    oldest = a_season(app, 3)[0]
    secretary = make_secretary(app, app.test_client())

    by_guest = post(client, f"/games/{oldest}/scorer-pass", "/games/new", {})
    before = secretary.get(f"/games/{oldest}/hands/1")
    taken = post(secretary, f"/games/{oldest}/scorer-pass", f"/games/{oldest}", {})
    correcting = secretary.get(f"/games/{oldest}/hands/1")

    assert by_guest.status_code == 403 and before.status_code == 403
    assert taken.status_code == 302 and correcting.status_code == 200


def test_an_import_is_undone_at_once_and_its_undo_undone_in_turn(app, client):
    imported_games(client, *[game_document(f"Made up {number}", SIX, 0, 50, FINISHED) for number in range(3)])
    secretary = make_secretary(app, app.test_client())
    kept = imported_games(secretary, game_document("Real", SIX, 0, 50, FINISHED))
    with app.app_context():
        made_up = db.session.execute(select(Game.import_id).order_by(Game.id)).scalars().first()
    post(secretary, "/club/games", "/club", {"import": str(made_up), "which": "found", "action": "accept"})
    counted = stats(client)["Ana"]["games"]

    refused = post(secretary, f"/club/imports/{made_up}", "/club", {"action": "undo", "reason": ""})
    undone = post(secretary, f"/club/imports/{made_up}", "/club", {"action": "undo", "reason": "Made up"})
    after_undo = stats(client)["Ana"]["games"]
    nothing_differs(app)
    again = post(secretary, f"/club/imports/{made_up}", "/club", {"action": "undo", "reason": "Made up"})
    with app.app_context():
        entry = db.session.execute(select(GameChange.id).where(GameChange.action == "void_import")).scalar_one()
    page = text_of(secretary.get("/club"))
    undo = post(secretary, "/club/games/undo", "/club", {"change": str(entry)})
    after_undo_undone = stats(client)["Ana"]["games"]
    nothing_differs(app)
    undo_again = post(secretary, "/club/games/undo", "/club", {"change": str(entry + 1)})
    nothing_differs(app)

    assert kept.status_code == 302 and counted == 4
    assert refused.status_code == 400 and "Say why the game is left out of the season." in text_of(refused)
    assert undone.status_code == 302 and after_undo == 1  # only the secretary's own import still counts
    assert again.status_code == 400 and "Every game of this import is left out already." in text_of(again)
    assert "Import undone: 3 games, Made up 0 the first, left out of the season: Made up" in page
    assert undo.status_code == 302 and after_undo_undone == 4
    assert undo_again.status_code == 302 and stats(client)["Ana"]["games"] == 1
    with app.app_context():
        assert [action for action in db.session.execute(select(GameChange.action).order_by(GameChange.id))
                .scalars()][-3:] == ["void_import", "count_import", "void_import"]


RACED = {  # two secretaries' changes to several games at once, each read before the other is made
    "both leave out the same games": (("void", [0, 1, 2], None), ("void", [0, 1, 2], None)),
    "overlapping games left out": (("void", [0, 1, 2], None), ("void", [2, 3, 4], None)),
    "left out while dated": (("void", [0, 1], None), ("date", [1, 2], date(2026, 6, 4))),
    "dated two days at once": (("date", [0, 1], date(2026, 6, 4)), ("date", [0, 1], date(2026, 6, 3))),
}


@pytest.mark.parametrize("name", RACED)
def test_two_secretaries_changing_the_same_games_at_once_make_one_change_whole_and_the_other_none(app, name):
    games = a_season(app, games=6)
    barrier = threading.Barrier(2)
    outcomes = [None, None]

    def run(place, change):
        action, chosen, day = change
        with app.app_context():
            try:
                rows = db.session.execute(select(Game).where(Game.id.in_([games[at] for at in chosen]))
                                          .order_by(Game.id)).scalars().all()
                barrier.wait()
                outcomes[place] = service.change_games(rows, action, reason=f"Secretary {place}", day=day,
                                                       device=f"Phone {place}")
            except service.Conflict:
                outcomes[place] = "Conflict"
            finally:
                db.session.remove()

    on_threads(run, RACED[name])

    with app.app_context():
        entries = db.session.execute(select(GameChange.device, GameChange.game_id)).all()
        rows = {game.id: game for game in db.session.execute(select(Game)).scalars()}
    assert sorted(outcomes, key=str) in ([2, "Conflict"], [3, "Conflict"]), outcomes
    made = outcomes.index("Conflict") ^ 1
    action, chosen, day = RACED[name][made]
    assert sorted(game for _device, game in entries) == sorted(games[at] for at in chosen)  # the winner's, whole
    assert {device for device, _game in entries} == {f"Phone {made}"}
    for at, game_id in enumerate(games):
        changed = at in chosen
        assert (rows[game_id].voided_at is not None) == (changed and action == "void")
        assert (rows[game_id].played_on == day) == (changed and action == "date")
    nothing_differs(app)
