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
