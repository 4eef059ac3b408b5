"""The trail and its undo (R17): each entry with what stands in the way of undoing it, and the undo itself."""

import enum
import json
from dataclasses import dataclass, replace

from .. import rules
from ..db.models import (
    Hand,
    Trick,
    TrickLog,
    db,
    record_of_facts,
    seat_change_value,
)
from .entries import Action, hand_facts, trail_game, trail_hand
from .errors import UndoRefused
from .hands import attach_log, deletion, insert_row, set_facts
from .seats import check_hands_under, refuse_while_under_way, seated, set_house_rules, with_log_dropped
from .tricks import open_play, trick_facts
from .writing import refusals_of, writing


class Subject(enum.Enum):
    """What a trail entry changes: undoing it sets that back to what the entry found."""

    HAND = "hand"  # one hand's facts, and whether it is there (by its key)
    SEATS = "seats"  # one seat change (by its id)
    RULES = "rules"  # the house rules
    TRICKS = "tricks"  # the last trick of the open hand's log
    KITTY = "kitty"  # the kitty of the open hand's log


SUBJECTS = {
    Action.RECORD: Subject.HAND, Action.CORRECT: Subject.HAND, Action.REMOVE: Subject.HAND,
    Action.JOIN: Subject.SEATS, Action.LEAVE: Subject.SEATS, Action.RULES: Subject.RULES,
    Action.TRICK: Subject.TRICKS, Action.KITTY: Subject.KITTY,
}


@dataclass(frozen=True)
class TrailLine:
    """One trail entry as the table sees it: what it did, and whether it can be undone, and if not, why.

    Every entry holds what it found (``before``) and what it left
    (``after``), as plain facts (None: no such hand, seat change or trick);
    undoing it puts ``before`` back in place of ``after``, and is itself an
    entry, which can be undone in turn. ``origin`` is the first entry of a
    chain of undos and ``depth`` how many undos lie between (0: the entry
    is an origin; odd: the undos took its change back; even: they made it
    again). An entry can be undone while the game still holds what it left
    (``holds``); ``blocked_by`` is then the newest later entry that still
    stands and touched the same thing: undo that first.
    """

    change: object  # a ``Change`` row, or a row of its columns (a page's plain read)
    subject: Subject
    origin: object
    depth: int
    before: dict | None
    after: dict | None
    holds: bool
    now: int | None = None  # the number of the hand (or the hand a seat change comes before) today
    undone_by: "TrailLine | None" = None
    blocked_by: "TrailLine | None" = None
    legacy: bool = False  # kept from an earlier version, without what undoing it needs

    @property
    def action(self):
        return Action(self.change.action)

    @property
    def origin_action(self):
        return Action(self.origin.action)

    @property
    def again(self):
        """An undo that made its origin's change again (an undo of an undo)."""
        return self.depth > 0 and self.depth % 2 == 0

    @property
    def undoable(self):
        return self.undone_by is None and not self.legacy and self.holds

    @property
    def moved(self):
        """The game no longer holds what the entry left, and no standing entry says why."""
        return self.undone_by is None and not self.legacy and not self.holds and self.blocked_by is None

    @property
    def removes_a_hand(self):
        """Undoing this entry takes a hand out of the game (a removal: the table is asked first)."""
        return self.subject is Subject.HAND and self.before is None and self.after is not None

    @property
    def hand_key(self):
        return self.change.hand_key


class _HandsByKey:
    """A game's hands by their keys, found from the newest back: the trail's newest entries are about the
    newest hands, so that a page showing them looks at a few hands, not every one."""

    def __init__(self, hands):
        self._hands = hands

    def __len__(self):
        return len(self._hands)

    def __contains__(self, key):
        return self._find(key) is not None

    def get(self, key):
        """The engine record of the hand with ``key``, or None."""
        hand = self._find(key)
        return None if hand is None else hand.record()

    def number(self, key):
        """The number of the hand with ``key``, or None."""
        hand = self._find(key)
        return None if hand is None else hand.number

    def _find(self, key):
        return next((hand for hand in reversed(self._hands) if hand.key == key), None)


@dataclass(frozen=True)
class _Holding:
    """What the game holds now, as far as the trail compares it with what entries left."""

    hands: _HandsByKey  # its hands, by key
    seats: dict  # seat change id -> the hand it comes before
    roster: int
    rules: dict  # the house rules' facts
    log: tuple | None  # the open hand's trick log: (id, tricks entered, kitty text or None, last trick's cards)


