"""Web tests of settling tricks and of playing a hand trick by trick (R6-R13)."""

import random
import re

import pytest

from scorekeeper import rules
from scorekeeper.db.models import Trick, TrickLog, db
from scorekeeper.words.explain import explain

from .tabletop import (
    DECK,
    ELEVEN,
    create_game,
    csrf_token,
    every_trick_reserved,
    exported,
    hidden_fields,
    record_hand,
    text_of,
)

NINE = ELEVEN[:9]
KITTY = "2♥ 3♥ A♦ K♦ Q♦"
# A 9-player hand (11 tricks, kitty of 5) dealt by Ana, so Bo (seat 1) leads.
# Trick 1 is reserved with the kitty waiting, trick 4 is reserved in the middle,
# and the last trick is reserved, leaving 2♥ and A♥ with nobody.
TRICKS = [
    "10♠ 10♠ A♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦",   # reserved: the two 10♠ cancel (R9)
    "K♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣",     # Bo leads a heart unbroken (R8): confirmed; wins pile + kitty
    "A♣ Q♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠",     # Bo wins a Black Maria
    "9♦ 9♦ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥",    # reserved in the middle: seven hearts wait
    "4♣ 10♣ J♥ J♣ Q♥ K♥ A♥ J♦ 10♦",   # Eli's J♣ wins, with the seven waiting hearts
    "10♣ 2♠ 3♠ J♠ 9♠ K♠ A♠ Q♠ Q♣",     # Dee's Q♣ wins the other Black Maria
    "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥",    # Caio's J♥ wins nine hearts
    "5♣ 6♣ 7♣ 8♣ 9♣ K♣ A♣ J♣ 2♣",     # Ivo's A♣
    "4♠ 5♠ 6♠ 7♠ 8♠ 3♣ 4♦ 5♦ 6♦",     # Dee's 8♠
    "3♦ 7♦ 8♦ K♦ Q♦ J♦ 10♦ Q♥ J♠",     # Gil's K♦ and a heart
    "2♦ 2♦ 9♠ K♠ A♠ 2♥ A♥ Q♣ K♣",     # reserved last trick: nobody collects (R13)
]
EXPECTED_TAKEN = {1: (3, 1), 2: (9, 0), 3: (0, 1), 4: (11, 0), 6: (1, 0)}


def trick_fields(client, game_id, cards, number, confirm=False):
    fields = {**hidden_fields(client, f"/games/{game_id}/play"), "number": str(number)}
    for position, card in enumerate(cards.split()):
        fields[f"cards-{position}"] = card
    if confirm:
        fields["confirm"] = "y"
    return fields


def play_trick(client, game_id, cards, number, confirm=False):
    return client.post(f"/games/{game_id}/play", data=trick_fields(client, game_id, cards, number, confirm))


def enter_kitty(client, game_id, cards):
    fields = hidden_fields(client, f"/games/{game_id}/play")
    return client.post(f"/games/{game_id}/play/kitty", data={**fields, "cards": cards})


def trick_rows(app):
    with app.app_context():
        return db.session.execute(db.select(db.func.count()).select_from(Trick)).scalar()


# --- Settle a trick ----------------------------------------------------------------


@pytest.mark.parametrize(("cards", "winner", "cancelled"), [
    ("10S,9H,9H,10S", None, [0, 1, 2, 3]),       # the seeds' worked example
    ("10S,10S,9H,9H,KS", 4, [0, 1, 2, 3]),       # R9 decision: K♠ is left and wins
    ("10S,10S,3D", None, [0, 1]),                 # R9 decision: nothing of the suit led is left
    ("KC,KC,QC,2C", 2, [0, 1]),
    ("2c, ac, 3h", 1, []),
    ("Q♠ 10♠ K♥", 0, []),
])
def test_settle_json_answers_winner_cancelled_and_why(client, cards, winner, cancelled):
    response = client.get("/settle.json", query_string={"cards": cards})

    answer = response.get_json()
    assert response.status_code == 200
    assert answer["winner"] == winner
    assert answer["cancelled"] == cancelled
    with client.application.test_request_context():
        reason = rules.resolve_trick(re.split(r"[,\s]+", cards.strip())).reason
        assert answer["explanation"] == explain(reason)
        assert answer["notes"] == explain(reason, notes=True)  # what the settle page shows under it
    assert "(R9" in answer["explanation"]
    if cards == "10S,10S,9H,9H,KS":  # two pairs, yet K♠ wins: R9's reading, a decision, said so
        assert any("our decision" in note for note in answer["notes"])


