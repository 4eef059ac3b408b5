"""On a phone, "Settle it" brings the answer into view, with the script and without it; typed cards
are read with the page language's letters."""

from playwright.sync_api import expect

from .conftest import PHONE


def test_settle_it_brings_the_answer_into_view_on_a_phone(page, browser, base_url):
    page.set_viewport_size(PHONE)
    page.goto("/settle?lang=pt")
    page.locator("#cards").fill("10E 9C 9C 10E")  # the seeds' trick in Portuguese letters
    verdict = page.locator("#answer .verdict-line")
    expect(verdict).to_be_attached()
    expect(page.locator("output.read")).to_have_text("10♠ 9♥ 9♥ 10♠")  # each typed card read with its symbol
    expect(page.locator('[data-picker] [data-card="10♠"]')).to_be_disabled()  # typed cards count off the grid too
    expect(verdict).not_to_be_in_viewport(ratio=1)  # the live answer waits below the card grid, cut off

    page.locator("form.settle-form button[type=submit]").click()  # "Settle it", in Portuguese

    expect(verdict).to_be_in_viewport(ratio=1)
    expect(page.locator("#answer")).to_be_focused()
    assert page.url.endswith("#answer") and "cards=10E" in page.url and "lang=pt" in page.url

    context = browser.new_context(java_script_enabled=False, base_url=base_url, viewport=PHONE)
    plain = context.new_page()
    plain.goto("/settle")
    plain.get_by_label("Cards in play order").fill("10s 10s 9h 9h ks")
    plain.get_by_role("button", name="Settle it").click()
    expect(plain.locator(".verdict-line")).to_be_in_viewport()
    context.close()
