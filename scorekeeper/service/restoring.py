"""A whole club brought back from a backup (version 2, docs/backup-format.md), in one transaction.

Each game comes back as it was kept: its hands under their own keys, its
revision, when it was made and each hand recorded, whether it was left out of
the season and why, the hand being played trick by trick, and its trail. The
club's trail of games (left out, counted again, dated) comes back with it,
and, when every person of the backup is new here, the people exactly as they
were (names, spellings, merged people) with the club's trail of people.

The database gives every row a new id, so what the trails name by id (seat
changes, trick logs, players, people, games, nights, other entries) is mapped
to the new ids, in the order of the old ones: an entry that could be undone
before the backup can be undone after the restore, and one that could not,
cannot. The club's nights come back with who was checked in, their rounds'
tables and their trails, which undo as they did.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, update

from .. import rules
from ..db.models import (
    Change,
    Game,
    GameChange,
    NightChange,
    Person,
    PersonChange,
    PersonName,
    Player,
    SeatChange,
    counts_in_season,
    db,
    today,
    variant_columns,
)
from . import figures
from .entries import Action
from .errors import Conflict, TricksRefused
from .games import (
    CheckedGame,
    KnownPerson,
    insert_hands,
    insert_logs,
    know_person,
    new_import,
    seat_change_columns,
    written_twice_if_need_be,
)
from .people import people_of
from .restoring_nights import BackupNight, insert_nights  # noqa: F401  (service/__init__ takes BackupNight from here)
from .trail import SUBJECTS, Subject
from .writing import inserted

# --- What a backup holds beside each game's document ---------------------------------------------------


@dataclass(frozen=True)
class StoredHand:
    """A recorded hand as the database kept it: its own key, when it was recorded, its trick log's id."""

    key: int
    recorded_at: datetime
    log: int | None


@dataclass(frozen=True)
class OpenHand:
    """The hand being played trick by trick, not recorded yet: its trick log's id and what it holds."""

    log: int
    played: rules.PlayedLog


@dataclass(frozen=True)
class TrailEntry:
    """One entry of a game's trail (``Change``), its facts as plain dicts, ``undoes`` the id it undoes."""

    id: int
    at: datetime
    action: str
    hand_number: int
    hand_key: int | None
    after_key: int | None
    undoes: int | None
    before: dict | None
    after: dict | None


@dataclass(frozen=True)
class StoredGame:
    """What the database kept of a game beside its document, ids as the backup's database gave them.

    ``scorer_key`` is the key of its secret scorer link: kept, so that a link shared before still works
    where the restored game has the same id (a restore into an empty database), unless a game here has it.

    ``players`` is each roster player's ``(id, person id)``; ``seat_changes`` the ids of the document's seat
    changes, in order; ``hands`` one ``StoredHand`` a recorded hand; ``trail`` its entries, oldest first.
    """

    id: int
    scorer_key: str
    created_at: datetime
    revision: int
    voided_at: datetime | None
    void_reason: str | None
    last_hand_key: int
    hands: tuple[StoredHand, ...]
    players: tuple[tuple[int, int | None], ...]
    seat_changes: tuple[int, ...]
    open_hand: OpenHand | None
    trail: tuple[TrailEntry, ...]
    waiting: bool = False  # an import waiting for the club's secretary: restored waiting
    import_id: int | None = None  # the import that brought it, as the backup's database numbered them


@dataclass(frozen=True)
class BackupGame:
    """A game of a backup (made by ``backup_game``): its document checked (``CheckedGame``), and what the
    database kept of it, if the backup holds that (without it, the game is restored as an import makes it:
    new, counted, no trail)."""

    checked: CheckedGame
    stored: StoredGame | None = None


@dataclass(frozen=True)
class BackupPerson:
    """A person of a backup: how they are shown, the spellings (``names.key``) that find them, and who they
    were merged into (None: nobody)."""

    id: int
    name: str
    keys: tuple[str, ...]
    merged_into: int | None


@dataclass(frozen=True)
class PeopleEntry:
    """An entry of the club's trail of people (``PersonChange``), ``facts`` as a dict."""

    id: int
    at: datetime
    action: str
    person: int
    other: int | None
    undoes: int | None
    facts: dict
    device: str | None


@dataclass(frozen=True)
class GamesEntry:
    """An entry of the club's trail of games (``GameChange``), ``facts`` as a dict or None."""

    id: int
    at: datetime
    action: str
    game: int
    reason: str | None
    facts: dict | None
    device: str | None


