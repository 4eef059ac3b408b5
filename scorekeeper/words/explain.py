"""The engine's explanations and errors, worded in the reader's language.

The rules engine gives each explanation and each refusal as data (an
outcome or an error type, the cards, the counts, the rule numbers); this
module turns that data into one whole translated sentence, so that the
engine stays free of Flask and of languages, and every message is worded
once. The service layer's own refusals (``service.Conflict``,
``service.UndoRefused``, ``service.KittyNeeded``) are worded here too.
"""

import json
from datetime import date

from .. import rules, service
from ..db.models import NAME_LENGTH, Game, Person, PersonChange, db
from ..service import names as name_rules
from .i18n import (
    _,
    alternatives,
    card_examples,
    datetime_short,
    day,
    hearts_count,
    marias_count,
    names_list,
)

QUOTED_LENGTH = 77  # characters of a refused value a message quotes, then "…": a line, never a file's worth


def quoted(text, most=QUOTED_LENGTH):
    """``text`` as a refusal quotes it: whole, or its first ``most`` characters and "…".

    A refused document or form may hold a value of any length (a 100 KB
    name); the page that refuses it shows about a line of it, never all of it.
    """
    return text if len(text) <= most else text[:most] + "…"


def explain(value, notes=False):
    """Words for an engine value, in the current language: a trick's ``Explanation`` as one sentence (with
    ``notes``, the list of what else it says), a ``Taken`` as what it holds ("2 hearts and 1 Black Maria",
    "no hearts or Black Marias")."""
    if isinstance(value, rules.Taken):
        return taken_words(value)
    sentences = _trick_sentences(value)
    return sentences[1:] if notes else sentences[0]


def taken_words(taken):
    """The hearts and Black Marias of a ``Taken``, only those there are; "no hearts or Black Marias" for none."""
    if taken.hearts and taken.marias:
        return _("%(hearts)s and %(marias)s", hearts=hearts_count(taken.hearts), marias=marias_count(taken.marias))
    if taken.hearts:
        return hearts_count(taken.hearts)
    if taken.marias:
        return marias_count(taken.marias)
    return _("no hearts or Black Marias")


def _pairs(cards, first=False):
    """"the two 10♠ and the two 9♥", capitalised ``first`` in a sentence."""
    pairs = names_list(_("the two %(card)s", card=str(card)) for card in cards)
    return pairs[:1].upper() + pairs[1:] if first else pairs


def _trick_sentences(reason):
    """Why a trick went as it did (R9): first the deciding cards, then notes on the pairs that decided nothing,
    R9's reading of "two pairs" where it decides the trick and the points cancelled cards keep (decisions)."""
    rule_numbers = ", ".join(reason.rules)
    pairs = _pairs(reason.cancelled, first=True)
    if reason.outcome is rules.Outcome.HIGHEST:
        sentences = [_("%(winner)s is the highest card of the suit led, so it wins (%(rules)s).",
                       winner=str(reason.winner), rules=rule_numbers)]
    elif reason.outcome is rules.Outcome.HIGHEST_LEFT:
        sentences = [_("%(pairs)s cancel; %(winner)s is the highest card of the suit led that is left, "
                       "so it wins (%(rules)s).", pairs=pairs, winner=str(reason.winner), rules=rule_numbers)]
    else:
        sentences = [_("%(pairs)s cancel, so no card of the suit led (%(suit)s) is left to win: nobody wins the "
                       "trick (%(rules)s).", pairs=pairs, suit=reason.led, rules=rule_numbers)]
    others = reason.also_cancelled
    if others:
        sentences.append(_("%(pairs)s cancel too, but could not have won it anyway (R9).",
                             pairs=_pairs(others, first=True)))
    if reason.by_reading:
        if reason.outcome is rules.Outcome.RESERVED:
            sentences.append(_("Only one pair cancelled, yet nobody wins: what counts is that no card of the suit "
                               "led is left, not how many pairs there are (R9, our decision)."))
        else:
            sentences.append(_("More than one pair cancelled, yet a card of the suit led is left, so it wins: what "
                               "counts is whether one is left, not how many pairs there are (R9, our decision)."))
    scoring = [card for card in reason.all_cancelled if card.is_heart or card.is_black_maria]
    if scoring:
        sentences.append(_("Cancelled cards keep their points: %(pairs)s score for whoever takes the trick "
                           "(R9, our decision).", pairs=_pairs(scoring)))
    return sentences


