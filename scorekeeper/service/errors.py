"""What the service raises besides the engine's refusals, for the views to word (words/explain.py)."""

from .. import rules


class Conflict(Exception):
    """Another device changed the game first, or the database refused the write; nothing was saved."""


class UndoRefused(Exception):
    """A trail entry that cannot be undone now; ``line`` says why (see ``TrailLine``)."""

    def __init__(self, line):
        super().__init__(f"change {line.change.id} cannot be undone now")
        self.line = line


class NameTaken(Exception):
    """A joiner's name is already a player's in this game (who may have left): names stay unique."""

    def __init__(self, name):
        super().__init__(f"{name!r} already plays or played in this game")
        self.name = name


class SamePerson(Exception):
    """Two names of one game are one person: one name written two ways ("Ana", "Ａｎａ"),
    or the spellings of two people merged into one. ``name`` is the second, ``other`` the first."""

    def __init__(self, name, other):
        super().__init__(f"{name!r} and {other!r} are one person")
        self.name = name
        self.other = other


class PeopleRefused(Exception):
    """A change to the club's people that cannot be made; ``reason`` says why, ``name`` and ``game`` what in.

    Reasons: "name_taken" (the name is another person's), "same" (a person
    merged with themselves), "merged" (someone already merged away),
    "played_together" (both sat in game ``game``: they are two people),
    "same_night" (both were checked in for the night named ``night``: they are two people),
    "undone" (an entry undone already), "later_change" (a later entry of the
    club's trail stands in the way: ``later``, if known; undo that first),
    "not_undoable" (an entry kept from before it could be undone).
    """

    def __init__(self, reason, name=None, game=None, later=None, night=None):
        super().__init__(f"refused: {reason}")
        self.reason = reason
        self.name = name
        self.game = game
        self.later = later
        self.night = night


class HandUnderWay(rules.RuleError):
    """A player joining or leaving (or such a change undone) while the open hand has tricks entered, or
    its kitty (``kitty_only``: its tricks taken back, the kitty not): they were dealt to the table as it
    sits (R1, R3); ``number`` is the hand."""

    rule = "R1"

    def __init__(self, number, kitty_only=False):
        super().__init__(f"hand {number} is being played trick by trick: nobody joins or leaves now")
        self.number = number
        self.kitty_only = kitty_only


class KittyNeeded(Exception):
    """A trick was entered before the table said what the kitty held (R12)."""

    def __init__(self, taker):
        super().__init__(f"seat {taker} took the kitty: say what it held first (R12)")
        self.taker = taker


class TricksRefused(rules.RuleError):
    """A hand's trick log (of an imported or restored game) that cannot have been played: ``number`` is
    the hand, ``error`` the engine's refusal of it (R6-R13)."""

    def __init__(self, number, error):
        super().__init__(f"hand {number}, tricks: {error}")
        self.number = number
        self.error = error
        self.rule = error.rule


class NightRefused(Exception):
    """A change to a club night that cannot be made (R18); ``reason`` says why: "no_night" (no such night),
    "not_here" (someone not checked in, or gone already), "round_open" (a table of the last round has not
    finished and the director has not closed it), "too_few" (fewer checked in than a table seats), "split"
    (tables that are no even split of those drawn), "no_round" (no such round open, or not the newest),
    "finished" (a round to close whose tables have all finished), "played" (a table of the draw being undone
    has something recorded), "nothing" (no change of the night to undo)."""

    def __init__(self, reason):
        super().__init__(f"refused: {reason}")
        self.reason = reason
