"""The club's memory in headless Chromium (issues 15 and 23): the usual table in one tap, the season's table,
a person's page, a merge made and undone by the club's secretary, the club's trail, a guest's read-only page."""

import json
import random
import re

from playwright.sync_api import expect

from ..tabletop import random_game_document
from .conftest import TABLET

FRIDAY = ["Wren", "Yara", "Omar", "Pita", "Quinn", "Rhea"]
HAND = {0: (10, 1), 1: (6, 1), 2: (4, 0), 3: (3, 0), 4: (2, 0), 5: (1, 0)}  # 26 hearts, 2 Black Marias


def start_game(page, names=None, name="Friday"):
    """Start a game of ``names`` typed in (or, with None, the table New game already shows)."""
    if names is not None:
        for seat, player in enumerate(names):
            page.get_by_label(f"Seat {seat + 1}", exact=True).fill(player)
    page.get_by_label("Name of the game (optional)").fill(name)
    page.locator('input[name="first_dealer"]').first.check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()


def record_hand(page, number):
    page.get_by_role("link", name=f"Record hand {number}").click()
    for seat, (hearts, marias) in HAND.items():
        page.locator(f"#takings-{seat}-hearts").fill(str(hearts))
        if marias:
            page.locator(f'label[for="takings-{seat}-marias-{marias}"]').click()
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("heading", name=f"Hand {number + 1}", exact=True)).to_be_visible()


def test_the_usual_table_in_one_tap_then_the_season_and_a_persons_page(page, screenshot):
    page.goto("/games/new")
    start_game(page, FRIDAY, "First Friday")
    record_hand(page, 1)

    # Next Friday the same table sits down with one tap, one name written another way.
    page.goto("/games/new")
    page.get_by_role("button", name=re.compile("Seat this table again: Wren, Yara")).click()
    expect(page.get_by_label("Seat 6", exact=True)).to_have_value("Rhea")
    page.get_by_label("Seat 1", exact=True).fill("wren ")  # typed another way: still Wren
    screenshot("phone-new-game-quick-picks")
    start_game(page, name="Second Friday")
    record_hand(page, 1)
    record_hand(page, 2)

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Players").click()
    expect(page.get_by_role("heading", name="Players", exact=True)).to_be_visible()
    row = page.locator("table.season tbody tr", has_text="wren")
    expect(row.locator("td").nth(0)).to_have_text(re.compile(r"^-?[0-9]+\.[0-9]\?$"))  # the rating, provisional
    expect(row.locator("td").nth(1)).to_have_text("2")  # games
    expect(row.locator("td").nth(5)).to_have_text("3")  # hands, after games, finished, wins and win rate
    expect(row.locator("td").nth(6)).to_have_text("69")  # points: 23 a hand
    page.get_by_role("link", name="Points a hand").click()
    expect(page.locator("th[aria-sort]")).to_contain_text("Points a hand")
    screenshot("phone-season-table")

    row.get_by_role("link").click()
    expect(page.get_by_role("heading", name="wren")).to_be_visible()
    expect(page.locator("table.person-games")).to_contain_text("Second Friday")
    expect(page.locator("svg.person-chart rect")).to_have_count(2)
    screenshot("phone-person")


def test_two_names_of_one_player_are_merged_and_the_merge_undone(page, secretary_link, screenshot):
    page.goto(secretary_link)
    expect(page.locator(".flash")).to_contain_text("This device is now a secretary of the club")
    page.get_by_label("This device's name").fill("Club phone")
    page.get_by_role("button", name="Save the name").click()
    expect(page.locator(".flash")).to_contain_text("This device is called Club phone")
    page.goto("/games/new")
    start_game(page, ["Sol", "Tove", "Uma", "Vic", "Xan", "Zia"], "Sol's night")
    record_hand(page, 1)
    page.goto("/games/new")
    start_game(page, ["Zia", "Ines", "Juno", "Kit", "Lev", "Mo"], "Zia's night")
    page.goto("/players")
    page.locator("table.season tbody th a", has_text=re.compile("^Sol$")).click()

    page.get_by_label("Who else is Sol?").select_option(label="Ines")
    page.get_by_role("button", name="Merge into Sol").click()
    expect(page.locator(".flash")).to_contain_text("Ines merged into Sol")
    expect(page.locator("table.person-games")).to_contain_text("Zia's night")
    screenshot("phone-person-merged")
    page.get_by_role("button", name="Undo: Ines is someone else").click()

    expect(page.locator(".flash")).to_contain_text("Ines is a person of their own again")
    expect(page.locator("table.person-games")).not_to_contain_text("Zia's night")
    page.goto("/club")
    expect(page.locator("ol.change-list")).to_contain_text("Ines merged into Sol.")
    expect(page.locator("ol.change-list")).to_contain_text("from Club phone")
    screenshot("phone-club-trail")


