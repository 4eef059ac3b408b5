"""What a real table stumbled on (issue 13): errors where the eye is, forms that fire only on Save."""

import re

from playwright.sync_api import expect

from .conftest import TABLET
from .test_game_flow import EIGHT, enter_hand, start_game


def in_view(page, selector):
    """Whether the element is wholly inside the viewport, without scrolling."""
    return page.locator(selector).evaluate(
        "element => { const box = element.getBoundingClientRect();"
        " return box.top >= 0 && box.bottom <= window.innerHeight; }")


def test_enter_in_a_name_moves_to_the_next_seat_instead_of_starting_the_game(page):
    page.goto("/games/new")

    page.get_by_label("Seat 1", exact=True).fill("Ana")
    page.get_by_label("Seat 1", exact=True).press("Enter")

    expect(page.get_by_label("Seat 2", exact=True)).to_be_focused()
    expect(page.locator(".error")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/games/new$"))


def test_enter_in_a_hearts_box_moves_on_and_the_last_box_saves(page):
    start_game(page, EIGHT, target=100, name="Enter keys")
    page.get_by_role("link", name="Record hand 1").click()

    page.locator("#takings-0-hearts").fill("10")
    page.locator("#takings-0-hearts").press("Enter")

    expect(page.locator("#takings-1-hearts")).to_be_focused()
    expect(page.locator("#error-summary")).to_have_count(0)
    enter_hand(page, {0: (10, 1), 1: (10, 1)})
    page.locator("#takings-7-hearts").fill("6")
    page.locator("#takings-7-hearts").press("Enter")  # the last box: Save
    expect(page.locator("p.flash", has_text="Hand 1 recorded.")).to_be_visible()


def test_a_refused_hand_opens_at_a_summary_that_links_to_each_problem(page, screenshot):
    start_game(page, EIGHT, target=100, name="Refused")
    page.get_by_role("link", name="Record hand 1").click()

    enter_hand(page, {0: (20, 1), 5: (6, 1)})
    page.locator("#takings-3-hearts").fill("x")  # not a number
    page.get_by_role("button", name="Save hand 1").click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Nothing was saved.")
    assert in_view(page, "#error-summary")
    screenshot("phone-hand-refused-summary")
    links = summary.get_by_role("link")
    targets = [links.nth(index).get_attribute("href") for index in range(links.count())]
    assert targets == ["#takings-3-hearts"], targets
    expect(summary).to_contain_text("Dee: Enter the hearts as a whole number")
    links.first.click()
    expect(page.locator("#takings-3-hearts")).to_be_focused()
    expect(page.locator("#takings-3-hearts")).to_be_in_viewport()
    expect(page.locator("#takings-3-hearts")).to_have_value("x")  # everything typed is still there
    expect(page.locator("#takings-0-hearts")).to_have_value("20")


def test_a_refused_new_game_lists_every_name_problem_at_the_top_on_a_tablet(page, screenshot):
    page.set_viewport_size(TABLET)
    page.goto("/games/new")

    page.get_by_label("Seat 1", exact=True).fill("Ana")
    page.get_by_label("Seat 2", exact=True).fill("ana")
    page.get_by_role("button", name="Start the game").last.click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary.get_by_role("link")).not_to_have_count(0)
    expect(summary).to_contain_text("Ana is already at the table (seat 1)")
    assert in_view(page, "#error-summary")
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value("Ana")
    screenshot("tablet-new-game-refused-summary")


def test_a_hand_typed_but_not_saved_comes_back_after_a_reload_and_goes_once_saved(page, screenshot):
    start_game(page, EIGHT, target=100, name="Drafts")
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (10, 1), 1: (10, 1)})

    page.reload()

    expect(page.locator("#draft-notice")).to_be_visible()
    expect(page.locator("#takings-0-hearts")).to_have_value("10")
    expect(page.locator("#takings-1-marias-1")).to_be_checked()
    expect(page.locator("#tally")).to_have_text("Hearts 20 of 26 · Black Marias 2 of 2")
    screenshot("phone-hand-draft-restored")
    page.locator("#takings-7-hearts").fill("6")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("p.flash", has_text="Hand 1 recorded.")).to_be_visible()
    page.get_by_role("link", name="Record hand 2").click()
    expect(page.locator("#draft-notice")).to_be_hidden()
    expect(page.locator("#takings-0-hearts")).to_have_value("")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorekeeper draft'))") == []


def test_a_save_without_network_says_so_and_keeps_everything(page, context):
    start_game(page, EIGHT, target=100, name="Offline")
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (10, 1), 1: (10, 1), 7: (6, 0)})

    context.set_offline(True)
    page.get_by_role("button", name="Save hand 1").click()

    expect(page.locator("#draft-offline")).to_be_visible()
    expect(page.locator("#takings-7-hearts")).to_have_value("6")
    context.set_offline(False)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("p.flash", has_text="Hand 1 recorded.")).to_be_visible()


def test_a_card_typed_in_portuguese_is_echoed_with_its_suit_symbol(page, screenshot):
    nine = EIGHT + ["Ivo"]
    start_game(page, nine, target=100, name="Cartas")
    page.get_by_role("link", name="Play hand 1 trick by trick").click()
    page.get_by_role("link", name="Português").click()

    slots = page.locator("[data-picker-slot]")
    slots.nth(0).fill("9c")  # copas
    slots.nth(1).fill("de")  # dama de espadas
    slots.nth(2).fill("9h")  # no Portuguese suit is H

    echoes = page.locator("output.read")
    expect(echoes.nth(0)).to_have_text("9♥")
    expect(echoes.nth(1)).to_have_text("Q♠")  # shown as printed on the card, whatever letter typed it
    expect(echoes.nth(2)).to_have_text("?")
    expect(echoes.nth(2)).to_have_class("read unread")
    screenshot("phone-trick-portuguese-letters")


