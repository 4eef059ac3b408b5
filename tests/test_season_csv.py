"""A history brought in at once: several game files in one upload, and a season kept on paper as a CSV
(docs/season-csv.md), all or nothing."""

import html
import io
import json
import pathlib
import random
import re
from datetime import date, timedelta

import pytest

from scorekeeper import rules
from scorekeeper.db.models import Game, Hand, Player, Taking, db
from scorekeeper.documents.season_csv import MOST_PLAYER_COLUMNS
from scorekeeper.web.games import MOST_UPLOADED_GAMES

from .tabletop import (
    ELEVEN,
    PLAYER_NAMES,
    SIX,
    PaperGame,
    create_game,
    csrf_token,
    exported,
    random_game_document,
    random_paper_game,
    record_hand,
    season_csv,
    text_of,
)

HEADER = "game,date,target,hand,Ana,Bo,Caio,Dee,Eli,Fay,Gus,moon,reserved"
SPREAD = "5,4M,4,4,3M,6,"  # Ana to Fay, Gus not at the game
# The template's two games, as the engine must score them: a moon of each kind and a reserved last trick.
TEMPLATE_GAMES = [
    PaperGame("Week 1", "2026-09-04", 100, ("Ana", "Bo", "Caio", "Dee", "Eli", "Fay"), (
        (((5, 0), (4, 1), (4, 0), (4, 0), (3, 1), (6, 0)), None, False),
        (((0, 0), (0, 0), (26, 2), (0, 0), (0, 0), (0, 0)), "subtract", False),
        (((4, 0), (5, 0), (0, 1), (4, 0), (5, 0), (5, 0)), None, True),
    )),
    PaperGame("Week 2", "2026-09-11", 150, ("Bo", "Caio", "Dee", "Eli", "Fay", "Gus"), (
        (((6, 0), (5, 1), (4, 0), (4, 0), (3, 1), (4, 0)), None, False),
        (((0, 0), (0, 0), (0, 0), (26, 2), (0, 0), (0, 0)), "add", False),
        (((3, 0), (4, 0), (7, 1), (2, 0), (6, 0), (4, 1)), None, False),
    )),
]


def rows(app):
    """How many games, players, hands and takings are stored."""
    with app.app_context():
        return tuple(db.session.execute(db.select(db.func.count()).select_from(model)).scalar()
                     for model in (Game, Player, Hand, Taking))


def upload(client, *files):
    """Post files, each (name, bytes or text), through the import form in one upload."""
    token = csrf_token(client, "/games/import")
    chosen = [(io.BytesIO(content.encode() if isinstance(content, str) else content), name)
              for name, content in files]
    return client.post("/games/import", data={"csrf_token": token, "document": chosen},
                       content_type="multipart/form-data")


def problem(response):
    """What the import page says is wrong, next to the file field."""
    found = re.search(r'<span class="error" id="document-error"[^>]*>(.*?)</span>', response.get_data(as_text=True),
                      flags=re.S)
    return html.unescape(found.group(1)).strip() if found else ""


def imported_games(client):
    """Every stored game's export document, oldest first."""
    with client.application.app_context():
        ids = db.session.execute(db.select(Game.id).order_by(Game.id)).scalars().all()
    return [exported(client, game_id) for game_id in ids]


def assert_imported_as_the_engine_scores(documents, games):
    """Each exported game holds the paper game's players, day, target, takings, moons and reserved tricks,
    and the totals, points and verdict the engine derives from them (R13-R16)."""
    assert len(documents) == len(games)
    for document, game in zip(documents, games):
        board = game.scoreboard()
        assert document["name"] == game.name
        assert document["played_on"] == game.day
        assert document["target"] == game.target
        assert document["players"] == list(game.seated)
        assert document["first_dealer"] == 0
        assert [[(taken["hearts"], taken["marias"]) for taken in hand["taken"]] for hand in document["hands"]] == [
            list(taken) for taken, _moon, _reserved in game.hands]
        assert [hand["moon"] for hand in document["hands"]] == [summary.moon and summary.moon.value
                                                              for summary in board.hands]
        assert [(hand["uncollected"]["hearts"], hand["uncollected"]["marias"]) for hand in document["hands"]] == [
            (summary.uncollected.hearts, summary.uncollected.marias) for summary in board.hands]
        assert [hand["points"] for hand in document["hands"]] == [list(summary.seat_points) for summary in board.hands]
        assert list(document["totals"].values()) == list(board.totals)
        assert document["status"] == ("over" if board.over else "open")


