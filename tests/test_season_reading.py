"""A season a club can read (issue 34): head to head on a person's page, provisional ratings marked, sorted
below the settled ones and hidden on asking, and each person's best game with its name and day in
/players.csv and /stats.json."""

import csv
import io
import re
from datetime import date, timedelta

from scorekeeper import service

from .tabletop import game_document, hidden_fields, make_scorer, make_secretary, post_hand, store_games, text_of

TWENTY = [(7, 1), (5, 0), (4, 1), (4, 0), (3, 0), (3, 0)]  # seat by seat 20, 5, 17, 4, 3, 3 points: over at 20
FIRST_DAY = date(2026, 9, 4)


def one_hand_game(name, names, day, taken=TWENTY, target=20):
    """A game of one hand (over at ``target``), played on ``day``, as a backup holds it."""
    hand = {"number": 1, "taken": [{"hearts": hearts, "marias": marias} for hearts, marias in taken],
            "uncollected": {"hearts": 0, "marias": 0}, "moon": None}
    return {**game_document(name, names, 0, target, [hand]), "version": 2, "played_on": day.isoformat()}


def rivals(client, person_id):
    """The head-to-head table of a person's page: ``{name: (games, ahead, level, behind)}`` in its order."""
    page = client.get(f"/players/{person_id}").get_data(as_text=True)
    table = re.search(r'<table class="person-games rivals">(.*?)</table>', page, re.S)
    if table is None:
        return {}
    rows = re.findall(r'<th scope="row"><a [^>]*>([^<]*)</a></th>(.*?)</tr>', table.group(1), re.S)
    return {name: tuple(int(cell) for cell in re.findall(r'<td class="num"[^>]*>(\d+)</td>', cells))
            for name, cells in rows}


def person_ids(client):
    return {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}


def ids_by_name(app):
    from sqlalchemy import select

    from scorekeeper.db.models import Person, db

    with app.app_context():
        return dict(db.session.execute(select(Person.name, Person.id)).all())


def test_head_to_head_counts_the_finished_counted_games_met_three_times_and_follows_a_correction(app, client):
    # Ana finishes last, fourth from the top, then shares the win with Fa; Bo, Cy and the rest meet her 3 times.
    games = store_games(app, [
        one_hand_game("One", ["Ana", "Bo", "Cy", "Di", "Ed", "Fa"], FIRST_DAY),
        one_hand_game("Two", ["Bo", "Ana", "Cy", "Di", "Ed", "Fa"], FIRST_DAY + timedelta(days=7)),
        one_hand_game("Three", ["Cy", "Di", "Bo", "Ed", "Ana", "Fa"], FIRST_DAY + timedelta(days=14)),
        one_hand_game("Left out", ["Ana", "Bo", "Gil", "Hana", "Ivo", "Jun"], FIRST_DAY + timedelta(days=21)),
        one_hand_game("Open", ["Ana", "Bo", "Gil", "Hana", "Ivo", "Jun"], FIRST_DAY + timedelta(days=28),
                      target=100),
    ])
    secretary = make_secretary(app, app.test_client())
    left_out = games[3][0]
    response = secretary.post(f"/games/{left_out}/season", data={**hidden_fields(secretary, f"/games/{left_out}"),
                                                                 "action": "void", "reason": "A practice game"})
    assert response.status_code == 302
    ana = ids_by_name(app)["Ana"]

    # Behind, ahead, ahead (Bo); behind, ahead, ahead (Cy); behind, behind, ahead (Di, Ed); level once with Fa.
    assert rivals(client, ana) == {"Bo": (3, 2, 0, 1), "Cy": (3, 2, 0, 1), "Di": (3, 1, 0, 2), "Ed": (3, 1, 0, 2),
                                   "Fa": (3, 0, 1, 2)}
    assert "Head to head" in text_of(client.get(f"/players/{ana}"))
    assert rivals(client, ids_by_name(app)["Gil"]) == {}  # met Ana in a game left out and one still open

    # Game three corrected: Ana takes 4 points and Ed 3, so she finishes behind Ed and Fa, still ahead of Di.
    three = games[2][0]
    make_scorer(app, secretary, three)
    assert post_hand(secretary, three, [(7, 1), (5, 0), (4, 1), (3, 0), (4, 0), (3, 0)], number=1).status_code == 302
    after = rivals(client, ana)
    assert (after["Ed"], after["Fa"], after["Di"]) == ((3, 0, 0, 3), (3, 0, 0, 3), (3, 1, 0, 2))

    # Counted again, the game of Gil's first meeting with Ana counts: still only twice met, nobody shown.
    response = secretary.post(f"/games/{left_out}/season", data={**hidden_fields(secretary, f"/games/{left_out}"),
                                                                 "action": "count"})
    assert response.status_code == 302
    assert rivals(client, ana)["Bo"] == (4, 2, 0, 2) and rivals(client, ids_by_name(app)["Gil"]) == {}


def test_a_rating_is_provisional_by_its_uncertainty_or_its_few_games():
    settled = service.ratings.Rating(30.0, service.ratings.PROVISIONAL_SIGMA)
    unsure = service.ratings.Rating(30.0, service.ratings.PROVISIONAL_SIGMA + 0.01)
    enough = service.ratings.FEWEST_FINISHED
    assert not service.ratings.provisional(settled, enough)
    assert service.ratings.provisional(settled, enough - 1)
    assert service.ratings.provisional(unsure, enough + 20)
    assert service.ratings.provisional(service.ratings.NEW, 0)


