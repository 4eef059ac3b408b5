"""The club's memory (issue 15): people across games, their figures, the season's table and /stats.json."""

import io
import random
import re
import threading
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

import pytest
from sqlalchemy import select, update

from scorekeeper import create_app, service
from scorekeeper.db.models import Game, Person, PersonChange, PersonName, Player, db

from .conftest import close
from .tabletop import (
    ELEVEN,
    SIX,
    create_game,
    form_fields,
    game_form,
    hidden_fields,
    make_secretary,
    post_hand,
    random_game_document,
    record_hand,
    store_games,
    text_of,
)
from .test_budgets import statements


@pytest.fixture(autouse=True)
def secretary(app, client):
    """The client of these tests is a secretary of the club: it may rename, merge and unmerge people."""
    return make_secretary(app, client)


FLAT = [(5, 0), (5, 0), (4, 1), (4, 0), (4, 1), (4, 0)]  # 26 hearts, 2 Black Marias
MOON = [(26, 2), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]


def stats(client, query=""):
    response = client.get(f"/stats.json{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return {player["name"]: player for player in response.get_json()["players"]}


def people(app):
    """Every person not merged away: (id, name)."""
    with app.app_context():
        return db.session.execute(select(Person.id, Person.name).where(Person.merged_into_id.is_(None))
                                  .order_by(Person.id)).all()


def person_id(app, name):
    return next(person for person, shown in people(app) if shown == name)


def merges(app):
    """The ids of the merges in the club's trail, oldest first."""
    with app.app_context():
        return db.session.execute(select(PersonChange.id).where(PersonChange.action == "merge")
                                  .order_by(PersonChange.id)).scalars().all()


def table_rows(response):
    """The text of the season table's rows only."""
    return text_of(response).split("Black Marias", 1)[1]


def post_form(client, url, page_url, fields):
    """Post a form of the page at ``page_url`` (its CSRF token) with ``fields``."""
    return client.post(url, data={**hidden_fields(client, page_url), **fields})


# --- People, linked by name ----------------------------------------------------------------


def test_one_name_written_three_ways_is_one_person_shown_by_the_first_spelling(app, client):
    create_game(client, ["Ana", *SIX[1:]])
    create_game(client, ["ana ", *SIX[1:]])
    create_game(client, ["ＡＮＡ", *SIX[1:]])

    figures = stats(client)

    assert [name for _id, name in people(app)].count("Ana") == 1
    assert "ＡＮＡ" not in figures and figures["Ana"]["games"] == 3
    assert len(people(app)) == 6


def test_one_person_cannot_sit_twice_and_everything_typed_stays(client):
    names = ["Ana", "Bo", "Caio", "Ａｎａ", "Eli", "Fay"]
    fields = {**hidden_fields(client, "/games/new"), **game_form(names, target="99")}

    response = client.post("/games/new", data=fields)

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Ana is already at the table (seat 1)" in text_of(response)  # seat 1 named as it is written
    assert 'aria-describedby="seat-3-error"' in page and 'value="99"' in page and 'value="Caio"' in page


def test_two_spellings_of_one_merged_person_cannot_sit_together(app, client):
    create_game(client, ["Ana", *SIX[1:]])
    create_game(client, ["Anna", "Zoe", *SIX[2:]])
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    fields = {**hidden_fields(client, "/games/new"), **game_form(["Ana", "Anna", *SIX[2:]])}

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    assert "Anna and Ana are one person" in text_of(response)
    assert len(people(app)) == 7


def test_imported_restored_and_joining_players_are_linked(app, client):
    store_games(app, [random_game_document(random.Random(1), "Restored", 2, 3)])
    game_id = create_game(client, ELEVEN[:10])
    record_hand(client, game_id, [(3, 0)] * 8 + [(1, 1), (1, 1)])
    seating = f"/games/{game_id}/seating"

    response = post_form(client, seating, seating, {"name": " kai", "at": "0", "start_rule": "highest"})

    assert response.status_code == 302
    with app.app_context():
        assert db.session.execute(select(Player).where(Player.person_id.is_(None))).first() is None
        assert db.session.get(PersonName, "kai") is not None


def test_a_joiner_who_is_a_seated_player_under_a_merged_name_is_refused(app, client):
    game_id = create_game(client, ["Ana", *ELEVEN[1:6], "Gil"])
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    record_hand(client, game_id, [(4, 0), (4, 0), (4, 0), (4, 0), (4, 0), (3, 1), (3, 1)])
    seating = f"/games/{game_id}/seating"

    response = post_form(client, seating, seating, {"name": "Anna", "at": "0", "start_rule": "zero"})

    assert response.status_code == 400
    assert "Anna and Ana are one person" in text_of(response)
    assert 'value="Anna"' in response.get_data(as_text=True)


# --- Rename, merge, undo ------------------------------------------------------------------


def test_a_renamed_person_is_found_by_old_and_new_names_and_games_keep_theirs(app, client):
    game_id = create_game(client, SIX)
    bo = person_id(app, "Bo")

    response = post_form(client, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Robert"})
    create_game(client, ["robert", "Zoe", "Yan", "Xu", "Wes", "Val"])
    create_game(client, ["Bo", "Zoe", "Yan", "Xu", "Wes", "Val"], name="Later")

    assert response.status_code == 302
    assert stats(client)["Robert"]["games"] == 3  # typing "Bo" again finds Robert and renames nobody
    assert client.get(f"/games/{game_id}/export.json").get_json()["players"][1] == "Bo"


def test_a_rename_to_someone_elses_name_is_refused_next_to_the_field(app, client):
    create_game(client, SIX)
    bo = person_id(app, "Bo")

    response = post_form(client, f"/players/{bo}/rename", f"/players/{bo}", {"name": "ＡＮＡ"})

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "ＡＮＡ is already someone else's name" in text_of(response)
    assert 'value="ＡＮＡ"' in page and 'id="rename-name-error"' in page


@pytest.mark.parametrize("name, message", [
    ("", "Enter the name to show."),
    ("x" * 41, "Keep names to 40 characters."),
    ("A\tB", "A name cannot hold tabs"),
])
def test_a_bad_new_name_is_refused_in_words(app, client, name, message):
    create_game(client, SIX)
    bo = person_id(app, "Bo")

    response = post_form(client, f"/players/{bo}/rename", f"/players/{bo}", {"name": name})

    assert response.status_code == 400
    assert message in text_of(response)
    assert people(app)[1].name == "Bo"


def test_merging_adds_up_the_figures_and_undoing_it_splits_them_again(app, client):
    first = create_game(client, ["Ana", *SIX[1:]])
    record_hand(client, first, FLAT)
    second = create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    record_hand(client, second, MOON, moon="subtract")
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    before = stats(client)

    merged = post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    together = stats(client)
    redirected = client.get(f"/players/{anna}")
    create_game(client, ["ANNA", "Zoe", "Yan", "Xu", "Wes", "Val"], name="After the merge")
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    undone = post_form(client, f"/players/{ana}/undo", f"/players/{ana}", {"change": str(merges(app)[0])})
    apart = stats(client)

    assert merged.status_code == 302 and undone.status_code == 302
    assert f'name="change" value="{merges(app)[0]}"' in page
    assert together["Ana"]["games"] == 2 and "Anna" not in together
    assert together["Ana"]["points"] == before["Ana"]["points"] + before["Anna"]["points"]
    assert together["Ana"]["moons"] == 1
    assert redirected.headers["Location"] == f"/players/{ana}"  # a merged person's page leads to who they became
    assert apart["Ana"] == before["Ana"]
    assert apart["Anna"]["games"] == 2  # the game typed with their spelling since went back with them
    assert "ANNA" not in apart  # shown by their own name still


def test_a_merge_is_refused_for_two_who_played_together_and_an_undo_only_once(app, client):
    create_game(client, SIX, name="Friday")
    create_game(client, ["Ana", "Anna", "Yan", "Xu", "Wes", "Val"], name="Saturday")
    create_game(client, ["Cleo", "Zoe", "Yan", "Xu", "Wes", "Val"])
    ana, bo, anna, cleo = (person_id(app, name) for name in ("Ana", "Bo", "Anna", "Cleo"))

    together = post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(bo)})
    herself = post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(ana)})
    nobody = post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": ""})
    spaces = post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": " "})
    no_merge = post_form(client, f"/players/{ana}/undo", f"/players/{ana}", {"change": " "})
    post_form(client, f"/players/{anna}/merge", f"/players/{anna}", {"other": str(cleo)})
    merge_id = merges(app)[0]
    post_form(client, f"/players/{anna}/undo", f"/players/{anna}", {"change": str(merge_id)})
    again = post_form(client, f"/players/{anna}/undo", f"/players/{anna}", {"change": str(merge_id)})

    assert together.status_code == 400 and "Bo played in Friday with this person" in text_of(together)
    assert herself.status_code == 400 and "Choose someone other than this person." in text_of(herself)
    assert nobody.status_code == 400 and "Choose who to merge." in text_of(nobody)
    assert spaces.status_code == 400 and "Choose who to merge." in text_of(spaces)
    assert no_merge.status_code == 400 and "Choose the merge to undo." in text_of(no_merge)
    assert again.status_code == 400 and "That change was undone already." in text_of(again)
    assert len(people(app)) == 13


