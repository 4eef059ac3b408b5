"""A whole club night in headless Chromium (issue 36, R18), as the secretary and the tables play it: the
secretary's phone opens a night of two-deal rounds, checks 20 people in (picked from the club after a search,
and typed new), draws round 1 from a split and a seed it types; each table's phone opens its scorer link from
the table cards and records its hands through the hand form, while a tablet watching the night's page
follows without a reload; round 1 finishes, round 2 is drawn (the page counts the neighbours who meet
again), played and closed by the director, and a short round 3 too; the results rank the night. Where a
person sits (?person=); the axe scan of the night's page, the check-in, the table cards and the results; no
sideways scroll and no word broken at 390x844, at 820x1180 and at 200% text (the night's page, the
check-in), the big screen too.
One night serves both sizes: each page is measured and photographed at both."""

import time
from urllib.parse import urlsplit

from playwright.sync_api import expect

from ..tabletop import game_document, store_games
from .conftest import LIVE_APP, PHONE, TABLET
from .test_game_flow import enter_hand
from .test_layout_sizes import MEASURE
from .test_table_live import SERIOUS, axe_violations

NIGHT = "Marlow Friday"  # a name no other browser test gives a night or a game
# The club's people before the night (a game of theirs), names no other browser test gives anyone.
CLUB = ["Ada Marlow", "Ben Marlow", "Cleo Marlow", "Dov Marlow", "Eun Marlow", "Finn Marlow", "Gus Marlow",
        "Hal Marlow", "Iris Marlow"]
PICKED = CLUB[:8]  # picked from the club's list after a search
RETYPED = "IRIS MARLOW"  # typed as written on the sign-up sheet: the club's Iris, not someone new
NEW = ["Jo Penhale", "Kit Penhale", "Lu Penhale", "Mo Penhale", "Ned Penhale", "Oona Penhale", "Pip Penhale",
       "Rex Penhale", "Sol Penhale", "Tam Penhale", "Uma Penhale"]
EVERYONE = CLUB + NEW
BEST = "Ada Marlow"  # takes nothing at every hand: lowest alone at her table each round, share 0 (R18 d)
DEALS = 2
SEEDS = (2024, 777, 31)


def device(browser, base_url, viewport, outside):
    """A phone or tablet of its own (its own cookies) that may request only the app's own origin."""
    context = browser.new_context(base_url=base_url, viewport=viewport)
    context.on("request", lambda request: outside.append(request.url)
               if not request.url.startswith((base_url, "data:", "blob:")) else None)
    return context.new_page()


def takings(names, number):
    """Each seat's (hearts, Black Marias) of hand ``number`` at a table of ``names``: BEST takes nothing, the
    others share the 26 hearts (2 or 3 each, turning with the hand) and two of them a Black Maria each."""
    others = [seat for seat, name in enumerate(names) if name != BEST]
    each, more = divmod(26, len(others))
    turned = others[number:] + others[:number]
    taken = {seat: [each + (place < more), 0] for place, seat in enumerate(turned)}
    for seat in turned[-2:]:
        taken[seat][1] = 1
    return {seat: tuple(hearts_marias) for seat, hearts_marias in taken.items()}


def record(phone, number):
    """Record hand ``number`` on a table's phone, through its hand form."""
    phone.get_by_role("link", name=f"Record hand {number}").click()
    names = phone.locator("li.taking").evaluate_all("items => items.map(item => item.dataset.name)")
    enter_hand(phone, takings(names, number))
    expect(phone.locator("#tally")).to_have_text("Hearts 26 of 26 · Black Marias 2 of 2")
    phone.get_by_role("button", name=f"Save hand {number}").click()
    expect(phone.locator("p.flash", has_text=f"Hand {number} recorded.")).to_be_visible()


def scorer_paths(page, night):
    """The table cards' scorer links of the round drawn, as paths (a card shows the link a phone scans)."""
    page.goto(f"/nights/{night}/cards")
    links = page.locator("section.table-card .share-url").all_inner_texts()
    return [urlsplit(link.strip()).path for link in links]


