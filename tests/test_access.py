"""Who may write: the scorer passes a device keeps in its session, and the page that refuses it."""

import random

import pytest

from scorekeeper import create_app, service
from scorekeeper.db.models import db
from scorekeeper.web.access import KEPT_GAMES, SESSION_KEYS, scorer_pass
from scorekeeper.web.pages import lost_pass

from .tabletop import SIX, text_of

MANY_GAMES = 105  # the device that lost its newest passes had started this many
BROWSER_COOKIE_LIMIT = 4000  # bytes: browsers keep a cookie of 4 KB at most, its name and attributes included


def new_games(app, count):
    """``count`` games created through the service, oldest first: their ids and scorer keys."""
    with app.app_context():
        games = [service.new_game(f"Game {number}", 150, 0, SIX) for number in range(count)]
        return [(game.id, game.scorer_key) for game in games]


@pytest.fixture(scope="module")
def many(module_database_uri):
    """An app with ``MANY_GAMES`` games, created once for the module (no test here changes a game)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test secret key",
                      "SQLALCHEMY_DATABASE_URI": module_database_uri})
    app.games = new_games(app, MANY_GAMES)  # ids and scorer keys, oldest first
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def become_scorer(client, game_id, key):
    """Open the game's secret scorer link, as a second phone would; the link's response."""
    response = client.get(f"/games/{game_id}/scorer/{key}")
    assert response.status_code == 302
    with client.session_transaction() as session:
        session.pop("_flashes", None)  # the table view the link leads to would show and drop it
    return response


def can_record(client, game_id):
    status = client.get(f"/games/{game_id}/hands/new").status_code
    assert status in (200, 403), (game_id, status)
    return status == 200


def passes(app, games):
    """The session's passes of ``games`` (id and scorer key), as an old cookie kept them: a dict."""
    with app.test_request_context():
        return {str(game_id): scorer_pass(key) for game_id, key in games}


@pytest.fixture
def bystander(app):
    """Another phone at the table: no scorer pass."""
    return app.test_client()


def test_a_device_that_became_scorer_of_many_games_keeps_exactly_the_newest(many):
    client = many.test_client()

    for game_id, key in many.games:
        become_scorer(client, game_id, key)

    newest = [game_id for game_id, _ in many.games[-KEPT_GAMES:]]
    older = [game_id for game_id, _ in many.games[:-KEPT_GAMES]]
    assert [game_id for game_id in newest if not can_record(client, game_id)] == []
    assert [game_id for game_id in older if can_record(client, game_id)] == []


def test_the_session_cookie_with_the_most_passes_stays_under_a_browsers_limit(many):
    client = many.test_client()
    for game_id, key in many.games[-KEPT_GAMES - 1:-1]:
        become_scorer(client, game_id, key)
    assert can_record(client, game_id)  # the session holds a CSRF token too now

    response = client.get("/games/{}/scorer/{}".format(*many.games[-1]))  # its flashed message as well

    [cookie] = [header for header in response.headers.getlist("Set-Cookie") if header.startswith("session=")]
    print(f"session cookie: {len(cookie)} bytes with {KEPT_GAMES} passes, a CSRF token and a message")
    assert len(cookie) < BROWSER_COOKIE_LIMIT


def test_opening_a_held_game_again_makes_it_the_newest(many):
    client = many.test_client()
    games = many.games[:KEPT_GAMES + 1]
    (first, first_key), (second, _), (last, last_key) = games[0], games[1], games[-1]
    for game_id, key in games[:-1]:
        become_scorer(client, game_id, key)

    become_scorer(client, first, first_key)
    become_scorer(client, last, last_key)

    assert can_record(client, first)
    assert not can_record(client, second)
    assert can_record(client, last)


def test_a_cookie_from_before_the_list_keeps_its_games_in_any_order(many):
    client = many.test_client()
    games = many.games[:4]
    (_, held_key), (keyed_id, keyed_key), (new_id, new_key) = games[0], games[1], games[3]
    old_passes = list(passes(many, [games[0], games[2]]).items())
    random.Random(7).shuffle(old_passes)
    with client.session_transaction() as session:
        # a dict, as the session kept them before; one game's key itself, from before passes
        session[SESSION_KEYS] = dict([*old_passes, (str(keyed_id), keyed_key)])

    assert [can_record(client, game_id) for game_id, _ in games] == [True, True, True, False]
    become_scorer(client, new_id, new_key)

    with client.session_transaction() as session:
        kept = session[SESSION_KEYS]
    assert isinstance(kept, list)
    assert sorted(game_id for game_id, _ in kept) == [game_id for game_id, _ in games]
    assert kept[-1][0] == new_id
    assert keyed_key not in str(kept) and held_key not in str(kept)
    assert all(can_record(client, game_id) for game_id, _ in games)


def test_the_refusal_tells_how_to_get_the_scorer_pass_back_for_that_game(app, bystander):
    [(game_id, _)] = new_games(app, 1)

    response = bystander.get(f"/games/{game_id}/hands/new")

    page = text_of(response)
    assert response.status_code == 403
    assert "Only the scorer's device can change this game." in page
    assert f"its newest {KEPT_GAMES} games" in page
    assert "secret scorer link" in page
    assert "“Let a second phone keep score”" in page
    assert f"flask --app scorekeeper scorer-link {game_id}" in page
    assert f'href="/games/{game_id}"' in response.get_data(as_text=True)


def test_the_help_for_a_refusal_naming_no_game_tells_where_its_number_is(app):
    with app.test_request_context():
        scorer_help = lost_pass(None)

    assert scorer_help.command == "flask --app scorekeeper scorer-link ID"
    assert "/games/ID" in scorer_help.paragraphs[-1]
    assert scorer_help.game_id is None
