"""Every change to a game, or to the club's people, goes through here: one function a change.

Each function takes the game (as the caller loaded it), engine values and
the revision the caller saw. It checks the change through the rules engine
before writing anything, then claims the game with one compare-and-set on
its revision, writes the rows and the trail, and commits: one transaction
(``writing``). One module a kind of change:

- ``games``: a new game, an import (of one game or several at once), a restore;
- ``restoring``: a whole club from a backup (its games as kept, its people, the club's trail); its nights and
  their trails in ``restoring_nights``;
- ``hands``: record, correct, remove a hand;
- ``seats``: players who join or leave, the house rules;
- ``tricks``: a hand played trick by trick (a trick or kitty put over another device's, as chosen);
- ``trail``: the trail and its undo (entries written by ``entries``);
- ``people``: the club's people (linking players, rename, merge, undo);
- ``club``: the key of the club's secretary link; games left out of the season, waiting imports counted;
- ``figures``: each game's figures (the games list's, each player's), kept for its revision by every write;
- ``ratings``: the club's ratings (openskill), followed game by game by every write;
- ``nights``: a club night (R18): opened, check-in, each round drawn into tables' games, closed; its standing;
- ``refreshing``: kept figures and ratings that fell behind the hands, derived again and kept;
- ``kept``: each game as this process last derived it, for its revision.

What it raises, for the views to word (scorekeeper/words/explain.py):

- ``rules.RuleError`` subclasses: the rules refuse the change;
- ``Conflict``: another device wrote first, or the database refused the
  write (a taken hand number, a stale row, a deadlock): nothing was saved;
- ``UndoRefused``: a trail entry that cannot be undone now, and why;
- ``KittyNeeded``: a trick entered before the kitty its winner took;
- ``NameTaken``, ``SamePerson``: a name already in the game, two names of one person;
- ``PeopleRefused``: a rename, merge or undo of the club's people that cannot be made.

Views and commands never commit: ``grep -rn commit scorekeeper`` finds
only ``service/writing.py``.
"""

from . import figures, kept, nights, refreshing  # noqa: F401
from .club import (  # noqa: F401
    accept_game,
    change_game_date,
    change_games,
    count_game_again,
    game_change_refusal,
    import_games_of,
    new_secretary_key,
    secretary_key,
    touched,
    touches,
    undo_game_change,
    void_game,
    void_import,
)
from .entries import Action  # noqa: F401
from .errors import (  # noqa: F401
    Conflict,
    HandUnderWay,
    KittyNeeded,
    NameTaken,
    NightRefused,
    PeopleRefused,
    SamePerson,
    TricksRefused,
    UndoRefused,
)
from .games import (  # noqa: F401
    CheckedGame,
    GameFacts,
    KnownPerson,
    check_game,
    import_game,
    import_games,
    new_game,
    restore_backup,
)
from .hands import correct_hand, record_hand, remove_hand  # noqa: F401
from .kept import KeptGame, kept_game  # noqa: F401
from .people import (  # noqa: F401
    makes_merge,
    merge_people,
    person_change_blocker,
    person_change_refusal,
    rename_person,
    undo_change,
    undo_merge,
    undo_rename,
)
from .restoring import (  # noqa: F401
    BackupGame,
    BackupNight,
    BackupPerson,
    GamesEntry,
    OpenHand,
    PeopleEntry,
    Restored,
    StoredGame,
    StoredHand,
    TrailEntry,
    backup_game,
    restore_club,
    subjects,
)
from .seats import change_house_rules, seat_player, see_off  # noqa: F401
from .trail import Subject, TrailLine, take_back_trick, trail, trail_line, undo  # noqa: F401
from .tricks import enter_kitty, kitty_needed, open_play, play_trick, put_kitty_over, put_trick_over  # noqa: F401
from .writing import after_commit  # noqa: F401
