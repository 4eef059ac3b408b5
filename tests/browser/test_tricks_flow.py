"""Settling tricks and playing trick by trick in headless Chromium, with the card picker."""

from playwright.sync_api import expect

from .test_game_flow import start_game

NINE = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil", "Hana", "Ivo"]


def pick(page, *cards):
    """Tap each card on the picker's grid: one tap a card."""
    for card in cards:
        page.locator(f'[data-picker] [data-card="{card}"]').first.click()


def test_settle_answers_the_seeds_example_as_the_cards_are_tapped(page, screenshot):
    page.goto("/")
    page.get_by_role("link", name="Settle a trick").click()

    pick(page, "10♠", "9♥", "9♥", "10♠")

    expect(page.locator("#cards")).to_have_value("10♠ 9♥ 9♥ 10♠")
    expect(page.locator("#answer .verdict-line")).to_have_text("Nobody wins: the trick is reserved (R9).")
    expect(page.locator("#answer li.cancelled")).to_have_count(4)
    screenshot("phone-settle-reserved")
    page.get_by_role("button", name="Remove the last card").click()
    pick(page, "K♠")
    expect(page.locator("#answer .verdict-line")).to_have_text("K♠ wins the trick (card 4).")


def test_settle_works_without_javascript(browser, base_url):
    context = browser.new_context(java_script_enabled=False, base_url=base_url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto("/settle")

    expect(page.locator("[data-picker]")).to_be_hidden()
    page.get_by_label("Cards in play order").fill("10s 10s 9h 9h ks")
    page.get_by_role("button", name="Settle it").click()

    expect(page.locator(".verdict-line")).to_have_text("K♠ wins the trick (card 5).")
    context.close()


def test_a_trick_is_entered_with_the_picker_and_the_winner_leads_next(page, screenshot):
    start_game(page, NINE, target=150, name="Tricks game")
    page.get_by_role("link", name="Play hand 1 trick by trick").click()
    expect(page.get_by_role("heading", name="Trick 1 of 11: Caio leads")).to_be_visible()

    pick(page, "10♠", "10♠", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦")
    page.get_by_role("button", name="Settle trick 1").click()

    expect(page.locator(".last-trick .verdict-line")).to_have_text("Nobody wins: the trick is reserved (R9).")
    expect(page.get_by_role("heading", name="Trick 2 of 11: Caio leads")).to_be_visible()
    expect(page.locator(".waiting")).to_contain_text("The kitty (5 cards face down) waits with 9 reserved cards")

    pick(page, "K♥", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣")
    page.get_by_role("button", name="Settle trick 2").click()
    expect(page.get_by_role("alert")).to_contain_text("Hearts are not broken yet")
    page.get_by_label("The lead is right").check()
    page.get_by_role("button", name="Settle trick 2").click()

    expect(page.locator(".last-trick .verdict-line")).to_have_text("Caio wins the trick with K♥.")
    expect(page.get_by_role("heading", name="Caio takes the kitty")).to_be_visible()
    pick(page, "2♥", "3♥", "A♦", "K♦", "Q♦")
    page.get_by_role("button", name="Save the kitty").click()
    expect(page.get_by_role("heading", name="Trick 3 of 11: Caio leads")).to_be_visible()
    expect(page.locator("table.scoreboard")).to_contain_text("Caio leads kitty 3 0")
    screenshot("phone-play-trick-3")
