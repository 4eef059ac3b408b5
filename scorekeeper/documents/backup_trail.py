"""A game's trail as a backup holds it: each entry read, with the facts of what it changed (a hand, the
seats, the house rules, a trick, the kitty) checked against the game's document before anything is stored."""

from .. import rules, service
from ..db.models import NAME_LENGTH
from .backup_values import are_ids, is_id, is_shown_name, read_time
from .game import DocumentError, whole

_ACTIONS = {action.value for action in service.Action}


def read_trail(entries, checked, last_key, seen):
    """A game's trail (``Change`` entries, oldest first) as ``service.TrailEntry`` values, each entry's facts
    in the form its kind of entry writes them (entries.py, hands.py, seats.py, tricks.py), so that its
    page and its undo read them as they read their own."""
    if not isinstance(entries, list):
        raise DocumentError("\"stored\": \"trail\" must be a list of the game's trail entries, oldest first.")
    trail, ids = [], set()
    for number, entry in enumerate(entries, start=1):
        where = f"\"stored\": trail entry {number}"
        if not isinstance(entry, dict) or not is_id(entry.get("id")) or entry.get("action") not in _ACTIONS:
            raise DocumentError(f"{where} needs an \"id\" and an \"action\" (one of {', '.join(sorted(_ACTIONS))}).")
        if entry["id"] in seen.entries or (trail and entry["id"] <= trail[-1].id):
            raise DocumentError(f"{where}: the entries must be listed oldest first, each id once.")
        hand_number, hand_key, after_key = entry.get("hand_number"), entry.get("hand_key"), entry.get("after_key")
        if (not whole(hand_number) or hand_number < 0 or not is_id(hand_key, none=True)
                or not is_id(after_key, none=True) or max(hand_key or 0, after_key or 0) > last_key):
            raise DocumentError(f"{where} needs a \"hand_number\" (0 or more), and a \"hand_key\" and \"after_key\" "
                                "(hands' keys, up to \"last_hand_key\", or null).")
        undoes = entry.get("undoes")
        if (entry["action"] == service.Action.UNDO.value) != (undoes is not None) or (
                undoes is not None and undoes not in ids):
            raise DocumentError(f"{where}: an undo, and only an undo, names the entry of this trail it undoes "
                                "(\"undoes\"), an older one.")
        before, after = entry.get("before"), entry.get("after")
        if not all(facts is None or isinstance(facts, dict) for facts in (before, after)):
            raise DocumentError(f"{where}: \"before\" and \"after\" must be objects or null.")
        trail.append(service.TrailEntry(entry["id"], read_time(entry.get("at"), f"{where}: \"at\""),
                                        entry["action"], hand_number, hand_key, after_key, undoes, before, after))
        ids.add(entry["id"])
    about = service.subjects(trail)
    for number, entry in enumerate(trail, start=1):
        problem = _FACTS[about[entry.id]](entry, checked)
        if problem:
            raise DocumentError(f"\"stored\": trail entry {number}: {problem}")
    seen.entries |= ids
    return tuple(trail)


def _hand_facts_problem(entry, checked):
    """What is wrong with a hand entry's facts (``entries.hand_facts``), or None."""
    roster = len(checked.facts.names)
    if entry.before is None and entry.after is None:
        return "a hand's entry has the hand's facts before or after it (or both)."
    for facts in (entry.before, entry.after):
        if facts is None:
            continue
        taken = facts.get("taken")
        if (not isinstance(taken, list) or not rules.MIN_PLAYERS <= len(taken) <= min(roster, rules.MAX_PLAYERS)
                or not all(_counts(counts) for counts in taken) or facts.get("moon", False) not in (None, "subtract",
                                                                                                   "add")):
            return "a hand's facts need \"taken\" (each seat's hearts, Black Marias and J♦) and \"moon\"."
        seating = facts.get("seating", list(range(len(taken))))
        if (not isinstance(seating, list) or len(seating) != len(taken)
                or not all(whole(player) and 0 <= player < roster for player in seating)
                or len(set(seating)) < len(seating)):
            return "a hand's \"seating\" lists a player of the game for each seat, once each."
        if not is_id(facts.get("log"), none=True):
            return "a hand's \"log\" is the id of its trick log."
        moved, seats = facts.get("moved", []), facts.get("seats", [])
        if not are_ids(moved) or not isinstance(seats, list) or not all(
                isinstance(seat, list) and len(seat) == 2 and is_id(seat[0]) and whole(seat[1]) for seat in seats):
            return "a hand's \"moved\" lists seat changes' ids, and its \"seats\" [id, hand] pairs."
        if "tricks" in facts and not _log_facts(facts["tricks"], len(taken), checked.facts.variant):
            return "a hand's \"tricks\" must be a trick log as the trail keeps one (\"first_leader\", \"kitty\" " \
                   "and \"tricks\", [cards, confirmed] each) that can have been played (R6-R13)."
    return None


