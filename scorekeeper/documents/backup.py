"""Backup and restore of the whole club: one JSON document holding every game and every fact kept of it.

The format is documented in docs/backup-format.md. A backup (version 2)
lists each game's document (docs/game-format.md), oldest game first, each
with what the database keeps of it beside its document (``stored``: its
hands' keys, whether it is left out of the season, its trail...); then the
club's people and the club's trail. A restore checks everything before it
adds anything, then adds it all in one transaction (``service.restore_club``):
all or nothing. Version 1 backups (games and people by name) are read too.

Beside it: ``backup_trail`` reads a game's trail, ``backup_values`` the plain values every part checks, and
``backup_commands`` holds ``flask backup`` and ``flask restore``.
"""

import json
import re
from contextlib import contextmanager

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import rules, service
from ..db.models import (
    DEVICE_NAME_LENGTH,
    NAME_LENGTH,
    VOID_REASON_LENGTH,
    Game,
    GameChange,
    Hand,
    Person,
    PersonChange,
    PersonName,
    TrickLog,
    db,
)
from ..service import days
from ..words.explain import describe, quoted
from .backup_nights import nights_document, read_nights
from .backup_trail import read_trail
from .backup_values import MOST_WRITES, are_ids, is_id, is_key, is_shown_name, is_text, read_time, time_text
from .game import FORMAT as GAME_FORMAT
from .game import DocumentError, export_game, read_game, read_tricks, whole

FORMAT = "scorekeeper/backup"
VERSION = 2  # written; version 1 (the games' documents and the people known by several names) is read too
READABLE_VERSIONS = (1, 2)
NAME_SHOWN = 40  # characters of a game's name quoted in an error message
SCORER_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")  # as ``new_scorer_key`` makes them: a link's text, as typed


# --- Writing a backup --------------------------------------------------------------------------------


def backup_document():
    """The whole club as one JSON-ready document, oldest game first, as the database stood at one moment."""
    with _one_moment():
        games = db.session.execute(
            db.select(Game)
            .order_by(Game.id)  # ids grow with each new game, so this is creation order
            .options(
                # Loaded up front: otherwise every game costs several queries.
                selectinload(Game.players),
                selectinload(Game.hands).selectinload(Hand.takings),
                selectinload(Game.hands).selectinload(Hand.trick_log).selectinload(TrickLog.tricks),
                selectinload(Game.trick_logs).selectinload(TrickLog.tricks),
                selectinload(Game.seat_changes),
                selectinload(Game.changes),
            )
        ).scalars()
        games = [{**export_game(game), "stored": _stored(game)} for game in games]
        return {"format": FORMAT, "version": VERSION, "games": games, "people": _people(), "trail": _club_trail(),
                "nights": nights_document()}


def _stored(game):
    """What the database keeps of a game beside its document, ids as this database gave them."""
    log = game.trick_log
    return {
        "id": game.id, "scorer_key": game.scorer_key, "created_at": time_text(game.created_at),
        "revision": game.revision, "voided_at": time_text(game.voided_at), "void_reason": game.void_reason,
        "last_hand_key": game.last_hand_key,
        "waiting": game.waiting, "import": game.import_id,
        "players": [{"id": player.id, "person": player.person_id} for player in game.players],
        "seat_changes": [change.id for change in game.seat_changes],
        "hands": [{"key": hand.key, "recorded_at": time_text(hand.recorded_at),
                   "log": None if game.log_of(hand) is None else game.log_of(hand).id} for hand in game.hands],
        "open_hand": None if log is None else {
            "log": log.id, "first_leader": log.first_leader, "kitty": [str(card) for card in log.kitty_cards] or None,
            "played": [{"cards": trick.cards.split(), "confirmed": trick.confirmed} for trick in log.tricks]},
        "trail": [{"id": change.id, "at": time_text(change.at), "action": change.action,
                   "hand_number": change.hand_number, "hand_key": change.hand_key, "after_key": change.after_key,
                   "undoes": change.undoes_id, "before": _facts(change.before), "after": _facts(change.after)}
                  for change in sorted(game.changes, key=lambda change: change.id)],
    }


def _people():
    """Every person the club knows, merged ones too, with the spellings that find them, oldest first."""
    keys = {}
    for person, key in db.session.execute(select(PersonName.person_id, PersonName.key).order_by(PersonName.key)):
        keys.setdefault(person, []).append(key)
    return [{"id": person.id, "name": person.name, "keys": keys.get(person.id, []),
             "merged_into": person.merged_into_id}
            for person in db.session.execute(select(Person).order_by(Person.id)).scalars()]


