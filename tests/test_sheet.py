"""The printable score sheet and the spreadsheet (CSV) of a game, for anyone who can see it (issue 15)."""

import csv
import io
import re
from datetime import date
from html.parser import HTMLParser
from urllib.parse import quote

import pytest

from scorekeeper.db.models import Game, db
from scorekeeper.web.spreadsheets import csv_text, inert

from .tabletop import SIX, create_game, record_hand, text_of
from .test_house_rules_and_seats import SPREAD, join, leave

OTHER = [(0, 0), (6, 1), (10, 0), (0, 1), (5, 0), (5, 0)]  # 0, 19, 10, 13, 5, 5 points (R14)
MOON = [(0, 0), (26, 2), (0, 0), (0, 0), (0, 0), (0, 0)]
HOSTILE = ["=1+1", "Smith, Jo", 'Jo "Ace"', "+44", "@SUM(A1)", "-Bo"]


def game_with_hands(client, names=SIX, hands=(SPREAD, OTHER, SPREAD), target=150, first_dealer=0):
    game_id = create_game(client, names, first_dealer=first_dealer, target=target)
    for taken in hands:
        record_hand(client, game_id, taken)
    return game_id


def scoreboard(app, game_id):
    with app.app_context():
        return db.session.get(Game, game_id).scoreboard()


def spreadsheet(client, game_id, separator=",", query="", **headers):
    """The game's CSV as rows of cells, read the way a spreadsheet reads it, and the raw response."""
    response = client.get(f"/games/{game_id}/sheet.csv{query}", headers=headers)
    text = response.get_data().decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator)), response


def table_of(rows):
    """The CSV's table of points: the rows after the game's name, date, target and the empty row."""
    assert [row[0] for row in rows[:3]] == ["Game", "Date", "Target"] and rows[3] == []
    return rows[4:]


class SheetCells(HTMLParser):
    """The score sheet's table: for each body row, its cells as (class, text)."""

    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.in_body = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.rows.append([])
        elif tag == "td" and self.in_body:
            self.cell = [dict(attrs).get("class", ""), []]

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append((self.cell[0], " ".join(" ".join(self.cell[1]).split())))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1].append(data)


def sheet_cells(client, game_id):
    parser = SheetCells()
    parser.feed(client.get(f"/games/{game_id}/sheet").get_data(as_text=True))
    return parser.rows


# --- The spreadsheet -------------------------------------------------------------------


def test_the_spreadsheet_has_the_names_then_each_hands_points_then_the_totals(app, client):
    game_id = game_with_hands(client)
    board = scoreboard(app, game_id)

    rows = table_of(spreadsheet(client, game_id)[0])

    assert rows[0] == ["Hand", *SIX]
    assert rows[1:-1] == [[str(hand.number), *map(str, hand.points)] for hand in board.hands]
    assert rows[1] == ["1", "5", "18", "4", "17", "4", "4"]
    assert rows[-1] == ["Total", *map(str, board.totals)]
    assert len(rows) == 1 + 3 + 1


def test_the_spreadsheet_starts_with_the_games_name_its_date_and_its_target(app, client):
    game_id = create_game(client, name="Sexta na Ana", target=120)
    with app.app_context():
        played = db.session.get(Game, game_id).created_at.date().isoformat()

    rows, _response = spreadsheet(client, game_id)

    assert rows[:4] == [["Game", "Sexta na Ana"], ["Date", played], ["Target", "120"], []]


def test_the_spreadsheet_carries_the_date_the_club_gave_the_game(app, client):
    game_id = create_game(client)
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.played_on = date(2025, 3, 7)  # as the club's "date" change does
        db.session.commit()

    rows, _response = spreadsheet(client, game_id)

    assert rows[1] == ["Date", "2025-03-07"]


