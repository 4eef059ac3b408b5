"""House rules kept with a game, and players who join or leave between hands, through the pages (issue 14)."""

import json

import pytest

from scorekeeper import rules
from scorekeeper.db.models import Game, db

from .tabletop import SIX, create_game, csrf_token, exported, hidden_fields, post_hand, record_hand, text_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]  # 5, 18, 4, 17, 4, 4 points (R14)
SEVEN = SPREAD + [(0, 0)]
ALL_HOUSE_RULES = {"moon_points": "52", "moon_choice": "add", "passing": "left right across hold",
                   "cards_passed": "2", "jack_of_diamonds": "y"}


def join(client, game_id, name, at, start_rule="highest", start=""):
    url = f"/games/{game_id}/seating"
    fields = {**hidden_fields(client, url), "name": name, "at": str(at), "start_rule": start_rule, "start": start}
    return client.post(url, data=fields)


def leave(client, game_id, player):
    fields = {**hidden_fields(client, f"/games/{game_id}/seating"), "player": str(player)}
    return client.post(f"/games/{game_id}/seating/leave", data=fields)


def upload(client, document):
    import io

    token = csrf_token(client, "/games/import")
    return client.post("/games/import", data={"csrf_token": token, "document": (
        io.BytesIO(json.dumps(document).encode()), "game.json")}, content_type="multipart/form-data")


def test_a_game_with_the_seeds_rules_exports_them_and_shows_no_house_rule(client):
    game_id = create_game(client)

    document = exported(client, game_id)
    page = text_of(client.get(f"/games/{game_id}"))

    assert document["rules"] == {**rules.SEEDS.facts(), "moon_points": 26, "moon_choice": "either",
                                 "passing": ["left", "right"], "cards_passed": 3, "jack_of_diamonds": 0}
    assert "House rules:" not in page


def test_house_rules_chosen_at_new_game_are_kept_shown_and_exported(client):
    game_id = create_game(client, house_rules=ALL_HOUSE_RULES)

    document = exported(client, game_id)
    page = text_of(client.get(f"/games/{game_id}"))
    rules_page = text_of(client.get(f"/games/{game_id}/rules"))

    assert document["rules"] == {**rules.SEEDS.facts(), "moon_points": 52, "moon_choice": "add",
                                 "passing": ["left", "right", "across", "hold"], "cards_passed": 2,
                                 "jack_of_diamonds": -10}
    assert "House rules:" in page and "Pass 2 cards" in page
    assert "This game's house rule: a moon is worth 52" in rules_page
    assert "This game's house rule: each J♦ taken scores -10" in rules_page


def test_the_jack_of_diamonds_scores_when_the_house_rule_is_on_and_both_must_be_accounted_for(client):
    game_id = create_game(client, house_rules={"jack_of_diamonds": "y"})
    one_jack = [(5, 0, 1), (5, 1, 0), (4, 0, 0), (4, 1, 0), (4, 0, 0), (4, 0, 0)]
    both = [(5, 0, 1), (5, 1, 1), (4, 0, 0), (4, 1, 0), (4, 0, 0), (4, 0, 0)]

    refused = post_hand(client, game_id, one_jack)
    record_hand(client, game_id, both)

    assert refused.status_code == 400
    assert "J♦ to 1 of 2" in text_of(refused)
    assert exported(client, game_id)["hands"][0]["points"] == [-5, 8, 4, 17, 4, 4]


def test_a_moon_scores_by_the_only_choice_the_house_rule_allows_and_its_value(client):
    game_id = create_game(client, house_rules={"moon_points": "52", "moon_choice": "subtract"})
    moon = [(0, 0), (26, 2), (0, 0), (0, 0), (0, 0), (0, 0)]

    record_hand(client, game_id, moon)
    refused_game = create_game(client, house_rules={"moon_choice": "subtract"})
    refused = post_hand(client, refused_game, moon, moon="add")

    assert exported(client, game_id)["hands"][0]["moon"] == "subtract"
    assert exported(client, game_id)["hands"][0]["points"] == [0, -52, 0, 0, 0, 0]
    assert refused.status_code == 400 and "one way only" in text_of(refused)


def test_an_across_hand_at_an_odd_table_is_held_and_the_table_view_says_so(client):
    game_id = create_game(client, SIX + ["Gil"], house_rules={"passing": "left right across hold"})
    record_hand(client, game_id, SEVEN)
    record_hand(client, game_id, SEVEN)

    page = text_of(client.get(f"/games/{game_id}"))

    assert "an across hand is held with an odd number of players" in page
    assert exported(client, game_id)["next"]["pass"] == "hold"


