"""A club night through the service (issue 36, R18): opened, people checked in, each round drawn into one game
a table in one transaction, a round that must finish (or be closed) before the next is drawn, late arrivals
and early leavers, and a standing derived from the tables' hands, which a correction moves at once."""

from datetime import date
from fractions import Fraction

import pytest
from sqlalchemy import select

from scorekeeper import rules, service
from scorekeeper.db.models import Game, NightPlayer, Person, Player, db

from .tabletop import make_scorer, post_hand, record_hand

CLUB = [f"Player {letter}" for letter in "ABCDEFGHIJKLMNOPQRSTUV"]  # 22 people
NIGHT_DAY = date(2026, 11, 27)


def hand_for(seats, heavy=0):
    """One hand's takings at a table of ``seats``: seat ``heavy`` 23 points, the next two 21 and 8 between
    them, everyone else nothing (R14)."""
    taken = [(0, 0)] * seats
    for offset, counts in enumerate([(10, 1), (8, 1), (8, 0)]):
        taken[(heavy + offset) % seats] = counts
    return taken


def open_night_of(app, people=CLUB, deals=2):
    with app.app_context():
        night = service.nights.open_night("Club night", target=150, deals=deals, played_on=NIGHT_DAY)
        service.nights.check_in(night, people)
        return night


def rounds(app, night):
    with app.app_context():
        return service.nights.night_rounds(night)


def play_round(app, client, night, number, heavy=0):
    """Every table of round ``number`` plays its round's hands (two deals), seat ``heavy`` taking the most."""
    for table in rounds(app, night)[number - 1].tables:
        make_scorer(app, client, table.game_id)
        for _hand in range(table.round.length):
            record_hand(client, table.game_id, hand_for(len(table.people), heavy))


def names_of(app, people):
    with app.app_context():
        named = dict(db.session.execute(select(Person.id, Person.name)).all())
    return [named[person] for person in people]


def test_a_night_of_22_draws_three_tables_each_a_game_of_the_night(app):
    night = open_night_of(app)
    with app.app_context():
        drawn = service.nights.next_draw(night)
        assert len(drawn) == 22 and rules.table_splits(22) == ((11, 11), (8, 7, 7))
        number = service.nights.draw_next_round(night, (8, 7, 7), seed=4021)
        games = db.session.execute(select(Game).order_by(Game.id)).scalars().all()
        seated = [[player.person_id for player in game.players] for game in games]

    first = rounds(app, night)[0]
    assert number == 1 and (first.number, first.seed, first.repeated, first.closed) == (1, 4021, 0, False)
    assert [game.name for game in games] == ["Club night · 1.1", "Club night · 1.2", "Club night · 1.3"]
    assert {game.played_on for game in games} == {NIGHT_DAY} and {game.target for game in games} == {150}
    again = rules.draw_round(drawn, (8, 7, 7), 4021)  # the seed shown draws the same tables again
    assert seated == [list(table.seating) for table in again.tables]
    assert [game.first_dealer for game in games] == [table.first_dealer for table in again.tables]
    assert [table.people for table in first.tables] == [tuple(table.seating) for table in again.tables]
    assert not first.over and all(table.round == rules.TableRound(0, 2, False, tuple(range(len(table.people))),
                                                                  (0,) * len(table.people)) for table in first.tables)


def test_the_next_round_waits_for_every_table_and_avoids_the_first_rounds_neighbours(app, client):
    night = open_night_of(app)
    with app.app_context():
        service.nights.draw_next_round(night, (11, 11), seed=7)
        with pytest.raises(service.NightRefused) as refused:
            service.nights.draw_next_round(night, (11, 11), seed=8)
    assert refused.value.reason == "round_open"

    play_round(app, client, night, 1)
    first = rounds(app, night)[0]
    assert first.over and all(table.round.over and table.round.hands == 2 for table in first.tables)
    with app.app_context():
        with pytest.raises(service.NightRefused) as wrong:
            service.nights.draw_next_round(night, (8, 7, 7, 0), seed=8)
        service.nights.draw_next_round(night, (8, 7, 7), seed=8)

    assert wrong.value.reason == "split"
    second = rounds(app, night)[1]
    earlier = frozenset().union(*(rules.neighbours(table.people) for table in first.tables))
    assert second.repeated == sum(len(rules.neighbours(table.people) & earlier) for table in second.tables) == 0


def test_the_standing_is_derived_from_the_tables_hands_and_follows_a_correction(app, client):
    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        service.nights.draw_next_round(night, (6, 6), seed=99)
    play_round(app, client, night, 1)

    with app.app_context():
        table = service.nights.night_rounds(night)[0].tables[0]
        standing = service.nights.standing(night)
    by_person = {line.person: line for line in standing}
    # Each table: seat 0 took 46, seat 1 42, seat 2 16 over two hands; the other three nothing, sharing the best
    # placing: (0 lower + half of 2 level) / 5 others (R18 d).
    heavy, second, third, *light = table.people
    assert [by_person[person].share for person in (heavy, second, third)] == [1, Fraction(4, 5), Fraction(3, 5)]
    assert {by_person[person].share for person in light} == {Fraction(1, 5)}
    assert {line.place for line in standing if line.share == Fraction(1, 5)} == {1}  # six light players tied
    assert by_person[heavy].points_per_hand == 23 and by_person[heavy].won == 0

    # Hand 1 corrected at table 1: seat 3 takes what seat 0 took; the standing follows at once (R17).
    make_scorer(app, client, table.game_id)
    corrected = hand_for(6, heavy=0)
    corrected[0], corrected[3] = corrected[3], corrected[0]
    assert post_hand(client, table.game_id, corrected, number=1).status_code == 302
    with app.app_context():
        after = {line.person: line for line in service.nights.standing(night)}
    assert after[heavy].points_per_hand == after[table.people[3]].points_per_hand == Fraction(23, 2)
    assert after[heavy].share == after[table.people[3]].share == Fraction(7, 10)  # level at 23: 3 + 1/2 of 1