def _club_trail():
    """The club's trail: its people's (renames, merges, their undos) and its games' (left out, counted again,
    dated), each oldest first."""
    people = db.session.execute(select(PersonChange).order_by(PersonChange.id)).scalars()
    games = db.session.execute(select(GameChange).order_by(GameChange.id)).scalars()
    return {
        "people": [{"id": entry.id, "at": time_text(entry.at), "action": entry.action, "person": entry.person_id,
                    "other": entry.other_id, "undoes": entry.undoes_id, "facts": _facts(entry.facts),
                    "device": entry.device} for entry in people],
        "games": [{"id": entry.id, "at": time_text(entry.at), "action": entry.action, "game": entry.game_id,
                   "reason": entry.reason, "facts": _facts(entry.facts), "device": entry.device} for entry in games],
    }


def _facts(text):
    return None if text is None else json.loads(text)


@contextmanager
def _one_moment():
    """Read in one snapshot, so that a hand recorded or removed meanwhile is wholly in or out.

    The games are read with several SELECTs while a table may be playing.
    Python's sqlite3 runs each SELECT on its own unless a transaction is
    open, so one is begun (in WAL mode the open read blocks no writer);
    PostgreSQL's default isolation gives each statement its own snapshot, so
    the transaction is REPEATABLE READ. A session with changes of its own is
    left alone: its transaction is the caller's.
    """
    session = db.session
    if session.new or session.dirty or session.deleted:
        yield
        return
    session.rollback()  # nothing to lose: begin the snapshot afresh
    if session.get_bind().dialect.name == "sqlite":
        session.connection().exec_driver_sql("BEGIN")
    else:
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield
    finally:
        session.rollback()  # nothing was written: this only ends the snapshot


# --- Reading a backup --------------------------------------------------------------------------------


