"""Every main page at phone and tablet widths, in every language and at 200% text size (issue 24, item 5):
nothing scrolls sideways but the history table, the menu shows all its links, the hand form keeps a name on
a line, no word stands a letter a line; and the history shows a late joiner's column at their seat."""

import time

from ..tabletop import store_games
from .conftest import LIVE_APP, SCREENSHOTS

LANGUAGES = ["en", "pt", "es", "ms", "nb"]
SIZES = [(360, 780), (390, 844), (820, 1180), (1024, 1366)]
PHONE = (390, 844)
LONG_NAMES = ["Ana Beatriz", "Bo", "Caio Henrique", "Dee", "Nur Aisyah", "Fay", "Øyvind Kristoffersen", "Hana"]
HAND = [{"hearts": hearts, "marias": marias} for hearts, marias in
        [(6, 1), (4, 0), (3, 0), (3, 1), (3, 0), (2, 0), (3, 0), (2, 0)]]  # 26 hearts, 2 Black Marias (R2)
JOINER = "Zé Maria Figueiredo"
LONGEST_NAME = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 characters, the most a name may have
LONGEST_GAME_NAME = ("Campeonatodequintafeira" * 4)[:80]  # 80 characters, the most a game's name may have

# What sticks out of the window, outside a box of its own that scrolls: the page's width past the window,
# the menu's links past its box, any element whose right edge passes the window.
MEASURE = """() => {
  const width = window.innerWidth;
  const found = [];
  if (document.documentElement.scrollWidth > width) found.push(`page ${document.documentElement.scrollWidth}px`);
  const menu = document.querySelector('header.site nav');
  if (menu.scrollWidth > menu.clientWidth + 1) found.push(`menu ${menu.scrollWidth}px in ${menu.clientWidth}px`);
  for (const box of document.querySelectorAll('.scroll')) {
    if (width >= 800 && box.scrollWidth > box.clientWidth + 1 && !box.querySelector('table.hands'))
      found.push(`${box.firstElementChild.className} ${box.scrollWidth}px in ${box.clientWidth}px`);
  }
  const skipped = '.scroll, .visually-hidden, .default-submit, .skip, [hidden]';
  const words = new Set(['TH', 'TD', 'LEGEND', 'LABEL', 'BUTTON', 'DD', 'A']);
  const walk = (element) => {
    for (const child of element.children) {
      if (child.matches(skipped)) continue;
      const box = child.getBoundingClientRect();
      const name = `${child.tagName.toLowerCase()}.${child.className}`;
      if (box.width && box.right > width + 1) found.push(`${name} ends at ${Math.round(box.right)}px`);
      const card = child.dataset.card;
      if (card && child.scrollWidth > child.clientWidth + 1) found.push(`card ${card} clipped`);
      else if (words.has(child.tagName) && !card && box.width > 1 && child.textContent.trim().length > 2
          && box.width < 1.6 * parseFloat(getComputedStyle(child).fontSize))
        found.push(`"${child.textContent.trim().slice(0, 20)}" a letter a line`);
      walk(child);
    }
  };
  walk(document.querySelector('header.site'));
  walk(document.querySelector('main'));
  for (const legend of document.querySelectorAll('li.taking legend')) {
    const line = parseFloat(getComputedStyle(legend).lineHeight) || 20;
    if (legend.getBoundingClientRect().height > 2.5 * line) found.push(`name "${legend.textContent.trim()}" stacked`);
  }
  return found.slice(0, 5);
}"""


def a_game_with_a_joiner():
    """Eight players with long names, two hands, then a ninth who joins at the fourth seat, and a hand."""
    third = HAND[:3] + [{"hearts": 0, "marias": 0}] + HAND[3:]
    hands = [{"number": number, "taken": taken, "uncollected": {"hearts": 0, "marias": 0}, "moon": None,
              "tricks": None} for number, taken in [(1, HAND), (2, HAND), (3, third)]]
    document = {"format": "scorekeeper/cancellation-hearts", "version": 2, "name": "Quinta-feira no Clubedecopasdavila",
                "target": 150, "players": LONG_NAMES, "first_dealer": 0,
                "seat_changes": [{"before_hand": 3, "join": JOINER, "at": 3, "start": 20}], "hands": hands}
    # A finished game, its name and a player's as long as names go, each one word, and a hand that ended it:
    # every page must fit with such a game and player in it, whichever other games the database holds.
    finished = {**document, "name": LONGEST_GAME_NAME, "target": 20, "seat_changes": [],
                "players": [LONGEST_NAME, *LONG_NAMES[1:]],
                "hands": [{**hands[0], "taken": [{"hearts": 25, "marias": 0}, {"hearts": 1, "marias": 2}]
                           + [{"hearts": 0, "marias": 0}] * 6}]}
    (game_id, scorer_key), _finished = store_games(LIVE_APP[0], [document, finished])
    return game_id, scorer_key


def person_of(name):
    from scorekeeper.db.models import Person, db

    with LIVE_APP[0].app_context():
        return db.session.execute(db.select(Person.id).where(Person.name == name)).scalar_one()


# At the usual text size a player's hearts box and Black Marias buttons share a row on every width: an
# eleven-player form stays as short as it can be (at 200% they may stack).
SIDE_BY_SIDE = """() => {
    const player = document.querySelector("li.taking > fieldset");
    const hearts = player.querySelector(".hearts input").getBoundingClientRect();
    const marias = player.querySelector("fieldset.marias label").getBoundingClientRect();
    return Math.abs(hearts.bottom - marias.bottom) < hearts.height;
}"""


def test_no_main_page_scrolls_sideways_at_any_width_language_or_text_size(page, base_url):
    started = time.monotonic()
    game_id, scorer_key = a_game_with_a_joiner()
    page.goto(f"/games/{game_id}/scorer/{scorer_key}")
    game = f"/games/{game_id}"
    pages = ["/", game, f"{game}/hands/new", f"{game}/seating", f"/settle?game={game_id}", "/players",
             f"/players/{person_of(JOINER)}", "/club", "/rules"]
    page.goto(f"{game}/hands")
    history = page.locator("table.hands thead th").all_inner_texts()[1:]
    assert history == [*LONG_NAMES[:3], JOINER, *LONG_NAMES[3:]]  # the joiner's column at their seat
    overflows = []
    for language in LANGUAGES:
        page.context.add_cookies([{"name": "language", "value": language, "url": base_url}])
        for path in pages:
            page.set_viewport_size({"width": SIZES[-1][0], "height": SIZES[-1][1]})
            page.goto(path, wait_until="load")
            for width, height in reversed(SIZES):
                page.set_viewport_size({"width": width, "height": height})
                overflows += [f"{language} {width}px {path}: {found}" for found in page.evaluate(MEASURE)]
                if path.endswith("/hands/new") and page.evaluate(SIDE_BY_SIDE) is False:
                    overflows.append(f"{language} {width}px {path}: a player's hearts and Black Marias stack")
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            page.evaluate("document.documentElement.style.fontSize = '200%'")
            overflows += [f"{language} {PHONE[0]}px 200% {path}: {found}" for found in page.evaluate(MEASURE)]
            if language == "ms" and path in (game, f"{game}/hands/new", "/players"):
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                name = path.strip("/").replace("/", "-") or "games"
                page.screenshot(path=str(SCREENSHOTS / f"sizes-ms-200-{name}.png"), full_page=True)
    print(f"layout at {len(SIZES)} widths and 200% text, {len(LANGUAGES)} languages, {len(pages)} pages: "
          f"{time.monotonic() - started:.1f} s")
    assert not overflows, "\n".join(overflows)