def moon_choice_refused(variant):
    """The moon choice could not be read: the ways this game's house rules let a moon score, its points (R15)."""
    points = variant.moon_points
    if variant.moon_choice is rules.MoonRule.SUBTRACT:
        return _("Choose how the moon scores: in this game the shooter subtracts %(points)d (R15).", points=points)
    if variant.moon_choice is rules.MoonRule.ADD:
        return _("Choose how the moon scores: in this game everyone else adds %(points)d (R15).", points=points)
    return _("Choose how the moon scores: the shooter subtracts %(points)d, or everyone else adds %(points)d (R15).",
             points=points)


def describe(error, names=()):
    """One sentence for a refusal of the engine or the service layer, in the current language.

    ``names`` are the players' names by seat, for errors that name a player.
    """
    if isinstance(error, rules.MoreThanTheHandHolds) and error.what == "jacks" and error.player is not None:
        return _more_jacks_than_a_hand_holds(error, names)
    return _WORDING[type(error)](error, names)


def _not_a_card(error, _names):
    return _("“%(card)s” is not a card. Write a rank and a suit, like %(examples)s.", card=quoted(error.text),
             examples=alternatives(card_examples()))


def _third_copy(error, _names):
    """Where the three copies of a card would be (R2): never "played already" of cards nobody played."""
    trick = error.trick
    card = str(error.card)
    known = trick is not None and error.in_trick is not None
    where = (error.in_trick + 1, error.in_tricks, error.in_kitty) if known else None  # the refused copy: here
    if where not in _THIRD_COPY_WHERE:
        return _("%(card)s appears %(count)d times, but the two decks hold only two (R2).",
                 card=card, count=rules.COPIES + 1)
    return _THIRD_COPY_WHERE[where](card=card, trick=trick)


# Where the three copies of a refused card are: (in this trick, in earlier tricks, in the kitty turned over).
_THIRD_COPY_WHERE = {
    (3, 0, 0): lambda **named: _(
        "Trick %(trick)d would hold three %(card)s, but the two decks hold only two of each card (R2).", **named),
    (2, 1, 0): lambda **named: _(
        "Two %(card)s in trick %(trick)d and one in an earlier trick make three, but the two decks hold "
        "only two of each card (R2).", **named),
    (2, 0, 1): lambda **named: _(
        "Two %(card)s in trick %(trick)d and one in the kitty make three, but the two decks hold only two "
        "of each card (R2).", **named),
    (1, 2, 0): lambda **named: _(
        "Both %(card)s were played before trick %(trick)d, so a third cannot be in it: the two decks hold "
        "only two of each card (R2).", **named),
    (1, 1, 1): lambda **named: _(
        "One %(card)s was played before trick %(trick)d and the other was in the kitty, so a third cannot "
        "be in that trick: the two decks hold only two of each card (R2).", **named),
    (1, 0, 2): lambda **named: _(
        "Both %(card)s were in the kitty, so a third cannot be in trick %(trick)d: the two decks hold only two "
        "of each card (R2).", **named),
}


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
    if error.what == "jacks":
        return _("The J♦ add up to %(count)d, but the two decks hold only %(most)d (R2).",
                 count=error.count, most=error.most)
    return _("The Black Marias add up to %(count)d, but a hand holds only %(most)d (R14).",
             count=error.count, most=error.most)


def _player_named(names, player):
    return names[player] if player < len(names) else str(player + 1)


def _more_jacks_than_a_hand_holds(error, names):
    """One player given more J♦ than the two decks hold."""
    return _("%(name)s cannot have taken %(count)d J♦: the two decks hold %(most)d (R2).",
             name=_player_named(names, error.player), count=error.count, most=error.most)


