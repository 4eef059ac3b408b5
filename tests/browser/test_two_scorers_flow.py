"""Two real scorers racing a correction at phone size (issue 33): phone A saves hand 1, phone B's save of its
older copy is refused with the hand as saved now beside what B typed, a blind second Save puts nothing back,
and only B's deliberate choice puts B's figures over A's."""

from playwright.sync_api import expect

from .test_drafts import other_device
from .test_game_flow import EIGHT, enter_hand, start_game
from .test_table_live import SERIOUS, axe_violations
from .test_undo_flow import flashed, record

SPREAD = {0: (10, 0), 2: (6, 1), 4: (6, 0), 7: (4, 1)}
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def hearts_of_hand_1(phone, game_id):
    """Each seat's hearts in hand 1, as the game's export says."""
    document = phone.request.get(f"/games/{game_id}/export.json").json()
    return [seat["hearts"] for seat in document["hands"][0]["taken"]]


def test_a_blind_second_save_never_puts_back_what_the_other_phone_corrected(
        page, browser, browser_database, base_url, screenshot):
    start_game(page, EIGHT, target=500, name="Two scorers")
    record(page, 1, SPREAD)
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    phone_b = other_device(browser, browser_database, base_url, game_id)
    phone_b.goto(f"/games/{game_id}/hands/1")
    page.goto(f"/games/{game_id}/hands/1")

    enter_hand(page, {0: (8, 0), 1: (2, 0)})  # A: Ana 8, Bo 2
    page.get_by_role("button", name="Save hand 1").click()
    expect(flashed(page, "Hand 1 corrected.")).to_be_visible()
    enter_hand(phone_b, {0: (9, 0), 1: (1, 0)})  # B, from its older copy: Ana 9, Bo 1
    with phone_b.expect_response(lambda response: response.request.method == "POST") as refused:
        phone_b.get_by_role("button", name="Save hand 1").click()

    assert refused.value.status == 409
    contest = phone_b.locator("section.contest")
    expect(contest).to_contain_text("Another phone saved hand 1 while you were typing. Keep theirs, or put yours "
                                    "over it?")
    expect(contest).to_contain_text("The other phone changed the figures of Ana and Bo.")
    ana, caio = contest.locator("tbody tr").nth(0), contest.locator("tbody tr").nth(2)  # seats 1 and 3
    expect(ana.locator("th")).to_contain_text("Ana")
    assert ana.locator("td").all_inner_texts() == ["8", "0", "9", "0"]  # saved now, then what B typed
    expect(ana.locator(".badge.changed")).to_be_visible()
    expect(caio.locator("th")).to_have_text("Caio")
    expect(caio).not_to_have_class("differs")
    assert phone_b.evaluate(NO_SIDEWAYS_SCROLL)
    for scheme in ("light", "dark"):  # the contest's own colours and table pass the axe scan in both schemes
        phone_b.emulate_media(color_scheme=scheme)
        assert not [v["id"] for v in axe_violations(phone_b, scheme) if v["impact"] in SERIOUS], scheme
    phone_b.emulate_media(color_scheme="light")
    phone_b.screenshot(path=str(screenshot.folder / "phone-two-scorers-contest.png"), full_page=True)

    with phone_b.expect_response(lambda response: response.request.method == "POST") as blind:
        # Sent again with no choice, as Enter in the last box sends it: a plain Save.
        phone_b.locator("form.hand-form").evaluate("form => form.requestSubmit()")
    assert blind.value.status == 409
    expect(phone_b.locator("section.contest")).to_be_visible()
    assert hearts_of_hand_1(page, game_id)[:2] == [8, 2]  # A's correction stands

    phone_b.locator("section.contest").get_by_role("button", name="Put mine over theirs").click()
    expect(flashed(phone_b, "Hand 1 corrected.")).to_be_visible()
    assert hearts_of_hand_1(page, game_id)[:2] == [9, 1]
    phone_b.context.close()
