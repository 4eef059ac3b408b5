"""Every rule about names (scorekeeper/service/names.py): what a name may hold, and which names are one
person or too alike to be two, whatever the path (a form, an import, a restore, a joiner, a rename)."""

import io
import json

import pytest
from sqlalchemy import insert, select

from scorekeeper.db.models import Person, PersonName, Player, db
from scorekeeper.service import SamePerson, names

from .tabletop import SIX, create_game, game_document, hidden_fields, make_secretary, record_hand, text_of

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


SAME, ALIKE, TWO = names.SAME, names.ALIKE, None

# Every name pair of issue 34's table, each checked both ways: one person, too alike to be two, or two people.
PAIRS = [
    # Latin, with the letters of the catalogs' languages (pt, es, ms, nb)
    ("Ana", "ana", SAME),
    ("Ana", "ANA ", SAME),
    ("Ana", "Ａｎａ", SAME),  # fullwidth
    ("João", "JOÃO", SAME),
    ("João", "Joa\u0303o", SAME),  # ã as a + combining tilde
    ("Conceição", "CONCEIÇÃO", SAME),
    ("Simões", "SIMÕES", SAME),
    ("Íñigo", "íñigo", SAME),
    ("Müller", "MÜLLER", SAME),
    ("Øyvind", "øyvind", SAME),
    ("Åse Bø", "åse bø", SAME),
    ("Nur Aisyah", "Nur  Aisyah", SAME),  # two spaces show as one in a page
    ("Nur Aisyah", "Nur\u00a0Aisyah", SAME),  # NO-BREAK SPACE
    ("Ana", "Ana\u3164", SAME),  # HANGUL FILLER
    ("Ana", "Ana\u034f", SAME),  # COMBINING GRAPHEME JOINER
    ("Ana", "Ana\ufe0f", SAME),  # VARIATION SELECTOR-16
    ("Ana", "Ana\U000e0100", SAME),  # VARIATION SELECTOR-17
    ("Ana", "Ana\u2800", SAME),  # BRAILLE PATTERN BLANK
    ("Ana", "Ana\u115f", SAME),  # HANGUL CHOSEONG FILLER
    ("Ana", "A\u1160na", SAME),  # HANGUL JUNGSEONG FILLER
    ("Ana", "Ana\uffa0", SAME),  # HALFWIDTH HANGUL FILLER
    ("Ana", "Ana\u17b4", SAME),  # KHMER VOWEL INHERENT AQ
    ("Ana", "An\u17b5a", SAME),  # KHMER VOWEL INHERENT AA
    ("Ana", f"{CYRILLIC_A}na", ALIKE),  # Cyrillic capital А
    ("ana", "\u0430na", ALIKE),  # Cyrillic small а
    ("José", "\u0408\u043esé", ALIKE),  # Cyrillic Ј and о
    ("Rosário", "R\u043esário", ALIKE),
    ("Siti", "\u0405\u0456t\u0456", ALIKE),  # Cyrillic Ѕ and і
    ("Nuno", "\u039duno", ALIKE),  # Greek capital Ν
    ("B0B", "BOB", ALIKE),  # a digit for a letter
    ("Eli", "E\u217c\u0456", ALIKE),  # SMALL ROMAN NUMERAL FIFTY and Cyrillic і
    ("Kim Lee", "Kim L\u0435\u0435", ALIKE),
    ("Arnie", "Amie", TWO),  # "rn" and "m": one script, letters a reader sees
    ("Sam", "Sarn", TWO),
    ("Clara", "Dara", TWO),
    ("Wilma", "Vvilma", TWO),
    ("Ian", "Lan", TWO),  # capital I and l are of one script
    ("José", "Jose", TWO),  # an accent is a letter of its own
    ("João", "Joao", TWO),
    ("Conceição", "Conceicao", TWO),
    ("Peña", "Pena", TWO),
    ("Óscar", "Oscar", TWO),
    ("Antónia", "Antonia", TWO),
    ("Raúl", "Raul", TWO),
    ("Zoë", "Zoe", TWO),
    ("Müller", "Muller", TWO),
    ("Søren", "Soren", TWO),
    ("Åse", "Ase", TWO),
    ("Mæhle", "Maehle", TWO),
    ("Ana", "Anna", TWO),
    ("Paypal", "\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113", TWO),  # ỿ is a Latin letter of its own
    # Greek
    ("Σοφία", "ΣΟΦΊΑ", SAME),
    ("ΑΝΑ", "Ana", ALIKE),  # Greek capitals: the skeleton is taken before case folding
    ("ΑΝΑ", "ana", ALIKE),
    ("ΒΟ", "BO", ALIKE),
    ("ΤΙΜ", "TIM", ALIKE),
    ("ανα", "Ana", ALIKE),  # small Greek letters look otherwise, but "ανα" is also written "ΑΝΑ"
    ("ανα", "ava", ALIKE),  # small ν is drawn as v
    ("Ελένη", "Ελένα", TWO),
    # Cyrillic
    ("Иван", "ИВАН", SAME),
    ("K\u0456m", "Kim", ALIKE),  # Cyrillic і
    ("K\u0406M", "Kim", ALIKE),  # Cyrillic capital І, case-folded
    ("\u0421\u0430\u0440\u0430", "Capa", ALIKE),  # Cyrillic "Сара", Latin "Capa"
    ("K\u0456m", "Kirn", TWO),  # "m" and "rn" a reader sees, whatever the і
    ("Иван", "Иванна", TWO),
    # CJK
    ("山田", "⼭田", SAME),  # KANGXI RADICAL MOUNTAIN
    ("サクラ", "ｻｸﾗ", SAME),  # halfwidth katakana
    ("一郎", "ー郎", ALIKE),  # ideograph one, katakana prolonged sound mark
    ("へいじ", "ヘいじ", ALIKE),  # hiragana he, katakana he
    ("力", "カ", ALIKE),  # ideograph power, katakana ka
    ("口田", "ロ田", ALIKE),
    ("山田", "山本", TWO),
    ("さくら", "サクラ", TWO),
    # Hangul
    ("한서윤", "\u1112\u1161\u11ab\u1109\u1165\u110b\u1172\u11ab", SAME),  # syllables and conjoining jamo
    ("김민준", "김민준\u3164", SAME),
    ("김ㅡ", "김一", ALIKE),  # Hangul jamo eu, ideograph one
    ("김민준", "김민지", TWO),
    ("서윤", "서연", TWO),
]


