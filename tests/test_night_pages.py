"""A club night's pages through the test client (issue 36, R18): the secretary opens a night, checks people in
(picked from the club and typed new), draws a round from a split and a seed, closes it, undoes the newest
change; anyone watches the night's page, its state (304 while nothing moved), its big screen, results, JSON
and CSV; refusals keep what was typed and say why; a guest changes nothing."""

import re

import pytest
from sqlalchemy import func, select

from scorekeeper import service
from scorekeeper.db.models import Night, NightPlayer, db

from .tabletop import csrf_token, make_scorer, make_secretary, record_hand
from .test_nights import CLUB, hand_for

PEOPLE = CLUB[:20]


@pytest.fixture
def secretary(app, client):
    return make_secretary(app, client)


def open_night_page(client, name="Friday", length="deals", deals="2"):
    token = csrf_token(client, "/nights")
    return client.post("/nights", data={"csrf_token": token, "name": name, "day": "", "target": "150",
                                        "length": length, "deals": deals})


def night_id_of(app, name="Friday"):
    with app.app_context():
        return db.session.execute(select(Night.id).where(Night.name == name)).scalar_one()


def revision_of(app, night):
    with app.app_context():
        return db.session.get(Night, night).revision


def check_in_names(client, app, night, names):
    token = csrf_token(client, f"/nights/{night}/check-in")
    return client.post(f"/nights/{night}/check-in", data={"csrf_token": token, "revision": revision_of(app, night),
                                                           "new": "\n".join(names)})


def post_change(client, app, night, action, **fields):
    token = csrf_token(client, f"/nights/{night}")
    return client.post(f"/nights/{night}/{action}", data={"csrf_token": token, "revision": revision_of(app, night),
                                                           **fields})


def opened_night(app, client):
    assert open_night_page(client).status_code == 302
    night = night_id_of(app)
    assert check_in_names(client, app, night, PEOPLE).status_code == 302
    return night


def test_the_secretary_opens_a_night_checks_twenty_in_and_draws_two_tables(app, client, secretary):
    night = opened_night(app, client)
    page = client.get(f"/nights/{night}").get_data(as_text=True)
    assert "2 tables: 10, 10 players" in page and "Draw round 1" in page
    response = post_change(client, app, night, "draw", split="10+10", seed="4242")
    assert response.status_code == 302
    page = client.get(f"/nights/{night}").get_data(as_text=True)
    assert "Round 1" in page and "Drawn from seed 4242." in page
    assert page.count('<li class="night-table') == 2
    with app.app_context():
        tables = service.nights.night_rounds(night)[0].tables
    assert [len(table.people) for table in tables] == [10, 10]


def test_where_do_i_sit_names_the_table_the_seat_and_the_neighbour(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="7")
    with app.app_context():
        table = service.nights.night_rounds(night)[0].tables[1]
        person = table.people[3]
        right = db.session.get(service.nights.Person, table.people[2]).name
    page = client.get(f"/nights/{night}?person={person}").get_data(as_text=True)
    assert f"Table 2, seat 4, left of {right}" in page
    assert client.get(f"/nights/{night}?person=abc").status_code == 200  # a hostile query is no 500


def test_the_state_is_304_until_a_table_records_a_hand(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="7")
    first = client.get(f"/nights/{night}/state")
    etag = first.headers["ETag"]
    assert client.get(f"/nights/{night}/state", headers={"If-None-Match": etag}).status_code == 304
    with app.app_context():
        game = service.nights.night_rounds(night)[0].tables[0].game_id
    make_scorer(app, client, game)
    record_hand(client, game, hand_for(10))
    assert client.get(f"/nights/{night}/state", headers={"If-None-Match": etag}).status_code == 200
    assert client.get("/nights/999/state").status_code == 404


