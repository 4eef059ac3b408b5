"""Export and import of the game document, from the pages and the command line."""

import json
import re
from datetime import date, timedelta

import pytest

from scorekeeper import rules
from scorekeeper.db.models import Game, Hand, Player, db
from scorekeeper.documents.game import FORMAT
from scorekeeper.words.explain import quoted

from .tabletop import SIX, create_game, csrf_token, exported, game_form, record_hand, text_of

SPREAD = [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]
SHORT = [(5, 0), (5, 1), (4, 0), (4, 0), (4, 0), (1, 0)]  # 3 hearts and a Black Maria uncollected
MOON = [(0, 0), (26, 2), (0, 0), (0, 0), (0, 0), (0, 0)]


def rows(app):
    """How many games, players and hands are stored."""
    with app.app_context():
        return tuple(
            db.session.execute(db.select(db.func.count()).select_from(model)).scalar()
            for model in (Game, Player, Hand)
        )


def played_game(client):
    game_id = create_game(client, SIX, first_dealer=4, target=100, name="Sexta-feira")
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, MOON, moon="subtract")
    record_hand(client, game_id, SHORT, reserved=True)
    record_hand(client, game_id, MOON, moon="add")
    return game_id


def upload(client, content, filename="game.json"):
    """Post ``content`` (bytes) through the import form."""
    import io

    token = csrf_token(client, "/games/import")
    return client.post(
        "/games/import",
        data={"csrf_token": token, "document": (io.BytesIO(content), filename)},
        content_type="multipart/form-data",
    )


def test_export_follows_the_documented_format(client):
    game_id = played_game(client)

    response = client.get(f"/games/{game_id}/export.json")
    document = response.get_json()

    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert document["format"] == FORMAT and document["version"] == 2
    assert document["name"] == "Sexta-feira" and document["target"] == 100
    # Every registered house rule is written; these are the seeds' (a rule added since writes its default).
    assert document["rules"] == {**rules.SEEDS.facts(), "moon_points": 26, "moon_choice": "either",
                                 "passing": ["left", "right"], "cards_passed": 3, "jack_of_diamonds": 0}
    assert document["players"] == SIX and document["first_dealer"] == 4
    assert document["seat_changes"] == [] and document["left_after"] == {}
    assert document["hands"][1] == {
        "number": 2, "taken": [{"hearts": h, "marias": m} for h, m in MOON],
        "uncollected": {"hearts": 0, "marias": 0}, "moon": "subtract", "seating": SIX,
        "dealer": SIX[5], "pass": "right", "points": [0, -26, 0, 0, 0, 0], "tricks": None,
    }
    assert document["hands"][2]["uncollected"] == {"hearts": 3, "marias": 1}
    assert document["totals"] == dict(zip(SIX, [36, 10, 34, 47, 34, 31]))
    assert document["status"] == "open" and document["winners"] == []
    assert document["next"] == {"number": 5, "seating": SIX, "dealer": SIX[2], "leader": SIX[3], "pass": "left",
                                "cards_passed": 3, "cards_each": 17, "kitty": 2}


def test_in_every_hand_taken_plus_uncollected_make_a_full_hand(client):
    document = exported(client, played_game(client))

    for hand in document["hands"]:
        assert sum(t["hearts"] for t in hand["taken"]) + hand["uncollected"]["hearts"] == 26
        assert sum(t["marias"] for t in hand["taken"]) + hand["uncollected"]["marias"] == 2


def test_export_import_export_round_trip_is_identical(client):
    original = exported(client, played_game(client))

    response = upload(client, json.dumps(original).encode())
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])

    assert response.status_code == 302
    assert exported(client, new_id) == original


def test_import_recomputes_derived_fields_and_ignores_the_documents_values(client):
    document = exported(client, played_game(client))
    honest = json.loads(json.dumps(document))
    document["totals"] = dict.fromkeys(SIX, 0)
    document["hands"][0]["points"] = [99] * 6
    document["status"] = "over"
    document["next"] = None

    response = upload(client, json.dumps(document).encode())
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])

    assert exported(client, new_id) == honest


