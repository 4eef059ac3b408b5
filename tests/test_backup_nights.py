"""A club night's trail in a backup (R18): every entry of it (a check-in, a leaver, a draw, a round closed, an
undo) comes back entry by entry, its people and the entry an undo undid mapped to the ids here, so that the
newest can still be undone; a merge that moved a check-in comes back naming the night as restored, so its undo
moves the check-in of the right night; and a trail entry no app could have written is refused, in words."""

import copy
import json

import pytest
from sqlalchemy import func, select

from scorekeeper import service
from scorekeeper.db.models import Game, Night, NightChange, NightPlayer, Person, PersonChange, db
from scorekeeper.documents.backup import backup_document, restore_whole
from scorekeeper.documents.game import DocumentError

from .tabletop import SIX, game_document, store_games
from .test_nights import CLUB, NIGHT_DAY, open_night_of

nights = service.nights
DEVICE = "Ana's phone"
THEIRS = [f"Their {letter}" for letter in "ABCDEF"]


@pytest.fixture
def other_app(other_apps):
    """Makes more apps, each on a database of its own holding nothing (tests/conftest.py)."""
    return other_apps


def newest(night):
    return nights.night_trail(night)[0].change.id


def a_night_of_every_change(app):
    """A night of seven: checked in, round 1 drawn, one seen off, the round closed, a late arrival checked in
    and that undone. The night's id."""
    night = open_night_of(app, CLUB[:7])
    with app.app_context():
        nights.draw_next_round(night, (7,), seed=3, device=DEVICE)
        nights.see_off(night, nights.night_rounds(night)[0].tables[0].people[2], device=DEVICE)
        nights.close_round(night, 1)
        nights.check_in(night, ["Late Lou"], device=DEVICE)
        nights.undo_newest(night, newest(night))
    return night


def a_club_of_their_own(app):
    """A database with a game and a night of its own (people of other names): the restored ids differ."""
    store_games(app, [game_document("Their game", SIX, 0, 150, [])])
    night = open_night_of(app, THEIRS)
    with app.app_context():
        nights.draw_next_round(night, (6,), seed=9)
    return night


def trail_as_names(app, night):
    """A night's trail, oldest first, as the director reads it: people by name, an undo by the place of the
    entry it undid."""
    with app.app_context():
        named = dict(db.session.execute(select(Person.id, Person.name)).all())
        changes = db.session.execute(select(NightChange).where(NightChange.night_id == night)
                                     .order_by(NightChange.id)).scalars().all()
        places = {change.id: place for place, change in enumerate(changes, start=1)}
        made = []
        for change in changes:
            facts = json.loads(change.facts)
            sides = [facts["before"], facts["after"]]
            if facts["kind"] == "players":
                sides = [{named[int(person)]: state for person, state in side.items()} for side in sides]
            made.append((change.at, change.action, change.device, places.get(change.undoes_id), facts["kind"],
                         facts["round"], *sides))
        return made


def here_as_names(app, night):
    """Who is checked in for ``night``: ``{name: (from_round, left_after)}``."""
    with app.app_context():
        return {name: (start, left) for name, start, left in db.session.execute(
            select(Person.name, NightPlayer.from_round, NightPlayer.left_after)
            .join(NightPlayer, NightPlayer.person_id == Person.id).where(NightPlayer.night_id == night))}


def night_named(app, name):
    with app.app_context():
        return db.session.execute(select(Night.id).where(Night.name == name).order_by(Night.id.desc())).scalar()


def revision(app, night):
    with app.app_context():
        return db.session.execute(select(Night.revision).where(Night.id == night)).scalar_one()


