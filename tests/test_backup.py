"""Backup and restore of every game, from code and from the command line."""

import json
import os
import random

import pytest
from sqlalchemy import create_engine, event, text

from scorekeeper import create_app, service
from scorekeeper.db.models import Game, Hand, Person, PersonChange, Player, Taking, Trick, TrickLog, db
from scorekeeper.documents import backup_commands
from scorekeeper.documents.backup import DocumentError, backup_document, restore_document, restore_text
from scorekeeper.documents.game import export_game

from .conftest import close, fresh_database
from .tabletop import SIX, create_game, hidden_fields, make_secretary, random_game_document, store_games

GAMES = 300
SEED = 20240601


@pytest.fixture
def app(app):
    """The conftest app, with the backup commands added as the factory will add them."""
    backup_commands.init_app(app)
    return app


@pytest.fixture
def fresh_app(tmp_path, migrated_template):
    """A second app on a database of its own, at the latest migration and holding nothing, to restore into."""
    folder = tmp_path / "fresh"
    folder.mkdir()
    with fresh_database(folder, migrated_template) as url:
        fresh = create_app({"TESTING": True, "SECRET_KEY": "test secret key", "SQLALCHEMY_DATABASE_URI": url})
        yield fresh
        close(fresh)


def documents_of(backup):
    """A backup's games as their own documents, without what the database kept of them beside."""
    return [{key: value for key, value in game.items() if key != "stored"} for game in backup["games"]]


def rows(app):
    """How many rows each table holds."""
    with app.app_context():
        return {
            model.__name__: db.session.execute(db.select(db.func.count()).select_from(model)).scalar()
            for model in (Game, Player, Person, Hand, Taking, TrickLog, Trick)
        }


# --- Random but valid games ---------------------------------------------------


def store_random_games(app, count, seed=SEED, fewest_hands=0):
    """Store ``count`` random games in one go; return their documents."""
    rng = random.Random(seed)
    documents = [random_game_document(rng, f"Game {number} à la table", fewest_hands) for number in range(1, count + 1)]
    store_games(app, documents)
    return documents


def recorded_facts(game):
    """A game's document without the fields derived from its facts, as generated ones are written."""
    # Generated games are version 1 documents: no house rules, no seat changes, nothing to say of them, and
    # no day (imported, they were played on the day of the import).
    derived = ("version", "rules", "seat_changes", "played_on", "totals", "status", "winners", "left_after", "next",
               "stored")
    facts = {key: value for key, value in game.items() if key not in derived}
    facts["hands"] = [
        {key: value for key, value in hand.items() if key not in ("dealer", "pass", "points", "seating")}
        for hand in game["hands"]
    ]
    for hand in facts["hands"]:
        if hand.get("tricks") is not None:
            played = [{"cards": trick["cards"], "confirmed": trick["confirmed"]} for trick in hand["tricks"]["played"]]
            hand["tricks"] = dict(hand["tricks"], played=played)
    return facts


# --- Backup and restore ---------------------------------------------------------


def test_backup_restore_backup_round_trips_hundreds_of_games_identically(app, fresh_app):
    written = store_random_games(app, GAMES)
    with app.app_context():
        first = backup_document()
    text = json.dumps(first, ensure_ascii=False)

    with fresh_app.app_context():
        restored = restore_text(text.encode())
        second = backup_document()

    games = first["games"]
    assert len(restored) == len(games) == GAMES
    assert second == first  # into an empty database, even the ids come back as they were
    assert [recorded_facts(game) for game in games] == [recorded_facts(document) for document in written]
    # The generated games cover every case the backup must carry.
    hands = [hand for game in games for hand in game["hands"]]
    assert {game["status"] for game in games} == {"open", "over"}
    assert {hand["moon"] for hand in hands} == {None, "subtract", "add"}
    assert any(hand["uncollected"]["hearts"] and not hand["moon"] for hand in hands)
    assert any(hand["tricks"] and hand["tricks"]["kitty"] for hand in hands)
    assert {len(game["players"]) for game in games} == set(range(6, 12))
    print(f"backup: {len(games)} games round-tripped")


