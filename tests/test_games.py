"""Web tests of the games: setting up, recording, correcting, removing, game over."""

import re
from datetime import datetime

import pytest

from scorekeeper import create_app
from scorekeeper.db.models import Change, Game, Hand, Player, db
from scorekeeper.service.names import has_control_characters

from .tabletop import (
    ELEVEN,
    SIX,
    create_game,
    csrf_token,
    exported,
    game_document,
    game_form,
    hand_form,
    hidden_fields,
    post_hand,
    record_hand,
    store_games,
    text_of,
)

# 26 hearts and both Black Marias spread over six players: points 5, 18, 4, 17, 4, 4.
SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
SPREAD_POINTS = [5, 18, 4, 17, 4, 4]
MOON_FOR_ANA = [(26, 2)] + [(0, 0)] * 5


CONTROL_CHARACTERS = "A name cannot hold tabs, line breaks or other control characters."
INVISIBLE_CHARACTERS = ("A name cannot hold invisible characters, such as zero-width spaces or marks that turn the "
                        "direction of the text.")
NOTHING_SHOWN = "A name needs a letter, a digit or another sign that shows, not only accents or blank characters."
CYRILLIC_ANA = "\u0410na"  # Cyrillic capital А, then Latin "na": drawn as "Ana"


def count(app, model):
    with app.app_context():
        return db.session.execute(db.select(db.func.count()).select_from(model)).scalar()


# --- New game -------------------------------------------------------------------


def test_game_for_six_players_starts_with_first_dealer_and_leader(client):
    game_id = create_game(client, SIX, first_dealer=2)

    page = text_of(client.get(f"/games/{game_id}"))

    assert "Hand 1" in page
    assert "Deals Caio" in page
    assert "Leads the first trick Dee" in page
    assert "17 each, 2 face down to the kitty" in page


def test_game_for_eleven_players_deals_nine_each_with_a_kitty_of_five(client):
    game_id = create_game(client, ELEVEN)

    document = exported(client, game_id)

    assert document["players"] == ELEVEN
    assert document["next"]["cards_each"] == 9
    assert document["next"]["kitty"] == 5


def test_names_in_any_script_are_kept_trimmed(client):
    names = ["  José ", "Søren", "Nur Aisyah", "🂡 Ace", "Zoë", "Ōta"]

    game_id = create_game(client, names)

    assert exported(client, game_id)["players"] == ["José", "Søren", "Nur Aisyah", "🂡 Ace", "Zoë", "Ōta"]


def test_a_game_name_with_a_control_character_is_refused(app, client):
    fields = {**game_form(SIX, name="Friday\x00night"), "csrf_token": csrf_token(client, "/games/new")}

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    assert CONTROL_CHARACTERS in text_of(response)
    assert count(app, Game) == 0


def test_blank_game_name_defaults_to_the_date(client):
    game_id = create_game(client, name="  ")

    name = exported(client, game_id)["name"]

    assert len(name) == 10 and name[4] == "-" and name[7] == "-"


@pytest.mark.parametrize(("names", "message"), [
    (["Ana", "Bo", "", "Dee", "Eli", "Fay"], "Enter a name for seat 3, or remove the seat."),
    (["Ana", "Bo", "   ", "Dee", "Eli", "Fay"], "Enter a name for seat 3, or remove the seat."),
    (["Ana", "Bo", "ana", "Dee", "Eli", "Fay"], "Ana is already at the table (seat 1)"),
    (["Ana", "Bo", "x" * 41, "Dee", "Eli", "Fay"], "Keep names to 40 characters."),
    (["Ana", "Bo", "Caio", "Dee", "Eli"], "Enter a name for seat 6, or remove the seat."),
    (ELEVEN + ["Lu"], "Cancellation Hearts needs 6 to 11 players (R1)."),
    (["Ana", "Bo", "Ca\x00io", "Dee", "Eli", "Fay"], CONTROL_CHARACTERS),
    (["Ana", "Bo", "Ca\tio", "Dee", "Eli", "Fay"], CONTROL_CHARACTERS),
    (["Ana", "Bo", "Ca\u2028io", "Dee", "Eli", "Fay"], CONTROL_CHARACTERS),  # LINE SEPARATOR
    (["Ana", "Bo", "Ana\u200b", "Dee", "Eli", "Fay"], INVISIBLE_CHARACTERS),  # ZERO WIDTH SPACE
    (["Ana", "Bo", "\u202eoiaC", "Dee", "Eli", "Fay"], INVISIBLE_CHARACTERS),  # RIGHT-TO-LEFT OVERRIDE
    (["Ana", "Bo", "\u200e\u200f", "Dee", "Eli", "Fay"], INVISIBLE_CHARACTERS),  # bidi marks only
    (["Ana", "Bo", "\u0301\u0301", "Dee", "Eli", "Fay"], NOTHING_SHOWN),  # combining marks only
    (["Ana", "Bo", "\u3164", "Dee", "Eli", "Fay"], NOTHING_SHOWN),  # HANGUL FILLER
    (["Ana", "Bo", CYRILLIC_ANA, "Dee", "Eli", "Fay"], "Ana is already at the table (seat 1)"),
])
def test_bad_player_names_are_refused_with_a_message_and_nothing_typed_is_lost(app, client, names, message):
    fields = game_form(names, name="Keep me")
    fields["csrf_token"] = csrf_token(client, "/games/new")

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in text_of(response)
    assert 'value="Keep me"' in page
    for name in names[:11]:
        if name.strip() and not has_control_characters(name):
            assert f'value="{name}"' in page
    assert count(app, Game) == 0