def _holding(game):
    seats = {change.id: change.before_hand for change in game.seat_changes}
    return _Holding(_HandsByKey(game.hands), seats, len(game.names), game.variant.facts(), game.open_log_facts)


def trail(game, changes=None):
    """The game's trail, newest first, each entry with what stands in the way of undoing it (see ``TrailLine``).

    Undoing an entry and then undoing that undo returns the very same game;
    undoing, newest first, every entry whose change stands (an origin not
    undone, or an undo of an undo not undone) returns the game to its start.

    ``changes`` are the entries to read (rows with ``Change``'s columns), the
    game's own by default: the newest ones of the trail and the entries they
    undo are enough to know everything of those newest ones (what stands in an
    entry's way is a later entry); the lines of the older ones read then are
    not to be trusted, and come last.
    """
    changes = sorted(game.changes if changes is None else changes, key=lambda change: change.id)
    by_id = {change.id: change for change in changes}
    undone = {change.undoes_id: change.id for change in changes if change.action == Action.UNDO}
    now = _holding(game)
    lines = {}
    standing = {}  # a thing an entry touched -> the newest entry that touched it and still stands
    for change in reversed(changes):
        origin, depth = change, 0
        while origin.action == Action.UNDO and origin.undoes_id in by_id:
            origin, depth = by_id[origin.undoes_id], depth + 1
        subject = SUBJECTS.get(origin.action)
        before, after = _facts(change.before), _facts(change.after)
        undone_by = lines.get(undone.get(change.id))
        legacy = subject is None or _legacy(change, subject, before, after)
        holds = not legacy and _HOLDS[subject](change, before, after, now)
        touched, depends = (set(), set()) if legacy else _touched(change, subject, before, after)
        blocker = None
        if undone_by is None and not legacy and not holds:
            blocker = max((standing[thing] for thing in depends if thing in standing),
                          key=lambda line: line.change.id, default=None)
        line = TrailLine(change, subject, origin, depth, before, after, holds,
                         _number_now(subject, change, before, after, now), undone_by, blocker, legacy)
        lines[change.id] = line
        if undone_by is None:
            for thing in touched:
                standing.setdefault(thing, line)
    return [lines[change.id] for change in reversed(changes)]


def _facts(text):
    return None if text is None else json.loads(text)


def _legacy(change, subject, before, after):
    """An entry from before the trail kept what undoing it needs: hands without keys, an undo that took
    a hand out without noting where every seat change then stood."""
    if subject is Subject.HAND:
        return change.hand_key is None or (change.action == Action.UNDO and after is None and "moved" not in before)
    return False


def _number_now(subject, change, before, after, now):
    """The number today of the hand an entry is about (a seat change's: the hand it comes before)."""
    if subject is Subject.HAND:
        return now.hands.number(change.hand_key)
    if subject is Subject.SEATS:
        return now.seats.get((after or before)["id"])
    return None


def _touched(change, subject, before, after):
    """What an entry touched, and what its undo depends on: to name the later entry in the way."""
    if subject is Subject.HAND:
        touched = {("hand", change.hand_key)}
        if (before is None) != (after is None):  # a hand came or went: the numbers after it moved
            touched |= {("hand", change.after_key), ("seats",), ("hands",)}
        log = (after or {}).get("log")
        if log is not None:
            touched.add(("log", log))  # the open hand's trick log went with the recorded hand
        return touched, touched
    if subject is Subject.SEATS:  # made before the next hand, and not while its tricks are being entered
        log = (after or before).get("log")  # an open log it dropped, its tricks all taken back
        return ({("seats",), ("hands",)} | ({("log", log)} if log is not None else set()),
                {("seats",), ("hands",), ("tricks entered",)})
    if subject is Subject.RULES:
        return {("rules",)}, {("rules",)}
    log = ("log", (after or before)["log"])
    return {log, ("tricks entered",)}, {log}


def _hand_holds(change, before, after, now):
    if after is not None:
        return now.hands.get(change.hand_key) == record_of_facts(after)
    if change.hand_key in now.hands or (change.after_key is not None and change.after_key not in now.hands):
        return False
    if "seats" in before:  # every seat change where the removal left it
        return now.seats == {seat: number for seat, number in before["seats"]}
    return all(seat in now.seats for seat in before.get("moved", ()))