def test_backup_lists_each_games_document_oldest_first(app):
    written = store_random_games(app, 3)

    with app.app_context():
        document = backup_document()
        exported = [export_game(game) for game in db.session.execute(db.select(Game).order_by(Game.id)).scalars()]

    assert document["format"] == "scorekeeper/backup" and document["version"] == 2
    assert [game["name"] for game in document["games"]] == [game["name"] for game in written]
    assert documents_of(document) == exported
    assert [game["stored"]["id"] for game in document["games"]] == [1, 2, 3]


def test_a_backup_reads_one_moment_even_while_a_table_removes_a_hand(app):
    store_random_games(app, 3, seed=7, fewest_hands=2)
    with app.app_context():
        before = backup_document()
        removed = []
        other = create_engine(db.engine.url)  # another device's connection, on SQLite or PostgreSQL

        def remove_a_hand_meanwhile(connection, cursor, statement, *args):
            """Another device removes game 1's last hand after its hands, but before their takings, were read."""
            if "FROM taking" in statement and not removed:
                last = len(before["games"][0]["hands"])
                with other.begin() as writer:
                    game_id = writer.execute(text("SELECT min(id) FROM game")).scalar()
                    hand = text("SELECT id FROM hand WHERE game_id = :game AND number = :number")
                    hand_id = writer.execute(hand, {"game": game_id, "number": last}).scalar()
                    # The hand and what hangs on it, as the app's removal deletes them.
                    for delete in ("DELETE FROM trick WHERE log_id IN (SELECT id FROM trick_log WHERE hand_id = :hand)",
                                   "DELETE FROM taking WHERE hand_id = :hand",
                                   "DELETE FROM trick_log WHERE hand_id = :hand",
                                   "DELETE FROM hand WHERE id = :hand"):
                        writer.execute(text(delete), {"hand": hand_id})
                removed.append(True)

        event.listen(db.engine, "before_cursor_execute", remove_a_hand_meanwhile)
        try:
            during = backup_document()
        finally:
            event.remove(db.engine, "before_cursor_execute", remove_a_hand_meanwhile)
        after = backup_document()
        other.dispose()

    assert removed
    assert during == before
    assert after["games"][0]["hands"] == before["games"][0]["hands"][:-1]


def test_backup_of_an_empty_database_has_no_games_and_restores_nothing(app, fresh_app):
    with app.app_context():
        document = backup_document()

    with fresh_app.app_context():
        restored = restore_document(document)

    assert document == {"format": "scorekeeper/backup", "version": 2, "games": [], "people": [],
                        "trail": {"people": [], "games": []}, "nights": []}
    assert restored == []
    assert rows(fresh_app)["Game"] == 0


def test_restore_adds_new_games_beside_the_old_and_never_overwrites(app):
    store_random_games(app, 4)
    with app.app_context():
        before = backup_document()

        restored = restore_document(json.loads(json.dumps(before)))
        new_ids = [game.id for game in restored]
        after = backup_document()

    assert rows(app)["Game"] == 8
    assert new_ids == [5, 6, 7, 8]
    assert after["games"][:4] == before["games"]
    assert documents_of(after)[4:] == documents_of(before)


def valid_games(app):
    """A backup document of three valid games with a hand or more each, as plain JSON data."""
    store_random_games(app, 3, seed=7, fewest_hands=1)
    with app.app_context():
        return json.loads(json.dumps(backup_document()))


@pytest.fixture(scope="module")
def valid_backup(module_database_uri):
    """The text of ``valid_games``'s backup, made once for the module's tests that spoil a copy of it."""
    made = create_app({"TESTING": True, "SECRET_KEY": "test secret key",
                       "SQLALCHEMY_DATABASE_URI": module_database_uri})
    try:
        return json.dumps(valid_games(made))
    finally:
        close(made)


SECOND = 'Game 2 of 3 ("Game 2 à la table")'
THIRD = 'Game 3 of 3 ("Game 3 à la table")'
MOMENT = "2026-11-27T19:02:11.123456"
RECORDED = {"taken": [[4, 0], [4, 1], [4, 0], [5, 0], [5, 1], [4, 0]], "moon": None}


