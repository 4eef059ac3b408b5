"""The engine's explanations (R6-R13), worded in the reader's language.

The rules engine gives each explanation as data (an outcome, the cards, the
rule numbers); this module turns that data into one whole translated
sentence, so that the engine stays free of Flask and of languages.
"""

from . import rules
from .i18n import _, names_list


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
    return _("%(pairs)s cancel, so no card of the suit led (%(suit)s) is left to win: nobody wins "
             "and the trick is reserved for the next player who wins a trick (%(rules)s).",
             pairs=pairs, suit=reason.led, rules=rule_numbers)


def illegal_lead(warning):
    """The warning for an apparently illegal lead (an ``IllegalLead``), in the current language."""
    if warning.rule == "R6":
        return _("The first lead of a hand may not be a heart or a Black Maria; %(card)s was led (R6).",
                 card=str(warning.card))
    return _("Hearts are not broken yet, so %(card)s may not be led unless the leader holds only hearts (R8).",
             card=str(warning.card))
