"""Playwright against Debian's Chromium, with the app served on 127.0.0.1 in a thread.

Outside CI the browser tests skip with a reason when /usr/bin/chromium is
missing; in CI (``CI`` set) they fail instead, so they never silently skip.
"""

import os
import pathlib
import threading

import pytest
from flask import request
from werkzeug.serving import make_server

from scorekeeper import create_app

from ..conftest import close, fresh_database

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
# Not under test-results/: pytest-playwright empties that folder at every run.
SCREENSHOTS = pathlib.Path(__file__).resolve().parents[2] / "screenshots"


SERVED = []  # the path of every request the live server answered, in order
LIVE_APP = []  # the app the live server serves (one a worker)


@pytest.fixture(scope="session")
def browser_database(tmp_path_factory, migrated_template):
    """A database for the browser tests, at the latest migration: SQLite, or one on the
    ``SCOREKEEPER_TEST_DATABASE`` server."""
    with fresh_database(tmp_path_factory.mktemp("browser"), migrated_template) as uri:
        yield uri


@pytest.fixture(scope="session")
def live_server(browser_database):
    """The app on a database of its own, served on a free port of 127.0.0.1 until the session ends (one per
    xdist worker)."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "browser test secret key",
        "SQLALCHEMY_DATABASE_URI": browser_database,
    })
    app.before_request(lambda: SERVED.append(request.path))
    LIVE_APP.append(app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    close(app)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        message = f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; in CI they must run, not skip")
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE}


@pytest.fixture(scope="session")
def secretary_link(live_server):
    """The path of the club's secretary link on the live server (what ``flask club-link`` prints)."""
    from scorekeeper import service

    with LIVE_APP[0].app_context():
        return f"/club/secretary/{service.secretary_key()}"


@pytest.fixture(scope="session")
def base_url(live_server):
    """Lets tests call page.goto("/")."""
    return live_server


@pytest.fixture
def served_paths():
    """The paths the server answers from now on, as a list that grows."""
    SERVED.clear()
    return SERVED


@pytest.fixture
def screenshot(page):
    """Save a full-page screenshot under test-results/screenshots/ to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name):
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    take.folder = SCREENSHOTS
    return take


@pytest.fixture(autouse=True)
def only_own_origin(page, base_url):
    """Every page may request only the app's own origin: no network at the table."""
    outside = []
    page.context.on("request", lambda request: outside.append(request.url)
                    if not request.url.startswith((base_url, "data:", "blob:")) else None)
    yield
    assert not outside, f"requests outside the app: {outside}"