@pytest.mark.parametrize(
    "cards",
    [["7♣", "Q♣", "A♦"], ["Q♣", "K♣", "2♣", "K♣"], ["10♠", "9♥", "9♥", "10♠"], ["10♠", "10♠", "3♦"]],
)
def test_the_explanation_is_one_plain_sentence_naming_r9(app, cards):
    with app.test_request_context():
        explanation = explain(rules.resolve_trick(cards).reason)

    assert not explanation[0].islower()
    assert explanation.endswith(".")
    assert ". " not in explanation
    assert "R9" in explanation


def test_the_reserved_explanation_names_the_cancellation_that_left_no_card_of_the_suit_led(app):
    with app.test_request_context():
        explanation = explain(rules.resolve_trick(["10♠", "9♥", "9♥", "10♠"]).reason)

    # The 9♥ cancel too, but they could not have won a spade trick: not a reason (R9).
    assert explanation == ("The two 10♠ cancel, so no card of the suit led (♠) is left to win: "
                           "nobody wins the trick (R9).")


def test_a_cancellation_that_changed_nothing_is_not_given_as_the_reason(app):
    with app.test_request_context():
        explanation = explain(rules.resolve_trick(["5♠", "A♠", "9♥", "9♥"]).reason)

    assert explanation == "A♠ is the highest card of the suit led, so it wins (R9)."


def test_a_cancellation_that_beat_the_winner_is_the_reason(app):
    with app.test_request_context():
        explanation = explain(rules.resolve_trick(["5♠", "K♠", "K♠", "3♠", "9♥", "9♥"]).reason)

    assert explanation == ("The two K♠ cancel; 5♠ is the highest card of the suit led that is left, "
                           "so it wins (R9).")


@pytest.mark.parametrize(("cards", "named"), [
    ("10S,9X", "“9X” is not a card"),
    ("", "Enter the trick's cards"),
    ("QS,QS,QS", "Q♠ appears 3 times"),
    (",".join(["2C"] * 2 + ["3C"] * 10), "at most 11 cards"),
])
def test_settle_json_refuses_bad_cards_naming_them(client, cards, named):
    response = client.get("/settle.json", query_string={"cards": cards})

    assert response.status_code == 400
    assert named in response.get_json()["error"]


def test_settle_page_shows_the_reserved_trick_and_its_rules(client):
    response = client.get("/settle", query_string={"cards": "10s 9h 9h 10s"})

    page = text_of(response)
    assert "Nobody wins: the trick is reserved (R9)." in page
    assert "The two 10♠ cancel" in page
    assert "the next player to win a trick takes them too (R11)" in page


def test_settle_page_keeps_a_bad_entry_and_says_what_is_wrong(client):
    response = client.get("/settle", query_string={"cards": "10s 1h"})

    assert response.status_code == 400
    assert "“1h” is not a card" in text_of(response)
    assert 'value="10s 1h"' in response.get_data(as_text=True)


def test_settle_from_a_game_names_the_winner(client):
    game_id = create_game(client)

    response = client.get("/settle", query_string={"cards": "KC KC QC 2C", "game": game_id, "leader": 4})

    assert "Ana wins the trick with Q♣." in text_of(response)  # Eli led; Q♣ was the third card


def test_settle_is_one_tap_away_on_every_page(client):
    game_id = create_game(client)

    for url in ["/", "/rules", f"/games/{game_id}", f"/games/{game_id}/hands/new", "/games/new"]:
        assert 'href="/settle' in client.get(url).get_data(as_text=True)


# --- Playing a hand trick by trick ---------------------------------------------------


