"""A hand played trick by trick: the open hand, a trick entered, the kitty said (R6-R13); and, when another
device entered that trick or said that kitty first, this device's put over theirs, as its scorer chose."""

import json

from .. import rules
from ..db.models import (
    Trick,
    TrickLog,
    cards_text,
    db,
)
from .entries import Action, trail_game
from .errors import Conflict, KittyNeeded
from .writing import writing


def open_play(game):
    """The open hand as played so far: (scoreboard, its trick log or None, ``rules.HandPlay``).

    The play is None when the game is over.
    """
    board = game.scoreboard()
    if board.over:
        return board, None, None
    log = game.trick_log
    upcoming = board.next_hand
    players = len(upcoming.seating)
    play = (log.replay(players, variant=board.variant) if log
            else rules.HandPlay(players, upcoming.place(upcoming.leader), variant=board.variant))
    return board, log, play


def kitty_needed(log, play):
    """The kitty's winner has it but the table has not said what it held (R12)."""
    return play.deal.kitty > 0 and play.kitty_taken_by is not None and not (log and log.kitty)


def play_trick(game, cards, confirm, based_on):
    """Enter the next trick of the open hand, cards in play order from its leader (R6-R13); a trail entry.

    ``cards`` may be text ("10S", "Q♠"); the engine reads them. An apparently
    illegal lead raises ``rules.IllegalLead`` unless ``confirm``.
    """
    board, log, play = open_play(game)
    if play is None:
        raise rules.HandAfterGameOver(len(board.hands), len(board.hands) + 1)
    if kitty_needed(log, play):
        raise KittyNeeded(play.kitty_taken_by)
    play.play(cards, confirm=confirm)
    played = play.tricks[-1]
    with writing(game, based_on, same_figures=True):  # the open hand's tricks: nothing recorded changes
        if log is None:
            log = TrickLog(first_leader=board.next_hand.place(board.next_hand.leader))
            game.trick_logs.append(log)
        trick = Trick(number=played.number, cards=cards_text(played.result.cards), confirmed=confirm)
        log.tricks.append(trick)
        db.session.flush()  # the log's id, for the trail to name it
        trail_game(game, Action.TRICK, hand_number=board.next_hand.number, after=trick_facts(log, trick))
    return play


def trick_facts(log, trick):
    return {"log": log.id, "trick": trick.number, "cards": trick.cards, "confirmed": trick.confirmed}


def enter_kitty(game, cards, based_on):
    """Say what the kitty held once its winner turned it over (R3, R12); a trail entry."""
    board, log, play = open_play(game)
    if play is None or not kitty_needed(log, play):
        return play
    return _say_kitty(game, board, log, play, cards, based_on)


def put_kitty_over(game, cards, based_on):
    """Say the kitty held ``cards`` in place of what another device said it held (R3, R12), checked through the
    engine against the tricks entered: one trail entry, whose undo puts theirs back. ``Conflict`` if the
    kitty is not said (any more) at ``based_on``: there is nothing to put them over."""
    board, log, play = open_play(game)
    if play is None or log is None or not log.kitty:
        raise Conflict()
    return _say_kitty(game, board, log, play, cards, based_on)


def _say_kitty(game, board, log, play, cards, based_on):
    if len(cards) != play.deal.kitty:
        raise rules.KittySize(len(cards), play.deal.kitty, play.players)
    kitty = rules.parse_cards(cards)
    play = log.replay(play.players, kitty, board.variant)
    with writing(game, based_on, same_figures=True):
        trail_game(game, Action.KITTY, hand_number=board.next_hand.number,
                    before={"log": log.id, "kitty": log.kitty}, after={"log": log.id, "kitty": cards_text(kitty)})
        log.kitty = cards_text(kitty)
    return play


def put_trick_over(game, number, cards, confirm, based_on):
    """Trick ``number``, the last one entered (by another device), replaced by ``cards`` in play order from its
    leader, checked through the engine (R6-R13) as if theirs had never been played. One write, two trail
    entries, as the table would make them by hand: theirs taken back (the undo of the entry that entered it,
    as *Take back* writes it) and this one entered; undoing the second, then the first, puts theirs back.

    ``Conflict`` if trick ``number`` is not the last one entered at ``based_on``.
    """
    board, log, play = open_play(game)
    if play is None or log is None or not log.tricks or log.tricks[-1].number != number:
        raise Conflict()
    theirs = log.tricks[-1]
    again = rules.HandPlay(play.players, log.first_leader, log.kitty_cards, board.variant)
    for trick in log.tricks[:-1]:
        again.play(trick.cards.split(), confirm=trick.confirmed)
    again.play(cards, confirm=confirm)
    hand_number = board.next_hand.number
    with writing(game, based_on, same_figures=True):
        facts = trick_facts(log, theirs)
        entered = entry_of_trick(game, facts)
        if entered is None:  # entered before tricks were entries of the trail: its entry first, for the undo
            entered = trail_game(game, Action.TRICK, hand_number=hand_number, after=facts)
            db.session.flush()
        trail_game(game, Action.UNDO, hand_number=hand_number, before=facts, undoes=entered)
        log.tricks.pop()
        db.session.flush()  # theirs is gone before mine takes its number (one trick a number and log)
        mine = Trick(number=number, cards=cards_text(again.tricks[-1].result.cards), confirmed=confirm)
        log.tricks.append(mine)
        db.session.flush()
        trail_game(game, Action.TRICK, hand_number=hand_number, after=trick_facts(log, mine))
    return again


def entry_of_trick(game, facts):
    """The newest trail entry that entered the trick of ``facts`` (``trick_facts``) as it stands: a trick
    entered, or one taken back entered again by an undo; None for a trick older than the trail's tricks."""
    def entered(change):
        after = json.loads(change.after) if change.after else {}
        return (change.action in (Action.TRICK.value, Action.UNDO.value) and after.get("log") == facts["log"]
                and after.get("trick") == facts["trick"] and after.get("cards") == facts["cards"])

    return max((change for change in game.changes if entered(change)), key=lambda change: change.id, default=None)
