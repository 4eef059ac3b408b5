"""The trail in the browser: undo a removal once, never twice; an undo can be undone in turn, and one that
takes a hand out asks first, showing its figures (R17)."""

from playwright.sync_api import expect

from .test_game_flow import EIGHT, enter_hand, start_game

SPREAD = {0: (10, 0), 2: (6, 1), 4: (6, 0), 7: (4, 1)}
OTHER = {1: (12, 1), 3: (8, 0), 5: (6, 1)}


def flashed(page, text):
    """The message shown after a change, not the trail entry of the same words."""
    return page.locator("p.flash", has_text=text)


def record(page, number, taken):
    page.get_by_role("link", name=f"Record hand {number}").click()
    enter_hand(page, taken)
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(flashed(page, f"Hand {number} recorded.")).to_be_visible()


def history_rows(page):
    """The hands history: each row's cells as text."""
    return page.locator("table.hands tbody tr").evaluate_all(
        "rows => rows.map(row => Array.from(row.cells).map(cell => cell.textContent.trim()))")


def change(page, text):
    """The trail entry whose description contains ``text``."""
    return page.locator("#changes li").filter(has=page.locator("p.change-what", has_text=text))


def test_an_undone_removal_shows_no_undo_and_the_hand_comes_back_once(page, screenshot):
    start_game(page, EIGHT, target=500, name="Undo once")
    record(page, 1, SPREAD)
    record(page, 2, OTHER)
    record(page, 3, SPREAD)
    before = history_rows(page)

    page.get_by_role("link", name="Correct hand 2").click()
    page.get_by_role("link", name="Remove hand 2").click()
    page.get_by_role("button", name="Yes, remove hand 2").click()
    expect(flashed(page, "Hand 2 removed.")).to_be_visible()
    assert len(history_rows(page)) == 2
    change(page, "Hand 2 removed.").get_by_role("button", name="Undo this change").click()
    expect(flashed(page, "Undone: Hand 2 removed.")).to_be_visible()

    removal = change(page, "Hand 2 removed.")
    expect(removal.get_by_role("button", name="Undo this change")).to_have_count(0)
    expect(removal).to_contain_text("Undone at")
    assert history_rows(page) == before
    screenshot("phone-trail-after-undo")

    # The hand put back can be taken out again: that is a removal, so the app asks first, with its figures.
    change(page, "Hand 2 put back in its place.").get_by_role("link", name="Undo this change").click()
    expect(page.get_by_role("heading", name="Undo “Hand 2 put back in its place.”?")).to_be_visible()
    expect(page.get_by_role("table")).to_contain_text("Points in hand 2")
    screenshot("phone-undo-asks-first")
    page.get_by_role("button", name="Yes, undo it and remove hand 2").click()
    expect(flashed(page, "Undone: Hand 2 put back in its place.")).to_be_visible()
    assert len(history_rows(page)) == 2
    again = change(page, "Hand 2 removed again: its undo was undone.")
    expect(again).to_contain_text("Bo: 12 hearts, 1 Black Maria")  # the figures it took out, to read, not retype
    again.get_by_role("button", name="Undo this change").click()
    assert history_rows(page) == before


def test_a_correction_undone_leaves_only_the_later_entries_undoable(page):
    start_game(page, EIGHT, target=500, name="Undo a correction")
    record(page, 1, SPREAD)
    page.get_by_role("link", name="Correct hand 1").click()
    enter_hand(page, {0: (0, 0), 1: (10, 0)})
    page.get_by_role("button", name="Save hand 1").click()
    expect(flashed(page, "Hand 1 corrected.")).to_be_visible()
    first_total = history_rows(page)[0]

    change(page, "Hand 1 corrected.").get_by_role("button", name="Undo this change").click()

    expect(flashed(page, "Undone: Hand 1 corrected.")).to_be_visible()
    assert history_rows(page)[0] != first_total
    expect(change(page, "Hand 1 put back as it was.").get_by_role("button", name="Undo this change")).to_have_count(1)
    recorded = change(page, "Hand 1 recorded.")
    expect(recorded.get_by_role("link", name="Undo this change")).to_have_count(1)