def test_whole_nine_player_hand_played_trick_by_trick_fills_in_the_hand(app, client):
    game_id = create_game(client, NINE)

    for number, cards in enumerate(TRICKS, start=1):
        if number == 2:
            warned = play_trick(client, game_id, cards, number)
            assert warned.status_code == 400
            assert "Hearts are not broken yet" in text_of(warned)
            response = play_trick(client, game_id, cards, number, confirm=True)
        elif number == 3:
            blocked = play_trick(client, game_id, cards, number)
            assert "First say what the kitty held (R12)." in text_of(blocked)
            assert "Bo takes the kitty" in text_of(client.get(f"/games/{game_id}/play"))
            assert enter_kitty(client, game_id, KITTY).status_code == 302
            response = play_trick(client, game_id, cards, number)
        elif number == 5:
            third = play_trick(client, game_id, cards.replace("10♦", "10♠"), number)
            assert third.status_code == 400
            assert "Both 10♠ were played before trick 5, so a third cannot be in it" in text_of(third)
            response = play_trick(client, game_id, cards, number)
        else:
            response = play_trick(client, game_id, cards, number)
        assert response.status_code == 302, text_of(response)
        if number == 1:
            page = text_of(client.get(f"/games/{game_id}/play"))
            assert "Nobody wins: the trick is reserved (R9)." in page
            assert "Trick 2 of 11: Bo leads" in page
            assert "The kitty (5 cards face down) waits with 9 reserved cards" in page

    done = text_of(client.get(f"/games/{game_id}/play"))
    form = client.get(f"/games/{game_id}/hands/new")
    page = form.get_data(as_text=True)

    assert "All 11 tricks played" in done
    assert "Nobody collected 2 hearts (R13)." in done
    assert "Filled in from the tricks played" in page
    assert 'name="last_trick_reserved" value="y" checked' in page

    engine = rules.HandPlay(9, 1, KITTY.split())
    for number, cards in enumerate(TRICKS, start=1):
        engine.play(cards.split(), confirm=number == 2)
    fields = {**hidden_fields(client, f"/games/{game_id}/hands/new"), "number": "1",
              "last_trick_reserved": "y"}
    for seat in range(9):
        assert f'name="takings-{seat}-hearts"\n                 value="{engine.taken[seat].hearts or ""}"' in page
        fields[f"takings-{seat}-hearts"] = str(engine.taken[seat].hearts)
        fields[f"takings-{seat}-marias"] = str(engine.taken[seat].marias)
    assert client.post(f"/games/{game_id}/hands/new", data=fields).status_code == 302

    hand = exported(client, game_id)["hands"][0]
    taken = {seat: (t["hearts"], t["marias"]) for seat, t in enumerate(hand["taken"])}
    assert {seat: counts for seat, counts in taken.items() if counts != (0, 0)} == EXPECTED_TAKEN
    uncollected = {"hearts": engine.uncollected.hearts, "marias": engine.uncollected.marias}
    assert hand["uncollected"] == {"hearts": 2, "marias": 0} == uncollected
    assert hand["tricks"]["kitty"] == KITTY.split()
    assert [" ".join(t["cards"]) for t in hand["tricks"]["played"]] == TRICKS
    log = text_of(client.get(f"/games/{game_id}/hands/1/tricks"))
    assert "Trick 11" in log and "The last trick was reserved: nobody collects it" in log
    assert "Eli collects 11 hearts with it" in log
    assert trick_rows(app) == 11


def test_taking_back_the_last_trick_restores_the_leader(app, client):
    game_id = create_game(client, NINE)
    play_trick(client, game_id, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1)

    fields = hidden_fields(client, f"/games/{game_id}/play")
    response = client.post(f"/games/{game_id}/play/undo", data=fields)

    assert response.status_code == 302
    assert trick_rows(app) == 0
    assert "Trick 1 of 11: Bo leads" in text_of(client.get(f"/games/{game_id}/play"))


def test_double_submitted_trick_is_entered_once(app, client):
    game_id = create_game(client, NINE)
    fields = trick_fields(client, game_id, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1)

    client.post(f"/games/{game_id}/play", data=fields)
    client.post(f"/games/{game_id}/play", data=fields)

    assert trick_rows(app) == 1


@pytest.mark.parametrize(("cards", "message"), [
    ("K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣", "Enter this player's card."),
    ("K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 1♣", "“1♣” is not a card."),
    ("Q♠ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", "The first lead of a hand may not be a heart or a Black Maria"),
    ("K♣ K♣ K♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", "Trick 1 would hold three K♣"),
])
def test_refused_trick_keeps_the_cards_typed_and_changes_nothing(app, client, cards, message):
    game_id = create_game(client, NINE)

    response = play_trick(client, game_id, cards, 1)

    assert response.status_code == 400
    assert message in text_of(response)
    assert 'value="4♣"' in response.get_data(as_text=True)
    assert trick_rows(app) == 0


@pytest.mark.parametrize(("kitty", "message"), [
    ("2♥ 3♥", "The kitty holds 5 cards (R3)"),
    ("2♥ 3♥ A♦ K♦ X", "“X” is not a card"),
    ("10♠ 3♥ A♦ K♦ Q♦", "Two 10♠ in trick 1 and one in the kitty make three"),
])
def test_kitty_must_be_its_five_real_cards(app, client, kitty, message):
    game_id = create_game(client, NINE)
    play_trick(client, game_id, TRICKS[0], 1)
    play_trick(client, game_id, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 2)

    response = enter_kitty(client, game_id, kitty)

    assert response.status_code == 400
    assert message in text_of(response)
    with app.app_context():
        assert db.session.execute(db.select(TrickLog.kitty)).scalar() is None


