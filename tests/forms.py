"""Helpers that fill in the app's forms the way its pages do (CSRF token included)."""

import html
import re

from scorekeeper.models import Game, db

SIX = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay"]


def csrf_token(client, url):
    """The CSRF token of the form at ``url``, as a browser would find it."""
    html = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def hidden_fields(client, url):
    """The hidden fields of the first form at ``url`` (CSRF token, revision, number), as a browser sends them."""
    page = client.get(url).get_data(as_text=True)
    fields = {"csrf_token": re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)}
    for name, value in re.findall(r'<input type="hidden" name="(revision|number)" value="([^"]*)"', page):
        fields.setdefault(name, value)
    return fields


def game_form(names, first_dealer=0, target="150", name=""):
    """The new-game form's fields for these players."""
    fields = {"name": name, "target": str(target), "first_dealer": str(first_dealer)}
    fields.update({f"players-{seat}": player for seat, player in enumerate(names)})
    return fields


def create_game(client, names=SIX, first_dealer=0, target=150, name="Friday"):
    """Create a game through the form; return its id."""
    fields = game_form(names, first_dealer, target, name)
    fields["csrf_token"] = csrf_token(client, "/games/new")
    response = client.post("/games/new", data=fields)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def hand_form(taken, number, moon=None, reserved=False):
    """The hand form's fields: ``taken`` is a list of (hearts, marias) in seat order."""
    fields = {"number": str(number)}
    for seat, (hearts, marias) in enumerate(taken):
        fields[f"takings-{seat}-hearts"] = str(hearts)
        fields[f"takings-{seat}-marias"] = str(marias)
    if moon:
        fields["moon"] = moon
    if reserved:
        fields["last_trick_reserved"] = "y"
    return fields


def post_hand(client, game_id, taken, number=None, moon=None, reserved=False):
    """Submit the record-a-hand form (or a correction when ``number`` is recorded)."""
    if number is None:
        with client.application.app_context():
            number = len(db.session.get(Game, game_id).hands) + 1
        url = f"/games/{game_id}/hands/new"
    else:
        url = f"/games/{game_id}/hands/{number}"
    fields = {**hidden_fields(client, url), **hand_form(taken, number, moon, reserved)}
    return client.post(url, data=fields)


def record_hand(client, game_id, taken, moon=None, reserved=False):
    """Record the next hand and check it was accepted."""
    response = post_hand(client, game_id, taken, moon=moon, reserved=reserved)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


def exported(client, game_id):
    """The game's export document."""
    return client.get(f"/games/{game_id}/export.json").get_json()


def text_of(response):
    """The page's visible text, whitespace folded, for plain assertions."""
    page = response.get_data(as_text=True)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()