@pytest.mark.parametrize("elsewhere", ["empty", "with a night of its own"])
def test_a_nights_trail_comes_back_entry_by_entry_and_its_newest_entry_still_undoes(app, other_app, elsewhere):
    night = a_night_of_every_change(app)
    with app.app_context():
        document = json.loads(json.dumps(backup_document()))
    before = trail_as_names(app, night)
    target = other_app("elsewhere")
    theirs = a_club_of_their_own(target) if elsewhere != "empty" else None
    their_trail = trail_as_names(target, theirs) if theirs else None

    with target.app_context():
        restored = restore_whole(document)
    copy_night = night_named(target, "Club night")  # theirs is a "Club night" too, made before
    after = trail_as_names(target, copy_night)
    with target.app_context():
        nights.undo_newest(copy_night, newest(copy_night), based_on=7)  # the undo of Late Lou's check-in
        undone = nights.night_trail(copy_night)[0]
        undone_facts = (undone.change.action, undone.depth, undone.kind)
    with app.app_context():
        nights.undo_newest(night, newest(night))

    assert restored.nights == 1 and len(before) == 6
    assert after == before
    assert [entry[1] for entry in after] == ["check_in", "draw", "see_off", "close", "check_in", "undo"]
    assert after[5][3] == 5 and after[2][2] == DEVICE and after[2][6] != after[2][7]
    assert revision(target, copy_night) == 8  # restored at 1 + its 6 entries, then one more change
    assert undone_facts == ("undo", 2, "players")
    assert here_as_names(target, copy_night) == here_as_names(app, night)
    assert here_as_names(target, copy_night)["Late Lou"] == (2, None)
    assert [entry[1:] for entry in trail_as_names(target, copy_night)] == [
        entry[1:] for entry in trail_as_names(app, night)]
    if theirs is not None:  # the night of their own is as it was
        assert copy_night != night and trail_as_names(target, theirs) == their_trail
        assert set(here_as_names(target, theirs)) == set(THEIRS)


def test_a_backup_restored_into_an_empty_database_backs_up_its_nights_as_they_were(app, other_app):
    a_night_of_every_change(app)
    with app.app_context():
        document = json.loads(json.dumps(backup_document()))
    target = other_app("empty")

    with target.app_context():
        restore_whole(copy.deepcopy(document))
        again = json.loads(json.dumps(backup_document()))

    assert again["nights"] == document["nights"]
    assert [entry["undoes"] for entry in document["nights"][0]["trail"]] == [None] * 5 + [5]


def merged_club(app):
    """Two nights: Club night (six checked in) and Elsewhere (Sam alone); then Player A, checked in for Club
    night, merged into Sam: their check-in moves to Sam. The night's id, and the backup."""
    night = open_night_of(app, CLUB[:6])
    with app.app_context():
        nights.check_in(nights.open_night("Elsewhere", played_on=NIGHT_DAY), ["Sam Survivor"])
        sam, player_a = (db.session.execute(select(Person).where(Person.name == name)).scalar_one()
                         for name in ("Sam Survivor", CLUB[0]))
        service.merge_people(sam, player_a)
        document = json.loads(json.dumps(backup_document()))
    return night, document


def undo_the_merge(app):
    with app.app_context():
        merge = db.session.execute(select(PersonChange).where(PersonChange.action == "merge")).scalar_one()
        facts = json.loads(merge.facts)
        service.undo_merge(merge)
        return facts


def test_a_merge_restored_beside_a_night_of_their_own_moves_back_the_check_in_of_the_right_night(app, other_app):
    night, document = merged_club(app)
    target = other_app("theirs")
    theirs = a_club_of_their_own(target)

    with target.app_context():
        restore_whole(document)
    club_night, elsewhere = night_named(target, "Club night"), night_named(target, "Elsewhere")
    merged_here = here_as_names(target, club_night)
    facts = undo_the_merge(target)

    assert document["trail"]["people"][0]["facts"]["nights"] == [night]
    assert club_night == theirs + 1 and facts["nights"] == [club_night]
    assert "Sam Survivor" in merged_here and CLUB[0] not in merged_here
    assert set(here_as_names(target, club_night)) == set(CLUB[:6])
    assert set(here_as_names(target, elsewhere)) == {"Sam Survivor"}
    assert set(here_as_names(target, theirs)) == set(THEIRS)


