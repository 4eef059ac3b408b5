"""Recording, correcting and removing hands (R13-R17)."""

from dataclasses import replace

from sqlalchemy import delete, insert, select, update

from .. import rules
from ..db.models import (
    Change,
    Game,
    Hand,
    ShownHand,
    Taking,
    TrickLog,
    db,
    hand_columns,
    taking_rows,
)
from . import kept
from .entries import Action, entry_columns, hand_facts, trail_hand
from .errors import Conflict
from .writing import inserted, writing


def record_hand(game, taken, moon, last_trick_reserved, based_on, nothing_collected=False):
    """Record the next hand of ``game`` (a ``KeptGame`` at revision ``based_on``), R13-R16: the one hand
    checked and scored on the board before it, and written with its takings, its trail entry and the
    game's figures in one transaction, whatever the game's length; a hand played trick by trick keeps
    its tricks. Returns the ``KeptGame`` it leaves, kept for the new revision.

    ``taken`` follows the next hand's seating; ``nothing_collected`` says the
    table confirmed that nobody collected anything (``rules.NothingCollected``).
    """
    shown, before = game.game, game.board
    if shown.revision != based_on:
        raise Conflict()  # the form was based on another revision: the claim below would refuse it too
    record = rules.check_hand(taken, moon, last_trick_reserved, before.variant,
                              nothing_collected_confirmed=nothing_collected)
    board = rules.score_next_hand(before, record)
    figures = rules.game_figures(board, before=game.figures())
    key, number, log = shown.last_hand_key + 1, len(board.hands), shown.open_log_facts
    with writing(shown, based_on, board=board, figures=figures, claiming={"last_hand_key": key}):
        hand_id = inserted(Hand, [{"game_id": shown.id, "number": number, "key": key,
                                   **hand_columns(record, record.uncollected)}])[0]
        db.session.execute(insert(Taking), taking_rows(hand_id, record))
        if log is not None and log[1]:  # the tricks played stay with the hand, as the record that settles disputes
            db.session.execute(update(TrickLog).where(TrickLog.id == log[0]).values(hand_id=hand_id))
        elif log is not None:  # nothing was played: nothing to keep
            db.session.execute(delete(TrickLog).where(TrickLog.id == log[0]))
        after = hand_facts(record, board.hands[-1].seating, log=None if log is None else log[0])
        db.session.execute(insert(Change), [{"game_id": shown.id,
                                             **entry_columns(Action.RECORD, number, key, after=after)}])
    recorded = replace(shown, revision=based_on + 1, last_hand_key=key, playing_trick_by_trick=False,
                       open_log_facts=None,
                       hands=shown.hands + (ShownHand(key, number, bool(log and log[1]), record),))
    return kept.keep(kept.KeptGame(recorded, board, figures))


def correct_hand(game, number, taken, moon, last_trick_reserved, based_on, nothing_collected=False):
    """Correct hand ``number``; everything derived follows and the trail keeps the old facts (R17)."""
    hand = game.hands[number - 1]
    record = rules.check_hand(taken, moon, last_trick_reserved, game.variant,
                              nothing_collected_confirmed=nothing_collected)
    before = hand.record()
    if record == before:
        # Nothing to write, but a stale form is still refused. The revision is
        # read again, after the hands: a write that slipped in between the
        # reads of the game and of its hands shows here.
        if db.session.execute(select(Game.revision).where(Game.id == game.id)).scalar() != based_on:
            raise Conflict()
        return hand
    records = game.records()
    records[number - 1] = record
    board = game.scoreboard(records)
    seating = board.hands[number - 1].seating
    with writing(game, based_on, board=board):
        set_facts(hand, record, game.variant)
        trail_hand(game, Action.CORRECT, hand, before=hand_facts(before, seating), after=hand_facts(record, seating))
    return hand


def remove_hand(game, number, based_on):
    """Remove hand ``number``; later hands move up one, and so do the seat changes after it;
    the trail keeps it, tricks too, and where every seat change then stood (R17)."""
    hand = game.hands[number - 1]
    facts, previous, apply, board = deletion(game, hand)
    with writing(game, based_on, board=board):
        trail_hand(game, Action.REMOVE, hand, before=facts, after_key=previous)
        apply()


def deletion(game, hand):
    """Take ``hand`` out of the game, checked through the engine first (R16, R1): its facts as the trail
    keeps them, the key of the hand it followed, the function that then deletes its rows, and the
    game's scoreboard without it.

    Later hands move up one number, and so do the seat changes after it; the
    facts keep its trick log, which seat changes moved and where every seat
    change then stands, so that putting it back can restore exactly that.
    """
    number = hand.number
    records = game.records()
    del records[number - 1]
    moving = seat_changes_after(game, number)
    board = game.scoreboard(records, changes=moved_up(game, moving))
    seating = rules.seatings(game.starting_players, game.seat_change_values(), len(game.hands),
                             game.target)[number - 1]
    facts = hand_facts(hand.record(), seating, trick_log=hand.trick_log, moved=[change.id for change in moving],
                        seats=[[change.id, change.before_hand - (change in moving)] for change in game.seat_changes])
    previous = game.hands[number - 2].key if number > 1 else None
    return facts, previous, lambda: remove_row(game, hand), board


def seat_changes_after(game, number):
    """The seat changes that follow hand ``number``: they move up one with the hands after it."""
    return [change for change in game.seat_changes if change.before_hand > number]


def moved_up(game, moving):
    """The game's seat changes as engine values, those in ``moving`` one hand earlier."""
    return [replace(change.value(), before_hand=change.before_hand - 1) if change in moving else change.value()
            for change in game.seat_changes]


def set_facts(hand, record, variant):
    hand.set_facts(record, uncollected_of(record, variant))


def uncollected_of(record, variant):
    """What nobody collected in a hand (R13): as its checked record says, or worked out for a record kept
    by the trail (an undo putting back facts that were checked when they were first written)."""
    if record.uncollected is not None:
        return record.uncollected
    return rules.check_takings(dict(enumerate(record.taken)), variant)


def attach_log(game, hand, log):
    log.hand = hand
    game.trick_logs.append(log)


def remove_row(game, hand):
    """Delete one hand (and its trick log); later hands, and the seat changes after it, move up one number.

    Each move is flushed on its own, in an order that never puts two hands
    on one number, which the (game, number) unique index forbids.
    """
    for change in seat_changes_after(game, hand.number):
        change.before_hand -= 1
    later = [other for other in game.hands if other.number > hand.number]
    if hand.trick_log is not None:
        game.trick_logs.remove(hand.trick_log)
    game.hands.remove(hand)
    db.session.flush()
    for other in later:
        other.number -= 1
        db.session.flush()


def insert_row(game, hand):
    """Insert ``hand`` at its number; that hand and the later ones move down one, last first."""
    for other in sorted((h for h in game.hands if h.number >= hand.number), key=lambda h: -h.number):
        other.number += 1
        db.session.flush()
    game.hands.insert(hand.number - 1, hand)