def _counts(counts):
    """Whether ``counts`` are one seat's ``[hearts, marias]`` or ``[hearts, marias, jacks]`` (R14)."""
    return (isinstance(counts, list) and len(counts) in (2, 3) and all(whole(count) for count in counts)
            and 0 <= counts[0] <= rules.HEARTS_IN_HAND and 0 <= counts[1] <= rules.MARIAS_IN_HAND
            and (len(counts) == 2 or 0 <= counts[2] <= rules.JACKS_IN_HAND))


def _log_facts(log, players, variant):
    """Whether ``log`` is a removed hand's trick log as the trail keeps it (``TrickLog.facts``), which the
    engine plays through at a table of ``players`` (R6-R13): putting the hand back puts it back."""
    if not isinstance(log, dict) or not whole(log.get("first_leader")) or not 0 <= log["first_leader"] < players:
        return False
    tricks, kitty = log.get("tricks"), log.get("kitty")
    if not (kitty is None or _cards(kitty)) or not isinstance(tricks, list) or not all(
            isinstance(trick, list) and len(trick) == 2 and _cards(trick[0]) and isinstance(trick[1], bool)
            for trick in tricks):
        return False
    try:
        rules.check_log(rules.PlayedLog(log["first_leader"], rules.parse_cards(kitty.split()) if kitty else (),
                                        tuple((rules.parse_cards(cards.split()), confirmed)
                                              for cards, confirmed in tricks)), players, variant)
    except rules.RuleError:
        return False
    return True


def _cards(text):
    """Whether ``text`` is cards as the database keeps them ("10♠ 9♥")."""
    if not isinstance(text, str) or not text.split():
        return False
    try:
        rules.parse_cards(text.split())
    except rules.RuleError:
        return False
    return True


def _seat_facts_problem(entry, _checked):
    """What is wrong with a seat change entry's facts (``seats.seated``), or None."""
    if (entry.before is None) == (entry.after is None):
        return "a seat change's entry has its facts either before it (taken back) or after it (made)."
    facts = entry.before or entry.after
    kind = facts.get("kind")
    if (not is_id(facts.get("id")) or kind not in ("join", "leave") or not whole(facts.get("before_hand"))
            or facts["before_hand"] < 2 or not whole(facts.get("player")) or facts["player"] < 0
            or not is_id(facts.get("log"), none=True)
            or not all(whole(facts.get(key)) if kind == "join" else facts.get(key) is None for key in ("at", "start"))):
        return "a seat change's facts need its \"id\", \"kind\" (join or leave), \"before_hand\" (2 or more), " \
               "\"player\", and for a join \"at\" and \"start\"."
    if not is_shown_name(facts.get("name")):
        return f"a seat change's \"name\" is the player's name (1 to {NAME_LENGTH} characters)."
    return None


def _rules_facts_problem(entry, _checked):
    """What is wrong with a house rules entry's facts (``Variant.facts``), or None."""
    for facts in (entry.before, entry.after):
        if not isinstance(facts, dict) or set(facts) != set(rules.HOUSE_RULE_NAMES):
            return "a house rules entry has the house rules before and after it, each of them."
        try:
            rules.Variant.from_facts(facts)
        except (rules.RuleError, TypeError, ValueError):
            return "a house rules entry has house rules the app cannot play."
    return None


def _trick_facts_problem(entry, _checked):
    """What is wrong with a trick entry's facts (``tricks.trick_facts``), or None."""
    if (entry.before is None) == (entry.after is None):
        return "a trick's entry has the trick either before it (taken back) or after it (entered)."
    facts = entry.before or entry.after
    if (not is_id(facts.get("log")) or not is_id(facts.get("trick")) or not _cards(facts.get("cards"))
            or not isinstance(facts.get("confirmed"), bool)):
        return "a trick's facts need its \"log\", \"trick\" number, \"cards\" and \"confirmed\"."
    return None


def _kitty_facts_problem(entry, _checked):
    """What is wrong with a kitty entry's facts (``tricks._say_kitty``), or None."""
    for facts in (entry.before, entry.after):
        if not isinstance(facts, dict) or not is_id(facts.get("log")) or not (
                facts.get("kitty") is None or _cards(facts["kitty"])):
            return "a kitty's entry has the kitty before and after it: its \"log\" and its cards (or null)."
    return None


def _no_first_entry(_entry, _checked):
    return "an undo of no entry this trail has."


_FACTS = {service.Subject.HAND: _hand_facts_problem, service.Subject.SEATS: _seat_facts_problem,
          service.Subject.RULES: _rules_facts_problem, service.Subject.TRICKS: _trick_facts_problem,
          service.Subject.KITTY: _kitty_facts_problem, None: _no_first_entry}