def test_a_whole_round_closes_and_the_standing_shows_in_the_page_json_and_csv(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="11")
    with app.app_context():
        tables = service.nights.night_rounds(night)[0].tables
    for table in tables:
        make_scorer(app, client, table.game_id)
        record_hand(client, table.game_id, hand_for(10, heavy=0))
    page = client.get(f"/nights/{night}").get_data(as_text=True)
    assert "provisional" in page
    assert post_change(client, app, night, "close", round="1").status_code == 302
    document = client.get(f"/nights/{night}.json").get_json()
    assert document["rounds"][0]["closed"] is True
    assert [len(table["players"]) for table in document["rounds"][0]["tables"]] == [10, 10]
    assert len(document["standing"]) == 20 and document["provisional"] is False
    heavy = document["rounds"][0]["tables"][0]["players"][0]
    assert next(line for line in document["standing"] if line["name"] == heavy)["share"] == 1.0
    csv = client.get(f"/nights/{night}.csv").get_data(as_text=True)
    assert csv.splitlines()[0].lstrip("\ufeff").startswith("Place,Name,Share,Round 1")
    assert len(csv.splitlines()) == 21
    for path in ("display", "results"):
        assert client.get(f"/nights/{night}/{path}").status_code == 200


def test_the_draw_is_refused_while_a_table_plays_and_undone_while_nothing_is_recorded(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="11")
    refused = post_change(client, app, night, "draw", split="10+10", seed="12")
    assert refused.status_code == 400 and "still playing" in refused.get_data(as_text=True)
    with app.app_context():
        newest = service.nights.night_trail(night)[0].change.id
    assert post_change(client, app, night, "undo", change=str(newest)).status_code == 302
    with app.app_context():
        assert service.nights.night_rounds(night) == ()


def test_a_stale_page_is_a_409_that_keeps_the_seed_typed(app, client, secretary):
    night = opened_night(app, client)
    token = csrf_token(client, f"/nights/{night}")
    stale = revision_of(app, night) - 1
    response = client.post(f"/nights/{night}/draw", data={"csrf_token": token, "revision": stale,
                                                          "split": "10+10", "seed": "31337"})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Another device changed this night" in page and 'value="31337"' in page


def test_a_bad_seed_is_refused_next_to_the_field_with_what_was_typed(app, client, secretary):
    night = opened_night(app, client)
    response = post_change(client, app, night, "draw", split="10+10", seed="12ab")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'id="seed-error"' in page and 'value="12ab"' in page


def test_a_bad_night_form_keeps_what_was_typed(app, client, secretary):
    token = csrf_token(client, "/nights")
    response = client.post("/nights", data={"csrf_token": token, "name": "Friday", "day": "2026-13-40",
                                            "target": "x", "length": "deals", "deals": "0"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'value="2026-13-40"' in page and "night-day-error" in page and "night-target-error" in page
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(Night)).scalar() == 0


def test_check_in_finds_people_by_search_recent_first_and_keeps_picks(app, client, secretary):
    night = opened_night(app, client)
    page = client.get(f"/nights/{night}/check-in?q=player a").get_data(as_text=True)
    assert "Player A" in page and "Player B" not in page
    response = check_in_names(client, app, night, ["  "])
    assert response.status_code == 400 and "type a new name" in response.get_data(as_text=True)


def test_a_guest_watches_but_changes_nothing(app, client, secretary):
    night = opened_night(app, client)
    guest = app.test_client()
    assert guest.get(f"/nights/{night}").status_code == 200
    assert guest.get(f"/nights/{night}/check-in").status_code == 403
    assert guest.get(f"/nights/{night}/cards").status_code == 403
    fields = {"split": "10+10", "seed": "1", "round": "1", "person": "1", "change": "1", "new": "X"}
    for action in ("draw", "close", "leave", "undo", "check-in"):
        assert guest.post(f"/nights/{night}/{action}", data=fields).status_code == 403
    assert guest.post("/nights", data={"name": "Mine"}).status_code == 403
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(NightPlayer)).scalar() == 20


def test_table_cards_carry_each_tables_scorer_code(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="3")
    page = client.get(f"/nights/{night}/cards").get_data(as_text=True)
    assert page.count('class="table-card"') == 2 and page.count("<svg") == 2
    assert len(re.findall(r"/games/\d+/scorer/", page)) >= 2


