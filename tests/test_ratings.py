"""The club's ratings (issue 26): openskill's Plackett-Luce over every counted finished game in the order played,
ranked by final totals; kept, followed one game at a time or worked out again, and always what rating the whole
season from the first game gives."""

import csv
import io
import random
from datetime import date, timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import rules, service
from scorekeeper.db.models import Club, Game, Person, PersonChange, db
from scorekeeper.service.ratings import NEW, Rating, rated

from .tabletop import ELEVEN, assert_figures_are_fresh, at_table, make_secretary, random_taken

WIN_BY_FIVE = [rules.Taken(0, 0), rules.Taken(6, 0), rules.Taken(5, 0), rules.Taken(5, 0), rules.Taken(5, 1),
               rules.Taken(5, 1)]


@pytest.fixture
def in_app(app):
    with app.app_context():
        yield app


def finished_game(names, taken=WIN_BY_FIVE, played_on=None, target=10):
    """A game of ``names`` finished by one hand (the target is low), through the service."""
    game = service.new_game("Night", target, 0, names)
    if played_on is not None:
        service.change_game_date(game, played_on)
    game = db.session.get(Game, game.id)
    service.record_hand(at_table(game), taken, None, False, game.revision)
    return db.session.get(Game, game.id)


def person(name):
    return db.session.execute(select(Person.id).where(Person.name == name)).scalar_one()


# --- The model --------------------------------------------------------------------------------


def test_everyone_starts_at_mu_25_sigma_25_thirds_shown_as_0():
    assert (NEW.mu, NEW.sigma) == (25.0, 25 / 3)
    assert NEW.shown == pytest.approx(0.0)


def test_one_game_rates_the_table_by_place_as_openskill_does_equal_places_sharing_a_rank():
    table = [("Ana", 1), ("Bo", 2), ("Caio", 2), ("Dee", 4)]

    after = rated({"Dee": Rating(30.0, 4.0)}, table)

    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()], [model.rating(mu=30.0, sigma=4.0)]],
                          ranks=[1, 2, 2, 4])
    assert [(after[name].mu, after[name].sigma) for name, _place in table] == [
        (team[0].mu, team[0].sigma) for team in expected]
    assert after["Ana"].mu > 25 > after["Dee"].mu - 5
    assert after["Bo"] == after["Caio"]  # a shared place is one result
    assert all(rating.sigma < 25 / 3 for rating in after.values())


# --- Kept in the database, following the hands ------------------------------------------------


def test_a_game_finished_after_every_other_is_rated_at_once_in_its_own_write(in_app):
    finished_game(ELEVEN[:6])
    assert_figures_are_fresh()  # the first game: the ratings were worked out from it, and kept
    version = db.session.execute(select(Club.ratings_version)).scalar()

    finished_game(ELEVEN[:6], taken=WIN_BY_FIVE[::-1])

    assert db.session.execute(select(Club.ratings_version)).scalar() == version  # followed, not worked out again
    assert_figures_are_fresh()
    assert service.refreshing.kept_ratings()[person("Ana")].sigma < NEW.sigma


def test_a_game_played_earlier_is_rated_in_its_place_and_a_correction_follows(in_app):
    today = date.today()
    later = finished_game(ELEVEN[:6], played_on=today)
    finished_game(ELEVEN[1:7], taken=WIN_BY_FIVE[::-1], played_on=today - timedelta(days=7))  # imported late

    assert_figures_are_fresh()  # worked out again: the earlier game first
    hand = db.session.get(Game, later.id)
    service.correct_hand(hand, 1, WIN_BY_FIVE[::-1], None, False, hand.revision)
    assert_figures_are_fresh()