@dataclass(frozen=True)
class Restored:
    """What a restore added: the new ``Game`` rows in the backup's order, how many people it made here (the
    backup's, and the players' it did not list whom no name found), how many of the games are left out of
    the season, the entries of the club's trail it restored, those of the club's trail of people it left out
    (the backup's people were not all new here), how many of the games are imports waiting for the club's
    secretary, and how many club nights it restored."""

    games: list
    people: int
    left_out: int
    club_entries: int
    people_entries_left_out: int
    waiting: int = 0
    nights: int = 0


def subjects(entries):
    """What each entry of a game's trail (``TrailEntry`` values, oldest first) is about: ``{id: Subject}``,
    an undo's being its first entry's; None for an undo of no entry before it."""
    found = {}
    for entry in entries:
        found[entry.id] = found.get(entry.undoes) if entry.action == Action.UNDO.value else SUBJECTS.get(
            Action(entry.action))
    return found


def backup_game(checked, stored=None):
    """A game of a backup, its document checked (a ``CheckedGame``) and the hand it was playing trick by trick
    (``stored.open_hand``) played through the engine as its next hand (R6-R13): refused as ``TricksRefused``
    with that hand's number, or ``rules.HandAfterGameOver`` when the game has no next hand."""
    open_hand = None if stored is None else stored.open_hand
    if open_hand is not None:
        board = checked.board
        if board.over:
            raise rules.HandAfterGameOver(len(board.hands), len(board.hands) + 1)
        try:
            rules.check_log(open_hand.played, len(board.next_hand.seating), checked.facts.variant)
        except rules.RuleError as error:
            raise TricksRefused(board.next_hand.number, error) from None
    return BackupGame(checked, stored)


# --- The restore ---------------------------------------------------------------------------------------


def restore_club(games, people=(), people_trail=(), games_trail=(), nights=()):
    """Add every game of a backup (``BackupGame`` values, checked by ``backup_game``, oldest first) as new
    games, with the backup's ``people`` (``BackupPerson``), the club's trail of games (``GamesEntry``) and,
    when every person of the backup is new here, its trail of people (``PeopleEntry``): one transaction,
    all or nothing. Returns what it restored (``Restored``).

    The values are checked as the document was read (documents/backup.py): every reference names a game,
    person, player or entry of the backup. A person some of whose spellings are known here is linked as a
    version 1 backup links them (``restore_backup``), and the club's trail of people is then left out:
    its merges and renames were of the backup's people, and here some are the club's own.
    """
    return written_twice_if_need_be(lambda: _Restoring(games, people, people_trail, games_trail, nights).run())