def test_the_season_table_filters_to_the_tables_of_club_nights(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="5")
    with app.app_context():
        game = service.nights.night_rounds(night)[0].tables[0].game_id
        other = service.new_game("Sunday", 150, 0, [f"Other {n}" for n in range(6)])
    make_scorer(app, client, game)
    record_hand(client, game, hand_for(10))
    make_scorer(app, client, other.id)
    record_hand(client, other.id, hand_for(6))
    everyone = {player["name"] for player in client.get("/stats.json").get_json()["players"]}
    at_nights = {player["name"] for player in client.get("/stats.json?nights=y").get_json()["players"]}
    assert "Other 0" in everyone and "Other 0" not in at_nights
    assert at_nights and at_nights <= set(PEOPLE)
    assert 'id="nights" name="nights" value="y" checked' in client.get("/players?nights=y").get_data(as_text=True)


def test_the_clubs_trail_lists_each_change_to_a_night_linked_to_it(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="9")
    page = client.get("/club").get_data(as_text=True)
    assert "Friday: Round 1 drawn from seed 9" in page and "Friday: Checked in: Player A" in page
    assert f'href="/nights/{night}"' in page


def test_a_finished_round_needs_no_closing_and_an_older_one_cannot_be_closed(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="21")
    with app.app_context():
        tables = service.nights.night_rounds(night)[0].tables
    for table in tables:
        make_scorer(app, client, table.game_id)
        for _hand in range(2):
            record_hand(client, table.game_id, hand_for(10))
    refused = post_change(client, app, night, "close", round="1")
    assert refused.status_code == 400 and "needs no closing" in refused.get_data(as_text=True)
    assert post_change(client, app, night, "draw", split="10+10", seed="22").status_code == 302
    older = post_change(client, app, night, "close", round="1")
    assert older.status_code == 400 and "no such round" in older.get_data(as_text=True)
    with app.app_context():
        assert [past.closed for past in service.nights.night_rounds(night)] == [False, False]


def test_the_check_in_search_finds_a_name_whatever_its_accents(app, client, secretary):
    assert open_night_page(client).status_code == 302
    night = night_id_of(app)
    check_in_names(client, app, night, ["Zoë Ångström"])
    service_night = open_night_page(client, name="Saturday")
    assert service_night.status_code == 302
    page = client.get(f"/nights/{night_id_of(app, 'Saturday')}/check-in?q=zoe angstrom").get_data(as_text=True)
    assert "Zoë Ångström" in page


def test_the_table_cards_draw_each_code_as_an_image(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="3")
    page = client.get(f"/nights/{night}/cards").get_data(as_text=True)
    assert "b&#39;<svg" not in page and "b'<svg" not in page and "<svg" in page


def test_a_tables_pages_say_its_round_of_the_night_and_when_it_is_over(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="21")
    with app.app_context():
        game = service.nights.night_rounds(night)[0].tables[0].game_id
    make_scorer(app, client, game)
    assert "Table 1 of round 1 of Friday: 0 of the round's 2 hands played" in client.get(
        f"/games/{game}").get_data(as_text=True)
    for _hand in range(2):
        record_hand(client, game, hand_for(10))
    for page in (f"/games/{game}", f"/games/{game}/watch", f"/games/{game}/hands/new"):
        assert "Round 1 of Friday is over at this table: 2 of 2 hands played" in client.get(page).get_data(
            as_text=True), page
    with app.app_context():
        other = service.new_game("Sunday", 150, 0, [f"Other {n}" for n in range(6)])
    assert "of round" not in client.get(f"/games/{other.id}/watch").get_data(as_text=True)


def test_a_check_in_of_people_picked_and_typed_is_one_change_all_or_nothing(app, client, secretary):
    night = opened_night(app, client)
    with app.app_context():
        picked = db.session.execute(select(service.nights.Person.id).where(
            service.nights.Person.name == "Player A")).scalar_one()
        service.nights.see_off(night, picked)
        before = service.nights.night_trail(night)[0].change.id
    token = csrf_token(client, f"/nights/{night}/check-in")
    response = client.post(f"/nights/{night}/check-in", data={
        "csrf_token": token, "revision": revision_of(app, night), "people": str(picked),
        "new": "Newcomer\nPl\u0430yer C"})  # Cyrillic а: too like Player C, refused inside the service
    assert response.status_code == 400
    with app.app_context():
        assert service.nights.night_trail(night)[0].change.id == before
        assert picked not in service.nights.next_draw(night)
    response = client.post(f"/nights/{night}/check-in", data={
        "csrf_token": token, "revision": revision_of(app, night), "people": str(picked), "new": "Newcomer"})
    assert response.status_code == 302
    with app.app_context():
        entry = service.nights.night_trail(night)[0]
        assert len(entry.made) == 2 and picked in entry.made


