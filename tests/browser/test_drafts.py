"""Drafts on a phone belong to one hand (static/hand.js): what was typed for one hand never fills in
another, an unsaved hand comes back after a reload, and one typed before the game changed is offered."""

import json
import re

from playwright.sync_api import expect
from sqlalchemy import create_engine, text

from ..tabletop import form_fields, game_document, hand_form
from .test_game_flow import EIGHT, enter_hand

DRAFTS = "Object.keys(localStorage).filter(key => key.startsWith('scorekeeper draft')).sort()"


def hand_of(number):
    """Hand ``number``'s figures, each hand its own: Ana ``number`` hearts, Bo the rest, Caio both Black Marias."""
    return {0: (number, 0), 1: (26 - number, 0), 2: (0, 2)}


def start_with_hands(page, hands):
    """An eight-player game with ``hands`` hands, imported in one request; its id. This page's device scores it."""
    entries = [{"number": number, "moon": None, "tricks": None, "uncollected": {"hearts": 0, "marias": 0},
                "taken": [{"hearts": hearts, "marias": marias}
                          for hearts, marias in (hand_of(number).get(seat, (0, 0)) for seat in range(len(EIGHT)))]}
               for number in range(1, hands + 1)]
    document = json.dumps(game_document("Eleven hands", EIGHT, 0, 1000, entries)).encode()
    request = page.context.request
    token = form_fields(request.get("/games/import").text())["csrf_token"]
    imported = request.post("/games/import", max_redirects=0, multipart={
        "csrf_token": token, "document": {"name": "game.json", "mimeType": "application/json", "buffer": document}})
    assert imported.status == 302, imported.text()
    return int(imported.headers["location"].rsplit("/", 1)[1])


def other_device(browser, browser_database, base_url, game_id):
    """A second phone, made a scorer of the game through the secret scorer link."""
    engine = create_engine(browser_database)
    with engine.connect() as connection:
        key = connection.execute(text("SELECT scorer_key FROM game WHERE id = :id"), {"id": game_id}).scalar()
    engine.dispose()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base_url).new_page()
    phone.goto(f"/games/{game_id}/scorer/{key}")
    return phone


def record_on(phone, number, taken):
    """The other phone records hand ``number`` as its form would post it."""
    url = phone.url.rstrip("/") + "/hands/new"
    fields = {**form_fields(phone.request.get(url).text()), **hand_form(taken, number)}
    assert phone.request.post(url, form=fields, max_redirects=0).status == 302


def test_a_saved_correction_never_comes_back_into_the_hand_that_takes_its_number(page, screenshot):
    game_id = start_with_hands(page, 11)
    page.goto(f"/games/{game_id}")
    # A phone that kept drafts the old way, by page and hand number: the old hand 10's figures.
    old = {"takings-0-hearts": "10", "takings-1-hearts": "16", "takings-2-marias": "2"}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"scorekeeper draft /games/{game_id}/hands/10 10", json.dumps(old)])

    page.goto(f"/games/{game_id}/hands/10")
    page.locator("#takings-0-hearts").fill("9")
    page.locator("#takings-1-hearts").fill("17")
    page.get_by_role("button", name="Save hand 10").click()
    expect(page.locator("p.flash", has_text="Hand 10 corrected.")).to_be_visible()
    # draft.js (deferred) drops the drafts once the page has loaded: wait for it, as a user would.
    page.wait_for_function(f"{DRAFTS}.length === 0", timeout=5000)
    assert page.evaluate(DRAFTS) == []  # the saved hand's draft is dropped, and so is the old kind
    page.goto(f"/games/{game_id}/hands/9/remove")
    page.get_by_role("button", name="Yes, remove hand 9").click()
    expect(page.locator("p.flash", has_text="Hand 9 removed.")).to_be_visible()
    page.goto(f"/games/{game_id}/hands/10")  # formerly hand 11

    expect(page.get_by_role("heading", name="Correct hand 10")).to_be_visible()
    expect(page.locator("#takings-0-hearts")).to_have_value("11")
    expect(page.locator("#takings-1-hearts")).to_have_value("15")
    expect(page.locator("#draft-notice")).to_be_hidden()
    expect(page.locator("#draft-offer")).to_be_hidden()
    screenshot("phone-drafts-formerly-hand-11")


def test_a_new_hand_comes_back_after_a_reload_and_is_only_offered_once_another_phone_saved(
        page, browser, browser_database, base_url, screenshot):
    game_id = start_with_hands(page, 10)
    page.goto(f"/games/{game_id}/hands/new")
    enter_hand(page, {3: (20, 1), 4: (6, 1)})

    page.reload()

    expect(page.locator("#draft-notice")).to_be_visible()
    expect(page.locator("#takings-3-hearts")).to_have_value("20")
    expect(page.locator("#draft-offer")).to_be_hidden()

    phone = other_device(browser, browser_database, base_url, game_id)
    record_on(phone, 11, [(13, 1), (13, 1)] + [(0, 0)] * 6)
    page.reload()

    expect(page.get_by_role("heading", name="Record hand 12")).to_be_visible()
    offer = page.locator("#draft-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("On this device you had typed these figures for hand 11, the next hand then, "
                                  "before the game changed. They are not in the form.")
    expect(offer.locator("tbody tr").nth(3)).to_have_text(re.compile(r"Dee\s*20\s*1"))
    expect(page.locator("#takings-3-hearts")).to_have_value("")
    expect(page.locator("#draft-notice")).to_be_hidden()
    expect(page.locator("#tally")).to_have_text("Hearts 0 of 26 · Black Marias 0 of 2")
    screenshot("phone-drafts-offered")

    page.get_by_role("button", name="Use these figures").click()

    expect(offer).to_be_hidden()
    expect(page.locator("#takings-3-hearts")).to_have_value("20")
    expect(page.locator("#takings-4-marias-1")).to_be_checked()
    expect(page.locator("#tally")).to_have_text("Hearts 26 of 26 · Black Marias 2 of 2")
    expect(page.locator("#draft-notice")).to_be_visible()
    screenshot("phone-drafts-used")
    page.reload()  # now a draft of this revision: it comes back
    expect(page.locator("#takings-3-hearts")).to_have_value("20")
    expect(offer).to_be_hidden()

    record_on(phone, 12, [(13, 1), (13, 1)] + [(0, 0)] * 6)
    page.reload()
    expect(offer).to_be_visible()
    page.get_by_role("button", name="Discard them").click()

    expect(offer).to_be_hidden()
    expect(page.locator("#takings-3-hearts")).to_have_value("")
    assert page.evaluate(DRAFTS) == []
    page.reload()
    expect(offer).to_be_hidden()
    expect(page.locator("#draft-notice")).to_be_hidden()
    phone.context.close()
