"""A club night's trail through the service (R18): every change to a night (a check-in, a leaver, a draw, a
round closed) undone, and the undo undone in turn; a draw undone only while none of its tables has anything
recorded; every change claiming the night's revision; the night's state for its page; a merge of people
moving their check-ins; the standing's ties by name."""

import threading

import pytest
from sqlalchemy import func, select

from scorekeeper import service
from scorekeeper.db.models import (
    Game,
    Night,
    NightPlayer,
    NightRound,
    NightTable,
    Person,
    PersonChange,
    Player,
    db,
)

from .tabletop import make_scorer, on_threads, record_hand
from .test_nights import CLUB, NIGHT_DAY, hand_for, open_night_of, rounds

nights = service.nights


def newest(night):
    """The id of the night's newest trail entry, as the director's page shows it."""
    return nights.night_trail(night)[0].change.id


def revision(night):
    """The night's revision as the database holds it now."""
    return db.session.execute(select(Night.revision).where(Night.id == night)).scalar_one()


def presence(night, person):
    """``(from_round, left_after)`` of ``person`` checked in for ``night``, None if they are not."""
    row = db.session.execute(select(NightPlayer.from_round, NightPlayer.left_after).where(
        NightPlayer.night_id == night, NightPlayer.person_id == person)).one_or_none()
    return None if row is None else tuple(row)


def count(model):
    return db.session.execute(select(func.count()).select_from(model)).scalar()


def seating(round_):
    """Each table of a round as drawn: its people by seat and its first dealer."""
    return [(table.people, table.first_dealer) for table in round_.tables]


def person_named(name):
    return db.session.execute(select(Person).where(Person.name == name)).scalar_one()


def test_a_check_in_undone_is_gone_and_undoing_the_undo_checks_them_in_for_the_same_round(app):
    night = open_night_of(app, CLUB[:6])
    with app.app_context():
        nights.draw_next_round(night, (6,), seed=3)
        late, = nights.check_in(night, ["Late Lou"])  # during round 1: drawn from round 2
        checked_in = presence(night, late)

        nights.undo_newest(night, newest(night))
        undone, drawn_undone = presence(night, late), nights.next_draw(night)
        nights.undo_newest(night, newest(night))
        again, trail = presence(night, late), nights.night_trail(night)

    assert checked_in == again == (2, None) and undone is None and late not in drawn_undone
    assert [entry.change.action for entry in trail] == ["undo", "undo", "check_in", "draw", "check_in"]
    assert [entry.newest for entry in trail] == [True, False, False, False, False]
    assert trail[0].change.undoes_id == trail[1].change.id and trail[1].change.undoes_id == trail[2].change.id
    assert [entry.depth for entry in trail[:3]] == [2, 1, 0] and trail[0].origin.id == trail[2].change.id
    assert trail[0].kind == "players" and trail[0].made == {late: [2, None]}


@pytest.mark.parametrize("drawn", [False, True], ids=["before the draw", "after a round drawn"])
def test_a_leaver_undone_is_back_in_the_next_draw(app, drawn):
    night = open_night_of(app, CLUB[:7])
    with app.app_context():
        if drawn:
            nights.draw_next_round(night, (7,), seed=5)
        leaver = nights.next_draw(night)[2]
        nights.see_off(night, leaver)
        gone = nights.next_draw(night)

        nights.undo_newest(night, newest(night))
        back = nights.next_draw(night)

    assert leaver not in gone and leaver in back and len(back) == 7


def test_a_closed_round_undone_is_open_again_and_holds_the_next_draw(app):
    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        nights.draw_next_round(night, (6, 6), seed=11)
        nights.close_round(night, 1)
        closed = nights.night_rounds(night)[0].closed

        nights.undo_newest(night, newest(night))
        with pytest.raises(service.NightRefused) as refused:
            nights.draw_next_round(night, (6, 6), seed=12)
        reopened = nights.night_rounds(night)[0]

    assert closed and not reopened.closed and not reopened.over and refused.value.reason == "round_open"
    with app.app_context():
        assert db.session.execute(select(NightRound.closed_at)).scalar_one() is None


