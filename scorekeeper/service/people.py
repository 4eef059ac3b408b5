"""The club's people: linking a game's players to people, renaming and merging them, and undoing any of it."""

import json
import weakref

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import SessionTransaction

from ..db.models import (
    Game,
    Night,
    NightPlayer,
    Person,
    PersonChange,
    PersonName,
    Player,
    db,
)
from . import figures
from .errors import PeopleRefused, SamePerson
from .names import SAME, cleaned, compare, refuse_repeats, too_alike
from .names import key as name_key
from .writing import hold_games, inserted, update_one, writing


def people_of(names, typed=False):
    """The person of each of a new game's (or a joiner's) names, creating the people not known yet.

    A typed spelling finds its person and renames nobody: a person is shown
    by their first spelling, or the name a secretary gave. Call it inside the
    write's transaction: the people found are claimed there (``_claim_people``),
    so a merge that moves one of them away meanwhile makes this write a
    ``Conflict`` rather than seat a player on a person merged away. Raises
    ``SamePerson`` when two names are the spellings of one person.

    ``typed`` names (a new game, a join, an import; not a restore) that no key finds are compared with the
    club's people (``names.compare``): one who is the same person, shown by a name kept before names were
    ``cleaned`` ("Nur  Aisyah"), is theirs; one too alike someone else ("Kіm", Cyrillic і, beside Kim) is
    refused as ``SamePerson``, naming that person as the club shows them.
    """
    keys = [name_key(name) for name in names]
    known = dict(db.session.execute(
        select(PersonName.key, PersonName.person_id).where(PersonName.key.in_(set(keys)))).all())
    if typed and not known.keys() >= set(keys):
        known.update(_club_likenesses([(key, name) for key, name in zip(keys, names) if key not in known]))
    _claim_people([(person, None, None) for person in set(known.values())])
    new = {key: name for key, name in zip(keys, names) if key not in known}
    if new:
        ids = inserted(Person, [{"name": name} for name in new.values()])
        db.session.execute(insert(PersonName), [{"key": key, "person_id": person} for key, person in zip(new, ids)])
        known.update(zip(new, ids))
    linked = [known[key] for key in keys]
    refuse_repeats(names, linked)
    return linked


def _club_likenesses(unknown):
    """For each ``(key, name)`` no key finds, the club's person who is the same (their spelling added), if
    any; ``SamePerson`` for a name too alike a person it is not. The club's people compared as shown."""
    people = db.session.execute(select(Person.id, Person.name).where(Person.merged_into_id.is_(None))).all()
    found = {}
    for key, name in unknown:
        if key in found:
            continue
        for person, shown in people:
            likeness = compare(name, shown)
            if likeness == SAME:
                found[key] = person
                db.session.add(PersonName(key=key, person_id=person))
                break
            if likeness is not None:
                raise SamePerson(name, shown)
    db.session.flush()
    return found


def rename_person(person, name, device=None):
    """Show ``person`` as ``name`` from now on; the name also finds them when typed in a new game.

    Games keep the names they were played under; ``name`` is kept ``cleaned``. Refused with
    ``PeopleRefused("name_taken")`` when the name is another person's, or too alike the name another
    person is shown by (``names.too_alike``: Cyrillic "Kіm" beside Kim), naming them as shown; a
    ``Conflict`` when another device merged ``person`` away, or renamed them, meanwhile.
    ``device`` is the name of the secretary's device, kept on the club's trail.
    """
    name = cleaned(name)
    if name == person.name:
        return person
    _rename(person.id, person.name, name, device)
    return person


def _rename(person_id, before, name, device, undoes_id=None):
    """Show ``person_id``, shown as ``before`` (else ``Conflict``), as ``name``, and write the entry: a rename,
    or the undo ``undoes_id`` that makes a rename again (its facts a rename's, so that it is undone as one)."""
    key = name_key(name)
    with writing():
        _claim_people([(person_id, None, None)])
        owner = db.session.execute(select(PersonName.person_id).where(PersonName.key == key)).scalar()
        if owner is not None and owner != person_id:
            raise PeopleRefused("name_taken", name=name)
        if owner is None:
            alike = _looked_like(name, person_id)
            if alike is not None:
                raise PeopleRefused("name_taken", name=alike)
        update_one(update(Person).where(Person.id == person_id, Person.name == before).values(name=name))
        if owner is None:
            db.session.add(PersonName(key=key, person_id=person_id))
        facts = {"before": before, "after": name, "spelling_added": owner is None}
        db.session.add(PersonChange(action="undo" if undoes_id else "rename", person_id=person_id, device=device,
                                    undoes_id=undoes_id, facts=json.dumps(facts, ensure_ascii=False)))


