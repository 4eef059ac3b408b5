"""A refused form lists every problem at once, the form's and the engine's, at the top and next to each field."""

import pytest

from scorekeeper.db.models import Game, TrickLog, db

from .tabletop import ELEVEN, SIX, create_game, csrf_token, error_summary, field_errors, game_form, record_hand
from .test_house_rules_and_seats import SPREAD, join
from .test_tricks import play_trick

NINE = ELEVEN[:9]
BAD_TARGET = "The target is a whole number of points, 1 or more."


def post_new_game(client, names, target):
    fields = {**game_form(names, target=target, name="Friday"), "csrf_token": csrf_token(client, "/games/new")}
    return client.post("/games/new", data=fields)


def games_made(app):
    with app.app_context():
        return db.session.execute(db.select(db.func.count()).select_from(Game)).scalar()


# --- A new game ---------------------------------------------------------------------------


def test_a_new_game_with_bad_names_and_a_target_of_0_lists_both_at_once(app, client):
    names = ["Ana", "", "Caio", "ana", "Eli", "Fay"]

    response = post_new_game(client, names, "0")

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert error_summary(response) == [
        ("seat-1", "Enter a name for seat 2, or remove the seat."),
        ("seat-3", "Ana is already at the table (seat 1); give each player a different name."),  # as seat 1 has it
        ("target", BAD_TARGET),
    ]
    assert field_errors(response, "seat-1") == ["Enter a name for seat 2, or remove the seat."]
    assert field_errors(response, "target") == [BAD_TARGET]
    assert 'name="players-2" value="Caio"' in page and 'name="players-3" value="ana"' in page
    assert 'name="target" value="0"' in page
    assert games_made(app) == 0


def test_twelve_seats_and_a_target_of_0_are_refused_together_by_the_engine(app, client):
    response = post_new_game(client, ELEVEN + ["Zé"], "0")

    assert response.status_code == 400
    assert error_summary(response) == [("seat-0", "Cancellation Hearts needs 6 to 11 players (R1)."),
                                       ("target", BAD_TARGET)]
    assert field_errors(response, "players-size") == ["Cancellation Hearts needs 6 to 11 players (R1)."]
    assert 'value="Zé"' in response.get_data(as_text=True)
    assert games_made(app) == 0


def test_a_target_that_is_no_number_is_said_once(client):
    response = post_new_game(client, SIX, "abc")

    assert error_summary(response) == [("target", BAD_TARGET)]


# --- A player joins -------------------------------------------------------------------------


def test_a_join_with_an_empty_name_and_a_start_at_the_target_lists_both(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = join(client, game_id, "  ", 6, start_rule="typed", start="150")

    start_refused = ("A player cannot join with 150 points or more: that is the target, and the game would be "
                     "over (R16).")
    assert response.status_code == 400
    assert error_summary(response) == [("join-name", "Enter a name for the new player."), ("start", start_refused)]
    assert field_errors(response, "join-name") == ["Enter a name for the new player."]
    assert field_errors(response, "start") == [start_refused]
    assert 'name="start" value="150"' in response.get_data(as_text=True)
    assert client.get(f"/games/{game_id}/export.json").get_json().get("seat_changes", []) == []


def test_a_join_before_hand_2_says_so_beside_what_is_wrong_with_the_name(client):
    game_id = create_game(client)

    response = join(client, game_id, "", 2, start_rule="typed", start="x")

    assert [message for _target, message in error_summary(response)] == [
        "Enter a name for the new player.",
        "Type the starting total as a whole number, like 0 or 45.",
        "Hand 1 is played by the starting table: players join or leave from hand 2 on.",
    ]


# --- A trick ----------------------------------------------------------------------------------


def test_a_trick_with_two_unreadable_cards_and_an_empty_one_lists_all_three_at_their_places(app, client):
    game_id = create_game(client, NINE)  # Ana deals, so Bo leads and plays position 0

    response = play_trick(client, game_id, "K♣ X♣ 3♣ 4♣ 5♣ 10x 7♣ 8♣", 1)  # Ana's card, the last, is empty

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert error_summary(response) == [
        ("cards-1", "Caio: “X♣” is not a card. Write a rank and a suit, like 10S, 9h, Q♠, or 2c."),
        ("cards-5", "Gil: “10x” is not a card. Write a rank and a suit, like 10S, 9h, Q♠, or 2c."),
        ("cards-8", "Ana: Enter this player's card."),
    ]
    assert field_errors(response, "cards-5") == [
        "“10x” is not a card. Write a rank and a suit, like 10S, 9h, Q♠, or 2c."]
    assert field_errors(response, "cards-8") == ["Enter this player's card."]
    assert 'value="X♣"' in page and 'value="10x"' in page and 'value="7♣"' in page
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(TrickLog)).scalar() == 0


def test_every_third_copy_of_a_card_is_marked_with_a_card_that_is_no_card(client):
    game_id = create_game(client, NINE)

    response = play_trick(client, game_id, "K♣ K♣ K♣ 4♣ 4♣ 4♣ 7♣ Z 9♣", 1)

    assert [target for target, _message in error_summary(response)] == ["cards-2", "cards-5", "cards-7"]
    assert field_errors(response, "cards-5") == [
        "Trick 1 would hold three 4♣, but the two decks hold only two of each card (R2)."]


@pytest.mark.parametrize("cards", ["Q♠ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", "Q♠ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ X"])
def test_an_apparently_illegal_lead_stays_a_warning_once_the_cards_are_right(client, cards):
    game_id = create_game(client, NINE)

    response = play_trick(client, game_id, cards, 1)

    warned = 'id="confirm"' in response.get_data(as_text=True)
    assert response.status_code == 400
    assert warned is cards.endswith("9♣")  # the lead is questioned only of a trick that can be played (R6)