def test_hand_recorded_without_finishing_the_tricks_keeps_them(client):
    game_id = create_game(client, NINE)
    play_trick(client, game_id, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1)
    record_hand(client, game_id, [(26, 0), (0, 2)] + [(0, 0)] * 7)

    log = text_of(client.get(f"/games/{game_id}/hands/1/tricks"))

    assert "Only 1 of 11 tricks were entered" in log
    assert "differ from these tricks" in log


def play_whole_hand(client, game_id):
    """Play TRICKS with the kitty, and record the hand as filled in."""
    for number, cards in enumerate(TRICKS, start=1):
        assert play_trick(client, game_id, cards, number, confirm=number == 2).status_code == 302
        if number == 2:
            enter_kitty(client, game_id, KITTY)
    page = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    fields = {**hidden_fields(client, f"/games/{game_id}/hands/new"), "number": "1", "last_trick_reserved": "y"}
    for seat in range(9):
        hearts, marias = EXPECTED_TAKEN.get(seat, (0, 0))
        fields[f"takings-{seat}-hearts"] = str(hearts)
        fields[f"takings-{seat}-marias"] = str(marias)
    assert "Filled in from the tricks played" in page
    assert client.post(f"/games/{game_id}/hands/new", data=fields).status_code == 302


def test_trick_log_travels_in_the_export_and_back(client):
    import io
    import json

    game_id = create_game(client, NINE)
    play_whole_hand(client, game_id)
    original = exported(client, game_id)

    token = csrf_token(client, "/games/import")
    response = client.post("/games/import", content_type="multipart/form-data", data={
        "csrf_token": token, "document": (io.BytesIO(json.dumps(original).encode()), "game.json")})
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])

    assert exported(client, new_id) == original
    assert [t["winner"] for t in original["hands"][0]["tricks"]["played"]] == [None, 1, 1, None, 4, 3, 2, 8, 3, 6, None]
    assert "Trick 11" in text_of(client.get(f"/games/{new_id}/hands/1/tricks"))


@pytest.mark.parametrize("change", [
    lambda tricks: tricks["played"][4]["cards"].__setitem__(8, "10♠"),   # a third 10♠
    lambda tricks: tricks["played"][1].update(confirmed=False),           # unconfirmed heart lead
    lambda tricks: tricks["played"][0]["cards"].pop(),                    # eight cards for nine players
    lambda tricks: tricks.update(kitty=["2♥"]),                           # a kitty of one
    lambda tricks: tricks.update(first_leader=9),
    lambda tricks: tricks["played"].append({"cards": ["2♣"] * 9}),        # a twelfth trick
])
def test_import_refuses_a_trick_log_that_cannot_have_been_played(app, client, change):
    import io
    import json

    game_id = create_game(client, NINE)
    play_whole_hand(client, game_id)
    document = exported(client, game_id)
    change(document["hands"][0]["tricks"])
    before = trick_rows(app)

    token = csrf_token(client, "/games/import")
    response = client.post("/games/import", content_type="multipart/form-data", data={
        "csrf_token": token, "document": (io.BytesIO(json.dumps(document).encode()), "game.json")})

    assert response.status_code == 400
    assert re.search(r"Hand 1(, tricks: |: the tricks)", text_of(response))
    assert trick_rows(app) == before


def test_settle_json_reads_another_languages_letters_when_asked(client):
    portuguese = client.get("/settle.json?cards=10E,10E,9C&lang=pt").get_json()
    english = client.get("/settle.json?cards=10S,10S,9H").get_json()

    words = {"explanation": "", "notes": []}  # in Portuguese words
    assert {**portuguese, **words} == {**english, **words}
    assert len(portuguese["notes"]) == len(english["notes"]) == 1  # R9's reading: one pair, yet reserved
    assert portuguese["cards"] == ["10♠", "10♠", "9♥"] and portuguese["winner"] is None  # reserved (R9)


def test_settle_json_keeps_english_letters_whatever_the_readers_language(client):
    client.set_cookie("language", "pt")

    assert client.get("/settle.json?cards=9C,10C").get_json()["cards"] == ["9♣", "10♣"]


def test_settle_json_refuses_a_language_it_does_not_have(client):
    response = client.get("/settle.json?cards=10S&lang=xx")

    assert response.status_code == 400
    assert "lang is one of en, pt, es, ms, nb" in response.get_json()["error"]


def test_a_portuguese_scorer_types_a_trick_with_portuguese_letters(app, client):
    game_id = create_game(client, NINE)
    client.set_cookie("language", "pt")

    response = play_trick(client, game_id, "10E 10E AO 3O 4O 5O 6O 7O 8O", 1)  # espadas, ouros: TRICKS[0]

    assert response.status_code == 302
    with app.app_context():
        assert db.session.execute(db.select(Trick.cards)).scalar_one() == TRICKS[0]


