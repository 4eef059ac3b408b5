"""The hand form through the test client: every problem in one round, the nothing-collected question,
and the drafts a device keeps of each hand (static/hand.js), told apart by the hand's own key."""

import html
import re

from scorekeeper.db.models import Game, Hand, db

from .tabletop import create_game, exported, hand_form, hidden_fields, post_hand, record_hand, text_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
NOTHING_TAKEN = [("", 0)] * 6
DRAFT_FIELD = re.compile(r'<input type="hidden" name="draft" value="([^"]*)">')


def count_hands(app):
    with app.app_context():
        return db.session.execute(db.select(db.func.count()).select_from(Hand)).scalar()


def summary_of(response):
    """The texts of the error summary's links, in order, and the fields they lead to."""
    page = response.get_data(as_text=True)
    summary = re.search(r'<div class="error-summary".*?</div>', page, re.S).group(0)
    return [(target, html.unescape(text))
            for target, text in re.findall(r'<a href="#([^"]+)">([^<]*)</a>', summary)]


def draft_of(page):
    """The draft key a hand form posts, and the hand keys the game has, as the form carries them."""
    key = DRAFT_FIELD.search(page).group(1)
    game = html.unescape(re.search(r'data-draft-game="([^"]*)"', page).group(1))
    hands = re.search(r'data-hand-keys="([^"]*)"', page).group(1).split()
    return html.unescape(key), game, hands


def created_at(app, game_id):
    with app.app_context():
        return db.session.get(Game, game_id).created_at.isoformat()


def remove(client, game_id, number):
    url = f"/games/{game_id}/hands/{number}/remove"
    response = client.post(url, data=hidden_fields(client, url))
    assert response.status_code == 302, response.get_data(as_text=True)


# --- Every problem in one round -------------------------------------------------------


def test_an_unreadable_box_too_many_hearts_and_too_many_black_marias_are_listed_at_once(app, client):
    game_id = create_game(client)
    taken = [("x7", 1), (20, 1), (9, 1), (0, 0), (0, 0), (0, 0)]

    response = post_hand(client, game_id, taken)

    assert response.status_code == 400
    assert summary_of(response) == [
        ("takings-0-hearts", "Ana: Enter the hearts as a whole number, like 0 or 5."),
        ("tally", "The hearts add up to 29, but a hand holds only 26 (R14)."),
        ("tally", "The Black Marias add up to 3, but a hand holds only 2 (R14)."),
    ]
    page = response.get_data(as_text=True)
    assert 'value="x7"' in page and 'value="20"' in page and 'value="9"' in page
    for seat in range(3):
        assert re.search(rf'id="takings-{seat}-marias-1" name="takings-{seat}-marias" value="1"\s+checked', page)
    assert count_hands(app) == 0


def test_the_engine_lists_every_problem_when_the_form_reads_everything(app, client):
    game_id = create_game(client)
    taken = [(27, 1), (0, 1), (0, 1), (0, 0), (0, 0), (0, 0)]

    response = post_hand(client, game_id, taken)

    assert response.status_code == 400
    assert summary_of(response) == [
        ("takings-0-hearts", "Ana cannot have taken 27 hearts: a hand holds 26 (R14)."),
        ("tally", "The hearts add up to 27, but a hand holds only 26 (R14)."),
        ("tally", "The Black Marias add up to 3, but a hand holds only 2 (R14)."),
    ]
    assert 'id="takings-0-hearts-error">Ana cannot have taken 27 hearts' in response.get_data(as_text=True)
    assert count_hands(app) == 0


def test_a_short_hand_and_a_moon_choice_the_form_cannot_read_are_listed_together(app, client):
    game_id = create_game(client)
    short = [(5, 0), (5, 1), (4, 0), (4, 0), (4, 0), (1, 0)]

    response = post_hand(client, game_id, short, moon="sideways")

    assert response.status_code == 400
    problems = [text for _target, text in summary_of(response)]
    assert problems[0].startswith("The hearts add up to 23 of 26 and the Black Marias to 1 of 2.")
    assert problems[1] == "Choose how the moon scores: the shooter subtracts 26, or everyone else adds 26 (R15)."
    assert count_hands(app) == 0


def test_a_correction_lists_every_problem_at_once_and_changes_nothing(app, client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)

    response = post_hand(client, game_id, [("x", 0), (30, 1), (0, 1), (0, 1), (0, 0), (0, 0)], number=1)

    assert response.status_code == 400
    assert [target for target, _text in summary_of(response)] == [
        "takings-0-hearts", "takings-1-hearts", "tally", "tally"]
    assert exported(client, game_id)["hands"][0]["taken"][0] == {"hearts": 5, "marias": 0}


# --- Nobody collected anything ---------------------------------------------------------