def test_finished_game_round_trips_with_its_winners(client):
    game_id = create_game(client, target=30)
    record_hand(client, game_id, SPREAD)
    record_hand(client, game_id, SPREAD)
    original = exported(client, game_id)

    new_id = int(upload(client, json.dumps(original).encode()).headers["Location"].rsplit("/", 1)[1])

    assert original["status"] == "over" and original["winners"] == [SIX[2], SIX[4], SIX[5]]
    assert exported(client, new_id) == original


def base_document():
    return {
        "format": FORMAT, "version": 1, "name": "Test", "target": 150,
        "players": list(SIX), "first_dealer": 0,
        "hands": [{
            "number": 1,
            "taken": [{"hearts": h, "marias": m} for h, m in SPREAD],
            "uncollected": {"hearts": 0, "marias": 0},
            "moon": None,
        }],
    }


def broken(change):
    document = base_document()
    change(document)
    return json.dumps(document).encode()


@pytest.mark.parametrize(("content", "message"), [
    (b"not json at all", "not valid JSON"),
    (broken(lambda d: d["players"].__setitem__(2, "Ca\x00io")), "control characters"),
    (broken(lambda d: d["players"].__setitem__(2, "Ana\u200b")), "Player 3: A name cannot hold invisible characters"),
    (broken(lambda d: d["players"].__setitem__(2, "\u0410na")), "Player 3: Ana is already at the table (seat 1)"),
    (broken(lambda d: d["players"].__setitem__(2, "\u0301")), "Player 3: A name needs a letter"),
    (broken(lambda d: d.update(name="Friday\u202enight")), "A name cannot hold invisible characters"),
    (broken(lambda d: d.update(name="Friday\u2029")), "control characters"),
    (broken(lambda d: d.update(name="Friday\nnight")), "control characters"),
    (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    (b"[1, 2, 3]", "must be a JSON object"),
    (b"[" * 100000, "not valid JSON"),
    (broken(lambda d: d.update(format="something/else")), "\"format\" must be"),
    (broken(lambda d: d.update(version=3)), "versions 1 and 2"),
    (broken(lambda d: d.update(target=0)), "\"target\" must be a whole number"),
    (broken(lambda d: d.update(target=True)), "\"target\" must be a whole number"),
    (broken(lambda d: d.update(target=150.0)), "\"target\" must be a whole number"),
    (broken(lambda d: d.pop("target")), "no \"target\" field"),
    (broken(lambda d: d.update(players=SIX[:5])), "6 to 11 players"),
    (broken(lambda d: d.update(players=["Ana", "ana", "C", "D", "E", "F"])), "already at the table"),
    (broken(lambda d: d.update(players=["Ana", " ", "C", "D", "E", "F"])), "Enter a name for seat 2"),
    (broken(lambda d: d.update(players=[1, 2, 3, 4, 5, 6])), "list of names"),
    (broken(lambda d: d.update(first_dealer=6)), "\"first_dealer\" must be a seat from 0 to 5"),
    (broken(lambda d: d.update(hands={})), "\"hands\" must be a list"),
    (broken(lambda d: d["hands"][0].update(number=2)), "numbered 1, 2, 3"),
    (broken(lambda d: d["hands"][0]["taken"].pop()), "one entry per player of the hand"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(hearts=-1)), "whole numbers"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(hearts="5")), "whole numbers"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(hearts=6)),
     "The hearts add up to 27, but a hand holds only 26 (R14)"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(hearts=4)), "taken plus uncollected must make 26"),
    (broken(lambda d: d["hands"][0].update(moon="add")), "Nobody took all 26 hearts and both Black Marias"),
    (broken(lambda d: d["hands"][0].update(moon="sideways")), "\"moon\" must be null"),
    (broken(lambda d: d["hands"][0].update(
        taken=[{"hearts": 26, "marias": 2}] + [{"hearts": 0, "marias": 0}] * 5)),
     "Ana took all 26 hearts and both Black Marias: they shot the moon! Choose how it scores (R15)"),
    (broken(lambda d: d.update(target=20, hands=d["hands"] * 2)), "numbered 1, 2, 3"),
    # Whole numbers only, where 1.0 == True == 1 in Python (docs/game-format.md).
    (broken(lambda d: d["hands"][0].update(number=1.0)), "numbered 1, 2, 3"),
    (broken(lambda d: d["hands"][0].update(number=True)), "numbered 1, 2, 3"),
    (broken(lambda d: d.update(version=2.0)), "versions 1 and 2"),
    (broken(lambda d: d.update(first_dealer=False)), "\"first_dealer\" must be a seat"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(marias=0.0)), "whole numbers"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(jacks=False)), "\"jacks\" in a \"taken\" entry must be"),
    (broken(lambda d: d["hands"][0]["uncollected"].update(jacks=0.0)), "\"jacks\" in a \"uncollected\" entry"),
    (broken(lambda d: d["hands"][0]["taken"][0].update(hearts=10**4000)), "whole numbers"),
    (broken(lambda d: d.update(version=2, played_on="2026-02-30")), "\"played_on\" must be the day"),
    (broken(lambda d: d.update(version=2, played_on="1899-12-31")),
     f"from 1900-01-01 to {date.today() + timedelta(days=1)}, tomorrow"),
    (broken(lambda d: d.update(version=2, played_on=20261201)), "like 2026-12-01"),
    (broken(lambda d: d.update(version=2, played_on="3026-01-01")), "\"played_on\" must be the day"),
])
def test_invalid_import_names_the_problem_and_creates_nothing(app, client, content, message):
    before = rows(app)

    response = upload(client, content)

    assert response.status_code == 400
    assert message in text_of(response)
    assert rows(app) == before