class _Restoring:
    """One restore, inside its transaction: the old ids of the backup and the new ones they became."""

    def __init__(self, games, people, people_trail, games_trail, nights=()):
        self.backup_games, self.people, self.people_trail, self.games_trail = games, people, people_trail, games_trail
        self.nights = nights
        self.persons = {}  # a backup person's id -> the id of the person here (exact restores)
        self.players = {}  # a backup player's id -> the new id
        self.game_ids = {}  # a backup game's id -> the new id
        self.imports = {}  # a backup import's number -> the new one
        self.night_ids = {}  # a backup night's id -> the new id
        self.merged_into = {person.id: person.merged_into for person in people}

    def run(self):
        newest = db.session.execute(select(func.max(Person.id))).scalar() or 0  # the people made here come after
        keys = [key for person in self.people for key in person.keys]
        exact = not keys or db.session.execute(
            select(PersonName.key).where(PersonName.key.in_(set(keys))).limit(1)).first() is None
        if exact:
            self._make_people()
        else:
            self._know_people()
        rows = self._insert_games()
        self._insert_players(rows, exact)
        for game, row in zip(self.backup_games, rows):
            figures.keep(row.id, row.revision, game.checked.board, game.checked.facts.names, counts_in_season(row))
        seat_changes = self._insert_seat_changes(rows)
        logs = self._insert_hands(rows)
        self._insert_trails(rows, seat_changes, logs)
        club_entries = self._insert_games_trail()
        self._insert_nights(exact)
        if exact:
            club_entries += self._insert_people_trail()
        made = db.session.execute(select(func.count()).select_from(Person).where(Person.id > newest)).scalar()
        return Restored(rows, made, sum(row.voided_at is not None for row in rows), club_entries,
                        0 if exact else len(self.people_trail), sum(bool(row.waiting) for row in rows),
                        len(self.nights))

    # --- People -----------------------------------------------------------------------------------------

    def _make_people(self):
        """Every person of the backup made here as they were (none of their spellings is known here), oldest
        first, so that the new ids keep the old ones' order (the season's ties, the club's trail)."""
        people = sorted(self.people, key=lambda person: person.id)
        if not people:
            return
        ids = _in_order(inserted(Person, [{"name": person.name} for person in people]))
        self.persons = {person.id: new for person, new in zip(people, ids)}
        merged = [{"id": self.persons[person.id], "merged_into_id": self.persons[person.merged_into]}
                  for person in people if person.merged_into is not None]
        if merged:
            db.session.execute(update(Person), merged)
        spellings = [{"key": key, "person_id": self.persons[person.id]} for person in people for key in person.keys]
        if spellings:
            db.session.execute(insert(PersonName), spellings)

    def _know_people(self):
        """The backup's people linked to the people here as a version 1 backup's are (``know_person``). Someone
        merged away has no spelling left, and no player: nothing to link."""
        for person in self.people:
            if person.keys and person.merged_into is None:
                know_person(KnownPerson(person.name, person.keys))

    def _person_here(self, person, exact):
        """The person here a backup's person became: made here as they were (``exact``), or the one their
        spellings find."""
        if exact:
            return self.persons[person]
        keys = next((known.keys for known in self.people if known.id == person), ())
        return db.session.execute(select(PersonName.person_id).where(PersonName.key.in_(keys))
                                  .order_by(PersonName.person_id).limit(1)).scalar()

    # --- Nights ------------------------------------------------------------------------------------------

    def _insert_nights(self, exact):
        """The backup's club nights, each with who was checked in, its rounds' tables and its trail, their
        games and people as restored here (``restoring_nights``)."""
        names = {person.id: person.name for person in self.people}
        self.night_ids, entries = insert_nights(self.nights, lambda person: self._night_person(person, exact),
                                                names, self.game_ids)
        _inserted_with_undoes(NightChange, entries)

    def _night_person(self, person, exact):
        """The person here a backup's person of a night became: linked by name (not ``exact``), someone merged
        away in the backup is the person they were merged into (whose spellings theirs became)."""
        while not exact and self.merged_into.get(person) is not None:
            person = self.merged_into[person]
        return self._person_here(person, exact)

    # --- Games ------------------------------------------------------------------------------------------

    def _import_of(self, number):
        """The import here of the backup's import ``number`` (made with its first game), or None."""
        if number is None:
            return None
        if number not in self.imports:
            self.imports[number] = new_import()
        return self.imports[number]

    def _insert_games(self):
        """The games' own rows, oldest first (their new ids in the old ones' order: the season's order); a
        scorer key that a game here has already is replaced by a new one (``Game``'s default)."""
        rows = []
        keys = [game.stored.scorer_key for game in self.backup_games if game.stored is not None]
        taken = set(db.session.execute(select(Game.scorer_key).where(Game.scorer_key.in_(keys))).scalars()) \
            if keys else set()
        for game in self.backup_games:
            facts, stored = game.checked.facts, game.stored
            row = Game(name=facts.name, target=facts.target, first_dealer=facts.first_dealer,
                       played_on=facts.played_on or today(), last_hand_key=len(facts.hands), waiting=False,
                       **variant_columns(facts.variant))
            if stored is not None:
                row.created_at, row.revision, row.last_hand_key = stored.created_at, stored.revision, \
                    stored.last_hand_key
                row.voided_at, row.void_reason = stored.voided_at, stored.void_reason
                row.waiting, row.import_id = stored.waiting, self._import_of(stored.import_id)
                if stored.scorer_key not in taken:
                    row.scorer_key = stored.scorer_key
                    taken.add(stored.scorer_key)
            rows.append(row)
        db.session.add_all(rows)
        db.session.flush()
        _in_order([row.id for row in rows])
        self.game_ids = {game.stored.id: row.id for game, row in zip(self.backup_games, rows)
                         if game.stored is not None}
        return rows

    def _insert_players(self, rows, exact):
        """Every game's players, in the order they were made in the backup's database (a merge's undo moves
        back the players made after it), each the person the backup says, or, linked by name, the person
        their name finds here."""
        players = []  # (the backup's id or None, a Player row's columns)
        for game, row in zip(self.backup_games, rows):
            names, stored = game.checked.facts.names, game.stored
            if exact and stored is not None and all(person is not None for _id, person in stored.players):
                people = [self.persons[person] for _id, person in stored.players]
            else:
                people = people_of(names)
            ids = [player for player, _person in stored.players] if stored is not None else [None] * len(names)
            players += [(old, {"game_id": row.id, "seat": seat, "name": name, "person_id": person})
                        for seat, (old, name, person) in enumerate(zip(ids, names, people))]
        # The backup's players by their ids; then those of games it kept no ids of, in their games' order.
        players.sort(key=lambda player: (player[0] is None, player[0] or 0))
        if not players:
            return
        ids = _in_order(inserted(Player, [columns for _old, columns in players]))
        self.players = {old: new for (old, _columns), new in zip(players, ids) if old is not None}

    def _insert_seat_changes(self, rows):
        """Every game's seat changes; ``{backup game id: {old seat change id: new}}``.

        A seat change the trail names that is no longer there (a join undone) is given an id too, in the
        order of the old ones, and taken out again: undoing the undo puts it back under that id (as
        ``seats.seated`` does), and it must still be the newest of its game then.
        """
        mapped, kept, placeholders = {}, [], []
        for game, row in zip(self.backup_games, rows):
            facts, stored = game.checked.facts, game.stored
            if stored is None:
                kept += [(None, {"game_id": row.id, **seat_change_columns(change)}) for change in facts.seat_changes]
                continue
            there = dict(zip(stored.seat_changes, facts.seat_changes))
            named = _seat_changes_named(stored.trail) - set(there)
            kept += [(old, {"game_id": row.id, **seat_change_columns(change)}) for old, change in there.items()]
            # A placeholder, as the database allows: it is deleted below, in this transaction.
            kept += [(old, {"game_id": row.id, "kind": "leave", "before_hand": 2, "player": 0, "at": None,
                            "start": None}) for old in named]
            placeholders += [(stored.id, old) for old in named]
            mapped[stored.id] = {}
        kept.sort(key=lambda change: (change[0] is None, change[0] or 0))
        if not kept:
            return mapped
        ids = _in_order(inserted(SeatChange, [columns for _old, columns in kept]))
        by_game = {row.id: game.stored.id for game, row in zip(self.backup_games, rows) if game.stored is not None}
        for (old, columns), new in zip(kept, ids):
            if old is not None:
                mapped[by_game[columns["game_id"]]][old] = new
        if placeholders:
            db.session.execute(delete(SeatChange).where(SeatChange.id.in_(
                [mapped[game][old] for game, old in placeholders])))
        return mapped

    def _insert_hands(self, rows):
        """Every game's hands (under their own keys), trick logs and open hand; ``{backup game id: {old trick
        log id: new}}``. A log the trail names that is no longer there (its hand removed, or dropped by a
        seat change) is named by a negative number, which no log has: as no log has the old id any more."""
        mapped = {}
        for game, row in zip(self.backup_games, rows):
            stored = game.stored
            if stored is None:
                insert_hands(row.id, game.checked)
                continue
            _hand_ids, log_ids = insert_hands(row.id, game.checked, [hand.key for hand in stored.hands],
                                              [hand.recorded_at for hand in stored.hands])
            logs = {hand.log: new for hand, new in zip(stored.hands, log_ids) if hand.log is not None}
            if stored.open_hand is not None:
                logs[stored.open_hand.log] = insert_logs(row.id, [(None, stored.open_hand.played)])[0]
            for number, old in enumerate(sorted(_logs_named(stored.trail) - set(logs)), start=1):
                logs[old] = -number
            mapped[stored.id] = logs
        return mapped

    def _insert_trails(self, rows, seat_changes, logs):
        """Every game's trail, its entries in the order of the old ids, their facts naming the new ids."""
        entries = []
        for game, row in zip(self.backup_games, rows):
            stored = game.stored
            if stored is None or not stored.trail:
                continue
            about = subjects(stored.trail)
            seats, game_logs = seat_changes[stored.id], logs[stored.id]
            for entry in stored.trail:
                subject = about[entry.id]
                entries.append((entry, {
                    "game_id": row.id, "at": entry.at, "action": entry.action, "hand_number": entry.hand_number,
                    "hand_key": entry.hand_key, "after_key": entry.after_key,
                    "before": _facts_text(entry.before, subject, seats, game_logs),
                    "after": _facts_text(entry.after, subject, seats, game_logs)}))
        entries.sort(key=lambda pair: pair[0].id)
        _inserted_with_undoes(Change, entries)

    def _insert_games_trail(self):
        """The club's trail of games, its games the new ones; how many entries."""
        entries = sorted(self.games_trail, key=lambda entry: entry.id)
        if entries:
            db.session.execute(insert(GameChange), [
                {"at": entry.at, "action": entry.action, "game_id": self.game_ids[entry.game],
                 "reason": entry.reason, "device": entry.device,
                 "facts": None if entry.facts is None else json.dumps(self._facts_here(entry.facts),
                                                                      ensure_ascii=False)}
                for entry in entries])
        return len(entries)

    def _facts_here(self, facts):
        """A games entry's ``facts`` with the games it lists (an import's) named by their ids here."""
        if "games" not in facts:
            return facts
        return {**facts, "games": [self.game_ids[game] for game in facts["games"]]}

    def _insert_people_trail(self):
        """The club's trail of people, its people and players the new ones; how many entries."""
        entries = sorted(self.people_trail, key=lambda entry: entry.id)
        _inserted_with_undoes(PersonChange, [(entry, {
            "at": entry.at, "action": entry.action, "person_id": self.persons[entry.person],
            "other_id": None if entry.other is None else self.persons[entry.other], "device": entry.device,
            "facts": json.dumps(self._people_facts(entry.facts), ensure_ascii=False)}) for entry in entries])
        return len(entries)

    def _people_facts(self, facts):
        """A people entry's facts naming the new players: those moved (a player gone since moves nowhere, and
        is left out), and the newest player when a merge was made, as the newest restored player made no later
        than it (a merge's undo moves back the players made after it that bear a spelling of its); and the
        nights a merge moved check-ins of, as restored here (one the backup does not name by id is left
        out)."""
        facts = dict(facts)
        if "players" in facts:
            facts["players"] = sorted(self.players[player] for player in facts["players"] if player in self.players)
        if "nights" in facts:  # the nights whose check-ins a merge moved (a merge kept before nights had none)
            facts["nights"] = sorted(self.night_ids[night] for night in facts["nights"] if night in self.night_ids)
        if facts.get("latest_player") is not None:
            facts["latest_player"] = max((new for old, new in self.players.items() if old <= facts["latest_player"]),
                                         default=0)
        return facts


