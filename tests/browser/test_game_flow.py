"""A whole game played in headless Chromium at phone size, as a scorer at the table would."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import TABLET

pytestmark = pytest.mark.main_flow  # CI's PostgreSQL pass runs these browser tests, and no other

EIGHT = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil", "Hana"]


def start_game(page, names, target, name):
    """From the games list, set up a game and arrive at its table view."""
    page.goto("/")
    page.get_by_role("link", name="New game").first.click()
    page.get_by_label("Name of the game (optional)").fill(name)
    for _extra in range(len(names) - 6):
        page.get_by_role("button", name="Add a player").click()
    for seat, player in enumerate(names):
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(player)
    page.locator('input[name="first_dealer"]').nth(1).check()
    page.get_by_label("Target score").fill(str(target))
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()


def enter_hand(page, taken, moon=None):
    """Fill in the hand form: ``taken`` maps a seat to (hearts, marias); others took nothing.

    With a ``moon`` choice, save once first: the server says who shot the moon (R15) and asks how it scores.
    """
    for seat, (hearts, marias) in taken.items():
        page.locator(f"#takings-{seat}-hearts").fill(str(hearts))
        if marias:
            page.locator(f'label[for="takings-{seat}-marias-{marias}"]').click()
    if moon:
        page.locator("form.hand-form button.primary").click()
        expect(page.locator("#moon")).to_be_visible()
        page.get_by_label(moon).check()


def test_eight_players_play_a_whole_game_to_game_over_on_a_phone(page, screenshot):
    start_game(page, EIGHT, target=60, name="Phone game")

    expect(page.locator("dl.facts")).to_contain_text("Bo")  # Bo deals hand 1
    expect(page.locator("dl.facts")).to_contain_text("Caio")  # Caio leads
    expect(page.locator("dl.facts")).to_contain_text("13 each, no kitty")
    screenshot("phone-table-hand-1")

    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (10, 0), 2: (6, 1), 4: (6, 0), 7: (4, 1)})
    expect(page.locator("#tally")).to_have_text("Hearts 26 of 26 · Black Marias 2 of 2")
    screenshot("phone-hand-form")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("p.flash", has_text="Hand 1 recorded.")).to_be_visible()
    expect(page.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible()
    expect(page.locator("dl.facts")).to_contain_text("to the right")

    # Hand 2: Dee shoots the moon and adds 26 to everyone else.
    page.get_by_role("link", name="Record hand 2").click()
    expect(page.locator("#moon")).to_be_hidden()
    enter_hand(page, {3: (26, 2)})
    page.get_by_role("button", name="Save hand 2").click()  # the server finds the shooter and asks (R15)
    expect(page.get_by_role("alert")).to_contain_text("Dee took all 26 hearts and both Black Marias")
    expect(page.locator("#moon legend")).to_have_text("Dee shot the moon: how does it score? (R15)")
    page.get_by_label("Add 26 to everyone else").check()
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.get_by_role("heading", name="Hand 3", exact=True)).to_be_visible()

    # Hand 3: a reserved last trick leaves two hearts with nobody; Caio passes 60.
    page.get_by_role("link", name="Record hand 3").click()
    enter_hand(page, {2: (12, 1), 5: (12, 1)})
    page.get_by_role("button", name="Save hand 3").click()
    expect(page.get_by_role("alert")).to_contain_text("If the last trick was reserved")
    expect(page.locator("#takings-2-hearts")).to_have_value("12")
    page.get_by_label(re.compile("The last trick was reserved")).check()
    page.get_by_role("button", name="Save hand 3").click()

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".verdict .winner")).to_have_text("Dee wins with 0 points.")
    expect(page.get_by_role("link", name="Record hand 4")).to_have_count(0)
    screenshot("phone-table-game-over")

    page.get_by_role("link", name="Games", exact=True).click()
    expect(page.get_by_role("link", name=re.compile("Phone game"))).to_contain_text("Over: Dee won with 0")


def test_rest_button_gives_the_last_player_the_remaining_hearts(page):
    start_game(page, EIGHT[:6], target=150, name="Rest game")
    page.get_by_role("link", name="Record hand 1").click()

    enter_hand(page, {0: (10, 1), 1: (9, 1), 2: (3, 0)})
    page.get_by_role("button", name="Give Fay the rest of the hearts").click()

    expect(page.locator("#takings-5-hearts")).to_have_value("4")
    expect(page.locator("#tally")).to_have_text("Hearts 26 of 26 · Black Marias 2 of 2")


def test_correcting_a_hand_on_a_tablet_reopens_a_finished_game(page, screenshot):
    page.set_viewport_size(TABLET)
    start_game(page, EIGHT, target=26, name="Tablet game")
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (26, 2)}, moon="Add 26 to everyone else")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()

    page.get_by_role("link", name="Correct hand 1").click()
    enter_hand(page, {0: (10, 1), 1: (10, 0), 2: (6, 1)})
    page.get_by_role("button", name="Save hand 1").click()

    expect(page.get_by_role("status")).to_have_text("Hand 1 corrected.")
    expect(page.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible()
    screenshot("tablet-table-after-correction")


def test_a_player_named_like_markup_never_runs_script_on_any_page(page):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    names = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "Caio", "Dee", "Eli", "Fay"]
    start_game(page, names, target=150, name="<b onmouseover=alert(3)>Night</b>")
    game = page.url
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (26, 2)}, moon="Subtract 26 from <img src=x onerror=alert(1)>")
    page.get_by_role("button", name="Save hand 1").click()

    for url in ["/", game, game + "/watch", game + "/display", game + "/hands/1", game + "/hands/1/remove",
                game + "/play", f"/settle?game={game.rsplit('/', 1)[1]}&leader=1&cards=2c+3c"]:
        page.goto(url)
        page.mouse.move(200, 200)

    assert dialogs == []
    expect(page.locator(".trick-cards .who").first).to_have_text("<script>alert(2)</script>")
