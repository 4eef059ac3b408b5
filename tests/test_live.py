"""The table watching: live state with ETags, the read-only view, the display, QR and chart."""

from .tabletop import SIX, create_game, hidden_fields, record_hand, text_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]


def test_state_answers_an_empty_304_while_nothing_changed(client):
    game_id = create_game(client)

    first = client.get(f"/games/{game_id}/state")
    again = client.get(f"/games/{game_id}/state", headers={"If-None-Match": first.headers["ETag"]})

    assert first.status_code == 200
    assert first.get_json() == {"revision": 1}
    assert again.status_code == 304
    assert again.get_data() == b""


def test_every_write_moves_the_revision(client):
    game_id = create_game(client)
    revisions = [client.get(f"/games/{game_id}/state").get_json()["revision"]]

    record_hand(client, game_id, SPREAD)
    revisions.append(client.get(f"/games/{game_id}/state").get_json()["revision"])
    url = f"/games/{game_id}/hands/1"
    client.post(url, data={**hidden_fields(client, url),
                           **{f"takings-{s}-hearts": h for s, (h, _m) in enumerate(SPREAD[::-1])},
                           **{f"takings-{s}-marias": m for s, (_h, m) in enumerate(SPREAD[::-1])}})
    revisions.append(client.get(f"/games/{game_id}/state").get_json()["revision"])
    remove = f"/games/{game_id}/hands/1/remove"
    client.post(remove, data=hidden_fields(client, remove))
    revisions.append(client.get(f"/games/{game_id}/state").get_json()["revision"])

    assert revisions == [1, 2, 3, 4]


def test_state_of_an_unknown_game_is_not_found(client):
    assert client.get("/games/404/state").status_code == 404


def test_watch_view_shows_the_table_without_any_way_to_change_it(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = client.get(f"/games/{game_id}/watch")
    page = response.get_data(as_text=True)

    assert "Hand 2" in text_of(response)
    assert "Record hand" not in page
    assert f"/games/{game_id}/hands/1" not in page
    assert 'method="post"' not in page


def test_table_view_offers_the_read_only_link_as_a_qr_code_and_a_chart(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    code = client.get(f"/games/{game_id}/share.svg")

    assert f"/games/{game_id}/watch" in page
    assert page.count("<svg") == 1  # the score chart; the QR code is an image of its own, kept by the phone
    assert f'<img class="qr" src="/games/{game_id}/share.svg"' in page
    assert code.status_code == 200 and code.mimetype == "image/svg+xml" and code.cache_control.max_age == 3600
    assert code.get_data().startswith(b"<svg") and b'xmlns="http://www.w3.org/2000/svg"' in code.get_data()
    assert client.get("/games/999/share.svg").status_code == 404
    assert "Each player&#39;s total after every hand" in page or "Each player's total after every hand" in page
    for name in SIX:
        assert f">{name}</text>" in page


def test_display_shows_dealer_passing_and_totals_in_large_type(client):
    game_id = create_game(client, first_dealer=3)

    page = text_of(client.get(f"/games/{game_id}/display"))

    assert "Hand 1" in page and "Deals Dee" in page and "Leads the first trick Eli" in page
    assert "to the left" in page


def test_numbers_follow_the_readers_language(client):
    game_id = create_game(client, target=5000)

    english = client.get(f"/games/{game_id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    portuguese = client.get(f"/games/{game_id}", headers={"Accept-Language": "pt"}).get_data(as_text=True)
    norwegian = client.get(f"/games/{game_id}", headers={"Accept-Language": "nb"}).get_data(as_text=True)

    assert '<td class="num">5,000</td>' in english
    assert '<td class="num">5.000</td>' in portuguese
    assert '<td class="num">5\u00a0000</td>' in norwegian