def _cards_unaccounted(error, _names):
    if error.jacks is not None:
        return _("The hearts add up to %(hearts)d of %(all_hearts)d, the Black Marias to %(marias)d of "
                 "%(all_marias)d and the J♦ to %(jacks)d of %(all_jacks)d. If the last trick was reserved "
                 "and nobody collected its cards (R13), tick the box below; otherwise correct the counts.",
                 hearts=error.hearts, all_hearts=rules.HEARTS_IN_HAND, marias=error.marias,
                 all_marias=rules.MARIAS_IN_HAND, jacks=error.jacks, all_jacks=rules.JACKS_IN_HAND)
    return _("The hearts add up to %(hearts)d of %(all_hearts)d and the Black Marias to %(marias)d of "
             "%(all_marias)d. If the last trick was reserved and nobody collected its cards (R13), "
             "tick the box below; otherwise correct the counts.",
             hearts=error.hearts, all_hearts=rules.HEARTS_IN_HAND,
             marias=error.marias, all_marias=rules.MARIAS_IN_HAND)


def _nothing_collected(error, _names):
    # Translators: “Yes, nobody collected anything” is the label of the tick box on the hand form.
    if error.uncollected.jacks:
        return _("Nobody collected any heart, Black Maria or J♦ in this hand: the reserved last trick left all "
                 "of them on the table (R13). If that is right, tick “Yes, nobody collected anything” and "
                 "save again.")
    return _("Nobody collected any heart or Black Maria in this hand: the reserved last trick left all of "
             "them on the table (R13). If that is right, tick “Yes, nobody collected anything” and save again.")


def _moon_not_allowed(error, _names):
    if error.allowed is rules.Moon.SUBTRACT:
        return _("This game's house rule scores the moon one way only: the shooter subtracts (R15).")
    return _("This game's house rule scores the moon one way only: everyone else adds (R15).")


def _jacks_not_played(_error, _names):
    return _("J♦ score nothing in this game, so no player can be given any.")


def _house_rule_refused(_error, _names):
    return _("That house rule is not one this scorekeeper offers; choose from the list.")


def _hand_does_not_fit(error, names):
    return _("Hand %(number)d does not fit these house rules: %(problem)s",
             number=error.number, problem=describe(error.error, names))


def _tricks_refused(error, names):
    return _("%(where)s, tricks: %(problem)s", where=_("Hand %(number)d", number=error.number),
             problem=describe(error.error, names))


def _jacks_fixed(_error, _names):
    return _("The J♦ rule can change only before hand 1 is recorded: the recorded hands do not say "
             "who took the J♦.")


def _seating_refused(error, names):
    change = error.change
    name = _player_named(names, change.player)
    if error.reason == "absent":
        return _("%(name)s is not at the table, so they cannot leave.", name=name)
    if error.reason == "full":
        return _("The table already has %(most)d players, the most this game takes (R1).", most=rules.MAX_PLAYERS)
    if error.reason == "short":
        return _("%(name)s cannot leave: the table would have fewer than %(least)d players (R1).",
                 name=name, least=rules.MIN_PLAYERS)
    if error.reason == "start":
        return _("A player cannot join with %(start)d points or more: that is the target, and the game would be "
                 "over (R16).", start=change.start)
    if error.reason == "place":
        return _("Choose a place at the table for the new player.")
    if error.reason == "game_over":
        return _("The game is over, so nobody can join or leave now (R16).")
    if error.reason == "first_hand" or error.next_hand == 1:  # no hand recorded to come after
        return _("Hand 1 is played by the starting table: players join or leave from hand 2 on.")
    if error.reason == "many":
        return _("At most %(most)d players can join or leave before one hand, and %(most)d already have before "
                 "hand %(number)d (R1).", most=rules.MOST_SEAT_CHANGES, number=change.before_hand)
    return _("Players can join or leave only before the next hand, hand %(number)d.",
             number=error.next_hand or change.before_hand)


def _name_taken(error, _names):
    return _("%(name)s already plays or played in this game; give the new player another name.", name=error.name)


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


