"""A game under every house rule, with a player who joins and one who leaves, in headless Chromium (issue 14)."""

import json
import re

from playwright.sync_api import expect

from .conftest import TABLET

SEVEN = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil"]


def start_game_with_house_rules(page):
    page.goto("/games/new")
    page.get_by_label("Name of the game (optional)").fill("House night")
    page.get_by_role("button", name="Add a player").click()
    for seat, player in enumerate(SEVEN):
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(player)
    page.locator("summary", has_text="House rules (optional)").click()
    page.get_by_label("52 points: the whole two-deck hand").check()
    page.get_by_label("Always subtract from the shooter").check()
    page.get_by_label("left, right, across, hold", exact=True).check()
    page.locator('label[for="rules-cards_passed-1"]').click()  # 2 cards
    page.get_by_label(re.compile("Each J♦ taken scores -10")).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()


def enter_hand(page, taken):
    """``taken`` maps a place in the hand's seating to (hearts, Black Marias, J♦)."""
    for seat, (hearts, marias, jacks) in taken.items():
        page.locator(f"#takings-{seat}-hearts").fill(str(hearts))
        if marias:
            page.locator(f'label[for="takings-{seat}-marias-{marias}"]').click()
        if jacks:
            page.locator(f'label[for="takings-{seat}-jacks-{jacks}"]').click()


def test_every_house_rule_a_join_and_a_leave_and_the_export_reimports_to_the_same_totals(page, screenshot):
    start_game_with_house_rules(page)
    expect(page.locator("dl.facts")).to_contain_text("Pass 2 cards")
    expect(page.get_by_role("link", name=re.compile("House rules: a moon is worth 52"))).to_be_visible()
    screenshot("phone-house-rules-table")

    # Hand 1: the J♦ are asked for, and both must be accounted for.
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (10, 1, 1), 2: (10, 1, 0), 4: (6, 0, 0)})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".error-summary, [role=alert]").first).to_contain_text("J♦ to 1 of 2")
    page.locator('label[for="takings-4-jacks-1"]').click()
    screenshot("phone-house-rules-hand-form")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible()

    # Zé joins before Caio at the highest total; Bo leaves.
    page.get_by_role("link", name="Players and house rules").click()
    page.get_by_label("Name", exact=True).fill("Zé")
    page.get_by_label("Sits").select_option(label="before Caio")
    screenshot("phone-seating")
    page.get_by_role("button", name="Seat the new player").click()
    expect(page.get_by_role("status")).to_contain_text("Zé joins before hand 2 with 23 points.")
    page.get_by_role("link", name="Players and house rules").click()
    page.get_by_role("button", name="Bo leaves").click()
    page.get_by_role("button", name="Yes, Bo leaves").click()  # leaving asks first
    expect(page.locator(".scoreboard")).to_contain_text("left after hand 1")
    # Ana dealt hand 1 and stays: the deal passes to the next player clockwise in the new seating (R4).
    expect(page.locator("dl.facts div").first).to_contain_text("Zé")

    # Hand 2 at the new seating: Dee shoots the moon; the house rule subtracts 52, the J♦ still score.
    page.get_by_role("link", name="Record hand 2").click()
    expect(page.locator("ol.takings > li").nth(1).locator("legend").first).to_have_text("Zé")
    enter_hand(page, {3: (26, 2, 0), 0: (0, 0, 2)})
    expect(page.locator("#moon")).to_contain_text("This game's house rule: the shooter subtracts 52.")
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.get_by_role("heading", name="Hand 3", exact=True)).to_be_visible()

    # Hand 3 is an across hand at seven players: held, and the table view says so.
    expect(page.locator("dl.facts")).to_contain_text("an across hand is held with an odd number of players")
    screenshot("phone-house-rules-after-seat-changes")

    page.get_by_role("link", name="Rules", exact=True).last.click()
    expect(page.locator("#r15")).to_contain_text("This game's house rule: a moon is worth 52")

    game = page.url.split("/rules")[0]
    exported = page.request.get(game + "/export.json").json()
    page.goto("/games/import")
    page.set_input_files("#document", files=[{"name": "house.json", "mimeType": "application/json",
                                              "buffer": json.dumps(exported).encode()}])
    page.get_by_role("button", name="Import the game").click()
    expect(page.get_by_role("heading", name="Hand 3", exact=True)).to_be_visible()
    again = page.request.get(page.url + "/export.json").json()

    assert again["totals"] == exported["totals"]
    assert exported["totals"] == {"Ana": -7, "Bo": 0, "Caio": 23, "Dee": -52, "Eli": -4, "Fay": 0, "Gil": 0, "Zé": 23}
    assert exported["left_after"] == {"Bo": 1}
    assert again["seat_changes"] == exported["seat_changes"]


def test_the_seating_page_on_a_tablet_lists_the_table_and_the_join_form(page, screenshot):
    page.set_viewport_size(TABLET)
    start_game_with_house_rules(page)
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (26, 2, 2)})
    page.get_by_role("button", name="Save hand 1").click()

    page.get_by_role("link", name="Players and house rules").click()

    expect(page.get_by_role("heading", name="At the table for hand 2, clockwise")).to_be_visible()
    expect(page.get_by_role("button", name="Gil leaves")).to_be_visible()
    screenshot("tablet-seating")
