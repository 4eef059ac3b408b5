"""A backup's club nights (R18): written with who was checked in, each round's tables and the night's trail,
and read back checked, every person and game one of the backup's (docs/backup-format.md)."""

import json
import re

from sqlalchemy import select

from .. import rules, service
from ..db.models import (
    DEVICE_NAME_LENGTH,
    GAME_NAME_LENGTH,
    LARGEST_ID,
    LARGEST_TARGET,
    Night,
    NightChange,
    NightPlayer,
    NightRound,
    NightTable,
    db,
)
from ..service import days
from ..service.nights import CLOSED, PLAYERS, ROUND
from .backup_values import MOST_WRITES, is_id, is_text, read_time, time_text
from .game import DocumentError, whole

# What the director did, and the kind of entry it writes (service.nights); an undo is of its entry's kind.
_KINDS = {"check_in": PLAYERS, "see_off": PLAYERS, "draw": ROUND, "close": CLOSED}
_UNDO = "undo"
_PERSON_KEY = re.compile(r"[1-9][0-9]{0,9}")  # a person's id as a JSON key, written as the database wrote it


def nights_document():
    """The club's nights (R18), oldest first: each with who was checked in, its rounds' tables and its trail,
    people and games by id."""
    players, rounds, tables, trails = {}, {}, {}, {}
    for row in db.session.execute(select(NightPlayer).order_by(NightPlayer.checked_in_at, NightPlayer.person_id))\
            .scalars():
        players.setdefault(row.night_id, []).append(
            {"person": row.person_id, "from_round": row.from_round, "left_after": row.left_after,
             "checked_in_at": time_text(row.checked_in_at)})
    for row in db.session.execute(select(NightTable).order_by(NightTable.round_id, NightTable.number)).scalars():
        tables.setdefault(row.round_id, []).append({"number": row.number, "game": row.game_id})
    for row in db.session.execute(select(NightRound).order_by(NightRound.night_id, NightRound.number)).scalars():
        rounds.setdefault(row.night_id, []).append(
            {"number": row.number, "seed": row.seed, "repeated": row.repeated, "drawn_at": time_text(row.drawn_at),
             "closed_at": time_text(row.closed_at), "tables": tables.get(row.id, [])})
    for row in db.session.execute(select(NightChange).order_by(NightChange.id)).scalars():
        trails.setdefault(row.night_id, []).append(row)
    return [{"id": night.id, "name": night.name, "played_on": night.played_on.isoformat(), "deals": night.deals,
             "target": night.target, "made_at": time_text(night.made_at), "players": players.get(night.id, []),
             "rounds": rounds.get(night.id, []), "trail": _trail_document(trails.get(night.id, []))}
            for night in db.session.execute(select(Night).order_by(Night.id)).scalars()]


def _trail_document(changes):
    """A night's trail, oldest first, an undo naming the entry it undid by its place in this list (from 1):
    the entries' ids are the database's, and a restore gives them new ones."""
    places = {change.id: place for place, change in enumerate(changes, start=1)}
    written = []
    for change in changes:
        facts = json.loads(change.facts)
        written.append({"at": time_text(change.at), "action": change.action, "device": change.device,
                        "undoes": places.get(change.undoes_id), "kind": facts["kind"], "round": facts.get("round"),
                        "before": facts["before"], "after": facts["after"]})
    return written


# --- Reading the nights back ---------------------------------------------------------------------------------