def test_english_suit_letters_are_refused_to_a_portuguese_scorer_rather_than_misread(app, client):
    game_id = create_game(client, NINE)
    client.set_cookie("language", "pt")

    response = play_trick(client, game_id, "10S 10S AD 3D 4D 5D 6D 7D 8D", 1)

    assert response.status_code == 400
    assert trick_rows(app) == 0


def waiting_text(client, game_id):
    page = client.get(f"/games/{game_id}/play").get_data(as_text=True)
    section = re.search(r'<section class="waiting".*?</section>', page, re.S)
    return text_of_html(section.group(0)) if section else None


def text_of_html(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_nothing_waits_on_the_table_before_the_first_trick_without_a_kitty(client):
    game_id = create_game(client, ELEVEN[:8])  # 8 players: 13 cards each, no kitty

    assert waiting_text(client, game_id) is None


def test_before_the_first_trick_only_the_face_down_kitty_waits(client):
    game_id = create_game(client, NINE)

    assert waiting_text(client, game_id) == (
        "Waiting on the table The kitty (5 cards face down). The next player to win a trick takes it (R12).")


def test_the_kitty_once_known_is_never_shown_face_up_while_it_waits(client):
    game_id = create_game(client, NINE)
    assert play_trick(client, game_id, TRICKS[0], 1).status_code == 302
    assert play_trick(client, game_id, TRICKS[1], 2, confirm=True).status_code == 302
    assert enter_kitty(client, game_id, KITTY).status_code == 302  # 2♥ 3♥ in it
    url = f"/games/{game_id}/play/undo"
    assert client.post(url, data=hidden_fields(client, f"/games/{game_id}/play")).status_code == 302  # trick 2 back

    assert waiting_text(client, game_id) == (
        "Waiting on the table The kitty (5 cards face down) waits with 9 reserved cards, no hearts or Black Marias "
        "among them face up (R12, our decision). The next player to win a trick takes them all (R11).")


def trick_texts(client, game_id):
    """Each trick's paragraphs on the hand's trick log, by trick number."""
    page = client.get(f"/games/{game_id}/hands/1/tricks").get_data(as_text=True)
    parts = re.split(r"<h[23][^>]*>\s*Trick (\d+)\s*</h[23]>", page)
    return {int(number): text_of_html(body) for number, body in zip(parts[1::2], parts[2::2])}


def test_each_trick_of_a_hand_says_only_what_happened_and_who_leads_after_a_reserved_one(client):
    game_id = create_game(client, NINE)
    play_whole_hand(client, game_id)

    tricks = trick_texts(client, game_id)

    assert len(tricks) == 11
    assert "Bo led this trick and leads the next one too (R10, our decision)." in tricks[1]
    assert ("the kitty and 9 reserved cards included (R11). The kitty waited with the reserved cards "
            "(R12, our decision).") in tricks[2]
    assert "Bo collects 1 Black Maria with it." in tricks[3]
    assert "included" not in tricks[3]
    assert "leads the next one too (R10, our decision)" in tricks[4]
    assert "9 reserved cards included (R11)." in tricks[5]
    assert "The last trick was reserved: nobody collects it" in tricks[11]
    for text in tricks.values():
        assert "If this was the last trick" not in text  # the hand's page knows
    assert "next player to win a trick takes them" not in tricks[11]


def test_a_hand_of_only_reserved_tricks_after_a_kitty_turned_over_and_taken_back_plays_to_its_end(app, client):
    """Win trick 1, say the kitty, take trick 1 back, then play only reserved tricks: the play page used to
    fail after the last one (R11-R13); now the hand ends with everything uncollected."""
    kitty, tricks = every_trick_reserved(random.Random(3), len(NINE))
    won = [card for card in DECK[:52] if card not in kitty][:len(NINE)]  # nine different cards: one wins
    game_id = create_game(client, NINE)
    play_trick(client, game_id, " ".join(map(str, won)), 1, confirm=True)
    assert enter_kitty(client, game_id, " ".join(map(str, kitty))).status_code == 302
    client.post(f"/games/{game_id}/play/undo", data=hidden_fields(client, f"/games/{game_id}/play"))

    for number, trick in enumerate(tricks, start=1):
        assert play_trick(client, game_id, " ".join(map(str, trick)), number, confirm=True).status_code == 302

    assert client.get(f"/games/{game_id}/play").status_code == 200
    form = text_of(client.get(f"/games/{game_id}/hands/new"))
    assert "Filled in from the tricks played" in form
