"""The deterministic budgets of the benchmark (issue 7), held as ordinary tests:
SQL statements per page stay constant and at most 6, pages stay light."""

import gzip
import random
import re

import pytest
from sqlalchemy import event

from scorekeeper.db.models import db

from .tabletop import ELEVEN, HandMix, create_game, game_document, random_hand, record_hand, store_games

HAND = [(3, 0), (3, 1), (3, 0), (3, 0), (2, 0), (2, 1), (2, 0), (2, 0), (2, 0), (2, 0), (2, 0)]
PAGES = ["/", "/games/{id}", "/games/{id}/watch", "/games/{id}/display", "/games/{id}/state",
         "/games/{id}/hands/new", "/games/{id}/export.json", "/games/{id}/play", "/games/{id}/sheet",
         "/games/{id}/sheet.csv"]
MOST_STATEMENTS = 6
PLAIN = HandMix(moon=0, reserved=0, played=0)  # every point collected, no trick log: a fast long game


def long_game(client, hands):
    game_id = create_game(client, ELEVEN, target=100_000)
    for _hand in range(hands):
        record_hand(client, game_id, HAND)
    return game_id


def statements(app, client, url):
    """How many SQL statements one request runs."""
    seen = []
    with app.app_context():
        engine = db.engine
    listener = lambda *args: seen.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        client.get(url)
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    return len(seen)


@pytest.mark.parametrize("page", PAGES)
def test_sql_statements_per_page_are_few_and_do_not_grow_with_hands(app, client, page):
    short, long = long_game(client, 4), long_game(client, 40)

    few = statements(app, client, page.format(id=short))
    many = statements(app, client, page.format(id=long))

    assert few == many, f"{page}: {few} statements for 4 hands, {many} for 40"
    assert many <= MOST_STATEMENTS, f"{page}: {many} statements"


GAME_PAGES = ["/games/{id}", "/games/{id}/watch", "/games/{id}/display"]


@pytest.mark.parametrize("page", GAME_PAGES)
def test_a_game_page_costs_four_statements_when_first_shown_and_at_most_one_after(app, client, page):
    game_id = long_game(client, 40)
    client.get("/")  # the flashed "Hand 40 recorded." is shown there, so the page can be kept
    url = page.format(id=game_id)

    first, again = statements(app, client, url), statements(app, client, url)

    assert first <= 4, f"{url}: {first} statements on a miss"
    assert again <= 1, f"{url}: {again} statements on a hit"


def test_table_view_first_load_stays_under_30_kb(client):
    game_id = long_game(client, 40)

    page = client.get(f"/games/{game_id}").get_data()
    urls = re.findall(r'(?:href|src)="(/static/[^"?]+\.(?:css|js)(?:\?v=\w+)?)"', page.decode())
    assets = []
    for url in urls:
        with client.get(url) as response:
            assets.append(response.get_data())
    total = len(page) + sum(len(asset) for asset in assets)

    print(f"table view first load: {total} bytes, {len(gzip.compress(page + b''.join(assets)))} gzipped")
    assert total <= 30 * 1024


def test_the_table_view_of_a_thousand_hand_game_stays_under_30_kb(app, client):
    rng = random.Random(1000)
    hands = [random_hand(rng, len(ELEVEN), number, 0, PLAIN)[1] for number in range(1, 1001)]
    [(game_id, key)] = store_games(app, [game_document("Marathon", ELEVEN, 0, 1_000_000, hands)])
    client.get(f"/games/{game_id}/scorer/{key}")
    client.get("/")

    page = client.get(f"/games/{game_id}").get_data()

    print(f"table view, 1000 hands: {len(page)} bytes")
    assert len(page) <= 30 * 1024


def test_an_unchanged_poll_is_an_empty_304(client):
    game_id = create_game(client)
    etag = client.get(f"/games/{game_id}/state").headers["ETag"]

    response = client.get(f"/games/{game_id}/state", headers={"If-None-Match": etag})

    headers = "".join(f"{name}: {value}\r\n" for name, value in response.headers.items())
    assert response.status_code == 304
    assert response.get_data() == b""
    assert len("HTTP/1.1 304 NOT MODIFIED\r\n") + len(headers) + 2 <= 300
