"""Languages: the message catalogs, each request's language, and the language switcher.

Messages are whole sentences with named placeholders (``%(name)s``), marked
with ``_`` (``gettext``) in code and templates, or ``lazy_gettext`` where
they are defined before any request (form classes). The catalogs live as
``.po`` files in ``scorekeeper/translations``; each is compiled in memory
the first time its language is asked for, once a process, so no binary is
kept in git and nothing is written anywhere (an installed package may be
read-only; the instance folder holds only what the club wrote).
"""

import io
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache

import pytz
from babel.dates import format_date as babel_format_date
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations
from flask import g, has_app_context, has_request_context, request
from flask_babel import (
    Babel,
    Domain,
    force_locale,
    format_date,
    format_datetime,
    get_locale,
    get_timezone,
    get_translations,
    gettext,
    lazy_gettext,  # noqa: F401 (for the forms, whose messages are defined before any request)
    ngettext,
    pgettext,
)

from .. import rules

_ = gettext

LANGUAGES = {
    "en": "English",
    "pt": "Português",
    "es": "Español",
    "ms": "Bahasa Melayu",
    "nb": "Norsk bokmål",
}
DEFAULT_LANGUAGE = "en"
# Browsers that ask for Norwegian (no), or for Nynorsk (nn) before English, read the bokmål catalog.
SAME_CATALOG = {"no": "nb", "nn": "nb"}
COOKIE = "language"
CATALOGS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "translations")  # scorekeeper/translations
ONE_YEAR = 365 * 24 * 3600
SAFE_PATH = re.compile(r"/(?![/\\])[\x21-\x7e]*")  # printable ASCII, no scheme-relative "//" or "/\\"


class ShippedCatalogs(Domain):
    """Flask-Babel's message domain, whose catalogs are the package's own, compiled in memory (``shipped_catalog``)
    rather than read from ``.mo`` files in a folder."""

    def get_translations(self):
        if not has_app_context():  # as Flask-Babel does outside an app
            return NullTranslations()
        return shipped_catalog(str(get_locale() or DEFAULT_LANGUAGE))


SHIPPED_CATALOGS = ShippedCatalogs()


class ShippedBabel(Babel):
    """Flask-Babel, translating with the package's catalogs (``ShippedCatalogs``)."""

    @property
    def domain_instance(self):
        return SHIPPED_CATALOGS


babel = ShippedBabel()


def select_language():
    """The language chosen with the switcher, else the browser's best match, else English."""
    if not has_request_context():  # command-line use speaks English
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return browser_language(request.accept_languages)


def browser_language(accepted):
    """The first of the browser's languages (best first) that has a catalog here, by its main tag
    ("pt-BR" reads pt, "no-NO" and "nn" read nb); English if none has."""
    for tag, quality in accepted:
        if tag == "*":
            break
        main = tag.replace("_", "-").split("-", 1)[0].lower()
        main = SAME_CATALOG.get(main, main)
        if quality > 0 and main in LANGUAGES:
            return main
    return DEFAULT_LANGUAGE


@contextmanager
def speaking(language):
    """Word everything inside in ``language`` (one of ``LANGUAGES``), whatever the reader's: a page or an
    answer asked for in a language (``?lang=pt``)."""
    caches = {name: g.pop(name) for name in ("catalog", "written_numbers") if name in g}
    try:
        with force_locale(language):
            yield
    finally:
        g.pop("catalog", None)
        g.pop("written_numbers", None)
        for name, cache in caches.items():
            setattr(g, name, cache)