def test_the_history_and_the_menu_show_that_they_scroll_on_a_narrow_phone(page):
    page.set_viewport_size({"width": 360, "height": 780})
    start_game(page, EIGHT + ["Ivo", "Jun", "Kai"], target=150, name="Narrow")
    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (10, 1), 5: (10, 1), 10: (6, 0)})
    page.get_by_role("button", name="Save hand 1").click()
    page.get_by_role("link", name="Português").click()

    history = page.locator("table.hands >> xpath=..")
    assert history.evaluate("element => element.scrollWidth > element.clientWidth")
    assert "radial-gradient" in history.evaluate("element => getComputedStyle(element).backgroundImage")
    nav = page.locator("header.site nav")  # the menu wraps rather than hiding links off screen (issue 24)
    assert nav.evaluate("element => element.scrollWidth <= element.clientWidth")
    assert nav.evaluate("element => element.getBoundingClientRect().height") < 100  # two lines at most
    hand_column = page.locator("table.hands tbody th").first
    x_before = hand_column.evaluate("element => element.getBoundingClientRect().left")
    page.locator("table.hands >> xpath=..").evaluate("element => { element.scrollLeft = 200; }")
    assert hand_column.evaluate("element => element.getBoundingClientRect().left") == x_before  # stays in view


ELEVEN_PLAYERS = EIGHT + ["Ivo", "Jun", "Kai"]
RESERVED_FIRST = ["10♠", "10♠", "A♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "J♦"]  # the 10♠ cancel (R9)
WON_SECOND = ["K♣", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "J♣"]  # K♣ wins, and the kitty


def tap(page, selector, taps):
    page.locator(selector).first.click()
    return taps + 1


def test_a_trick_costs_one_tap_a_card_and_the_next_one_stays_in_view_at_phone_size(page, screenshot):
    start_game(page, ELEVEN_PLAYERS, target=150, name="One tap")
    page.get_by_role("link", name="Play hand 1 trick by trick").click()

    taps = 0
    for card in RESERVED_FIRST:
        taps = tap(page, f'[data-picker] [data-card="{card}"]', taps)
    expect(page.get_by_role("button", name="Settle trick 1")).to_be_focused()  # the trick is whole
    taps = tap(page, "button.primary.big", taps)

    trick = taps
    expect(page.get_by_role("heading", name="Trick 2 of 9: Caio leads")).to_be_in_viewport()
    expect(page.locator("#next-trick [role=status]")).to_contain_text("Trick 1 entered: what it decided is above.")
    expect(page.locator("#last-trick")).to_contain_text("Nobody wins: the trick is reserved (R9).")
    for control in ['[data-card="A♠"]', '[data-card="2♣"]', "button.backspace"]:
        expect(page.locator(f"[data-picker] {control}").first).to_be_in_viewport()
    expect(page.get_by_role("button", name="Settle trick 2")).to_be_in_viewport()
    expect(page.locator('[data-card="10♠"]')).to_be_disabled()  # both copies played (R2)
    expect(page.locator('[data-card="A♦"]')).to_have_attribute("data-left", "1")
    screenshot("phone-trick-2-one-tap-grid")

    for card in WON_SECOND:
        page.locator(f'[data-picker] [data-card="{card}"]').first.click()
    page.get_by_role("button", name="Settle trick 2").click()
    taps = 0
    for card in ["2♥", "3♥", "A♠", "K♦", "Q♦"]:
        taps = tap(page, f'[data-picker] [data-card="{card}"]', taps)
    taps = tap(page, "text=Save the kitty", taps)

    expect(page.get_by_role("heading", name="Trick 3 of 9: Caio leads")).to_be_visible()
    assert trick <= len(ELEVEN_PLAYERS) + 1 and taps <= 5 + 1
    print(f"tap budget: a trick of 11 players took {trick} taps (at most 12), a kitty of 5 took {taps} (at most 6)")


DESKTOP = {"width": 1024, "height": 768}


def test_on_a_1024_screen_in_portuguese_a_refused_hand_and_the_card_grid_are_in_view(page, screenshot):
    page.set_viewport_size(DESKTOP)
    start_game(page, ELEVEN_PLAYERS, target=150, name="Mesa grande")
    page.get_by_role("link", name="Português").click()
    page.get_by_role("link", name="Anotar a mão 1").click()

    page.locator("#takings-2-hearts").fill("x")
    page.locator("#takings-2-hearts").press("Enter")  # moves on: nothing sent
    expect(page.locator("#takings-3-hearts")).to_be_focused()
    page.get_by_role("button", name="Salvar a mão 1").click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Nada foi salvo")
    expect(summary).to_be_in_viewport()
    screenshot("desktop-pt-hand-refused")

    page.goto(page.url.replace("/hands/new", "/play"))
    for card in RESERVED_FIRST:
        page.locator(f'[data-picker] [data-card="{card}"]').first.click()
    expect(page.locator("output.read").first).to_have_text("10♠")
    page.locator("button.primary.big").click()
    expect(page.locator("#next-trick h2")).to_be_in_viewport()
    expect(page.locator("#next-trick button.primary.big")).to_be_in_viewport()
    screenshot("desktop-pt-trick-2")
