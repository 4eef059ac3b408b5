"""Every rule about names, in one place: what a player's or a game's name may hold, what makes two
typed names one person, and the refusal of a game in which one person would sit twice.

The rules say what is wrong as a reason (``problem``); the web words it in
the reader's language (web/explain.py). Column lengths are the database's
(``db.models``); the limits here are those lengths.
"""

import unicodedata

from ..db.models import GAME_NAME_LENGTH, NAME_LENGTH
from .errors import SamePerson

# What ``problem`` may answer: too long, or holding a character that no name needs.
LONG = "long"
CONTROL = "control"


def key(name):
    """What makes two typed names one person: Unicode NFKC, trimmed, case-folded ("Ana", "ana ", "Ａｎａ").

    The key finds a person (``PersonName.key``); it is kept in the database, so it never changes meaning.
    """
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    return unicodedata.normalize("NFKC", folded)  # case-folding can undo the normal form


def has_control_characters(text):
    """Whether ``text`` holds a control character (NUL, a tab, a line break...), which no name needs.

    PostgreSQL stores no NUL at all; a line break in a name would break the
    layout of every page. Refused on every database alike.
    """
    return any(unicodedata.category(char) == "Cc" for char in text)


def problem(name, most=NAME_LENGTH):
    """What is wrong with a trimmed name, if anything: ``LONG`` (past ``most`` characters) or ``CONTROL``."""
    if len(name) > most:
        return LONG
    if has_control_characters(name):
        return CONTROL
    return None


def game_name_problem(name):
    """What is wrong with a game's trimmed name, if anything (as ``problem``, up to ``GAME_NAME_LENGTH``)."""
    return problem(name, GAME_NAME_LENGTH)


def repeats(names):
    """The places of names another name before them already is, as ``{place: the earlier place}``
    ("Ana" and "Ａｎａ" are one person); empty names are nobody's repeat."""
    first, found = {}, {}
    for place, name in enumerate(names):
        if name:
            earlier = first.setdefault(key(name), place)
            if earlier != place:
                found[place] = earlier
    return found


def check_one_person_each(names):
    """Refuse a table where two names are one name written two ways ("Ana", "ana ", "Ａｎａ")."""
    refuse_repeats(names, [key(name) for name in names])


def refuse_repeats(names, identities):
    """Raise ``SamePerson`` for the first name whose identity (a name's key, a person) an earlier name has."""
    first = {}
    for place, identity in enumerate(identities):
        if identity is None:  # a player nobody linked yet is nobody's repeat
            continue
        earlier = first.setdefault(identity, place)
        if earlier != place:
            raise SamePerson(names[place], names[earlier])