def _inserted_with_undoes(model, entries):
    """Insert ``entries`` (``(entry with .id and .undoes, columns)``, oldest first) of a trail, then point
    each undo at the new id of the entry it undoes."""
    if not entries:
        return
    ids = _in_order(inserted(model, [columns for _entry, columns in entries]))
    new = {entry.id: mapped for (entry, _columns), mapped in zip(entries, ids)}
    undoes = [{"id": new[entry.id], "undoes_id": new[entry.undoes]} for entry, _columns in entries
              if entry.undoes is not None]
    if undoes:
        db.session.execute(update(model), undoes)


def _in_order(ids):
    """New ids, checked to be in the order of the rows inserted: the restore keeps the old ids' order."""
    if any(later <= earlier for earlier, later in zip(ids, ids[1:])):
        raise Conflict()  # never seen: both databases hand out ids in the order of the rows of one insert
    return ids


# --- Ids inside a trail's facts --------------------------------------------------------------------------


def _seat_changes_named(entries):
    """The ids of the seat changes a game's trail names: a seat change's own (``id``), and those a hand taken
    out moved (``moved``) or saw (``seats``)."""
    about, named = subjects(entries), set()
    for entry in entries:
        for facts in (entry.before, entry.after):
            if facts is None:
                continue
            if about[entry.id] is Subject.SEATS:
                named.add(facts["id"])
            named.update(facts.get("moved", ()))
            named.update(seat for seat, _number in facts.get("seats", ()))
    return named


def _logs_named(entries):
    """The ids of the trick logs a game's trail names (``log``)."""
    return {facts["log"] for entry in entries for facts in (entry.before, entry.after)
            if facts and facts.get("log") is not None}


def _facts_text(facts, subject, seats, logs):
    """An entry's facts as ``Change`` keeps them (JSON), naming the new ids of its seat changes and logs; an
    older entry's ``player_id`` (a player's id, which nothing reads) is left out."""
    if facts is None:
        return None
    facts = {key: value for key, value in facts.items() if key != "player_id"}
    if facts.get("log") is not None:
        facts["log"] = logs[facts["log"]]
    if subject is Subject.SEATS:
        facts["id"] = seats[facts["id"]]
    if "moved" in facts:
        facts["moved"] = [seats[seat] for seat in facts["moved"]]
    if "seats" in facts:
        facts["seats"] = [[seats[seat], number] for seat, number in facts["seats"]]
    return json.dumps(facts, ensure_ascii=False)