def entry(number, action, before=None, after=None, undoes=None, at=MOMENT):
    """An entry of a game's trail as a backup writes it, about hand 1."""
    return {"id": number, "at": at, "action": action, "hand_number": 1, "hand_key": 1, "after_key": None,
            "undoes": undoes, "before": before, "after": after}


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="scorekeeper/something"), 'A backup\'s "format" must be "scorekeeper/backup".'),
    (lambda d: d.update(version=3), "versions 1 and 2 of the backup format only"),
    (lambda d: d.update(version=True), "versions 1 and 2 of the backup format only"),  # True == 1 in Python
    (lambda d: d.update(version=1.0), "versions 1 and 2 of the backup format only"),
    (lambda d: d["games"][1]["hands"][0].update(number=1.0), f"{SECOND}: Hands must be numbered 1, 2, 3"),
    (lambda d: d["games"][1]["hands"][0].update(number=True), f"{SECOND}: Hands must be numbered 1, 2, 3"),
    (lambda d: d["games"][1].update(rules={"moon_choice": "x" * 100_000}),
     f'{SECOND}: The house rule "moon_choice" cannot be "' + "x" * 76 + "…."),
    (lambda d: d.pop("games"), 'A backup must have a "games" list.'),
    (lambda d: d.update(nights={"1": {}}), 'A backup\'s "nights" must be a list.'),
    (lambda d: d.update(nights=[{"name": "Night", "played_on": "2026-13-01", "target": 150, "deals": None,
                                 "players": [], "rounds": []}]), 'Night 1 of "nights" needs a "name"'),
    (lambda d: d.update(nights=[{"name": "Night", "played_on": "2026-11-27", "target": 150, "deals": None,
                                 "made_at": MOMENT, "players": [{"person": 10**6, "from_round": 1,
                                                                 "left_after": None, "checked_in_at": MOMENT}],
                                 "rounds": []}]), 'Night 1 of "nights": each of its "players" is a person'),
    (lambda d: d.update(nights=[{"name": "Night", "played_on": "2026-11-27", "target": 150, "deals": 0,
                                 "players": [], "rounds": []}]), 'Night 1 of "nights" needs a "name"'),
    (lambda d: d.update(nights=[{"name": "Night", "played_on": "2026-11-27", "target": 150, "deals": None,
                                 "made_at": MOMENT, "players": [], "rounds": [
                                     {"number": 1, "seed": 5, "repeated": 0, "drawn_at": MOMENT, "closed_at": None,
                                      "tables": [{"number": 1, "game": 10**6}]}]}]),
     'Night 1 of "nights", round 1: its "tables" are numbered from 1 in order'),
    (lambda d: d.update(games={"1": d["games"][0]}), 'A backup must have a "games" list.'),
    (lambda d: d["games"][1].update(target=0), f'{SECOND}: The "target" must be a whole number'),
    (lambda d: d["games"][2]["players"].pop(), f"{THIRD}: A game has 6 to 11 players"),
    (lambda d: d["games"][1]["hands"][0]["taken"][0].update(hearts=27),
     f"{SECOND}: Hand 1: Gus cannot have taken 27 hearts: a hand holds 26 (R14)"),
    (lambda d: d["games"][2].update(name="", format="elsewhere"), 'Game 3 of 3 (no name): The document\'s "format"'),
    (lambda d: d["games"].insert(1, [1, 2, 3]), "Game 2 of 4 (no name): The document must be a JSON object"),
    (lambda d: d["games"][0].update(name="x" * 81), 'Game 1 of 3 ("' + "x" * 40 + '…"): The game\'s "name"'),
    (lambda d: d.update(people={"Ana": ["ana"]}), 'A backup\'s "people" must be a list.'),
    (lambda d: d.update(version=1, people=[{"name": "Ana", "keys": ["Ana"]}]), 'Person 1 of "people" needs a "name"'),
    (lambda d: d.update(version=1, people=[{"name": "Ana\n", "keys": ["ana"]}]),
     'Person 1 of "people" needs a "name"'),
    (lambda d: d.update(version=1, people=[{"name": "Ana", "keys": []}]), 'Person 1 of "people" needs a "name"'),
    (lambda d: d.update(version=1, people=[{"name": "Ana", "keys": ["ana", "anna"]},
                                           {"name": "Anna", "keys": ["anna"]}]),
     'Person 2 of "people" shares a name with a person before them.'),
    (lambda d: d["people"].__setitem__(0, {**d["people"][0], "keys": ["Gus"]}), 'Person 1 of "people" needs a "name"'),
    (lambda d: d["people"].__setitem__(0, {**d["people"][0], "id": 0}), 'Person 1 of "people" needs an "id"'),
    (lambda d: d["people"].__setitem__(1, {**d["people"][1], "id": d["people"][0]["id"]}),
     'Person 2 of "people" has the id of a person before them.'),
    (lambda d: d["people"].__setitem__(0, {**d["people"][0], "keys": [], "merged_into": d["people"][0]["id"]}),
     'Person 1 of "people" is merged into nobody the backup lists.'),
    (lambda d: d["people"].__setitem__(1, {**d["people"][1], "merged_into": d["people"][0]["id"]}),
     'Person 2 of "people" was merged into another, so no name finds them'),
    (lambda d: d["games"][1]["stored"].update(revision=2**31 - 1), f'{SECOND}: "stored" needs the game\'s "id"'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "remove", before={**RECORDED, "tricks": {
        "first_leader": 0, "kitty": None, "tricks": [["2♣ 2♣ 3♣ 4♣ 5♣ 6♣", False]] * 2}})]),
     f'{SECOND}: "stored": trail entry 1: a hand\'s "tricks" must be a trick log'),
    (lambda d: d["games"][1]["stored"].update(id=d["games"][0]["stored"]["id"]),
     f'{SECOND}: "stored": the game\'s "id" is another game\'s.'),
    (lambda d: d["games"][1]["stored"].update(created_at="yesterday"), f'{SECOND}: "stored": "created_at" must be a'),
    (lambda d: d["games"][1]["stored"].update(voided_at="2026-11-27T19:02:11"),
     f'{SECOND}: "stored": a game left out of the season has "voided_at" and "void_reason"'),
    (lambda d: d["games"][1]["stored"].update(scorer_key="a key with spaces"), f'{SECOND}: "stored": "scorer_key"'),
    (lambda d: d["games"][1]["stored"]["players"].pop(), f'{SECOND}: "stored": "players" must give each player'),
    (lambda d: d["games"][1]["stored"]["players"][0].update(person=10_000),
     f'{SECOND}: "stored": the player "Gus" is a person "people" does not list'),
    (lambda d: d["games"][1]["stored"]["players"][0].update(id=d["games"][0]["stored"]["players"][0]["id"]),
     f'{SECOND}: "stored": the player "Gus" has another player\'s id.'),
    (lambda d: d["games"][1]["stored"]["hands"][0].update(key=0), f'{SECOND}: "stored": hand 1 needs a "key"'),
    (lambda d: d["games"][1]["stored"].update(last_hand_key=0), f'{SECOND}: "stored": hand 1 needs a "key"'),
    (lambda d: d["games"][1]["stored"].update(open_hand={"log": 99, "first_leader": 9, "kitty": None, "played": []}),
     f'{SECOND}: Hand 2: the tricks\' "first_leader" must be a seat.'),
    (lambda d: d["games"][1]["stored"].update(trail=[{"id": 1, "action": "undo", "undoes": 7}]),
     f'{SECOND}: "stored": trail entry 1 needs a "hand_number"'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "correct", before={"taken": [[27, 0]] * 6})]),
     f'{SECOND}: "stored": trail entry 1: a hand\'s facts need "taken"'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "record", after=RECORDED),
                                                     entry(2, "undo", undoes=3)]),
     f'{SECOND}: "stored": trail entry 2: an undo, and only an undo, names the entry'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "join", after={"id": 4, "kind": "join"})]),
     f'{SECOND}: "stored": trail entry 1: a seat change\'s facts need'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "rules", before={"moon_points": 26}, after={})]),
     f'{SECOND}: "stored": trail entry 1: a house rules entry has the house rules before and after it'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "trick", after={"log": 1, "trick": 1, "cards": "X"})]),
     f'{SECOND}: "stored": trail entry 1: a trick\'s facts need'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "kitty", after={"log": 1, "kitty": None})]),
     f'{SECOND}: "stored": trail entry 1: a kitty\'s entry has the kitty before and after it'),
    (lambda d: d["games"][1]["stored"].update(trail=[entry(1, "record", after=RECORDED, at="noon")]),
     f'{SECOND}: "stored": trail entry 1: "at" must be a moment'),
    (lambda d: d.update(trail=[]), 'A backup\'s "trail" must be an object'),
    (lambda d: d.update(trail={"games": [{"id": 1, "action": "void", "game": 10_000, "reason": "x"}]}),
     'Entry 1 of the club\'s trail of games names no game of the backup'),
    (lambda d: d.update(trail={"games": [{"id": 1, "action": "void", "game": 1, "reason": "two\nlines"}]}),
     'Entry 1 of the club\'s trail of games: a game left out has its "reason"'),
    (lambda d: d.update(trail={"games": [{"id": 1, "action": "date", "game": 1, "facts": {"before": "2026-01-01"}}]}),
     'Entry 1 of the club\'s trail of games: a date\'s entry has "facts" with the days'),
    (lambda d: d.update(trail={"games": [{"id": 1, "action": "count", "game": 1, "at": MOMENT, "device": "x" * 41}]}),
     'Entry 1 of the club\'s trail of games: "device" must be a device\'s name'),
    (lambda d: d.update(trail={"people": [{"id": 1, "action": "merge", "person": 10_000}]}),
     'Entry 1 of the club\'s trail of people names a person "people" does not list.'),
    (lambda d: d.update(trail={"people": [{"id": 1, "action": "rename", "person": d["people"][0]["id"],
                                           "facts": {"before": "A", "after": "B"}}]}),
     'Entry 1 of the club\'s trail of people: its "facts" are not those of a rename.'),
    (lambda d: d.update(trail={"people": [{"id": 1, "action": "undo", "person": d["people"][0]["id"], "undoes": 1}]}),
     'Entry 1 of the club\'s trail of people: an undo, and only an undo, names the older merge or rename'),
])
def test_a_backup_with_any_problem_restores_nothing_and_names_it(valid_backup, fresh_app, change, message):
    document = json.loads(valid_backup)
    change(document)
    before = rows(fresh_app)

    with fresh_app.app_context():
        with pytest.raises(DocumentError) as raised:
            restore_document(document)
        pending = list(db.session.new)

    assert message in str(raised.value)
    assert pending == []
    assert rows(fresh_app) == before