def test_a_player_joins_at_the_highest_total_and_a_player_leaves_keeping_theirs(client):
    game_id = create_game(client, SIX, first_dealer=5)
    record_hand(client, game_id, SPREAD)

    joined = join(client, game_id, "Zé", at=2)
    left = leave(client, game_id, 1)
    document = exported(client, game_id)

    assert joined.status_code == 302 and left.status_code == 302
    assert document["seat_changes"] == [{"before_hand": 2, "join": "Zé", "at": 2, "start": 18},
                                        {"before_hand": 2, "leave": "Bo"}]
    assert document["next"]["seating"] == ["Ana", "Zé", "Caio", "Dee", "Eli", "Fay"]
    assert document["next"]["dealer"] == "Ana" and document["next"]["leader"] == "Zé"
    assert document["totals"]["Bo"] == 18 and document["left_after"] == {"Bo": 1}
    assert "left after hand 1" in text_of(client.get(f"/games/{game_id}"))


def test_a_game_with_house_rules_joins_and_leaves_round_trips_through_its_document(client):
    game_id = create_game(client, SIX, house_rules={"jack_of_diamonds": "y", "passing": "left right across"})
    record_hand(client, game_id, [(5, 0, 1), (5, 1, 1), (4, 0, 0), (4, 1, 0), (4, 0, 0), (4, 0, 0)])
    join(client, game_id, "Zé", at=6, start_rule="typed", start="-3")
    record_hand(client, game_id, [(5, 0, 2), (5, 1, 0), (4, 0, 0), (4, 1, 0), (4, 0, 0), (4, 0, 0), (0, 0, 0)])
    leave(client, game_id, 0)
    original = exported(client, game_id)

    response = upload(client, original)
    copy = exported(client, int(response.headers["Location"].rsplit("/", 1)[1]))

    assert response.status_code == 302
    assert copy == original
    assert original["hands"][1]["seating"] == SIX + ["Zé"]
    assert original["totals"]["Zé"] == -3 and original["left_after"] == {"Ana": 2}


def test_a_seat_change_can_be_undone_until_a_hand_is_played_with_it(client, app):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    join(client, game_id, "Zé", at=0, start_rule="zero")

    trail = client.get(f"/games/{game_id}/trail").get_data(as_text=True)
    change_id = int(trail.split("/changes/")[1].split("/")[0])
    fields = hidden_fields(client, f"/games/{game_id}/trail")
    undone = client.post(f"/games/{game_id}/changes/{change_id}/undo", data=fields)

    assert undone.status_code == 302
    assert exported(client, game_id)["seat_changes"] == []
    assert "Zé" not in exported(client, game_id)["totals"]


def test_removing_a_hand_moves_the_seat_changes_after_it_and_undoing_the_removal_puts_them_back(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, SPREAD)
    join(client, game_id, "Zé", at=0, start_rule="zero")
    record_hand(client, game_id, SEVEN)
    before = exported(client, game_id)

    fields = hidden_fields(client, f"/games/{game_id}/hands/1/remove")
    client.post(f"/games/{game_id}/hands/1/remove", data=fields)
    removed = exported(client, game_id)
    trail = client.get(f"/games/{game_id}/trail").get_data(as_text=True)
    change_id = int(trail.split("/changes/")[1].split("/")[0])
    client.post(f"/games/{game_id}/changes/{change_id}/undo", data=hidden_fields(client, f"/games/{game_id}/trail"))

    assert removed["seat_changes"] == [{"before_hand": 2, "join": "Zé", "at": 0, "start": 0}]
    assert removed["hands"][1]["seating"] == ["Zé"] + SIX
    assert exported(client, game_id) == before


def test_house_rules_changed_later_flow_through_every_hand_and_can_be_undone(client):
    game_id = create_game(client)
    record_hand(client, game_id, [(0, 0), (26, 2), (0, 0), (0, 0), (0, 0), (0, 0)], moon="add")
    url = f"/games/{game_id}/rules"
    fields = {**hidden_fields(client, url), "rules-moon_points": "52", "rules-moon_choice": "either",
              "rules-passing": "left right", "rules-cards_passed": "3"}

    saved = client.post(url, data=fields)
    after = exported(client, game_id)
    forbidden = client.post(url, data={**hidden_fields(client, url), **fields, "rules-moon_choice": "subtract"})

    assert saved.status_code == 302
    assert after["hands"][0]["points"] == [52, 0, 52, 52, 52, 52]
    assert forbidden.status_code == 400 and "Hand 1 does not fit" in text_of(forbidden)
    assert exported(client, game_id)["rules"]["moon_choice"] == "either"