HOSTILE = ["", " ", "-1", "0", "99999999999999999999", "1e3", "²", "٣", "10+x", "+", "0+0", "11+11+11", "6+6+6+2",
           "\x00", "a" * 5000, "<script>alert(1)</script>", "🂡", "10+10\n", "NaN", "None"]


@pytest.mark.parametrize("action, fields", [
    ("draw", ("split", "seed", "revision")), ("leave", ("person", "revision")), ("close", ("round", "revision")),
    ("undo", ("change", "revision")), ("check-in", ("people", "new", "revision")),
])
def test_hostile_posts_to_a_night_are_refused_in_words_never_a_500(app, client, secretary, action, fields):
    night = opened_night(app, client)
    with app.app_context():
        trail = len(service.nights.night_trail(night))
    token = csrf_token(client, f"/nights/{night}")
    for value in HOSTILE:
        for field in fields:
            data = {"csrf_token": token, "revision": str(revision_of(app, night)), "split": "10+10", "seed": "1",
                    field: value}
            response = client.post(f"/nights/{night}/{action}", data=data)
            assert response.status_code in (302, 400, 409), (field, value, response.status_code)
    with app.app_context():
        after = service.nights.night_trail(night)
    # Only whole changes landed: every entry a change the service made, none half-made.
    assert all(entry.kind in ("players", "round", "closed") for entry in after) and len(after) >= trail


def test_hostile_new_nights_are_refused_and_nothing_is_stored(app, client, secretary):
    token = csrf_token(client, "/nights")
    for value in HOSTILE:
        for field in ("name", "day", "target", "deals", "length"):
            data = {"csrf_token": token, "name": "Friday", "day": "", "target": "150", "length": "deals",
                    "deals": "2", field: value}
            response = client.post("/nights", data=data)
            assert response.status_code in (302, 400), (field, value, response.status_code)
    for query in HOSTILE:
        assert client.get("/nights/1", query_string={"person": query}).status_code in (200, 404)
        assert client.get("/nights/999999999999999999999").status_code == 404


def fresh_page(app, client, url):
    """``url`` as ``client`` gets it rendered afresh: the app's kept pages forgotten first."""
    app.extensions.pop("scorekeeper.pages", None)
    return client.get(url).get_data(as_text=True)


def test_a_guests_kept_night_page_equals_a_fresh_one_after_every_input_changes(app, client, secretary):
    night = opened_night(app, client)
    post_change(client, app, night, "draw", split="10+10", seed="13")
    guest = app.test_client()
    with app.app_context():
        table = service.nights.night_rounds(night)[0].tables[0]
        person = db.session.get(service.nights.Person, table.people[0])
    pages = [f"/nights/{night}", f"/nights/{night}/display", f"/nights/{night}/results",
             f"/nights/{night}?person={table.people[0]}"]

    def kept_equals_fresh():
        kept = [guest.get(url).get_data(as_text=True) for url in pages]
        assert kept == [guest.get(url).get_data(as_text=True) for url in pages]  # served from the kept pages
        assert kept == [fresh_page(app, guest, url) for url in pages]
        return kept[0]

    kept_equals_fresh()
    make_scorer(app, client, table.game_id)
    record_hand(client, table.game_id, hand_for(10))  # a table's hand
    assert "Hand 2 of 2" in kept_equals_fresh()
    with app.app_context():
        service.rename_person(db.session.get(service.nights.Person, person.id), "Renamed Player")  # a name
    assert "Renamed Player" in kept_equals_fresh()
    check_in_names(client, app, night, ["Late Arrival"])  # the night itself
    assert "Late Arrival" in kept_equals_fresh()
    guest.get("/language/pt")  # the reader's language
    assert 'lang="pt"' in kept_equals_fresh()