@pytest.mark.parametrize(("second", "message"), [
    ("Ana\u200b", INVISIBLE_CHARACTERS),
    (CYRILLIC_ANA, "Ana is already at the table (seat 1)"),
])
def test_a_second_ana_that_only_looks_like_ana_is_refused_beside_its_seat(app, client, second, message):
    names = ["Ana", "Bo", "Caio", second, "Eli", "Fay"]
    fields = {**game_form(names, name="Keep me"), "csrf_token": csrf_token(client, "/games/new")}

    response = client.post("/games/new", data=fields)

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert re.search(r'<span class="error" id="seat-3-error">\s*' + re.escape(message), page)
    assert page.count('class="error" id="seat-') == 1
    assert all(f'value="{name}"' in page for name in names) and 'value="Keep me"' in page
    assert count(app, Game) == 0


@pytest.mark.parametrize("name", ["Friday \u202ethgin", "Friday\u2028night", "\u200b"])
def test_a_game_name_with_an_invisible_or_separating_character_is_refused(app, client, name):
    fields = {**game_form(SIX, name=name), "csrf_token": csrf_token(client, "/games/new")}

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    assert INVISIBLE_CHARACTERS in text_of(response) or CONTROL_CHARACTERS in text_of(response)
    assert count(app, Game) == 0


def test_five_players_cannot_start_even_without_the_sixth_row(app, client):
    fields = {**game_form(SIX[:5]), "csrf_token": csrf_token(client, "/games/new")}
    del fields["players-4"]

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    assert count(app, Player) == 0


@pytest.mark.parametrize(("target", "message"), [
    ("0", "The target is a whole number of points, 1 or more."),
    ("-5", "The target is a whole number of points, 1 or more."),
    ("abc", "The target is a whole number of points, 1 or more."),
    ("12.5", "The target is a whole number of points, 1 or more."),
    ("", "Enter the target score; 150 is usual."),
])
def test_bad_target_is_refused_next_to_the_field(app, client, target, message):
    fields = game_form(SIX, target=target)
    fields["csrf_token"] = csrf_token(client, "/games/new")

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    assert message in text_of(response)
    assert f'id="target" name="target" value="{target}"' in response.get_data(as_text=True)
    assert count(app, Game) == 0


def test_target_below_one_hundred_warns_but_creates_the_game(client):
    game_id = create_game(client, target=50)

    page = text_of(client.get(f"/games/{game_id}"))

    assert "A target of 50 makes a short game" in page
    assert exported(client, game_id)["target"] == 50


def test_adding_and_removing_seats_keeps_the_names_typed(client):
    fields = game_form(["Ana", "Bo", "Caio", "Dee", "Eli", "Fay"], first_dealer=3)
    fields["csrf_token"] = csrf_token(client, "/games/new")

    added = client.post("/games/new", data={**fields, "add": "1"})
    removed = client.post("/games/new", data={**fields, "players-6": "Gil", "remove": "1"})

    assert added.status_code == 200
    assert 'name="players-6" value=""' in added.get_data(as_text=True)
    page = removed.get_data(as_text=True)
    assert 'name="players-1" value="Caio"' in page
    assert 'name="players-5" value="Gil"' in page
    assert 'name="first_dealer" value="2" checked' in page  # Dee moved from seat 4 to seat 3