def test_a_merge_cannot_be_undone_once_the_survivor_was_merged_away(app, client):
    create_game(client, ["Ana", *SIX[1:]])
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    create_game(client, ["Ann", "Quin", "Pia", "Ola", "Nik", "Max"])
    ana, anna, ann = (person_id(app, name) for name in ("Ana", "Anna", "Ann"))
    post_form(client, f"/players/{anna}/merge", f"/players/{anna}", {"other": str(ann)})
    post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})

    page = client.get(f"/players/{anna}", follow_redirects=True)
    refused = post_form(client, f"/players/{anna}/undo", f"/players/{ana}", {"change": str(merges(app)[0])})

    assert "Ana" in text_of(page) and stats(client)["Ana"]["games"] == 3
    assert refused.status_code == 404  # Anna is merged away: her page is Ana's now


# --- Figures ---------------------------------------------------------------------------------


def plain_figures(documents, game_ids, day):
    """Each name's figures worked out by hand from game documents (stored as ``game_ids``, on ``day``): the
    seeds' scoring (R14-R16), and each name's best and worst finished game."""
    figures, finishes = {}, {}
    for game_id, document in zip(game_ids, documents):
        names, target = document["players"], document["target"]
        totals = [0] * len(names)
        for hand in document["hands"]:
            for seat, taken in enumerate(hand["taken"]):
                hearts, marias = taken["hearts"], taken["marias"]
                if hand["moon"] is None and (hearts, marias) != (26, 2):
                    points = hearts + 13 * marias
                elif (hearts, marias) == (26, 2):
                    points = -26 if hand["moon"] == "subtract" else 0
                else:
                    shooter_moon = hand["moon"]
                    points = 26 if shooter_moon == "add" else 0
                totals[seat] += points
                mine = figures.setdefault(names[seat], dict.fromkeys(
                    ["games", "finished", "wins", "hands", "points", "zero_hands", "moons", "hearts", "marias"], 0))
                mine["hands"] += 1
                mine["points"] += points
                mine["zero_hands"] += points == 0
                mine["moons"] += (hearts, marias) == (26, 2)
                mine["hearts"] += hearts
                mine["marias"] += marias
        over = max(totals) >= target
        for seat, name in enumerate(names):
            mine = figures.setdefault(name, dict.fromkeys(
                ["games", "finished", "wins", "hands", "points", "zero_hands", "moons", "hearts", "marias"], 0))
            mine["games"] += 1
            mine["finished"] += over
            mine["wins"] += over and totals[seat] == min(totals)
            if over:
                others = totals[:seat] + totals[seat + 1:]
                finishes.setdefault(name, []).append({
                    "game": game_id, "name": document["name"], "day": day, "place": 1 + sum(
                        total < totals[seat] for total in others), "players": len(names),
                    "margin": min(others) - totals[seat], "total": totals[seat]})
    for name, mine in figures.items():
        games = finishes.get(name, [])
        mine["best_game"] = min(games, key=lambda game: (game["place"], -game["margin"], -game["game"]), default=None)
        mine["worst_game"] = min(games, key=lambda game: (game["players"] - game["place"], game["margin"],
                                                          -game["game"]), default=None)
        mine["points_per_hand"] = (float((Decimal(mine["points"]) / mine["hands"]).quantize(
            Decimal("0.1"), ROUND_HALF_UP)) if mine["hands"] else None)
        mine["win_rate"] = round(mine["wins"] / mine["finished"], 4) if mine["finished"] else None
    return figures


