"""The season in the secretary's reach, in headless Chromium on a phone (issue 34): a guest's import waits;
the secretary finds the oldest game of a season by name, leaves it out from its own page, and counts the
waiting import on the club's page; no sideways scroll anywhere."""

import json
from datetime import date, timedelta

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from ..tabletop import SIX, game_document, store_games
from ..test_waiting_imports import FINISHED
from .conftest import LIVE_APP, PHONE
from .test_table_live import SERIOUS

SEASON = "Oakwood Friday"  # a name no other browser test gives a game
FIRST_DAY = date(2026, 6, 5)


def no_sideways_scroll(page):
    """No sideways scroll on a phone, and nothing serious for axe."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url
    assert not [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in SERIOUS], page.url


def test_a_secretary_finds_the_oldest_game_by_name_leaves_it_out_and_counts_a_waiting_import(
        page, secretary_link, screenshot):
    season = [{**game_document(SEASON, SIX, 0, 50, FINISHED), "version": 2,
               "played_on": (FIRST_DAY + timedelta(days=7 * (number // 3))).isoformat()} for number in range(45)]
    oldest = store_games(LIVE_APP[0], season)[0][0]
    page.goto("/games/import")  # a guest's import: it waits
    page.get_by_label("Game files (.json) or a season (.csv)").set_input_files(files=[{
        "name": "made-up.json", "mimeType": "application/json",
        "buffer": json.dumps(game_document("Made up at home", SIX, 0, 50, FINISHED)).encode()}])
    page.get_by_role("button", name="Import the games").click()
    expect(page.get_by_text("It waits for the club's secretary to count it in the season")).to_be_visible()
    expect(page.get_by_text("waiting for the club's secretary to count it in the season")).to_be_visible()

    page.goto(secretary_link)
    page.get_by_label("Game or player").fill("oakwood")
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_text("Page 1 of 3")).to_be_visible()
    no_sideways_scroll(page)
    screenshot("secretary-club-found")
    page.get_by_role("link", name="Older games").click()
    page.get_by_role("link", name="Older games").click()
    expect(page.get_by_text("Page 3 of 3")).to_be_visible()
    page.locator(f'a[href="/games/{oldest}"]').click()

    expect(page.get_by_role("heading", name="This game in the season")).to_be_visible()
    page.get_by_label("Why").fill("A practice evening")
    no_sideways_scroll(page)
    page.locator("#season").screenshot(path=str(screenshot.folder / "secretary-game-season.png"))
    page.get_by_role("button", name="Leave it out of the season").click()
    expect(page.get_by_text("Left out of the season by the club's secretary: A practice evening")).to_be_visible()
    expect(page.get_by_role("button", name="Count it again")).to_be_visible()

    page.goto("/club")
    waiting = page.locator("ul.imports li").first  # the newest import, this guest's (other tests import too)
    expect(waiting).to_contain_text("1 waiting")
    waiting.get_by_role("button", name="Count the waiting game").click()
    expect(page.get_by_text("1 game counts in the season now.")).to_be_visible()
    no_sideways_scroll(page)
    screenshot("secretary-club-after")
    expect(page.get_by_text("Made up at home counted in the season (it was waiting).")).to_be_visible()
    expect(page.get_by_text(f"{SEASON} left out of the season: A practice evening")).to_be_visible()