def _seats_hold(change, before, after, now):
    if now.log is not None and now.log[1]:  # the open hand's tricks were played by the table as it sits
        return False
    if after is not None:  # a seat change made: still the newest, and its hand not played yet
        seat = after["id"]
        return (now.seats.get(seat) == after["before_hand"] and seat == max(now.seats)
                and after["before_hand"] > len(now.hands))
    seat, number = before["id"], before["before_hand"]  # a seat change taken back: it would be the newest again
    return (seat not in now.seats and all(other < seat for other in now.seats) and number == len(now.hands) + 1
            and (before["kind"] != "join" or before["player"] == now.roster))


def _rules_hold(change, before, after, now):
    return now.rules == after


def _tricks_hold(change, before, after, now):
    if after is not None:  # still the last trick of that log, as it was entered
        return now.log is not None and now.log[:2] + now.log[3:] == (after["log"], after["trick"], after["cards"])
    return now.log is not None and now.log[:2] == (before["log"], before["trick"] - 1)


def _kitty_holds(change, before, after, now):
    return now.log is not None and (now.log[0], now.log[2]) == (after["log"], after["kitty"])


_HOLDS = {Subject.HAND: _hand_holds, Subject.SEATS: _seats_hold, Subject.RULES: _rules_hold,
          Subject.TRICKS: _tricks_hold, Subject.KITTY: _kitty_holds}


def undo(game, change_id, based_on):
    """Undo one trail entry, itself kept in the trail as an undo that can be undone in turn (R17).

    Returns the entry's ``TrailLine``. Raises ``LookupError`` for an entry
    the game does not have, ``UndoRefused`` when it cannot be undone now, and
    the engine's refusals when the game it would leave breaks the rules; any
    of these of a game another device has written to since it was read is
    ``Conflict`` (``refusals_of``).
    """
    with refusals_of(game, (rules.RuleError, UndoRefused)):  # a race's refusal: a Conflict
        line = trail_line(game, change_id)
        if line is None:
            raise LookupError(change_id)
        if not line.undoable:
            raise UndoRefused(line)
        _UNDO[line.subject](game, line, based_on)
    return line


def trail_line(game, change_id):
    """The ``TrailLine`` of entry ``change_id`` of the game, or None."""
    return next((line for line in trail(game) if line.change.id == change_id), None)


def _undo_hand(game, line, based_on):
    """A hand recorded is taken out, a removed one put back in its place, a corrected one set back."""
    change, before = line.change, line.before
    if before is not None and line.after is None:
        _put_back(game, change, before, based_on)
        return
    hand = next(hand for hand in game.hands if hand.key == change.hand_key)
    if before is None:
        facts, previous, apply, board = deletion(game, hand)
        with writing(game, based_on, board=board):
            trail_hand(game, Action.UNDO, hand, before=facts, after_key=previous, undoes=change)
            apply()
        return
    restored = record_of_facts(before)
    records = game.records()
    records[hand.number - 1] = restored
    board = game.scoreboard(records)
    seating = board.hands[hand.number - 1].seating
    with writing(game, based_on, board=board):
        trail_hand(game, Action.UNDO, hand, before=hand_facts(hand.record(), seating),
               after=hand_facts(restored, seating), undoes=change)
        set_facts(hand, restored, game.variant)


def _put_back(game, change, before, based_on):
    """A hand taken out is back at its place, with its number, its trick log and the seat changes
    after it where they stood (checked through the engine first, R16)."""
    record = record_of_facts(before)
    position = _position_after(game, change.after_key)
    moved = set(before.get("moved", ()))
    records = game.records()
    records.insert(position, record)
    back = [(row, replace(row.value(), before_hand=row.before_hand + (row.id in moved))) for row in game.seat_changes]
    board = game.scoreboard(records, changes=[value for _row, value in back])
    with writing(game, based_on, board=board):
        for row, value in back:
            row.before_hand = value.before_hand
        hand = Hand(number=position + 1, key=change.hand_key)
        set_facts(hand, record, game.variant)
        insert_row(game, hand)
        if "tricks" in before:
            attach_log(game, hand, TrickLog.from_facts(before["tricks"]))
        trail_hand(game, Action.UNDO, hand, after=hand_facts(record, before.get("seating")), after_key=change.after_key,
               undoes=change)


