"""The printable score sheet in headless Chromium: fine on a phone, one A4 page on paper (issue 15)."""

import json
import pathlib
import random
import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorekeeper import rules
from scorekeeper.db.models import LARGEST_TARGET

from ..tabletop import HandMix, game_document, random_hand
from .conftest import PHONE
from .test_table_live import SERIOUS

# Eleven players, some with long names: the widest sheet a table can make (R1).
CLUB = ["Ana Beatriz", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil", "Hana", "Ivo", "Nur Aisyah", "Øyvind"]
HANDS = 30
A4_CONTENT = {"width": 718, "height": 1039}  # 190 x 275 mm at 96 px an inch: A4 less the margins of sheet.css
ONE_PAGE = re.compile(rb"/Type\s*/Page[^s]")
MIX = HandMix(moon=0.08, reserved=0.12, played=0)


def thirty_hand_game():
    """A game of eleven that ends on its thirtieth hand: the target is the highest total after it."""
    rng = random.Random(15)
    records, hands = [], []
    for number in range(1, HANDS + 1):
        record, entry = random_hand(rng, len(CLUB), number, 3, MIX)
        records.append(record)
        hands.append(entry)
    before = rules.score_game(len(CLUB), 3, LARGEST_TARGET, records[:-1])
    after = rules.score_game(len(CLUB), 3, LARGEST_TARGET, records)
    target = max(after.totals)
    assert max(before.totals) < target
    return game_document("Thursday club night", CLUB, 3, target, hands)


def import_game(page, document):
    """Import ``document`` through the import page; return the game's table URL."""
    page.goto("/games/import")
    page.get_by_label("Game files (.json) or a season (.csv)").set_input_files(
        files=[{"name": "club.json", "mimeType": "application/json", "buffer": json.dumps(document).encode()}])
    page.get_by_role("button", name="Import the game").click()
    expect(page.locator(".flash.success")).to_contain_text("Game imported")
    return page.url


def test_the_sheet_of_thirty_hands_of_eleven_reads_on_a_phone_and_prints_on_one_a4_page(browser, base_url, page,
                                                                                          screenshot):
    game = import_game(page, thirty_hand_game())

    page.goto(game + "/hands")
    page.get_by_role("link", name="Printable score sheet").click()
    expect(page.get_by_role("heading", name="Thursday club night")).to_be_visible()
    expect(page.locator("table.sheet tbody tr")).to_have_count(HANDS)
    expect(page.locator("table.sheet .dealer")).to_have_count(HANDS)
    expect(page.locator(".sheet-foot .result")).to_contain_text("Game over after hand 30")
    expect(page.get_by_role("button", name="Print the score sheet")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the table scrolls in its box
    assert not [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in SERIOUS]
    screenshot("phone-sheet")

    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.get_by_role("button", name="Print the score sheet")).to_be_hidden()
    pdf = page.pdf(format="A4")

    assert len(ONE_PAGE.findall(pdf)) == 1

    paper = browser.new_context(base_url=base_url, viewport=A4_CONTENT, device_scale_factor=2)
    preview = paper.new_page()
    preview.emulate_media(media="print")
    preview.goto(page.url)
    preview.screenshot(path=str(screenshot.folder / "print-sheet-30-hands-11-players.png"), full_page=True)
    height = preview.evaluate("document.documentElement.scrollHeight")
    paper.close()

    assert height <= A4_CONTENT["height"], f"the printed sheet is {height}px high, more than one page"


def test_the_spreadsheet_link_downloads_the_csv(page):
    game = import_game(page, thirty_hand_game())
    page.goto(game + "/sheet")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the scores as a spreadsheet (CSV)").click()

    lines = pathlib.Path(download.value.path()).read_text(encoding="utf-8-sig").split("\n")
    assert download.value.suggested_filename == f"cancellation-hearts-game-{game.rsplit('/', 1)[1]}.csv"
    assert lines[0].strip() == "Game,Thursday club night" and lines[1].startswith("Date,")  # the game first
    header = next(number for number, line in enumerate(lines) if line.startswith("Hand,"))
    assert lines[header].strip() == ",".join(["Hand", *CLUB])
    assert len([line for line in lines[header:] if line.strip()]) == 1 + HANDS + 1
