"""Each game's figures are kept for its revision (issue 25): every write keeps them, the games list, the
season's table, /stats.json and the person pages read them and score nothing, stale figures give way to the
hands, and `flask refigure` writes every game's afresh."""

import random

from sqlalchemy import select, update

from scorekeeper import rules
from scorekeeper.db.models import GameFigures, PersonFigures, SeatFigures, db

from .tabletop import (
    ELEVEN,
    SIX,
    assert_figures_are_fresh,
    create_game,
    random_game_document,
    record_hand,
    store_games,
    text_of,
)
from .test_budgets import statements_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]


def assert_fresh(app):
    with app.app_context():
        assert_figures_are_fresh()


def test_every_write_keeps_the_figures_the_hands_derive(app, client):
    played = create_game(client, SIX, name="Played", target=60)
    for _hand in range(4):  # the game ends at hand 4: places and margins are kept too
        record_hand(client, played, SPREAD)
    store_games(app, [random_game_document(random.Random(5), f"Imported {number}", 2, 6) for number in range(3)])

    assert_fresh(app)
    with app.app_context():
        places = db.session.execute(select(SeatFigures.seat, SeatFigures.place, SeatFigures.margin)
                                    .where(SeatFigures.game_id == played).order_by(SeatFigures.seat)).all()
    # Totals 20, 72, 16, 68, 16, 16: three share the win, 0 ahead; the others' margins are behind them.
    assert [tuple(row) for row in places] == [(0, 4, -4), (1, 6, -56), (2, 1, 0), (3, 5, -52), (4, 1, 0), (5, 1, 0)]


def test_the_games_list_and_the_seasons_pages_read_the_kept_figures_and_score_nothing(app, client, monkeypatch):
    played = create_game(client, SIX, name="Played")
    for _hand in range(3):
        record_hand(client, played, SPREAD)
    store_games(app, [random_game_document(random.Random(5), f"Imported {number}", 2, 6) for number in range(3)])
    client.get("/")  # the flashed message is read
    client.get("/players")  # the imports' finished games: the club's ratings are worked out again once
    scored = []
    monkeypatch.setattr(rules, "score_game", lambda *args, **kwargs: scored.append(args))
    with app.app_context():
        person = db.session.execute(select(db.text("person_id")).select_from(db.text("player"))).scalars().first()

    for path, most in (("/", 3), ("/players", 5), ("/stats.json", 5), (f"/players/{person}", 9)):
        sql, response = statements_of(app, client, path)

        assert response.status_code == 200, path
        assert not any("taking" in statement for statement in sql), (path, sql)
        assert len(sql) <= most, (path, sql)
    assert scored == []
    assert "In progress: hand 4 next" in text_of(client.get("/"))


def test_stale_figures_give_way_to_the_hands_and_the_command_writes_every_games_afresh(app, client, runner):
    game_id = create_game(client, ELEVEN[:6], name="Stale")
    record_hand(client, game_id, SPREAD)
    client.get("/")  # the flashed "Hand 1 recorded." is read
    right = [text_of(client.get(path)) for path in ("/", "/players")]
    stats = client.get("/stats.json").get_json()
    with app.app_context():  # figures gone wrong, as old data or a hand edited by hand might leave them
        db.session.execute(update(GameFigures).values(revision=GameFigures.revision - 1, facts='{"players": 99}'))
        db.session.execute(update(SeatFigures).values(revision=SeatFigures.revision - 1, points=999))
        db.session.commit()

    shown = [text_of(client.get(path)) for path in ("/", "/players")]

    assert shown == right  # the hands win
    assert client.get("/stats.json").get_json() == stats
    assert_fresh(app)  # and the page kept them again
    with app.app_context():
        db.session.execute(update(SeatFigures).values(points=999))  # wrong at the right revision: only a rebuild
        db.session.commit()
    result = runner.invoke(args=["refigure"])
    assert result.exit_code == 0 and "1 games' figures derived from their hands" in result.output
    assert_fresh(app)


def test_refigure_check_names_each_kept_figure_the_hands_do_not_say_and_writes_nothing(app, client, runner):
    played = create_game(client, SIX, name="Played", target=60)
    for _hand in range(4):
        record_hand(client, played, SPREAD)
    clean = runner.invoke(args=["refigure", "--check"])
    with app.app_context():
        db.session.execute(update(SeatFigures).where(SeatFigures.seat == 2).values(points=999))
        db.session.execute(update(GameFigures).values(hands=3))
        person = db.session.execute(select(SeatFigures.person_id).where(SeatFigures.seat == 4)).scalar_one()
        db.session.execute(update(PersonFigures).where(PersonFigures.person_id == person).values(hearts=1))
        db.session.commit()

    checked = runner.invoke(args=["refigure", "--check"])
    again = runner.invoke(args=["refigure", "--check"])

    assert clean.exit_code == 0 and "Every kept figure is what the hands say." in clean.output
    assert checked.exit_code == 1
    assert f"player ({played}, 2): kept points 999 (the hands say 16)" in checked.output
    assert f"game {played}: kept hands 3 (the hands say 4)" in checked.output
    assert f"person {person}: kept hearts 1 (the hands say 16)" in checked.output
    assert again.output == checked.output  # it wrote nothing
    assert runner.invoke(args=["refigure"]).exit_code == 0
    assert runner.invoke(args=["refigure", "--check"]).exit_code == 0