def _hand_under_way(error, _names):
    if error.kitty_only:
        return _("Hand %(number)d's kitty was entered for the table as it sits: undo that entry on the "
                 "trail, or record the hand, before anyone joins or leaves (R1, R3).", number=error.number)
    return _("Hand %(number)d is being played trick by trick, by the table as it sits: take its tricks back, "
             "or record it, before anyone joins or leaves (R1).", number=error.number)


def _kitty_needed(_error, _names):
    return _("First say what the kitty held (R12).")


def _undo_refused(error, _names):
    return why_not_undoable(error.line)


def _same_person(error, _names):
    return _("%(name)s and %(other)s are one person (one name written two ways, or two people merged); "
             "give each player a different name.", name=error.name, other=error.other)


def _people_refused(error, _names):
    if error.reason == "name_taken":
        return _("%(name)s is already someone else's name. To make them one person, merge them.", name=error.name)
    if error.reason == "same":
        return _("Choose someone other than this person.")
    if error.reason == "merged":
        return _("%(name)s was already merged into someone else.", name=error.name)
    if error.reason == "played_together":
        return _("%(name)s played in %(game)s with this person, so they are two people.",
                 name=error.name, game=error.game.name)
    if error.reason == "same_night":
        return _("%(name)s and this person were both checked in for the night %(night)s, so they are two people.",
                 name=error.name, night=error.night)
    if error.reason == "undone":
        return _("That change was undone already.")
    if error.reason == "later_change" and error.later is not None:
        return _("A later change stands in the way: undo “%(later)s” (%(time)s) first.",
                 later=trail_entry_words(error.later), time=datetime_short(error.later.at))
    if error.reason == "later_change":
        return _("The game was changed again since. Undo that change first.")
    return _("Only a rename or a merge can be undone.")


_WORDING = {
    rules.NotACard: _not_a_card,
    rules.ThirdCopy: _third_copy,
    rules.TrickSize: _trick_size,
    rules.KittySize: _kitty_size,
    rules.HandFinished: _hand_finished,
    rules.IllegalLead: _illegal_lead,
    rules.MoreThanTheHandHolds: _more_than_the_hand_holds,
    rules.CardsUnaccounted: _cards_unaccounted,
    rules.NothingCollected: _nothing_collected,
    rules.MoonNotAllowed: _moon_not_allowed,
    rules.JacksNotPlayed: _jacks_not_played,
    rules.HouseRuleRefused: _house_rule_refused,
    rules.SeatingRefused: _seating_refused,
    rules.HandDoesNotFit: _hand_does_not_fit,
    rules.JacksFixed: _jacks_fixed,
    service.TricksRefused: _tricks_refused,
    service.NameTaken: _name_taken,
    rules.MoonChoiceNeeded: _moon_choice_needed,
    rules.NoMoonShot: _no_moon_shot,
    rules.TableSize: _table_size,
    rules.BadTarget: _bad_target,
    rules.HandAfterGameOver: _hand_after_game_over,
    service.Conflict: _conflict,
    service.KittyNeeded: _kitty_needed,
    service.HandUnderWay: _hand_under_way,
    service.UndoRefused: _undo_refused,
    service.SamePerson: _same_person,
    service.PeopleRefused: _people_refused,
}


# --- Names ---------------------------------------------------------------------------


def name_problem(reason):
    """One sentence for a ``service.names`` reason a name is refused (None for None)."""
    if reason == name_rules.LONG:
        return _("Keep names to %(max)d characters.", max=NAME_LENGTH)
    if reason == name_rules.CONTROL:
        return _("A name cannot hold tabs, line breaks or other control characters.")
    if reason == name_rules.FORMAT:
        return _("A name cannot hold invisible characters, such as zero-width spaces or marks that turn the "
                 "direction of the text.")
    if reason == name_rules.INVISIBLE:
        return _("A name needs a letter, a digit or another sign that shows, not only accents or blank characters.")
    return None


