"""Every rule about names (scorekeeper/service/names.py): what a name may hold, and which names at one
table are one person, whatever the path (a form, an import, a restore, a joiner, a rename)."""

import pytest

from scorekeeper.service import SamePerson, names

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: turns the text after it around
CYRILLIC_A = "\u0410"  # А, drawn as Latin A


@pytest.mark.parametrize(("name", "reason"), [
    ("Ana", None),
    ("José", None),
    ("Nur Aisyah", None),
    ("🂡 Ace", None),
    ("Ōta", None),
    ("Søren", None),
    ("x" * 41, names.LONG),
    ("Ca\x00io", names.CONTROL),
    ("Ca\tio", names.CONTROL),
    ("Ana\u2028Bo", names.CONTROL),  # LINE SEPARATOR split one name in two in "Seat this table again"
    ("Ana\u2029Bo", names.CONTROL),  # PARAGRAPH SEPARATOR
    ("Ana\u200b", names.FORMAT),  # ZERO WIDTH SPACE: "Ana" twice
    ("An\u200da", names.FORMAT),  # ZERO WIDTH JOINER
    ("\u200eAna", names.FORMAT),  # LEFT-TO-RIGHT MARK
    ("Ana\u200f", names.FORMAT),  # RIGHT-TO-LEFT MARK
    (f"{RLO}anA", names.FORMAT),
    ("\u2066Ana\u2069", names.FORMAT),  # LEFT-TO-RIGHT ISOLATE ... POP DIRECTIONAL ISOLATE
    ("\u00adAna", names.FORMAT),  # SOFT HYPHEN
    ("\u200e\u200f\u200e", names.FORMAT),  # a name of bidi marks only
    ("\u0301\u0308", names.INVISIBLE),  # combining marks on nothing
    ("\u3164", names.INVISIBLE),  # HANGUL FILLER
    ("\u2800\u2800", names.INVISIBLE),  # BRAILLE PATTERN BLANK
    ("\u0301 \u0301", names.INVISIBLE),
    ("", None),  # no name given: the form asks for one, a game takes the date
])
def test_what_a_name_may_hold(name, reason):
    assert names.problem(name) == reason


@pytest.mark.parametrize(("name", "reason"), [
    ("Sexta-feira", None),
    ("x" * 81, names.LONG),
    (f"Friday {RLO}thgin", names.FORMAT),
    ("Friday\u2028night", names.CONTROL),
    ("\u200b", names.FORMAT),
    ("\u0301", names.INVISIBLE),
])
def test_what_a_games_name_may_hold(name, reason):
    assert names.game_name_problem(name) == reason


@pytest.mark.parametrize(("name", "other"), [
    ("Ana", "ana"),
    ("Ana", "ANA "),
    ("Ana", "Ａｎａ"),
    ("Ana", f"{CYRILLIC_A}na"),  # Cyrillic capital А
    ("ana", "\u0430na"),  # Cyrillic small а
    ("Sam", "Sarn"),  # m and rn (TR39)
    ("Eli", "E\u217cі"),  # SMALL ROMAN NUMERAL FIFTY and Cyrillic і
    ("Paypal", "\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113"),
])
def test_names_whose_confusable_skeletons_are_one_are_one_person_at_a_table(name, other):
    assert names.table_key(name) == names.table_key(other)
    assert names.repeats([name, "Bo", other]) == {2: 0}
    with pytest.raises(SamePerson):
        names.check_one_person_each([name, "Bo", other])


@pytest.mark.parametrize(("name", "other"), [
    ("José", "Jose"),  # an accent is a letter of its own
    ("Zoë", "Zoe"),
    ("Ian", "Lan"),  # case-folded first: capital I looks like l, but "Lan" is not "lan" to the eye
    ("Ana", "Anna"),
    ("Søren", "Soren"),
])
def test_names_that_look_different_are_different_people(name, other):
    assert names.table_key(name) != names.table_key(other)
    assert names.repeats([name, other]) == {}
    names.check_one_person_each([name, other])


def test_a_person_is_still_found_by_their_key_alone_which_keeps_its_meaning():
    assert names.key(" Ａｎａ ") == names.key("ANA") == "ana"
    assert names.key(f"{CYRILLIC_A}na") != names.key("Ana")  # the stored key is not the skeleton


def test_seated_already_names_the_earlier_spelling_of_one_person():
    assert names.seated_already(f"{CYRILLIC_A}na", ["Bo", "", "Ana"]) == "Ana"
    assert names.seated_already("Anna", ["Bo", "Ana"]) is None


def test_the_skeleton_follows_tr39_nfd_prototypes_nfd():
    assert names.skeleton("\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113") == "paypal"
    assert names.skeleton("m") == "rn"
    assert names.skeleton("é") == "e\u0301"
