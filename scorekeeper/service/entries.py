"""The trail's rows: what every change writes about itself (its action, and the facts before and after)."""

import enum
import json

from ..db.models import (
    Change,
)


class Action(str, enum.Enum):
    """What a trail entry did, as ``Change.action`` stores it."""

    RECORD = "record"  # a hand recorded
    CORRECT = "correct"  # a hand's facts changed
    REMOVE = "remove"  # a hand taken out; later hands move up one
    JOIN = "join"  # a player sat down before the next hand (R1)
    LEAVE = "leave"  # a player left before the next hand (R1)
    RULES = "rules"  # the house rules changed
    TRICK = "trick"  # a trick of the open hand entered (R9-R13)
    KITTY = "kitty"  # what the kitty held, said once its winner turned it over (R12)
    UNDO = "undo"  # an entry undone, an undo included


def hand_facts(record, seating=None, trick_log=None, moved=None, seats=None, log=None):
    """A hand's facts as the trail keeps them: each seat's takings and the moon (``Change.record_of`` reads
    them back), who played it (roster numbers, in its seating), and, for a hand taken out, its trick log,
    the seat changes it moved and where every seat change then stood; ``log`` the id of the trick log a
    recorded hand took with it."""
    facts = {
        "taken": [[taken.hearts, taken.marias, taken.jacks] if taken.jacks else [taken.hearts, taken.marias]
                  for taken in record.taken],
        "moon": None if record.moon is None else record.moon.value,
    }
    if seating is not None:
        facts["seating"] = list(seating)
    if trick_log is not None:
        facts["tricks"] = trick_log.facts()
    if moved is not None:
        facts["moved"] = moved
        facts["seats"] = seats
    if log is not None:
        facts["log"] = log
    return facts


def trail_hand(game, action, hand, before=None, after=None, after_key=None, undoes=None):
    """An entry of the trail about one hand: its facts before and after (plain dicts, None: no hand)."""
    return _entry(game, action, hand.number, hand.key, after_key, before, after, undoes)


def trail_game(game, action, hand_number=0, before=None, after=None, undoes=None):
    """An entry of the trail about the game rather than one hand: house rules, a seat change, a trick, the kitty."""
    return _entry(game, action, hand_number, None, None, before, after, undoes)


def _entry(game, action, hand_number, hand_key, after_key, before, after, undoes):
    change = Change(**entry_columns(action, hand_number, hand_key, after_key, before, after, undoes))
    game.changes.append(change)
    return change


def entry_columns(action, hand_number, hand_key=None, after_key=None, before=None, after=None, undoes=None):
    """A trail entry as ``Change``'s columns (its game's aside), its facts as JSON."""
    return {
        "action": Action(action).value, "hand_number": hand_number, "hand_key": hand_key, "after_key": after_key,
        "undoes_id": None if undoes is None else undoes.id,
        "before": None if before is None else json.dumps(before, ensure_ascii=False),
        "after": None if after is None else json.dumps(after, ensure_ascii=False),
    }