def test_a_single_games_document_is_not_taken_for_a_backup(app, fresh_app):
    game = valid_games(app)["games"][0]

    with fresh_app.app_context(), pytest.raises(DocumentError) as raised:
        restore_document(game)

    assert "one game's document, not a backup; import it with import-game" in str(raised.value)
    assert rows(fresh_app)["Game"] == 0


@pytest.mark.parametrize(("text", "message"), [
    (b"not json at all", "not valid JSON"),
    (b'{"format": "scorekeeper/backup", "version": 1, "games": [', "not valid JSON"),
    (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    (b"[" * 100000, "not valid JSON"),
    (b"[]", "must be a JSON object"),
])
def test_a_file_that_is_not_a_backup_restores_nothing(fresh_app, text, message):
    with fresh_app.app_context(), pytest.raises(DocumentError) as raised:
        restore_text(text)

    assert message in str(raised.value)
    assert rows(fresh_app)["Game"] == 0


# --- The commands -----------------------------------------------------------------


def test_backup_command_writes_the_file_and_restore_command_reads_it(app, runner, fresh_app, tmp_path):
    store_random_games(app, 5)
    path = tmp_path / "games-backup.json"

    saved = runner.invoke(args=["backup", str(path)])
    restored = fresh_app.test_cli_runner().invoke(args=["restore", str(path)])

    assert saved.exit_code == 0, saved.output
    assert saved.output == f"Saved 5 games to {path}.\n"
    assert restored.exit_code == 0, restored.output
    assert restored.output == (f"Restored 5 games, {rows(app)['Person']} people, 0 games left out of the season, "
                               "0 imports waiting for the club's secretary, 0 club nights, "
                               "0 entries of the club's trail.\n")
    with app.app_context():
        original = backup_document()
    with fresh_app.app_context():
        assert backup_document() == original
    assert json.loads(path.read_text(encoding="utf-8")) == original


def test_backup_command_leaves_no_partial_file_behind(app, runner, tmp_path):
    store_random_games(app, 2)
    folder = tmp_path / "backups"
    folder.mkdir()
    path = folder / "backup.json"
    path.write_text("an older backup", encoding="utf-8")

    result = runner.invoke(args=["backup", "--force", str(path)])

    assert result.exit_code == 0, result.output
    assert os.listdir(folder) == ["backup.json"]
    assert len(json.loads(path.read_text(encoding="utf-8"))["games"]) == 2


def test_a_backup_that_fails_while_writing_keeps_the_old_file_and_no_partial_one(app, runner, tmp_path, monkeypatch):
    store_random_games(app, 2)
    folder = tmp_path / "backups"
    folder.mkdir()
    path = folder / "backup.json"
    path.write_text("an older backup", encoding="utf-8")

    def disk_full(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    result = runner.invoke(args=["backup", "--force", str(path)])

    assert result.exit_code != 0
    assert "Could not write" in result.output and "No space left on device" in result.output
    assert os.listdir(folder) == ["backup.json"]
    assert path.read_text(encoding="utf-8") == "an older backup"


def test_backup_command_into_a_missing_folder_fails_clearly(app, runner, tmp_path):
    result = runner.invoke(args=["backup", str(tmp_path / "nowhere" / "backup.json")])

    assert result.exit_code != 0
    assert "Could not write" in result.output and "Nothing was saved." in result.output


def test_backup_command_to_standard_output_prints_only_the_document(app, runner):
    store_random_games(app, 3)

    result = runner.invoke(args=["backup", "-"])

    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["games"]) == 3
    assert result.stderr == "Saved 3 games.\n"


def test_restore_command_reads_standard_input(app, runner, fresh_app):
    store_random_games(app, 1)
    text = runner.invoke(args=["backup", "-"]).stdout

    result = fresh_app.test_cli_runner().invoke(args=["restore", "-"], input=text)

    assert result.exit_code == 0, result.output
    assert result.output == (f"Restored 1 game, {rows(fresh_app)['Person']} people, 0 games left out of the season, "
                             "0 imports waiting for the club's secretary, 0 club nights, "
                             "0 entries of the club's trail.\n")


def test_restore_command_with_one_invalid_game_fails_and_restores_nothing(app, fresh_app, tmp_path):
    document = valid_games(app)
    document["games"][1]["hands"][0]["moon"] = "sideways"
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    result = fresh_app.test_cli_runner().invoke(args=["restore", str(path)])

    assert result.exit_code != 0
    assert "Game 2 of 3 (\"Game 2 à la table\"): Hand 1: \"moon\" must be null" in result.output
    assert "Nothing was restored." in result.output
    assert rows(fresh_app)["Game"] == 0


def test_restore_command_of_a_file_that_is_not_json_fails_and_restores_nothing(fresh_app, tmp_path):
    path = tmp_path / "backup.json"
    path.write_bytes(b"<html>not a backup</html>")

    result = fresh_app.test_cli_runner().invoke(args=["restore", str(path)])

    assert result.exit_code != 0
    assert "not valid JSON" in result.output
    assert rows(fresh_app)["Game"] == 0


# --- People ---------------------------------------------------------------------------


def merged_club(app):
    """Two games, "Ana" in one and "Anna" in the other, merged into one person; and "Bo" renamed "Robert"
    (by the club's secretary)."""
    client = make_secretary(app, app.test_client())
    create_game(client, SIX)
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    with app.app_context():
        people = dict(db.session.execute(db.select(Person.name, Person.id)).all())
    page = f"/players/{people['Ana']}"
    assert client.post(f"{page}/merge", data={**hidden_fields(client, page),
                                              "other": str(people["Anna"])}).status_code == 302
    page = f"/players/{people['Bo']}"
    assert client.post(f"{page}/rename", data={**hidden_fields(client, page), "name": "Robert"}).status_code == 302
    return client


def test_a_backup_keeps_merged_and_renamed_people_and_a_restore_links_their_games_again(app, fresh_app):
    merged_club(app)
    with app.app_context():
        document = json.loads(json.dumps(backup_document()))

    with fresh_app.app_context():
        restore_document(document)
    client = fresh_app.test_client()
    create_game(client, ["robert", "Zoe", "Yan", "Xu", "Wes", "Val"], name="After the restore")
    season = {player["name"]: player["games"] for player in client.get("/stats.json").get_json()["players"]}

    people = {person["name"]: person for person in document["people"]}
    assert people["Ana"]["keys"] == ["ana", "anna"] and people["Robert"]["keys"] == ["bo", "robert"]
    assert people["Anna"] == {"id": people["Anna"]["id"], "name": "Anna", "keys": [],
                              "merged_into": people["Ana"]["id"]}
    assert season["Ana"] == 2 and "Anna" not in season
    assert season["Robert"] == 2  # the game restored as "Bo" and the new one, typed "robert": no respelling


def test_a_backups_people_already_known_here_keep_who_they_are(app, fresh_app):
    merged_club(app)
    with app.app_context():
        document = json.loads(json.dumps(backup_document()))
    local = fresh_app.test_client()
    create_game(local, ["Anna", "Cleo", "Dee", "Eli", "Fay", "Gil"])
    create_game(local, ["Ana", "Hal", "Ivo", "Jun", "Kai", "Lu"])

    with fresh_app.app_context():
        restore_document(document)
    season = {player["name"]: player["games"] for player in local.get("/stats.json").get_json()["players"]}

    assert season["Ana"] == 2 and season["Anna"] == 2  # two people here: merged by hand, if the club wishes


def test_a_version_1_backup_still_links_its_people_known_by_several_names(app, fresh_app):
    merged_club(app)
    with app.app_context():
        games = documents_of(backup_document())
    people = [{"name": "Ana", "keys": ["ana", "anna"]}, {"name": "Robert", "keys": ["bo", "robert"]}]

    with fresh_app.app_context():
        restore_document({"format": "scorekeeper/backup", "version": 1, "games": games, "people": people})
    season = {player["name"]: player["games"] for player in fresh_app.test_client().get("/stats.json").get_json()[
        "players"]}

    assert season["Ana"] == 2 and "Anna" not in season and season["Robert"] == 1


def test_a_restore_where_some_people_are_known_already_leaves_their_trail_out_and_says_so(app, fresh_app, tmp_path):
    merged_club(app)
    path = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    create_game(fresh_app.test_client(), ["Ana", "Cleo", "Dee", "Eli", "Fay", "Gil"])

    result = fresh_app.test_cli_runner().invoke(args=["restore", str(path)])

    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == (
        "Not restored: 2 entries of the club's trail of people (renames, merges), as some of the backup's people "
        "were known here already; their games are linked to them by name.")
    with fresh_app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(PersonChange)).scalar() == 0
        assert service.figures.check() == []


