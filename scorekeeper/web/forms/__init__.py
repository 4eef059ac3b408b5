"""WTForms forms: they read and check what the table typed, in plain words.

- ``fields``: what every form is made of (the base form and its CSRF token, the fields of whole numbers and
  choices, a form that changes a game from the revision it showed, a confirmation button, ``Problem``)
- ``games``: a new game, an import, the house rules and a change to them, a player joining or leaving
- ``hands``: the hand form
- ``tricks``: a trick's cards and the kitty's
- ``club``: the club's people, the secretary's changes to the season, the season's filters
- ``nights``: a club night opened, its check-in, its draw and the director's changes (R18)
"""

from .club import DateForm, DeviceForm, GameSeasonForm, MergeForm, RenameForm, SeasonForm, UndoMergeForm, VoidForm
from .fields import MINE, THEIRS, BaseForm, ConfirmForm, Problem, shown_value, whole_number
from .games import GameRulesForm, HouseRulesForm, ImportForm, JoinForm, LeaveForm, NewGameForm
from .hands import HandForm
from .nights import CheckInForm, DrawForm, NewNightForm, NightUndoForm, PersonForm, RoundForm
from .tricks import KittyForm, TrickForm

__all__ = [
    "MINE", "THEIRS", "BaseForm", "CheckInForm", "ConfirmForm", "DrawForm", "NewNightForm", "NightUndoForm",
    "PersonForm", "RoundForm", "DateForm", "DeviceForm", "GameRulesForm", "GameSeasonForm",
    "HandForm", "HouseRulesForm", "ImportForm", "JoinForm", "KittyForm", "LeaveForm", "MergeForm", "NewGameForm",
    "Problem", "RenameForm", "SeasonForm", "TrickForm", "UndoMergeForm", "VoidForm", "shown_value", "whole_number",
]