def merge_people(person, other, device=None):
    """Merge ``other`` into ``person``: their games, figures and spellings become ``person``'s.

    An entry of the club's trail, which undoing moves them all back. Refused
    when both sat in one game (they are two people), or either is merged
    away; both are claimed inside the transaction, so a merge racing another
    merge, a rename or a new game is a ``Conflict``, never a tangle.
    """
    if other.id == person.id:
        raise PeopleRefused("same", name=other.name)
    if person.merged_into_id is not None or other.merged_into_id is not None:
        raise PeopleRefused("merged", name=other.name if other.merged_into_id else person.name)
    _merge(person.id, other.id, other.name, device)
    return other


def _merge(person_id, other_id, other_name, device, undoes_id=None):
    """Merge ``other_id`` into ``person_id`` and write the entry: a merge, or the undo ``undoes_id`` that
    makes a merge again (its facts a merge's: every player and spelling of the other moved)."""
    with writing():
        _claim_people([(person_id, None, None), (other_id, None, person_id)])  # both must still be unmerged
        both = select(Player.game_id).where(Player.person_id == person_id).intersect(
            select(Player.game_id).where(Player.person_id == other_id)).limit(1)
        shared = db.session.execute(both).scalar()
        if shared is not None:
            raise PeopleRefused("played_together", name=other_name, game=db.session.get(Game, shared))
        night = db.session.execute(select(Night).where(Night.id.in_(
            select(NightPlayer.night_id).where(NightPlayer.person_id == person_id).intersect(
                select(NightPlayer.night_id).where(NightPlayer.person_id == other_id)))).limit(1)).scalar()
        if night is not None:
            raise PeopleRefused("same_night", name=other_name, night=night.name)
        hold_games(Player.person_id == other_id)  # their writes wait: each reads the person this merge leaves
        players = _moved(Player, Player.id, Player.person_id == other_id, person_id)
        spellings = _moved(PersonName, PersonName.key, PersonName.person_id == other_id, person_id)
        nights = _moved(NightPlayer, NightPlayer.night_id, NightPlayer.person_id == other_id, person_id)
        latest = db.session.execute(select(func.max(Player.id))).scalar()
        figures.refigure_people([person_id, other_id])
        name = db.session.execute(select(Person.name).where(Person.id == person_id)).scalar_one()
        facts = {"players": players, "names": spellings, "latest_player": latest, "name": name, "nights": nights}
        db.session.add(PersonChange(action="undo" if undoes_id else "merge", person_id=person_id,
                                    other_id=other_id, device=device, undoes_id=undoes_id,
                                    facts=json.dumps(facts, ensure_ascii=False)))


def undo_merge(change, device=None):
    """Undo a merge: the person merged away is back, with their games and spellings, and the
    players of later games who were typed with one of their spellings (an entry of its own).

    Both people are claimed inside the transaction: the one who remained must
    still be unmerged, the other still merged into them (else ``Conflict``).
    ``change`` may be a merge or an undo that made one again (see ``undo_change``).
    """
    _refuse_undoing(change)
    _take_back_merge(change, device)
    return change