def test_an_older_backup_without_night_ids_trails_or_a_merges_nights_still_restores(app, other_app):
    _night, document = merged_club(app)
    for night in document["nights"]:
        del night["id"], night["trail"]
    del document["trail"]["people"][0]["facts"]["nights"]
    target = other_app("older")

    with target.app_context():
        restored = restore_whole(document)
        changes = db.session.execute(select(func.count()).select_from(NightChange)).scalar()
    club_night = night_named(target, "Club night")
    first_revision = revision(target, club_night)
    facts = undo_the_merge(target)

    assert restored.nights == 2 and changes == 0 and first_revision == 1
    assert facts.get("nights") is None
    assert "Sam Survivor" in here_as_names(target, club_night)  # the merge kept no night to move back


def test_nights_trails_restored_into_a_club_of_their_own_keep_the_order_they_were_made_in(app, other_app):
    first = open_night_of(app, CLUB[:6])
    second = open_night_of(app, CLUB[6:12])
    with app.app_context():
        nights.draw_next_round(first, (6,), seed=1)
        nights.draw_next_round(second, (6,), seed=2)
        nights.close_round(first, 1)
        document = json.loads(json.dumps(backup_document()))
        made = db.session.execute(select(NightChange.night_id).order_by(NightChange.id)).scalars().all()
    target = other_app("order")
    a_club_of_their_own(target)

    with target.app_context():
        restore_whole(document)
        newest_night = db.session.execute(select(NightChange.night_id).order_by(NightChange.id.desc())
                                          .limit(5)).scalars().all()

    assert made == [first, second, first, second, first]
    assert newest_night[::-1] == [made_night + 1 for made_night in made]


# --- A trail no app could have written --------------------------------------------------------------------

WHERE = 'Night 1 of "nights", trail entry'
_BACKUP_OF_EVERY_CHANGE = []  # made once for the module's spoiled copies: the same night each time


def backup_of_every_change(app):
    """The backup of ``a_night_of_every_change`` as JSON reads it, made once (each test spoils a copy)."""
    if not _BACKUP_OF_EVERY_CHANGE:
        a_night_of_every_change(app)
        with app.app_context():
            _BACKUP_OF_EVERY_CHANGE.append(json.loads(json.dumps(backup_document())))
    return _BACKUP_OF_EVERY_CHANGE[0]


def trail_of(document):
    return document["nights"][0]["trail"]


