"""Two scorers of one game, racing (issue 33, item 6): a hand, a new hand, a trick or a kitty saved by one phone
while the other was typing it is never silently put back, nor saved twice. The second phone is shown what is
saved now beside what it typed, and saving again asks for a choice: keep theirs, or put mine over it (still
checked through the engine, and refused again if a third change came meanwhile)."""

import html
import re

from scorekeeper.db.models import Game, Trick, TrickLog, db

from .tabletop import ELEVEN, create_game, exported, hand_form, record_hand, text_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
HIDDEN = re.compile(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"')
NINE = ELEVEN[:9]
FIRST_TRICK = "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣"  # Bo (seat 1) leads hand 1 at a table of nine dealt by Ana
OTHER_FIRST_TRICK = "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 10♣"


def scorer(app, game_id):
    """A second phone, made a scorer of the game through its scorer link."""
    with app.app_context():
        key = db.session.get(Game, game_id).scorer_key
    phone = app.test_client()
    assert phone.get(f"/games/{game_id}/scorer/{key}").status_code == 302
    return phone


def form_of(page, action=None):
    """Every hidden field of the form in ``page`` (the one posting to ``action``, else the first), as sent."""
    start = page.index("<form") if action is None else page.rindex("<form", 0, page.index(f'action="{action}"'))
    form = page[start:page.index("</form>", start)]
    fields = {}
    for name, value in HIDDEN.findall(form):
        fields.setdefault(name, html.unescape(value))
    fields["csrf_token"] = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    return fields


def opened(phone, url):
    """The hand form at ``url`` as ``phone`` shows it: its hidden fields."""
    return form_of(phone.get(url).get_data(as_text=True))


def hearts_of(client, game_id, number):
    return [seat["hearts"] for seat in exported(client, game_id)["hands"][number - 1]["taken"]]


def seat_one_took(hearts):
    """SPREAD with seat 1's hearts moved to or from seat 0, still 26 in all."""
    return [(10 - hearts, 0), (hearts, 1), *SPREAD[2:]]


def entries(app, game_id):
    """The ids of the game's trail entries, oldest first."""
    with app.app_context():
        return sorted(change.id for change in db.session.get(Game, game_id).changes)


def newest_entry(app, game_id):
    return entries(app, game_id)[-1]


def undo(client, game_id, change_id):
    """Undo trail entry ``change_id`` as its Undo page does."""
    url = f"/games/{game_id}/changes/{change_id}/undo"
    undone = client.post(url, data=form_of(client.get(url).get_data(as_text=True), None))
    assert undone.status_code == 302, text_of(undone)


def trail(app, game_id):
    with app.app_context():
        return [(change.action, change.hand_number) for change in
                sorted(db.session.get(Game, game_id).changes, key=lambda change: change.id)]


# --- Correcting one hand on two phones -----------------------------------------------------------


def race_a_correction(app, client):
    """Phones A (``client``) and B open hand 1's correction; A saves seat 1 = 8 hearts. B's refused save of
    seat 1 = 7 hearts, and B's form as it posted it."""
    game_id = create_game(client)
    record_hand(client, game_id, seat_one_took(5))
    url = f"/games/{game_id}/hands/1"
    phone_b = scorer(app, game_id)
    shown_to_a, shown_to_b = opened(client, url), opened(phone_b, url)
    assert client.post(url, data={**shown_to_a, **hand_form(seat_one_took(8), 1)}).status_code == 302
    typed_on_b = {**shown_to_b, **hand_form(seat_one_took(7), 1)}
    return game_id, url, phone_b, typed_on_b, phone_b.post(url, data=typed_on_b)


def test_a_refused_correction_shows_seat_by_seat_what_the_other_phone_saved_beside_what_was_typed(app, client):
    game_id, _url, _phone_b, _typed, refused = race_a_correction(app, client)

    text, page = text_of(refused), refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "Another phone saved hand 1 while you were typing. Keep theirs, or put yours over it?" in text
    assert "The other phone changed the figures of Ana and Bo." in text
    rows = re.findall(r'<tr( class="differs")?>\s*<th scope="row">([^<]*)(.*?)</tr>',
                      page[page.index("contest-figures"):], re.S)
    bo = next(row for row in rows if row[1].strip() == "Bo")
    assert bo[0] and "changed" in bo[2]
    assert [int(cell) for cell in re.findall(r'<td class="num (?:saved|typed)">(\d+)</td>', bo[2])] == [8, 1, 7, 1]
    caio = next(row for row in rows if row[1].strip() == "Caio")
    assert not caio[0] and "changed" not in caio[2]
    assert 'id="takings-1-hearts" name="takings-1-hearts"\n                 value="7"' in page  # B's, kept
    assert 'name="choice" value="mine"' in page and 'name="choice" value="theirs"' in page
    assert hearts_of(client, game_id, 1)[:2] == [2, 8]


def test_the_same_correction_posted_again_blindly_is_refused_again_and_changes_nothing(app, client):
    game_id, url, phone_b, typed_on_b, _refused = race_a_correction(app, client)
    revision = exported(client, game_id)

    again = phone_b.post(url, data=typed_on_b)
    refilled = phone_b.post(url, data={**form_of(_refused.get_data(as_text=True)), **hand_form(seat_one_took(7), 1)})

    assert (again.status_code, refilled.status_code) == (409, 409)
    assert "Keep theirs, or put yours over it?" in text_of(refilled)
    assert hearts_of(client, game_id, 1)[:2] == [2, 8]
    assert exported(client, game_id) == revision
    assert trail(app, game_id) == [("record", 1), ("correct", 1)]


def test_keep_theirs_drops_what_was_typed_and_shows_the_hand_as_the_other_phone_saved_it(app, client):
    game_id, url, phone_b, _typed, refused = race_a_correction(app, client)
    shown = form_of(refused.get_data(as_text=True))

    kept = phone_b.post(url, data={**shown, **hand_form(seat_one_took(7), 1), "choice": "theirs"})

    assert kept.status_code == 302 and kept.headers["Location"].endswith(url)
    form = phone_b.get(url)
    assert "Hand 1 is as the other phone saved it; what you typed was dropped." in text_of(form)
    assert 'id="takings-1-hearts" name="takings-1-hearts"\n                 value="8"' in form.get_data(as_text=True)
    assert "data-draft-saved" in form.get_data(as_text=True)  # this phone's draft of the hand is dropped too
    assert hearts_of(client, game_id, 1)[:2] == [2, 8]
    assert trail(app, game_id) == [("record", 1), ("correct", 1)]


def test_put_mine_over_theirs_saves_this_phones_figures_with_an_entry_whose_undo_puts_theirs_back(app, client):
    game_id, url, phone_b, _typed, refused = race_a_correction(app, client)
    shown = form_of(refused.get_data(as_text=True))

    put = phone_b.post(url, data={**shown, **hand_form(seat_one_took(7), 1), "choice": "mine"})

    assert put.status_code == 302
    assert hearts_of(client, game_id, 1)[:2] == [3, 7]
    assert trail(app, game_id) == [("record", 1), ("correct", 1), ("correct", 1)]
    undo(client, game_id, newest_entry(app, game_id))
    assert hearts_of(client, game_id, 1)[:2] == [2, 8]
    undo(client, game_id, newest_entry(app, game_id))  # the undo undone: mine again
    assert hearts_of(client, game_id, 1)[:2] == [3, 7]


def test_put_mine_over_theirs_is_refused_again_after_a_third_change_and_still_checked_by_the_engine(app, client):
    game_id, url, phone_b, _typed, refused = race_a_correction(app, client)
    shown = form_of(refused.get_data(as_text=True))
    too_many = [(20, 0), (7, 1), *SPREAD[2:]]

    over_the_hand = phone_b.post(url, data={**shown, **hand_form(too_many, 1), "choice": "mine"})
    assert client.post(url, data={**opened(client, url), **hand_form(seat_one_took(9), 1)}).status_code == 302
    third = phone_b.post(url, data={**shown, **hand_form(seat_one_took(7), 1), "choice": "mine"})

    assert over_the_hand.status_code == 400
    assert "Keep theirs, or put yours over it?" in text_of(over_the_hand)  # still the question, with the problem
    assert third.status_code == 409
    third_page = third.get_data(as_text=True)
    assert re.search(r'<td class="num saved">9</td>', third_page)
    assert hearts_of(client, game_id, 1)[:2] == [1, 9]


def test_a_correction_refused_for_another_hand_saved_meanwhile_is_saved_by_the_next_save(app, client):
    game_id = create_game(client)
    record_hand(client, game_id, SPREAD)
    url = f"/games/{game_id}/hands/1"
    phone_b = scorer(app, game_id)
    typed_on_b = {**opened(phone_b, url), **hand_form(seat_one_took(7), 1)}
    record_hand(client, game_id, SPREAD)  # hand 2, on phone A: hand 1 is as B found it

    refused = phone_b.post(url, data=typed_on_b)
    saved = phone_b.post(url, data={**form_of(refused.get_data(as_text=True)), **hand_form(seat_one_took(7), 1)})

    assert refused.status_code == 409
    assert "Another device changed this game a moment ago, so nothing was saved." in text_of(refused)
    assert saved.status_code == 302
    assert hearts_of(client, game_id, 1)[:2] == [3, 7]


# --- A new hand recorded on two phones --------------------------------------------------------------


def race_a_new_hand(app, client, taken_on_b):
    game_id = create_game(client)
    url = f"/games/{game_id}/hands/new"
    phone_b = scorer(app, game_id)
    shown_to_b = opened(phone_b, url)
    record_hand(client, game_id, SPREAD)
    typed_on_b = {**shown_to_b, **hand_form(taken_on_b, 1)}
    return game_id, url, phone_b, typed_on_b, phone_b.post(url, data=typed_on_b)


def test_a_hand_recorded_meanwhile_is_shown_beside_what_was_typed_and_never_becomes_the_next_hand_unasked(
        app, client):
    game_id, url, phone_b, typed_on_b, refused = race_a_new_hand(app, client, seat_one_took(7))

    again = phone_b.post(url, data={**form_of(refused.get_data(as_text=True)), **hand_form(seat_one_took(7), 1)})

    assert (refused.status_code, again.status_code) == (409, 409)
    text = text_of(refused)
    assert "Another phone recorded hand 1 while you were typing. Record yours as hand 2 too, or drop it?" in text
    assert "Record mine as hand 2" in text and "Drop mine" in text
    assert 'id="takings-1-hearts" name="takings-1-hearts"\n                 value="7"' in refused.get_data(as_text=True)
    assert len(exported(client, game_id)["hands"]) == 1


def test_record_mine_as_the_next_hand_records_it_and_drop_mine_records_nothing(app, client):
    game_id, url, phone_b, _typed, refused = race_a_new_hand(app, client, seat_one_took(7))
    shown = form_of(refused.get_data(as_text=True))

    dropped = phone_b.post(url, data={**shown, **hand_form(seat_one_took(7), 1), "choice": "theirs"})
    assert dropped.status_code == 302 and len(exported(client, game_id)["hands"]) == 1
    assert "Hand 1 is as the other phone recorded it; what you typed was dropped." in text_of(
        phone_b.get(dropped.headers["Location"]))
    recorded = phone_b.post(url, data={**shown, **hand_form(seat_one_took(7), 1), "choice": "mine"})

    assert recorded.status_code == 302
    assert [hand["taken"][1]["hearts"] for hand in exported(client, game_id)["hands"]] == [5, 7]


def test_the_same_hand_recorded_on_two_phones_is_recorded_once_and_said_so(app, client):
    game_id, _url, _phone_b, _typed, refused = race_a_new_hand(app, client, SPREAD)

    assert refused.status_code == 409
    assert "Hand 1 is saved already, with the figures you typed" in text_of(refused)
    assert 'name="choice" value="mine"' not in refused.get_data(as_text=True)
    assert len(exported(client, game_id)["hands"]) == 1


# --- A trick, or the kitty, entered on two phones ------------------------------------------------------


def trick_form(page, cards, **fields):
    return {**form_of(page, None), **{f"cards-{position}": card for position, card in enumerate(cards.split())},
            **fields}


def tricks_of(app):
    with app.app_context():
        return [trick.cards for trick in db.session.execute(db.select(Trick).order_by(Trick.id)).scalars()]


def log_tricks(app):
    """The cards of each trick of the open hand's log, in order."""
    with app.app_context():
        log = db.session.execute(db.select(TrickLog)).scalar_one()
        return [trick.cards for trick in sorted(log.tricks, key=lambda trick: trick.number)]


def race_a_trick(app, client):
    game_id = create_game(client, NINE)
    url = f"/games/{game_id}/play"
    phone_b = scorer(app, game_id)
    page_b = phone_b.get(url).get_data(as_text=True)
    page_a = client.get(url).get_data(as_text=True)
    assert client.post(url, data=trick_form(page_a[page_a.index('class="trick-form"') - 200:],
                                            FIRST_TRICK)).status_code == 302
    typed = trick_form(page_b[page_b.index('class="trick-form"') - 200:], OTHER_FIRST_TRICK)
    return game_id, url, phone_b, typed, phone_b.post(url, data=typed)


def test_a_trick_entered_meanwhile_is_shown_beside_the_cards_typed_and_a_blind_resend_enters_nothing(app, client):
    _game_id, url, phone_b, typed, refused = race_a_trick(app, client)

    again = phone_b.post(url, data=typed)

    assert (refused.status_code, again.status_code) == (409, 409)
    text = text_of(refused)
    assert "Another phone entered trick 1 while you were typing. Keep theirs, or put yours over it?" in text
    assert "9♣" in text and 'value="10♣"' in refused.get_data(as_text=True)
    assert tricks_of(app) == [FIRST_TRICK]


def test_a_trick_posted_as_trick_0_is_no_race_and_no_500(app, client):
    game_id = create_game(client, NINE)
    url = f"/games/{game_id}/play"
    page = client.get(url).get_data(as_text=True)
    typed = trick_form(page[page.index('class="trick-form"') - 200:], FIRST_TRICK)

    posted = client.post(url, data={**typed, "number": "0"})  # no trick 0 is ever entered (hostile input)

    assert posted.status_code < 500
    assert tricks_of(app) in ([], [FIRST_TRICK])


def test_put_my_trick_over_theirs_replaces_it_with_entries_that_undo_back_to_theirs(app, client):
    game_id, url, phone_b, typed, refused = race_a_trick(app, client)
    page = refused.get_data(as_text=True)
    shown = trick_form(page[page.index('class="contest'):], OTHER_FIRST_TRICK, choice="mine")

    put = phone_b.post(url, data=shown)

    assert put.status_code == 302, text_of(put)
    assert tricks_of(app) == [OTHER_FIRST_TRICK]
    assert trail(app, game_id) == [("trick", 1), ("undo", 1), ("trick", 1)]
    taken_back, mine = entries(app, game_id)[-2:]
    undo(client, game_id, mine)
    assert log_tricks(app) == []
    undo(client, game_id, taken_back)  # theirs entered again
    assert log_tricks(app) == [FIRST_TRICK]


def test_keep_their_trick_drops_the_cards_typed(app, client):
    game_id, url, phone_b, _typed, refused = race_a_trick(app, client)
    page = refused.get_data(as_text=True)

    kept = phone_b.post(url, data=trick_form(page[page.index('class="contest'):], OTHER_FIRST_TRICK,
                                             choice="theirs"))

    assert kept.status_code == 302
    assert "Trick 1 is as the other phone entered it; your cards were dropped." in text_of(
        phone_b.get(kept.headers["Location"]))
    assert tricks_of(app) == [FIRST_TRICK]


KITTY_TRICKS = ["10♠ 10♠ A♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦", "K♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣"]  # Bo takes the kitty (R12)


def test_a_kitty_said_meanwhile_is_shown_beside_the_one_typed_and_put_over_only_when_chosen(app, client):
    game_id = create_game(client, NINE)
    url = f"/games/{game_id}/play"
    for number, cards in enumerate(KITTY_TRICKS, start=1):
        page = client.get(url).get_data(as_text=True)
        fields = trick_form(page[page.index('class="trick-form"') - 200:], cards, confirm="y")
        assert client.post(url, data=fields).status_code == 302
    phone_b = scorer(app, game_id)
    kitty_url = f"/games/{game_id}/play/kitty"
    typed = {**form_of(phone_b.get(url).get_data(as_text=True), kitty_url), "cards": "2♥ 3♥ A♦ K♦ J♦"}
    said = form_of(client.get(url).get_data(as_text=True), kitty_url)
    assert client.post(kitty_url, data={**said, "cards": "2♥ 3♥ A♦ K♦ Q♦"}).status_code == 302

    refused = phone_b.post(kitty_url, data=typed)
    again = phone_b.post(kitty_url, data=typed)
    page = refused.get_data(as_text=True)
    put = phone_b.post(kitty_url, data={**form_of(page, kitty_url), "cards": "2♥ 3♥ A♦ K♦ J♦", "choice": "mine"})

    assert (refused.status_code, again.status_code) == (409, 409)
    assert ("Another phone said what the kitty held while you were typing. Keep theirs, or put yours over it?"
            in text_of(refused))
    assert "Q♦" in text_of(refused) and 'value="2♥ 3♥ A♦ K♦ J♦"' in page
    assert put.status_code == 302, text_of(put)
    with app.app_context():
        assert db.session.execute(db.select(TrickLog.kitty)).scalar() == "2♥ 3♥ A♦ K♦ J♦"
    assert [action for action, _number in trail(app, game_id)] == ["trick", "trick", "kitty", "kitty"]
    undo(client, game_id, newest_entry(app, game_id))
    with app.app_context():
        assert db.session.execute(db.select(TrickLog.kitty)).scalar() == "2♥ 3♥ A♦ K♦ Q♦"  # theirs again
