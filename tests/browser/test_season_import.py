"""A season kept on paper brought in at once, in headless Chromium on a phone (issue 26): the import page, its
template, a bad line refused with its number, then the season's games on the games list and in the season's
table, each on the day it was played."""

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorekeeper import rules
from scorekeeper.service.ratings import rate_in_order

from ..tabletop import PaperGame, season_csv
from .conftest import PHONE
from .test_table_live import SERIOUS

# A club's autumn on paper: eight people, three games of six or seven, every kind of line a sheet holds.
CLUB = ("Astrid", "Bjørn", "Cléo", "Dario", "Elin", "Femi", "Gaia", "Hugo")
AUTUMN = [
    PaperGame("Autumn 1", "2026-10-02", 40, CLUB[:6], (
        (((5, 0), (4, 1), (4, 0), (4, 0), (3, 1), (6, 0)), None, False),
        (((0, 0), (0, 0), (0, 0), (26, 2), (0, 0), (0, 0)), "subtract", False),  # Dario's moon (R15)
        (((4, 0), (5, 0), (0, 1), (4, 0), (5, 0), (5, 0)), None, True),  # a reserved last trick (R13)
        (((3, 1), (6, 0), (5, 1), (4, 0), (4, 0), (4, 0)), None, False),
        (((2, 1), (4, 1), (6, 0), (5, 0), (5, 0), (4, 0)), None, False),  # Astrid reaches 40: over (R16)
    )),
    PaperGame("Autumn 2", "2026-10-09", 40, ("Bjørn", "Cléo", "Elin", "Femi", "Gaia", "Hugo"), (
        (((0, 0), (0, 0), (0, 0), (0, 0), (26, 2), (0, 0)), "add", False),  # Gaia's moon, added to the others
        (((4, 1), (5, 0), (3, 0), (6, 1), (4, 0), (4, 0)), None, False),
    )),
    PaperGame("Autumn 3", "2026-11-06", 60, ("Astrid", "Bjørn", "Cléo", "Dario", "Elin", "Gaia", "Hugo"), (
        (((4, 0), (4, 1), (4, 0), (3, 0), (3, 1), (4, 0), (4, 0)), None, False),
        (((0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (26, 2)), "subtract", False),
        (((5, 1), (3, 0), (6, 1), (4, 0), (2, 0), (3, 0), (3, 0)), None, False),
    )),
]
SEASON = season_csv(AUTUMN, separator=";", order=CLUB)  # as a spreadsheet set to a comma decimal mark saves it


def choose(page, name, text):
    page.get_by_label("Game files (.json) or a season (.csv)").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": ("\ufeff" + text).encode()}])


def on_the_games_list(page, name):
    """The games list's entry of the game ``name``, newest played first: on the first page, or an older one (the
    other tests' games were played today, this season in the autumn)."""
    page.goto("/")
    while not page.locator("ul.games li", has_text=name).count():
        older = page.get_by_role("link", name="Older games")
        assert older.count(), f"{name} is not on the games list"
        href = older.get_attribute("href")
        older.click()
        # A click returns once the next page is asked for, not once it is there: count() on a page still
        # loading finds neither the game nor the link (CI saw it once).
        page.wait_for_url(lambda url: url.endswith(href))
    return page.locator("ul.games li", has_text=name)


def season_cell(page, player, heading):
    """The cell of the season's table in ``player``'s row under the column headed ``heading``."""
    headings = [text.strip(" ▲▼\n") for text in page.locator("table.season thead th").all_inner_texts()]
    column = headings.index(heading) - 1  # the first heading is the players', over each row's name
    return page.locator("table.season tbody tr", has_text=player).locator("td").nth(column)


def test_a_paper_season_is_imported_from_the_import_page_on_a_phone(page, screenshot, secretary_link):
    page.goto(secretary_link)  # the secretary's import counts in the season at once (a guest's waits)
    page.goto("/")
    page.get_by_role("link", name="Import games").click()
    expect(page.get_by_role("heading", name="A season kept on paper")).to_be_visible()
    template = page.get_by_role("link", name="Download the template (CSV)")
    downloaded = page.request.get(template.get_attribute("href"))
    assert downloaded.headers["content-type"].startswith("text/csv")
    assert downloaded.body().startswith("\ufeffgame,date,target,hand,".encode())

    # The moon of Autumn 1's second hand is written without its choice: line 3 is refused, nothing imported.
    choose(page, "autumn.csv", SEASON.replace(";subtract;", ";;", 1))
    page.get_by_role("button", name="Import the games").click()
    expect(page.locator("#document-error")).to_have_text(
        "Line 3: Dario took all 26 hearts and both Black Marias: they shot the moon! Write subtract in the moon "
        "column if they subtracted 26, or add if everyone else added 26 (R15).")
    expect(page.get_by_label("Game files (.json) or a season (.csv)")).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in SERIOUS]
    screenshot("phone-season-import-refused")
    page.goto("/players?since=2026-10-01&until=2026-11-30")
    expect(page.locator("table.season tbody tr", has_text="Astrid")).to_have_count(0)

    page.goto("/games/import")
    choose(page, "autumn.csv", SEASON)
    page.get_by_role("button", name="Import the games").click()

    expect(page.locator(".flash.success")).to_contain_text("3 games imported.")
    screenshot("phone-season-imported")
    for game in AUTUMN:
        board = game.scoreboard()
        entry = on_the_games_list(page, game.name)
        expect(entry.locator("time")).to_have_attribute("datetime", game.day)
        if board.over:
            winners = " and ".join(game.seated[seat] for seat in board.winners)
            expect(entry).to_contain_text(f"Over: {winners} won with {min(board.totals)}")
        else:
            expect(entry).to_contain_text(f"In progress: hand {len(game.hands) + 1} next")

    # Each game is on the day it was played: October's season holds Autumn 1 and 2 only.
    page.goto("/players?since=2026-10-01&until=2026-10-31")
    expect(season_cell(page, "Astrid", "Games")).to_have_text("1")
    expect(season_cell(page, "Bjørn", "Games")).to_have_text("2")
    page.goto("/players?since=2026-10-01&until=2026-11-30")
    expect(season_cell(page, "Astrid", "Games")).to_have_text("2")

    # Autumn 1 on its table: the totals the engine derives from the sheet's takings, Dario's win.
    on_the_games_list(page, "Autumn 1").get_by_role("link").click()
    board = AUTUMN[0].scoreboard()
    assert dict(zip(CLUB, board.totals)) == {"Astrid": 40, "Bjørn": 45, "Cléo": 41, "Dario": -9, "Elin": 30,
                                             "Femi": 19}
    expect(page.locator(".winner").first).to_have_text("Dario wins with -9 points.")
    for name, total in zip(AUTUMN[0].seated, board.totals):
        expect(page.locator("table.scoreboard tr", has_text=name).locator("td.total")).to_have_text(str(total))

    # The season's ratings (docs/ratings.md): each finished game of the autumn rates the players at its end by
    # their totals, in the order played; the table is sorted by them, the highest first.
    results = [(number, [(seat, game.seated[seat], finish.place)
                         for seat, finish in enumerate(rules.finishes(game.scoreboard())) if finish is not None])
               for number, game in enumerate(AUTUMN) if game.scoreboard().over]
    # Four games at most each: every rating is provisional, marked "?" (docs/ratings.md).
    expected = {name: f"{rating.rounded(rating.shown, 1)}?" for name, rating in rate_in_order(results)[0].items()}
    page.goto("/players?since=2026-10-01&until=2026-11-30")
    expect(page.locator("table.season caption")).to_contain_text("sorted by Rating")
    for name, rating in expected.items():
        expect(season_cell(page, name, "Rating")).to_have_text(rating)
    best = max(expected, key=lambda name: float(expected[name].rstrip("?")))
    expect(page.locator("table.season tbody tr").first).to_contain_text(best)
    screenshot("phone-season-ratings")

    page.locator("table.season tbody tr").first.get_by_role("link").click()
    expect(page.get_by_role("heading", name=best)).to_be_visible()
    rating = page.locator("dl.person-facts div", has_text="Rating").locator("dd")
    expect(rating.first).to_have_text(re.compile(r"^-?[0-9]+\.[0-9]\?$"))
    expect(rating.nth(1)).to_contain_text("Provisional: fewer than 5 finished games")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot("phone-person-rating")
