"""A backup holds the club, whole (issue 33): a club filled through every write path, backed up and restored
into an empty database, serves every page as it did, and every undo it offered it still offers."""

import io
import json
import random
import re

from sqlalchemy import func, select

from scorekeeper import service
from scorekeeper.db.models import Change, Game, GameChange, Person, PersonChange, db

from .tabletop import (
    ELEVEN,
    SIX,
    assert_figures_are_fresh,
    create_game,
    csrf_token,
    hidden_fields,
    make_scorer,
    make_secretary,
    post_hand,
    random_game_document,
    record_hand,
)

NINE = ELEVEN[:9]
DEVICE = "Ana's phone"
SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]  # 5, 18, 4, 17, 4, 4 points (R14)
TWENTY = [(7, 1), (5, 0), (4, 1), (4, 0), (3, 0), (3, 0)]  # the first seat reaches 20 (R16)
# The first tricks of a nine-player hand Ana deals (Bo leads): reserved, a heart led unbroken (confirmed)
# that takes the kitty, and one after the kitty is said (R9, R8, R12).
TRICKS = ["10♠ 10♠ A♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦", "K♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", "A♣ Q♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠"]
KITTY = "2♥ 3♥ A♦ K♦ Q♦"


# --- A club, through every write path --------------------------------------------------------------------


