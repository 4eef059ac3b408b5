"""Who may write, races between devices, the audit trail and the security headers."""

import json
import os
import re
import stat
import threading

import pytest

from scorekeeper import create_app
from scorekeeper.db.models import Change, Game, Hand, db

from .conftest import migrated
from .tabletop import create_game, exported, hand_form, hidden_fields, post_hand, record_hand, text_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
OTHER = [(4, 0), (4, 0), (5, 1), (4, 0), (5, 1), (4, 0)]


def scorer_key(app, game_id):
    with app.app_context():
        return db.session.get(Game, game_id).scorer_key


def hands(app):
    with app.app_context():
        return db.session.execute(db.select(db.func.count()).select_from(Hand)).scalar()


@pytest.fixture
def game_id(client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    return game_id


@pytest.fixture
def bystander(app):
    """Another phone at the table: no scorer key."""
    return app.test_client()


# --- Who may write -------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/hands/new", "/hands/1", "/hands/1/remove", "/play"])
def test_a_phone_without_the_scorer_key_cannot_open_a_write_form(bystander, game_id, url):
    response = bystander.get(f"/games/{game_id}{url}")

    assert response.status_code == 403
    assert "Only the scorer's device can change this game" in text_of(response)


@pytest.mark.parametrize("url", ["/hands/new", "/hands/1", "/hands/1/remove", "/play", "/play/kitty", "/play/undo"])
def test_a_phone_without_the_scorer_key_cannot_write_even_with_a_valid_form(app, client, bystander, game_id, url):
    fields = {**hidden_fields(bystander, "/games/new"), **hand_form(SPREAD, 2),
              "revision": "2", "cards-0": "2C"}
    before = exported(client, game_id)

    response = bystander.post(f"/games/{game_id}{url}", data=fields)

    assert response.status_code == 403
    assert exported(client, game_id) == before


def test_the_table_view_is_read_only_without_the_key(bystander, game_id):
    page = bystander.get(f"/games/{game_id}").get_data(as_text=True)

    assert "Record hand" not in page
    assert "/scorer/" not in page


def test_the_scorer_key_stays_out_of_read_only_pages_and_the_export(app, client, bystander, game_id):
    key = scorer_key(app, game_id)

    for url in [f"/games/{game_id}/watch", f"/games/{game_id}/display", f"/games/{game_id}", "/",
                f"/games/{game_id}/export.json", f"/games/{game_id}/state", f"/games/{game_id}/sheet",
                f"/games/{game_id}/sheet.csv", "/players", "/stats.json"]:
        assert key not in bystander.get(url).get_data(as_text=True), url
    assert key not in client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    assert key not in client.get(f"/games/{game_id}/watch").get_data(as_text=True)
    assert f"/games/{game_id}/scorer/{key}" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_the_secret_scorer_link_makes_a_second_scorer(app, client, bystander, game_id):
    key = scorer_key(app, game_id)

    wrong = bystander.get(f"/games/{game_id}/scorer/{key[:-1]}{'y' if key.endswith('x') else 'x'}")
    right = bystander.get(f"/games/{game_id}/scorer/{key}")
    response = post_hand(bystander, game_id, OTHER)

    assert wrong.status_code == 404
    assert right.status_code == 302
    assert response.status_code == 302
    assert hands(app) == 2


def test_scorer_keys_are_unguessable_and_different_per_game(app, client):
    first, second = create_game(client), create_game(client)

    keys = {scorer_key(app, first), scorer_key(app, second)}

    assert len(keys) == 2
    assert all(len(key) >= 32 for key in keys)


# --- Races ------------------------------------------------------------------------------


def race(app, game_id, key, make_fields, url, rounds):
    """Two devices post at the same moment, ``rounds`` times; return the status pairs."""
    results = []
    for _round in range(rounds):
        devices = [app.test_client(), app.test_client()]
        for device in devices:
            device.get(f"/games/{game_id}/scorer/{key}")
        forms = [make_fields(device) for device in devices]
        barrier = threading.Barrier(2)
        statuses = [None, None]

        def post(i):
            barrier.wait()
            statuses[i] = devices[i].post(url, data=forms[i]).status_code

        threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        results.append(tuple(sorted(statuses)))
    return results


def test_two_devices_recording_the_same_hand_at_once_record_it_once(app, client):
    game_id = create_game(client, target=10000)
    key = scorer_key(app, game_id)
    url = f"/games/{game_id}/hands/new"
    rounds = 15

    results = race(app, game_id, key, lambda device: {**hidden_fields(device, url), **hand_form(SPREAD, 0)}
                   | {"number": hidden_fields(device, url)["number"]}, url, rounds)

    print(f"races: {rounds} record races run, {hands(app)} hands recorded, nothing lost or doubled")
    assert results == [(302, 409)] * rounds
    assert hands(app) == rounds
    assert [hand["number"] for hand in exported(client, game_id)["hands"]] == list(range(1, rounds + 1))


def test_two_devices_correcting_the_same_hand_at_once_one_wins(app, client, game_id):
    key = scorer_key(app, game_id)
    url = f"/games/{game_id}/hands/1"
    rounds = 10

    calls = []

    def fields(device):
        """Both devices of a round make the same correction; each round changes the hand back or forth."""
        calls.append(device)
        taken = OTHER if (len(calls) - 1) // 2 % 2 == 0 else SPREAD
        return {**hidden_fields(device, url), **hand_form(taken, 1)}

    results = race(app, game_id, key, fields, url, rounds)

    print(f"races: {rounds} correction races run")
    assert results == [(302, 409)] * rounds
    assert exported(client, game_id)["hands"][0]["points"] == [5, 18, 4, 17, 4, 4]


def test_a_stale_form_is_refused_with_the_score_now_and_keeps_what_was_typed(app, client, game_id):
    url = f"/games/{game_id}/hands/1"
    stale = {**hidden_fields(client, url), **hand_form(OTHER, 1)}
    record_hand(client, game_id, SPREAD)

    response = client.post(url, data=stale)

    assert response.status_code == 409
    assert "Another device changed this game a moment ago, so nothing was saved." in text_of(response)
    assert "The score now" in text_of(response)
    assert 'name="takings-2-hearts"\n                 value="5"' in response.get_data(as_text=True)
    assert exported(client, game_id)["hands"][0]["points"] == [5, 18, 4, 17, 4, 4]


# --- The audit trail ----------------------------------------------------------------


def changes(app):
    with app.app_context():
        return db.session.execute(db.select(Change).order_by(Change.id)).scalars().all()


def undo(client, game_id, change_id):
    fields = hidden_fields(client, "/games/new")  # the session's CSRF token
    fields["revision"] = str(client.get(f"/games/{game_id}/state").get_json()["revision"])
    return client.post(f"/games/{game_id}/changes/{change_id}/undo", data=fields)


def test_a_correction_is_kept_in_the_trail_and_can_be_undone(app, client, game_id):
    post_hand(client, game_id, OTHER, number=1)

    trail = changes(app)
    page = text_of(client.get(f"/games/{game_id}"))
    response = undo(client, game_id, trail[-1].id)

    assert [change.action for change in trail] == ["record", "correct"]
    assert "Hand 1 corrected." in page
    assert "Ana: 5 hearts, 0 Black Marias → 4 hearts, 0 Black Marias" in page
    assert response.status_code == 302
    assert exported(client, game_id)["hands"][0]["points"] == [5, 18, 4, 17, 4, 4]
    assert [change.action for change in changes(app)] == ["record", "correct", "undo"]


def test_a_removal_is_kept_in_the_trail_and_can_be_undone_in_place(app, client, game_id):
    record_hand(client, game_id, OTHER)
    remove = f"/games/{game_id}/hands/1/remove"
    client.post(remove, data=hidden_fields(client, remove))

    removal = changes(app)[-1]
    response = undo(client, game_id, removal.id)

    assert removal.action == "remove"
    assert response.status_code == 302
    points = [hand["points"] for hand in exported(client, game_id)["hands"]]
    assert points == [[5, 18, 4, 17, 4, 4], [4, 4, 18, 4, 18, 4]]


def test_an_undo_a_later_change_stands_in_the_way_of_is_refused_and_changes_nothing(app, client, game_id):
    post_hand(client, game_id, OTHER, number=1)
    post_hand(client, game_id, SPREAD[::-1], number=1)
    before = exported(client, game_id)

    client.get("/")  # drop the flashed messages
    response = undo(client, game_id, changes(app)[1].id)

    assert response.status_code == 302
    assert "A later change stands in the way: undo “Hand 1 corrected.”" in text_of(client.get(f"/games/{game_id}"))
    assert exported(client, game_id) == before


def test_an_entry_of_another_game_is_not_found(app, client, game_id):
    other = create_game(client, name="Other")
    post_hand(client, game_id, OTHER, number=1)

    response = undo(client, other, changes(app)[-1].id)

    assert response.status_code == 404


def test_a_bystander_cannot_undo(app, client, bystander, game_id):
    post_hand(client, game_id, OTHER, number=1)

    response = bystander.post(f"/games/{game_id}/changes/{changes(app)[-1].id}/undo",
                              data={**hidden_fields(bystander, "/games/new"), "revision": "3"})

    assert response.status_code == 403


# --- Headers and cookies ------------------------------------------------------------


def test_every_response_carries_the_security_headers(client, game_id):
    for url in ["/", f"/games/{game_id}", "/settle.json?cards=2C", "/static/style.css", "/nowhere"]:
        response = client.get(url)
        headers = response.headers
        response.close()

        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        if headers["Content-Type"].startswith("text/html"):
            policy = headers["Content-Security-Policy"]
            assert "unsafe-inline" not in policy
            assert "frame-ancestors 'none'" in policy
            assert "script-src 'self'" in policy
            assert headers["X-Frame-Options"] == "DENY"


def test_no_page_has_inline_script_or_style(client, game_id):
    for url in ["/", "/games/new", f"/games/{game_id}", f"/games/{game_id}/hands/new", "/settle", "/rules"]:
        page = client.get(url).get_data(as_text=True)

        assert not re.search(r"<script(?![^>]*\bsrc=)", page), url
        assert " style=" not in page and "<style" not in page, url


def test_the_session_cookie_is_http_only_and_same_site(app):
    secure = app.test_client()

    cookie = secure.get("/games/new").headers.get("Set-Cookie", "")
    over_https = app.test_client().get("/games/new", base_url="https://localhost").headers.get("Set-Cookie", "")

    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert "Secure" in over_https


@pytest.mark.parametrize("hops, secure", [(0, False), (1, True)], ids=["no proxy believed", "behind one proxy"])
def test_the_cookie_is_secure_behind_a_proxy_only_when_its_word_is_believed(database_uri, hops, secure):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_uri,
                      "PROXY_HOPS": hops})

    cookie = app.test_client().get(
        "/games/new", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}).headers["Set-Cookie"]
    with app.app_context():
        db.engine.dispose()

    assert ("Secure" in cookie) == secure


