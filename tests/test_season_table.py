"""The season's table (issue 24, item 7): every column's first tap sorts it best first, a win rate, and a best
and worst game judged by place and margin rather than by total."""

import csv
import html
import io
import re

import pytest
from babel.numbers import get_decimal_symbol

from scorekeeper.web.season import Finish

from .tabletop import SIX, create_game, record_hand, text_of

ROW = re.compile(r'<th scope="row"><a href="/players/\d+">([^<]+)</a></th>(.*?)</tr>', re.S)
CELL = re.compile(r'<td class="num">([^<]*)</td>')
HEADING = re.compile(r'<a href="/players\?sort=(-?)([a-z_]+)">')
SHARED = [(4, 0), (5, 0), (5, 0), (4, 1), (4, 1), (4, 0)]  # Ana and Fay share the win on 4 (R16)
WIDE = [(0, 0), (6, 0), (5, 0), (5, 0), (5, 1), (5, 1)]  # Ana wins alone, 5 ahead of Caio and Dee
MOON_BO = [(0, 0), (26, 2), (0, 0), (0, 0), (0, 0), (0, 0)]
MOON_ANA = [(26, 2), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
LAST = [(1, 0), (0, 0), (6, 0), (6, 0), (6, 1), (7, 1)]


def table(client, sort=None):
    """The season's table as {name: [cells]}, in its order (dicts keep it)."""
    response = client.get("/players" + (f"?sort={sort}" if sort else ""))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    columns = re.findall(r'<th scope="col"[^>]*>\s*<a href="/players\?sort=-?([a-z_]+)"', page)
    return {html.unescape(name): dict(zip(columns[1:], CELL.findall(cells)))
            for name, cells in ROW.findall(response.get_data(as_text=True))}


def figure(text):
    return int(text.replace("−", "-"))


@pytest.fixture
def season(client):
    """Three finished games of the same six (target 10), and a seventh player whose game is still open.

    Ana shares a win (4, Fay too), wins one alone by 5, and ends second by 1 in a game of moons where her
    total, -25, is her lowest: the old "lowest total" rule called that her best game.
    """
    record_hand(client, create_game(client, SIX, target=10, name="Shared"), SHARED)
    record_hand(client, create_game(client, SIX, target=10, name="Wide"), WIDE)
    moons = create_game(client, SIX, target=10, name="Moons")
    record_hand(client, moons, MOON_BO, moon="subtract")
    record_hand(client, moons, MOON_ANA, moon="subtract")
    record_hand(client, moons, LAST)
    create_game(client, ["Gus", *SIX[1:]], name="Open")
    return client


def test_a_first_tap_on_any_column_sorts_it_best_first(season):
    headings = dict((key, sign) for sign, key in HEADING.findall(season.get("/players").get_data(as_text=True)))

    by_points, by_hearts = list(table(season, "points")), list(table(season, "hearts"))
    by_wins, by_rate = list(table(season, "wins")), list(table(season, "win_rate"))
    by_best, by_worst = list(table(season, "best")), list(table(season, "worst"))

    assert headings["points"] == headings["hearts"] == headings["win_rate"] == headings["best"] == ""
    assert headings["wins"] == ""  # the first tap puts the most first
    assert headings["rating"] == "-"  # sorted by the rating already, the highest first: its heading reverses it
    rows = table(season)
    for column, order in [("points", by_points), ("hearts", by_hearts)]:  # the fewest first
        assert [figure(rows[name][column]) for name in order] == sorted(figure(row[column]) for row in rows.values())
    assert by_wins[:2] == ["Ana", "Bo"] or by_wins[:2] == ["Ana", "Fay"]  # two wins, then one
    assert by_rate[0] == "Ana" and by_rate[-1] == "Gus"  # 2 of 3; no finished game last
    assert by_best[0] == "Ana" and by_best[-1] == "Gus"  # won alone by 5: nobody did better
    assert by_worst[-1] == "Gus" and by_worst[0] in ("Ana", "Bo", "Fay")  # their worst game was a win or a second


def test_the_win_rate_counts_shared_wins_over_finished_games_in_the_table_and_stats(season):
    rows = table(season)
    players = {player["name"]: player for player in season.get("/stats.json").get_json()["players"]}

    assert rows["Ana"]["win_rate"] == "67%" and players["Ana"]["win_rate"] == 0.6667
    assert rows["Fay"]["win_rate"] == "33%" and players["Fay"]["win_rate"] == 0.3333
    assert rows["Gus"]["win_rate"] == "–" and players["Gus"]["win_rate"] is None
    assert players["Caio"]["wins"] == 0 and players["Caio"]["win_rate"] == 0


def test_the_best_game_is_the_best_place_then_the_widest_margin_not_the_lowest_total(app, season):
    rows = table(season)
    ana = re.search(r'href="/players/(\d+)">Ana<', season.get("/players").get_data(as_text=True)).group(1)
    page = text_of(season.get(f"/players/{ana}"))

    assert rows["Ana"]["best"] == "1/6 +5" and rows["Ana"]["worst"] == "2/6 −1"
    assert rows["Fay"]["best"] == "1/6 ±0"  # the shared win
    assert rows["Gus"]["best"] == rows["Gus"]["worst"] == "–"
    assert "Best game Wide 0 points, won among 6, 5 points ahead of the next player" in page
    assert "Worst game Moons -25 points, place 2 of 6, 1 point behind the winner" in page


def test_best_and_worst_games_order_by_place_then_margin_then_the_most_recent():
    # Who has a finish at all (finished games they were at the table for) is the engine's: tests/unit/test_figures.py.
    assert min([Finish(1, 6, 0, 1), Finish(1, 8, 3, 2), Finish(2, 6, -1, 3)], key=Finish.best_key).game_id == 2
    assert min([Finish(1, 6, 0, 1), Finish(1, 6, 0, 4)], key=Finish.best_key).game_id == 4
    assert min([Finish(1, 6, 0, 1), Finish(5, 6, -9, 2), Finish(6, 11, -2, 3)], key=Finish.worst_key).game_id == 2


@pytest.mark.parametrize("language", ["pt", "es", "nb"])
def test_the_semicolon_csv_is_read_back_by_a_comma_decimal_reader_as_the_seasons_figures(season, language):
    mark = get_decimal_symbol(language)
    stats = {player["name"]: player for player in season.get("/stats.json").get_json()["players"]}

    def read(separator, decimal_mark):  # as a spreadsheet of that decimal mark reads each cell
        sheet = season.get(f"/players.csv?sep={separator}").get_data(as_text=True).lstrip("\ufeff")
        headings, *lines = csv.reader(io.StringIO(sheet), delimiter=";" if separator == "semicolon" else ",")
        return {line[0]: {heading: number(cell, decimal_mark) for heading, cell in zip(headings, line)}
                for line in lines}

    def number(cell, decimal_mark):
        other = "." if decimal_mark == "," else ","
        if not re.fullmatch(r"-?\d+([.,]\d+)?", cell):
            return cell  # a name, a game ("1/6 +5"), or empty
        assert other not in cell, cell  # a decimal point would be text, or a date, to this reader
        return float(cell.replace(decimal_mark, ".")) if decimal_mark in cell else int(cell)

    semicolon, comma = read("semicolon", mark), read("comma", ".")

    assert mark == ","
    assert semicolon == comma  # figure for figure, as a decimal-point reader reads the comma CSV
    assert semicolon.keys() == stats.keys()
    for name, cells in semicolon.items():
        assert cells["Games"] == stats[name]["games"] and cells["Points"] == stats[name]["points"]
        assert cells["Win rate"] == ("" if stats[name]["win_rate"] is None else pytest.approx(stats[name]["win_rate"],
                                                                                               abs=5e-5))
    assert any(isinstance(cells["Points a hand"], float) for cells in semicolon.values())


def test_the_comma_and_tab_csvs_keep_the_decimal_point(season):
    comma = season.get("/players.csv").get_data(as_text=True)
    tab = season.get("/players.csv?sep=tab").get_data(as_text=True)

    assert re.search(r",\d+\.\d,", comma) and re.search(r"\t\d+\.\d\t", tab)
    assert not re.search(r"\t\d+,\d", tab)
