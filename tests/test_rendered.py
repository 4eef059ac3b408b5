"""Kept pages are never stale: after every kind of write a game's pages are what a fresh render shows."""

import gzip
import io
import json
import random
import re
import threading
import time

import pytest

from scorekeeper import create_app
from scorekeeper.db.models import Game, db, read_shown_game, read_trail
from scorekeeper.web import live, rendered, serving
from scorekeeper.web.game_pages import table_page
from scorekeeper.web.rendered import FRESH_FOR

from .tabletop import (
    SIX,
    create_game,
    exported,
    hidden_fields,
    post_hand,
    random_game_document,
    record_hand,
    store_games,
    text_of,
)

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
OTHER = [(4, 0), (4, 0), (5, 1), (4, 0), (5, 1), (4, 0)]
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="[^"]+"')


@pytest.fixture
def fresh_eyes(database_uri):
    """Another app on the same database, keeping no page of its own: what a fresh render shows."""
    other = create_app({"TESTING": True, "SECRET_KEY": "test secret key", "SQLALCHEMY_DATABASE_URI": database_uri})
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()  # its connections closed before the test's database is dropped


def seen(client, url):
    """A page's HTML as its reader gets it, the CSRF token (the session's own) blanked."""
    return TOKEN.sub('name="csrf_token" value=""', client.get(url).get_data(as_text=True))


def pages(client, game_id):
    return {url: seen(client, url) for url in
            [f"/games/{game_id}", f"/games/{game_id}/watch", f"/games/{game_id}/display"]}


def assert_fresh(client, fresh_eyes, game_id):
    """Every page of the game, seen twice (the second from the cache), is what the other app renders."""
    client.get("/")  # shows and so drops the flashed message, which is never kept
    twin = fresh_eyes.test_client()
    with client.session_transaction() as mine, twin.session_transaction() as theirs:
        theirs.update(dict(mine))  # the same scorer, on the other app
    kept = pages(client, game_id)
    assert pages(client, game_id) == kept
    assert kept == pages(twin, game_id)


def undo_newest(client, app, game_id):
    with app.app_context():
        change = max(db.session.get(Game, game_id).changes, key=lambda change: change.id)
    fields = {**hidden_fields(client, "/games/new"), "revision": str(exported_revision(client, game_id))}
    return client.post(f"/games/{game_id}/changes/{change.id}/undo", data=fields)


def exported_revision(client, game_id):
    return client.get(f"/games/{game_id}/state").get_json()["revision"]


def play_first_trick(client, game_id):
    fields = {**hidden_fields(client, f"/games/{game_id}/play"), "number": "1"}
    fields.update({f"cards-{seat}": card for seat, card in enumerate(["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"])})
    return client.post(f"/games/{game_id}/play", data=fields)


def take_back_trick(client, game_id):
    return client.post(f"/games/{game_id}/play/undo", data=hidden_fields(client, f"/games/{game_id}/play"))


WRITES = {
    "record": lambda client, app, game_id: record_hand(client, game_id, OTHER),
    "correct": lambda client, app, game_id: post_hand(client, game_id, OTHER, number=1),
    "remove": lambda client, app, game_id: client.post(
        f"/games/{game_id}/hands/1/remove", data=hidden_fields(client, f"/games/{game_id}/hands/1/remove")),
    "undo": undo_newest,
    "trick": lambda client, app, game_id: play_first_trick(client, game_id),
    "take back a trick": lambda client, app, game_id: (play_first_trick(client, game_id),
                                                       take_back_trick(client, game_id)),
}


@pytest.mark.parametrize("write", WRITES)
def test_no_page_is_stale_after_a_write(app, client, fresh_eyes, write):
    game_id = create_game(client, SIX, target=500)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, SPREAD[::-1])
    before = pages(client, game_id)

    WRITES[write](client, app, game_id)

    assert_fresh(client, fresh_eyes, game_id)
    assert pages(client, game_id) != before


def test_an_imported_game_shows_its_own_pages_not_a_kept_one(app, client, fresh_eyes):
    first = create_game(client, SIX, target=500, name="First")
    record_hand(client, first, SPREAD)
    document = exported(client, first)
    document["name"] = "Imported"
    token = hidden_fields(client, "/games/import")["csrf_token"]

    response = client.post("/games/import", content_type="multipart/form-data", data={
        "csrf_token": token, "document": (io.BytesIO(json.dumps(document).encode()), "game.json")})

    imported = int(response.headers["Location"].rsplit("/", 1)[1])
    assert_fresh(client, fresh_eyes, imported)
    assert "Imported" in text_of(client.get(f"/games/{imported}/watch"))


