"""A player leaving asks first, says what it changes (R1), and a stale confirmation changes nothing (409)."""

from .tabletop import SIX, create_game, exported, hidden_fields, record_hand, text_of
from .test_house_rules_and_seats import SEVEN, SPREAD

SEVEN_NAMES = SIX + ["Gil"]


def confirmation_url(game_id, player):
    return f"/games/{game_id}/seating/leave?player={player}"


def confirm_leaving(client, game_id, fields, player):
    return client.post(f"/games/{game_id}/seating/leave", data={**fields, "player": str(player)})


def seven_after_one_hand(client):
    game_id = create_game(client, SEVEN_NAMES)
    record_hand(client, game_id, SEVEN)
    return game_id


def test_the_seating_page_asks_before_anyone_leaves(client):
    game_id = seven_after_one_hand(client)

    page = client.get(f"/games/{game_id}/seating").get_data(as_text=True)

    assert f'<form method="get" action="/games/{game_id}/seating/leave">' in page
    assert '<button type="submit" name="player" value="1" class="button">Bo leaves</button>' in page


def test_the_confirmation_says_what_leaving_changes_and_changes_nothing_yet(client):
    game_id = seven_after_one_hand(client)

    response = client.get(confirmation_url(game_id, 1))

    page = text_of(response)
    assert response.status_code == 200
    assert "Does Bo leave the table?" in page
    assert ("Bo keeps their 18 points and is shown as “left after hand 1”. From hand 2 on, they no longer deal, "
            "pass, end the game or win (R1, R16).") in page
    # Ana dealt hand 1 and stays: Bo, left of her, would have dealt hand 2; Caio does (R4).
    assert ("The deal and the passing follow the new seating from hand 2: Caio deals it, and 6 players get "
            "17 cards each (R3, R4, R5).") in page
    assert "At the table for hand 2, clockwise Ana Caio deals Dee Eli Fay Gil" in page
    assert "Yes, Bo leaves" in page and "No, keep Bo at the table" in page
    assert exported(client, game_id).get("left_after", {}) == {}


def test_yes_on_the_confirmation_sees_the_player_off(client):
    game_id = seven_after_one_hand(client)
    fields = hidden_fields(client, confirmation_url(game_id, 1))

    response = confirm_leaving(client, game_id, fields, 1)

    assert response.status_code == 302
    assert exported(client, game_id)["left_after"] == {"Bo": 1}
    assert "Bo leaves after hand 1 and keeps 18 points." in text_of(client.get(response.headers["Location"]))


def test_a_stale_confirmation_is_a_409_showing_the_confirmation_as_it_is_now(client):
    game_id = seven_after_one_hand(client)
    fields = hidden_fields(client, confirmation_url(game_id, 1))
    record_hand(client, game_id, SEVEN)  # another device records hand 2 meanwhile

    response = confirm_leaving(client, game_id, fields, 1)

    page = text_of(response)
    assert response.status_code == 409
    assert "Another device changed this game a moment ago, so nothing was saved." in page
    assert "shown as “left after hand 2”" in page
    assert exported(client, game_id).get("left_after", {}) == {}
    again = confirm_leaving(client, game_id, hidden_fields(client, confirmation_url(game_id, 1)), 1)
    assert again.status_code == 302 and exported(client, game_id)["left_after"] == {"Bo": 2}


def test_a_confirmation_made_stale_by_the_same_leave_is_a_409_with_the_seating_as_it_is_now(client):
    game_id = seven_after_one_hand(client)
    fields = hidden_fields(client, confirmation_url(game_id, 1))
    assert confirm_leaving(client, game_id, fields, 1).status_code == 302  # another phone said yes first

    response = confirm_leaving(client, game_id, fields, 1)

    assert response.status_code == 409
    assert "Players of Friday" in text_of(response)
    assert exported(client, game_id)["seat_changes"] == [{"before_hand": 2, "leave": "Bo"}]


def test_nobody_is_asked_to_leave_a_table_of_six(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = client.get(confirmation_url(game_id, 0))

    assert response.status_code == 400
    assert "Ana cannot leave: the table would have fewer than 6 players (R1)." in text_of(response)
    assert "Yes, Ana leaves" not in text_of(response)


def test_a_confirmation_for_nobody_at_the_table_says_choose_who_leaves(client):
    game_id = seven_after_one_hand(client)

    for player in ("99", "x", ""):
        response = client.get(f"/games/{game_id}/seating/leave?player={player}")

        assert response.status_code == 400
        assert "Choose who leaves." in text_of(response)
