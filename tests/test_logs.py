"""What the server tells its operator: one access line a request with the keys hidden, errors with the
client's address, and a fault's page in the reader's language that cannot fail itself."""

import logging

import pytest

from scorekeeper import service
from scorekeeper.db.models import Game, db
from scorekeeper.web import logs, pages

from .tabletop import create_game, text_of


@pytest.fixture
def logged(app, caplog):
    """``app`` with its access log on, as `serve` runs it; the lines it writes."""
    logs.access_logged(app)
    caplog.set_level(logging.INFO, logger="scorekeeper.access")
    logs.ACCESS.propagate = True  # serve gives it a handler of its own; here caplog's root handler reads it
    yield lambda: [record.getMessage() for record in caplog.records if record.name == "scorekeeper.access"]
    logs.ACCESS.propagate = False


def visit(client, path, method="GET", **options):
    """Send a request and close its answer, as a server does once it is sent (the line is written then)."""
    client.open(path, method=method, **options).close()


def test_each_request_is_one_line_with_the_client_method_path_status_and_time(client, logged):
    visit(client, "/rules", environ_base={"REMOTE_ADDR": "192.168.1.23"})
    visit(client, "/games/new", method="POST", data={}, environ_base={"REMOTE_ADDR": "192.168.1.24"})

    first, second = logged()

    client_address, method, path, status, milliseconds, unit = first.split(" ")
    assert (client_address, method, path, status, unit) == ("192.168.1.23", "GET", "/rules", "200", "ms")
    assert float(milliseconds) >= 0
    assert second.startswith("192.168.1.24 POST /games/new 400 ")


def test_the_keys_of_scorer_and_secretary_links_never_reach_the_log(app, client, logged):
    game_id = create_game(client)
    with app.app_context():
        scorer_key = db.session.get(Game, game_id).scorer_key
        secretary_key = service.secretary_key()

    visit(client, f"/games/{game_id}/scorer/{scorer_key}")
    visit(client, f"/games/{game_id}/scorer/{scorer_key}-wrong")
    visit(client, f"/games/{game_id}/scorer/{scorer_key}/")
    visit(client, f"/club/secretary/{secretary_key}")

    lines = "\n".join(logged())
    assert f"127.0.0.1 GET /games/{game_id}/scorer/<key> 302 " in lines
    assert f"127.0.0.1 GET /games/{game_id}/scorer/<key>/ 404 " in lines
    assert "127.0.0.1 GET /club/secretary/<key> 302 " in lines
    assert scorer_key not in lines and secretary_key not in lines


@pytest.mark.parametrize("path, logged_path", [
    ("/games/1/scorer/a b", "/games/1/scorer/<key>"),
    ("/x\x1b[2K\x08FAKE 127.0.0.1 GET / 200", "/x%1B%5B2K%08FAKE%20127.0.0.1%20GET%20/%20200"),
    ("/jogos/joão", "/jogos/jo%C3%A3o"),
])
def test_a_path_is_written_as_it_came_on_one_line(client, logged, path, logged_path):
    visit(client, path)

    assert logged()[0].split(" ")[2] == logged_path


def test_behind_a_trusted_proxy_the_line_names_the_phone_it_forwarded_for(database_uri, logged):
    from scorekeeper import create_app

    proxied = logs.access_logged(create_app({"TESTING": True, "SECRET_KEY": "x", "PROXY_HOPS": 1,
                                             "SQLALCHEMY_DATABASE_URI": database_uri}))

    visit(proxied.test_client(), "/rules", headers={"X-Forwarded-For": "192.168.1.30"},
          environ_base={"REMOTE_ADDR": "10.0.0.1"})

    assert logged()[-1].startswith("192.168.1.30 GET /rules 200 ")


# --- Faults: the log names the client, the page speaks the reader's language --------------------


@pytest.fixture
def faulty(app):
    """``app`` with a scorer-like route that fails, answering as in production (no exception raised to the
    test)."""
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def fail(game_id, key):
        raise RuntimeError("a fault of the app's own")

    app.add_url_rule("/games/<int:game_id>/scorer/<key>/fail", "fail", fail)
    return app


def test_a_fault_is_logged_with_the_client_address_and_no_key(faulty, caplog):
    faulty.test_client().get("/games/7/scorer/SECRETKEY/fail", environ_base={"REMOTE_ADDR": "192.168.1.40"})

    error, = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert error.getMessage() == "Exception on GET /games/7/scorer/<key>/fail from 192.168.1.40"
    assert error.exc_info[0] is RuntimeError
    assert "SECRETKEY" not in error.getMessage()


@pytest.mark.parametrize("language, words", [
    ("en", "The scorekeeper ran into a fault of its own"),
    ("pt", "O marcador"),
])
def test_a_fault_shows_the_apps_page_in_the_readers_language(faulty, language, words):
    response = faulty.test_client().get("/games/7/scorer/x/fail", headers={"Accept-Language": language})

    assert response.status_code == 500
    assert words in text_of(response)
    assert "Internal Server Error" not in response.get_data(as_text=True)
    assert response.headers["Content-Security-Policy"]


def test_a_fault_whose_page_cannot_be_drawn_still_answers_a_plain_page_in_the_readers_language(faulty,
                                                                                             monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the template broke too")

    monkeypatch.setattr(pages, "render_template", broken)

    response = faulty.test_client().get("/games/7/scorer/x/fail", headers={"Accept-Language": "pt"})

    assert response.status_code == 500
    assert "O marcador" in text_of(response)


def test_a_fault_whose_catalog_fails_too_still_answers_a_plain_page(faulty, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the catalog broke too")

    monkeypatch.setattr(pages, "render_template", broken)
    monkeypatch.setattr(pages, "_", broken)

    response = faulty.test_client().get("/games/7/scorer/x/fail")

    assert response.status_code == 500
    assert "The scorekeeper ran into a fault of its own (500)." in text_of(response)