def player_name_errors(seated):
    """What is wrong with each trimmed name of a table, by seat: empty, refused, or another player's.

    A repeat is a name too alike an earlier one to sit beside it (``name_rules.compare``): "Ana", "Ａｎａ" and
    Cyrillic "Аna" are one person, "Arnie" and "Amie" two. The refusal names the earlier seat's player as
    written there.
    """
    repeats = name_rules.repeats([name if not name_rules.problem(name) else "" for name in seated])
    errors = {}
    for seat, name in enumerate(seated):
        if not name:
            errors[seat] = _("Enter a name for seat %(seat)d, or remove the seat.", seat=seat + 1)
        elif reason := name_rules.problem(name):
            errors[seat] = name_problem(reason)
        elif seat in repeats:
            errors[seat] = _("%(name)s is already at the table (seat %(seat)d); give each player a different name.",
                             name=seated[repeats[seat]], seat=repeats[seat] + 1)
    return errors


# --- The trail ---------------------------------------------------------------------


def trail_entry(line):
    """What one trail entry (a ``service.TrailLine``) did, as a sentence ("Hand 3 corrected.").

    An undo says what it took back; an undo of an undo, that the change was
    made again. A seat change names the hand as the standings do, by its number now.
    """
    wording = _UNDONE if line.depth % 2 else _AGAIN if line.depth else _DONE
    return wording[line.origin_action](line, line.after or line.before or {})


def trail_now(line):
    """The number a trail entry's hand has now, when it moved since (None otherwise)."""
    if line.subject is service.Subject.HAND and line.now is not None and line.now != line.change.hand_number:
        return _("It is hand %(now)d now.", now=line.now)
    return None


def _before_hand(line):
    """The hand a seat change comes before, as the game stands now (as it stood, if it is gone)."""
    return line.now if line.now is not None else line.change.hand_number


def _cards(facts, key):
    return facts.get(key) or "—"


_DONE = {
    service.Action.RECORD: lambda line, _facts: _("Hand %(number)d recorded.", number=line.change.hand_number),
    service.Action.CORRECT: lambda line, _facts: _("Hand %(number)d corrected.", number=line.change.hand_number),
    service.Action.REMOVE: lambda line, _facts: _("Hand %(number)d removed.", number=line.change.hand_number),
    service.Action.JOIN: lambda line, facts: _("%(name)s joined before hand %(number)d.", name=facts["name"],
                                             number=_before_hand(line)),
    service.Action.LEAVE: lambda line, facts: _("%(name)s left after hand %(number)d.", name=facts["name"],
                                              number=_before_hand(line) - 1),
    service.Action.RULES: lambda _line, _facts: _("House rules changed."),
    service.Action.TRICK: lambda line, facts: _("Trick %(trick)d of hand %(number)d entered: %(cards)s.",
                                              trick=facts["trick"], number=line.change.hand_number,
                                              cards=facts["cards"]),
    service.Action.KITTY: lambda line, facts: _("The kitty of hand %(number)d turned over: %(cards)s.",
                                              number=line.change.hand_number, cards=_cards(facts, "kitty")),
}
_UNDONE = {
    service.Action.RECORD: lambda line, _facts: _("Hand %(number)d taken back: its recording was undone.",
                                                number=line.change.hand_number),
    service.Action.CORRECT: lambda line, _facts: _("Hand %(number)d put back as it was.",
                                                 number=line.change.hand_number),
    service.Action.REMOVE: lambda line, _facts: _("Hand %(number)d put back in its place.",
                                                number=line.change.hand_number),
    service.Action.JOIN: lambda line, facts: _("%(name)s no longer joins before hand %(number)d.", name=facts["name"],
                                             number=_before_hand(line)),
    service.Action.LEAVE: lambda line, facts: _("%(name)s stays at the table for hand %(number)d.",
                                              name=facts["name"], number=_before_hand(line)),
    service.Action.RULES: lambda _line, _facts: _("House rules put back as they were."),
    service.Action.TRICK: lambda line, facts: _("Trick %(trick)d of hand %(number)d taken back.",
                                              trick=facts["trick"], number=line.change.hand_number),
    service.Action.KITTY: lambda line, _facts: _("The kitty of hand %(number)d is unknown again.",
                                               number=line.change.hand_number),
}
_AGAIN = {
    service.Action.RECORD: lambda line, _facts: _("Hand %(number)d recorded again: its undo was undone.",
                                                number=line.change.hand_number),
    service.Action.CORRECT: lambda line, _facts: _("Hand %(number)d corrected again: its undo was undone.",
                                                 number=line.change.hand_number),
    service.Action.REMOVE: lambda line, _facts: _("Hand %(number)d removed again: its undo was undone.",
                                                number=line.change.hand_number),
    service.Action.JOIN: lambda line, facts: _("%(name)s joins before hand %(number)d again: the undo was undone.",
                                             name=facts["name"], number=_before_hand(line)),
    service.Action.LEAVE: lambda line, facts: _("%(name)s leaves after hand %(number)d again: the undo was undone.",
                                              name=facts["name"], number=_before_hand(line) - 1),
    service.Action.RULES: lambda _line, _facts: _("House rules changed again: the undo was undone."),
    service.Action.TRICK: lambda line, facts: _("Trick %(trick)d of hand %(number)d entered again: %(cards)s.",
                                              trick=facts["trick"], number=line.change.hand_number,
                                              cards=facts["cards"]),
    service.Action.KITTY: lambda line, facts: _("The kitty of hand %(number)d turned over again: %(cards)s.",
                                              number=line.change.hand_number, cards=_cards(facts, "kitty")),
}


