"""Cancellation Hearts, as docs/rules.md keeps it (R1-R18): the rules engine.

Standard library only. Views, forms, the service and commands call into it;
it never calls out. Values are immutable, errors are types with fields
(every refusal a ``RuleError``), and every ``repr`` is valid Python so that a
failing example can be pasted back into a test. One module a kind of value:

- ``numbers``: the numbers the rules give (players, copies, hearts, target);
- ``errors``: every kind of refusal;
- ``cards``: cards and their copies (R2);
- ``variant``: house rules as one value, and their registry (R5, R14, R15);
- ``hand``: a hand's takings, checked and scored (R13-R15);
- ``trick``: one trick resolved (R9);
- ``play``: a hand played trick by trick (R6-R13);
- ``game``: the deal, the seating, dealers, passing, totals, the verdict (R1-R5, R16, R17);
- ``figures``: a player's figures across games;
- ``night``: a club night of rounds across tables: the tables, a round's draw, shares, the standing (R18).

Callers use this package's names (``rules.score_game``); rule numbers in
comments and messages refer to docs/rules.md.
"""

from .cards import (  # noqa: F401
    BLACK_MARIA,
    CARD_KINDS,
    CLUBS,
    DIAMONDS,
    ENGLISH_LETTERS,
    HEARTS,
    JACK_OF_DIAMONDS,
    SPADES,
    SUITS,
    Card,
    CardLetters,
    check_copies,
    parse_cards,
)
from .errors import (  # noqa: F401
    BadTarget,
    CardsUnaccounted,
    HandAfterGameOver,
    HandDoesNotFit,
    HandFinished,
    HouseRuleRefused,
    IllegalLead,
    JacksFixed,
    JacksNotPlayed,
    KittySize,
    MoonChoiceNeeded,
    MoonNotAllowed,
    MoreThanTheHandHolds,
    NoMoonShot,
    NotACard,
    NothingCollected,
    RuleError,
    SeatingRefused,
    TableSize,
    ThirdCopy,
    TrickSize,
)
from .figures import (  # noqa: F401
    Figures,
    Finish,
    finishes,
    game_figures,
)
from .game import (  # noqa: F401
    Deal,
    HandSummary,
    Join,
    Leave,
    NextHand,
    Scoreboard,
    SeatChange,
    StartRule,
    check_players,
    check_rules_change,
    check_seat,
    check_target,
    deal,
    left_of,
    next_dealer,
    pass_to,
    right_of,
    score_game,
    score_next_hand,
    seatings,
    starting_players,
    starting_total,
    winners,
)
from .hand import (  # noqa: F401
    NOTHING,
    HandRecord,
    Taken,
    check_hand,
    check_record,
    check_takings,
    hand_problems,
    moon_missed,
    moon_shooter,
    record_points,
    score_hand,
    takings_problems,
)
from .night import (  # noqa: F401
    Draw,
    DrawnTable,
    RoundResult,
    Standing,
    TableRound,
    draw_round,
    neighbours,
    night_standing,
    round_length,
    round_results,
    shares,
    table_round,
    table_splits,
)
from .numbers import (  # noqa: F401
    COPIES,
    DECK_SIZE,
    DEFAULT_TARGET,
    HEARTS_IN_HAND,
    JACKS_IN_HAND,
    MARIAS_IN_HAND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOST_SEAT_CHANGES,
    SUGGESTED_MINIMUM_TARGET,
)
from .play import (  # noqa: F401
    HandPlay,
    PlayedLog,
    PlayedTrick,
    check_log,
    trick_problems,
)
from .trick import (  # noqa: F401
    Explanation,
    Outcome,
    TrickResult,
    resolve_trick,
)
from .variant import (  # noqa: F401
    CARDS_PASSED_CHOICES,
    HOUSE_RULE_NAMES,
    HOUSE_RULES,
    JACK_OF_DIAMONDS_CHOICES,
    LONGEST_PASSING_CYCLE,
    MOON_POINTS_CHOICES,
    PASSING_CYCLES,
    SEEDS,
    Direction,
    HouseRule,
    Moon,
    MoonRule,
    Variant,
    check_hand_number,
)