def test_missing_csrf_token_saves_nothing_and_keeps_the_form(app, client):
    response = client.post("/games/new", data=game_form(SIX, name="No token"))

    assert response.status_code == 400
    assert "nothing was saved" in text_of(response)
    assert 'value="No token"' in response.get_data(as_text=True)
    assert count(app, Game) == 0


# --- The table view: dealer, leader, passing -------------------------------------


def test_dealer_leader_and_passing_follow_hands_one_to_three(client):
    game_id = create_game(client, SIX, first_dealer=0)
    expected = [
        ("Hand 1", "Deals Ana", "Leads the first trick Bo", "to the left", "Ana passes to Bo"),
        ("Hand 2", "Deals Bo", "Leads the first trick Caio", "to the right", "Ana passes to Fay"),
        ("Hand 3", "Deals Caio", "Leads the first trick Dee", "to the left", "Fay passes to Ana"),
    ]

    pages = []
    for _number in range(3):
        pages.append(text_of(client.get(f"/games/{game_id}")))
        record_hand(client, game_id, SPREAD)

    for page, facts in zip(pages, expected):
        for fact in facts:
            assert fact in page


def test_scoreboard_shows_totals_distance_to_target_and_history(client):
    game_id = create_game(client)

    record_hand(client, game_id, SPREAD)
    page = text_of(client.get(f"/games/{game_id}"))

    assert "Ana 5 145" in page
    assert "Bo deals 18 132" in page
    assert "Caio lowest 4 146" in page


# --- Recording hands -----------------------------------------------------------


def test_recorded_hand_scores_one_per_heart_and_thirteen_per_black_maria(client):
    game_id = create_game(client)

    record_hand(client, game_id, SPREAD)

    document = exported(client, game_id)
    assert document["hands"][0]["points"] == SPREAD_POINTS
    assert list(document["totals"].values()) == SPREAD_POINTS
    assert document["next"] == {"number": 2, "seating": SIX, "dealer": SIX[1], "leader": SIX[2], "pass": "right",
                                "cards_passed": 3, "cards_each": 17, "kitty": 2}


def test_moon_asks_the_shooter_for_a_choice_before_recording(app, client):
    game_id = create_game(client)

    response = post_hand(client, game_id, MOON_FOR_ANA)

    assert response.status_code == 400
    assert "Ana took all 26 hearts and both Black Marias" in text_of(response)
    page = response.get_data(as_text=True)
    assert 'id="takings-0-hearts" name="takings-0-hearts"\n                 value="26"' in page
    assert count(app, Hand) == 0


@pytest.mark.parametrize(("moon", "points"), [
    ("subtract", [-26, 0, 0, 0, 0, 0]),
    ("add", [0, 26, 26, 26, 26, 26]),
])
def test_moon_scores_by_the_shooters_choice(client, moon, points):
    game_id = create_game(client)

    record_hand(client, game_id, MOON_FOR_ANA, moon=moon)

    hand = exported(client, game_id)["hands"][0]
    assert hand["moon"] == moon
    assert hand["points"] == points


def test_moon_choice_without_a_shooter_is_ignored(client):
    game_id = create_game(client)

    record_hand(client, game_id, SPREAD, moon="add")

    assert exported(client, game_id)["hands"][0]["moon"] is None


def test_short_hand_needs_the_table_to_confirm_a_reserved_last_trick(app, client):
    game_id = create_game(client)
    short = [(5, 0), (5, 1), (4, 0), (4, 0), (4, 0), (1, 0)]

    refused = post_hand(client, game_id, short)
    accepted = post_hand(client, game_id, short, reserved=True)

    assert refused.status_code == 400
    assert "The hearts add up to 23 of 26 and the Black Marias to 1 of 2" in text_of(refused)
    assert accepted.status_code == 302
    hand = exported(client, game_id)["hands"][0]
    assert hand["uncollected"] == {"hearts": 3, "marias": 1}
    assert hand["points"] == [5, 18, 4, 4, 4, 1]