# --- The template -------------------------------------------------------------------------------------


def test_the_template_is_the_same_bytes_in_every_language_and_opens_in_a_spreadsheet(client):
    answers = [client.get("/games/import/season.csv", headers={"Accept-Language": language})
               for language in ("en", "pt", "es", "ms", "nb")]

    first = answers[0]
    assert first.status_code == 200 and first.mimetype == "text/csv"
    assert first.headers["Content-Disposition"] == 'attachment; filename="season-template.csv"'
    assert all(answer.get_data() == first.get_data() for answer in answers)
    text = first.get_data().decode("utf-8")
    assert text.startswith("\ufeff" + HEADER + "\r\n")
    assert text.count("\r\n") == text.count("\n") == 7


def test_the_documented_example_is_the_template(client):
    documented = (pathlib.Path(__file__).parents[1] / "docs" / "season-csv.md").read_text(encoding="utf-8")
    example = re.search(r"```csv\n(.*?)```", documented, flags=re.S).group(1)

    template = client.get("/games/import/season.csv").get_data().decode("utf-8-sig")

    assert template == example.replace("\n", "\r\n")


def test_the_import_page_links_the_template_and_explains_the_columns(client):
    page = client.get("/games/import")

    assert 'href="/games/import/season.csv"' in page.get_data(as_text=True)
    assert 'multiple' in page.get_data(as_text=True)
    assert "then an M for each Black Maria: 7, 5M, 26MM" in text_of(page)


def test_the_template_imports_as_it_is_into_two_games_scored_as_the_engine_scores_them(app, client):
    template = client.get("/games/import/season.csv").get_data()

    response = upload(client, ("season-template.csv", template))

    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert "2 games imported." in text_of(client.get("/"))
    assert_imported_as_the_engine_scores(imported_games(client), TEMPLATE_GAMES)
    week_1, week_2 = (game.scoreboard() for game in TEMPLATE_GAMES)
    assert week_1.hands[1].seat_points == (0, 0, -26, 0, 0, 0)  # Caio's moon, subtracted (R15)
    assert week_1.hands[2].uncollected == rules.Taken(3, 1)  # the reserved last trick's (R13)
    assert week_2.hands[1].seat_points == (26, 26, 26, 0, 26, 26)  # Eli's moon, added to everyone else


def test_a_season_of_one_game_opens_that_game_as_one_game_file_does(client):
    text = "\r\n".join([HEADER, f"Friday,2026-10-02,150,1,{SPREAD},,"]) + "\r\n"

    response = upload(client, ("friday.csv", text))

    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert response.headers["Location"] == f"/games/{game_id}"
    assert "Game imported: Friday." in text_of(client.get(f"/games/{game_id}"))


def test_a_random_season_imports_as_the_engine_scores_it(app, client):
    rng = random.Random(26)
    games = [random_paper_game(rng, f"Week {week}", f"2026-{9 + week // 5:02d}-{1 + week % 5 * 6:02d}")
             for week in range(12)]

    seated = [player for player in PLAYER_NAMES if any(player in game.seated for game in games)]

    response = upload(client, ("season.csv", season_csv(games, order=seated)))

    assert response.status_code == 302, text_of(response)
    assert_imported_as_the_engine_scores(imported_games(client), games)


def test_the_importing_device_can_correct_every_game_it_imported(client):
    template = client.get("/games/import/season.csv").get_data()
    upload(client, ("season.csv", template))

    with client.application.app_context():
        ids = db.session.execute(db.select(Game.id)).scalars().all()
    assert [client.get(f"/games/{game_id}/hands/1").status_code for game_id in ids] == [200, 200]


# --- A spreadsheet's export ---------------------------------------------------------------------------


def template_text(client):
    return client.get("/games/import/season.csv").get_data().decode("utf-8-sig")


