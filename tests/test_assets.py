"""Static files: versioned URLs kept for a year, gzip for browsers that take it, the same bytes either way."""

import gzip
import re

import pytest

ASSET_URL = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def static_urls(client, page="/"):
    return ASSET_URL.findall(client.get(page).get_data(as_text=True))


def test_pages_name_each_static_file_by_its_content(client):
    urls = static_urls(client)

    assert urls
    assert all(re.fullmatch(r"/static/[\w./-]+\?v=[0-9a-f]{12}", url) for url in urls), urls


def test_a_versioned_static_file_is_kept_for_a_year_without_asking_again(client):
    url = next(url for url in static_urls(client) if "style.css" in url)

    response = client.get(url)

    assert response.status_code == 200
    assert response.cache_control.immutable
    assert response.cache_control.max_age == 365 * 24 * 3600


@pytest.mark.parametrize("query", ["", "?v=0123456789ab"])
def test_an_unversioned_or_old_url_is_checked_again_each_time(client, query):
    response = client.get(f"/static/style.css{query}")
    again = client.get(f"/static/style.css{query}", headers={"If-None-Match": response.headers["ETag"]})

    assert response.cache_control.no_cache
    assert not response.cache_control.immutable
    assert again.status_code == 304


@pytest.mark.parametrize("name", ["style.css", "live.js", "icons/icon.svg", "manifest.webmanifest"])
def test_gzip_and_plain_answers_are_the_same_file(client, name):
    plain = client.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
    packed = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip, deflate"})

    assert plain.content_encoding is None
    assert packed.content_encoding == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.get_data()) < len(plain.get_data())


def test_an_image_already_compressed_is_sent_as_it_is(client):
    response = client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": "gzip"})

    assert response.content_encoding is None
    assert response.mimetype == "image/png"


@pytest.mark.parametrize("path", ["/static/nothing.css", "/static/../scorekeeper/__init__.py", "/static/"])
def test_a_file_that_is_not_a_static_file_is_not_found(client, path):
    assert client.get(path).status_code == 404


# --- What keeps the screen on, and what an install over HTTPS keeps ---------------------------------------


@pytest.mark.parametrize("name, kind", [("awake.webm", "video/webm"), ("awake.mp4", "video/mp4")])
def test_the_silent_loops_answer_byte_ranges_as_safari_asks_them(client, name, kind):
    whole = client.get(f"/static/awake/{name}")
    page = client.get(game_page(client)).get_data(as_text=True)
    url = re.search(rf'data-\w+="(/static/awake/{re.escape(name)}\?v=\w+)"', page).group(1)

    first_bytes = client.get(url, headers={"Range": "bytes=0-1"})

    assert whole.mimetype == kind and len(whole.get_data()) < 4096 and "Content-Encoding" not in whole.headers
    assert first_bytes.status_code == 206
    assert first_bytes.headers["Content-Range"] == f"bytes 0-1/{len(whole.get_data())}"
    assert first_bytes.get_data() == whole.get_data()[:2]


def game_page(client):
    from .tabletop import create_game

    return f"/games/{create_game(client)}"


def test_the_service_worker_keeps_the_offline_page_and_the_static_files_it_names_by_version(client):
    response = client.get("/service-worker.js")
    script = response.get_data(as_text=True)
    shell = re.search(r"var SHELL_URLS = (\[[^\]]*\])", script).group(1)

    assert response.mimetype == "text/javascript"
    assert response.cache_control.no_cache
    assert '"/offline"' in shell and re.search(r'"/static/style\.css\?v=[0-9a-f]{12}"', shell)
    assert all(client.get(url).status_code == 200 for url in re.findall(r'"([^"]+)"', shell))


def test_game_pages_name_the_service_worker_for_live_js_to_register_over_https(client):
    page = client.get(game_page(client)).get_data(as_text=True)

    assert 'data-worker="/service-worker.js"' in page


@pytest.mark.parametrize("language, words", [("en", "No connection to the scorekeeper"),
                                             ("pt", "Sem conexão com o marcador")])
def test_the_offline_page_speaks_the_phones_language(client, language, words):
    page = client.get("/offline", headers={"Accept-Language": language}).get_data(as_text=True)

    assert words in page


# --- Every answer compressed (issue 25) -------------------------------------------------------------

GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture
def played(app, client):
    """An imported game of eleven and forty hands, its scorer's session on ``client``: pages of every kind,
    each of them over a kilobyte, to ask for."""
    import random

    from .tabletop import ELEVEN, game_document, random_hand, store_games

    rng = random.Random(25)
    hands = [random_hand(rng, len(ELEVEN), number, 0)[1] for number in range(1, 41)]
    (game_id, key), = store_games(app, [game_document("Compressed", ELEVEN, 0, 100_000, hands)])
    client.get(f"/games/{game_id}/scorer/{key}")
    client.get("/")  # the flashed message is read
    return game_id


@pytest.mark.parametrize("path", ["/", "/players", "/stats.json", "/players/1", "/games/{id}", "/games/{id}/watch",
                                  "/games/{id}/hands/new", "/games/{id}/hands", "/games/{id}/trail",
                                  "/games/{id}/sheet", "/games/{id}/sheet.csv", "/games/{id}/export.json",
                                  "/games/new", "/rules", "/settle"])
def test_every_answer_over_a_kilobyte_is_sent_gzip_encoded_to_a_client_that_takes_it(client, played, path):
    url = path.format(id=played)

    encoded, plain = client.get(url, headers=GZIP), client.get(url)

    assert encoded.status_code == plain.status_code == 200, url
    assert len(plain.get_data()) > 1024, url
    assert encoded.headers.get("Content-Encoding") == "gzip", url
    assert "Accept-Encoding" in encoded.headers.get("Vary", ""), url
    assert plain.headers.get("Content-Encoding") is None
    # Pages with a form carry the session's token, which is signed with the second it was made in.
    without_token = re.compile(rb'(name="csrf_token" type="hidden" value=")[^"]+"')
    assert (without_token.sub(rb"\1", gzip.decompress(encoded.get_data()))
            == without_token.sub(rb"\1", plain.get_data())), url


def test_an_answer_under_a_kilobyte_is_sent_as_it_is(client, played):
    response = client.get(f"/games/{played}/state", headers=GZIP)

    assert len(response.get_data()) < 1024
    assert response.headers.get("Content-Encoding") is None
