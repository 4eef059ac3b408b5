"""Imports wait (issue 34): a game imported by a device without the club's secretary's pass is stored but
waiting, counts in no figure of the season, is marked, and is counted or discarded by the secretary; a
secretary's own import counts at once; a live game counts as it is played."""

import io
import json

from sqlalchemy import select

from scorekeeper import service
from scorekeeper.db.models import Game, GameChange, db

from .tabletop import SIX, create_game, game_document, hidden_fields, make_secretary, record_hand, text_of

FINISHED = [{"number": number, "taken": [{"hearts": 26, "marias": 0}, {"hearts": 0, "marias": 2},
                                        *[{"hearts": 0, "marias": 0}] * 4],
             "uncollected": {"hearts": 0, "marias": 0}, "moon": None}
            for number in (1, 2)]  # Ana and Bo 52, over the target of 50: the four others share the win
WAITING_MARK = "Waiting for the club's secretary to count it"


def imported_games(client, *documents):
    """Import game documents through the import form, one upload; the response."""
    fields = hidden_fields(client, "/games/import")
    files = [(io.BytesIO(json.dumps(document).encode()), f"game-{number}.json")
             for number, document in enumerate(documents, start=1)]
    return client.post("/games/import", data={**fields, "document": files}, content_type="multipart/form-data")


def documents(count, names=SIX, name="Made up"):
    return [game_document(f"{name} {number}", names, 0, 50, FINISHED) for number in range(1, count + 1)]


def stats(client):
    return {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}


def games_of(app):
    with app.app_context():
        return db.session.execute(select(Game.id, Game.waiting, Game.voided_at, Game.import_id)
                                  .order_by(Game.id)).all()


def nothing_differs(app):
    with app.app_context():
        assert service.figures.check() == []


def post(client, url, page, fields):
    return client.post(url, data={**hidden_fields(client, page), **fields})


def test_a_guests_import_waits_counts_nowhere_is_marked_and_counts_only_once_counted(app, client):
    played = create_game(client, ["Kim", "Lee", "Max", "Ned", "Oda", "Pia"], name="Played live")
    record_hand(client, played, [(26, 0), (0, 2), (0, 0), (0, 0), (0, 0), (0, 0)])
    secretary = make_secretary(app, app.test_client())
    before = stats(client)

    imported = imported_games(client, *documents(40))
    waiting = games_of(app)[1:]
    during = stats(client)
    listed, page, club = text_of(client.get("/")), text_of(client.get(f"/games/{waiting[0].id}")), text_of(
        secretary.get("/club"))
    nothing_differs(app)
    by_guest = post(client, f"/club/imports/{waiting[0].import_id}", "/games/new", {"action": "accept"})
    counted = post(secretary, f"/club/imports/{waiting[0].import_id}", "/club", {"action": "accept"})
    after = stats(client)
    secretary.get("/players")  # the ratings worked out again, so that the check compares them too
    nothing_differs(app)

    assert imported.status_code == 302
    assert len(waiting) == 40 and all(game.waiting and game.voided_at is None for game in waiting)
    assert len({game.import_id for game in waiting}) == 1 and waiting[0].import_id is not None
    assert during == before and set(during) == {"Kim", "Lee", "Max", "Ned", "Oda", "Pia"}  # the live game
    # counts as it is played; the 40 made-up games move no figure and no rating
    assert listed.count(WAITING_MARK) == 20  # a page of the games list, each marked
    assert "waiting for the club's secretary to count it in the season" in page
    assert f"Import {waiting[0].import_id} of" in club and "40 waiting" in club
    assert by_guest.status_code == 403
    assert counted.status_code == 302
    assert after["Ana"]["games"] == 40 and after["Ana"]["finished"] == 40 and after["Kim"] == during["Kim"]
    assert after["Caio"]["rating"] > 0 > after["Ana"]["rating"]  # counted: rated at last (Ana and Bo lose)
    assert not any(game.waiting for game in games_of(app))


def test_a_secretarys_own_import_counts_at_once(app):
    secretary = make_secretary(app, app.test_client())

    imported = imported_games(secretary, *documents(2))

    assert imported.status_code == 302
    assert [game.waiting for game in games_of(app)] == [False, False]
    assert stats(secretary)["Ana"]["games"] == 2
    nothing_differs(app)


def test_a_waiting_game_counted_from_its_page_waits_again_when_undone_and_discarding_it_undoes(app, client):
    imported_games(client, *documents(2))
    first, second = [game.id for game in games_of(app)]
    secretary = make_secretary(app, app.test_client())
    guest_page = client.get(f"/games/{first}").get_data(as_text=True)

    counted = post(secretary, f"/games/{first}/season", f"/games/{first}", {"action": "accept"})
    counted_stats = stats(client)
    nothing_differs(app)
    refused = post(secretary, f"/games/{second}/season", f"/games/{second}", {"action": "discard", "reason": " "})
    discarded = post(secretary, f"/games/{second}/season", f"/games/{second}", {"action": "discard",
                                                                                "reason": "Made up"})
    nothing_differs(app)
    with app.app_context():
        accept, discard = db.session.execute(select(GameChange.id).order_by(GameChange.id)).scalars().all()
    undone = [post(secretary, "/club/games/undo", "/club", {"change": str(entry)}) for entry in (accept, discard)]
    nothing_differs(app)

    assert 'action="/games/%d/season"' % first not in guest_page  # a guest sees no season controls
    assert counted.status_code == 302 and counted_stats["Ana"]["games"] == 1
    assert refused.status_code == 400 and "Say why the game is left out of the season." in text_of(refused)
    assert discarded.status_code == 302
    assert [response.status_code for response in undone] == [302, 302]
    assert [(game.waiting, game.voided_at) for game in games_of(app)] == [(True, None), (True, None)]
    assert stats(client) == {}  # both wait again: neither counts
    redo = post(secretary, "/club/games/undo", "/club", {"change": str(accept + 2)})  # the undo of the count
    assert redo.status_code == 302 and stats(client)["Ana"]["games"] == 1
    nothing_differs(app)


def test_a_season_csv_from_a_guest_waits_too(app, client):
    from .test_season_csv import upload

    sheet = "game,date,target,hand,Ana,Bo,Caio,Dee,Eli,Fay\r\nFriday,2026-11-06,50,1,26,MM,0,0,0,0\r\n"

    uploaded = upload(client, ("season.csv", sheet))

    assert uploaded.status_code == 302, text_of(uploaded)
    assert [game.waiting for game in games_of(app)] == [True]
    assert stats(client) == {}
    nothing_differs(app)


def test_a_waiting_game_is_restored_waiting_from_a_backup(app, client, tmp_path):
    imported_games(client, *documents(1))
    path = tmp_path / "club.json"

    saved = app.test_cli_runner().invoke(args=["backup", str(path)])
    backup = json.loads(path.read_text())
    with app.app_context():
        restored = service.restoring.restore_club if hasattr(service, "restoring") else None
    restored_run = app.test_cli_runner().invoke(args=["restore", str(path)])

    assert saved.exit_code == 0 and restored is not None
    assert backup["games"][0]["stored"]["waiting"] is True and backup["games"][0]["stored"]["import"] == 1
    assert restored_run.exit_code == 0, restored_run.output
    games = games_of(app)
    assert [game.waiting for game in games] == [True, True]
    assert games[0].import_id != games[1].import_id  # the restored game's import is one of its own here
    assert stats(client) == {}
    nothing_differs(app)