def post(client, url, fields, form_url=None):
    """Post ``fields`` to ``url`` with the hidden fields of the form at ``form_url`` (``url`` by default);
    the change must be made (a redirect)."""
    response = client.post(url, data={**hidden_fields(client, form_url or url), **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


def newest_entry(app, game_id):
    with app.app_context():
        return db.session.execute(select(Change.id).where(Change.game_id == game_id)
                                  .order_by(Change.id.desc()).limit(1)).scalar()


def undo(client, app, game_id, change_id=None):
    """Undo an entry of a game's trail (its newest by default) as its Undo button does."""
    change_id = change_id or newest_entry(app, game_id)
    url = f"/games/{game_id}/changes/{change_id}/undo"
    post(client, url, {}, form_url=url)


def person_id(app, name):
    with app.app_context():
        return db.session.execute(select(Person.id).where(Person.name == name)).scalar_one()


def on_person_page(client, app, name, action, fields):
    page = f"/players/{person_id(app, name)}"
    post(client, f"{page}/{action}", fields, form_url=page)


def on_club_page(client, action, fields):
    post(client, f"/club/{action}", fields, form_url="/club")


def imported_document():
    """A finished game with a hand played trick by trick, as another scorekeeper exported it."""
    rng = random.Random(33)
    while True:
        document = random_game_document(rng, "Imported", fewest_hands=3, most_hands=8)
        if document["target"] <= 60 and any(hand["tricks"] for hand in document["hands"]):
            return document


def fill_club(app):
    """A club written through every path once: games recorded, corrected, a hand removed and put back, house
    rules, a join, a leave and a join undone, tricks and the kitty and a trick taken back (the hand left
    open), an import and a guest's that waits, a merge, a merge undone, a rename, a rename undone, games left
    out with their reasons, one counted again, a game dated; from one device, a scorer of every game and the
    club's secretary."""
    client = make_secretary(app, app.test_client())
    post(client, "/club/device", {"name": DEVICE}, form_url="/club")

    friday = create_game(client, SIX, name="Friday")
    for hand in (SPREAD, SPREAD[::-1], SPREAD[1:] + SPREAD[:1]):
        record_hand(client, friday, hand)
    assert post_hand(client, friday, [(6, 0), (4, 1), (4, 0), (4, 1), (4, 0), (4, 0)], number=1).status_code == 302
    post(client, f"/games/{friday}/hands/2/remove", {})
    undo(client, app, friday)  # hand 2 back in its place
    post(client, f"/games/{friday}/rules", {"rules-moon_points": "52", "rules-moon_choice": "either",
                                            "rules-passing": "left right across hold", "rules-cards_passed": "3"})

    saturday = create_game(client, ["Ana", "Bo", "Gil", "Hana", "Ivo", "Jun", "Kai"], name="Saturday")
    record_hand(client, saturday, SPREAD + [(0, 0)])
    seating = f"/games/{saturday}/seating"
    post(client, seating, {"name": "Zé", "at": "0", "start_rule": "highest", "start": ""})
    post(client, f"{seating}/leave", {"player": "6"}, form_url=seating)
    post(client, seating, {"name": "Lu", "at": "2", "start_rule": "average", "start": ""})
    undo(client, app, saturday)  # Lu no longer joins: the undo of that undo would seat Lu again

    tricks = create_game(client, NINE, name="Trick by trick")
    play = f"/games/{tricks}/play"
    post(client, play, {"number": "1", **{f"cards-{seat}": card for seat, card in enumerate(TRICKS[0].split())}})
    post(client, play, {"number": "2", "confirm": "y",
                        **{f"cards-{seat}": card for seat, card in enumerate(TRICKS[1].split())}})
    post(client, f"{play}/kitty", {"cards": KITTY}, form_url=play)
    post(client, play, {"number": "3", **{f"cards-{seat}": card for seat, card in enumerate(TRICKS[2].split())}})
    post(client, f"{play}/undo", {}, form_url=play)

    upload = client.post("/games/import", data={"csrf_token": csrf_token(client, "/games/import"), "document": (
        io.BytesIO(json.dumps(imported_document()).encode()), "game.json")}, content_type="multipart/form-data")
    assert upload.status_code == 302, upload.get_data(as_text=True)
    guest = app.test_client()  # a guest's import waits for the secretary (issue 34), and is restored waiting
    upload = guest.post("/games/import", data={"csrf_token": csrf_token(guest, "/games/import"), "document": (
        io.BytesIO(json.dumps({**imported_document(), "name": "A guest's"}).encode()), "game.json")},
        content_type="multipart/form-data")
    assert upload.status_code == 302, upload.get_data(as_text=True)
    with app.app_context():  # the secretary opens its scorer link, as the game's page offers them
        make_scorer(app, client, db.session.execute(select(func.max(Game.id))).scalar())

    annas = create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"], target=20, name="Anna's")
    record_hand(client, annas, TWENTY)
    on_person_page(client, app, "Ana", "merge", {"other": str(person_id(app, "Anna"))})
    bobs = create_game(client, ["Bob", "Cleo", "Dan", "Eve", "Finn", "Gus"], target=20, name="Bob's")
    record_hand(client, bobs, TWENTY[::-1])
    on_person_page(client, app, "Bo", "merge", {"other": str(person_id(app, "Bob"))})
    with app.app_context():
        merge = db.session.execute(select(PersonChange.id).order_by(PersonChange.id.desc()).limit(1)).scalar()
    on_person_page(client, app, "Bo", "undo", {"change": str(merge)})
    on_person_page(client, app, "Bo", "rename", {"name": "Robert"})
    on_person_page(client, app, "Eve", "rename", {"name": "Evie"})
    with app.app_context():
        rename = db.session.execute(select(PersonChange.id).order_by(PersonChange.id.desc()).limit(1)).scalar()
    on_club_page(client, "undo", {"change": str(rename)})

    on_club_page(client, "void", {"game": str(annas), "reason": "a practice game"})
    on_club_page(client, "void", {"game": str(bobs), "reason": "imported twice"})
    post(client, f"/club/games/{bobs}/count", {}, form_url="/club")
    on_club_page(client, "date", {"game": str(friday), "day": "2026-01-10"})
    return client


# --- Every page, as each database serves it ----------------------------------------------------------------

# What a page names by id, and which table's id it is: each id becomes that row's place among its table's
# rows in id order ("game 3"). A restore gives new ids in the order of the old ones, so the places match.
ID_PLACES = [
    (re.compile(r"/games/(\d+)"), Game),
    (re.compile(r"[?&]game=(\d+)"), Game),
    (re.compile(r'"game":(\d+)'), Game),  # /stats.json's best and worst games
    (re.compile(r"/players/(\d+)"), Person),
    (re.compile(r"/changes/(\d+)/"), Change),
    (re.compile(r'(?<=name="change" value=")(\d+)(?=" formaction="/club/undo")'), PersonChange),
    (re.compile(r'(?<=name="change" value=")(\d+)(?=" formaction="/club/games/undo")'), GameChange),
]
CSRF_TOKEN = re.compile(r'(name="csrf_token" type="hidden" value=")[^"]+"')
TIME = re.compile(r'<time datetime="[^"]*">[^<]*</time>')  # a moment on a page: its trails' entries


def places(app, before=None):
    """Each table's ids in order, as ``{model: {id: place}}``; the rows of ``before`` (``ids(app)`` as they
    were before a restore) left out, so that the restored rows are numbered as in the backup's database."""
    before = before or {}
    with app.app_context():
        return {model: {row_id: place for place, row_id in enumerate(
            (row_id for row_id in db.session.execute(select(model.id).order_by(model.id)).scalars()
             if row_id not in before.get(model, ())), start=1)}
            for _pattern, model in ID_PLACES}


def ids(app):
    """Each table's ids (of ``ID_PLACES``), as ``{model: set}``."""
    with app.app_context():
        return {model: set(db.session.execute(select(model.id)).scalars()) for _pattern, model in ID_PLACES}


def normalised(text, ids, times=False):
    """A page with each id it names replaced by its row's place (``ID_PLACES``), and the form's CSRF token
    (a secret of the session) by "token"; with ``times``, each moment it shows (``TIME``) by "<time>", for
    pages that show changes each database made on its own, at its own moment. Nothing else is touched: every
    word, figure and date stays, and each moment the backup held."""
    for pattern, model in ID_PLACES:
        text = pattern.sub(lambda found, model=model: found.group(0).replace(
            found.group(1), f"{model.__name__}#{ids[model][int(found.group(1))]}"), text)
    if times:
        text = TIME.sub("<time>", text)
    return CSRF_TOKEN.sub(r'\1token"', text)


CLUB_PAGES = ("/", "/club")  # every game and every change there is
SEASON_PAGES = ("/players", "/players?sort=rating", "/players.csv", "/stats.json")
GAME_PAGES = ("", "/trail", "/hands", "/export.json", "/sheet", "/sheet.csv", "/state")


def every_page(app, client, before=None, times=False):
    """Every page of the club, by address: status, the address it redirects to, and its body normalised
    (``times`` too); with ``before`` (the ids there were before a restore), the season's pages and the
    restored games' and people's own, numbered among the restored rows."""
    numbered = places(app, before)
    with app.app_context():
        games = db.session.execute(select(Game).order_by(Game.id)).scalars().all()
        addresses = list(SEASON_PAGES) if before is not None else [*CLUB_PAGES, *SEASON_PAGES]
        addresses += [f"/players/{person}" for person in numbered[Person]]
        for game in games:
            if game.id in numbered[Game]:
                addresses += [f"/games/{game.id}{page}" for page in GAME_PAGES]
                addresses += [f"/games/{game.id}/play"] if game.playing_trick_by_trick else []
    pages = {}
    for address in addresses:
        response = client.get(address)
        pages[normalised(address, numbered)] = (
            response.status_code, normalised(response.headers.get("Location", ""), numbered),
            normalised(response.get_data(as_text=True), numbered, times))
    return pages


def assert_same_pages(pages, expected):
    """The same addresses, each page the same (status, redirect, body), named when one differs."""
    assert list(pages) == list(expected)
    for address, page in expected.items():
        assert pages[address] == page, address


def scorer_of_every_game(app, client):
    """``client``, made a scorer of every game through each game's secret scorer link."""
    with app.app_context():
        keys = db.session.execute(select(Game.id, Game.scorer_key).order_by(Game.id)).all()
    for game_id, key in keys:
        assert client.get(f"/games/{game_id}/scorer/{key}").status_code == 302
    client.get("/rules")  # what the passes flashed is shown, and gone
    return client


def as_before(app, client):
    """A client of a restored app that is what the original device was: the club's secretary, under the
    same device name, and a scorer of every game."""
    make_secretary(app, client)
    post(client, "/club/device", {"name": DEVICE}, form_url="/club")
    return scorer_of_every_game(app, client)


def club_refusals(app, before=None):
    """Why each entry of the club's trail cannot be undone now (None: it can), newest first, for the people's
    entries and the games', as the club's page asks; the entries of ``before`` left out."""
    before = before or {}
    with app.app_context():
        people = db.session.execute(select(PersonChange).order_by(PersonChange.id.desc())).scalars().all()
        games = db.session.execute(select(GameChange).order_by(GameChange.id.desc())).scalars().all()
        newest = {}
        for entry in games:
            newest.setdefault(service.touched(entry), entry.id)
        return ([service.person_change_refusal(entry, people) for entry in people
                 if entry.id not in before.get(PersonChange, ())],
                [service.game_change_refusal(entry, newest) for entry in games
                 if entry.id not in before.get(GameChange, ())])


def another_club_night(app):
    """A game of other people, a hand corrected, one of them renamed, the game left out: rows of every kind
    the restored ones are numbered after (and the season's pages stay the backup's)."""
    client = make_secretary(app, app.test_client())
    game = create_game(client, ["Uma", "Vera", "Walt", "Xena", "Yuri", "Zelda"], name="Elsewhere")
    record_hand(client, game, SPREAD)
    assert post_hand(client, game, SPREAD[::-1], number=1).status_code == 302
    on_person_page(client, app, "Uma", "rename", {"name": "Umar"})
    on_club_page(client, "void", {"game": str(game), "reason": "another club's night"})


def undo_one_of_each(app, client):
    """Undo an entry of every kind the club's trails offered before the backup: a join's undo (Lu sits down
    again, under the seat change's own id), a trick taken back, the house rules, a merge, a rename, a game
    counted again (left out again, for its reason) and a date."""
    with app.app_context():
        game = {name: game_id for game_id, name in db.session.execute(select(Game.id, Game.name))}
        merge, rename = (db.session.execute(
            select(PersonChange.id).where(PersonChange.action == action, PersonChange.person_id == person_id(app, name))
            .order_by(PersonChange.id.desc()).limit(1)).scalar() for action, name in (("merge", "Ana"),
                                                                                       ("rename", "Robert")))
        club = [db.session.execute(select(GameChange.id).where(GameChange.game_id == game[name])
                                   .order_by(GameChange.id.desc()).limit(1)).scalar() for name in ("Bob's", "Friday")]
    for name in ("Saturday", "Trick by trick", "Friday"):
        undo(client, app, game[name])
    for change in (merge, rename):
        on_club_page(client, "undo", {"change": str(change)})
    for change in club:
        on_club_page(client, "games/undo", {"change": str(change)})


def test_a_club_restored_into_an_empty_database_serves_every_page_as_it_did_and_undoes_as_it_did(app, other_apps,
                                                                                               tmp_path):
    """Restored into an empty database, and into one with another club's game and people (so that every id
    changes), the club is what it was, page for page; then an undo of each kind, made in all three, leaves
    them alike again."""
    client = fill_club(app)
    client.get("/rules")  # what the last change flashed is shown, and gone
    path = tmp_path / "club.json"
    with app.app_context():
        people = db.session.execute(select(db.func.count()).select_from(Person)).scalar()
        entries = sum(db.session.execute(select(db.func.count()).select_from(model)).scalar()
                      for model in (PersonChange, GameChange))
    empty, shifted = other_apps("empty"), other_apps("shifted")
    another_club_night(shifted)
    there = ids(shifted)

    saved = app.test_cli_runner().invoke(args=["backup", str(path)])
    restored = [copy.test_cli_runner().invoke(args=["restore", str(path)]) for copy in (empty, shifted)]

    assert saved.exit_code == 0, saved.output
    for result in restored:
        assert result.exit_code == 0, result.output
        assert result.output == (f"Restored 7 games, {people} people, 1 game left out of the season, 1 import "
                                 f"waiting for the club's secretary, 0 club nights, {entries} entries of the club's "
                                 "trail.\n")
    for copy in (empty, shifted):
        with copy.app_context():
            assert service.figures.check() == []
            assert_figures_are_fresh()
    refusals = club_refusals(app)
    assert {None, "undone", "later_change"} <= set(refusals[0]) and {None, "later_change"} <= set(refusals[1])
    assert club_refusals(empty) == club_refusals(shifted, there) == refusals
    empty_device, shifted_device = as_before(empty, empty.test_client()), as_before(shifted, shifted.test_client())
    assert_same_pages(every_page(empty, empty_device), every_page(app, client))

    for copy, device in ((app, client), (empty, empty_device), (shifted, shifted_device)):
        undo_one_of_each(copy, device)

    assert_same_pages(every_page(empty, empty_device, times=True), every_page(app, client, times=True))
    # Beside the other club's people a secretary's person page offers to merge them too: a scorer's pages
    # (not a secretary's) are compared there.
    viewer, shifted_viewer = (scorer_of_every_game(copy, copy.test_client()) for copy in (app, shifted))
    assert_same_pages(every_page(shifted, shifted_viewer, there, times=True), every_page(app, viewer, {}, times=True))