def test_the_figures_match_a_plain_model_over_generated_games(app, client):
    chance = random.Random(15)
    documents = [random_game_document(chance, f"Game {number}", 0, 12) for number in range(40)]
    game_ids = [game_id for game_id, _key in store_games(app, documents)]

    figures = stats(client)

    expected = plain_figures(documents, game_ids, date.today().isoformat())
    rated = ("name", "rating", "mu", "sigma", "provisional")  # the ratings are the engine of tests/test_ratings.py
    assert {name: {key: value for key, value in mine.items() if key not in rated} for name, mine in figures.items()} \
        == expected
    assert list(figures) == sorted(figures, key=str.casefold)


def test_a_corrected_hand_flows_into_the_figures(client):
    game_id = create_game(client, SIX)
    record_hand(client, game_id, FLAT)
    before = stats(client)["Ana"]

    post_hand(client, game_id, MOON, number=1, moon="add")

    after = stats(client)["Ana"]
    assert (before["points"], before["moons"], before["hearts"]) == (5, 0, 5)
    assert (after["points"], after["moons"], after["hearts"], after["zero_hands"]) == (0, 1, 26, 1)
    assert stats(client)["Bo"]["points"] == 26


def test_a_late_joiners_start_is_not_counted_in_their_points(app, client):
    game_id = create_game(client, ELEVEN[:10])
    record_hand(client, game_id, [(3, 0)] * 8 + [(1, 1), (1, 1)])
    seating = f"/games/{game_id}/seating"
    post_form(client, seating, seating, {"name": "Kai", "at": "0", "start_rule": "highest"})
    record_hand(client, game_id, [(0, 0)] + [(3, 0)] * 8 + [(1, 1), (1, 1)])

    kai = stats(client)["Kai"]

    assert (kai["hands"], kai["points"], kai["zero_hands"], kai["points_per_hand"]) == (1, 0, 1, 0.0)
    assert "14" in text_of(client.get(f"/players/{person_id(app, 'Kai')}"))  # their total, start included


