"""A backup's club nights (R18): written with who was checked in and each round's tables, and read back
checked, every person and game one of the backup's (docs/backup-format.md)."""

from sqlalchemy import select

from .. import service
from ..db.models import GAME_NAME_LENGTH, LARGEST_ID, LARGEST_TARGET, Night, NightPlayer, NightRound, NightTable, db
from ..service import days
from .backup_values import MOST_WRITES, is_text, read_time, time_text
from .game import DocumentError, whole


def nights_document():
    """The club's nights (R18), oldest first: each with who was checked in and its rounds' tables, by id."""
    players, rounds, tables = {}, {}, {}
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
    return [{"name": night.name, "played_on": night.played_on.isoformat(), "deals": night.deals,
             "target": night.target, "made_at": time_text(night.made_at), "players": players.get(night.id, []),
             "rounds": rounds.get(night.id, [])}
            for night in db.session.execute(select(Night).order_by(Night.id)).scalars()]


def read_nights(entries, people, games):
    """The backup's club nights (``service.BackupNight``), each field checked, every person and game one of
    the backup's, each game the table of one round at most."""
    if not isinstance(entries, list):
        raise DocumentError("A backup's \"nights\" must be a list.")
    nights, tabled = [], set()
    for number, entry in enumerate(entries, start=1):
        where = f"Night {number} of \"nights\""
        if (not isinstance(entry, dict) or not is_text(entry.get("name"), GAME_NAME_LENGTH)
                or days.iso_day(entry.get("played_on")) is None or not whole(entry.get("target"))
                or not 1 <= entry["target"] <= LARGEST_TARGET
                or not (entry.get("deals") is None or (whole(entry["deals"]) and 1 <= entry["deals"] <= 999))
                or not isinstance(entry.get("players"), list) or not isinstance(entry.get("rounds"), list)):
            raise DocumentError(f"{where} needs a \"name\", its \"played_on\" day, a \"target\", \"deals\" "
                                "(null, or 1 or more) and the lists \"players\" and \"rounds\".")
        nights.append(service.BackupNight(
            entry["name"], days.iso_day(entry["played_on"]), entry["deals"], entry["target"],
            read_time(entry.get("made_at"), f"{where}: \"made_at\""),
            _read_night_players(entry["players"], people, where),
            _read_night_rounds(entry["rounds"], games, tabled, where)))
    return nights


def _read_night_players(entries, people, where):
    players, seen = [], set()
    for entry in entries:
        if (not isinstance(entry, dict) or entry.get("person") not in people or entry["person"] in seen
                or not whole(entry.get("from_round")) or not 1 <= entry["from_round"] <= MOST_WRITES
                or not (entry.get("left_after") is None
                        or (whole(entry["left_after"]) and 0 <= entry["left_after"] <= MOST_WRITES))):
            raise DocumentError(f"{where}: each of its \"players\" is a person of the backup, once, with the round "
                                "they were drawn from (\"from_round\", 1 or more) and \"left_after\" (null, or a "
                                "round).")
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