@pytest.mark.parametrize(("spoil", "message"), [
    (lambda d: trail_of(d)[1].update(kind="players"),
     f'{WHERE} 2: a draw is an entry of kind "round" that undoes nothing'),
    (lambda d: trail_of(d)[0].update(action="shuffle"), f'{WHERE} 1 needs an "action" (one of check_in,'),
    (lambda d: trail_of(d)[0].update(before={"999999": None}, after={"999999": [1, None]}),
     f'{WHERE} 1: its "before" names a person "people" does not list ("999999").'),
    (lambda d: trail_of(d)[0].update(before={"01": None}, after={"01": [1, None]}),
     f'{WHERE} 1: its "before" names a person "people" does not list ("01").'),
    (lambda d: trail_of(d)[5].update(undoes=6), f"{WHERE} 6: an undo names the entry just before it"),
    (lambda d: trail_of(d)[5].update(undoes=2), f"{WHERE} 6: an undo names the entry just before it"),
    (lambda d: trail_of(d)[5].update(undoes=True), f"{WHERE} 6: an undo names the entry just before it"),
    (lambda d: trail_of(d)[4].update(undoes=4), f'{WHERE} 5: a check_in is an entry of kind "players" that undoes'),
    (lambda d: trail_of(d).insert(0, {**trail_of(d)[5], "undoes": 0}),
     f"{WHERE} 1: an undo names the entry just before it"),
    (lambda d: trail_of(d)[5].update(after={}), f"{WHERE} 6: an undo is of the kind and round of the entry it"),
    (lambda d: trail_of(d)[5].update(kind="closed"), f"{WHERE} 6: an undo is of the kind and round of the entry"),
    (lambda d: trail_of(d)[3].update(before=0), f'{WHERE} 4: its "before" is whether the round was closed'),
    (lambda d: trail_of(d)[3].update(before=True), f'{WHERE} 4: its "before" and "after" differ'),
    (lambda d: trail_of(d)[3].update(round=None), f'{WHERE} 4: a "closed" entry\'s "round" is the number'),
    (lambda d: trail_of(d)[0].update(round=1), f'{WHERE} 1: a "players" entry\'s "round" is null.'),
    (lambda d: trail_of(d)[1].update(after={"sizes": [5], "seed": 3}), f'{WHERE} 2: its "after" is null (no round)'),
    (lambda d: trail_of(d)[1].update(after={"sizes": [7], "seed": -1}), f'{WHERE} 2: its "after" is null (no round)'),
    (lambda d: trail_of(d)[2].update(after={}), f'{WHERE} 3: its "after" lists the people it changed'),
    (lambda d: trail_of(d)[2].update(after={next(iter(trail_of(d)[2]["after"])): [1, 2, 3]}),
     f"{WHERE} 3: its \"after\": each person's is null (not checked in) or"),
    (lambda d: trail_of(d)[4].update(after={str(d["people"][0]["id"]): [2, None]}),
     f'{WHERE} 5: its "before" and "after" name the same people.'),
    (lambda d: trail_of(d)[2].update(device="x" * 41), f'{WHERE} 3: "device" must be a device\'s name'),
    (lambda d: trail_of(d)[2].update(at="yesterday"), f'{WHERE} 3: "at" must be a moment'),
    (lambda d: trail_of(d).__setitem__(2, ["see_off"]), f'{WHERE} 3 needs an "action"'),
    (lambda d: d["nights"][0].update(trail={"1": {}}), 'Night 1 of "nights" needs a "name"'),
    (lambda d: d["nights"][0].update(id=0), 'Night 1 of "nights": a night\'s "id" is the id'),
    (lambda d: d["nights"].append({**d["nights"][0], "trail": [], "players": [], "rounds": []}),
     'Night 2 of "nights": a night\'s "id" is the id'),
    (lambda d: d["nights"][0]["players"][0].update(person=d["people"][-1]["id"] + 1),
     'Night 1 of "nights": each of its "players" is a person of the backup'),
])
def test_a_nights_trail_no_app_could_have_written_is_refused_in_words(app, other_app, spoil, message):
    document = copy.deepcopy(backup_of_every_change(app))
    spoil(document)
    target = other_app("refusing")

    with target.app_context():
        with pytest.raises(DocumentError) as refused:
            restore_whole(document)
        stored = [db.session.execute(select(func.count()).select_from(model)).scalar() for model in (Night, Game)]

    assert str(refused.value).startswith(message), str(refused.value)
    assert stored == [0, 0]


def test_a_check_in_of_someone_merged_away_or_a_merges_nights_not_ids_is_refused(app, other_app):
    _night, document = merged_club(app)
    merged_away = next(person["id"] for person in document["people"] if person["merged_into"] is not None)
    spoiled = copy.deepcopy(document)
    spoiled["nights"][0]["players"][0]["person"] = merged_away
    not_ids = copy.deepcopy(document)
    not_ids["trail"]["people"][0]["facts"]["nights"] = ["Club night"]
    target = other_app("refusing")

    with target.app_context():
        with pytest.raises(DocumentError) as checked_in:
            restore_whole(spoiled)
        with pytest.raises(DocumentError) as named:
            restore_whole(not_ids)

    assert "each of its \"players\" is a person of the backup, once and not merged" in str(checked_in.value)
    assert str(named.value) == "Entry 1 of the club's trail of people: its \"facts\" are not those of a merge."


# --- People linked by name: the club here knows some of the backup's people already -------------------------