def test_the_jack_of_diamonds_rule_cannot_change_once_hands_are_recorded(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/rules"

    response = client.post(url, data={**hidden_fields(client, url), "rules-moon_points": "26",
                                      "rules-moon_choice": "either", "rules-passing": "left right",
                                      "rules-cards_passed": "3", "rules-jack_of_diamonds": "y"})

    assert response.status_code == 400 and "only before hand 1" in text_of(response)


@pytest.mark.parametrize(("form", "message"), [
    ({"name": "Bo", "at": "0"}, "already plays or played"),
    ({"name": "", "at": "0"}, "Enter a name"),
    ({"name": "Zé", "at": "0", "start_rule": "typed", "start": "abc"}, "whole number"),
    ({"name": "Zé", "at": "0", "start_rule": "typed", "start": "150"}, "150 points or more"),
])
def test_a_refused_join_says_why_and_keeps_what_was_typed(client, form, message):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/seating"

    response = client.post(url, data={**hidden_fields(client, url), "start_rule": "highest", **form})

    assert response.status_code == 400
    assert message in text_of(response)
    assert form["name"] in response.get_data(as_text=True)
    assert exported(client, game_id)["seat_changes"] == []


def test_a_stale_join_is_a_conflict_with_the_form_kept(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/seating"
    stale = hidden_fields(client, url)
    record_hand(client, game_id, SPREAD)

    response = client.post(url, data={**stale, "name": "Zé", "at": "0", "start_rule": "zero"})

    assert response.status_code == 409
    assert 'value="Zé"' in response.get_data(as_text=True)


def test_nobody_can_leave_a_table_of_six_or_join_a_table_of_eleven(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = leave(client, game_id, 0)

    assert response.status_code == 400 and "fewer than 6" in text_of(response)


def version_two(**changes):
    document = {
        "format": "scorekeeper/cancellation-hearts", "version": 2, "name": "Test", "target": 150,
        "rules": {"moon_points": 26, "moon_choice": "either", "passing": ["left", "right"], "cards_passed": 3,
                  "jack_of_diamonds": 0},
        "players": ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gus"], "first_dealer": 0,
        "seat_changes": [{"before_hand": 2, "leave": "Bo"}],
        "hands": [{"number": 1, "taken": [{"hearts": h, "marias": m} for h, m in SEVEN],
                   "uncollected": {"hearts": 0, "marias": 0}, "moon": None},
                  {"number": 2, "taken": [{"hearts": h, "marias": m} for h, m in SPREAD],
                   "uncollected": {"hearts": 0, "marias": 0}, "moon": None}],
    }
    for key, value in changes.items():
        document[key] = value
    return document


def with_hand(index, **fields):
    document = version_two()
    document["hands"][index].update(fields)
    return document


@pytest.mark.parametrize(("document", "message"), [
    (version_two(rules={"moon_points": 40}), "moon_points"),
    (version_two(rules={"passing": ["sideways"]}), "passing"),
    (version_two(rules={"trumps": True}), "trumps"),
    (version_two(seat_changes=[{"before_hand": 2, "leave": "Nobody"}]), "not a player"),
    (version_two(seat_changes=[{"before_hand": 2, "leave": "Bo"}, {"before_hand": 2, "leave": "Bo"}]),
     "not at the table"),
    (version_two(players=SIX, hands=[], seat_changes=[{"before_hand": 3, "leave": "Ana"}]),
     "Hand 1 is played by the starting table"),
    (version_two(seat_changes=[{"before_hand": 2, "join": "Ana", "at": 0, "start": 0}]), "already"),
    (version_two(seat_changes=[{"before_hand": 2, "leave": "Bo"}, {"before_hand": 2, "leave": "Caio"}]),
     "fewer than 6"),
    (version_two(seat_changes=[{"before_hand": 1, "leave": "Bo"}]), "hand 2 on"),
    (with_hand(0, taken=[{"hearts": h, "marias": m, "jacks": 1} for h, m in SEVEN]), "do not score them"),
    (version_two(rules={"jack_of_diamonds": -10}), "\"jacks\""),
    (version_two(rules={"moon_choice": "subtract"}, seat_changes=[], hands=[
        {"number": 1, "taken": [{"hearts": 26, "marias": 2}] + [{"hearts": 0, "marias": 0}] * 6,
         "uncollected": {"hearts": 0, "marias": 0}, "moon": "add"}]), "one way only"),
    (with_hand(1, taken=[{"hearts": h, "marias": m} for h, m in SEVEN]), "in its seating"),
    (with_hand(1, seating=["Bo", "Ana", "Caio", "Dee", "Eli", "Fay"]), "in its seating"),
])
def test_an_invalid_version_two_document_is_refused_whole_with_a_message(app, client, document, message):
    response = upload(client, document)

    assert response.status_code == 400
    assert message in text_of(response)
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Game)).scalar() == 0


@pytest.mark.parametrize(("name", "message"), [
    ("\u0410na", "Ana already plays or played in this game"),  # Cyrillic А beside Ana, who is named
    ("Zé\u200b", "A name cannot hold invisible characters"),
    ("\u0301", "A name needs a letter, a digit or another sign that shows"),
])
def test_a_joiner_whose_name_only_looks_new_is_refused_and_nothing_is_stored(client, name, message):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = join(client, game_id, name, 0)

    assert response.status_code == 400
    assert message in text_of(response)
    assert exported(client, game_id)["seat_changes"] == []


def test_an_imported_joiner_whose_name_only_looks_new_is_refused_r1(app, client):
    response = upload(client, version_two(seat_changes=[
        {"before_hand": 2, "leave": "Bo"}, {"before_hand": 2, "join": "\u0410na", "at": 0, "start": 0}]))

    assert response.status_code == 400
    assert "Seat change 2: Ana is already at the table (seat 1)" in text_of(response)
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Game)).scalar() == 0