def test_random_games_corrections_voids_dates_and_merges_keep_the_ratings_as_a_fresh_rating_gives(in_app):
    rng = random.Random(26)
    names = ELEVEN + ["Lia", "Mo"]
    games = []
    for step in range(40):
        kind = rng.choice(["new", "new", "hand", "hand", "correct", "void", "date", "merge", "undo merge"])
        if kind == "new" or not games:
            seated = rng.sample(names, rng.randint(6, 8))
            try:
                games.append(service.new_game(f"Night {step}", rng.choice([15, 30, 60]), 0, seated).id)
            except service.SamePerson:
                pass  # two names merged into one person cannot sit at one table
            continue
        game = db.session.get(Game, rng.choice(games))
        board = game.scoreboard()
        if kind == "hand" and not board.over:
            service.record_hand(at_table(game), random_taken(rng, len(board.next_hand.seating)), "subtract", True,
                                game.revision)
        elif kind == "correct" and board.hands:
            number = rng.randint(1, len(board.hands))
            try:
                service.correct_hand(game, number, random_taken(rng, len(board.hands[number - 1].seating)),
                                     "subtract", True, game.revision)
            except rules.RuleError:
                pass  # a correction the game cannot take (it would end sooner than its later hands)
        elif kind == "void":
            (service.count_game_again if game.voided_at else service.void_game)(game, "practice")
        elif kind == "date":
            service.change_game_date(game, date.today() - timedelta(days=rng.randint(0, 30)))
        elif kind == "merge":
            one, other = rng.sample(db.session.execute(select(Person).where(Person.merged_into_id.is_(None)))
                                    .scalars().all(), 2)
            try:
                service.merge_people(one, other)
            except service.PeopleRefused:
                pass  # they sat at one table
        elif kind == "undo merge":
            merges = db.session.execute(select(PersonChange).where(PersonChange.action == "merge")).scalars().all()
            for change in rng.sample(merges, len(merges)):
                try:
                    service.undo_merge(change)
                    break
                except service.PeopleRefused:
                    continue
        db.session.remove()

        assert_figures_are_fresh()


# --- On the pages -------------------------------------------------------------------------------


def test_the_seasons_table_sorts_by_rating_highest_first_and_stats_and_the_spreadsheet_carry_it(app, client):
    with app.app_context():
        finished_game(ELEVEN[:6])
        finished_game(ELEVEN[:6], taken=WIN_BY_FIVE)
        ratings = service.refreshing.kept_ratings()
        shown = {name: ratings[person(name)].shown for name in ELEVEN[:6]}

    stats = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}
    english = client.get("/players.csv").get_data()
    portuguese = client.get("/players.csv", headers={"Accept-Language": "pt"}).get_data()
    rows = list(csv.reader(io.StringIO(english.decode("utf-8-sig"))))

    assert rows[0][:4] == ["Player", "Rating", "Rating provisional", "Games"]
    assert [row[0] for row in rows[1:]] == sorted(shown, key=lambda name: -shown[name])  # the page's order
    assert {row[0]: float(row[1]) for row in rows[1:]} == {name: round(value, 1) for name, value in shown.items()}
    assert english == portuguese  # the same bytes in every language
    assert stats["Ana"]["rating"] == round(shown["Ana"], 2) and stats["Ana"]["sigma"] < 25 / 3
    assert "Rating" in client.get("/players").get_data(as_text=True)
    assert client.get("/players.csv?sep=pipe").status_code == 400
    assert client.get("/players.csv?since=yesterday").status_code == 400


def test_a_season_of_some_days_rates_only_its_games(app, client):
    with app.app_context():
        finished_game(ELEVEN[:6], played_on=date.today() - timedelta(days=40))
        finished_game(ELEVEN[:6], taken=WIN_BY_FIVE[::-1])

    recent = {player["name"]: player for player in client.get(
        f"/stats.json?since={(date.today() - timedelta(days=7)).isoformat()}").get_json()["players"]}

    alone = rated({}, [("Fay", 1), ("Eli", 2), ("Dee", 2), ("Caio", 4), ("Ana", 5), ("Bo", 6)])
    assert recent["Fay"]["mu"] == round(alone["Fay"].mu, 2)


def test_a_merge_makes_one_rating_of_two_people_and_the_secretary_sees_it(app, client):
    make_secretary(app, client)
    with app.app_context():
        finished_game(["Bob", *ELEVEN[1:6]])
        finished_game(["Robert", *ELEVEN[1:6]], taken=WIN_BY_FIVE[::-1])
        bob, robert = db.session.get(Person, person("Bob")), db.session.get(Person, person("Robert"))
        service.merge_people(bob, robert)
        assert_figures_are_fresh()
        merged = service.refreshing.kept_ratings()[bob.id]

    stats = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}

    assert "Robert" not in stats and stats["Bob"]["games"] == 2
    assert stats["Bob"]["mu"] == round(merged.mu, 2)


def test_a_person_page_shows_their_rating_and_charts_it_over_their_finished_games(app, client):
    with app.app_context():
        for taken in (WIN_BY_FIVE, WIN_BY_FIVE[::-1], WIN_BY_FIVE):
            finished_game(ELEVEN[:6], taken=taken)
        ana = person("Ana")
        rating = service.refreshing.kept_ratings()[ana]

    page = client.get(f"/players/{ana}").get_data(as_text=True)

    shown = str(rating.rounded(rating.shown, 1))
    assert f"<dt>Rating</dt><dd>{shown}?</dd>" in page  # provisional: three finished games
    assert "Provisional: fewer than 5 finished games" in page
    assert page.count('class="rating"') == 1 and "Their rating after each of the 3 finished games" in page
    assert f"to {shown};" in page
