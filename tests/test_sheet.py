"""The printable score sheet and the spreadsheet (CSV) of a game, for anyone who can see it (issue 15)."""

import csv
import io
import re
from html.parser import HTMLParser

import pytest

from scorekeeper.db.models import Game, db
from scorekeeper.web.i18n import _
from scorekeeper.web.sheet import csv_text, inert

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


def spreadsheet(client, game_id, **headers):
    """The game's CSV as rows of cells, read the way a spreadsheet reads it, and the raw response."""
    response = client.get(f"/games/{game_id}/sheet.csv", headers=headers)
    text = response.get_data().decode("utf-8-sig")
    separator = ";" if text.split("\r\n", 1)[0].count(";") else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator)), response


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

    rows, _response = spreadsheet(client, game_id)

    assert rows[0] == ["Hand", *SIX]
    assert rows[1:-1] == [[str(hand.number), *map(str, hand.points)] for hand in board.hands]
    assert rows[1] == ["1", "5", "18", "4", "17", "4", "4"]
    assert rows[-1] == ["Total", *map(str, board.totals)]
    assert len(rows) == 1 + 3 + 1


def test_the_spreadsheet_is_utf8_with_a_byte_order_mark_crlf_lines_and_a_file_name(client):
    game_id = game_with_hands(client, names=["João", "Kåre", "Zoë", "Øyvind", "Lía", "Nur Aisyah"], hands=[SPREAD])

    response = client.get(f"/games/{game_id}/sheet.csv")

    body = response.get_data()
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == f'attachment; filename="cancellation-hearts-game-{game_id}.csv"'
    assert body.startswith(b"\xef\xbb\xbfHand,Jo\xc3\xa3o,K\xc3\xa5re,")
    assert body.endswith(b"\r\n") and body.count(b"\r\n") == 3 and b"\n" not in body.replace(b"\r\n", b"")


def test_numbers_are_unformatted_and_a_moon_subtracted_is_a_plain_negative(client):
    game_id = game_with_hands(client, hands=[], target=10_000)
    record_hand(client, game_id, MOON, moon="subtract")
    for _hand in range(40):
        record_hand(client, game_id, [(0, 0), (0, 0), (13, 1), (13, 1), (0, 0), (0, 0)])

    rows, _response = spreadsheet(client, game_id, **{"Accept-Language": "nb"})

    assert rows[1] == ["1", "0", "-26", "0", "0", "0", "0"]
    assert rows[-1][1:] == ["0", "-26", "1040", "1040", "0", "0"]  # no grouping ("1 040") in any language


@pytest.mark.parametrize("language, separator", [("en", ","), ("ms", ","), ("pt", ";"), ("es", ";"), ("nb", ";")])
def test_the_separator_is_the_one_a_spreadsheet_expects_in_the_readers_language(app, client, language, separator):
    game_id = game_with_hands(client, hands=[SPREAD])
    with app.test_request_context(headers={"Accept-Language": language}):
        hand, total = _("Hand"), _("Total")

    response = client.get(f"/games/{game_id}/sheet.csv", headers={"Accept-Language": f"{language},en;q=0.5"})

    lines = response.get_data().decode("utf-8-sig").split("\r\n")
    assert lines[0] == separator.join([hand, *SIX])
    assert lines[1] == separator.join(["1", "5", "18", "4", "17", "4", "4"])
    assert lines[2] == separator.join([total, "5", "18", "4", "17", "4", "4"])


def test_the_language_chosen_with_the_switcher_sets_the_separator(client):
    game_id = game_with_hands(client, hands=[SPREAD])

    client.get("/language/nb")
    rows, response = spreadsheet(client, game_id, **{"Accept-Language": "en"})

    assert response.get_data().decode("utf-8-sig").startswith("Runde;Ana;Bo;")
    assert rows[-1] == ["Sum", "5", "18", "4", "17", "4", "4"]


def test_a_player_who_joined_and_one_who_left_have_empty_cells_for_the_hands_they_missed(app, client):
    game_id = game_with_hands(client, hands=[SPREAD])
    join(client, game_id, "Zé", at=2)  # before Caio, at the highest total: 18
    leave(client, game_id, 1)  # Bo
    record_hand(client, game_id, OTHER)  # Ana, Zé, Caio, Dee, Eli, Fay
    board = scoreboard(app, game_id)

    rows, _response = spreadsheet(client, game_id)

    assert rows == [
        ["Hand", *SIX, "Zé"],
        ["1", "5", "18", "4", "17", "4", "4", ""],
        ["2", "0", "", "10", "13", "5", "5", "19"],
        ["Total", "5", "18", "14", "30", "9", "9", "37"],
    ]
    assert rows[-1][1:] == list(map(str, board.totals))


@pytest.mark.parametrize("language, header", [
    ("en", 'Hand,\'=1+1,"Smith, Jo","Jo ""Ace""",\'+44,\'@SUM(A1),\'-Bo\r\n'),
    ("pt", 'Mão;\'=1+1;Smith, Jo;"Jo ""Ace""";\'+44;\'@SUM(A1);\'-Bo\r\n'),
])
def test_names_are_quoted_and_never_read_as_formulas(client, language, header):
    game_id = create_game(client, HOSTILE)
    record_hand(client, game_id, MOON, moon="add")

    response = client.get(f"/games/{game_id}/sheet.csv", headers={"Accept-Language": language})
    rows, _response = spreadsheet(client, game_id, **{"Accept-Language": language})

    assert response.get_data().startswith(("\ufeff" + header).encode())
    assert rows[0][1:] == ["'=1+1", "Smith, Jo", 'Jo "Ace"', "'+44", "'@SUM(A1)", "'-Bo"]
    assert rows[1] == ["1", "26", "0", "26", "26", "26", "26"]


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

    assert cells[0][6] == ("out", "–")  # Zé before joining
    assert cells[1][1] == ("out", "–")  # Bo after leaving
    assert cells[1][6] == ("dealt", "● dealt this hand 19 37")  # Zé: 19 on top of his 18; he sits after Ana
    assert "Zé joined before hand 2 with 18 points." in page
    assert "Bo left after hand 1 with 18 points." in page


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
