"""The message catalogs: every language complete, every placeholder kept, pages translated."""

import html
import pathlib
import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.words.i18n import (
    CATALOGS,
    LANGUAGES,
    hearts_count,
    marias_count,
    plain_whole_number,
    whole_number_style,
)

from .tabletop import SIX, create_game, text_of

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def catalog(language):
    with open(f"{CATALOGS}/{language}/LC_MESSAGES/messages.po", "rb") as po_file:
        return read_po(po_file, locale=language)


def template_ids():
    with open(f"{CATALOGS}/messages.pot", "rb") as pot_file:
        return {message.id for message in read_po(pot_file) if message.id}


def test_the_template_catalog_holds_every_message_of_the_code_and_templates():
    root = pathlib.Path(__file__).resolve().parents[1]
    found = extract_from_dir(
        root,
        method_map=[("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")],
        keywords={"_": None, "gettext": None, "lazy_gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)},
    )

    in_source = {message for _file, _line, message, _comments, _context in found}

    assert in_source == template_ids(), "run the pybabel extract and update commands in the README"


def forms(text):
    """A message's translated forms: one, or one per plural form."""
    return text if isinstance(text, tuple) else (text,)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language):
    messages = [message for message in catalog(language) if message.id]

    missing = [message.id for message in messages if not all(forms(message.string))]
    fuzzy = [message.id for message in messages if message.fuzzy]
    wrong = [(message.id, message.string) for message in messages if all(forms(message.string))
             and any(sorted(PLACEHOLDER.findall(forms(message.id)[-1])) != sorted(PLACEHOLDER.findall(form))
                     for form in forms(message.string))]

    assert not missing, f"{len(missing)} untranslated, e.g. {missing[:3]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:3]}"
    assert not wrong, f"placeholders differ: {wrong[:3]}"
    assert {message.id for message in messages} >= template_ids()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_counted_message_has_each_plural_form_of_its_language(language):
    with open(f"{CATALOGS}/{language}/LC_MESSAGES/messages.po", encoding="utf-8") as po_file:
        assert "Plural-Forms: nplurals=" in po_file.read(), "the catalog must say how its language counts"
    counted = catalog(language)
    plural = [message for message in counted if message.id and message.pluralizable]

    lacking = [message.id for message in plural
               if len(forms(message.string)) != counted.num_plurals or not all(forms(message.string))]

    assert plural, "the catalogs have counted messages (ngettext)"
    assert not lacking, f"{len(lacking)} counted messages lack a plural form, e.g. {lacking[:3]}"


def translated(language, message, **values):
    return catalog(language).get(message).string % values


@pytest.mark.parametrize("language", TRANSLATED)
def test_pages_follow_the_browsers_language(client, language):
    response = client.get("/", headers={"Accept-Language": f"{language},en;q=0.5"})

    assert translated(language, "No games yet. Start one when everyone is seated.") in text_of(response)
    assert f'<html lang="{language}">' in response.get_data(as_text=True)


DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')
ABOUT_THE_APP = "The score of a game of Cancellation Hearts, hand by hand, on every phone at the table."
ABOUT_THE_RULES = ("The rules of Cancellation Hearts as the app keeps them, each with its number, and what we decided "
                   "where the printed rules leave a question open.")
ABOUT_SETTLING = ("Which card wins a trick of Cancellation Hearts, and which cards cancel and why: tap or type the "
                  "trick's cards.")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path, description", [
    ("/", ABOUT_THE_APP), ("/games/new", ABOUT_THE_APP), ("/games/1", ABOUT_THE_APP), ("/games/1/watch", ABOUT_THE_APP),
    ("/rules", ABOUT_THE_RULES), ("/settle", ABOUT_SETTLING),
])
def test_every_page_describes_itself_in_its_language(client, language, path, description):
    if path.startswith("/games/1"):
        create_game(client, SIX)

    page = client.get(path, headers={"Accept-Language": language}).get_data(as_text=True)

    assert [html.unescape(found) for found in DESCRIPTION.findall(page)] == [
        description if language == "en" else translated(language, description)]


def test_language_switcher_remembers_the_choice_and_returns_to_the_page(client):
    game_id = create_game(client, SIX)

    response = client.get(f"/language/pt?next=/games/{game_id}")
    page = text_of(client.get(f"/games/{game_id}", headers={"Accept-Language": "es"}))

    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/{game_id}")
    assert translated("pt", "Record hand %(number)d", number=1) in page


@pytest.mark.parametrize("target", ["https://example.com/", "//example.com/", "/\\example.com"])
def test_language_switcher_never_leaves_the_app(client, target):
    response = client.get("/language/nb", query_string={"next": target})

    assert response.headers["Location"] in ("/", "http://localhost/")


def test_trick_explanations_are_translated(client):
    answer = client.get("/settle.json?lang=pt&cards=KP,KP,QP").get_json()  # paus: the Portuguese clubs

    assert "K♣" in answer["explanation"] and "Q♣" in answer["explanation"]
    assert "highest" not in answer["explanation"]


@pytest.mark.parametrize("language, one, two, marias", [
    ("en", "1 heart", "2 hearts", "1 Black Maria"),
    ("pt", "1 copa", "2 copas", "1 Maria Negra"),
    ("es", "1 corazón", "2 corazones", "1 María Negra"),
    ("ms", "1 hati", "2 hati", "1 Black Maria"),
    ("nb", "1 hjerter", "2 hjerter", "1 Svarte Maria"),
])
def test_a_count_takes_the_plural_form_of_the_readers_language(app, language, one, two, marias):
    with app.test_request_context(headers={"Accept-Language": language}):
        assert (hearts_count(1), hearts_count(2), marias_count(1)) == (one, two, marias)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@settings(max_examples=300, deadline=None)
@given(value=st.one_of(st.integers(-10**15, 10**15), st.sampled_from([0, -1, 999, 1000, -1000, 9999, 10000, 99999])))
def test_whole_numbers_written_without_babel_read_as_babel_writes_them(language, value):
    """Every language's whole numbers are written in plain digits by the app itself (babel is slow the first
    time): the same text as babel's, to the last separator."""
    style = whole_number_style(language)
    assert style is not None
    assert plain_whole_number(value, style) == format_decimal(value, locale=language)


def test_a_language_whose_digits_babel_groups_otherwise_is_left_to_babel():
    assert whole_number_style("hi_IN") is None  # 1,00,000: grouped by twos after the first three
