"""Every rule about names, in one place: what a player's or a game's name may hold, when two typed names
are one person, when they are too alike to sit at one table or to be two people of the club, and the
refusal of a game in which one person would sit twice.

The rules say what is wrong as a reason (``problem``); the web words it in
the reader's language (words/explain.py). Column lengths are the database's
(``db.models``); the limits here are those lengths.

One function, ``compare``, tells two names apart: ``SAME`` (one person: "Ana", "ana ", "Ａｎａ",
"Nur  Aisyah" and "Nur Aisyah"), ``ALIKE`` (two names no reader can tell apart, written in different
scripts: Cyrillic "Аna" or Greek "ΑΝΑ" beside "Ana") or None (two people, "Arnie" and "Amie" included).
"""

import unicodedata
from functools import cache, lru_cache

from confusable_homoglyphs.categories import alias as script_of
from confusable_homoglyphs.confusables import confusables_data

from ..db.models import GAME_NAME_LENGTH, NAME_LENGTH
from .errors import SamePerson

# What ``problem`` may answer: too long, holding a character that no name needs, or showing nothing.
LONG = "long"
CONTROL = "control"  # a control character (NUL, tab, line break), or a line or paragraph separator
FORMAT = "format"  # an invisible formatting character: zero-width, or turning the text's direction
INVISIBLE = "invisible"  # only marks (accents on nothing), spaces or blank letters: a name that shows nothing

# What ``compare`` may answer.
SAME = "same"  # one person
ALIKE = "alike"  # two names that look one, in different scripts: never two players of a table or the club

# Letters and signs that draw nothing but room (Hangul fillers, the blank Braille pattern): a name of them is blank.
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Of them, those that draw a blank cell as wide as a letter, kept as a space (the others draw nothing).
DRAWING_ROOM = frozenset("\u3164\uffa0\u2800")
# Default-ignorable characters that draw nothing at all: the combining grapheme joiner, Khmer's inherent
# vowels (which Unicode advises never to use), the Hangul fillers of a syllable's jamo, and the variation
# selectors, which only choose how the character before them is drawn (U+FE0F after "❤", a Japanese
# family name's ideographic variant).
DRAWING_NOTHING = frozenset(
    ["\u034f", "\u17b4", "\u17b5", "\u115f", "\u1160"] + [chr(code) for code in range(0xFE00, 0xFE10)]
    + [chr(code) for code in range(0xE0100, 0xE01F0)])


def cleaned(name):
    """A typed name as it is kept: trimmed, each run of spaces and blank cells (U+3164, U+FFA0, U+2800) one
    space, and the characters that draw nothing removed (U+034F, U+115F, U+1160, U+17B4, U+17B5, the
    variation selectors): "Nur  Aisyah" is "Nur Aisyah", "Ana" + U+FE0F or U+3164 is "Ana".

    Removed rather than refused: a reader cannot see them, a phone's emoji keyboard types U+FE0F unasked
    and nobody can delete what they cannot see, and the name without them is the name the typist sees.
    The other invisible characters are refused (``problem``: ``FORMAT``), as they were before: zero-width
    spaces and joiners (U+200B-U+200D), direction marks and overrides (U+200E, U+200F, U+202A-U+202E,
    U+2066-U+2069), the word joiner and invisible operators (U+2060-U+2064) and the tags
    (U+E0000-U+E007F) are Unicode format characters, some of which turn the text around. A name made
    only of characters that show nothing is kept as it is, so that ``problem`` refuses it (``INVISIBLE``).

    Only what is typed now is cleaned (a new game, a join, an import, a rename): names kept in the
    database, or in a backup of it, stay as they were typed, and ``key`` finds them as it always did.
    """
    spaced = "".join(" " if char in DRAWING_ROOM else char for char in name if char not in DRAWING_NOTHING)
    kept = " ".join(spaced.split())
    return kept if kept else name.strip()


def key(name):
    """What makes two typed names one person: Unicode NFKC, trimmed, case-folded ("Ana", "ana ", "Ａｎａ").

    The key finds a person (``PersonName.key``); it is kept in the database, so it never changes meaning:
    a typed name is ``cleaned`` before its key is taken (``identity``), and a name kept before that rule
    (with two spaces, or a variation selector) is still found by the key it was kept under.
    """
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    return unicodedata.normalize("NFKC", folded)  # case-folding can undo the normal form


@lru_cache(maxsize=4096)
def identity(name):
    """The person a typed name is: the ``key`` of the ``cleaned`` name ("Nur  Aisyah" is "nur aisyah")."""
    return key(cleaned(name))