def test_the_spreadsheet_is_utf8_with_a_byte_order_mark_crlf_lines_and_a_file_name(client):
    game_id = game_with_hands(client, names=["João", "Kåre", "Zoë", "Øyvind", "Lía", "Nur Aisyah"], hands=[SPREAD])

    response = client.get(f"/games/{game_id}/sheet.csv")

    body = response.get_data()
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == f'attachment; filename="cancellation-hearts-game-{game_id}.csv"'
    assert body.startswith(b"\xef\xbb\xbfGame,Friday\r\nDate,")
    assert b"\r\n\r\nHand,Jo\xc3\xa3o,K\xc3\xa5re," in body
    assert body.endswith(b"\r\n") and body.count(b"\r\n") == 7 and b"\n" not in body.replace(b"\r\n", b"")


def test_numbers_are_unformatted_and_a_moon_subtracted_is_a_plain_negative(client):
    game_id = game_with_hands(client, hands=[], target=10_000)
    record_hand(client, game_id, MOON, moon="subtract")
    for _hand in range(40):
        record_hand(client, game_id, [(0, 0), (0, 0), (13, 1), (13, 1), (0, 0), (0, 0)])

    rows = table_of(spreadsheet(client, game_id, **{"Accept-Language": "nb"})[0])

    assert rows[1] == ["1", "0", "-26", "0", "0", "0", "0"]
    assert rows[-1][1:] == ["0", "-26", "1040", "1040", "0", "0"]  # no grouping ("1 040") in any language


def test_the_spreadsheets_bytes_are_the_same_whatever_the_pages_language(client):
    game_id = game_with_hands(client, hands=[SPREAD])
    record_hand(client, game_id, MOON, moon="add")
    english = client.get(f"/games/{game_id}/sheet.csv").get_data()

    answers = {}
    for language in ["pt", "es", "ms", "nb", "no-NO"]:
        answers[f"Accept-Language {language}"] = client.get(
            f"/games/{game_id}/sheet.csv", headers={"Accept-Language": f"{language},en;q=0.5"}).get_data()
    for language in ["pt", "es", "ms", "nb"]:
        client.get(f"/language/{language}")  # the switcher's cookie
        answers[f"switcher {language}"] = client.get(
            f"/games/{game_id}/sheet.csv", headers={"Accept-Language": "en"}).get_data()

    assert english.startswith("\ufeffGame,Friday\r\n".encode())
    assert "\r\nHand,Ana,Bo,Caio,Dee,Eli,Fay\r\n1,5,18,4,17,4,4\r\n".encode() in english
    assert english.endswith(b"\r\nTotal,31,18,30,43,30,30\r\n")
    assert {reader: body for reader, body in answers.items() if body != english} == {}


@pytest.mark.parametrize("sep, separator", [
    ("comma", ","), ("semicolon", ";"), ("tab", "\t"), (",", ","), (";", ";"), ("\t", "\t"),
])
def test_the_sep_parameter_chooses_the_separator_and_nothing_else(client, sep, separator):
    game_id = game_with_hands(client, hands=[SPREAD])

    rows, response = spreadsheet(client, game_id, separator, query=f"?sep={quote(sep)}",
                                 **{"Accept-Language": "pt"})

    lines = response.get_data().decode("utf-8-sig").split("\r\n")
    assert lines[4] == separator.join(["Hand", *SIX])
    assert lines[5] == separator.join(["1", "5", "18", "4", "17", "4", "4"])
    assert table_of(rows)[-1] == ["Total", "5", "18", "4", "17", "4", "4"]


@pytest.mark.parametrize("sep", ["pipe", "|", "", ";;", "semicolons"])
def test_an_unknown_separator_is_refused_saying_which_there_are(client, sep):
    game_id = game_with_hands(client, hands=[SPREAD])

    response = client.get(f"/games/{game_id}/sheet.csv?sep={quote(sep)}")

    assert response.status_code == 400
    assert response.get_data(as_text=True) == "The separator (sep) is comma, semicolon or tab."


def test_the_sheet_offers_the_spreadsheet_with_commas_and_with_semicolons(client):
    game_id = game_with_hands(client, hands=[SPREAD])

    page = client.get(f"/games/{game_id}/sheet", headers={"Accept-Language": "pt"}).get_data(as_text=True)

    assert f'href="/games/{game_id}/sheet.csv" download' in page
    assert f'href="/games/{game_id}/sheet.csv?sep=semicolon" download' in page