def test_a_guest_sees_a_persons_page_read_only(page, screenshot):
    page.goto("/games/new")  # a context of its own: no secretary's pass
    start_game(page, ["Ona", "Pia", "Rui", "Sam", "Teo", "Una"], "Guest's night")
    page.goto("/players")
    page.locator("table.season tbody th a", has_text=re.compile("^Ona$")).click()

    expect(page.get_by_text("Only the club's secretary can rename, merge and unmerge people")).to_be_visible()
    expect(page.get_by_role("button", name="Rename")).to_have_count(0)
    screenshot("phone-person-guest")


def test_the_players_pages_read_in_portuguese_without_scrolling_sideways(page, screenshot):
    page.goto("/games/new")
    start_game(page, ["Joaquim", "Bia", "Cauã", "Duda", "Enzo", "Flávia"], "Sexta-feira")
    record_hand(page, 1)

    page.goto("/language/pt?next=/players")
    expect(page.get_by_role("heading", name="Jogadores", exact=True)).to_be_visible()
    page.locator("table.season tbody th a", has_text="Joaquim").click()
    expect(page.locator("dl.person-facts")).to_contain_text("Mãos")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    screenshot("phone-person-pt")

    assert overflow == 0, "the person's page scrolls sideways on a phone"


def test_the_season_table_and_a_persons_page_on_a_tablet(browser, base_url, screenshot):
    context = browser.new_context(viewport=TABLET, base_url=base_url)
    tablet = context.new_page()
    try:
        tablet.goto("/games/new")
        start_game(tablet, ["Ada", "Bea", "Cy", "Dov", "Eve", "Fin"], "Tablet night")
        record_hand(tablet, 1)
        tablet.goto("/players?sort=-points_per_hand")
        expect(tablet.locator("table.season")).to_be_visible()
        overflow = tablet.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        tablet.screenshot(path=str(screenshot.folder / "tablet-season-table.png"), full_page=True)
        tablet.locator("table.season tbody th a").first.click()
        expect(tablet.locator("dl.person-facts")).to_be_visible()
        tablet.screenshot(path=str(screenshot.folder / "tablet-person.png"), full_page=True)
    finally:
        context.close()

    assert overflow == 0, "the page scrolls sideways on a tablet"


def import_games(page, documents):
    """Import game documents through the import form, as a club secretary would, one by one."""
    page.goto("/games/import")
    token = page.locator('input[name="csrf_token"]').first.input_value()
    for document in documents:
        response = page.request.post("/games/import", multipart={
            "csrf_token": token,
            "document": {"name": "game.json", "mimeType": "application/json", "buffer": json.dumps(document).encode()},
        }, max_redirects=0)
        assert response.status == 302, response.text()
    page.goto("/")  # the "Game imported" messages are read


def test_a_clubs_season_reads_well_on_a_phone(page, screenshot, secretary_link):
    """Also takes the README's pictures (screenshots/readme-*.png, copied to docs/images/ by hand)."""
    page.goto(secretary_link)  # the secretary's imports count at once (a guest's wait)
    chance = random.Random(2026)
    documents = [random_game_document(chance, f"Friday {number}", 30, 40) for number in range(1, 13)]
    import_games(page, documents)

    page.goto("/players?min_games=4")
    expect(page.locator("table.season tbody tr").first).to_be_visible()
    games = [int(count) for count in page.locator("table.season tbody tr td:nth-of-type(2)").all_inner_texts()]
    page.locator("main").screenshot(path=str(screenshot.folder / "readme-season-table.png"))
    page.locator("table.season tbody th a").first.click()
    expect(page.locator("svg.person-chart rect").first).to_be_visible()
    page.locator("main").screenshot(path=str(screenshot.folder / "readme-person.png"))

    assert games and all(count >= 4 for count in games)  # the filter: at least 4 games