def test_a_draw_undone_takes_its_games_and_made_again_draws_the_same_seats(app):
    night = open_night_of(app, CLUB[:13])
    with app.app_context():
        drawn = nights.next_draw(night)
        nights.draw_next_round(night, (7, 6), seed=4021)
        first = nights.night_rounds(night)[0]

        nights.undo_newest(night, newest(night))
        undone = (nights.night_rounds(night), count(Game), count(Player), count(NightTable), count(NightRound))
        drawn_after = nights.next_draw(night)
        nights.undo_newest(night, newest(night))
        again = nights.night_rounds(night)
        games = db.session.execute(select(Game.name).order_by(Game.id)).scalars().all()

    assert undone == ((), 0, 0, 0, 0) and drawn_after == drawn
    assert [(past.number, past.seed) for past in again] == [(1, 4021)]
    assert [len(table.people) for table in again[0].tables] == [7, 6]
    assert seating(again[0]) == seating(first) and games == ["Club night · 1.1", "Club night · 1.2"]


def test_a_draw_with_a_hand_recorded_at_a_table_is_not_undone(app, client):
    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        nights.draw_next_round(night, (6, 6), seed=7)
    table = rounds(app, night)[0].tables[1]
    make_scorer(app, client, table.game_id)
    record_hand(client, table.game_id, hand_for(6))
    with app.app_context():
        before = (nights.night_state(night), nights.night_rounds(night), newest(night), count(Game))

        with pytest.raises(service.NightRefused) as refused:
            nights.undo_newest(night, newest(night))
        after = (nights.night_state(night), nights.night_rounds(night), newest(night), count(Game))

    assert refused.value.reason == "played" and after == before
    assert before[1][0].tables[1].round.hands == 1


def snapshot(night):
    """What a refused change to ``night`` must leave as it was."""
    return (revision(night), nights.night_state(night), [entry.change.id for entry in nights.night_trail(night)],
            nights.next_draw(night), [past.closed for past in nights.night_rounds(night)], count(Person))


@pytest.mark.parametrize("change", [
    lambda night, stale: nights.check_in(night, ["Other Olu"], based_on=stale),
    lambda night, stale: nights.close_round(night, 1, based_on=stale),
    lambda night, stale: nights.undo_newest(night, newest(night), based_on=stale),
], ids=["check_in", "close_round", "undo_newest"])
def test_a_change_based_on_a_stale_revision_is_a_conflict_and_changes_nothing(app, change):
    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        nights.draw_next_round(night, (6, 6), seed=1)
        stale = revision(night)
        nights.check_in(night, ["Late Lou"])  # another device's change
        before = snapshot(night)

        with pytest.raises(service.Conflict):
            change(night, stale)
        after = snapshot(night)
        change(night, revision(night))  # the same change, on the night as it is, is made
        made = snapshot(night)

    assert after == before and made[0] == before[0] + 1


def test_undoing_an_entry_that_is_not_the_newest_is_a_conflict(app):
    night = open_night_of(app, CLUB[:6])
    with app.app_context():
        nights.check_in(night, ["Late Lou"])
        older = nights.night_trail(night)[1].change.id
        before = snapshot(night)

        with pytest.raises(service.Conflict):
            nights.undo_newest(night, older, based_on=revision(night))
        after = snapshot(night)

    assert after == before


def test_the_night_state_moves_with_a_hand_a_check_in_and_an_undo(app, client):
    night = open_night_of(app, CLUB[:12])
    with app.app_context():
        nights.draw_next_round(night, (6, 6), seed=9)
        drawn = nights.night_state(night)
    table = rounds(app, night)[0].tables[0]
    make_scorer(app, client, table.game_id)
    with app.app_context():
        scorer = nights.night_state(night)  # a scorer link opened writes nothing
    record_hand(client, table.game_id, hand_for(6))
    with app.app_context():
        played = nights.night_state(night)
        nights.check_in(night, ["Late Lou"])
        checked_in = nights.night_state(night)
        nights.undo_newest(night, newest(night))
        undone = nights.night_state(night)
        missing = nights.night_state(night + 100)

    assert scorer == drawn and len({drawn, played, checked_in, undone}) == 4 and missing is None


def test_a_merge_moves_a_check_in_to_the_survivor_and_its_undo_moves_it_back(app):
    night = open_night_of(app, CLUB[:6])
    elsewhere = open_night_of(app, ["Sam Survivor"])  # known to the club, not checked in for ``night``
    with app.app_context():
        survivor, merged = person_named("Sam Survivor"), person_named(CLUB[0])
        survivor_id, merged_id = survivor.id, merged.id

        service.merge_people(survivor, merged)
        merged_draw, elsewhere_draw = nights.next_draw(night), nights.next_draw(elsewhere)
        merge = db.session.execute(select(PersonChange).where(PersonChange.action == "merge")).scalar_one()
        service.undo_merge(merge)
        undone_draw = nights.next_draw(night)

    assert survivor_id in merged_draw and merged_id not in merged_draw and len(merged_draw) == 6
    assert elsewhere_draw == [survivor_id]
    assert merged_id in undone_draw and survivor_id not in undone_draw and len(undone_draw) == 6