@pytest.mark.parametrize(("taken", "message"), [
    ([(20, 0), (7, 2), (0, 0), (0, 0), (0, 0), (0, 0)], "The hearts add up to 27, but a hand holds only 26 (R14)."),
    ([(26, 1), (0, 1), (0, 1), (0, 0), (0, 0), (0, 0)], "The Black Marias add up to 3, but a hand holds only 2 (R14)."),
    ([(27, 2), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], "Ana cannot have taken 27 hearts: a hand holds 26 (R14)."),
    ([("-1", 2), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], "Enter the hearts as a whole number, like 0 or 5."),
    ([("three", 2), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], "Enter the hearts as a whole number, like 0 or 5."),
    ([("123", 2), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], "Enter the hearts as a whole number, like 0 or 5."),
    ([(26, 3), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], "Choose 0, 1 or 2 Black Marias."),
    ([(26, "x"), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], "Choose 0, 1 or 2 Black Marias."),
])
def test_impossible_counts_are_refused_in_plain_words_keeping_what_was_typed(app, client, taken, message):
    game_id = create_game(client)

    response = post_hand(client, game_id, taken)

    assert response.status_code == 400
    assert message in text_of(response)
    assert f'value="{taken[0][0]}"' in response.get_data(as_text=True)
    assert count(app, Hand) == 0


def test_rest_button_fills_the_remaining_hearts_without_saving(app, client):
    game_id = create_game(client)
    url = f"/games/{game_id}/hands/new"
    fields = {**hidden_fields(client, url), "fill": "5"}
    for seat, hearts in enumerate(["5", "5", "4", "4", "4", ""]):
        fields[f"takings-{seat}-hearts"] = hearts

    response = client.post(url, data=fields)

    assert response.status_code == 200
    assert 'name="takings-5-hearts"\n                 value="4"' in response.get_data(as_text=True)
    assert count(app, Hand) == 0


def test_double_tap_on_save_records_the_hand_once_and_keeps_what_was_typed(app, client):
    game_id = create_game(client)
    url = f"/games/{game_id}/hands/new"
    fields = {**hidden_fields(client, url), **hand_form(SPREAD, 1)}

    first = client.post(url, data=fields)
    second = client.post(url, data=fields)
    third = client.post(url, data=fields)

    assert first.status_code == 302
    assert (second.status_code, third.status_code) == (409, 409)
    assert "Hand 1 is saved already, with the figures you typed (by another phone, or by a second tap on Save)." \
        in text_of(second)
    assert 'name="takings-1-hearts"\n                 value="5"' in second.get_data(as_text=True)
    assert 'name="number" value="1"' in second.get_data(as_text=True)  # a third tap records no hand 2
    assert count(app, Hand) == 1


def test_form_posted_with_a_nonsense_hand_number_is_a_bad_request(app, client):
    game_id = create_game(client)
    url = f"/games/{game_id}/hands/new"
    fields = {**hidden_fields(client, url), **hand_form(SPREAD, 1), "number": "<b>"}

    response = client.post(url, data=fields)

    assert response.status_code == 400
    assert count(app, Hand) == 0


def test_unknown_game_and_hand_are_not_found(client):
    game_id = create_game(client)

    assert client.get("/games/999").status_code == 404
    assert client.get(f"/games/{game_id}/hands/1").status_code == 404
    assert client.get(f"/games/{game_id}/hands/0/remove").status_code == 404


# --- Game over, corrections, removal -------------------------------------------


def play_to_target(client, target=30):
    """A six-player game where hand 2 takes Bo past the target; Caio, Eli, and Fay tie on 8."""
    game_id = create_game(client, target=target)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, SPREAD)
    return game_id


def test_game_is_over_when_anyone_reaches_the_target_and_ties_share_the_win(client):
    game_id = play_to_target(client)

    document = exported(client, game_id)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    page = text_of(client.get(f"/games/{game_id}"))

    assert list(document["totals"].values()) == [10, 36, 8, 34, 8, 8]
    assert document["status"] == "over"
    assert document["winners"] == [SIX[2], SIX[4], SIX[5]]
    assert document["next"] is None
    assert "Caio, Eli, and Fay share the win with 8 points each (R16)." in page
    # The list numbers the places itself, once; tied players share one (R16).
    assert re.findall(r'<li value="(\d+)">(\w+) <span class="num">(\d+)</span>', html) == [
        ("1", "Caio", "8"), ("1", "Eli", "8"), ("1", "Fay", "8"), ("4", "Ana", "10"), ("5", "Dee", "34"),
        ("6", "Bo", "36")]


def test_no_hand_can_be_added_after_game_over(app, client):
    game_id = play_to_target(client)
    fields = {**hand_form(SPREAD, 3), "csrf_token": csrf_token(client, "/games/new"),
              "revision": str(client.get(f"/games/{game_id}/state").get_json()["revision"])}

    response = client.post(f"/games/{game_id}/hands/new", data=fields)

    assert response.status_code == 302
    assert count(app, Hand) == 2
    assert "The game is over" in text_of(client.get(f"/games/{game_id}"))