@pytest.mark.parametrize("saved", [
    lambda text: text,
    lambda text: "\ufeff" + text,
    lambda text: text.replace("\r\n", "\n"),
    lambda text: text.replace("\r\n", "\r"),
    lambda text: text.replace(",", ";"),
    lambda text: "\ufeff" + text.replace(",", ";"),
    lambda text: text.replace(",", "\t"),
    lambda text: text.replace("\r\n", ",,\r\n"),  # empty columns past the last, as a spreadsheet may save
    lambda text: text + ",,,,,,,,,,,,\r\n\r\n",  # empty lines after the last
    lambda text: "\r\n".join('"' + line.replace(",", '","') + '"' if line else "" for line in text.split("\r\n")),
    lambda text: text.replace("M", "m").replace("subtract", "Subtract").replace("yes", "YES"),
    lambda text: text.replace("game,date,target,hand", "Game , Date,TARGET,Hand"),
    lambda text: text.replace("Week 1,2026-09-04,100,2", ",,,2").replace("Week 1,2026-09-04,100,3", ",,,3"),
], ids=["as downloaded", "byte order mark", "LF", "CR", "semicolons", "byte order mark and semicolons", "tabs",
        "empty columns", "empty lines", "every cell quoted", "any case", "spaced and capitalised header",
        "a game's name, date and target on its first line only"])
def test_a_spreadsheets_export_of_the_template_reads_the_same(client, saved):
    text = saved(template_text(client))

    response = upload(client, ("season.csv", text.encode("utf-8")))

    assert response.status_code == 302, text_of(response)
    assert_imported_as_the_engine_scores(imported_games(client), TEMPLATE_GAMES)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_a_spreadsheets_unicode_text_reads_with_its_accents(client, encoding):
    game = PaperGame("Sexta-feira", "2026-10-02", 150, ("João", "Kåre", "Lía", "Zoë", "Øyvind", "Nur Aisyah"), (
        (((5, 0), (4, 1), (4, 0), (4, 0), (3, 1), (6, 0)), None, False),))

    response = upload(client, ("season.txt", season_csv([game], separator="\t").encode(encoding)))

    assert response.status_code == 302, text_of(response)
    assert_imported_as_the_engine_scores(imported_games(client), [game])


def test_later_lines_of_a_game_may_leave_its_name_date_and_target_empty(client):
    text = "\n".join([HEADER, f"Week 1,2026-09-04,100,1,{SPREAD},,", f",,,2,{SPREAD},,"])

    response = upload(client, ("season.csv", text))

    assert response.status_code == 302, text_of(response)
    assert [len(game["hands"]) for game in imported_games(client)] == [2]


def test_a_reserved_last_trick_that_left_every_heart_and_black_maria_is_said_by_the_file(client):
    text = "\n".join([HEADER, "Week 1,2026-09-04,100,1,0,0,0,0,0,0,,,yes"])

    response = upload(client, ("season.csv", text))

    assert response.status_code == 302, text_of(response)
    assert imported_games(client)[0]["hands"][0]["uncollected"] == {"hearts": 26, "marias": 2}


def test_a_season_game_that_ends_is_over_with_its_winners(client):
    game = PaperGame("Short", "2026-09-04", 15, tuple(SIX), (
        (((5, 0), (4, 1), (4, 0), (4, 0), (3, 1), (6, 0)), None, False),))

    upload(client, ("season.csv", season_csv([game])))

    document = imported_games(client)[0]
    assert document["status"] == "over"
    assert document["winners"] == [game.seated[seat] for seat in game.scoreboard().winners] == ["Caio", "Dee"]


# --- A bad line: refused with its number, nothing stored ------------------------------------------


def season(*lines, header=HEADER):
    return "\r\n".join([header, *lines]) + "\r\n"


GOOD = f"Week 1,2026-09-04,100,1,{SPREAD},,"