# What MEASURE (test_layout_sizes) does not look at: the inside of a box that scrolls, where the standing sits.
# Every word in the page's main part on one line (a name, a heading of the standing, a figure), and every seat
# of a table showing its number.
WHOLE_WORDS = """() => {
  const found = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest('.share-url, .visually-hidden, [hidden], svg') || !parent.getClientRects().length) continue;
    for (const word of node.data.matchAll(/[^\\s\\-–—·/]+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(box => box.width).map(box => Math.round(box.top)));
      if (lines.size > 1) found.push(`"${word[0]}" broken in ${parent.tagName.toLowerCase()}.${parent.className}`);
    }
  }
  for (const seat of document.querySelectorAll('ol.night-seats > li')) {
    const marker = getComputedStyle(seat, '::before').content;
    if (getComputedStyle(seat).display !== 'list-item' && (marker === 'none' || marker === 'normal'))
      found.push(`a seat of ${seat.textContent.trim()} without its number`);
  }
  return found.slice(0, 5);
}"""


def neighbours(players):
    """The pairs side by side round a table of ``players`` (clockwise), worked out here from the JSON."""
    count = len(players)
    return {frozenset((players[seat], players[(seat + 1) % count])) for seat in range(count)}


def looks(page, name, shot, text_too=False):
    """The page as it stands, at phone and tablet size (and at 200% text on the phone with ``text_too``):
    nothing scrolls sideways, nothing sticks out, no word stands a letter a line; a screenshot of each."""
    found = []
    for label, size in (("phone", PHONE), ("tablet", TABLET)):
        page.set_viewport_size(size)
        found += [f"{name} {label}: {problem}" for problem in page.evaluate(MEASURE) + page.evaluate(WHOLE_WORDS)]
        shot(f"night-{label}-{name}")
    if text_too:
        page.set_viewport_size(PHONE)
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        found += [f"{name} 200%: {problem}" for problem in page.evaluate(MEASURE) + page.evaluate(WHOLE_WORDS)]
        shot(f"night-phone-200-{name}")
        page.evaluate("document.documentElement.style.fontSize = ''")
    page.set_viewport_size(PHONE)
    return found


def axe_scan(page):
    """The serious findings of the axe scan of the page, in the light scheme and the dark one."""
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [f"{page.url} ({scheme}): {v['id']}" for v in axe_violations(page, scheme) if v["impact"] in SERIOUS]
    page.emulate_media(color_scheme="light")
    return found