@pytest.mark.parametrize(("name", "other", "likeness"), PAIRS)
def test_every_name_pair_of_the_table_is_one_person_too_alike_or_two_either_way(name, other, likeness):
    assert names.compare(name, other) == likeness
    assert names.compare(other, name) == likeness
    assert names.too_alike(name, other) is names.too_alike(other, name) is (likeness is not None)


@pytest.mark.parametrize(("name", "other", "likeness"), PAIRS)
def test_a_table_refuses_the_later_of_two_names_too_alike_naming_the_earlier_as_written(name, other, likeness):
    for first, second in ((name, other), (other, name)):
        table = [first, "Xu", second]

        assert names.repeats(table) == ({} if likeness is None else {2: 0})
        assert names.seated_already(second, table[:2]) == (None if likeness is None else first)
        if likeness is None:
            names.check_one_person_each(table)
        else:
            with pytest.raises(SamePerson) as refused:
                names.check_one_person_each(table)
            assert (refused.value.name, refused.value.other) == (second, first)


def test_the_table_covers_every_script_the_catalogs_use_and_each_kind_of_pair():
    kinds = {likeness for _name, _other, likeness in PAIRS}
    text = "".join(name + other for name, other, _likeness in PAIRS)

    assert len(PAIRS) >= 40 and kinds == {SAME, ALIKE, TWO}
    assert all(letter in text for letter in "çãõáéíóúñüæøå")
    assert any("\u0370" <= char <= "\u03ff" for char in text) and any("\u0400" <= char <= "\u04ff" for char in text)
    assert any("\u4e00" <= char <= "\u9fff" for char in text) and any("\uac00" <= char <= "\ud7a3" for char in text)


@pytest.mark.parametrize(("typed", "kept"), [
    ("Nur  Aisyah", "Nur Aisyah"),
    (" Nur \u3000 Aisyah ", "Nur Aisyah"),  # IDEOGRAPHIC SPACE
    ("Ana\u3164", "Ana"),
    ("Ana\u3164Bo", "Ana Bo"),  # a filler draws room: a space
    ("An\u034fa\ufe0f", "Ana"),
    ("\u2764\ufe0f Ana", "\u2764 Ana"),  # the emoji keyboard's selector
    ("葛\U000e0100城", "葛城"),  # an ideographic variation sequence
    ("Ana\u200b", "Ana\u200b"),  # a format character is refused (FORMAT), not removed
    ("\u3164", "\u3164"),  # a name of fillers only is kept for problem to refuse
    ("Ａｎａ", "Ａｎａ"),  # shown as typed; one person with "Ana" by its key
])
def test_a_typed_name_is_kept_cleaned_of_what_draws_nothing(typed, kept):
    assert names.cleaned(typed) == kept
    assert names.cleaned(kept) == kept


