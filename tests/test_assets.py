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