def read_nights(entries, people, games):
    """The backup's club nights (``service.BackupNight``), each field checked, every person and game one of
    the backup's (``people`` by id), each game the table of one round at most."""
    if not isinstance(entries, list):
        raise DocumentError("A backup's \"nights\" must be a list.")
    nights, tabled, ids = [], set(), []
    for number, entry in enumerate(entries, start=1):
        where = f"Night {number} of \"nights\""
        if (not isinstance(entry, dict) or not is_text(entry.get("name"), GAME_NAME_LENGTH)
                or days.iso_day(entry.get("played_on")) is None or not whole(entry.get("target"))
                or not 1 <= entry["target"] <= LARGEST_TARGET
                or not (entry.get("deals") is None or (whole(entry["deals"]) and 1 <= entry["deals"] <= 999))
                or not isinstance(entry.get("players"), list) or not isinstance(entry.get("rounds"), list)
                or not isinstance(entry.get("trail", []), list)):
            raise DocumentError(f"{where} needs a \"name\", its \"played_on\" day, a \"target\", \"deals\" "
                                "(null, or 1 or more) and the lists \"players\", \"rounds\" and \"trail\".")
        night_id = entry.get("id")
        # Backups made before nights had a trail have no ids: nothing in them can name a night.
        if not is_id(night_id, none=True) or (night_id is not None and ids and night_id <= ids[-1]):
            raise DocumentError(f"{where}: a night's \"id\" is the id the backup's database gave it (1 or more), "
                                "the nights listed oldest first, each id once.")
        if night_id is not None:
            ids.append(night_id)
        nights.append(service.BackupNight(
            entry["name"], days.iso_day(entry["played_on"]), entry["deals"], entry["target"],
            read_time(entry.get("made_at"), f"{where}: \"made_at\""),
            _read_night_players(entry["players"], people, where),
            _read_night_rounds(entry["rounds"], games, tabled, where),
            night_id, _read_night_trail(entry.get("trail", []), people, where)))
    return nights


def _read_night_players(entries, people, where):
    players, seen = [], set()
    for entry in entries:
        if (not isinstance(entry, dict) or entry.get("person") not in people or entry["person"] in seen
                or people[entry["person"]].merged_into is not None  # a merge moves their check-ins
                or not whole(entry.get("from_round")) or not 1 <= entry["from_round"] <= MOST_WRITES
                or not (entry.get("left_after") is None
                        or (whole(entry["left_after"]) and 0 <= entry["left_after"] <= MOST_WRITES))):
            raise DocumentError(f"{where}: each of its \"players\" is a person of the backup, once and not merged "
                                "into another, with the round they were drawn from (\"from_round\", 1 or more) "
                                "and \"left_after\" (null, or a round).")
        seen.add(entry["person"])
        players.append((entry["person"], entry["from_round"], entry["left_after"],
                        read_time(entry.get("checked_in_at"), f"{where}: \"checked_in_at\"")))
    return tuple(players)


def _read_night_rounds(entries, games, tabled, where):
    rounds = []
    for number, entry in enumerate(entries, start=1):
        if (not isinstance(entry, dict) or entry.get("number") != number or not whole(entry.get("seed"))
                or not 0 <= entry["seed"] <= LARGEST_ID or not whole(entry.get("repeated"))
                or not 0 <= entry["repeated"] <= MOST_WRITES or not isinstance(entry.get("tables"), list)):
            raise DocumentError(f"{where}: its \"rounds\" are numbered from 1 in order, each with its \"seed\", "
                                "\"repeated\" (0 or more) and its \"tables\".")
        tables = []
        for table, seated in enumerate(entry["tables"], start=1):
            if not isinstance(seated, dict) or seated.get("number") != table or seated.get("game") not in games \
                    or seated["game"] in tabled:
                raise DocumentError(f"{where}, round {number}: its \"tables\" are numbered from 1 in order, each "
                                    "a game of the backup that no other table plays.")
            tabled.add(seated["game"])
            tables.append((table, seated["game"]))
        rounds.append((number, entry["seed"], entry["repeated"], read_time(entry.get("drawn_at"), where),
                       read_time(entry.get("closed_at"), where, none=True), tuple(tables)))
    return tuple(rounds)