def test_points_a_hand_round_half_up():
    from scorekeeper import rules

    assert rules.Figures(hands=4, points=37).points_per_hand == Decimal("9.3")  # 9.25
    assert rules.Figures(hands=41, points=377).points_per_hand == Decimal("9.2")
    assert rules.Figures(hands=4, points=-37).points_per_hand == Decimal("-9.3")
    assert rules.Figures().points_per_hand is None


# --- Filters and sorting ------------------------------------------------------------------


def test_the_date_filters_count_games_played_in_the_days_chosen(app, client):
    for day in (1, 15, 30):
        game_id = create_game(client, SIX)
        with app.app_context():  # the day it was played, not the moment it was made here
            db.session.execute(update(Game).where(Game.id == game_id).values(played_on=date(2026, 11, day),
                                                                            created_at=datetime(2026, 12, 1)))
            db.session.commit()

    assert stats(client)["Ana"]["games"] == 3
    assert stats(client, "?since=2026-11-15")["Ana"]["games"] == 2
    assert stats(client, "?until=2026-11-15")["Ana"]["games"] == 2
    assert stats(client, "?since=2026-11-15&until=2026-11-15")["Ana"]["games"] == 1
    assert stats(client, "?since=2026-12-01") == {}
    assert stats(client, "?min_games=4") == {}
    assert stats(client, "?min_games=3")["Ana"]["games"] == 3