@pytest.mark.parametrize(("text", "line", "message"), [
    (season(GOOD, "Week 1,2026-09-04,100,2,7/1,4M,4,4,3M,6,,,"), 3,
     "“7/1” for Ana is not what a player took: write their hearts, then an M for each Black Maria"),
    (season("Week 1,2026-09-04,100,1,27,M,0,0,M,0,,,"), 2, "Ana cannot have taken 27 hearts: a hand holds 26 (R14)."),
    (season("Week 1,2026-09-04,100,1,5,5M,5,5,5M,5,,,"), 2,
     "The hearts add up to 30, but a hand holds only 26 (R14)."),
    (season("Week 1,2026-09-04,100,1,5,MM,4,4,M,6,,,"), 2,
     "The Black Marias add up to 3, but a hand holds only 2 (R14)."),
    (season("Week 1,2026-09-04,100,1,5,4,4,4,3M,6,,,"), 2,
     "The hearts add up to 26 of 26 and the Black Marias to 1 of 2. If the last trick was reserved and nobody "
     "collected its cards (R13), write yes in the reserved column"),
    (season("Week 1,2026-09-04,100,1,0,0,26MM,0,0,0,,,"), 2,
     "Caio took all 26 hearts and both Black Marias: they shot the moon! Write subtract in the moon column"),
    (season(f"Week 1,2026-09-04,100,1,{SPREAD},add,"), 2,
     "Nobody took all 26 hearts and both Black Marias, so there is no moon to score (R15)."),
    (season(f"Week 1,2026-09-04,100,1,{SPREAD},minus,"), 2,
     "The moon column holds subtract, add or nothing, not “minus”."),
    (season(f"Week 1,2026-09-04,100,1,{SPREAD},,x"), 2, "The reserved column holds yes, no or nothing, not “x”."),
    (season(GOOD, f"Week 1,2026-09-04,100,3,{SPREAD},,"), 3,
     "The hands of a game are numbered 1, 2, 3… in order, so this line is hand 2 of “Week 1”, not “3”."),
    (season(GOOD, f"Week 1,2026-09-04,100,,{SPREAD},,"), 3, "so this line is hand 2 of “Week 1”, not “”."),
    (season(GOOD, "Week 1,2026-09-04,100,2,5,4M,4,4,3M,,,,"), 3,
     "Fay plays in this game but has no cell on this line: write what they took, 0 for nothing."),
    (season(GOOD, "Week 1,2026-09-04,100,2,5,4M,4,4,3M,6,0,,"), 3,
     "Gus has “0” here but no cell on the game's first line, 2"),
    (season("Week 1,2026-09-04,100,1,5,4M,4,7,3M,,,,"), 2,
     "“Week 1” has 5 players (the players with a cell on this line), but Cancellation Hearts needs 6 to 11 (R1)."),
    (season(f"Week 1,2026-02-30,100,1,{SPREAD},,"), 2, "The date “2026-02-30” is not one the scorekeeper reads"),
    (season(f"Week 1,04/09/2026,100,1,{SPREAD},,"), 2, "write the day the game was played as year-month-day"),
    (season(f"Week 1,1899-12-31,100,1,{SPREAD},,"), 2, "from 1900-01-01 to "),
    ("sep=|\r\n" + season(GOOD), 1, "The first line, “sep=|”, names a separator the scorekeeper does not read"),
    ("sep=\r\n" + season(GOOD), 1, "write sep=, or sep=; or sep= and a tab, or leave the line out."),
    (season(f"Week 1,,100,1,{SPREAD},,"), 2, "Write the day the game was played in the date column of its first"),
    (season(GOOD, f"Week 1,2026-09-05,100,2,{SPREAD},,"), 3,
     "The date “2026-09-05” is not the one on the game's first line, 2: a game is played on one day."),
    (season(GOOD, f"Week 1,2026-09-04,150,2,{SPREAD},,"), 3,
     "The target “150” is not the one on the game's first line, 2: a game has one target."),
    (season(f"Week 1,2026-09-04,0,1,{SPREAD},,"), 2, "The target “0” is not a whole number of points from 1 to"),
    (season(f"Week 1,2026-09-04,1e3,1,{SPREAD},,"), 2, "The target “1e3” is not a whole number"),
    (season(f",2026-09-04,100,1,{SPREAD},,"), 2, "Write the game's name in the game column of its first hand."),
    (season(f"{'x' * 81},2026-09-04,100,1,{SPREAD},,"), 2, "A game's name has at most 80 characters."),
    (season("Week 1,2026-09-04,10,1,15,4M,4,0,3M,0,,,", "Week 1,2026-09-04,10,2,15,4M,4,0,3M,0,,,"), 3,
     "“Week 1” was over after hand 1 (R16), so no hand can follow it."),
    (season(GOOD, f"Week 2,2026-09-11,100,1,{SPREAD},,", f"Week 1,2026-09-04,100,2,{SPREAD},,"), 4,
     "so this line is hand 1 of “Week 1”, not “2”"),
    (season(GOOD, header="game,date,target,Ana,Bo,Caio,Dee,Eli,Fay,Gus"), 1, "Missing: hand."),
    (season(GOOD, header="game,target,Ana,Bo,Caio,Dee,Eli,Fay,Gus"), 1, "Missing: date and hand."),
    (season(GOOD, header="game,date,target,hand,moon,reserved,moon"), 1, "The column “moon” is named twice."),
    (season(GOOD, header="game,date,target,hand,moon,reserved"), 1, "The first line names no player"),
    (season(GOOD, header=HEADER.replace("Eli", "ANA")), 1,
     "“ANA” and “Ana” are one player's name written twice; give each player one column."),
    (season(GOOD, header=HEADER.replace("Eli", "Е\u200bli")), 1,
     "A name cannot hold invisible characters"),
    (season(GOOD + ",,,surplus"), 2, "“surplus” in column P has no name above it on the first line"),
    (season(GOOD, header=HEADER.replace("Gus", "")), None, None),  # an empty column with no name: fine
    (season("Week 1,2026-09-04,100,1,5,4M,4,4,3M,6,x,,,", header=HEADER.replace(",Gus", ",,Gus")), 2,
     "“x” in column K has no name above it on the first line"),
    (season('Week 1,2026-09-04,100,1,"5,4M,4,4,3M,6,,,'), 2, "This line cannot be read as CSV"),
    (season(), 1, "The first line names the columns, but no line below it holds a hand."),
], ids=lambda value: None if not isinstance(value, str) or "\n" in value else value[:40])
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_stored(app, client, text, line, message):
    if line is None:
        assert upload(client, ("season.csv", text)).status_code == 302
        return
    before = rows(app)

    response = upload(client, ("season.csv", text))

    refusal = problem(response)
    assert response.status_code == 400
    assert refusal.startswith(f"Line {line}: ") and message in refusal, refusal
    assert rows(app) == before