def _read_night_trail(entries, people, where):
    """A night's trail, oldest first, each entry ``(at, action, device, undoes, kind, round, before, after)``
    as ``service.nights`` writes it, a players entry's people as the backup's ids (numbers again), ``undoes``
    the place from 1 of the entry it undid in this trail. An undo undoes the newest entry (``undo_newest``),
    so it names the one just before it, and puts back what that one found."""
    trail = []
    for place, entry in enumerate(entries, start=1):
        at = f"{where}, trail entry {place}"
        if not isinstance(entry, dict) or entry.get("action") not in (*_KINDS, _UNDO):
            raise DocumentError(f"{at} needs an \"action\" (one of {', '.join((*_KINDS, _UNDO))}).")
        action, undoes = entry["action"], entry.get("undoes")
        if action == _UNDO:
            if not whole(undoes) or undoes != place - 1 or place == 1:
                raise DocumentError(f"{at}: an undo names the entry just before it, the one it undid "
                                    "(\"undoes\": its place in the night's trail, from 1).")
            undone = trail[-1]
            kind, number = undone[4], undone[5]
            if (entry.get("kind"), entry.get("round"), entry.get("before"), entry.get("after")) != (
                    kind, number, _facts_written(undone[7], kind), _facts_written(undone[6], kind)):
                raise DocumentError(f"{at}: an undo is of the kind and round of the entry it undid, and puts "
                                    "back what that one found (its \"before\" that one's \"after\", and the "
                                    "other way round).")
        else:
            kind, number = _KINDS[action], entry.get("round")
            if undoes is not None or entry.get("kind") != kind:
                raise DocumentError(f"{at}: a {action} is an entry of kind \"{kind}\" that undoes nothing "
                                    "(\"undoes\": null).")
        if not (number is None if kind == PLAYERS else whole(number) and 1 <= number <= MOST_WRITES):
            raise DocumentError(f"{at}: a \"{kind}\" entry's \"round\" is "
                                + ("null." if kind == PLAYERS else "the number of the round it drew or closed."))
        before, after = (_read_facts(entry.get(side), kind, people, f"{at}: its \"{side}\"")
                         for side in ("before", "after"))
        if kind == PLAYERS and before.keys() != after.keys():
            raise DocumentError(f"{at}: its \"before\" and \"after\" name the same people.")
        if kind != PLAYERS and before == after:
            raise DocumentError(f"{at}: its \"before\" and \"after\" differ: it changed the round.")
        device = entry.get("device")
        if not (device is None or is_text(device, DEVICE_NAME_LENGTH)):
            raise DocumentError(f"{at}: \"device\" must be a device's name (1 to {DEVICE_NAME_LENGTH} "
                                "characters) or null.")
        trail.append((read_time(entry.get("at"), f"{at}: \"at\""), action, device, undoes, kind, number, before,
                      after))
    return tuple(trail)


def _read_facts(facts, kind, people, where):
    """One side of an entry's facts as ``service.nights`` writes them, for ``kind``: who is here (each
    person of the backup, by id, ``[from_round, left_after]`` or null), a round drawn (its "sizes", tables
    the engine seats, and its "seed") or not (null), or whether the round is closed."""
    if kind == CLOSED:
        if not isinstance(facts, bool):
            raise DocumentError(f"{where} is whether the round was closed: true or false.")
        return facts
    if kind == ROUND:
        if facts is None:
            return None
        sizes = facts.get("sizes") if isinstance(facts, dict) else None
        if (not isinstance(facts, dict) or set(facts) != {"sizes", "seed"} or not isinstance(sizes, list)
                or not sizes or not all(whole(size) and rules.MIN_PLAYERS <= size <= rules.MAX_PLAYERS
                                        for size in sizes)
                or not whole(facts["seed"]) or not 0 <= facts["seed"] <= LARGEST_ID):
            raise DocumentError(f"{where} is null (no round) or the round drawn: its tables' \"sizes\" "
                                f"({rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players each) and its \"seed\".")
        return {"sizes": list(sizes), "seed": facts["seed"]}
    if not isinstance(facts, dict) or not facts:
        raise DocumentError(f"{where} lists the people it changed, by their ids in \"people\".")
    read = {}
    for key, state in facts.items():
        if not isinstance(key, str) or not _PERSON_KEY.fullmatch(key) or int(key) not in people:
            raise DocumentError(f"{where} names a person \"people\" does not list ({json.dumps(str(key)[:20])}).")
        if not (state is None or (
                isinstance(state, list) and len(state) == 2 and whole(state[0]) and 1 <= state[0] <= MOST_WRITES
                and (state[1] is None or (whole(state[1]) and 0 <= state[1] <= MOST_WRITES)))):
            raise DocumentError(f"{where}: each person's is null (not checked in) or [the round they are drawn "
                                "from, the round they left after or null].")
        read[int(key)] = None if state is None else list(state)
    return read


def _facts_written(facts, kind):
    """One side of an entry's facts as a backup writes them (a players entry's people as text keys)."""
    if kind != PLAYERS:
        return facts
    return {str(person): state for person, state in facts.items()}
