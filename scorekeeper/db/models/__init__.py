"""The database's models, one module for each job; the rest of the app imports them from here.

- ``base``: the SQLAlchemy object ``db`` every model is declared on, and its connections (``init_app``,
  ``close_database``, SQLite's settings).
- ``facts``: the rows that are facts, what a table recorded (games and their house rules, players, hands,
  takings, trick logs, seat changes, people, the trails, the imports, the club), and the one small place
  that turns rows into engine values and back (``Hand.record``, ``hand_record``, ``variant_of_row``,
  ``variant_columns``, ``Scored``).
- ``kept``: the kept tables, derived from the hands and kept for one revision of a game (``GameFigures``,
  ``SeatFigures``, ``PersonFigures``, with the ratings): a cache, which the hands always win over.
- ``nights``: a club night's facts (the night, who is here, each round's draw and its tables' games, R18).
- ``reads``: a game as its pages read it, as plain values (``ShownGame``, ``read_shown_game``), its trail
  (``read_trail``) and its open trick log (``read_open_log``), with their statements.

Arrows point down: ``reads`` imports ``facts``; ``facts`` and ``kept`` import ``base`` only.
"""

from .base import close_database, db, init_app
from .facts import (
    COUNTED,
    DEVICE_NAME_LENGTH,
    GAME_NAME_LENGTH,
    HOUSE_RULE_COLUMNS,
    LARGEST_ID,
    LARGEST_TARGET,
    NAME_LENGTH,
    UNCOLLECTED_COLUMNS,
    VOID_REASON_LENGTH,
    Change,
    Club,
    Game,
    GameChange,
    GameImport,
    Hand,
    Person,
    PersonChange,
    PersonName,
    Player,
    Scored,
    SeatChange,
    Taking,
    Trick,
    TrickLog,
    cards_text,
    counts_in_season,
    hand_columns,
    hand_record,
    record_of_facts,
    seat_change_value,
    taking_rows,
    today,
    uncollected,
    utcnow,
    variant_columns,
    variant_of_row,
)
from .kept import FIGURE_COLUMNS, GameFigures, PersonFigures, SeatFigures
from .nights import Night, NightChange, NightPlayer, NightRound, NightTable
from .reads import NightTableFacts, ShownGame, ShownHand, read_open_log, read_shown_game, read_trail

__all__ = [
    "COUNTED", "DEVICE_NAME_LENGTH", "FIGURE_COLUMNS", "GAME_NAME_LENGTH", "HOUSE_RULE_COLUMNS",
    "LARGEST_ID", "LARGEST_TARGET", "NAME_LENGTH", "UNCOLLECTED_COLUMNS", "VOID_REASON_LENGTH",
    "Change", "Club", "Game", "GameChange", "GameFigures", "GameImport", "Hand", "Person", "PersonChange",
    "PersonFigures", "PersonName", "Player", "Scored", "SeatChange", "SeatFigures", "ShownGame", "ShownHand", "Taking",
    "Night", "NightChange", "NightPlayer", "NightRound", "NightTable", "NightTableFacts", "Trick", "TrickLog",
    "cards_text", "close_database", "counts_in_season", "db", "hand_columns", "hand_record", "init_app",
    "read_open_log", "read_shown_game", "read_trail", "record_of_facts", "seat_change_value", "taking_rows",
    "today", "uncollected", "utcnow", "variant_columns", "variant_of_row",
]