def test_a_bad_line_in_a_later_game_stores_none_of_the_games_before_it(app, client):
    lines = [f"Week {week},2026-09-{week:02d},150,{hand},{SPREAD},," for week in range(1, 4) for hand in (1, 2)]
    lines[-1] = lines[-1].replace("5,4M,4,4,3M,6", "5,4M,4,4,3M,9")

    response = upload(client, ("season.csv", season(*lines)))

    assert response.status_code == 400
    assert "Line 7: The hearts add up to 29, but a hand holds only 26 (R14)." in text_of(response)
    assert rows(app) == (0, 0, 0, 0)


@pytest.mark.parametrize("content", [
    "game,date,hand,A,B,C,D,E,F".encode("utf-16-le"),  # no byte order mark: not UTF-8
    "game,date,hand,João\n".encode("latin-1"),
])
def test_a_file_that_is_not_utf8_says_how_to_save_it(app, client, content):
    response = upload(client, ("season.csv", content))

    assert response.status_code == 400
    assert "The file is not UTF-8 text: save it from the spreadsheet as “CSV UTF-8”" in text_of(response)
    assert rows(app) == (0, 0, 0, 0)


def test_an_empty_file_is_refused_in_words(client):
    response = upload(client, ("season.csv", b"\xef\xbb\xbf\r\n;;;\r\n"))

    assert response.status_code == 400
    assert "The file is empty: it holds no line of a season." in text_of(response)


def test_a_header_of_more_players_than_a_club_has_is_refused_at_once(client):
    header = "game,date,hand," + ",".join(f"P{number}" for number in range(MOST_PLAYER_COLUMNS + 1))

    response = upload(client, ("season.csv", season(GOOD, header=header)))

    assert response.status_code == 400
    assert f"Line 1: A season to import has at most {MOST_PLAYER_COLUMNS} players" in text_of(response)


