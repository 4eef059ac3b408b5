"""Every entry of the club's trail can be undone, an undo included (issue 34): undoing a rename's or a
merge's undo makes the change again exactly as it was, and that is an entry with an Undo of its own;
a later change that stands in the way is named."""

import re

from sqlalchemy import select

from scorekeeper import service
from scorekeeper.db.models import Person, PersonChange, PersonName, db

from .tabletop import SIX, create_game, hidden_fields, make_secretary, record_hand, text_of

FLAT = [(5, 0), (5, 0), (4, 1), (4, 0), (4, 1), (4, 0)]
UNDO_BUTTON = re.compile(r'name="change" value="(\d+)" formaction="/club/undo"')


def person_id(app, name):
    with app.app_context():
        return db.session.execute(select(Person.id).where(Person.name == name,
                                                          Person.merged_into_id.is_(None))).scalar_one()


def newest_entry(app):
    with app.app_context():
        return db.session.execute(select(PersonChange.id).order_by(PersonChange.id.desc()).limit(1)).scalar_one()


def undo(secretary, change):
    return secretary.post("/club/undo", data={**hidden_fields(secretary, "/club"), "change": str(change)})


def offered_undos(secretary):
    """The club trail's entries of people that offer an Undo, newest first."""
    return [int(change) for change in UNDO_BUTTON.findall(secretary.get("/club").get_data(as_text=True))]


def season(client):
    """What the season's pages say of everyone: ``/stats.json``'s figures by name, and the table's names."""
    stats = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}
    return stats, text_of(client.get("/players"))


def assert_kept_figures_are_the_hands(app):
    with app.app_context():
        assert service.figures.check() == []


def test_a_rename_undone_made_again_and_undone_again_is_each_time_the_trail_says(app, client):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    secretary = make_secretary(app, app.test_client())
    secretary.post(f"/players/{bo}/rename", data={**hidden_fields(secretary, f"/players/{bo}"), "name": "Robert"})
    shown = ["Robert"]

    for step, name in enumerate(["Bo", "Robert", "Bo", "Robert"]):
        entry = newest_entry(app)
        assert offered_undos(secretary) == [entry]  # the newest entry of the chain, and only it
        response = undo(secretary, entry)
        shown.append(name)
        page = text_of(secretary.get("/club"))
        stats, table = season(client)

        assert response.status_code == 302, step
        assert_kept_figures_are_the_hands(app)
        assert name in stats and {"Bo", "Robert"} - {name} & stats.keys() == set()
        assert stats[name]["games"] == 1 and name in table
        assert text_of(client.get(f"/players/{bo}")).count(name) >= 1
        if name == "Robert":
            assert "Rename made again: Bo renamed Robert." in page
        else:
            assert "Rename undone: shown as Bo again." in page

    with app.app_context():
        entries = db.session.execute(select(PersonChange).order_by(PersonChange.id)).scalars().all()
        assert [entry.action for entry in entries] == ["rename", "undo", "undo", "undo", "undo"]
        assert [entry.undoes_id for entry in entries[1:]] == [entry.id for entry in entries[:-1]]
        assert db.session.get(Person, bo).name == "Robert"
        assert {key for (key,) in db.session.execute(select(PersonName.key).where(PersonName.person_id == bo))} \
            == {"bo", "robert"}


def test_a_merge_undone_made_again_and_undone_again_moves_the_same_players_each_time(app, client):
    first = create_game(client, SIX, name="First")
    record_hand(client, first, FLAT)
    second = create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"], name="Second")
    record_hand(client, second, FLAT[::-1])
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    apart, _table = season(client)
    secretary = make_secretary(app, app.test_client())
    secretary.post(f"/players/{ana}/merge", data={**hidden_fields(secretary, f"/players/{ana}"), "other": str(anna)})
    together, _table = season(client)
    create_game(client, ["ANNA", "Bo", "Caio", "Dee", "Eli", "Fay"], name="Typed while merged")

    steps = []
    for merged in (False, True, False, True):
        entry = newest_entry(app)
        assert offered_undos(secretary) == [entry]
        response = undo(secretary, entry)
        stats, table = season(client)
        steps.append(stats)
        ana_page = text_of(secretary.get(f"/players/{ana}"))

        assert response.status_code == 302
        assert_kept_figures_are_the_hands(app)
        if merged:
            assert "Anna" not in stats and stats["Ana"]["games"] == 3
            assert stats["Ana"]["points"] == together["Ana"]["points"]  # the game typed since has no hand
            assert "Undo: Anna is someone else" in ana_page
            assert "Merge made again: Anna merged into Ana." in text_of(secretary.get("/club"))
        else:
            assert stats["Ana"] == apart["Ana"] and stats["Anna"]["games"] == 2  # the game typed since went too
            assert "Anna" in table and "Undo: Anna is someone else" not in ana_page
        with app.app_context():
            assert db.session.get(Person, anna).merged_into_id == (ana if merged else None)

    assert steps[0] == steps[2] and steps[1] == steps[3]