def test_a_player_who_joined_and_one_who_left_have_empty_cells_for_the_hands_they_missed(app, client):
    game_id = game_with_hands(client, hands=[SPREAD])
    join(client, game_id, "Zé", at=2)  # before Caio, at the highest total: 18
    leave(client, game_id, 1)  # Bo
    record_hand(client, game_id, OTHER)  # Ana, Zé, Caio, Dee, Eli, Fay
    board = scoreboard(app, game_id)

    rows = table_of(spreadsheet(client, game_id)[0])

    assert rows == [
        ["Hand", *SIX, "Zé"],
        ["Start", "0", "0", "0", "0", "0", "0", "18"],  # so that every column adds up to its total
        ["1", "5", "18", "4", "17", "4", "4", ""],
        ["2", "0", "", "10", "13", "5", "5", "19"],
        ["Total", "5", "18", "14", "30", "9", "9", "37"],
    ]
    assert rows[-1][1:] == list(map(str, board.totals))
    assert [sum(int(row[column] or 0) for row in rows[1:-1]) for column in range(1, 8)] == list(board.totals)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_names_are_quoted_and_never_read_as_formulas(client, language):
    header = 'Hand,\'=1+1,"Smith, Jo","Jo ""Ace""",\'+44,\'@SUM(A1),\'-Bo\r\n'
    game_id = create_game(client, HOSTILE, name="=HYPERLINK(1)")
    record_hand(client, game_id, MOON, moon="add")

    response = client.get(f"/games/{game_id}/sheet.csv", headers={"Accept-Language": language})
    rows, _response = spreadsheet(client, game_id, **{"Accept-Language": language})

    assert response.get_data().startswith("\ufeffGame,'=HYPERLINK(1)\r\n".encode())
    assert f"\r\n\r\n{header}".encode() in response.get_data()
    assert table_of(rows)[0][1:] == ["'=1+1", "Smith, Jo", 'Jo "Ace"', "'+44", "'@SUM(A1)", "'-Bo"]
    assert table_of(rows)[1] == ["1", "26", "0", "26", "26", "26", "26"]


@pytest.mark.parametrize("cell, written", [
    ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"),
    ("\tX", "'\tX"), ("\rX", "'\rX"), ("Ana", "Ana"), ("", ""), (None, ""), (-26, -26), (0, 0),
])
def test_only_text_that_a_spreadsheet_would_run_is_kept_as_text(cell, written):
    assert inert(cell) == written


def test_a_cell_with_a_line_break_or_the_separator_is_quoted_whole():
    text = csv_text([["Hand", "two\nlines", "a;b", "a,b"], [1, None, -3, 4]], ";")

    assert text == '\ufeffHand;"two\nlines";"a;b";a,b\r\n1;;-3;4\r\n'


# --- The printable score sheet ----------------------------------------------------------------


def test_the_sheet_shows_the_names_each_hands_points_and_running_totals_and_the_dealers(app, client):
    game_id = game_with_hands(client, first_dealer=4)
    board = scoreboard(app, game_id)

    cells = sheet_cells(client, game_id)
    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert "Hand Ana Bo Caio Dee Eli Fay" in page
    assert [[text for _class, text in row] for row in cells] == [
        [f"{'● dealt this hand ' if player == hand.dealer else ''}{points} {total}"
         for player, (points, total) in enumerate(zip(hand.points, hand.totals))]
        for hand in board.hands
    ]
    assert cells[1][1] == ("", "19 37")  # Bo: 19 points in hand 2, 37 so far
    assert [[cell_class for cell_class, _text in row] for row in cells] == [
        ["dealt" if player == dealer else "" for player in range(6)] for dealer in (4, 5, 0)]
    assert "Total 10 55 18 47 13 13" in page
    assert "Game in progress after hand 3: nobody at the table has reached 150 yet." in page
    assert "● marks who dealt the hand" in page
    assert "Target 150; lowest wins (R16)." in page


