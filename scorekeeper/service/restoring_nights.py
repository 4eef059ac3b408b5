"""A backup's club nights (R18) brought back inside a restore's transaction (``service.restoring``): each
night with who was checked in, its rounds' tables and its trail, its people, games and entries named by
their ids here."""

import heapq
import json
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import insert

from ..db.models import Night, NightPlayer, NightRound, NightTable, db
from .errors import SamePerson
from .nights import PLAYERS
from .writing import inserted


@dataclass(frozen=True)
class BackupNight:
    """A club night of a backup (R18): its own facts; who was checked in, each ``(person, from_round,
    left_after, checked_in_at)``; its rounds, each ``(number, seed, repeated, drawn_at, closed_at,
    tables)``, a table ``(number, game)``; its ``id`` in the backup's database (None in a backup made before
    nights had a trail: nothing names it); and its trail, oldest first, each entry ``(at, action, device,
    undoes, kind, round, before, after)`` as ``service.nights`` writes it, ``undoes`` the place (from 1) in
    this trail of the entry it undid, a players entry's ``before`` and ``after`` by person. People and games
    are named by the backup's ids."""

    name: str
    played_on: date
    deals: int | None
    target: int
    made_at: datetime
    players: tuple
    rounds: tuple
    id: int | None = None
    trail: tuple = ()


@dataclass(frozen=True)
class NightRef:
    """An entry of a backup night's trail as a restore knows it: ``(night, place)``, and the ``(night,
    place)`` of the entry it undid (None: it undid none)."""

    id: tuple
    undoes: tuple | None


def insert_nights(nights, person_here, names, game_ids):
    """Insert the backup's ``nights`` (``BackupNight``), each person the one ``person_here`` gives (None:
    nobody), shown by ``names`` (by the backup's id), each game ``game_ids``'. Returns ``{backup night id:
    new id}`` and every night's trail entries to insert, ``(NightRef, NightChange columns)``, in the order
    they were made: each night's in its own order, the nights' interleaved by when they were made (the
    club's page lists the nights changed most recently first).

    A restored night's revision is 1 and one for each entry of its trail: every change claims the
    revision once, so this is the revision the night would have after exactly those changes, and it only
    needs to grow from here (the devices that change the night read it from pages shown after the
    restore). The backup does not carry it, so there is nothing to check against the trail.

    ``SamePerson`` when two people checked in for one night are one person here (merged, or renamed)."""
    night_ids, trails = {}, []
    for number, night in enumerate(nights):
        trail = _trail_here(night.trail, person_here)
        night_id = inserted(Night, [{"name": night.name, "played_on": night.played_on, "deals": night.deals,
                                     "target": night.target, "made_at": night.made_at,
                                     "revision": 1 + len(trail)}])[0]
        if night.id is not None:
            night_ids[night.id] = night_id
        first = {}  # a person here -> the backup's person checked in as them
        for person, *_rest in night.players:
            found = person_here(person)
            if found is not None and first.setdefault(found, person) != person:
                raise SamePerson(names[person], names[first[found]])
        if night.players:
            db.session.execute(insert(NightPlayer), [
                {"night_id": night_id, "person_id": person_here(person), "from_round": start, "left_after": left,
                 "checked_in_at": at} for person, start, left, at in night.players])
        for round_number, seed, repeated, drawn_at, closed_at, tables in night.rounds:
            round_id = inserted(NightRound, [{"night_id": night_id, "number": round_number, "seed": seed,
                                              "repeated": repeated, "drawn_at": drawn_at,
                                              "closed_at": closed_at}])[0]
            if tables:
                db.session.execute(insert(NightTable), [
                    {"round_id": round_id, "number": table, "game_id": game_ids[game]} for table, game in tables])
        trails.append([(NightRef((number, place), None if undoes is None else (number, undoes)), {
            "night_id": night_id, "at": at, "action": action, "device": device,
            "facts": json.dumps({"kind": kind, "round": round_number, "before": before, "after": after},
                                ensure_ascii=False)})
            for place, (at, action, device, undoes, kind, round_number, before, after) in enumerate(trail, start=1)])
    # heapq.merge takes each night's entries in their own order, whatever the clock said.
    return night_ids, list(heapq.merge(*trails, key=lambda entry: entry[1]["at"]))


def _trail_here(trail, person_here):
    """A night's trail with its people as the people here; left out (empty) if two people of one entry are
    one person here, or someone of it is nobody here: its undo would act on someone else."""
    here = []
    for at, action, device, undoes, kind, round_number, before, after in trail:
        if kind == PLAYERS:
            before, after = (_people_here(facts, person_here) for facts in (before, after))
            if before is None or after is None:
                return ()
        here.append((at, action, device, undoes, kind, round_number, before, after))
    return tuple(here)


def _people_here(facts, person_here):
    """A players entry's facts by the people here (None if they cannot be named one to one)."""
    here = {}
    for person, state in facts.items():
        found = person_here(person)
        if found is None or found in here:
            return None
        here[found] = state
    return here