def parse_backup(text):
    """Parse backup text (bytes or str) into a document, or raise ``DocumentError``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DocumentError("The file is not UTF-8 text, so it is not a scorekeeper backup.") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DocumentError("The file is not valid JSON, so it is not a scorekeeper backup.") from None


def restore_document(document):
    """Add every game of a backup document as new games, with what the backup holds of the club, in one
    transaction; return the new games. See ``restore_whole``."""
    return restore_whole(document).games


def restore_whole(document):
    """Restore a backup document whole, in one transaction; return what was restored (``service.Restored``).

    Everything is checked before anything is added; the first problem raises
    ``DocumentError`` naming it (and its game), and then nothing is added.
    """
    if not isinstance(document, dict):
        raise DocumentError("A backup must be a JSON object with a \"games\" list.")
    if document.get("format") == GAME_FORMAT:
        raise DocumentError("This is one game's document, not a backup; import it with import-game.")
    if document.get("format") != FORMAT:
        raise DocumentError(f"A backup's \"format\" must be \"{FORMAT}\".")
    version = document.get("version")
    if not whole(version) or version not in READABLE_VERSIONS:  # not 1.0, not true
        raise DocumentError("This scorekeeper reads versions 1 and 2 of the backup format only.")
    documents = document.get("games")
    if not isinstance(documents, list):
        raise DocumentError("A backup must have a \"games\" list.")

    if version == 1:
        people = _read_people_by_name(document.get("people", []))
    else:
        people = _read_people(document.get("people", []))
    known = {person.id: person for person in people}
    games, seen = [], _Seen()
    for index, game_document in enumerate(documents):
        try:
            checked = read_game(game_document)
            stored = None
            if version > 1 and game_document.get("stored") is not None:
                stored = _read_stored(game_document["stored"], checked, known, seen)
            games.append(_backup_game(checked, stored))
        except DocumentError as error:
            raise DocumentError(f"{_which_game(index, len(documents), game_document)}: {error}") from None
    trail = document.get("trail", {}) if version > 1 else {}
    if not isinstance(trail, dict):
        raise DocumentError("A backup's \"trail\" must be an object with the lists \"people\" and \"games\".")
    people_trail = _read_people_trail(trail.get("people", []), known)
    games_trail = _read_games_trail(trail.get("games", []), seen.games)
    nights = read_nights(document.get("nights", []) if version > 1 else [], known, seen.games)
    try:
        return service.restore_club(games, people, people_trail, games_trail, nights)
    except service.SamePerson as error:
        raise DocumentError(f"{error} here (merged), but they sat at one table, or came to one night, in the backup: "
                            "undo that merge first.") from None
    except service.Conflict:
        raise DocumentError("The database refused the games.") from None


def _backup_game(checked, stored):
    """``service.backup_game``, its refusal of the open hand worded."""
    try:
        return service.backup_game(checked, stored)
    except rules.HandAfterGameOver:
        raise DocumentError("\"stored\": the game is over, so no hand can be being played (\"open_hand\").") from None
    except service.TricksRefused as error:
        seating = checked.facts.names
        names_of = [seating[player] for player in checked.board.next_hand.seating]
        raise DocumentError(f"Hand {error.number} (being played), tricks: {describe(error.error, names_of)}") from None


def restore_text(text):
    """Restore a backup from its text (bytes or str); return the new games."""
    return restore_document(parse_backup(text))


class _Seen:
    """What the games of a backup have named so far: each id once (the backup's database gave each once)."""

    def __init__(self):
        self.games, self.players, self.entries = set(), set(), set()


# --- People --------------------------------------------------------------------------------------------


def _read_people_by_name(entries):
    """A version 1 backup's people (``name`` and ``keys``) as ``service.BackupPerson`` values, numbered."""
    if not isinstance(entries, list):
        raise DocumentError("A backup's \"people\" must be a list.")
    people, seen = [], set()
    for number, entry in enumerate(entries, start=1):
        name = entry.get("name") if isinstance(entry, dict) else None
        keys = entry.get("keys") if isinstance(entry, dict) else None
        if not is_shown_name(name) or not isinstance(keys, list) or not keys or not all(is_key(key) for key in keys):
            raise DocumentError(f"Person {number} of \"people\" needs a \"name\" (1 to {NAME_LENGTH} characters) "
                                "and \"keys\": the names they are found by, as the app compares them.")
        if seen & set(keys):
            raise DocumentError(f"Person {number} of \"people\" shares a name with a person before them.")
        seen |= set(keys)
        people.append(service.BackupPerson(number, name.strip(), tuple(keys), None))
    return people


def _read_people(entries):
    """A version 2 backup's people (``id``, ``name``, ``keys``, ``merged_into``) as ``service.BackupPerson``."""
    if not isinstance(entries, list):
        raise DocumentError("A backup's \"people\" must be a list.")
    people, seen = {}, set()
    for number, entry in enumerate(entries, start=1):
        where = f"Person {number} of \"people\""
        if not isinstance(entry, dict) or not is_id(entry.get("id")) or not is_id(entry.get("merged_into"), none=True):
            raise DocumentError(f"{where} needs an \"id\" (a whole number, 1 or more) and \"merged_into\" "
                                "(the id of the person they were merged into, or null).")
        name, keys = entry.get("name"), entry.get("keys")
        if not is_shown_name(name) or not isinstance(keys, list) or not all(is_key(key) for key in keys):
            raise DocumentError(f"{where} needs a \"name\" (1 to {NAME_LENGTH} characters) and \"keys\": "
                                "the names they are found by, as the app compares them.")
        if entry["id"] in people:
            raise DocumentError(f"{where} has the id of a person before them.")
        if seen & set(keys) or len(set(keys)) < len(keys):
            raise DocumentError(f"{where} shares a name with a person before them.")
        if keys and entry["merged_into"] is not None:
            raise DocumentError(f"{where} was merged into another, so no name finds them: their \"keys\" are [].")
        seen |= set(keys)
        people[entry["id"]] = service.BackupPerson(entry["id"], name.strip(), tuple(keys), entry["merged_into"])
    for number, person in enumerate(people.values(), start=1):
        into, passed = person.merged_into, {person.id}
        while into is not None:
            if into not in people or into in passed:
                raise DocumentError(f"Person {number} of \"people\" is merged into nobody the backup lists.")
            passed.add(into)
            into = people[into].merged_into
    return list(people.values())


# --- What the database keeps of a game beside its document ---------------------------------------------


def _read_stored(stored, checked, people, seen):
    """A game's ``stored`` object as a ``service.StoredGame`` for ``checked`` (its document read), or
    ``DocumentError``. Every id is one the backup's database gave once; every person one the backup lists."""
    facts = checked.facts
    if not isinstance(stored, dict):
        raise DocumentError("\"stored\" must be an object: what the database kept of the game.")
    game_id, revision, last_key = stored.get("id"), stored.get("revision"), stored.get("last_hand_key")
    if (not is_id(game_id) or not whole(revision) or not 1 <= revision <= MOST_WRITES or not whole(last_key)
            or not 0 <= last_key <= MOST_WRITES):
        raise DocumentError(f"\"stored\" needs the game's \"id\", its \"revision\" (1 to {MOST_WRITES}) and "
                            f"\"last_hand_key\" (the key of the newest hand it made, 0 to {MOST_WRITES}).")
    if game_id in seen.games:
        raise DocumentError("\"stored\": the game's \"id\" is another game's.")
    key = stored.get("scorer_key")
    if not isinstance(key, str) or not SCORER_KEY.fullmatch(key):
        raise DocumentError("\"stored\": \"scorer_key\" must be the key of the game's secret scorer link "
                            "(8 to 64 letters, digits, \"-\" and \"_\").")
    created_at = read_time(stored.get("created_at"), "\"stored\": \"created_at\"")
    voided_at = read_time(stored.get("voided_at"), "\"stored\": \"voided_at\"", none=True)
    reason = stored.get("void_reason")
    if (voided_at is None) != (reason is None) or (reason is not None and not is_text(reason, VOID_REASON_LENGTH)):
        raise DocumentError(f"\"stored\": a game left out of the season has \"voided_at\" and \"void_reason\" (1 to "
                            f"{VOID_REASON_LENGTH} characters); one that counts has neither.")
    waiting, batch = stored.get("waiting", False), stored.get("import")
    if not isinstance(waiting, bool) or not is_id(batch, none=True):
        raise DocumentError("\"stored\": \"waiting\" must be true (an import waiting for the club's secretary) "
                            "or false, and \"import\" the number of the import that brought the game, or null.")
    players = _read_players(stored.get("players"), facts.names, people, seen)
    seat_changes = stored.get("seat_changes")
    if (not isinstance(seat_changes, list) or len(seat_changes) != len(facts.seat_changes)
            or not all(is_id(change) for change in seat_changes) or len(set(seat_changes)) < len(seat_changes)):
        raise DocumentError("\"stored\": \"seat_changes\" must list the id of each of the game's seat changes, "
                            "in order.")
    hands = _read_stored_hands(stored.get("hands"), facts, last_key)
    open_hand = _read_open_hand(stored.get("open_hand"), checked, hands)
    trail = read_trail(stored.get("trail"), checked, last_key, seen)
    seen.games.add(game_id)
    return service.StoredGame(game_id, key, created_at, revision, voided_at, reason, last_key, hands, players,
                              tuple(seat_changes), open_hand, trail, waiting, batch)


def _read_players(entries, roster, people, seen):
    """Each roster player's ``(id, person)``: the person a backup person of an unmerged one, one each."""
    if not isinstance(entries, list) or len(entries) != len(roster) or not all(
            isinstance(entry, dict) and is_id(entry.get("id")) and is_id(entry.get("person"), none=True)
            for entry in entries):
        raise DocumentError("\"stored\": \"players\" must give each player of the game (hand 1's, then each joiner) "
                            "as their \"id\" and their \"person\" (an id of \"people\").")
    players = tuple((entry["id"], entry["person"]) for entry in entries)
    for (player, person), name in zip(players, roster):
        if player in seen.players:
            raise DocumentError(f"\"stored\": the player \"{quoted(name)}\" has another player's id.")
        if person is not None and (person not in people or people[person].merged_into is not None):
            raise DocumentError(f"\"stored\": the player \"{quoted(name)}\" is a person \"people\" does not list, "
                                "or one merged into another.")
        seen.players.add(player)
    persons = [person for _player, person in players if person is not None]
    if len(set(persons)) < len(persons):
        raise DocumentError("\"stored\": two players of the game are one person.")
    return players


def _read_stored_hands(entries, facts, last_key):
    """Each recorded hand's ``StoredHand``: its key (each once, none past ``last_key``), when it was recorded,
    and the id of its trick log exactly when the document has its tricks."""
    if not isinstance(entries, list) or len(entries) != len(facts.hands):
        raise DocumentError("\"stored\": \"hands\" must give each of the game's hands its \"key\", \"recorded_at\" "
                            "and \"log\".")
    hands = []
    for number, (entry, log) in enumerate(zip(entries, facts.logs), start=1):
        where = f"\"stored\": hand {number}"
        if (not isinstance(entry, dict) or not is_id(entry.get("key")) or entry["key"] > last_key
                or not is_id(entry.get("log"), none=True) or (entry.get("log") is None) != (log is None)):
            raise DocumentError(f"{where} needs a \"key\" (1 to \"last_hand_key\") and a \"log\": the id of its "
                                "trick log if it was played trick by trick, else null.")
        hands.append(service.StoredHand(entry["key"], read_time(entry.get("recorded_at"), f"{where}: \"recorded_at\""),
                                        entry["log"]))
    keys = [hand.key for hand in hands]
    logs = [hand.log for hand in hands if hand.log is not None]
    if len(set(keys)) < len(keys) or len(set(logs)) < len(logs):
        raise DocumentError("\"stored\": two hands have one key, or one trick log.")
    return tuple(hands)


def _read_open_hand(entry, checked, hands):
    """The hand being played trick by trick (``open_hand``), or None; played through by ``service.backup_game``."""
    if entry is None:
        return None
    if not isinstance(entry, dict) or not is_id(entry.get("log")) or entry["log"] in {hand.log for hand in hands}:
        raise DocumentError("\"stored\": \"open_hand\" must be null or an object with the \"log\" id of the hand "
                            "being played (no recorded hand's).")
    if checked.board.over:
        raise DocumentError("\"stored\": the game is over, so no hand can be being played (\"open_hand\").")
    upcoming = checked.board.next_hand
    seated = [checked.facts.names[player] for player in upcoming.seating]
    tricks = {key: value for key, value in entry.items() if key != "log"}
    played = read_tricks({"tricks": tricks}, upcoming.number, seated, checked.facts.variant)
    return service.OpenHand(entry["log"], played)


# --- The club's trail ----------------------------------------------------------------------------------

_PEOPLE_ACTIONS = ("rename", "merge", "undo")
_GAMES_ACTIONS = ("void", "count", "date", "accept", "wait", "void_import", "count_import")
_IMPORT_ACTIONS = ("void_import", "count_import")  # of several games: ``facts`` lists them


def _read_people_trail(entries, people):
    """The club's trail of people (``PersonChange``), oldest first, as ``service.PeopleEntry`` values."""
    if not isinstance(entries, list):
        raise DocumentError("The \"trail\"'s \"people\" must be a list.")
    read, chains = {}, {}  # chains: an entry's id -> the action its chain of undos began with, and its depth
    for number, entry in enumerate(entries, start=1):
        where = f"Entry {number} of the club's trail of people"
        if not isinstance(entry, dict) or not is_id(entry.get("id")) or entry.get("action") not in _PEOPLE_ACTIONS:
            raise DocumentError(f"{where} needs an \"id\" and an \"action\" (rename, merge or undo).")
        if entry["id"] in read or (read and entry["id"] <= max(read)):
            raise DocumentError(f"{where}: the entries must be listed oldest first, each id once.")
        person, other, undoes = entry.get("person"), entry.get("other"), entry.get("undoes")
        if person not in people or (other is not None and other not in people):
            raise DocumentError(f"{where} names a person \"people\" does not list.")
        undone = read.get(undoes)
        if (entry["action"] == "undo") != (undoes is not None) or (undoes is not None and (
                undone is None or (undone.person, undone.other) != (person, other)
                or any(earlier.undoes == undoes for earlier in read.values()))):
            raise DocumentError(f"{where}: an undo, and only an undo, names the older merge or rename it undoes, "
                                "or the undo it undoes (\"undoes\"), of the same people, once.")
        action, depth = (entry["action"], 0) if undone is None else (chains[undoes][0], chains[undoes][1] + 1)
        if (other is None) != (action == "rename") or other == person:
            raise DocumentError(f"{where}: a merge and its undo name two people (\"person\", \"other\"), a rename "
                                "and its undo one.")
        # An undo of an undo makes the change again: its facts are the change's (service.people.undo_change).
        if not _people_facts(entry.get("facts"), action if depth % 2 == 0 else "undo", action):
            raise DocumentError(f"{where}: its \"facts\" are not those of a {entry['action']}.")
        chains[entry["id"]] = (action, depth)
        read[entry["id"]] = service.PeopleEntry(
            entry["id"], read_time(entry.get("at"), f"{where}: \"at\""), entry["action"], person, other, undoes,
            entry["facts"], _read_device(entry.get("device"), where))
    return list(read.values())


def _people_facts(facts, action, first):
    """Whether ``facts`` are those a people entry of ``action`` keeps (``first``: the action an undo undid)."""
    if not isinstance(facts, dict):
        return False
    if action == "rename":
        return (all(is_text(facts.get(key), NAME_LENGTH) for key in ("before", "after"))
                and isinstance(facts.get("spelling_added"), bool))
    if action == "merge":
        return (are_ids(facts.get("players")) and isinstance(facts.get("names"), list)
                and all(is_key(key) for key in facts["names"]) and is_id(facts.get("latest_player"), none=True)
                and is_text(facts.get("name"), NAME_LENGTH)
                and are_ids(facts.get("nights", [])))  # a merge kept before nights has no "nights"
    if first == "merge":
        return are_ids(facts.get("players"))
    return isinstance(facts.get("released"), bool)


def _read_games_trail(entries, games):
    """The club's trail of games (``GameChange``), oldest first, as ``service.GamesEntry`` values; each names
    a game of the backup by its ``stored`` id."""
    if not isinstance(entries, list):
        raise DocumentError("The \"trail\"'s \"games\" must be a list.")
    read = []
    for number, entry in enumerate(entries, start=1):
        where = f"Entry {number} of the club's trail of games"
        if not isinstance(entry, dict) or not is_id(entry.get("id")) or entry.get("action") not in _GAMES_ACTIONS:
            raise DocumentError(f"{where} needs an \"id\" and an \"action\" (void, count, date, accept, wait, "
                                "void_import or count_import).")
        if read and entry["id"] <= read[-1].id:
            raise DocumentError(f"{where}: the entries must be listed oldest first, each id once.")
        if entry.get("game") not in games:
            raise DocumentError(f"{where} names no game of the backup (a game's \"stored\" \"id\").")
        reason, facts = entry.get("reason"), entry.get("facts")
        if entry["action"] == "date":
            days_given = [days.iso_day(facts.get(key)) for key in ("before", "after")] if isinstance(facts, dict) \
                else [None]
            if reason is not None or None in days_given:
                raise DocumentError(f"{where}: a date's entry has \"facts\" with the days \"before\" and \"after\", "
                                    "and no \"reason\".")
        elif entry["action"] in _IMPORT_ACTIONS:
            listed = facts.get("games") if isinstance(facts, dict) else None
            if (not is_text(reason, VOID_REASON_LENGTH) or not are_ids(listed) or not listed
                    or not all(game in games for game in listed) or entry["game"] != listed[0]):
                raise DocumentError(f"{where}: an import's entry has its \"reason\" (1 to {VOID_REASON_LENGTH} "
                                    "characters) and \"facts\" listing its games of the backup, the first its "
                                    "\"game\".")
        elif entry["action"] in ("accept", "wait"):
            if facts is not None or reason is not None:
                raise DocumentError(f"{where}: a waiting game counted, or made to wait again, has no \"reason\" "
                                    "and no \"facts\".")
        elif facts is not None or not (is_text(reason, VOID_REASON_LENGTH) or (
                entry["action"] == "count" and reason is None)):
            raise DocumentError(f"{where}: a game left out has its \"reason\" (1 to {VOID_REASON_LENGTH} "
                                "characters), and no \"facts\".")
        read.append(service.GamesEntry(entry["id"], read_time(entry.get("at"), f"{where}: \"at\""),
                                       entry["action"], entry["game"], reason, facts,
                                       _read_device(entry.get("device"), where)))
    return read


def _read_device(device, where):
    if device is None or is_text(device, DEVICE_NAME_LENGTH):
        return device
    raise DocumentError(f"{where}: \"device\" must be a device's name (1 to {DEVICE_NAME_LENGTH} characters) "
                        "or null.")


def _which_game(index, count, game_document):
    """A game of a backup as a person would find it: its place, counting from 1, and its name."""
    name = game_document.get("name") if isinstance(game_document, dict) else None
    if not isinstance(name, str) or not name.strip():
        return f"Game {index + 1} of {count} (no name)"
    return f"Game {index + 1} of {count} (\"{quoted(name.strip(), NAME_SHOWN)}\")"