def test_the_sheet_of_a_finished_game_names_the_winner(client):
    game_id = game_with_hands(client, hands=[SPREAD, OTHER], target=30)

    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert "Game over after hand 2: Ana wins with 5 points." in page
    assert "Total 5 37 14 30 9 9" in page


def test_the_sheet_of_a_shared_win_names_everyone_who_shares_it(client):
    game_id = game_with_hands(client, hands=[SPREAD], target=15)

    cells = client.get(f"/games/{game_id}/sheet").get_data(as_text=True)
    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert "Game over after hand 1: Caio, Eli, and Fay share the win with 4 points each." in page
    assert cells.count('<td class="winner">4</td>') == 3


def test_the_sheet_shows_who_joined_and_who_left_and_a_dash_for_the_hands_they_missed(client):
    game_id = game_with_hands(client, hands=[SPREAD])
    join(client, game_id, "Zé", at=2)
    leave(client, game_id, 1)
    record_hand(client, game_id, OTHER)

    cells = sheet_cells(client, game_id)
    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert cells[1][6] == ("out", "–")  # Zé before joining
    assert cells[2][1] == ("out", "–")  # Bo after leaving
    assert cells[2][6] == ("dealt", "● dealt this hand 19 37")  # Zé: 19 on top of his 18; he sits after Ana
    assert "Total 5 18 left after hand 1 14 30 9 9 37" in page
    assert "Bo left after hand 1 with 18 points: a player who left keeps their total, but it no longer ends " \
           "the game or wins (R1, R16)." in page


def test_a_joiners_column_adds_up_to_the_total_with_the_start_row_and_the_note_says_why(app, client):
    game_id = game_with_hands(client, hands=[SPREAD])
    join(client, game_id, "Zé", at=2)  # at the highest total: 18
    record_hand(client, game_id, [(0, 0), (6, 1), (5, 0), (0, 1), (5, 0), (5, 0), (5, 0)])  # Zé sits third
    record_hand(client, game_id, SPREAD + [(0, 0)])
    board = scoreboard(app, game_id)

    cells = sheet_cells(client, game_id)
    page = text_of(client.get(f"/games/{game_id}/sheet"))
    points = [[int(text.split()[-2]) if text != "–" else 0 for _class, text in row] for row in cells[1:]]

    assert "Hand Ana Bo Caio Dee Eli Fay Zé Started with 0 0 0 0 0 0 18 joined before hand 2 1 " in page
    assert [start for _class, start in cells[0]] == ["0"] * 6 + ["18 joined before hand 2"]
    assert [18 * (player == 6) + sum(row[player] for row in points) for player in range(7)] == list(board.totals)
    assert board.totals[6] == 18 + 5 + 4
    assert "Zé joined before hand 2 with 18 points, shown in the “Started with” row: with them, the column of Zé " \
           "adds up to the total, 27 (R1)." in page


def test_a_sheet_where_nobody_joined_has_no_start_row(client):
    game_id = game_with_hands(client, hands=[SPREAD])
    leave(client, game_id, 1)
    record_hand(client, game_id, [(5, 0), (9, 1), (4, 1), (4, 0), (4, 0)])

    page = client.get(f"/games/{game_id}/sheet").get_data(as_text=True)

    assert "Started with" not in page and 'class="start"' not in page


def test_the_sheet_marks_who_shot_the_moon_and_how_it_scored(client):
    game_id = game_with_hands(client, hands=[SPREAD], target=1000)
    record_hand(client, game_id, MOON, moon="subtract")  # Bo
    record_hand(client, game_id, [(0, 0), (0, 0), (0, 0), (26, 2), (0, 0), (0, 0)], moon="add")  # Dee

    cells = sheet_cells(client, game_id)
    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert cells[1][1] == ("dealt moon", "● dealt this hand ☾ Moon shot by Bo -26 -8")
    assert cells[2][3] == ("moon", "☾ Moon shot by Dee 0 17")
    assert ["☾" in text for row in cells for _class, text in row].count(True) == 2
    assert "☾ Hand 2: Bo shot the moon and subtracted 26 from their own score (R15)." in page
    assert "☾ Hand 3: Dee shot the moon, and everyone else added 26 (R15)." in page


