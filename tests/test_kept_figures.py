"""The games list reads each game's summary kept for its revision, never the takings of every hand; a stale
summary gives way to the hands, and `flask rebuild-summaries` writes every one afresh (issue 23)."""

import json
import random

from sqlalchemy import select, update

from scorekeeper import service
from scorekeeper.db.models import Game, GameSummary, db

from .tabletop import ELEVEN, SIX, create_game, random_game_document, record_hand, store_games, text_of
from .test_budgets import statements_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]


def fresh_derivations(app):
    """Each game's summary as its hands derive it now."""
    with app.app_context():
        return {game.id: service.summary.summary_facts(game.scoreboard(), list(game.names))
                for game in db.session.execute(select(Game)).scalars()}


def kept(app):
    with app.app_context():
        return {game_id: json.loads(facts) for game_id, facts in
                db.session.execute(select(GameSummary.game_id, GameSummary.facts)).all()}


def test_the_games_list_reads_the_kept_summaries_and_no_taking(app, client):
    played = create_game(client, SIX, name="Played")
    for _hand in range(3):
        record_hand(client, played, SPREAD)
    store_games(app, [random_game_document(random.Random(5), f"Imported {number}", 2, 6) for number in range(3)])

    sql, response = statements_of(app, client, "/")

    assert response.status_code == 200
    assert not any("taking" in statement for statement in sql), sql
    assert kept(app) == fresh_derivations(app)  # written by every write, as the hands derive them
    assert "In progress: hand 4 next" in text_of(response)


def test_a_stale_summary_gives_way_to_the_hands_and_the_command_rebuilds_every_one(app, client, runner):
    game_id = create_game(client, ELEVEN[:6], name="Stale")
    record_hand(client, game_id, SPREAD)
    client.get("/")  # the flashed "Hand 1 recorded." is read
    right = text_of(client.get("/"))
    with app.app_context():  # a summary gone wrong, as old data or a hand edit might leave it
        db.session.execute(update(GameSummary).values(revision=GameSummary.revision - 1,
                                                      facts=json.dumps({"players": 99})))
        db.session.commit()

    shown = text_of(client.get("/"))
    result = runner.invoke(args=["rebuild-summaries"])

    assert shown == right  # the hands win
    assert result.exit_code == 0 and "1 games summarised" in result.output
    assert kept(app) == fresh_derivations(app)
    sql, _response = statements_of(app, client, "/")
    assert not any("taking" in statement for statement in sql)