@cache
def shipped_catalog(language):
    """The messages of ``language`` (a ``LANGUAGES`` code): its ``.po`` file in the package, compiled in memory
    once a process (some 10 ms a language); English, the messages' own language, has none."""
    po_path = os.path.join(CATALOGS, language, "LC_MESSAGES", "messages.po")
    if not os.path.isfile(po_path):
        return NullTranslations()
    with open(po_path, "rb") as po_file:
        messages = read_po(po_file, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    return Translations(compiled)


def load_catalogs():
    """Compile every language's catalog now (a server does it before its first page)."""
    for language in LANGUAGES:
        shipped_catalog(language)


def _catalog():
    """This request's catalog, looked up once a request: a page asks it for dozens of messages."""
    catalog = g.get("catalog")
    if catalog is None:
        catalog = g.catalog = get_translations()
    return catalog


def template_gettext(message):
    """``_()`` in templates: the message in the reader's language (Jinja fills in the placeholders)."""
    return _catalog().ugettext(message)


def template_ngettext(singular, plural, count):
    """``ngettext()`` in templates: the form of the message for ``count``."""
    return _catalog().ungettext(singular, plural, count)


def number(value, locale=None):
    """A number written the way the reader's language writes it (each one formatted once a language), or
    ``locale``'s: a caller writing many numbers looks the reader's up once (``get_locale()``)."""
    if locale is not None:
        return _written(value, locale)
    written = g.setdefault("written_numbers", {})
    text = written.get(value)
    if text is None:
        text = written[value] = _written(value, get_locale())
    return text


@lru_cache(maxsize=4096)
def _written(value, locale):
    if type(value) is int:
        style = whole_number_style(str(locale))
        if style is not None:
            return plain_whole_number(value, style)
    return format_decimal(value, locale=locale)


@dataclass(frozen=True)
class WholeNumberStyle:
    """How a language writes a whole number in plain digits 0-9: its minus sign, its group separator, and
    the fewest digits it groups (1000 is "1,000" in English: 4; Spanish writes "1000" but "10.000": 5)."""

    minus: str
    group: str
    grouped_from: int


@lru_cache(maxsize=None)
def whole_number_style(language):
    """``language``'s ``WholeNumberStyle``, read once from babel's own writing of a few numbers; None when
    they are not written in plain digits grouped by threes, for babel to write every number of it.

    Babel writes the season's table's few hundred numbers at some 30 µs each, the first time after a start:
    written here they cost a string join each (tests/test_translations.py checks both agree)."""
    probe = format_decimal(-1234567, locale=language)
    start = probe.find("1")
    if start < 0 or "234" not in probe:
        return None
    minus, group = probe[:start], probe[start + 1:probe.index("234")]
    if probe != f"{minus}1{group}234{group}567" or not group:
        return None
    for grouped_from in (4, 5):
        smallest = 10 ** (grouped_from - 1)
        if format_decimal(smallest, locale=language) == plain_whole_number(smallest, WholeNumberStyle(
                minus, group, grouped_from)) and format_decimal(smallest - 1, locale=language) == str(smallest - 1):
            return WholeNumberStyle(minus, group, grouped_from)
    return None


def plain_whole_number(value, style):
    """``value`` written in ``style``: grouped by threes from ``style.grouped_from`` digits."""
    digits = str(abs(value))
    if len(digits) >= style.grouped_from:
        head = len(digits) % 3 or 3
        digits = style.group.join([digits[:head], *(digits[at:at + 3] for at in range(head, len(digits), 3))])
    return style.minus + digits if value < 0 else digits


def one_decimal(value, locale=None):
    """A figure with one decimal, as the reader's language (or ``locale``) writes it ("9.2", "9,2"); a dash
    for none."""
    return "–" if value is None else _one_decimal(value, str(locale or get_locale()))


@lru_cache(maxsize=4096)
def _one_decimal(value, language):
    return format_decimal(value, "#,##0.0", locale=language)


def percent(value, locale=None):
    """A share as the reader's language (or ``locale``) writes a percentage ("67%", "67 %"); a dash for none."""
    return "–" if value is None else _percent(float(value), str(locale or get_locale()))


@lru_cache(maxsize=4096)
def _percent(value, language):
    return format_percent(value, locale=language)


def day(value):
    """A day (or the day of a moment, in the server's time zone) as the reader's language writes it, medium
    length ("Dec 2, 2026"): each once a language and zone."""
    return _day(value, str(get_locale()), str(get_timezone()))


@lru_cache(maxsize=4096)
def _day(value, _language, _zone):
    return format_date(value)


# Counted things, each a whole phrase in the plural form its count takes in the reader's
# language ("1 heart", "2 hearts"; Malay has one form, Portuguese and Spanish three).
def hearts_count(count):
    return ngettext("%(num)d heart", "%(num)d hearts", count)


def marias_count(count):
    return ngettext("%(num)d Black Maria", "%(num)d Black Marias", count)


def jacks_count(count):
    return ngettext("%(num)d J♦", "%(num)d J♦", count)


def cards_count(count):
    return ngettext("%(num)d card", "%(num)d cards", count)


def reserved_cards_count(count):
    return ngettext("%(num)d reserved card", "%(num)d reserved cards", count)


def card_letters():
    """How the reader types cards: the letters their language's catalog gives, English if they are unusable
    (another language's: inside ``speaking``).

    Suit symbols, and the rank letters printed on the cards, always work besides (``rules.Card.parse``).
    """
    suits = [
        # Translators: the letter for hearts in typed cards ("9H" in English). One letter, unlike the others.
        (pgettext("suit letter ♥", "H"), rules.HEARTS),
        # Translators: the letter for spades in typed cards ("10S"). One letter, unlike the others.
        (pgettext("suit letter ♠", "S"), rules.SPADES),
        # Translators: the letter for diamonds in typed cards ("2D"). One letter, unlike the others.
        (pgettext("suit letter ♦", "D"), rules.DIAMONDS),
        # Translators: the letter for clubs in typed cards ("AC"). One letter, unlike the others.
        (pgettext("suit letter ♣", "C"), rules.CLUBS),
    ]
    # Cards show, and the hints teach, the rank letters printed on the cards (J, Q, K, A), which always read;
    # these are the letters players of the language also type, where they have their own (Portuguese D).
    ranks = [
        # Translators: the letter(s) players also type for a jack ("VE" for valete), besides the J printed on
        # the cards, which always reads; J if they have none. Not Q, K or A: those are the other ranks.
        (pgettext("rank letter jack", "J"), 11),
        # Translators: the letter(s) players also type for a queen ("DE" for dama), besides the Q printed on
        # the cards, which always reads; Q if they have none. Not J, K or A: those are the other ranks.
        (pgettext("rank letter queen", "Q"), 12),
        # Translators: the letter(s) players also type for a king ("RP" for rei), besides the K printed on
        # the cards, which always reads; K if they have none. Not J, Q or A: those are the other ranks.
        (pgettext("rank letter king", "K"), 13),
        # Translators: the letter(s) players also type for an ace ("ES" for ess), besides the A printed on
        # the cards, which always reads; A if they have none. Not J, Q or K: those are the other ranks.
        (pgettext("rank letter ace", "A"), 14),
    ]
    suits = [(letter.strip().upper(), suit) for letter, suit in suits]
    ranks = [(letters.strip().upper(), rank) for letters, rank in ranks]
    try:
        if len(dict(suits)) < len(suits) or len(dict(ranks)) < len(ranks):
            raise ValueError("one letter for two suits, or for two ranks")
        return rules.CardLetters(dict(suits), dict(ranks))
    except ValueError:  # a catalog's letters that clash: English still reads every card
        return rules.ENGLISH_LETTERS


def card_letters_json():
    """The reader's card letters for the pages' script, which echoes each typed card with its symbol."""
    letters = card_letters()
    return json.dumps({"suits": dict(letters.suits), "ranks": dict(letters.ranks)}, ensure_ascii=False)


# The seeds' four cards (R9): 10♠ 9♥ 9♥ 10♠, and the cards the examples show.
SEEDS_TRICK = tuple(rules.Card.parse(card) for card in ("10♠", "9♥", "9♥", "10♠"))
EXAMPLE_CARDS = tuple(rules.Card.parse(card) for card in ("10♠", "9♥", "Q♠", "2♣"))


def card_examples(letters=None):
    """Cards to show as examples, typed with the reader's (or ``letters``') suit letters and the rank letters
    printed on the cards, which the card grid shows: ("10S", "9h", "Q♠", "2c") in English.

    Both cases and a suit symbol, so that each way of typing a card is seen; every example reads as a
    card in that language (never one it refuses).
    """
    letters = letters or card_letters()
    ten, nine, maria, two = EXAMPLE_CARDS
    return letters.typed(ten), letters.typed(nine).lower(), str(maria), letters.typed(two).lower()


def seeds_trick(letters=None):
    """The seeds' trick typed with the reader's letters, as a placeholder: "10S 9H 9H 10S" in English."""
    letters = letters or card_letters()
    return " ".join(letters.typed(card) for card in SEEDS_TRICK)


def alternatives(items):
    """Items joined the way the reader's language offers a choice ("A, B or C")."""
    return format_list(list(items), style="or", locale=get_locale() or DEFAULT_LANGUAGE)


def load_formats():
    """Read each language's number, date and list formats now (Babel loads them on first use), so that a
    server's first page in a language does not."""
    for language in LANGUAGES:
        format_decimal(1234.5, locale=language)
        format_percent(0.5, locale=language)
        format_list(["a", "b"], locale=language)
        babel_format_date(date.today(), locale=language)


def datetime_short(moment):
    """A date and time, short, the way the reader's language writes them (each moment written once a
    language and time zone: a trail shows the same entries page after page)."""
    return _datetime_short(moment, str(get_locale()), str(get_timezone()))


@lru_cache(maxsize=4096)
def _datetime_short(moment, _language, _zone):
    return format_datetime(moment, "short")


def names_list(names):
    """Names joined the way the reader's language joins a list ("A, B and C")."""
    return format_list(list(names), locale=get_locale() or DEFAULT_LANGUAGE)


def local_time_zone():
    """This machine's time zone as an IANA name (``TZ``, else ``/etc/localtime``), or UTC if it cannot tell.

    The server usually sits at the table, or in the club's town: its clock's
    zone is the table's, unless ``BABEL_DEFAULT_TIMEZONE`` says otherwise.
    """
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        candidates.append(os.path.realpath("/etc/localtime").split("/zoneinfo/", 1)[1])
    except IndexError:
        pass
    for name in filter(None, candidates):
        try:
            return pytz.timezone(name).zone  # Flask-Babel reads zones with pytz, which brings its own database
        except pytz.UnknownTimeZoneError:
            continue
    return "UTC"


def init_app(app):
    """Make the language of each request the chosen one, its messages from the package's catalogs."""
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", local_time_zone())  # times of the trail, in the table's zone
    babel.init_app(app, locale_selector=select_language)
    app.jinja_env.install_gettext_callables(template_gettext, template_ngettext, newstyle=True)
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["one_decimal"] = one_decimal
    app.jinja_env.filters["names"] = names_list
    app.jinja_env.filters["date"] = day
    app.jinja_env.filters["datetime_short"] = datetime_short
    app.jinja_env.globals["card_letters_json"] = card_letters_json
    app.jinja_env.globals["card_examples"] = card_examples  # hints: {{ card_examples()|join(" ") }}
    for counted in (hearts_count, marias_count, jacks_count, cards_count, reserved_cards_count):
        app.jinja_env.filters[counted.__name__] = counted

    @app.context_processor
    def languages():
        return {"languages": LANGUAGES, "current_language": str(get_locale() or DEFAULT_LANGUAGE)}

