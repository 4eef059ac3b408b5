"""A hand played trick by trick: the open hand, a trick entered, the kitty said (R6-R13)."""


from .. import rules
from ..db.models import (
    Trick,
    TrickLog,
    cards_text,
    db,
)
from .entries import Action, trail_game
from .errors import KittyNeeded
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
    if len(cards) != play.deal.kitty:
        raise rules.KittySize(len(cards), play.deal.kitty, play.players)
    kitty = rules.parse_cards(cards)
    play = log.replay(play.players, kitty, board.variant)
    with writing(game, based_on, same_figures=True):
        trail_game(game, Action.KITTY, hand_number=board.next_hand.number,
                    before={"log": log.id, "kitty": log.kitty}, after={"log": log.id, "kitty": cards_text(kitty)})
        log.kitty = cards_text(kitty)
    return play


