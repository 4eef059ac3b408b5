"""The whole table: live updates across phones, fast entry, accessibility, looks, languages."""


from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from ..tabletop import store_games
from .conftest import LIVE_APP, PHONE, TABLET
from .test_game_flow import EIGHT, enter_hand, start_game
from .test_tricks_flow import pick

SERIOUS = ("serious", "critical")
COLOUR_RULES = {"resultTypes": ["violations"],
                "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}

def test_a_watching_phone_updates_by_itself_when_a_hand_is_recorded(page, browser, base_url):
    start_game(page, EIGHT, target=150, name="Live game")
    game_url = page.url
    watcher = browser.new_context(base_url=base_url, viewport=PHONE).new_page()
    watcher.goto(game_url + "/watch")
    expect(watcher.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()
    expect(watcher.get_by_role("link", name="Record hand 1")).to_have_count(0)

    page.get_by_role("link", name="Record hand 1").click()
    enter_hand(page, {0: (10, 0), 2: (6, 1), 4: (6, 0), 7: (4, 1)})
    page.get_by_role("button", name="Save hand 1").click()

    expect(watcher.get_by_role("heading", name="Hand 2", exact=True)).to_be_visible(timeout=2500)
    expect(watcher.locator("table.scoreboard tr", has_text="Caio")).to_contain_text("19")
    watcher.context.close()

def test_typical_eight_player_hand_fits_the_tap_budget(page):
    """Four players took hearts, both Black Marias to different players: the budget is
    one tap per player who took hearts plus their digits, one per Black Maria, one to save."""
    start_game(page, EIGHT, target=150, name="Budget game")
    page.get_by_role("link", name="Record hand 1").click()
    taken = {1: (12, 1), 3: (7, 0), 5: (4, 1), 6: (3, 0)}
    budget = sum(1 + len(str(hearts)) for hearts, _marias in taken.values()) + 2 + 1
    taps = 0

    for seat, (hearts, marias) in taken.items():
        page.locator(f"#takings-{seat}-hearts").click()
        taps += 1
        for digit in str(hearts):
            page.keyboard.press(digit)
            taps += 1
        if marias:
            page.locator(f'label[for="takings-{seat}-marias-{marias}"]').click()
            taps += 1
    page.get_by_role("button", name="Save hand 1").click()
    taps += 1

    expect(page.locator("p.flash", has_text="Hand 1 recorded.")).to_be_visible()
    assert taps <= budget, f"{taps} taps for a budget of {budget}"
    print(f"tap budget: {taps} taps used of {budget}")

def test_every_page_passes_the_axe_scan_at_phone_size_light_and_dark(page):
    """Each page is scanned in the light scheme, then, without loading it again, in the dark one."""
    start_game(page, EIGHT[:6] + ["Gil", "Hana", "Ivo"], target=150, name="Axe game")
    game = page.url
    page.goto(game + "/play")
    pick(page, "K♣", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣")
    page.get_by_role("button", name="Settle trick 1").click()
    page.goto(game + "/hands/new")
    for seat, hearts in enumerate([10, 6, 5, 5]):
        page.locator(f"#takings-{seat}-hearts").fill(str(hearts))
    page.locator('label[for="takings-0-marias-2"]').click()
    page.get_by_role("button", name="Save hand 1").click()
    pages = ["/", "/games/new", "/games/import", "/rules", "/settle", "/settle?cards=10s+9h+9h+10s",
             game, game + "/watch", game + "/display", game + "/play", game + "/hands/new",
             game + "/hands/1", game + "/hands/1/remove", game + "/hands/1/tricks", "/no-such-page",
             game + "/sheet", "/players", "/club"]
    page.goto("/players")
    pages.append(page.locator("table.season tbody th a").first.get_attribute("href"))  # a person's page
    found = {}
    backgrounds = set()

    for url in pages:
        page.emulate_media(color_scheme="light")
        page.goto(url)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)  # the page's colours follow at once
            backgrounds.add(page.evaluate("getComputedStyle(document.body).backgroundColor"))
            serious = [v["id"] for v in axe_violations(page, scheme) if v["impact"] in SERIOUS]
            if serious:
                found[f"{url} ({scheme})"] = serious

    print(f"axe: scanned {len(pages)} pages, light and dark")
    assert len(backgrounds) >= 2, "the dark scheme never applied"
    assert not found

def axe_violations(page, scheme):
    """axe's violations on the page as shown: every rule in the light scheme; in the dark one, which
    changes colours only, the colour rules, run by the axe the light scan put in the page (injecting axe
    and running every rule twice a page was most of the scan's time)."""
    if scheme == "light":
        return Axe().run(page).response["violations"]
    return page.evaluate("options => axe.run(document, options)", COLOUR_RULES)["violations"]


def test_screenshots_of_the_table_light_and_dark(browser, base_url, screenshot, page):
    """The table view, the hand form and the display as a second scorer's phone and tablet show them, in the
    light and the dark scheme (it opened the secret scorer link), each checked for what it must show, then
    saved to look at. One game serves the four: they only read it (recording hands is other tests' work)."""
    hands = [{0: (10, 0), 2: (6, 1), 4: (6, 0), 7: (4, 1)}, {1: (26, 2)}]
    (game_id, scorer_key), = store_games(LIVE_APP[0], [{
        "format": "scorekeeper/cancellation-hearts", "version": 2, "name": "Looks", "target": 100, "players": EIGHT,
        "first_dealer": 0, "hands": [
            {"number": number, "uncollected": {"hearts": 0, "marias": 0}, "moon": "add" if number == 2 else None,
             "taken": [dict(zip(("hearts", "marias"), taken.get(seat, (0, 0)))) for seat in range(len(EIGHT))],
             "tricks": None} for number, taken in enumerate(hands, start=1)]}])
    game, scorer_path = f"/games/{game_id}", f"/games/{game_id}/scorer/{scorer_key}"  # the secret scorer link
    for device, size in (("phone", PHONE), ("tablet", TABLET)):
        for scheme in ("light", "dark"):
            context = browser.new_context(base_url=base_url, viewport=size, color_scheme=scheme)
            try:
                viewer = context.new_page()
                viewer.goto(scorer_path)
                show_as_a_second_scorer(viewer, game, screenshot.folder / f"{device}-{scheme}")
            finally:
                context.close()


def show_as_a_second_scorer(viewer, game, named):
    """Check what the second scorer's table view, hand form and display show, and save each as ``named``-*.png."""
    viewer.goto(game)
    expect(viewer.get_by_role("heading", name="Hand 3", exact=True)).to_be_visible()
    expect(viewer.locator("table.scoreboard tr", has_text="Caio")).to_contain_text("45")  # 19, then 26 (R15)
    expect(viewer.get_by_role("link", name="Record hand 3")).to_be_visible()  # this device scores too
    viewer.screenshot(path=f"{named}-table.png", full_page=True)
    viewer.goto(game + "/hands/new")
    expect(viewer.get_by_role("heading", name="Record hand 3")).to_be_visible()
    expect(viewer.locator("li.taking > fieldset > legend")).to_have_text(EIGHT)  # each player, in seat order
    expect(viewer.get_by_label("Hearts", exact=True)).to_have_count(len(EIGHT))
    expect(viewer.locator("#tally")).to_have_text("Hearts 0 of 26 · Black Marias 0 of 2")
    expect(viewer.get_by_role("button", name="Save hand 3")).to_be_visible()
    viewer.screenshot(path=f"{named}-hand-form.png", full_page=True)
    viewer.goto(game + "/display")
    expect(viewer.get_by_role("heading", name="Hand 3", exact=True)).to_be_visible()
    expect(viewer.locator("ol.display-totals li", has_text="Caio").locator(".total")).to_have_text("45")
    expect(viewer.locator("ol.display-totals li", has_text="Bo").locator(".total")).to_have_text("0")  # the moon
    viewer.screenshot(path=f"{named}-display.png", full_page=True)


def test_keyboard_alone_records_a_hand(page):
    start_game(page, EIGHT[:6], target=150, name="Keyboard game")
    page.get_by_role("link", name="Record hand 1").focus()
    page.keyboard.press("Enter")
    page.locator("#takings-0-hearts").focus()

    page.keyboard.type("26")
    page.keyboard.press("Tab")  # the Rest button
    page.keyboard.press("Tab")  # Black Marias: the radio group
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.locator("#takings-1-hearts").focus()
    page.keyboard.press("Enter")  # Enter moves on to the next box; it does not save half a hand
    expect(page.locator("#takings-2-hearts")).to_be_focused()
    page.locator("#takings-5-hearts").focus()
    page.keyboard.press("Enter")  # the last box's Enter saves

    expect(page.get_by_role("alert")).to_contain_text("Ana took all 26 hearts and both Black Marias")
    page.locator("#moon-subtract").focus()
    page.keyboard.press("Space")
    page.locator("#takings-5-hearts").focus()
    page.keyboard.press("Enter")
    expect(page.locator("table.scoreboard tr", has_text="Ana")).to_contain_text("-26")


def test_switching_to_portuguese_translates_the_pages_and_is_remembered(page, screenshot):
    start_game(page, EIGHT, target=150, name="Jogo")

    page.get_by_role("link", name="Português").click()

    expect(page.locator("html")).to_have_attribute("lang", "pt")
    expect(page.get_by_role("link", name="Anotar a mão 1")).to_be_visible()
    page.get_by_role("link", name="Anotar a mão 1").click()
    expect(page.get_by_role("heading", name="Anotar a mão 1")).to_be_visible()
    expect(page.locator("body")).to_contain_text("Marias Negras")
    screenshot("phone-hand-form-pt")
    page.goto("/rules")
    expect(page.locator("h1")).not_to_have_text("The rules of Cancellation Hearts")