def test_linked_by_name_a_check_in_of_someone_merged_away_is_their_survivors_and_still_undoes(app, other_app):
    _night, document = merged_club(app)
    target = other_app("knowing")
    with target.app_context():
        nights.check_in(nights.open_night("Ours", played_on=NIGHT_DAY), ["Sam Survivor"])  # Sam is known here

    with target.app_context():
        restored = restore_whole(document)
    club_night = night_named(target, "Club night")
    checked_in = here_as_names(target, club_night)
    trail = trail_as_names(target, club_night)
    with target.app_context():
        nights.undo_newest(club_night, newest(club_night), based_on=2)

    assert restored.people_entries_left_out == 1  # the merge was of the backup's people
    assert set(checked_in) == {"Sam Survivor", *CLUB[1:6]}
    assert set(trail[0][7]) == {"Sam Survivor", *CLUB[1:6]}  # Player A's check-in, Sam's here
    assert here_as_names(target, club_night) == {}


def test_linked_by_name_a_trail_entry_of_two_people_who_are_one_here_is_left_out(app, other_app):
    night = open_night_of(app, CLUB[:6])
    with app.app_context():
        nights.check_in(night, ["Sam Survivor", "Late Lou"])
        nights.undo_newest(night, newest(night))
        sam, lou = (db.session.execute(select(Person).where(Person.name == name)).scalar_one()
                    for name in ("Sam Survivor", "Late Lou"))
        service.merge_people(sam, lou)
        document = json.loads(json.dumps(backup_document()))
    target = other_app("knowing")
    with target.app_context():
        nights.check_in(nights.open_night("Ours", played_on=NIGHT_DAY), ["Sam Survivor"])

    with target.app_context():
        restore_whole(document)
    club_night = night_named(target, "Club night")

    assert trail_as_names(target, club_night) == [] and revision(target, club_night) == 1
    assert set(here_as_names(target, club_night)) == set(CLUB[:6])


def test_two_check_ins_of_one_night_who_are_one_person_here_are_refused_in_words(app, other_app):
    open_night_of(app, CLUB[:6])
    with app.app_context():
        document = json.loads(json.dumps(backup_document()))
    target = other_app("merged")
    with target.app_context():
        for name in CLUB[:2]:
            nights.check_in(nights.open_night(f"Ours with {name}", played_on=NIGHT_DAY), [name])
        first, second = (db.session.execute(select(Person).where(Person.name == name)).scalar_one()
                         for name in CLUB[:2])
        service.merge_people(first, second)

    with target.app_context():
        with pytest.raises(DocumentError) as refused:
            restore_whole(document)
        stored = db.session.execute(select(func.count()).select_from(Night)).scalar()

    assert str(refused.value) == ("'Player B' and 'Player A' are one person here (merged), but they sat at one "
                                  "table, or came to one night, in the backup: undo that merge first.")
    assert stored == 2


def test_a_merge_made_again_by_an_undo_comes_back_and_its_undo_moves_the_right_nights_check_in(app, other_app):
    night, _document = merged_club(app)
    with app.app_context():
        merge = db.session.execute(select(PersonChange).where(PersonChange.action == "merge")).scalar_one()
        service.undo_change(merge)
        undo = db.session.execute(select(PersonChange).order_by(PersonChange.id.desc())).scalars().first()
        service.undo_change(undo)  # Player A merged into Sam again, their check-in Sam's again
        document = json.loads(json.dumps(backup_document()))
    target = other_app("theirs")
    theirs = a_club_of_their_own(target)

    with target.app_context():
        restore_whole(document)
        made_again = db.session.execute(select(PersonChange).order_by(PersonChange.id.desc())).scalars().first()
        facts = json.loads(made_again.facts)
        service.undo_change(made_again)
    club_night = night_named(target, "Club night")

    assert [entry["action"] for entry in document["trail"]["people"]] == ["merge", "undo", "undo"]
    assert document["trail"]["people"][2]["facts"]["nights"] == [night] and facts["nights"] == [club_night]
    assert club_night == theirs + 1 and set(here_as_names(target, club_night)) == set(CLUB[:6])
    assert set(here_as_names(target, night_named(target, "Elsewhere"))) == {"Sam Survivor"}