@pytest.mark.parametrize("query, message", [
    ("?since=yesterday", "Write the day as year-month-day, like 2026-12-01."),
    ("?since=2026-02-30", "Write the day as year-month-day"),
    ("?until=2026-W01-1", "Write the day as year-month-day"),
    ("?since=2026-12-02&until=2026-12-01", "The last day comes before the first."),
    ("?min_games=-1", "Type the least number of games as a whole number."),
    ("?min_games=99999999999999999999", "Type the least number of games as a whole number."),
])
def test_bad_filters_are_refused_in_words_on_the_page_and_in_json(client, query, message):
    create_game(client, SIX)

    page = client.get(f"/players{query}")
    document = client.get(f"/stats.json{query}")

    assert page.status_code == 400 and message in text_of(page)
    assert document.status_code == 400 and message in document.get_json()["error"]


def test_the_season_table_sorts_by_any_column_either_way(client):
    game_id = create_game(client, SIX)
    record_hand(client, game_id, FLAT)

    by_points = table_rows(client.get("/players?sort=points"))  # the fewest first (issue 24)
    by_points_high_first = table_rows(client.get("/players?sort=-points"))
    by_name = table_rows(client.get("/players?sort=name"))

    assert by_points.index("Dee") < by_points.index("Ana") < by_points.index("Caio")
    assert by_points_high_first.index("Caio") < by_points_high_first.index("Ana") < by_points_high_first.index("Dee")
    assert by_name.index("Ana") < by_name.index("Bo") < by_name.index("Caio")
    assert client.get("/players?sort=nonsense").status_code == 200


def test_the_person_page_shows_their_record_and_games(app, client):
    won = create_game(client, SIX, target=10, name="Short one")
    record_hand(client, won, [(0, 0), (6, 0), (5, 0), (5, 0), (5, 1), (5, 1)])
    create_game(client, SIX, name="Still open")

    page = text_of(client.get(f"/players/{person_id(app, 'Ana')}"))

    assert "Short one" in page and "Still open" in page
    assert "Won" in page and "In progress" in page
    assert "Best game Short one 0 points" in page


