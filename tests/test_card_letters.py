"""Cards in the reader's language: the letters each language reads, the examples and hints that teach
them, the settle answer in the language asked for, and Norwegian for every Norwegian browser (R2, R9)."""

import html
import json
import re
from urllib.parse import quote

import pytest

from scorekeeper import rules
from scorekeeper.words.explain import explain
from scorekeeper.words.i18n import LANGUAGES, card_examples, card_letters, seeds_trick, speaking

from .tabletop import ELEVEN, create_game, text_of

PRINTED_RANKS = {"J", "Q", "K", "A"}  # what the card grid shows, with the suit symbols


def letters_of(app, language):
    with app.test_request_context(), speaking(language):
        return card_letters()


def test_every_norwegian_browser_reads_the_bokmal_catalog_and_others_keep_theirs(client):
    expected = {**dict.fromkeys(["no", "nb", "nn", "no-NO", "nb-NO", "nn-NO", "nn-NO,en;q=0.5", "fr,no;q=0.8"], "nb"),
                "pt-BR": "pt", "es-419,en;q=0.5": "es", "fr": "en", "en-GB,nb;q=0.9": "en", "*": "en",
                "nb;q=0,pt": "pt"}

    chosen = {header: re.search(r'<html lang="(\w+)">', client.get("/", headers={"Accept-Language": header})
                                .get_data(as_text=True)).group(1) for header in expected}

    assert chosen == expected


def test_every_card_of_the_deck_reads_back_as_each_language_types_it(app):
    for language in LANGUAGES:
        letters = letters_of(app, language)

        for card in rules.CARD_KINDS:
            typed = letters.typed(card)
            own = [f"{letter}{typed[-1]}" for letter, rank in letters.ranks.items() if rank == card.rank]
            for text in [typed, typed.lower(), str(card), *own]:
                assert rules.Card.parse(text, letters) == card, (language, text)
        assert language == "en" or letters is not rules.ENGLISH_LETTERS  # the catalog's letters, not the fallback


def test_each_language_has_its_own_suit_letters(app):
    expected = {
        "pt": {"C": "♥", "E": "♠", "O": "♦", "P": "♣"},  # copas, espadas, ouros, paus
        "es": {"C": "♥", "P": "♠", "D": "♦", "T": "♣"},  # corazones, picas, diamantes, tréboles
        "ms": {"H": "♥", "S": "♠", "W": "♦", "K": "♣"},  # hati, sekop, wajik, kelawar
        "nb": {"H": "♥", "S": "♠", "R": "♦", "K": "♣"},  # hjerter, spar, ruter, kløver
    }

    assert {language: dict(letters_of(app, language).suits) for language in expected} == expected


def test_the_rank_letters_players_write_read_besides_the_printed_ones(app):
    cases = [
        ("es", "RP", "K♠"), ("es", "DP", "Q♠"), ("es", "DD", "Q♦"), ("es", "KP", "K♠"), ("es", "QD", "Q♦"),  # rey, dama
        ("pt", "VO", "J♦"), ("pt", "DE", "Q♠"), ("pt", "RP", "K♣"), ("pt", "QE", "Q♠"),  # valete, dama, rei
        ("nb", "KNR", "J♦"), ("nb", "DS", "Q♠"), ("nb", "ES", "A♠"), ("nb", "AS", "A♠"),  # knekt, dame, ess
        ("ms", "KK", "K♣"), ("ms", "QK", "Q♣"),  # raja kelawar
    ]

    read = [(language, text, str(rules.Card.parse(text, letters_of(app, language)))) for language, text, _ in cases]

    assert read == cases


@pytest.mark.parametrize("ranks", [{"K": 11}, {"A": 13}, {"1": 14}])
def test_a_rank_letter_may_not_contradict_the_letters_printed_on_the_cards(ranks):
    with pytest.raises(ValueError):
        rules.CardLetters(dict(rules.ENGLISH_LETTERS.suits), ranks)


def test_examples_and_placeholder_are_cards_of_the_readers_letters_with_printed_ranks(app):
    for language in LANGUAGES:
        letters = letters_of(app, language)

        with app.test_request_context():
            examples = card_examples(letters)
            placeholder = seeds_trick(letters)

        assert [rules.Card.parse(card, letters) for card in examples] == [
            rules.Card.parse(card) for card in ("10♠", "9♥", "Q♠", "2♣")]
        assert [str(rules.Card.parse(card, letters)) for card in placeholder.split()] == ["10♠", "9♥", "9♥", "10♠"]
        assert {card[:-1].upper() for card in examples if not card[:-1].isdigit()} <= PRINTED_RANKS


