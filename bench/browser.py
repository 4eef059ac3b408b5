"""The figures from headless Chromium: Save on one phone to the change on another, and the throttled first paint."""

import math
import os
import re
import time
from dataclasses import dataclass

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
LIVE_PATIENCE = 10  # seconds the second page is watched for a change before it counts as never


@dataclass(frozen=True)
class BrowserFigures:
    """Seconds, one figure per round."""

    live_delays: list[float]
    first_paints: list[float]


def browser_figures(port, game, cookie, rounds):
    """Save-to-second-page delays and throttled first paints in headless Chromium, or None without it."""
    if not os.path.exists(CHROMIUM):
        return None
    from playwright.sync_api import TimeoutError, sync_playwright

    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            paints = [first_paint(browser, base, game, cookie) for _round in range(rounds)]
            return BrowserFigures(live_delays(browser, base, game, cookie, rounds, TimeoutError), paints)
        finally:
            browser.close()


def phone_context(browser, base, cookie=None):
    """A phone-sized browser context, a scorer's when given the session cookie."""
    context = browser.new_context(base_url=base, viewport=PHONE, locale="en-US")
    if cookie:
        context.add_cookies([{"name": "session", "value": cookie, "url": base}])
    return context


def first_paint(browser, base, game, cookie):
    """First contentful paint of the table view, in seconds, with the CPU slowed down 4x."""
    context = phone_context(browser, base, cookie)
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        page.goto(f"/games/{game.id}")
        page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
        return page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime") / 1000
    finally:
        context.close()


def live_delays(browser, base, game, cookie, rounds, timeout_error):
    """Seconds from clicking Save on the scorer's hand form to the new hand showing on a /watch page.

    A change not shown within ``LIVE_PATIENCE`` seconds counts as never (infinity).
    """
    scorer_context, watcher_context = phone_context(browser, base, cookie), phone_context(browser, base)
    try:
        scorer, watcher = scorer_context.new_page(), watcher_context.new_page()
        watcher.goto(f"/games/{game.id}/watch")
        delays = []
        for _round in range(rounds):
            scorer.goto(f"/games/{game.id}/hands/new")
            for seat, hearts in enumerate([12, 8, 6]):
                scorer.locator(f"#takings-{seat}-hearts").fill(str(hearts))
            scorer.locator('label[for="takings-3-marias-2"]').click()
            revision = watcher.locator("[data-live]").get_attribute("data-revision")
            start = time.perf_counter()
            scorer.get_by_role("button", name=re.compile(r"^Save hand")).click()
            try:
                watcher.wait_for_function(
                    "revision => document.querySelector('[data-live]').dataset.revision !== revision",
                    arg=revision, timeout=LIVE_PATIENCE * 1000)
                delays.append(time.perf_counter() - start)
            except timeout_error:
                delays.append(math.inf)
            scorer.wait_for_load_state()
        return delays
    finally:
        scorer_context.close()
        watcher_context.close()