def test_a_hand_nobody_collected_is_asked_about_once_then_saved_when_confirmed(app, client):
    game_id = create_game(client)
    blank = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)

    asked = post_hand(client, game_id, NOTHING_TAKEN, reserved=True)
    fields = {**hidden_fields(client, f"/games/{game_id}/hands/new"),
              **hand_form(NOTHING_TAKEN, 1, reserved=True), "nothing_collected": "y"}
    confirmed = client.post(f"/games/{game_id}/hands/new", data=fields)

    assert 'name="nothing_collected"' not in blank  # asked only once the table said so
    assert asked.status_code == 400
    question = ("Nobody collected any heart or Black Maria in this hand: the reserved last trick left all of "
                "them on the table (R13). If that is right, tick “Yes, nobody collected anything” and save again.")
    assert summary_of(asked) == [("nothing_collected", question)]
    page = asked.get_data(as_text=True)
    assert re.search(r'id="last_trick_reserved" name="last_trick_reserved" value="y" checked', page)
    assert re.search(r'<input type="checkbox" id="nothing_collected" name="nothing_collected" value="y"\s+aria', page)
    assert "Yes, nobody collected anything" in text_of(asked)
    assert confirmed.status_code == 302
    hand = exported(client, game_id)["hands"][0]
    assert hand["uncollected"] == {"hearts": 26, "marias": 2}
    assert hand["points"] == [0] * 6


def test_a_ticked_confirmation_is_kept_when_the_hand_is_refused_for_another_reason(app, client):
    game_id = create_game(client)
    fields = {**hidden_fields(client, f"/games/{game_id}/hands/new"),
              **hand_form([("x", 0)] + NOTHING_TAKEN[1:], 1, reserved=True), "nothing_collected": "y"}

    response = client.post(f"/games/{game_id}/hands/new", data=fields)

    assert response.status_code == 400
    assert re.search(r'id="nothing_collected" name="nothing_collected" value="y" checked',
                     response.get_data(as_text=True))
    assert count_hands(app) == 0


# --- Drafts belong to one hand ---------------------------------------------------------


def test_the_form_names_its_draft_by_the_game_and_the_hands_own_key(app, client):
    game_id = create_game(client)
    for _hand in range(3):
        record_hand(client, game_id, SPREAD)
    made = created_at(app, game_id)
    remove(client, game_id, 1)

    new = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    correction = client.get(f"/games/{game_id}/hands/1").get_data(as_text=True)  # formerly hand 2

    prefix = f"scorekeeper draft {game_id} {made} "
    assert draft_of(new) == (prefix + "next", prefix, ["hand-2", "hand-3"])
    assert draft_of(correction) == (prefix + "hand-2", prefix, ["hand-2", "hand-3"])


def test_a_saved_hand_tells_the_next_page_which_draft_to_drop_and_only_that_page(app, client):
    game_id = create_game(client)
    prefix = draft_of(client.get(f"/games/{game_id}/hands/new").get_data(as_text=True))[1]
    plain_table = client.get(f"/games/{game_id}").get_data(as_text=True)

    saved = record_hand(client, game_id, SPREAD)
    after_save = client.get(saved.headers["Location"]).get_data(as_text=True)
    again = client.get(f"/games/{game_id}").get_data(as_text=True)
    corrected = post_hand(client, game_id, SPREAD[::-1], number=1)
    after_correction = client.get(corrected.headers["Location"]).get_data(as_text=True)

    assert f'data-draft-saved="{html.escape(prefix)}next"' in after_save
    assert "Hand 1 recorded." in after_save
    assert "/static/draft.js" in after_save
    for ordinary in (plain_table, again):
        assert "data-draft-saved" not in ordinary
        assert "draft.js" not in ordinary
    assert f'data-draft-saved="{html.escape(prefix)}hand-1"' in after_correction


def test_a_correction_refused_because_a_removal_moved_its_hand_follows_the_hand(app, client):
    game_id = create_game(client)
    for _hand in range(3):
        record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/hands/3"
    page = client.get(url).get_data(as_text=True)
    fields = {**hidden_fields(client, url), "draft": draft_of(page)[0], **hand_form(SPREAD[::-1], 3)}
    remove(client, game_id, 1)

    response = client.post(url, data=fields)

    assert response.status_code == 409
    text = text_of(response)
    assert "Correct hand 2" in text and "The hand you were correcting is now hand 2." in text
    refilled = response.get_data(as_text=True)
    assert f'action="/games/{game_id}/hands/2"' in refilled
    assert draft_of(refilled)[0].endswith(" hand-3")  # still the hand typed for, by its own key
    assert [hand["taken"][0]["hearts"] for hand in exported(client, game_id)["hands"]] == [5, 5]


def test_a_correction_of_a_hand_removed_meanwhile_goes_back_to_the_table(app, client):
    game_id = create_game(client)
    for _hand in range(2):
        record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/hands/1"
    page = client.get(url).get_data(as_text=True)
    fields = {**hidden_fields(client, url), "draft": draft_of(page)[0], **hand_form(SPREAD[::-1], 1)}
    remove(client, game_id, 1)

    response = client.post(url, data=fields)

    assert response.status_code == 302
    assert "Another device changed this game" in text_of(client.get(response.headers["Location"]))
    assert len(exported(client, game_id)["hands"]) == 1


def test_a_posted_draft_key_of_another_game_or_nonsense_is_only_a_number_to_go_by(app, client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/hands/1"
    stale = hidden_fields(client, url)
    record_hand(client, game_id, SPREAD)

    answers = [client.post(url, data={**stale, "draft": draft, **hand_form(SPREAD[::-1], 1)})
               for draft in ("scorekeeper draft 999 x hand-1", "hand-\u0663", "<script>", "x" * 5000)]

    assert [answer.status_code for answer in answers] == [409] * 4
    assert all("<script>" not in answer.get_data(as_text=True) for answer in answers)
    assert len(exported(client, game_id)["hands"]) == 2