LONG_VALUE = "x" * 100_000


def seat_changed(changes):
    document = base_document()
    document.update(version=2, seat_changes=changes)
    return json.dumps(document).encode()


@pytest.mark.parametrize(("content", "message"), [
    (seat_changed([{"before_hand": 2, "leave": LONG_VALUE}]), "is not a player of this game"),
    (seat_changed([{"before_hand": 2, "join": LONG_VALUE, "at": 0, "start": 0}]), "Keep names to 40 characters"),
    (broken(lambda d: d.update(version=2, rules={"moon_choice": LONG_VALUE})), "cannot be"),
    (broken(lambda d: d.update(version=2, rules={LONG_VALUE: 1})), "cannot be"),
    (broken(lambda d: d["hands"][0].update(tricks={"first_leader": 0, "played": [{"cards": [LONG_VALUE]}]})),
     "is not a card"),
    (broken(lambda d: d["players"].__setitem__(0, LONG_VALUE)), "Keep names to 40 characters"),
    (broken(lambda d: d.update(name=LONG_VALUE)), "at most 80 characters"),
])
def test_a_refused_value_of_100_kb_is_quoted_in_a_line_and_nothing_is_stored(app, client, content, message):
    before = rows(app)

    response = upload(client, content)

    page = text_of(response)
    assert response.status_code == 400
    assert message in page
    assert "x" * 78 not in page
    assert len(response.get_data()) < 50_000
    assert rows(app) == before


def test_a_refused_value_is_quoted_up_to_77_characters_and_an_ellipsis():
    assert quoted("x" * 77) == "x" * 77
    assert quoted("x" * 78) == "x" * 77 + "…"
    assert quoted("Ana", most=2) == "An…"


def test_hands_after_the_game_was_over_are_refused(app, client):
    document = base_document()
    second = dict(document["hands"][0], number=2)
    document.update(target=18, hands=[document["hands"][0], second])

    response = upload(client, json.dumps(document).encode())

    assert response.status_code == 400
    assert "over after hand 1 (R16)" in text_of(response)
    assert rows(app) == (0, 0, 0)


def test_import_without_a_file_asks_for_one(client):
    token = csrf_token(client, "/games/import")

    response = client.post("/games/import", data={"csrf_token": token}, content_type="multipart/form-data")

    assert response.status_code == 400
    assert "Choose the game files (.json) or the season (.csv) to import." in text_of(response)