def test_names_with_markup_are_shown_as_text(client):
    names = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "Caio", "Dee", "Eli", "Fay"]
    game_id = create_game(client, names)

    page = client.get(f"/games/{game_id}").get_data(as_text=True)

    assert "<img src=x" not in page and "<script>alert" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_the_scorer_link_can_be_printed_on_the_serving_machine(app, client, runner, game_id):
    result = runner.invoke(args=["scorer-link", str(game_id)])

    assert result.exit_code == 0
    assert f"/games/{game_id}/scorer/{scorer_key(app, game_id)}" in result.output


@pytest.mark.parametrize("host", ["a..b", "bad host name", "-x.example"])
def test_a_malformed_host_header_is_a_400_on_every_route_never_a_500(app, host):
    app.testing = False  # as served: an error inside the error page would be a 500
    client = app.test_client()

    for path in ["/", "/rules", "/games/1", "/games/1/state", "/static/style.css", "/nowhere"]:
        response = client.get(path, headers={"Host": host})

        assert response.status_code == 400, (host, path, response.status_code)
        assert "did not make sense" in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/games/{big}", "/games/{big}/state", "/games/{big}/watch", "/games/{big}/display",
                                  "/games/{big}/export.json", "/settle?game={big}", "/games/{big}/sheet",
                                  "/games/{big}/sheet.csv", "/players/{big}"])