def test_correction_changes_the_winner(client):
    game_id = play_to_target(client)

    corrected = [(4, 0), (5, 1), (5, 0), (4, 1), (4, 0), (4, 0)]
    response = post_hand(client, game_id, corrected, number=2)

    assert response.status_code == 302
    document = exported(client, game_id)
    assert list(document["totals"].values()) == [9, 36, 9, 34, 8, 8]
    assert document["winners"] == [SIX[4], SIX[5]]


def test_correction_that_brings_everyone_under_the_target_reopens_the_game(client):
    game_id = play_to_target(client)

    response = post_hand(client, game_id, [(4, 0), (4, 0), (5, 1), (4, 0), (5, 1), (4, 0)], number=2)

    assert response.status_code == 302
    document = exported(client, game_id)
    assert list(document["totals"].values()) == [9, 22, 22, 21, 22, 8]
    assert document["status"] == "open"
    assert document["next"]["number"] == 3
    assert "Record hand 3" in text_of(client.get(f"/games/{game_id}"))


def test_correction_that_would_end_the_game_before_later_hands_is_refused(app, client):
    game_id = create_game(client, target=30)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, [(5, 1), (5, 0), (4, 0), (4, 1), (4, 0), (4, 0)])

    response = post_hand(client, game_id, [(0, 0), (13, 2), (13, 0), (0, 0), (0, 0), (0, 0)], number=1)

    assert response.status_code == 400
    assert "the game would be over after hand 1 (R16)" in text_of(response)
    assert exported(client, game_id)["hands"][0]["points"] == SPREAD_POINTS


def test_removing_a_hand_asks_first_then_renumbers_later_hands(app, client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, MOON_FOR_ANA, moon="add")
    url = f"/games/{game_id}/hands/1/remove"

    question = client.get(url)
    hands_after_asking = count(app, Hand)
    response = client.post(url, data=hidden_fields(client, url))

    assert "Remove hand 1?" in text_of(question)
    assert hands_after_asking == 2
    assert response.status_code == 302
    document = exported(client, game_id)
    assert [hand["number"] for hand in document["hands"]] == [1]
    assert document["hands"][0]["moon"] == "add"
    assert document["hands"][0]["dealer"] == SIX[0]


def test_removal_without_the_csrf_token_removes_nothing(app, client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = client.post(f"/games/{game_id}/hands/1/remove", data={})

    assert response.status_code == 400
    assert count(app, Hand) == 1


# --- Games list ------------------------------------------------------------------


def test_games_list_shows_newest_first_with_status(client):
    first = play_to_target(client)
    second = create_game(client, name="Saturday")

    page = text_of(client.get("/"))

    assert page.index("Saturday") < page.index("Friday")
    assert "In progress: hand 1 next" in page
    assert "Over: Caio, Eli, and Fay won with 8" in page
    assert first != second


def test_the_games_list_shows_twenty_games_a_page_newest_first_with_a_way_to_older_ones(app, client):
    documents = [game_document(f"Night {number}", SIX, 0, 150, []) for number in range(1, 46)]
    store_games(app, documents)

    first = client.get("/")
    older = re.search(r'href="(/\?before=\d+)"', first.get_data(as_text=True)).group(1)
    second = client.get(older)
    last = client.get(re.search(r'href="(/\?before=\d+)"', second.get_data(as_text=True)).group(1))

    names = [re.findall(r"Night \d+", text_of(page)) for page in (first, second, last)]
    assert names[0] == [f"Night {number}" for number in range(45, 25, -1)]
    assert names[1] == [f"Night {number}" for number in range(25, 5, -1)]
    assert names[2] == [f"Night {number}" for number in range(5, 0, -1)]
    assert "Older games" not in text_of(last) and "Newest games" in text_of(last)


def test_trail_times_are_shown_in_the_tables_time_zone(database_uri):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_uri,
                      "BABEL_DEFAULT_TIMEZONE": "America/Sao_Paulo"})
    client = app.test_client()
    game_id = create_game(client, SIX)
    record_hand(client, game_id, SPREAD)
    with app.app_context():
        db.session.execute(db.update(Change).values(at=datetime(2026, 12, 1, 12, 0)))  # noon UTC
        db.session.commit()

    page = client.get(f"/games/{game_id}/trail").get_data(as_text=True)
    with app.app_context():
        db.engine.dispose()

    assert '<time datetime="2026-12-01T12:00:00Z">12/1/26, 9:00\u202fAM</time>' in page  # São Paulo is UTC-3