def test_the_sheet_marks_a_hand_whose_last_trick_nobody_collected_and_says_what_went_to_nobody(client):
    game_id = game_with_hands(client, hands=[SPREAD])
    record_hand(client, game_id, [(5, 0), (5, 1), (4, 0), (4, 0), (4, 0), (1, 0)], reserved=True)  # 3 ♥, 1 Q♠ left
    record_hand(client, game_id, [(5, 0), (5, 1), (4, 1), (4, 0), (4, 0), (3, 0)], reserved=True)  # 1 ♥ left

    page = client.get(f"/games/{game_id}/sheet").get_data(as_text=True)
    text = text_of(client.get(f"/games/{game_id}/sheet"))

    assert re.findall(r'<tr( class="uncollected")?>\s*<th scope="row">(\d+)', page) == [
        ("", "1"), (' class="uncollected"', "2"), (' class="uncollected"', "3")]
    assert "2 * Reserved last trick: some cards went to nobody (R13)" in text
    assert "* Hand 2: the last trick was reserved, so nobody collected it; 3 hearts and 1 Black Maria scored for " \
           "nobody (R13)." in text
    assert "* Hand 3: the last trick was reserved, so nobody collected it; 1 heart scored for nobody (R13)." in text
    assert "0 Black Maria" not in text


def test_the_sheet_of_a_game_without_hands_has_the_names_and_says_so(client):
    game_id = create_game(client)

    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert "Hand Ana Bo Caio Dee Eli Fay Total 0 0 0 0 0 0" in page
    assert "No hands recorded yet." in page


def test_the_sheet_shows_the_house_rules(client):
    game_id = create_game(client, house_rules={"moon_points": "52"})

    page = text_of(client.get(f"/games/{game_id}/sheet"))

    assert "House rules: a moon is worth 52" in page


def test_the_sheet_has_its_own_print_style_sheet_and_no_inline_style_or_script(client):
    game_id = game_with_hands(client, hands=[SPREAD])

    page = client.get(f"/games/{game_id}/sheet").get_data(as_text=True)
    css_url = re.search(r'href="(/static/sheet\.css\?v=[0-9a-f]{12})"', page).group(1)
    css = client.get(css_url).get_data(as_text=True)

    assert "@page{size:A4" in css and "@media print{" in css
    assert " style=" not in page and "<style" not in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)


def test_the_hands_page_links_to_the_sheet_and_the_spreadsheet(client):
    game_id = game_with_hands(client, hands=[SPREAD])

    page = client.get(f"/games/{game_id}/hands").get_data(as_text=True)

    assert f'href="/games/{game_id}/sheet"' in page
    assert f'href="/games/{game_id}/sheet.csv" download' in page


# --- Who may read them ------------------------------------------------------------------


@pytest.mark.parametrize("tail", ["/sheet", "/sheet.csv"])
def test_anyone_who_can_see_the_game_can_read_them_and_the_scorer_key_stays_out(app, client, tail):
    game_id = game_with_hands(client, hands=[SPREAD])
    with app.app_context():
        key = db.session.get(Game, game_id).scorer_key
    bystander = app.test_client()

    response = bystander.get(f"/games/{game_id}{tail}")

    assert response.status_code == 200
    assert "Ana" in response.get_data(as_text=True)
    assert key not in response.get_data(as_text=True)


@pytest.mark.parametrize("tail", ["/sheet", "/sheet.csv"])
@pytest.mark.parametrize("game_id", [999, 2**31, 2**63])
def test_a_game_that_does_not_exist_has_neither(client, tail, game_id):
    assert client.get(f"/games/{game_id}{tail}").status_code == 404
