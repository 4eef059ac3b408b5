"""Every rule about names, in one place: what a player's or a game's name may hold, what makes two
typed names one person, and the refusal of a game in which one person would sit twice.

The rules say what is wrong as a reason (``problem``); the web words it in
the reader's language (web/explain.py). Column lengths are the database's
(``db.models``); the limits here are those lengths.
"""

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

from ..db.models import GAME_NAME_LENGTH, NAME_LENGTH
from .errors import SamePerson

# What ``problem`` may answer: too long, holding a character that no name needs, or showing nothing.
LONG = "long"
CONTROL = "control"  # a control character (NUL, tab, line break), or a line or paragraph separator
FORMAT = "format"  # an invisible formatting character: zero-width, or turning the text's direction
INVISIBLE = "invisible"  # only marks (accents on nothing), spaces or blank letters: a name that shows nothing

# Letters and signs that draw nothing (Hangul fillers, the blank Braille pattern): a name of them is blank.
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def key(name):
    """What makes two typed names one person: Unicode NFKC, trimmed, case-folded ("Ana", "ana ", "Ａｎａ").

    The key finds a person (``PersonName.key``); it is kept in the database, so it never changes meaning.
    """
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    return unicodedata.normalize("NFKC", folded)  # case-folding can undo the normal form


def table_key(name):
    """What makes two names at one table one person: their keys look alike, the confusable skeleton
    (Unicode TR39) of the key ("Ana", Cyrillic "Аna", "Ana" in Greek capitals "ΑΝΑ").

    Only for the names of one game, which would show one person twice; never stored, so it may follow
    newer Unicode data. A person is found by ``key`` alone.
    """
    return skeleton(key(name))


def skeleton(text):
    """TR39's skeleton of ``text``: NFD, each character replaced by its confusables' prototype, NFD again."""
    prototypes = _prototypes()
    mapped = unicodedata.normalize("NFD", text)
    for _pass in range(3):  # a prototype of several characters may hold characters mapped in turn
        again = unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in mapped))
        if again == mapped:
            break
        mapped = again
    return mapped


@cache
def _prototypes():
    """Each confusable character and the one string its class of look-alikes is compared as.

    ``confusable_homoglyphs`` keeps Unicode's confusables.txt both ways: a source lists its prototype,
    a prototype its sources. Each class is a star around its prototype; where a class holds two
    characters only, which of them is the prototype cannot be told, and either compares them alike.
    """
    linked = {}
    for char, homoglyphs in confusables_data.items():
        char = char.replace("\u200e", "")  # its right-to-left characters are written between LRMs
        linked.setdefault(char, set()).update(glyph["c"].replace("\u200e", "") for glyph in homoglyphs)
    prototypes = {}
    for char, others in linked.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (several characters, or looked like by several)
        other = next(iter(others))
        if len(other) > 1 or len(linked.get(other, ())) > 1 or other < char:
            prototypes[char] = other
    return prototypes


def has_control_characters(text):
    """Whether ``text`` holds a control character (NUL, a tab, a line break...) or a line or paragraph
    separator (U+2028, U+2029), which no name needs.

    PostgreSQL stores no NUL at all; a line break in a name would break the
    layout of every page (and a separator split one name in two). Refused on every database alike.
    """
    return any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in text)


def has_format_characters(text):
    """Whether ``text`` holds an invisible formatting character (Unicode Cf): a zero-width space or
    joiner (U+200B-U+200D), a direction mark or override (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).

    "Ana" and "Ana" + U+200B look one name and are two; U+202E turns the text after it around.
    """
    return any(unicodedata.category(char) == "Cf" for char in text)


def shows_nothing(text):
    """Whether ``text`` (not empty) is only marks, spaces and blank characters: nothing a reader can see."""
    return bool(text) and all(unicodedata.category(char)[0] in "MZ" or char in BLANK_CHARACTERS for char in text)


def problem(name, most=NAME_LENGTH):
    """What is wrong with a trimmed name, if anything: ``LONG`` (past ``most`` characters), ``CONTROL``,
    ``FORMAT`` or ``INVISIBLE``. An empty name has no problem here (it may mean "none given")."""
    if len(name) > most:
        return LONG
    if has_control_characters(name):
        return CONTROL
    if has_format_characters(name):
        return FORMAT
    if shows_nothing(name):
        return INVISIBLE
    return None


def game_name_problem(name):
    """What is wrong with a game's trimmed name, if anything (as ``problem``, up to ``GAME_NAME_LENGTH``)."""
    return problem(name, GAME_NAME_LENGTH)


def repeats(names):
    """The places of names another name before them already is, as ``{place: the earlier place}``
    ("Ana", "Ａｎａ" and Cyrillic "Аna" are one person at a table); empty names are nobody's repeat."""
    first, found = {}, {}
    for place, name in enumerate(names):
        if name:
            earlier = first.setdefault(table_key(name), place)
            if earlier != place:
                found[place] = earlier
    return found


def seated_already(name, names):
    """The first of ``names`` that is the same person at a table as ``name`` (``table_key``), or None."""
    looked_for = table_key(name)
    return next((seated for seated in names if seated and table_key(seated) == looked_for), None)


def check_one_person_each(names):
    """Refuse a table where two names are one name written two ways ("Ana", "ana ", "Ａｎａ", "Аna")."""
    refuse_repeats(names, [table_key(name) for name in names])


def refuse_repeats(names, identities):
    """Raise ``SamePerson`` for the first name whose identity (a name's key, a person) an earlier name has."""
    first = {}
    for place, identity in enumerate(identities):
        if identity is None:  # a player nobody linked yet is nobody's repeat
            continue
        earlier = first.setdefault(identity, place)
        if earlier != place:
            raise SamePerson(names[place], names[earlier])