def test_a_secretary_runs_a_night_of_three_rounds_that_two_tables_score_on_their_phones(
        page, browser, base_url, secretary_link, screenshot):
    started = time.monotonic()
    store_games(LIVE_APP[0], [game_document("Marlow practice", CLUB, 0, 150, [])])
    outside, problems = [], []
    page.goto(secretary_link)

    # The secretary's phone opens a night whose rounds are two deals at every table.
    page.goto("/nights")
    page.get_by_label("Name", exact=True).fill(NIGHT)
    page.get_by_label("An agreed number of deals at every table:").check()
    page.get_by_label("Deals a round").fill(str(DEALS))
    page.get_by_role("button", name="Open the night").click()
    expect(page.locator("p.flash", has_text="The night is open.")).to_be_visible()
    expect(page.get_by_role("heading", name="Check-in")).to_be_visible()
    night = int(urlsplit(page.url).path.split("/")[2])

    # Check-in: eight of the club found by a search and picked, then the rest typed, one a line.
    page.get_by_label("Find someone").fill("marlow")
    page.get_by_role("button", name="Find", exact=True).click()
    expect(page.locator("ul.check-in li")).to_have_count(len(CLUB))
    for name in PICKED:
        page.get_by_label(name, exact=True).check()
    screenshot("night-phone-check-in-picked")
    page.get_by_role("button", name="Check them in").click()
    expect(page.locator("p.flash", has_text="8 people checked in.")).to_be_visible()
    page.get_by_label("New people, one name a line").fill("\n".join([RETYPED, *NEW]))
    page.get_by_role("button", name="Check them in").click()
    expect(page.locator("p.flash", has_text="12 people checked in.")).to_be_visible()
    expect(page.get_by_text("20 people are here.")).to_be_visible()
    page.get_by_label("Find someone").fill("marlow")
    page.get_by_role("button", name="Find", exact=True).click()
    expect(page.locator("ul.check-in .here")).to_have_count(len(CLUB))  # the retyped Iris is the club's
    expect(page.locator("ul.check-in input[type=checkbox]")).to_have_count(0)
    problems += axe_scan(page) + looks(page, "check-in", screenshot, text_too=True)

    # Round 1: the split picked, the seed typed (said aloud), and shown once drawn.
    page.get_by_role("link", name="Back to the night").click()
    expect(page.get_by_text("20 people are checked in.")).to_be_visible()
    expect(page.get_by_label("3 tables: 7, 7, 6 players")).to_be_visible()
    page.get_by_label("2 tables: 10, 10 players").check()
    page.get_by_label("Seed").fill(str(SEEDS[0]))
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator("p.flash", has_text="The round is drawn.")).to_be_visible()
    expect(page.get_by_text(f"Drawn from seed {SEEDS[0]}.")).to_be_visible()
    expect(page.locator("li.night-table")).to_have_count(2)
    expect(page.locator("li.night-table").first).to_contain_text(f"Hand 1 of {DEALS}")

    # A tablet watches the night's page as a guest; it never reloads (the mark it is given stays).
    watcher = device(browser, base_url, TABLET, outside)
    watcher.goto(f"/nights/{night}")
    expect(watcher.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(watcher.get_by_role("heading", name="Director")).to_have_count(0)
    watcher.evaluate("window.notReloaded = true")

    # Each table's phone opens its scorer link, as scanned from its table card, and records the round.
    table_one, table_two = scorer_paths(page, night)
    expect(page.locator("section.table-card")).to_have_count(2)
    expect(page.locator("section.table-card svg")).to_have_count(2)
    expect(page.locator("figure.card-code").first).not_to_contain_text("b'")  # the code drawn, not its bytes
    problems += axe_scan(page)
    screenshot("night-phone-cards")
    phones = [device(browser, base_url, PHONE, outside) for _table in range(2)]
    for phone, path, table in zip(phones, (table_one, table_two), (1, 2)):
        phone.goto(path)
        expect(phone.locator("p.flash", has_text=f"{NIGHT} · 1.{table}")).to_be_visible()
    record(phones[0], 1)
    record(phones[1], 1)
    for table in watcher.locator("li.night-table").all():
        expect(table).to_contain_text(f"Hand 2 of {DEALS}")  # live, at the watcher's
    expect(watcher.get_by_role("table", name="Standing, provisional: round 1 is being played")).to_be_visible()
    record(phones[0], 2)
    record(phones[1], 2)
    phones[0].screenshot(path=str(screenshot.folder / "night-phone-table-after-round.png"), full_page=True)
    expect(watcher.locator("[data-live] > p.hint").first).to_have_text(
        f"Drawn from seed {SEEDS[0]}. Every table has finished: the next round can be drawn.")
    expect(watcher.locator("li.night-table.over")).to_have_count(2)
    expect(watcher.get_by_role("table", name="Standing", exact=True)).to_be_visible()
    watcher.screenshot(path=str(screenshot.folder / "night-tablet-watching-round-1.png"), full_page=True)

    # Round 2, drawn from the secretary's page as it stood: it says how many neighbours meet again.
    page.goto(f"/nights/{night}")
    expect(page.get_by_role("button", name="Close round 1")).to_have_count(0)
    page.get_by_role("link", name="Director").click()  # past the standing, on a phone
    page.get_by_label("2 tables: 10, 10 players").check()
    page.get_by_label("Seed").fill(str(SEEDS[1]))
    page.get_by_role("button", name="Draw round 2").click()
    expect(page.locator("p.flash", has_text="The round is drawn.")).to_be_visible()
    rounds = page.request.get(f"/nights/{night}.json").json()["rounds"]
    met = set().union(*(neighbours(table["players"]) for table in rounds[0]["tables"]))
    again = sum(len(neighbours(table["players"]) & met) for table in rounds[1]["tables"])
    assert rounds[1]["repeated"] == again
    pairs = "pair of neighbours sits" if again == 1 else "pairs of neighbours sit"
    expect(page.get_by_text(f"{again} {pairs} side by side again (R18 b).")).to_be_visible()
    problems += axe_scan(page) + looks(page, "night", screenshot, text_too=True)

    # Table 1 plays its two deals, table 2 one; the director closes the round with table 2 as it stood.
    for phone, path in zip(phones, scorer_paths(page, night)):
        phone.goto(path)
    record(phones[0], 1)
    record(phones[1], 1)
    record(phones[0], 2)
    page.goto(f"/nights/{night}")
    page.get_by_role("button", name="Close round 2").click()
    expect(page.locator("p.flash", has_text="The round is closed")).to_be_visible()
    expect(watcher.locator("li.night-table").nth(1)).to_contain_text(
        f"Counts as it stood after 1 of {DEALS} hands (R18 f).")
    expect(watcher.locator("[data-live] > p.hint").first).to_have_text(
        f"Drawn from seed {SEEDS[1]}. {again} {pairs} side by side again (R18 b). Closed by the director: each "
        "table counts as it stood (R18 f).")
    for number, drawn in enumerate(rounds[1]["tables"]):  # round 2's seats, swapped in live
        expect(watcher.locator("li.night-table").nth(number).locator(".name")).to_contain_text(drawn["players"])
    assert watcher.evaluate("window.notReloaded === true"), "the watching tablet reloaded"
    watcher.screenshot(path=str(screenshot.folder / "night-tablet-watching-round-2.png"), full_page=True)

    # Where does Ada sit? The watcher taps her name: her table, her seat and who she sits left of.
    watcher.locator("ul.night-people").get_by_role("link", name=BEST, exact=True).click()
    expect(watcher.get_by_role("heading", name=f"Where {BEST} sits")).to_be_visible()
    table = next(table for table in rounds[1]["tables"] if BEST in table["players"])
    seat = table["players"].index(BEST)
    expect(watcher.locator("#where")).to_contain_text(
        f"Table {table['number']}, seat {seat + 1}, left of {table['players'][seat - 1]}")
    watcher.locator("#where").screenshot(path=str(screenshot.folder / "night-tablet-where.png"))
    watcher.get_by_role("link", name="Big screen").click()
    expect(watcher.locator("li.night-table")).to_have_count(2)
    problems += looks(watcher, "big-screen", lambda name: watcher.screenshot(
        path=str(screenshot.folder / f"{name}.png"), full_page=True))

    # Round 3, a short one: each table plays one deal, and the director closes it.
    page.goto(f"/nights/{night}")
    page.get_by_label("2 tables: 10, 10 players").check()
    page.get_by_label("Seed").fill(str(SEEDS[2]))
    page.get_by_role("button", name="Draw round 3").click()
    expect(page.locator("p.flash", has_text="The round is drawn.")).to_be_visible()
    for phone, path in zip(phones, scorer_paths(page, night)):
        phone.goto(path)
        record(phone, 1)
    page.goto(f"/nights/{night}")
    page.get_by_role("button", name="Close round 3").click()
    expect(page.locator("p.flash", has_text="The round is closed")).to_be_visible()

    # The results: Ada first alone, lowest alone at her table in all three rounds; everyone ranked.
    page.get_by_role("link", name="Results").click()
    expect(page.get_by_role("heading", name=f"Results of {NIGHT}")).to_be_visible()
    lines = page.locator("table.standing tbody tr")
    expect(lines).to_have_count(len(EVERYONE))
    expect(lines.first.locator("td, th")).to_have_text(["1", BEST, "0.000", "0.000", "0.000", "0.000", "3", "0"])
    assert sorted(lines.locator("th").all_inner_texts()) == sorted(EVERYONE)
    expect(page.get_by_text("Closed by the director: each table counts as it stood (R18 f).")).to_have_count(2)
    # Three rounds' shares are wider than a phone: the standing scrolls inside its own box, the page does not.
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the results page scrolls sideways on a phone: {widths[0]}px in {widths[1]}px"
    problems += axe_scan(page) + looks(page, "results", screenshot)

    for other in (watcher, *phones):
        other.context.close()
    print(f"a night of {len(EVERYONE)} people, 3 rounds, 9 hands on 2 phones: {time.monotonic() - started:.1f} s")
    assert not outside, f"requests outside the app: {outside}"
    assert not problems, "\n".join(problems)
