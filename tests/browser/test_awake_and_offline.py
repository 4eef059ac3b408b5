"""At the real table: phones open the app by the server's LAN address over plain http, where the browser
offers no Wake Lock and no service worker. Here a name mapped to 127.0.0.1 (Chromium's
``--host-resolver-rules``) stands for that address, as 127.0.0.1 itself is a secure context. A second name
is treated as secure (``--unsafely-treat-insecure-origin-as-secure``), as a club's install over HTTPS is."""

import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from ..tabletop import SIX, game_document, store_games
from .conftest import LIVE_APP, PHONE, SCREENSHOTS

PLAIN = "table.test"  # how a phone at the table reaches the server: plain http, not a secure context
SECURE = "club.test"  # a club's install over HTTPS

TAP = "Tap anywhere on the page once to keep the screen on: over this connection the browser waits for a tap."
ON = "The screen stays on while this page is open."
OFF = "The screen turns off as the phone is set to."
CANNOT = "This browser cannot keep the screen on here: set the phone to turn its screen off later while you play."


class LanServer:
    """The live server's app served again on a port of this module's own, which a test may stop (the Wi-Fi
    drops) and start again."""

    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.thread = None
        self.start()

    def start(self):
        if self.thread is None:
            self.server = self.server or make_server("127.0.0.1", self.port, self.app, threaded=True)
            self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
            self.thread.start()

    def stop(self):
        if self.thread is not None:
            self.server.shutdown()
            self.server.server_close()
            self.thread.join(timeout=5)
            self.server, self.thread = None, None

    def url(self, host, path):
        return f"http://{host}:{self.port}{path}"


@pytest.fixture(scope="module")
def lan_server(live_server):
    served = LanServer(LIVE_APP[0])
    yield served
    served.stop()


@pytest.fixture(scope="module")
def lan_browser(browser_type, browser_type_launch_args, lan_server):
    """Chromium that reaches the server by name, as phones do."""
    arguments = [*browser_type_launch_args.get("args", []),
                 f"--host-resolver-rules=MAP {PLAIN} 127.0.0.1, MAP {SECURE} 127.0.0.1",
                 f"--unsafely-treat-insecure-origin-as-secure={lan_server.url(SECURE, '')}"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": arguments})
    yield browser
    browser.close()


@pytest.fixture
def phone(lan_browser):
    context = lan_browser.new_context(viewport=PHONE)
    yield context
    context.close()


@pytest.fixture
def watched(live_server):
    """The read-only page of a game of one recorded hand, as a path."""
    taken = [(10, 0), (6, 1), (6, 0), (4, 1), (0, 0), (0, 0)]
    hand = {"number": 1, "taken": [{"hearts": hearts, "marias": marias} for hearts, marias in taken],
            "uncollected": {"hearts": 0, "marias": 0}, "moon": None, "tricks": None}
    [(game_id, _key)] = store_games(LIVE_APP[0], [game_document("Table by the window", SIX, 0, 150, [hand])])
    return f"/games/{game_id}/watch"


def test_over_plain_http_a_silent_video_keeps_the_screen_on_from_the_first_tap(phone, lan_server, watched):
    page = phone.new_page()
    page.goto(lan_server.url(PLAIN, watched))
    switch = page.get_by_role("checkbox", name="Keep the screen on")
    status = page.locator(".awake [aria-live]")

    assert page.evaluate("[isSecureContext, 'wakeLock' in navigator, 'serviceWorker' in navigator]") == [
        False, False, False]
    expect(switch).to_be_checked()
    expect(status).to_have_text(TAP)

    page.get_by_role("heading", name="Table by the window").click()

    expect(status).to_have_text(ON)
    page.wait_for_function("() => { const video = document.querySelector('video.awake-video');"
                           " return video && !video.paused && video.muted && video.currentTime > 0; }")
    # Chromium keeps the screen on for a muted video only while it is on screen and large: it covers the page.
    assert page.evaluate("(() => { const box = document.querySelector('video.awake-video').getBoundingClientRect();"
                         " return [box.left, box.top, box.width, box.height]; })()") == [0, 0, 390, 844]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "awake-over-plain-http.png"), full_page=True)

    switch.uncheck()

    expect(status).to_have_text(OFF)
    assert page.evaluate("document.querySelector('video.awake-video').paused")
    page.reload()
    expect(page.get_by_role("checkbox", name="Keep the screen on")).not_to_be_checked()
    expect(status).to_have_text(OFF)


def test_where_no_video_plays_either_the_page_says_the_screen_cannot_be_kept_on(phone, lan_server, watched):
    phone.route("**/static/awake/**", lambda route: route.abort())
    page = phone.new_page()
    page.goto(lan_server.url(PLAIN, watched))

    page.get_by_role("heading", name="Table by the window").click()

    expect(page.locator(".awake [aria-live]")).to_have_text(CANNOT)


def test_over_https_a_watched_games_last_state_shows_on_a_reload_while_the_wifi_is_down(phone, lan_server, watched):
    page = phone.new_page()
    page.goto(lan_server.url(SECURE, watched))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # installed, and serving this page
    page.reload()  # through the worker, which keeps a copy
    for _look in range(100):
        if page.evaluate("caches.open('scorekeeper-pages').then(cache => cache.match(location.pathname))"
                         ".then(Boolean)"):
            break
        page.wait_for_timeout(100)

    lan_server.stop()
    try:
        page.reload()

        expect(page.get_by_role("heading", name="No connection to the scorekeeper")).to_be_visible()
        expect(page.locator("[data-offline]")).to_contain_text("This is the game as this phone last received it, at")
        expect(page.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible()  # the kept game
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "offline-kept-game.png"), full_page=True)
    finally:
        lan_server.start()

    expect(page.get_by_role("heading", name="No connection to the scorekeeper")).to_have_count(0, timeout=15_000)
    expect(page.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible()
