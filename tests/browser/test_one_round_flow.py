"""On a phone: a refused form lists every problem at once, and leaving the table asks first, in headless Chromium."""

from playwright.sync_api import expect

SEVEN = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil"]


def test_a_new_game_lists_a_missing_name_no_dealer_and_a_target_of_0_together(page, screenshot):
    page.goto("/games/new")
    for seat, player in enumerate(["Ana", "Bo", "", "Dee", "Eli", "Fay"]):
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(player)
    page.get_by_label("Target score").fill("0")
    page.get_by_role("button", name="Start the game").last.click()

    summary = page.locator(".error-summary")
    expect(summary.locator("li")).to_have_text(["Enter a name for seat 3, or remove the seat.",
                                                "Choose who deals first.",
                                                "The target is a whole number of points, 1 or more."])
    expect(page.locator("#seat-2-error")).to_be_visible()
    expect(page.locator("#target-error")).to_be_visible()
    expect(page.get_by_label("Target score")).to_have_value("0")
    screenshot("phone-new-game-every-problem")


def test_leaving_asks_first_and_yes_sees_the_player_off(page, screenshot):
    page.goto("/games/new")
    page.get_by_role("button", name="Add a player").click()
    for seat, player in enumerate(SEVEN):
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(player)
    page.get_by_role("button", name="Start the game").last.click()
    page.get_by_role("link", name="Record hand 1").click()
    page.locator("#takings-0-hearts").fill("26")
    page.locator('label[for="takings-1-marias-2"]').click()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible()

    page.get_by_role("link", name="Players and house rules").click()
    page.get_by_role("button", name="Bo leaves").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Does Bo leave the table?")
    expect(page.locator("main")).to_contain_text("left after hand 1")
    screenshot("phone-leave-confirmation")
    page.get_by_role("link", name="No, keep Bo at the table").click()
    expect(page.get_by_role("button", name="Bo leaves")).to_be_visible()

    page.get_by_role("button", name="Bo leaves").click()
    page.get_by_role("button", name="Yes, Bo leaves").click()
    expect(page.get_by_role("status")).to_contain_text("Bo leaves after hand 1 and keeps 26 points.")
    expect(page.locator(".scoreboard")).to_contain_text("left after hand 1")