def test_a_late_arrival_joins_the_next_draw_and_a_leaver_keeps_the_rounds_they_finished(app, client):
    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        service.nights.draw_next_round(night, (6, 6), seed=5)
        service.nights.check_in(night, ["Late Lou"])  # arrives during round 1
        late = db.session.execute(select(NightPlayer.person_id, NightPlayer.from_round)
                                  .join(Person, Person.id == NightPlayer.person_id)
                                  .where(Person.name == "Late Lou")).one()
        leaver = rounds(app, night)[0].tables[0].people[0]
        service.nights.see_off(night, leaver)
        with pytest.raises(service.NightRefused) as twice:
            service.nights.see_off(night, leaver)
        drawn_next = service.nights.next_draw(night)
    assert late.from_round == 2 and twice.value.reason == "not_here"
    assert late.person_id in drawn_next and leaver not in drawn_next and len(drawn_next) == 12

    play_round(app, client, night, 1)
    with app.app_context():
        service.nights.draw_next_round(night, (6, 6), seed=6)
    play_round(app, client, night, 2, heavy=1)
    with app.app_context():
        standing = {line.person: line for line in service.nights.standing(night)}
    assert standing[leaver].rounds == 1 and standing[late.person_id].rounds == 1
    assert {line.rounds for person, line in standing.items() if person not in (leaver, late.person_id)} == {2}


def test_a_round_closed_early_counts_each_table_as_it_stood(app, client):
    night = open_night_of(app, CLUB[:12], deals=None)  # every player deals once: six hands a table
    with app.app_context():
        service.nights.draw_next_round(night, (6, 6), seed=11)
    tables = rounds(app, night)[0].tables
    make_scorer(app, client, tables[0].game_id)
    record_hand(client, tables[0].game_id, hand_for(6))  # one hand of six at table 1, none at table 2

    with app.app_context():
        with pytest.raises(service.NightRefused):
            service.nights.draw_next_round(night, (6, 6), seed=12)
        service.nights.close_round(night, 1)
        with pytest.raises(service.NightRefused) as again:
            service.nights.close_round(night, 1)
        standing = service.nights.standing(night)
        number = service.nights.draw_next_round(night, (6, 6), seed=12)

    first = rounds(app, night)[0]
    assert first.closed and first.over and tables[0].round.length == 6 and again.value.reason == "no_round"
    assert sorted(line.person for line in standing) == sorted(tables[0].people)  # table 2 played no hand
    assert number == 2


def test_a_night_refuses_too_few_and_no_such_night(app):
    night = open_night_of(app, CLUB[:5])
    with app.app_context():
        with pytest.raises(service.NightRefused) as few:
            service.nights.draw_next_round(night, (5,), seed=1)
        with pytest.raises(service.NightRefused) as none:
            service.nights.check_in(night + 100, ["Ana"])
        players = db.session.execute(select(Player)).all()
    assert few.value.reason == "too_few" and none.value.reason == "no_night" and players == []


def night_as_names(app, night):
    """A night's rounds and standing, everyone by name and every game by its name: what a restore keeps."""
    with app.app_context():
        named = dict(db.session.execute(select(Person.id, Person.name)).all())
        games = dict(db.session.execute(select(Game.id, Game.name)).all())
        rounds = service.nights.night_rounds(night)
        standing = service.nights.standing(night, rounds)
        drawn = service.nights.next_draw(night)
    return ([(past.number, past.seed, past.repeated, past.closed,
              [(table.number, games[table.game_id], [named[person] for person in table.people], table.round)
               for table in past.tables]) for past in rounds],
            sorted((line.place, named[line.person], line.share, line.rounds, line.won, line.points_per_hand)
                   for line in standing), sorted(named[person] for person in drawn))  # ties in any order


def test_a_backup_keeps_every_night_whole(app, client, tmp_path, migrated_template):
    from scorekeeper import create_app
    from scorekeeper.db.models import Night
    from scorekeeper.documents.backup import backup_document, restore_whole

    from .conftest import close, fresh_database
    from .tabletop import SIX, game_document, store_games

    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        service.nights.draw_next_round(night, (6, 6), seed=21)
    play_round(app, client, night, 1)
    with app.app_context():
        service.nights.check_in(night, ["Late Lou"])
        service.nights.see_off(night, service.nights.night_rounds(night)[0].tables[1].people[2])
        service.nights.draw_next_round(night, (6, 6), seed=22)
        service.nights.close_round(night, 2)
        document = backup_document()
    before = night_as_names(app, night)

    folder = tmp_path / "elsewhere"
    folder.mkdir()
    with fresh_database(folder, migrated_template) as url:
        elsewhere = create_app({"TESTING": True, "SECRET_KEY": "another club", "SQLALCHEMY_DATABASE_URI": url})
        try:
            store_games(elsewhere, [game_document("Their game", SIX, 0, 150, [])])  # ids here differ
            with elsewhere.app_context():
                assert restore_whole(document).nights == 1
                restored = db.session.execute(select(Night.id)).scalar_one()
            assert night_as_names(elsewhere, restored) == before
        finally:
            close(elsewhere)