def regulars_and_newcomers(app):
    """Twelve games of six regulars, their places turning round the table, then a game where three newcomers
    beat three of them: the newcomers' ratings are provisional (one game each) and one of them is shown above
    a settled regular's."""
    regulars = ["Ana", "Bo", "Cy", "Di", "Ed", "Fa"]
    documents = [one_hand_game(f"Week {week + 1}", regulars[week % 6:] + regulars[:week % 6],
                               FIRST_DAY + timedelta(days=7 * week)) for week in range(12)]
    documents.append(one_hand_game("Open night", ["Di", "Ed", "Fa", "Newt", "Nia", "Noor"],
                                   FIRST_DAY + timedelta(days=7 * 12)))
    store_games(app, documents)


def rating_cells(client, query=""):
    """The season's table's names and rating cells, in its order."""
    page = client.get(f"/players{query}").get_data(as_text=True)
    return re.findall(r'<th scope="row"><a [^>]*>([^<]*)</a></th>\s*<td class="num">([^<]*)</td>', page)


def test_provisional_ratings_are_marked_sorted_below_and_hidden_on_asking(app, client):
    regulars_and_newcomers(app)
    stats = person_ids(client)
    provisional = {name for name, player in stats.items() if player["provisional"]}
    assert provisional == {"Newt", "Nia", "Noor"}
    assert all(player["sigma"] <= service.ratings.PROVISIONAL_SIGMA for name, player in stats.items()
               if name not in provisional)
    # The sort matters: a newcomer's figure is above a settled regular's.
    assert max(stats[name]["rating"] for name in provisional) > min(
        player["rating"] for name, player in stats.items() if name not in provisional)

    for query in ("", "?sort=rating", "?sort=-rating"):
        cells = rating_cells(client, query)
        marked = [cell.endswith("?") for _name, cell in cells]
        assert marked == sorted(marked), (query, cells)  # every provisional one below every settled one
        assert {name for name, cell in cells if cell.endswith("?")} == provisional
        for group in (False, True):
            figures = [float(cell.rstrip("?")) for name, cell in cells if cell.endswith("?") == group]
            assert figures == sorted(figures, reverse=query != "?sort=-rating"), (query, cells)

    hidden = client.get("/players?settled=y")
    assert {name for name, _cell in rating_cells(client, "?settled=y")} == set(stats) - provisional
    assert "3 players with a provisional rating are hidden." in text_of(hidden)
    assert 'id="settled" name="settled" value="y" checked' in hidden.get_data(as_text=True)
    assert set(person_ids(client)) == set(stats)
    assert {player["name"] for player in client.get("/stats.json?settled=y").get_json()["players"]} == \
        set(stats) - provisional
    spreadsheet = list(csv.DictReader(io.StringIO(
        client.get("/players.csv?settled=y").get_data(as_text=True).removeprefix("\ufeff"))))
    assert {row["Player"] for row in spreadsheet} == set(stats) - provisional
    assert {row["Rating provisional"] for row in spreadsheet} == {"no"}
    newt = ids_by_name(app)["Newt"]
    assert "Provisional: fewer than 5 finished games" in text_of(client.get(f"/players/{newt}"))


def test_the_best_game_with_its_name_and_day_is_in_the_spreadsheet_and_the_json(app, client):
    store_games(app, [
        one_hand_game("Club night", ["Ana", "Bo", "Cy", "Di", "Ed", "Fa"], FIRST_DAY),
        one_hand_game("Cup final", ["Bo", "Cy", "Di", "Ed", "Ana", "Fa"], FIRST_DAY + timedelta(days=3)),
        # A wider win for Fa, and Ana's a shared one: her best game stays the Cup final.
        one_hand_game("Rematch", ["Bo", "Cy", "Di", "Ed", "Ana", "Fa"], FIRST_DAY + timedelta(days=5),
                      taken=[(7, 1), (5, 0), (4, 1), (4, 0), (5, 0), (1, 0)]),
    ])
    stats = person_ids(client)
    assert stats["Ana"]["best_game"] == {"game": stats["Ana"]["best_game"]["game"], "name": "Cup final",
                                         "day": "2026-09-07", "place": 1, "players": 6, "margin": 0, "total": 3}
    assert stats["Fa"]["best_game"]["name"] == "Rematch" and stats["Fa"]["best_game"]["margin"] == 3
    assert stats["Ana"]["worst_game"]["name"] == "Club night" and stats["Ana"]["worst_game"]["day"] == "2026-09-04"

    for query, separator in (("", ","), ("?sep=semicolon", ";")):
        text = client.get(f"/players.csv{query}").get_data(as_text=True)
        rows = {row["Player"]: row
                for row in csv.DictReader(io.StringIO(text.removeprefix("\ufeff")), delimiter=separator)}
        assert (rows["Ana"]["Best game"], rows["Ana"]["Best game's name"], rows["Ana"]["Best game's day"]) == (
            "1/6 +0", "Cup final", "2026-09-07")
        assert (rows["Fa"]["Best game's name"], rows["Fa"]["Best game's day"]) == ("Rematch", "2026-09-09")