def why_not_undoable(line):
    """Why a trail line offers no Undo, in one sentence (None if it does)."""
    if line.undoable:
        return None
    if line.undone_by is not None:
        return _("Undone at %(time)s.", time=datetime_short(line.undone_by.change.at))
    if line.blocked_by is not None:
        return _("A later change stands in the way: undo “%(later)s” (%(time)s) first.",
                 later=trail_entry(line.blocked_by), time=datetime_short(line.blocked_by.change.at))
    if line.legacy:
        return _("Kept from an earlier version of the app; it cannot be undone.")
    return _("The game has changed since, so this can no longer be undone.")


def people_changed_meanwhile():
    """Another device changed the club's people first: nothing was saved."""
    return _("Someone else changed the players just now, so nothing was saved. Check and try again.")


def game_changed_meanwhile():
    """Another device changed the game first: nothing was saved."""
    return _("That game changed just now; nothing was saved. Check and try again.")


def club_entry(entry, name, other_name):
    """One sentence for an entry of the club's trail (``PersonChange``): ``name`` is its person's name now,
    ``other_name`` the other person's (a merge's). An undo says whether it took its change back or made it
    again (an undo of an undo), which its facts tell: a change made again keeps the facts of one."""
    facts = json.loads(entry.facts)
    if entry.action == "rename":
        return _("%(before)s renamed %(after)s.", before=facts["before"], after=facts["after"])
    if entry.action == "merge":
        return _("%(merged)s merged into %(name)s.", merged=other_name, name=name)
    if other_name is None and "spelling_added" in facts:
        return _("Rename made again: %(before)s renamed %(after)s.", before=facts["before"], after=facts["after"])
    if other_name is None:
        return _("Rename undone: shown as %(name)s again.", name=facts.get("after", name))
    if "names" in facts:
        return _("Merge made again: %(merged)s merged into %(name)s.", merged=other_name, name=name)
    return _("Merge undone: %(merged)s is a person of their own again, apart from %(name)s.",
             merged=other_name, name=name)


def game_entry(entry, game_name):
    """One sentence for an entry of the club's trail of games (``GameChange``), its days as the reader's
    language writes them."""
    if entry.action == "void":
        return _("%(game)s left out of the season: %(reason)s", game=game_name, reason=entry.reason)
    if entry.action == "count":
        return _("%(game)s counted in the season again.", game=game_name)
    facts = json.loads(entry.facts)
    return _("%(game)s dated %(after)s (it was %(before)s).", game=game_name,
             after=day(date.fromisoformat(facts["after"])), before=day(date.fromisoformat(facts["before"])))


def trail_entry_words(entry):
    """One sentence for any entry of the club's trail, its people's and game's names read as shown now."""
    if isinstance(entry, PersonChange):
        other = None if entry.other_id is None else db.session.get(Person, entry.other_id).name
        return club_entry(entry, db.session.get(Person, entry.person_id).name, other)
    return game_entry(entry, db.session.get(Game, entry.game_id).name)