def test_an_id_past_the_databases_integers_names_nothing_on_every_database(client, path):
    response = client.get(path.format(big=2**31))

    assert response.status_code in (200, 404)  # /settle ignores a game it cannot have
    assert response.status_code == 404 or "Settle" in text_of(response)


def test_a_revision_past_the_databases_integers_is_refused_not_sent(client, game_id):
    url = f"/games/{game_id}/hands/1"
    fields = {**hidden_fields(client, url), **hand_form(OTHER, 1), "revision": str(2**63 - 1)}

    response = client.post(url, data=fields)

    assert response.status_code == 400
    assert exported(client, game_id)["hands"][0]["points"] == [5, 18, 4, 17, 4, 4]


# --- Secrets at rest ---------------------------------------------------------------


def test_a_new_sqlite_database_and_its_wal_are_readable_by_their_owner_only(tmp_path):
    uri = f"sqlite:///{tmp_path / 'games.sqlite'}"
    app = migrated(create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": uri}))
    create_game(app.test_client())

    for name in ("games.sqlite", "games.sqlite-wal"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name


def test_the_session_cookie_holds_no_scorer_key(app, client, game_id):
    cookie = client.get_cookie("session")
    session = app.session_interface.get_signing_serializer(app).loads(cookie.value)

    key = scorer_key(app, game_id)
    assert key not in json.dumps(session)
    assert dict(session["scorer_keys"])[game_id]  # a pass derived from it instead


@pytest.mark.parametrize(("path", "private"), [
    ("/games/{id}", True), ("/games/{id}/hands/new", True), ("/games/{id}/hands/1", True),
    ("/games/{id}/hands/1/remove", True), ("/games/{id}/play", True), ("/games/{id}/trail", True),
    ("/games/{id}/watch", False), ("/games/{id}/display", False), ("/rules", False),
])
def test_the_scorers_pages_are_never_stored_by_the_browser(client, game_id, path, private):
    client.get("/")  # the flashed message is shown there
    url = path.format(id=game_id)

    responses = [client.get(url), client.get(url)]  # rendered, then kept

    assert [response.cache_control.no_store for response in responses] == [private, private]


def test_a_cookie_from_before_passes_keeps_its_scorer_and_loses_the_key(app, client, game_id):
    key = scorer_key(app, game_id)
    with client.session_transaction() as session:
        session["scorer_keys"] = {str(game_id): key}

    response = client.get(f"/games/{game_id}/hands/new")

    assert response.status_code == 200
    with client.session_transaction() as session:
        assert dict(session["scorer_keys"])[game_id] != key


# --- Links handed to other phones ----------------------------------------------------

SHARED = re.compile(r'class="share-url"><a href="([^"]+)"')


def shared_links(client, game_id, host):
    """The links the scorer's table view hands out, when the request names ``host``."""
    client.set_cookie("session", client.get_cookie("session").value, domain=host)  # the scorer, on that host
    client.get("/", headers={"Host": host})  # the flashed message goes there
    return SHARED.findall(client.get(f"/games/{game_id}", headers={"Host": host}).get_data(as_text=True))


def test_a_host_header_naming_another_site_never_makes_the_share_links(client, game_id):
    links = shared_links(client, game_id, "evil.example")

    assert len(links) == 2  # the watch link and the secret scorer link
    assert not any("evil.example" in link for link in links)


def test_a_configured_public_url_makes_the_share_links(app, client, game_id):
    app.config["PUBLIC_URL"] = "https://scores.club.example/"

    links = shared_links(client, game_id, "evil.example")

    assert links[0] == f"https://scores.club.example/games/{game_id}/watch"
    assert links[1].startswith(f"https://scores.club.example/games/{game_id}/scorer/")


def test_a_trusted_host_makes_the_share_links(app, client, game_id):
    app.config["TRUSTED_HOSTS"] = ["scores.club.example"]

    links = shared_links(client, game_id, "scores.club.example")

    assert links[0] == f"http://scores.club.example/games/{game_id}/watch"


@pytest.mark.parametrize("listening", ["127.0.0.1", "::1", "localhost"])
def test_a_server_listening_on_this_device_only_says_so_instead_of_a_dead_link(app, client, game_id, listening):
    app.config["LISTENING_HOST"] = listening

    page = client.get(f"/games/{game_id}").get_data(as_text=True)

    assert SHARED.findall(page) == []  # no link that other phones would find dead, no secret scorer link
    assert 'class="qr"' not in page
    assert "Other phones cannot open this server" in page
    # This device still gets the read-only page, at the address it asked by (issue 24).
    assert f'class="share-url local-url"><a href="http://localhost/games/{game_id}/watch"' in page


def test_a_server_listening_on_every_interface_shows_the_share_links(app, client, game_id):
    app.config["LISTENING_HOST"] = "0.0.0.0"

    assert len(SHARED.findall(client.get(f"/games/{game_id}").get_data(as_text=True))) == 2


@pytest.mark.parametrize("path", ["/club/secretary//\t/evil.example", "/games//1", "/players//1", "/games/1//watch"])
def test_an_address_with_doubled_slashes_names_no_page_and_is_never_redirected(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert "Location" not in response.headers