def coming_and_going(pairs, last_join=False):
    """Bo leaves before hand 2, then ``pairs`` players each join and leave again (and one more joins)."""
    changes = [{"before_hand": 2, "leave": "Bo"}]
    for number in range(1, pairs + 1):
        changes += [{"before_hand": 2, "join": f"Guest {number}", "at": 0, "start": 0},
                    {"before_hand": 2, "leave": f"Guest {number}"}]
    if last_join:
        changes.append({"before_hand": 2, "join": "Zed", "at": 0, "start": 0})
    return version_two(seat_changes=changes, hands=version_two()["hands"][:1])


def test_at_most_22_players_join_or_leave_before_one_hand_in_an_import_r1(app, client):
    accepted = upload(client, coming_and_going(10, last_join=True))  # 22 changes

    refused = upload(client, coming_and_going(11))  # 23

    assert accepted.status_code == 302
    assert refused.status_code == 400
    assert ("Seat changes: At most 22 players can join or leave before one hand, and 22 already have before "
            "hand 2 (R1).") in text_of(refused)
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Game)).scalar() == 1


def test_the_seat_forms_refuse_a_23rd_change_before_one_hand_and_store_nothing_r1(app, client):
    game_id = int(upload(client, coming_and_going(10, last_join=True)).headers["Location"].rsplit("/", 1)[1])
    before = exported(client, game_id)

    joined = join(client, game_id, "Yan", 0)
    left = leave(client, game_id, 0)

    message = "At most 22 players can join or leave before one hand, and 22 already have before hand 2 (R1)."
    assert joined.status_code == 400 and message in text_of(joined)
    assert left.status_code == 400 and message in text_of(left)
    assert exported(client, game_id) == before


def test_a_restore_refuses_a_game_of_23_changes_before_one_hand_and_restores_nothing_r1(app):
    from scorekeeper.documents.backup import FORMAT, VERSION, DocumentError, restore_document

    with app.app_context(), pytest.raises(DocumentError) as refused:
        restore_document({"format": FORMAT, "version": VERSION,
                          "games": [version_two(), coming_and_going(11)]})

    assert "At most 22 players can join or leave before one hand" in str(refused.value)
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Game)).scalar() == 0


def test_a_valid_version_two_document_imports(client):
    response = upload(client, version_two())

    document = exported(client, int(response.headers["Location"].rsplit("/", 1)[1]))

    assert document["left_after"] == {"Bo": 1}
    assert document["hands"][1]["seating"] == ["Ana", "Caio", "Dee", "Eli", "Fay", "Gus"]