def test_two_people_checked_in_for_one_night_are_not_merged(app):
    night = open_night_of(app, CLUB[:6])
    with app.app_context():
        first, second = person_named(CLUB[0]), person_named(CLUB[1])
        before = nights.next_draw(night)

        with pytest.raises(service.PeopleRefused) as refused:
            service.merge_people(first, second)
        refused_night = refused.value.night
        after = nights.next_draw(night)
        merged_away = db.session.execute(select(Person.merged_into_id).where(Person.id == second.id)).scalar()

    assert refused.value.reason == "same_night" and refused_night == "Club night"
    assert after == before and merged_away is None


def test_players_tied_in_the_standing_come_out_by_name_whatever_its_case(app, client):
    # Ids in the order checked in; by plain text "Zed" < "bea"; by name, casefold: Amy, bea, Zed.
    with app.app_context():
        night = nights.open_night("Ties", target=150, deals=1, played_on=NIGHT_DAY)
        nights.check_in(night, ["Zed", "bea", "Amy", "Dan", "Eve", "Fox"])
        nights.draw_next_round(night, (6,), seed=2)
        by_name = dict(db.session.execute(select(Person.id, Person.name)).all())
    table = rounds(app, night)[0].tables[0]
    takings = dict(zip(["Dan", "Eve", "Fox"], hand_for(3)))  # 23, 21 and 8 points; nothing to the other three
    taken = [takings.get(by_name[person], (0, 0)) for person in table.people]
    make_scorer(app, client, table.game_id)
    record_hand(client, table.game_id, taken)

    with app.app_context():
        standing = nights.standing(night)

    assert [(line.place, line.name) for line in standing[:3]] == [(1, "Amy"), (1, "bea"), (1, "Zed")]
    assert [line.name for line in standing[3:]] == ["Fox", "Eve", "Dan"]
    assert [line.place for line in standing[3:]] == [4, 5, 6]


def test_someone_who_played_a_round_left_came_back_and_left_again_is_still_of_the_night(app):
    night = open_night_of(app, CLUB[:13])
    with app.app_context():
        nights.draw_next_round(night, (7, 6), seed=1)
        first, second = (table.people[0] for table in nights.night_rounds(night)[0].tables)
        nights.see_off(night, first)
        nights.close_round(night, 1)
        nights.draw_next_round(night, (6, 6), seed=2)
        nights.check_in(night, people=[first])  # back during round 2, for round 3
        nights.see_off(night, first)  # gone again before round 3 is drawn

        with pytest.raises(service.PeopleRefused) as refused:
            service.merge_people(db.session.get(Person, second), db.session.get(Person, first))

    assert refused.value.reason == "same_night"


RACED_DIRECTORS = {  # two directors' devices, each reading the night before the other changes it
    "both draw round 1": (("draw", 11), ("draw", 12)),
    "one draws while the other checks someone in": (("draw", 11), ("check_in", None)),
    "both undo the newest change": (("undo", None), ("undo", None)),
}


@pytest.mark.parametrize("name", RACED_DIRECTORS)
def test_two_directors_at_once_make_one_change_whole_and_the_other_a_conflict(app, name):
    night = open_night_of(app, CLUB[:14])
    barrier = threading.Barrier(2)
    outcomes = [None, None]

    def run(place, change):
        action, seed = change
        with app.app_context():
            try:
                revision = db.session.get(Night, night).revision
                newest_id = newest(night)
                db.session.rollback()  # each reads, then both write at once
                barrier.wait()
                if action == "draw":
                    nights.draw_next_round(night, (7, 7), seed, based_on=revision, device=f"Phone {place}")
                elif action == "check_in":
                    nights.check_in(night, ["Late Comer"], based_on=revision, device=f"Phone {place}")
                else:
                    nights.undo_newest(night, newest_id, based_on=revision, device=f"Phone {place}")
                outcomes[place] = "made"
            except service.Conflict:
                outcomes[place] = "Conflict"
            finally:
                db.session.remove()

    on_threads(run, RACED_DIRECTORS[name])

    assert sorted(outcomes) == ["Conflict", "made"], outcomes
    with app.app_context():
        trail = nights.night_trail(night)
        drawn = nights.night_rounds(night)
        games = db.session.execute(select(func.count()).select_from(Game)).scalar()
    assert trail[0].change.device == f"Phone {outcomes.index('made')}"
    assert len(drawn) <= 1 and games == 2 * len(drawn)  # a draw landed whole, or not at all