def test_a_person_pages_kept_rows_follow_a_hand_a_rename_and_the_language(app, client):
    game_id = create_game(client, SIX, target=10, name="Short one")
    bo = person_id(app, "Bo")
    client.get(f"/players/{bo}")  # the rows are written and kept

    record_hand(client, game_id, [(6, 0), (0, 0), (5, 0), (5, 0), (5, 1), (5, 1)])
    post_form(client, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Robert"})
    english = text_of(client.get(f"/players/{bo}"))
    portuguese = text_of(client.get(f"/players/{bo}", headers={"Accept-Language": "pt"}))

    assert "Won" in english and "In progress" not in english
    assert "as Bo" in english  # they played that game as Bo, and are Robert now
    assert "Vitória" in portuguese and "Won" not in portuguese


def test_the_season_tables_kept_rows_follow_a_hand_a_rename_and_the_language(app, client):
    game_id = create_game(client, SIX, target=100, name="Long one")
    record_hand(client, game_id, [(5, 0), (4, 1), (5, 0), (4, 0), (4, 0), (4, 1)])
    bo = person_id(app, "Bo")
    client.get("/players")  # the rows are written and kept

    record_hand(client, game_id, [(6, 0), (0, 0), (5, 0), (5, 0), (5, 1), (5, 1)])  # Bo stays on 17
    post_form(client, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Robert"})
    english = table_rows(client.get("/players"))
    portuguese = text_of(client.get("/players", headers={"Accept-Language": "pt"}))

    assert "Robert" in english and "Bo " not in english
    # Robert's row: rating, games, finished, wins, win rate, hands, points, points a hand (a hand of 17 and 0).
    assert re.search(r"Robert [−\d.]+\?? 1 0 0 – 2 17 8\.5 ", english), english
    assert re.search(r"Robert [−\d,]+\?? 1 0 0 – 2 17 8,5 ", portuguese), portuguese  # a decimal comma


def test_a_person_page_that_does_not_exist_is_404(client):
    assert client.get("/players/999").status_code == 404
    assert client.get("/players/99999999999999").status_code == 404


# --- Quick picks on New game -----------------------------------------------------------------


def test_new_game_offers_the_last_table_and_known_people(client):
    create_game(client, ELEVEN[:7])
    page = client.get("/games/new").get_data(as_text=True)
    fields = form_fields(page)

    again = client.post("/games/new", data={**fields, **game_form([""] * 6), "table": "\n".join(ELEVEN[:7])})
    picked = client.post("/games/new", data={**fields, **game_form(["Bo", "", "", "", "", ""]), "pick": "Gil"})

    assert 'name="pick" value="Gil"' in page and 'name="table"' in page
    assert again.status_code == 200 and 'value="Gil"' in again.get_data(as_text=True)
    assert 'id="seat-6"' in again.get_data(as_text=True)
    assert 'name="players-1" value="Gil"' in picked.get_data(as_text=True)


# --- Costs --------------------------------------------------------------------------------------


# A person's page as the secretary sees it: the person; their figures (any stale? the ratings up to date? their
# sums with their best and worst games' ids; those games); a page of their games; the secretary's pass checked,
# whom they could merge with, the merges made; and whom they finished three games or more with, head to head.
MOST_STATEMENTS = {"/players/{ana}": 10}


@pytest.mark.parametrize("path", ["/players", "/stats.json", "/players/{ana}", "/games/new"])
def test_the_club_pages_cost_the_same_few_statements_for_few_games_or_many(app, client, path):
    chance = random.Random(3)
    store_games(app, [random_game_document(chance, f"G{number}", 0, 4) for number in range(3)])
    record_hand(client, create_game(client, SIX, target=10), [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)])
    assert client.get(path.format(ana=person_id(app, "Ana"))).status_code == 200  # the games are scored
    few = statements(app, client, path.format(ana=person_id(app, "Ana")))
    store_games(app, [random_game_document(chance, f"H{number}", 0, 4) for number in range(30)])
    client.get(path.format(ana=person_id(app, "Ana")))  # the new games are scored

    many = statements(app, client, path.format(ana=person_id(app, "Ana")))

    assert few == many and many <= MOST_STATEMENTS.get(path, 6), f"{path}: {few} then {many}"


def test_the_season_costs_the_same_four_statements_before_and_after_a_hand(app, client):
    chance = random.Random(4)
    store_games(app, [random_game_document(chance, f"G{number}", 0, 4) for number in range(20)])
    client.get("/stats.json")  # the imports' finished games: the club's ratings are worked out again, once

    first, again = statements(app, client, "/stats.json"), statements(app, client, "/stats.json")
    record_hand(client, create_game(client, SIX), [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)])
    changed = statements(app, client, "/stats.json")

    # Are any figures stale? Are the ratings up to date? Each person, their best and worst games' ids; those games.
    assert first == again == changed == 4


def test_importing_a_game_where_two_merged_spellings_sat_together_is_refused_in_words(app, client):
    first = create_game(client, ["Ana", *SIX[1:]])
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    document = client.get(f"/games/{first}/export.json").get_data().replace(b'"Bo"', b'"Anna"')
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    token = hidden_fields(client, "/games/import")["csrf_token"]

    response = client.post("/games/import", data={"csrf_token": token, "document": (io.BytesIO(document), "g.json")},
                           content_type="multipart/form-data")

    assert response.status_code == 400
    assert "Anna and Ana are one person" in text_of(response)
    with app.app_context():
        assert db.session.execute(select(db.func.count(Game.id))).scalar() == 2