def test_a_merge_made_again_is_undone_from_the_persons_page_too(app, client):
    create_game(client, SIX)
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    secretary = make_secretary(app, app.test_client())
    secretary.post(f"/players/{ana}/merge", data={**hidden_fields(secretary, f"/players/{ana}"), "other": str(anna)})
    undo(secretary, newest_entry(app))
    undo(secretary, newest_entry(app))  # made again
    again = newest_entry(app)

    page = secretary.get(f"/players/{ana}").get_data(as_text=True)
    undone = secretary.post(f"/players/{ana}/undo", data={**hidden_fields(secretary, f"/players/{ana}"),
                                                          "change": str(again)})

    assert f'name="change" value="{again}"' in page
    assert undone.status_code == 302
    assert_kept_figures_are_the_hands(app)
    with app.app_context():
        assert db.session.get(Person, anna).merged_into_id is None


def test_undoing_an_undo_is_refused_naming_the_later_change_that_stands_in_its_way(app, client):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    secretary = make_secretary(app, app.test_client())
    secretary.post(f"/players/{bo}/rename", data={**hidden_fields(secretary, f"/players/{bo}"), "name": "Robert"})
    undo(secretary, newest_entry(app))
    took_back = newest_entry(app)
    secretary.post(f"/players/{bo}/rename", data={**hidden_fields(secretary, f"/players/{bo}"), "name": "Bobby"})

    refused = undo(secretary, took_back)

    assert refused.status_code == 400
    assert "A later change stands in the way: undo “Bo renamed Bobby.” (" in text_of(refused)
    assert offered_undos(secretary) == [newest_entry(app)]
    with app.app_context():
        assert db.session.get(Person, bo).name == "Bobby"


def test_a_later_rename_undone_clears_the_way_and_a_change_made_again_blocks_again(app, client):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    secretary = make_secretary(app, app.test_client())
    for name in ("Robert", "Bobby"):
        secretary.post(f"/players/{bo}/rename", data={**hidden_fields(secretary, f"/players/{bo}"), "name": name})
    with app.app_context():
        first, second = db.session.execute(select(PersonChange.id).order_by(PersonChange.id)).scalars().all()

    second_undone = undo(secretary, second)  # shown as Robert again
    first_undone = undo(secretary, first)  # shown as Bo again
    second_took_back = newest_entry(app) - 1
    blocked = undo(secretary, second_took_back)  # would make Robert -> Bobby again while shown as Bo

    assert second_undone.status_code == first_undone.status_code == 302
    assert blocked.status_code == 400
    assert "A later change stands in the way: undo “Rename undone: shown as Bo again.” (" in text_of(blocked)
    with app.app_context():
        assert db.session.get(Person, bo).name == "Bo"


def test_a_rename_made_again_is_refused_when_its_name_went_to_someone_new(app, client):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    secretary = make_secretary(app, app.test_client())
    secretary.post(f"/players/{bo}/rename", data={**hidden_fields(secretary, f"/players/{bo}"), "name": "Robert"})
    undo(secretary, newest_entry(app))  # "Robert" is released
    took_back = newest_entry(app)
    create_game(client, ["Robert", "Zoe", "Yan", "Xu", "Wes", "Val"], name="Later")

    refused = undo(secretary, took_back)

    assert refused.status_code == 400
    assert "Robert is already someone else's name." in text_of(refused)
    assert_kept_figures_are_the_hands(app)
    with app.app_context():
        assert db.session.get(Person, bo).name == "Bo"