def test_command_line_export_prints_the_document(client, runner):
    game_id = played_game(client)

    result = runner.invoke(args=["export-game", str(game_id)])

    assert result.exit_code == 0
    assert json.loads(result.output) == exported(client, game_id)


def test_command_line_import_creates_the_game_and_prints_its_id(app, client, runner, tmp_path):
    document = exported(client, played_game(client))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    result = runner.invoke(args=["import-game", str(path)])

    new_id = int(result.output.strip())
    assert result.exit_code == 0
    assert exported(client, new_id) == document


def test_command_line_import_of_an_invalid_file_fails_and_creates_nothing(app, runner, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1}), encoding="utf-8")

    result = runner.invoke(args=["import-game", str(path)])

    assert result.exit_code != 0
    assert "no \"target\" field" in result.output
    assert rows(app) == (0, 0, 0)


def test_command_line_export_of_an_unknown_game_fails_clearly(runner):
    result = runner.invoke(args=["export-game", "42"])

    assert result.exit_code != 0
    assert "No game has id 42." in result.output


def test_an_upload_of_more_than_200_hands_is_refused_whole_and_quickly(app, client):
    document = base_document()
    document["target"] = 1_000_000
    document["hands"] = [dict(document["hands"][0], number=number) for number in range(1, 202)]
    before = rows(app)

    response = upload(client, json.dumps(document).encode())

    assert response.status_code == 400
    assert "A game to import may hold at most 200 hands; this one holds 201." in text_of(response)
    assert rows(app) == before


def test_a_multipart_post_with_hundreds_of_fields_is_refused_before_it_is_read(app, client):
    fields = {**game_form([f"P{seat}" for seat in range(300)]), "csrf_token": csrf_token(client, "/games/new")}

    response = client.post("/games/new", data=fields, content_type="multipart/form-data")

    assert response.status_code == 413
    assert "That was more than any form or game file of the scorekeeper holds" in text_of(response)
    assert rows(app) == (0, 0, 0)


def test_a_new_game_posted_with_thousands_of_names_is_refused_and_answers_a_small_page(app, client):
    fields = {**game_form([f"P{seat}" for seat in range(5000)]), "csrf_token": csrf_token(client, "/games/new")}

    response = client.post("/games/new", data=fields)

    assert response.status_code == 400
    assert "Cancellation Hearts needs 6 to 11 players (R1)." in text_of(response)
    assert len(response.get_data()) < 50_000
    assert rows(app) == (0, 0, 0)


def test_a_game_is_played_today_and_its_day_travels_with_it_and_a_document_without_one_is_played_on_import(
        app, client):
    game_id = played_game(client)
    document = exported(client, game_id)
    document["played_on"] = "2025-03-07"
    undated = base_document()  # version 1: no day

    dated = upload(client, json.dumps(document).encode())
    imported_today = upload(client, json.dumps(undated).encode())

    assert exported(client, game_id)["played_on"] == date.today().isoformat()
    assert dated.status_code == imported_today.status_code == 302
    imported = [int(response.headers["Location"].rsplit("/", 1)[1]) for response in (dated, imported_today)]
    assert [exported(client, game)["played_on"] for game in imported] == ["2025-03-07", date.today().isoformat()]


def test_the_games_list_shows_the_most_recently_played_first_a_page_at_a_time(app, client):
    days = [date(2026, 11, day) for day in (3, 1, 2)] * 9  # 27 games, played in no order of their making
    for number, day in enumerate(days):
        document = base_document()
        document.update(version=2, name=f"G{number:02d}", played_on=day.isoformat())
        assert upload(client, json.dumps(document).encode()).status_code == 302
    client.get("/")  # the flashed message is read

    first = text_of(client.get("/"))
    older = re.search(r'href="/\?before=(\d+)"', client.get("/").get_data(as_text=True)).group(1)
    second = text_of(client.get(f"/?before={older}"))

    shown = re.findall(r"\bG(\d\d)\b", first) + re.findall(r"\bG(\d\d)\b", second)
    expected = sorted(range(27), key=lambda number: (days[number], number), reverse=True)
    assert [int(number) for number in shown] == expected