# --- A backup never destroys one -----------------------------------------------------------


def test_backup_refuses_a_file_that_exists_in_one_line_and_writes_nothing(app, runner, tmp_path):
    store_random_games(app, 2)
    (tmp_path / "backups").mkdir()
    path = tmp_path / "backups" / "backup.json"
    path.write_text("an older backup", encoding="utf-8")

    refused = runner.invoke(args=["backup", str(path)])
    kept = os.listdir(path.parent), path.read_text(encoding="utf-8")
    forced = runner.invoke(args=["backup", "--force", str(path)])

    assert refused.exit_code == 2
    assert refused.output == (f"Error: {path} exists already; nothing was saved. Name a new file, or add --force "
                              "to replace it.\n")
    assert kept == (["backup.json"], "an older backup")
    assert forced.exit_code == 0, forced.output
    assert len(json.loads(path.read_text(encoding="utf-8"))["games"]) == 2


def test_backup_refuses_a_file_made_while_it_was_writing_and_leaves_it_as_it_was(app, runner, tmp_path, monkeypatch):
    store_random_games(app, 2)
    (tmp_path / "backups").mkdir()
    path = tmp_path / "backups" / "backup.json"
    fsync = os.fsync

    def another_backup_meanwhile(descriptor):
        fsync(descriptor)
        path.write_text("another backup, made meanwhile", encoding="utf-8")

    monkeypatch.setattr(os, "fsync", another_backup_meanwhile)
    result = runner.invoke(args=["backup", str(path)])

    assert result.exit_code == 2, result.output
    assert "exists already; nothing was saved" in result.output
    assert os.listdir(path.parent) == ["backup.json"]
    assert path.read_text(encoding="utf-8") == "another backup, made meanwhile"