# --- Points only: refused, saying why -------------------------------------------------------------------


def test_a_season_of_points_is_refused_saying_that_points_cannot_be_turned_back_into_takings(app, client):
    text = season("Week 1,2026-09-04,100,1,5,17,4,4,16,6,,,", "Week 1,2026-09-04,100,2,0,0,-26,0,0,0,,,")

    response = upload(client, ("points.csv", text))

    page = text_of(response)
    assert response.status_code == 400
    assert "Line 2: The cells look like points (5, 17, 4, 4, 16, 6), not the hearts and Black Marias" in page
    assert "points cannot be turned back into it: 13 points are 13 hearts or one Black Maria" in page
    assert "as the template on the import page shows" in page
    assert rows(app) == (0, 0, 0, 0)


def test_a_season_of_points_with_a_moon_subtracted_is_refused_as_points(client):
    response = upload(client, ("points.csv", season("Week 1,2026-09-04,100,1,0,0,-26,0,0,0,,,")))

    assert "Line 2: The cells look like points (0, 0, -26, 0, 0, 0)" in text_of(response)


def test_a_games_score_sheet_is_refused_as_points(app, client):
    game_id = create_game(client, ELEVEN[:7], name="Friday")
    record_hand(client, game_id, [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0), (0, 0)])
    sheet = client.get(f"/games/{game_id}/sheet.csv?sep=semicolon").get_data()
    before = rows(app)

    response = upload(client, ("cancellation-hearts-game-1.csv", sheet))

    assert response.status_code == 400
    assert "This file is a game's score sheet: it holds points, not the hearts and Black Marias" in text_of(response)
    assert rows(app) == before


# --- Several files at once ------------------------------------------------------------------------------


def documents(count, seed=26):
    rng = random.Random(seed)
    return [random_game_document(rng, f"Game {number}", fewest_hands=1) for number in range(count)]


def test_several_game_files_are_imported_at_once_and_the_games_list_says_how_many(app, client):
    chosen = documents(3)

    response = upload(client, *((f"game-{number}.json", json.dumps(document))
                                for number, document in enumerate(chosen)))

    assert response.status_code == 302 and response.headers["Location"] == "/"
    page = text_of(client.get("/"))
    assert "3 games imported." in page
    assert [game["name"] for game in imported_games(client)] == ["Game 0", "Game 1", "Game 2"]
    assert [[hand["taken"] for hand in game["hands"]] for game in imported_games(client)] == [
        [hand["taken"] for hand in document["hands"]] for document in chosen]
    assert rows(app)[:3] == (3, sum(len(document["players"]) for document in chosen),
                             sum(len(document["hands"]) for document in chosen))


def test_one_bad_file_among_several_is_named_and_nothing_is_imported(app, client):
    good = [json.dumps(document) for document in documents(2)]

    response = upload(client, ("first.json", good[0]), ("broken.json", "{not json"), ("second.json", good[1]))

    assert response.status_code == 400
    assert "broken.json: The file is not valid JSON" in text_of(response)
    assert rows(app) == (0, 0, 0, 0)


def test_a_bad_line_of_a_season_among_several_files_names_the_file_and_the_line(app, client):
    good = json.dumps(documents(1)[0])

    response = upload(client, ("game.json", good), ("season.csv", season(GOOD, f"Week 1,2026-09-04,100,2,{SPREAD},,x")))

    assert response.status_code == 400
    assert "season.csv, line 3: The reserved column holds yes, no or nothing, not “x”." in text_of(response)
    assert rows(app) == (0, 0, 0, 0)


def test_game_files_and_a_season_come_in_together(client):
    chosen = documents(2)
    template = client.get("/games/import/season.csv").get_data()

    response = upload(client, ("a.json", json.dumps(chosen[0])), ("season.csv", template),
                      ("b.json", json.dumps(chosen[1])))

    assert response.status_code == 302
    assert "4 games imported." in text_of(client.get("/"))
    assert [game["name"] for game in imported_games(client)] == ["Game 0", "Week 1", "Week 2", "Game 1"]