@pytest.mark.parametrize(("name", "reason"), [
    ("\u3164\u3164", names.INVISIBLE),
    ("\u115f\u1160", names.INVISIBLE),
    ("\uffa0", names.INVISIBLE),
    ("\u034f", names.INVISIBLE),
    ("\ufe0f\U000e0100", names.INVISIBLE),
    ("\u17b4\u17b5", names.INVISIBLE),
    ("\u2800 \u3164", names.INVISIBLE),
    ("\u200b", names.FORMAT),
    ("Ana\u2060", names.FORMAT),  # WORD JOINER
    ("Ana\u2064", names.FORMAT),  # INVISIBLE PLUS
    ("Ana\U000e0041", names.FORMAT),  # TAG LATIN CAPITAL LETTER A
    ("Ana\u3164", None),  # kept as "Ana"
    ("Ana\ufe0f", None),
])
def test_a_name_only_of_characters_that_draw_nothing_is_refused_as_showing_nothing(name, reason):
    assert names.problem(name) == reason


def test_a_person_is_still_found_by_their_key_alone_which_keeps_its_meaning():
    assert names.key(" Ａｎａ ") == names.key("ANA") == "ana"
    assert names.key(f"{CYRILLIC_A}na") != names.key("Ana")  # the stored key is not the skeleton
    assert names.key("Nur  Aisyah") == "nur  aisyah"  # as kept before names were cleaned
    assert names.identity("Nur  Aisyah") == names.key("Nur Aisyah") == "nur aisyah"


def test_the_skeleton_follows_tr39_nfd_prototypes_nfd_and_covers_greek_and_cyrillic_capitals():
    assert names.skeleton("\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113") == "paypal"
    assert names.skeleton("m") == "rn"
    assert names.skeleton("é") == "e\u0301"
    assert names.skeleton("ΑΝΑ") == names.skeleton("ANA") == "ANA"
    assert names.skeleton("\u0412\u041e") == names.skeleton("ΒΟ") == "BO"


def test_a_roster_of_thousands_is_compared_in_one_pass():
    roster = [f"Player {number}" for number in range(3000)] + ["\u0420layer 7"]  # Cyrillic Р

    assert names.repeats(roster) == {3000: 7}


# --- Through the pages -------------------------------------------------------------------------


def new_game(client, players):
    return client.post("/games/new", data={**hidden_fields(client, "/games/new"),
                                           "name": "", "target": "150", "first_dealer": "0",
                                           **{f"players-{seat}": name for seat, name in enumerate(players)}})


def shown_people(app):
    with app.app_context():
        return db.session.execute(select(Person.name).where(Person.merged_into_id.is_(None))
                                  .order_by(Person.id)).scalars().all()


def test_a_new_game_refuses_a_look_alike_naming_the_seat_that_holds_it_as_written(app, client):
    response = new_game(client, ["Kim", "Bo", "K\u0456m", "Dee", "Eli", "Fay"])

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Kim is already at the table (seat 1)" in text_of(response)
    assert 'value="K\u0456m"' in page and 'id="seat-2-error"' in page
    assert shown_people(app) == []


def test_a_new_game_seats_arnie_and_amie_and_keeps_names_cleaned(app, client):
    game_id = create_game(client, ["Arnie", "Amie", "Nur  Aisyah", "Ana\ufe0f", "Eli", "Fay"])

    with app.app_context():
        seated = db.session.execute(select(Player.name).where(Player.game_id == game_id)
                                    .order_by(Player.seat)).scalars().all()
    assert seated == ["Arnie", "Amie", "Nur Aisyah", "Ana", "Eli", "Fay"]
    create_game(client, ["Nur Aisyah", "ana", "Bo", "Caio", "Dee", "Gil"])
    assert shown_people(app).count("Nur Aisyah") == 1 and shown_people(app).count("Ana") == 1


@pytest.mark.parametrize("look_alike", ["K\u0456m", "\u039a\u0399\u039c"])  # Cyrillic і; Greek capitals
def test_a_new_game_refuses_a_look_alike_of_a_person_of_the_club_at_another_table(app, client, look_alike):
    create_game(client, ["Kim", *SIX[1:]])

    response = new_game(client, [look_alike, "Zoe", "Yan", "Xu", "Wes", "Val"])

    assert response.status_code == 400
    assert f"{look_alike} and Kim are one person" in text_of(response)
    assert 'id="seat-0-error"' in response.get_data(as_text=True)
    assert len(shown_people(app)) == 6