def _take_back_merge(change, device):
    facts = json.loads(change.facts)
    spellings = set(facts["names"])
    change_id, survivor_id, merged_id = change.id, change.person_id, change.other_id
    with writing():
        _claim_people([(survivor_id, None, None), (merged_id, survivor_id, None)])
        latest_names = {player_id: name for player_id, name in db.session.execute(
            select(Player.id, Player.name).where(Player.person_id == survivor_id,
                                                 Player.id > (facts["latest_player"] or 0))).all()
                        if name_key(name) in spellings}
        later = list(latest_names)
        hold_games(Player.id.in_(facts["players"] + later) & (Player.person_id == survivor_id))
        players = _moved(Player, Player.id, Player.id.in_(facts["players"] + later) & (
            Player.person_id == survivor_id), merged_id)
        figures.refigure_people([survivor_id, merged_id])
        _moved(PersonName, PersonName.key, PersonName.key.in_(spellings) & (
            PersonName.person_id == survivor_id), merged_id)
        # The nights the merged-away person was checked in for (a merge kept before nights moved none).
        _moved(NightPlayer, NightPlayer.night_id, NightPlayer.night_id.in_(facts.get("nights", [])) & (
            NightPlayer.person_id == survivor_id), merged_id)
        # A survivor shown by one of the spellings going back is shown as before the merge.
        survivor_name = db.session.execute(select(Person.name).where(Person.id == survivor_id)).scalar_one()
        if name_key(survivor_name) in spellings:
            update_one(update(Person).where(Person.id == survivor_id).values(name=facts["name"]))
        db.session.add(PersonChange(action="undo", person_id=survivor_id, other_id=merged_id, device=device,
                                    undoes_id=change_id, facts=json.dumps({"players": players})))


def undo_rename(change, device=None):
    """Undo a rename: the person is shown by the name they had, and the spelling the rename brought is
    released (a new game typed with it finds nobody), unless a game was typed with it since.
    ``change`` may be a rename or an undo that made one again (see ``undo_change``)."""
    _refuse_undoing(change)
    _take_back_rename(change, device)
    return change


def _take_back_rename(change, device):
    facts = json.loads(change.facts)
    change_id, person_id = change.id, change.person_id
    with writing():
        _claim_people([(person_id, None, None)])
        # Renamed again meanwhile: ``Conflict``.
        update_one(update(Person).where(Person.id == person_id, Person.name == facts["after"])
                   .values(name=facts["before"]))
        spelling = name_key(facts["after"])
        typed = any(name_key(name) == spelling for name in db.session.execute(
            select(Player.name).where(Player.person_id == person_id)).scalars())
        released = bool(facts.get("spelling_added")) and not typed
        if released:
            db.session.execute(delete(PersonName).where(PersonName.key == spelling,
                                                        PersonName.person_id == person_id))
        db.session.add(PersonChange(action="undo", person_id=person_id, undoes_id=change_id, device=device,
                                    facts=json.dumps({"released": released, "before": facts["after"],
                                                      "after": facts["before"]}, ensure_ascii=False)))


def _looked_like(name, person_id):
    """The name of the first other person of the club, as shown, too alike ``name`` (``names.too_alike``)."""
    others = db.session.execute(select(Person.name).where(
        Person.id != person_id, Person.merged_into_id.is_(None))).scalars()
    return next((shown for shown in others if too_alike(name, shown)), None)


def chain(change, entries=None):
    """The first entry of ``change``'s chain of undos among ``entries`` (or a dict of them by id; the
    database's by default), and how many undos lie between: 0, ``change`` is that origin (a rename or a
    merge); odd, its undos took the origin's change back; even, they made it again (an undo of an undo),
    exactly as it was."""
    if entries is None:
        def find(entry_id):
            return db.session.get(PersonChange, entry_id)
    else:
        by_id = entries if isinstance(entries, dict) else {entry.id: entry for entry in entries}
        find = by_id.get
    origin, depth = change, 0
    while origin.action == "undo" and (undone := find(origin.undoes_id)) is not None:
        origin, depth = undone, depth + 1
    return origin, depth


def makes_merge(change, entries=None):
    """Whether the entry ``change`` merged its ``other_id`` into its ``person_id``: a merge, or an undo that
    made one again."""
    origin, depth = chain(change, entries)
    return origin.action == "merge" and depth % 2 == 0


def person_change_refusal(change, entries):
    """Why the trail entry ``change`` cannot be undone now (None if it can), among all ``entries`` of the trail.

    The club's trail is the game's: every entry can be undone, an undo included (which makes its change
    again), while it is not undone already and nothing later stands in its way: no other chain of undos
    (a rename or a merge and the undos of it, of its undo, ...) touching one of its people (a rename's
    person; a merge's two) left a change standing since, that is, holds an odd number of entries later
    than ``change`` (an undo taking back a change made after ``change`` clears the way). Undo that later
    one first: ``person_change_blocker`` names it.
    """
    return _refusal(change, entries)[0]


def person_change_blocker(change, entries):
    """The newest later entry that stands in the way of undoing ``change`` (None if none does)."""
    return _refusal(change, entries)[1]