def compare(name, other):
    """Whether two names are one person (``SAME``), too alike to be two people (``ALIKE``), or two (None).

    ``SAME``: their ``identity`` is one. ``ALIKE``: their confusable skeletons (Unicode TR39) are one,
    each taken before case folding as well as after it and in capitals, then folded, so that capitals of
    other scripts are caught too (Greek "ΑΝΑ" and "ΒΟ" beside "Ana" and "BO", Cyrillic "Kіm" beside "Kim", Japanese
    "ー郎" beside "一郎"), and every character by which they differ stands beside a look-alike of another
    script (digits and signs count as a script of their own: "B0B" and "BOB"). Two names that differ in
    letters of one script are two people, however alike the skeleton finds them: "Arnie" and "Amie"
    ("rn" and "m"), "Clara" and "Dara", "Ian" and "Lan", and even Cyrillic "Kіm" and "Kirn"; a reader
    sees the letters.
    """
    if identity(name) == identity(other):
        return SAME
    mine, theirs = _looks(name), _looks(other)
    for form, looks in mine.items():
        for other_form, other_looks in theirs.items():
            if "".join(looks) == "".join(other_looks) and _only_across_scripts(form, looks, other_form, other_looks):
                return ALIKE
    return None


def too_alike(name, other):
    """Whether two names cannot be two players of one table, nor two people of the club (``compare``)."""
    return compare(name, other) is not None


@lru_cache(maxsize=4096)
def _looks(name):
    """What ``name`` looks like, character by character (NFD), as typed, case-folded and in capitals (as
    one person may be written: "ΑΝΑ" is "ανα"): each form of its NFKC text, with the folded skeleton of
    each of its characters."""
    text = unicodedata.normalize("NFKC", cleaned(name))
    forms = {}
    for form in (text, text.casefold(), text.upper()):
        form = unicodedata.normalize("NFD", form)
        forms[form] = tuple(unicodedata.normalize("NFD", skeleton(char).casefold()) for char in form)
    return forms


def _skeletons(name):
    """The folded skeletons of ``name``'s forms (``_looks``): two names too alike share one."""
    return {"".join(looks) for looks in _looks(name).values()}


def _only_across_scripts(form, looks, other_form, other_looks):
    """Whether two texts whose skeletons are one differ only where a character of one script stands for
    one of another: their characters are paired up by the pieces of skeleton they make, and a pair that
    differs within one script ("rn" and "m", "I" and "l") is a difference a reader sees."""
    differs, mine, theirs, length, other_length, place, other_place = False, [], [], 0, 0, 0, 0
    while place < len(form) or other_place < len(other_form):
        if other_place >= len(other_form) or (place < len(form) and length <= other_length):
            mine.append(form[place])
            length += len(looks[place])
            place += 1
        else:
            theirs.append(other_form[other_place])
            other_length += len(other_looks[other_place])
            other_place += 1
        if length == other_length:
            piece, other_piece = "".join(mine), "".join(theirs)
            if piece and other_piece and piece.casefold() != other_piece.casefold():
                scripts = {script_of(char) for char in piece + other_piece if not char.isspace()} - {"INHERITED"}
                if len(scripts) <= 1:
                    return False
                differs = True
            mine, theirs = [], []
    return differs


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
    """The places of names too alike a name before them (``compare``), as ``{place: the earlier place}``
    ("Ana", "Ａｎａ" and Cyrillic "Аna" are one person at a table); empty names are nobody's repeat.

    In one pass: a name is compared only with the earlier names that share its identity or a skeleton,
    so that a game of thousands of joiners is read at once.
    """
    by_identity, by_look, found = {}, {}, {}
    for place, name in enumerate(names):
        if not name:
            continue
        earlier = by_identity.get(identity(name))
        if earlier is None:
            candidates = sorted({seen for look in _skeletons(name) for seen in by_look.get(look, ())})
            earlier = next((seen for seen in candidates if too_alike(names[seen], name)), None)
        if earlier is not None:
            found[place] = earlier
            continue
        by_identity[identity(name)] = place
        for look in _skeletons(name):
            by_look.setdefault(look, []).append(place)
    return found


def seated_already(name, names):
    """The first of ``names`` too alike ``name`` to sit beside it (``compare``), as it is written, or None."""
    return next((seated for seated in names if seated and too_alike(name, seated)), None)


def check_one_person_each(names):
    """Refuse a table where two names are one person or too alike ("Ana", "ana ", "Ａｎａ", "Аna"): a
    ``SamePerson`` naming the later name and the earlier one, as each is written."""
    found = repeats(names)
    if found:
        place, earlier = next(iter(found.items()))
        raise SamePerson(names[place], names[earlier])


def refuse_repeats(names, identities):
    """Raise ``SamePerson`` for the first name whose identity (a name's key, a person) an earlier name has."""
    first = {}
    for place, identity in enumerate(identities):
        if identity is None:  # a player nobody linked yet is nobody's repeat
            continue
        earlier = first.setdefault(identity, place)
        if earlier != place:
            raise SamePerson(names[place], names[earlier])