def test_an_upload_of_more_files_than_one_import_takes_is_refused_in_words(app, client):
    files = [(f"g{number}.json", b"{}") for number in range(MOST_UPLOADED_GAMES + 1)]

    response = upload(client, *files)

    assert response.status_code == 400
    assert (f"You chose {MOST_UPLOADED_GAMES + 1} files, but one import takes at most {MOST_UPLOADED_GAMES} games"
            in text_of(response))
    assert rows(app) == (0, 0, 0, 0)


def test_a_season_of_more_games_than_one_import_takes_is_refused_at_the_line_of_the_one_too_many(app, client):
    lines = [f"Week {week},2026-09-04,150,1,{SPREAD},," for week in range(1, MOST_UPLOADED_GAMES + 2)]

    response = upload(client, ("season.csv", season(*lines)))

    assert response.status_code == 400
    assert (f"Line {MOST_UPLOADED_GAMES + 2}: This line starts game {MOST_UPLOADED_GAMES + 1} of the import, but one "
            f"import takes at most {MOST_UPLOADED_GAMES} games" in text_of(response))
    assert rows(app) == (0, 0, 0, 0)


def test_the_games_of_a_season_and_of_other_files_count_together_towards_the_bound(client):
    lines = [f"Week {week},2026-09-04,150,1,{SPREAD},," for week in range(1, MOST_UPLOADED_GAMES + 1)]

    response = upload(client, ("season.csv", season(*lines)), ("late.json", json.dumps(documents(1)[0])))

    assert response.status_code == 400
    assert f"late.json: This file would be game {MOST_UPLOADED_GAMES + 1} of the import" in text_of(response)


def test_a_season_game_of_more_hands_than_an_upload_takes_is_refused_at_the_first_hand_too_many(client):
    lines = [f"Long,2026-09-04,1000000,{hand},{SPREAD},," for hand in range(1, 202)]

    response = upload(client, ("season.csv", season(*lines)))

    assert response.status_code == 400
    assert "Line 202: A game to import may hold at most 200 hands, and this line is hand 201 of “Long”." in text_of(
        response)


def test_a_season_whose_names_are_one_person_here_is_refused_and_stores_nothing(app, client):
    from scorekeeper import service
    from scorekeeper.db.models import Person

    with app.app_context():
        service.import_games([service.GameFacts("Before", 150, 0, ("Bob", "X1", "X2", "X3", "X4", "X5")),
                              service.GameFacts("Other", 150, 0, ("Robert", "Y1", "Y2", "Y3", "Y4", "Y5"))])
        bob, robert = (db.session.execute(db.select(Person).where(Person.name == name)).scalar_one()
                       for name in ("Bob", "Robert"))
        service.merge_people(bob, robert)
    before = rows(app)

    response = upload(client, ("season.csv", season("Week 1,2026-09-04,1,5,4M,4,4,3M,6",
                                                    header="game,date,hand,Ana,Bob,Robert,Dee,Eli,Fay")))

    assert response.status_code == 400
    assert "Robert and Bob are one person" in text_of(response)
    assert rows(app) == before


@pytest.mark.parametrize(("separator", "named"), [(",", "sep=,"), (";", "sep=;"), ("\t", "sep=\t"), (";", "SEP=;")])
def test_a_first_line_naming_the_separator_as_spreadsheets_write_it_is_read_and_no_row(client, separator, named):
    text = named + "\r\n" + season(GOOD, f"Week 1,2026-09-04,100,2,{SPREAD},,").replace(",", separator)

    response = upload(client, ("season.csv", text))

    assert response.status_code == 302, problem(response)
    assert [len(game["hands"]) for game in imported_games(client)] == [2]


def test_a_season_game_may_be_dated_tomorrow_and_the_refusal_of_a_later_day_says_so(app, client):
    tomorrow, later = date.today() + timedelta(days=1), date.today() + timedelta(days=2)

    refused = upload(client, ("later.csv", season(f"Week 1,{later.isoformat()},100,1,{SPREAD},,")))
    accepted = upload(client, ("tomorrow.csv", season(f"Week 1,{tomorrow.isoformat()},100,1,{SPREAD},,")))

    assert refused.status_code == 400
    assert f"from 1900-01-01 to {tomorrow.isoformat()}, tomorrow, as a clock may be a day behind" in problem(refused)
    assert accepted.status_code == 302, problem(accepted)