def test_those_without_a_figure_sort_last_either_way_and_best_and_worst_count_finished_games(client):
    finished = create_game(client, SIX, target=10, name="Short one")
    record_hand(client, finished, [(0, 0), (6, 0), (5, 0), (5, 0), (5, 1), (5, 1)])
    create_game(client, ["Nobody", "Bo", "Caio", "Dee", "Eli", "Fay"], name="Not started")

    low_first = table_rows(client.get("/players?sort=points_per_hand"))
    high_first = table_rows(client.get("/players?sort=-points_per_hand"))
    by_best = table_rows(client.get("/players?sort=best"))

    assert low_first.index("Ana") < low_first.index("Nobody") and high_first.index("Fay") < high_first.index("Nobody")
    rating = re.compile(r"\b(Ana|Bo|Caio|Dee|Eli|Fay|Nobody) -?[0-9]+\.[0-9]\?? ")  # a rating after each name
    rows = rating.sub(r"\1 ", by_best)
    assert rows.index("Ana 1 1 1 100% 1 0 0.0") < rows.index("Nobody")
    assert "Nobody 1 0 0 – 0 0 – 0 0 0 0 – –" in rows
    assert "Nobody 0.0? 1 0 0" in by_best  # no finished game: the rating everyone starts with, mu 25 - 3 x 25/3


def test_two_tables_starting_games_with_one_new_name_at_once_both_start_and_share_one_person(app):
    from scorekeeper import service

    rounds = 6
    outcomes = []
    for round_number in range(rounds):
        newcomer = f"Newcomer {round_number}"
        tables = [[newcomer, *(f"{prefix}{seat}" for seat in range(5))] for prefix in ("Left ", "Right ")]
        barrier = threading.Barrier(len(tables))

        def start(names, outcome):
            with app.app_context():
                barrier.wait()
                try:
                    service.new_game("Race", 150, 0, names)
                    outcome.append("started")
                except Exception as error:  # noqa: BLE001 - the outcome is what the test checks
                    outcome.append(type(error).__name__)
                finally:
                    db.session.remove()

        results = [[], []]
        threads = [threading.Thread(target=start, args=pair) for pair in zip(tables, results)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        outcomes.append(sorted(result[0] for result in results))

    season = {player["name"]: player["games"] for player in app.test_client().get("/stats.json").get_json()["players"]}
    assert outcomes == [["started", "started"]] * rounds
    assert all(season[f"Newcomer {number}"] == 2 for number in range(rounds))


# --- What a process keeps of a game follows a merge (issue 33) ------------------------------------------


def test_a_hand_after_a_merge_counts_for_the_person_merged_into_in_every_process(app, client, database_uri):
    table_app = create_app({"TESTING": True, "SECRET_KEY": "test secret key", "SQLALCHEMY_DATABASE_URI": database_uri})
    table = table_app.test_client()
    game = create_game(table, ["Anna", *SIX[1:]])
    record_hand(table, game, FLAT)
    table.get(f"/games/{game}")  # the table's process keeps the game, with who its players were
    create_game(client, ["Ana", "Zoe", "Yan", "Xu", "Wes", "Val"])
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")

    merged = post_form(client, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    record_hand(table, game, FLAT)  # in the process that kept the game from before the merge

    try:
        assert merged.status_code == 302
        together = stats(client)
        assert "Anna" not in together and together["Ana"]["games"] == 2 and together["Ana"]["hands"] == 2
        with table_app.app_context():
            assert service.figures.check() == []
        checked = app.test_cli_runner().invoke(args=["refigure", "--check"])
        assert checked.exit_code == 0 and "Every kept figure is what the hands say." in checked.output
    finally:
        close(table_app)


def test_after_a_rename_in_another_process_the_season_and_person_pages_are_a_fresh_processs(app, client,
                                                                                            database_uri):
    config = {"TESTING": True, "SECRET_KEY": "test secret key", "SQLALCHEMY_DATABASE_URI": database_uri}
    watching_app, fresh_app = create_app(config), None
    watcher = watching_app.test_client()
    game = create_game(client, SIX, target=100)
    record_hand(client, game, FLAT)
    bo = person_id(app, "Bo")
    pages = ["/players", f"/players/{bo}", "/stats.json", "/players.csv", f"/players/{person_id(app, 'Ana')}"]
    for page in pages:
        watcher.get(page)  # the watching process keeps its rows

    post_form(client, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Robert"})
    try:
        fresh_app = create_app(config)
        fresh = fresh_app.test_client()
        for page in pages:
            assert watcher.get(page).get_data() == fresh.get(page).get_data(), page
        assert "Robert" in text_of(watcher.get("/players"))
    finally:
        close(watching_app)
        if fresh_app is not None:
            close(fresh_app)
