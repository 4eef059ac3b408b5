"""The club's people: linking a game's players to people, renaming and merging them, undoing a merge."""

import json

from sqlalchemy import func, insert, select, update

from ..db.models import (
    Game,
    Person,
    PersonChange,
    PersonName,
    Player,
    db,
)
from .errors import Conflict, PeopleRefused
from .names import key as name_key
from .names import refuse_repeats
from .writing import inserted, writing


def people_of(names):
    """The person of each of a new game's (or a joiner's) names, creating the people not known yet.

    A known person takes the spelling just typed (a person is shown by the
    spelling used most recently). Raises ``SamePerson`` when two names are
    the spellings of one merged person.
    """
    keys = [name_key(name) for name in names]
    known = {key: (person, shown) for key, person, shown in db.session.execute(
        select(PersonName.key, Person.id, Person.name).join(Person, Person.id == PersonName.person_id)
        .where(PersonName.key.in_(set(keys)))).all()}
    new = {key: name for key, name in zip(keys, names) if key not in known}
    if new:
        ids = inserted(Person, [{"name": name} for name in new.values()])
        db.session.execute(insert(PersonName), [{"key": key, "person_id": person} for key, person in zip(new, ids)])
    respelled = {known[key][0]: name for key, name in zip(keys, names) if key in known and known[key][1] != name}
    if respelled:
        db.session.execute(update(Person), [{"id": person, "name": name} for person, name in respelled.items()])
    people = {**{key: person for key, (person, _shown) in known.items()}, **dict(zip(new, ids if new else ()))}
    linked = [people[key] for key in keys]
    refuse_repeats(names, linked)
    return linked


def rename_person(person, name):
    """Show ``person`` as ``name`` from now on; the name also finds them when typed in a new game.

    Games keep the names they were played under. Refused with
    ``PeopleRefused("name_taken")`` when the name is another person's.
    """
    name = name.strip()
    key = name_key(name)
    owner = db.session.execute(select(PersonName.person_id).where(PersonName.key == key)).scalar()
    if owner is not None and owner != person.id:
        raise PeopleRefused("name_taken", name=name)
    if name == person.name:
        return person
    with writing():
        facts = {"before": person.name, "after": name}
        person.name = name
        if owner is None:
            db.session.add(PersonName(key=key, person_id=person.id))
        db.session.add(PersonChange(action="rename", person_id=person.id, facts=json.dumps(facts, ensure_ascii=False)))
    return person


def merge_people(person, other):
    """Merge ``other`` into ``person``: their games, figures and spellings become ``person``'s.

    An entry of the club's trail, which undoing moves them all back. Refused
    when both sat in one game (they are two people), or either is merged away.
    """
    if other.id == person.id:
        raise PeopleRefused("same", name=other.name)
    if person.merged_into_id is not None or other.merged_into_id is not None:
        raise PeopleRefused("merged", name=other.name if other.merged_into_id else person.name)
    both = select(Player.game_id).where(Player.person_id == person.id).intersect(
        select(Player.game_id).where(Player.person_id == other.id)).limit(1)
    shared = db.session.execute(both).scalar()
    if shared is not None:
        raise PeopleRefused("played_together", name=other.name, game=db.session.get(Game, shared))
    with writing():
        _claim_person(other.id, None, person.id)
        players = _moved(Player, Player.id, Player.person_id == other.id, person.id)
        spellings = _moved(PersonName, PersonName.key, PersonName.person_id == other.id, person.id)
        latest = db.session.execute(select(func.max(Player.id))).scalar()
        facts = {"players": players, "names": spellings, "latest_player": latest, "name": person.name}
        db.session.add(PersonChange(action="merge", person_id=person.id, other_id=other.id,
                                    facts=json.dumps(facts, ensure_ascii=False)))
    return other


def undo_merge(change):
    """Undo a merge: the person merged away is back, with their games and spellings, and the
    players of later games who were typed with one of their spellings (an entry of its own)."""
    refusal = merge_refusal(change, _people_trail())
    if refusal is not None:
        raise PeopleRefused(refusal)
    facts = json.loads(change.facts)
    spellings = set(facts["names"])
    latest_names = {player_id: name for player_id, name in db.session.execute(
        select(Player.id, Player.name).where(Player.person_id == change.person_id,
                                             Player.id > (facts["latest_player"] or 0))).all()
                    if name_key(name) in spellings}
    later = list(latest_names)
    survivor, merged = db.session.get(Person, change.person_id), db.session.get(Person, change.other_id)
    with writing():
        _claim_person(change.other_id, change.person_id, None)
        players = _moved(Player, Player.id, Player.id.in_(facts["players"] + later) & (
            Player.person_id == change.person_id), change.other_id)
        _moved(PersonName, PersonName.key, PersonName.key.in_(spellings) & (
            PersonName.person_id == change.person_id), change.other_id)
        # Spellings typed since the merge go back with them, and so does being shown by one.
        if later:
            merged.name = latest_names[max(later)]
        if name_key(survivor.name) in spellings:
            survivor.name = facts["name"]
        db.session.add(PersonChange(action="undo", person_id=change.person_id, other_id=change.other_id,
                                    undoes_id=change.id, facts=json.dumps({"players": players})))
    return change


def merge_refusal(change, entries):
    """Why the trail entry ``change`` cannot be undone now (None if it can), among all ``entries`` of the trail.

    Only a merge can be undone, once, and only while neither person was merged away since.
    """
    if change.action != "merge":
        return "not_undoable"
    if any(entry.undoes_id == change.id for entry in entries):
        return "undone"
    undone = {entry.undoes_id for entry in entries if entry.action == "undo"}
    later = [entry for entry in entries if entry.action == "merge" and entry.id > change.id
             and entry.id not in undone and entry.other_id in (change.person_id, change.other_id)]
    return "later_merge" if later else None


def _people_trail():
    return db.session.execute(select(PersonChange).order_by(PersonChange.id.desc())).scalars().all()


def _claim_person(person_id, merged_into, becomes):
    """Move a person's ``merged_into_id`` from ``merged_into`` to ``becomes`` (None: not merged), or raise
    ``Conflict`` if another device moved it first."""
    now = Person.merged_into_id.is_(None) if merged_into is None else Person.merged_into_id == merged_into
    moved = db.session.execute(
        update(Person).where(Person.id == person_id, now).values(merged_into_id=becomes),
        execution_options={"synchronize_session": False})
    if moved.rowcount != 1:
        raise Conflict()


def _moved(model, returned, where, person_id):
    """Point the rows of ``model`` that match ``where`` to ``person_id``; the ``returned`` column of each, in order."""
    moved = db.session.execute(
        update(model).where(where).values(person_id=person_id).returning(returned),
        execution_options={"synchronize_session": False}).scalars().all()
    return sorted(moved)