def test_the_settle_page_teaches_the_readers_letters_and_reads_its_placeholder(client):
    for language in LANGUAGES:
        letters = letters_of(client.application, language)
        client.set_cookie("language", language)

        page = client.get("/settle").get_data(as_text=True)
        placeholder = re.search(r'placeholder="([^"]+)"', page).group(1)
        answered = client.get("/settle", query_string={"cards": placeholder})

        assert answered.status_code == 200, language  # the placeholder is never a trick the page refuses
        with client.application.test_request_context():
            assert " ".join(card_examples(letters)) in page
        grid = json.loads(html.unescape(re.search(r'data-grid="([^"]+)"', page).group(1)))
        shown = {card for row in grid for card, _left in row["cards"]}
        assert shown == {str(card) for card in rules.CARD_KINDS}  # printed ranks and suit symbols, nothing else


def test_settle_json_answers_wholly_in_the_language_asked_for(client):
    refused = client.get("/settle.json?lang=pt&cards=10S+9H", headers={"Accept-Language": "en"}).get_json()
    answered = client.get("/settle.json?lang=pt&cards=10E+9C+9C+10E", headers={"Accept-Language": "en"}).get_json()

    assert refused["error"].startswith("“10S” não é uma carta")
    assert answered["cards"] == ["10♠", "9♥", "9♥", "10♠"]
    with client.application.test_request_context(), speaking("pt"):
        assert answered["explanation"] == explain(rules.resolve_trick(answered["cards"]).reason)
    assert "cancel" not in answered["explanation"]


def test_settle_json_without_lang_is_english_whatever_the_browser(client):
    answer = client.get("/settle.json?cards=KC,KC,QC", headers={"Accept-Language": "pt"}).get_json()

    assert answer["cards"] == ["K♣", "K♣", "Q♣"]
    assert answer["explanation"].startswith("The two K♣ cancel")


def test_settle_page_in_the_language_asked_for_keeps_it_for_the_next_settle(client):
    response = client.get("/settle", query_string={"lang": "es", "cards": "RP DP KP"},
                          headers={"Accept-Language": "en"})

    page = response.get_data(as_text=True)
    assert '<html lang="es">' in page
    assert '<input type="hidden" name="lang" value="es">' in page
    assert "/settle.json?lang=es" in page
    with client.application.test_request_context(), speaking("es"):
        assert explain(rules.resolve_trick(["K♠", "Q♠", "K♠"]).reason) in text_of(response)


def test_settle_page_ignores_a_language_it_does_not_have(client):
    response = client.get("/settle", query_string={"lang": "xx"}, headers={"Accept-Language": "pt"})

    assert '<html lang="pt">' in response.get_data(as_text=True)


def test_a_settle_from_an_eight_player_game_refuses_nine_cards_and_names_each_player_once(client):
    game_id = create_game(client, ELEVEN[:8])
    eight = "2C 3C 4C 5C 6C 7C 8C 9C"

    refused = client.get("/settle", query_string={"game": game_id, "leader": 3, "cards": eight + " 10C"})
    settled = client.get("/settle", query_string={"game": game_id, "leader": 3, "cards": eight})
    as_json = client.get("/settle.json", query_string={"game": game_id, "cards": eight + " 10C"})

    assert refused.status_code == 400
    assert "A trick has at most 8 cards, one per player (R1)." in text_of(refused)
    names = re.findall(r'<span class="who">([^<]+)</span>', settled.get_data(as_text=True))
    assert sorted(names) == sorted(ELEVEN[:8])
    assert as_json.status_code == 400 and "at most 8 cards" in as_json.get_json()["error"]
    assert f"game={game_id}" in settled.get_data(as_text=True)  # the live answer asks with the game too


def test_choosing_a_language_on_a_settle_page_asked_in_another_drops_its_lang(client):
    """/settle?lang=pt, then Español in the switcher: the page comes back in Spanish, its cards kept."""
    response = client.get("/language/es?next=" + quote("/settle?lang=pt&cards=10E+9C"))

    assert response.status_code == 302
    assert response.headers["Location"] == "/settle?cards=10E+9C"
    assert '<html lang="es">' in client.get(response.headers["Location"]).get_data(as_text=True)