def _undo_seats(game, line, based_on):
    """A seat change made is taken back (a joiner gone again, a leaver back), one taken back is made again."""
    change = line.change
    refuse_while_under_way(game)
    if line.after is not None:
        row = next(row for row in game.seat_changes if row.id == line.after["id"])
        board = game.scoreboard(changes=[other.value() for other in game.seat_changes if other is not row])
        facts = {key: value for key, value in line.after.items() if key != "player_id"}  # kept by older entries
        with writing(game, based_on, board=board):
            if row.joins:
                game.players.remove(next(player for player in game.players if player.seat == row.player))
            game.seat_changes.remove(row)
            trail_game(game, Action.UNDO, hand_number=row.before_hand, before=with_log_dropped(game, facts),
                       undoes=change)
        return
    facts = line.before
    value = seat_change_value(facts)
    board = game.scoreboard(changes=game.seat_change_values() + [value])
    with writing(game, based_on, board=board):
        again = with_log_dropped(game, seated(game, value, facts["name"], row_id=facts["id"]))
        trail_game(game, Action.UNDO, hand_number=value.before_hand, after=again, undoes=change)


def _undo_rules(game, line, based_on):
    """The house rules as the entry found them, every recorded hand scored under them again."""
    restored = rules.Variant.from_facts(line.before)
    board = check_hands_under(game, restored)
    with writing(game, based_on, board=board):
        set_house_rules(game, restored)
        trail_game(game, Action.UNDO, before=line.after, after=line.before, undoes=line.change)


def undo_tricks(game, line, based_on):
    """The last trick entered taken back, or one taken back entered again (R6-R13)."""
    board, log, play = open_play(game)
    if line.after is not None:
        with writing(game, based_on, same_figures=True):  # the open hand's tricks: nothing recorded changes
            log.tricks.pop()
            trail_game(game, Action.UNDO, hand_number=board.next_hand.number, before=line.after, undoes=line.change)
        return
    # Put back as it was entered, even with the kitty unknown since: a kitty undone (to be said again) leaves
    # the tricks after it standing, and so a trick put back stands too; the next trick entered asks for the
    # kitty (R12). Refusing it would refuse the undo of an undo that was just allowed.
    trick = line.before
    play.play(trick["cards"].split(), confirm=trick["confirmed"])
    with writing(game, based_on, same_figures=True):
        log.tricks.append(Trick(number=trick["trick"], cards=trick["cards"], confirmed=trick["confirmed"]))
        trail_game(game, Action.UNDO, hand_number=board.next_hand.number, after=trick, undoes=line.change)


def _undo_kitty(game, line, based_on):
    """The kitty as the entry found it: unknown again, or known again (R12)."""
    board, log, play = open_play(game)
    kitty = line.before["kitty"]
    log.replay(play.players, rules.parse_cards(kitty.split()) if kitty else (), board.variant)
    with writing(game, based_on, same_figures=True):
        log.kitty = kitty
        trail_game(game, Action.UNDO, hand_number=board.next_hand.number, before=line.after, after=line.before,
                    undoes=line.change)


_UNDO = {Subject.HAND: _undo_hand, Subject.SEATS: _undo_seats, Subject.RULES: _undo_rules,
         Subject.TRICKS: undo_tricks, Subject.KITTY: _undo_kitty}


def _position_after(game, key):
    """The index in the game's hands just after the hand with ``key`` (0 for None)."""
    if key is None:
        return 0
    return next(index for index, hand in enumerate(game.hands) if hand.key == key) + 1


def take_back_trick(game, based_on):
    """Take back the last trick entered, as an undo of its trail entry (which can be undone in turn);
    return its number, or None if none was entered."""
    log = game.trick_log
    if log is None or not log.tricks:
        return None
    number = log.tricks[-1].number
    line = next((line for line in trail(game) if line.subject is Subject.TRICKS and line.undoable
                 and line.after is not None), None)
    if line is not None:
        undo_tricks(game, line, based_on)
        return number
    # A trick entered before tricks were entries of the trail: its entry and the undo, so it can come back.
    upcoming = game.scoreboard().next_hand
    with writing(game, based_on, same_figures=True):
        facts = trick_facts(log, log.tricks[-1])
        entered = trail_game(game, Action.TRICK, hand_number=upcoming.number, after=facts)
        db.session.flush()  # the entry's id, for its undo to name it
        trail_game(game, Action.UNDO, hand_number=upcoming.number, before=facts, undoes=entered)
        log.tricks.pop()
    return number