def test_a_page_with_a_message_is_shown_once_then_kept_without_it(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    with_message = text_of(client.get(f"/games/{game_id}"))
    kept = text_of(client.get(f"/games/{game_id}"))

    # The trail says it too: the message adds one.
    assert with_message.count("Hand 1 recorded.") == kept.count("Hand 1 recorded.") + 1


def test_a_second_scorer_served_a_kept_page_gets_a_token_of_their_own_that_works(app, client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, OTHER)
    client.get("/")
    client.get(f"/games/{game_id}")  # kept now, with the first scorer's token taken out
    second = app.test_client()
    second.get(f"/games/{game_id}/scorer/{scorer_key(app, game_id)}")
    second.get("/")

    page = second.get(f"/games/{game_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    undo = re.search(r'href="([^"]+/undo)"', page).group(1)  # taking a hand out asks first; this is the yes
    response = second.post(undo, data={"csrf_token": token, "revision": str(exported_revision(second, game_id))})

    assert response.status_code == 302
    assert len(exported(client, game_id)["hands"]) == 1


def scorer_key(app, game_id):
    with app.app_context():
        return db.session.get(Game, game_id).scorer_key


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/watch", "/games/{id}/display"])
def test_a_kept_page_gzipped_is_the_same_page(client, path):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    client.get("/")
    url = path.format(id=game_id)
    client.get(url)

    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})

    assert packed.content_encoding == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert TOKEN.sub("", gzip.decompress(packed.get_data()).decode()) == TOKEN.sub("", plain.get_data(as_text=True))


def test_a_write_here_shows_at_once_and_one_from_another_process_within_a_moment(app, client, fresh_eyes):
    game_id = create_game(client)
    state = f"/games/{game_id}/state"
    first = client.get(state).get_json()["revision"]
    record_hand(client, game_id, SPREAD)
    here = client.get(state).get_json()["revision"]
    other_server = fresh_eyes.test_client()
    with client.session_transaction() as mine, other_server.session_transaction() as theirs:
        theirs.update(dict(mine))

    record_hand(other_server, game_id, OTHER)  # another worker process of the same server
    time.sleep(FRESH_FOR)

    assert here == first + 1
    assert client.get(state).get_json()["revision"] == first + 2
    assert "Hand 3" in text_of(client.get(f"/games/{game_id}/watch"))


def test_a_page_reads_the_same_game_from_plain_rows_as_from_the_models(app):
    rng = random.Random(11)
    documents = [random_game_document(rng, f"game {seed}", fewest_hands=0, most_hands=12) for seed in range(12)]
    stored = store_games(app, documents)

    with app.app_context():
        for game_id, _key in stored:
            game = db.session.get(Game, game_id)
            shown = read_shown_game(game_id)

            assert shown.names == tuple(game.names)
            assert (shown.id, shown.name, shown.target, shown.first_dealer, shown.revision, shown.scorer_key) == (
                game.id, game.name, game.target, game.first_dealer, game.revision, game.scorer_key)
            assert [(hand.key, hand.number, hand.has_tricks) for hand in shown.hands] == [
                (hand.key, hand.number, game.log_of(hand) is not None) for hand in game.hands]
            assert shown.scoreboard() == game.scoreboard()
            assert [change.id for change in read_trail(game_id)[0]] == [change.id for change in game.changes]
        assert read_shown_game(max(game_id for game_id, _key in stored) + 1) is None


def test_phones_asking_at_once_for_a_changed_page_wait_for_one_rendering(app, client, monkeypatch):
    game_id = create_game(client, SIX)
    record_hand(client, game_id, SPREAD)
    renderings = []

    def slow_table_page(game_id, scorer):
        renderings.append(game_id)
        time.sleep(0.2)  # long enough for every phone to ask while it renders
        return table_page(game_id, scorer)

    monkeypatch.setattr(live, "table_page", slow_table_page)
    phones = [app.test_client() for _phone in range(6)]
    start = threading.Barrier(len(phones))
    pages = []

    def watch(phone):
        start.wait()
        pages.append(phone.get(f"/games/{game_id}/watch").get_data(as_text=True))

    threads = [threading.Thread(target=watch, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    assert renderings == [game_id]
    assert len(pages) == len(phones) and len(set(pages)) == 1


# --- What a kept page is kept by (issue 33) --------------------------------------------------------------


KEY_INPUTS = {  # each input of rendered.page_key, and a request that changes it alone
    "the page": dict(path="/games/{game}/watch"),
    "its query": dict(path="/games/{game}?lang=pt"),
    "the scheme": dict(base_url="https://127.0.0.1"),
    "the host": dict(base_url="http://localhost"),
    "the script root": dict(environ_overrides={"SCRIPT_NAME": "/club"}),
    "the language": dict(headers={"Accept-Language": "nb"}),
}


@pytest.mark.parametrize("changed", KEY_INPUTS)
def test_a_kept_page_is_kept_apart_for_each_input_of_its_key(app, client, changed):
    game = create_game(client, SIX)
    same = dict(path="/games/{game}", base_url="http://127.0.0.1", environ_overrides={}, headers={})
    other = {**same, **KEY_INPUTS[changed]}

    def key(request):
        path = request.pop("path").format(game=game)
        with app.test_request_context(path, **request):
            app.preprocess_request()
            return rendered.page_key(game, 1, "key", scorer=True)

    assert key(dict(same)) == key(dict(same))
    assert key(dict(other)) != key(dict(same))
    with app.test_request_context(f"/games/{game}"):
        assert rendered.page_key(game, 1, "key", True) != rendered.page_key(game, 2, "key", True)  # the revision
        assert rendered.page_key(game, 1, "key", True) != rendered.page_key(game, 1, "other", True)  # the game's key
        assert rendered.page_key(game, 1, "key", True) != rendered.page_key(game, 1, "key", False)  # the reader
        assert rendered.page_key(game, 1, "key", True) != rendered.page_key(game + 1, 1, "key", True)  # the game


def test_the_scorers_page_shows_the_servers_new_address_as_a_fresh_process_does(app, client, fresh_eyes, monkeypatch):
    game = create_game(client, SIX)
    monkeypatch.setattr(serving, "lan_addresses", lambda: ["192.0.2.10"])
    before = client.get(f"/games/{game}").get_data(as_text=True)

    monkeypatch.setattr(serving, "lan_addresses", lambda: ["192.0.2.77"])  # the Wi-Fi gave the server another
    after = seen(client, f"/games/{game}")

    assert "http://192.0.2.10/games/" in before
    assert "192.0.2.10" not in after and f"http://192.0.2.77/games/{game}/watch" in after
    twin = fresh_eyes.test_client()
    with client.session_transaction() as mine, twin.session_transaction() as theirs:
        theirs.update(dict(mine))
    assert after == seen(twin, f"/games/{game}")