def _refusal(change, entries):
    by_id = {entry.id: entry for entry in entries}
    origin, _depth = chain(change, by_id)
    if origin.action not in ("merge", "rename"):
        return "not_undoable", None
    if any(entry.undoes_id == change.id for entry in entries):
        return "undone", None
    people = _touched(change)
    later = {}  # each other chain's entries later than ``change``, by its origin's id
    for entry in entries:
        if entry.id > change.id and _touched(entry) & people:
            later.setdefault(chain(entry, by_id)[0].id, []).append(entry)
    standing = [max(chained, key=lambda entry: entry.id) for root, chained in later.items()
                if root != origin.id and len(chained) % 2]
    if standing:
        return "later_change", max(standing, key=lambda entry: entry.id)
    return None, None


def _touched(entry):
    """The people an entry of the club's trail changed (an undo's are its origin's, kept on it)."""
    return {entry.person_id, entry.other_id} - {None}


def _refuse_undoing(change, entries=None):
    refusal, later = _refusal(change, _people_trail() if entries is None else entries)
    if refusal is not None:
        raise PeopleRefused(refusal, later=later)


def undo_change(change, device=None):
    """Undo an entry of the club's trail of people, whichever it is (see ``person_change_refusal`` for when):
    a rename or a merge is taken back; an undo's undo makes the change again, exactly as it was (the same
    name; the same two people merged, every player of the one merged away moved as the merge moved them),
    itself an entry that can be undone in turn."""
    entries = _people_trail()
    _refuse_undoing(change, entries)
    origin, depth = chain(change, entries)
    if depth % 2 == 0:  # the entry made the origin's change: take it back
        if origin.action == "rename":
            _take_back_rename(change, device)
        else:
            _take_back_merge(change, device)
        return change
    made = db.session.get(PersonChange, change.undoes_id)  # the entry whose change ``change`` took back
    if origin.action == "rename":
        facts = json.loads(made.facts)
        _rename(change.person_id, facts["before"], facts["after"], device, undoes_id=change.id)
    else:
        merged = db.session.get(Person, change.other_id)
        _merge(change.person_id, change.other_id, merged.name, device, undoes_id=change.id)
    return change


def _people_trail():
    return db.session.execute(select(PersonChange).order_by(PersonChange.id.desc())).scalars().all()


# Each open transaction's people claimed and unmerged in it (``_claim_people``); gone with the transaction.
_UNMERGED: weakref.WeakKeyDictionary[SessionTransaction, set[int]] = weakref.WeakKeyDictionary()


def claim_unmerged(people):
    """Claim the people of ids ``people`` inside the write's transaction as they are, unmerged: ``Conflict``
    if one was merged away meanwhile (a night's draw seats them by id)."""
    _claim_people([(person, None, None) for person in people])


def _claim_people(claims):
    """Claim people inside the write's transaction, each ``(person id, merged into now, becomes)`` (None:
    not merged): each moves from what the caller found to what it becomes, or ``Conflict`` is raised, as
    another device changed them first. Claimed lowest id first, so that two writes claiming the same two
    people queue on PostgreSQL's row locks instead of deadlocking.

    A person this transaction already claimed, or left, unmerged is not claimed again: the first claim
    holds them until the commit (PostgreSQL's row lock; SQLite's one writer), so a restore of 1,000 games
    among six people runs six claims, not 6,000.
    """
    db.session.connection()  # the transaction begins here if it has not yet
    unmerged = _UNMERGED.setdefault(db.session().get_transaction(), set())
    for person_id, merged_into, becomes in sorted(claims):
        if merged_into is None and becomes is None and person_id in unmerged:
            continue
        now = Person.merged_into_id.is_(None) if merged_into is None else Person.merged_into_id == merged_into
        update_one(update(Person).where(Person.id == person_id, now).values(merged_into_id=becomes))
        if becomes is None:
            unmerged.add(person_id)
        else:
            unmerged.discard(person_id)


def _moved(model, returned, where, person_id):
    """Point the rows of ``model`` that match ``where`` to ``person_id``; the ``returned`` column of each, in order."""
    moved = db.session.execute(
        update(model).where(where).values(person_id=person_id).returning(returned),
        execution_options={"synchronize_session": False}).scalars().all()
    return sorted(moved)