def test_a_person_kept_under_a_name_now_cleaned_still_shows_and_is_found_by_it_cleaned(app, client):
    with app.app_context():
        person = db.session.execute(insert(Person).values(name="Nur  Aisyah").returning(Person.id)).scalar_one()
        db.session.execute(insert(PersonName).values(key="nur  aisyah", person_id=person))
        db.session.commit()

    create_game(client, ["Nur  Aisyah", *SIX[1:]])

    assert shown_people(app)[0] == "Nur  Aisyah" and len(shown_people(app)) == 6
    assert client.get(f"/players/{person}").status_code == 200
    with app.app_context():
        assert db.session.execute(select(Player.person_id).where(Player.name == "Nur Aisyah")).scalar() == person


def join(client, game_id, name):
    seating = f"/games/{game_id}/seating"
    return client.post(seating, data={**hidden_fields(client, seating), "name": name, "at": "0",
                                      "start_rule": "zero"})


def test_a_joiner_too_alike_a_player_is_refused_naming_the_player_and_amie_joins_arnie(app, client):
    game_id = create_game(client, ["Arnie", "Kim", *SIX[2:]])
    record_hand(client, game_id, [(5, 0), (5, 0), (4, 1), (4, 0), (4, 1), (4, 0)])

    refused = join(client, game_id, "K\u0406M")
    joined = join(client, game_id, "Amie")

    assert refused.status_code == 400
    assert "Kim already plays or played in this game" in text_of(refused)
    assert 'value="K\u0406M"' in refused.get_data(as_text=True)
    assert joined.status_code == 302
    assert "Amie" in shown_people(app)


def rename(client, person, name):
    return client.post(f"/players/{person}/rename", data={**hidden_fields(client, f"/players/{person}"),
                                                         "name": name})


def test_a_rename_too_alike_someone_elses_name_is_refused_naming_them(app, client):
    make_secretary(app, client)
    create_game(client, ["Jon", "Kim", "Arnie", *SIX[3:]])
    with app.app_context():
        jon = db.session.execute(select(Person.id).where(Person.name == "Jon")).scalar_one()

    refused = rename(client, jon, "K\u0456m")
    spaced = rename(client, jon, "Nur  Aisyah")
    amie = rename(client, jon, "Amie")

    page = refused.get_data(as_text=True)
    assert refused.status_code == 400
    assert "Kim is already someone else's name" in text_of(refused)
    assert 'value="K\u0456m"' in page and 'id="rename-name-error"' in page
    assert spaced.status_code == amie.status_code == 302
    assert shown_people(app).count("Kim") == 1 and "Amie" in shown_people(app)


def test_an_import_refuses_a_look_alike_at_its_table_and_of_the_club(app, client):
    create_game(client, ["BO", "Ana", *SIX[2:]])
    at_table = game_document("Greek", ["Ana", "\u0392\u039f", "BO", "Dee", "Eli", "Fay"], 0, 150, [])
    of_club = game_document("Greek", ["Ana", "\u0392\u039f", "Caio", "Dee", "Eli", "Fay"], 0, 150, [])

    responses = [client.post("/games/import", content_type="multipart/form-data", data={
        "csrf_token": hidden_fields(client, "/games/import")["csrf_token"],
        "document": (io.BytesIO(json.dumps(document).encode()), "game.json")}) for document in (at_table, of_club)]

    assert [response.status_code for response in responses] == [400, 400]
    assert "ΒΟ is already at the table (seat 2)" in text_of(responses[0])
    assert "ΒΟ and BO are one person" in text_of(responses[1])
    assert len(shown_people(app)) == 6


def test_a_season_csv_refuses_a_column_too_alike_an_earlier_one_beside_arnie_and_amie(client):
    header = "game,date,target,hand,Arnie,Amie,Kim,Dee,Eli,K\u0456m,Gus"
    season = f"{header}\r\nWeek 1,2026-09-04,100,1,5,4M,4,4,3M,6,\r\n"

    response = client.post("/games/import", content_type="multipart/form-data", data={
        "csrf_token": hidden_fields(client, "/games/import")["csrf_token"],
        "document": (io.BytesIO(season.encode()), "season.csv")})

    assert response.status_code == 400
    assert "“K\u0456m” and “Kim” are one player's name written twice" in text_of(response)
