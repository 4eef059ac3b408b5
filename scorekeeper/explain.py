"""The engine's explanations and errors, worded in the reader's language.

The rules engine gives each explanation and each refusal as data (an
outcome or an error type, the cards, the counts, the rule numbers); this
module turns that data into one whole translated sentence, so that the
engine stays free of Flask and of languages, and every message is worded
once. The service layer's own refusals (``table.Conflict``,
``table.UndoRefused``, ``table.KittyNeeded``) are worded here too.
"""

from . import rules, table
from .i18n import _, datetime_short, names_list


def explain(reason):
    """One sentence for a trick's ``Explanation``, in the current language."""
    rule_numbers = ", ".join(reason.rules)
    if reason.outcome is rules.Outcome.HIGHEST:
        return _("%(winner)s is the highest card of the suit led, so it wins (%(rules)s).",
                 winner=str(reason.winner), rules=rule_numbers)
    pairs = names_list(_("the two %(card)s", card=str(card)) for card in reason.cancelled)
    pairs = pairs[:1].upper() + pairs[1:]
    if reason.outcome is rules.Outcome.HIGHEST_LEFT:
        return _("%(pairs)s cancel; %(winner)s is the highest card of the suit led that is left, "
                 "so it wins (%(rules)s).", pairs=pairs, winner=str(reason.winner), rules=rule_numbers)
    return _("%(pairs)s cancel, so no card of the suit led (%(suit)s) is left to win: nobody wins the trick "
             "(%(rules)s).", pairs=pairs, suit=reason.led, rules=rule_numbers)


def describe(error, names=()):
    """One sentence for a refusal of the engine or the service layer, in the current language.

    ``names`` are the players' names by seat, for errors that name a player.
    """
    return _WORDING[type(error)](error, names)


def _not_a_card(error, _names):
    return _("“%(card)s” is not a card. Write a rank and a suit, like 10S, Q♠ or 2c.", card=error.text)


def _third_copy(error, _names):
    if error.in_hand:
        return _("%(card)s has already been played twice in this hand (kitty included); "
                 "the two decks hold only two (R2).", card=str(error.card))
    return _("%(card)s appears %(count)d times, but the two decks hold only two (R2).",
             card=str(error.card), count=rules.COPIES + 1)


def _trick_size(error, _names):
    if error.count == 0:
        return _("Enter the trick's cards in the order they were played, the lead first.")
    if error.least == error.most:
        return _("A trick has one card from each of the %(players)d players.", players=error.most)
    return _("A trick has at most %(most)d cards, one per player (R1).", most=error.most)


def _kitty_size(error, _names):
    return _("The kitty holds %(count)d cards (R3); enter all of them.", count=error.size)


def _hand_finished(error, _names):
    return _("All %(tricks)d tricks of this hand have been played already.", tricks=error.tricks)


def _illegal_lead(error, _names):
    if error.rule == "R6":
        return _("The first lead of a hand may not be a heart or a Black Maria; %(card)s was led (R6).",
                 card=str(error.card))
    return _("Hearts are not broken yet, so %(card)s may not be led unless the leader holds only hearts (R8).",
             card=str(error.card))


def _more_than_the_hand_holds(error, names):
    if error.player is not None:
        name = names[error.player] if error.player < len(names) else str(error.player + 1)
        if error.what == "hearts":
            return _("%(name)s cannot have taken %(count)d hearts: a hand holds %(most)d (R14).",
                     name=name, count=error.count, most=error.most)
        return _("%(name)s cannot have taken %(count)d Black Marias: a hand holds %(most)d (R14).",
                 name=name, count=error.count, most=error.most)
    if error.what == "hearts":
        return _("The hearts add up to %(count)d, but a hand holds only %(most)d (R14).",
                 count=error.count, most=error.most)
    return _("The Black Marias add up to %(count)d, but a hand holds only %(most)d (R14).",
             count=error.count, most=error.most)


def _cards_unaccounted(error, _names):
    return _("The hearts add up to %(hearts)d of %(all_hearts)d and the Black Marias to %(marias)d of "
             "%(all_marias)d. If the last trick was reserved and nobody collected its cards (R13), "
             "tick the box below; otherwise correct the counts.",
             hearts=error.hearts, all_hearts=rules.HEARTS_IN_HAND,
             marias=error.marias, all_marias=rules.MARIAS_IN_HAND)


def _moon_choice_needed(error, names):
    return _("%(name)s took all %(hearts)d hearts and both Black Marias: they shot the moon! "
             "Choose how it scores (R15).", name=names[error.shooter], hearts=rules.HEARTS_IN_HAND)


def _no_moon_shot(_error, _names):
    return _("Nobody took all %(hearts)d hearts and both Black Marias, so there is no moon to score (R15).",
             hearts=rules.HEARTS_IN_HAND)


def _table_size(_error, _names):
    return _("Cancellation Hearts needs %(least)d to %(most)d players (R1).",
             least=rules.MIN_PLAYERS, most=rules.MAX_PLAYERS)


def _bad_target(_error, _names):
    return _("The target is a whole number of points, 1 or more.")


def _hand_after_game_over(error, _names):
    return _("With this change the game would be over after hand %(number)d (R16), but later hands are "
             "recorded. Remove the later hands first if this is right.", number=error.ended_after)


def _conflict(_error, _names):
    return _("Another device changed this game a moment ago, so nothing was saved. "
             "Here is the score now; check your change and save it again.")


def _kitty_needed(_error, _names):
    return _("First say what the kitty held (R12).")


def _undo_refused(error, _names):
    return why_not_undoable(error.line)


_WORDING = {
    rules.NotACard: _not_a_card,
    rules.ThirdCopy: _third_copy,
    rules.TrickSize: _trick_size,
    rules.KittySize: _kitty_size,
    rules.HandFinished: _hand_finished,
    rules.IllegalLead: _illegal_lead,
    rules.MoreThanTheHandHolds: _more_than_the_hand_holds,
    rules.CardsUnaccounted: _cards_unaccounted,
    rules.MoonChoiceNeeded: _moon_choice_needed,
    rules.NoMoonShot: _no_moon_shot,
    rules.TableSize: _table_size,
    rules.BadTarget: _bad_target,
    rules.HandAfterGameOver: _hand_after_game_over,
    table.Conflict: _conflict,
    table.KittyNeeded: _kitty_needed,
    table.UndoRefused: _undo_refused,
}


# --- The trail ---------------------------------------------------------------------


def trail_entry(change, undone=None):
    """What one trail entry did, as a sentence ("Hand 3 corrected.").

    ``undone`` is the entry an undo undid, if it is known.
    """
    number = change.hand_number
    if change.action == "record":
        return _("Hand %(number)d recorded.", number=number)
    if change.action == "correct":
        return _("Hand %(number)d corrected.", number=number)
    if change.action == "remove":
        return _("Hand %(number)d removed.", number=number)
    if undone is not None and undone.action == "record":
        return _("Hand %(number)d taken back: its recording was undone.", number=number)
    if undone is not None and undone.action == "remove":
        return _("Hand %(number)d put back in its place.", number=number)
    return _("Hand %(number)d put back as it was.", number=number)


def why_not_undoable(line):
    """Why a trail line offers no Undo, in one sentence (None if it does)."""
    if line.undoable:
        return None
    if line.change.action == "undo":
        return None  # an undo says what it undid; it is not undone in turn
    if line.undone_by is not None:
        return _("Undone at %(time)s.", time=datetime_short(line.undone_by.at))
    if line.blocked_by is not None:
        return _("A later change stands in the way: undo “%(later)s” (%(time)s) first.",
                 later=trail_entry(line.blocked_by), time=datetime_short(line.blocked_by.at))
    if line.legacy:
        return _("Kept from an earlier version of the app; it cannot be undone.")
    return _("The game has changed since, so this can no longer be undone.")
