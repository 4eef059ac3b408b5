"""One hand's takings: what each player took, checked and scored (R13-R15)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TypeVar

from .cards import JACK_OF_DIAMONDS, Card
from .errors import (
    CardsUnaccounted,
    JacksNotPlayed,
    MoonChoiceNeeded,
    MoonNotAllowed,
    MoreThanTheHandHolds,
    NoMoonShot,
    NothingCollected,
    RuleError,
)
from .numbers import HEARTS_IN_HAND, JACKS_IN_HAND, MARIAS_IN_HAND
from .variant import SEEDS, Moon, Variant

# Whoever takings are keyed by (a seat, a roster number, a name): what is found of them is of the same kind.
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class Taken:
    """Hearts and Black Marias one player took in a hand (R14), and J♦ where a house rule scores them."""

    hearts: int = 0
    marias: int = 0
    jacks: int = 0

    def __post_init__(self) -> None:
        for name in ("hearts", "marias", "jacks"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"{name} must be a whole number, not {getattr(self, name)!r}")

    def __repr__(self) -> str:
        jacks = f", jacks={self.jacks!r}" if self.jacks else ""
        return f"Taken({self.hearts!r}, {self.marias!r}{jacks})"

    @property
    def points(self) -> int:
        """Points under the seeds' scoring: 1 a heart, 13 a Black Maria (R14)."""
        return self.points_under(SEEDS)

    def points_under(self, variant: Variant) -> int:
        """Points under ``variant``'s scoring (R14 and its house rules)."""
        return (variant.heart_points * self.hearts + variant.maria_points * self.marias
                + variant.jack_of_diamonds * self.jacks)

    def __add__(self, other: Taken) -> Taken:
        return Taken(self.hearts + other.hearts, self.marias + other.marias, self.jacks + other.jacks)

    @classmethod
    def of_cards(cls, cards: Iterable[Card], jacks: bool = False) -> Taken:
        """Count the hearts and Black Marias among some cards, and the J♦ if ``jacks``."""
        cards = list(cards)
        return cls(
            sum(card.is_heart for card in cards),
            sum(card.is_black_maria for card in cards),
            sum(card == JACK_OF_DIAMONDS for card in cards) if jacks else 0,
        )


NOTHING = Taken(0, 0)


def takings_problems(taken: Mapping[Player, Taken], variant: Variant = SEEDS) -> tuple[list[RuleError], Taken]:
    """Every reason a hand's takings break R14, and what all players took together: the one check of a hand.

    Each player's own problems first, player by player (``MoreThanTheHandHolds``
    for hearts, Black Marias and J♦ past what a hand holds, then
    ``JacksNotPlayed`` for J♦ in a game that does not score them), then the
    kinds too many all together. Counts that are no ``Taken`` or below zero
    are the caller's bug and raise ``ValueError`` at once.
    """
    for player, taking in taken.items():
        _check_taking(player, taking)
    problems: list[RuleError] = []
    for player, taking in taken.items():
        problems += _too_many(taking, variant, player)
        if _unscored_jacks(taking, variant):
            problems.append(JacksNotPlayed(player))
    total = sum(taken.values(), NOTHING)
    return problems + _too_many(total, variant), total


def check_takings(taken: Mapping[Player, Taken], variant: Variant = SEEDS) -> Taken:
    """Validate one hand's takings and return what nobody collected (R13, R14).

    Raises the first of ``takings_problems``: ``MoreThanTheHandHolds`` for one
    player's count or the sum past 26 hearts, 2 Black Marias or (when J♦
    score) 2 J♦, and ``JacksNotPlayed`` for J♦ counted in a game where they
    score nothing.
    """
    problems, total = takings_problems(taken, variant)
    _raise_first(problems)
    return _left_over(total, variant)


def _check_taking(player: Hashable, taking: object) -> None:
    """A count that is no ``Taken``, or below zero, is the caller's bug, not the table's mistake."""
    if not isinstance(taking, Taken):
        raise ValueError(f"{player!r}: expected Taken(hearts, marias), not {taking!r}")
    if taking.hearts < 0 or taking.marias < 0 or taking.jacks < 0:
        raise ValueError(f"{player!r}: hearts, Black Marias and J♦ cannot be negative")


def _raise_first(problems: Sequence[RuleError]) -> None:
    if problems:
        raise problems[0]


def _unscored_jacks(taking: Taken, variant: Variant) -> bool:
    """J♦ counted in a game whose house rules do not score them (R14)."""
    return bool(taking.jacks) and not variant.jack_of_diamonds


def _too_many(taken: Taken, variant: Variant, player: Hashable | None = None) -> list[RuleError]:
    """``MoreThanTheHandHolds`` for each kind past what a hand holds: hearts, then marias, then J♦ (R14)."""
    return [MoreThanTheHandHolds(what, count, most, player)
            for what, count, most in _counted(taken, variant) if count > most]


def _counted(taken: Taken, variant: Variant) -> tuple[tuple[str, int, int], ...]:
    """What a hand holds of each kind that scores: (kind, count taken, most a hand holds) (R2, R14).

    J♦ count only where the house rule scores them; elsewhere any J♦ is ``JacksNotPlayed``.
    """
    counted: tuple[tuple[str, int, int], ...] = (
        ("hearts", taken.hearts, HEARTS_IN_HAND), ("marias", taken.marias, MARIAS_IN_HAND),
    )
    if variant.jack_of_diamonds:
        counted += (("jacks", taken.jacks, JACKS_IN_HAND),)
    return counted


def _left_over(total: Taken, variant: Variant) -> Taken:
    """What nobody collected, given what all players took together (R13)."""
    jacks_left = JACKS_IN_HAND - total.jacks if variant.jack_of_diamonds else 0
    return Taken(HEARTS_IN_HAND - total.hearts, MARIAS_IN_HAND - total.marias, jacks_left)


def moon_shooter(taken: Mapping[Player, Taken]) -> Player | None:
    """The player who took all 26 hearts and both Black Marias, if any (R15); J♦ do not count towards it."""
    for player, taking in taken.items():
        if taking.hearts == HEARTS_IN_HAND and taking.marias == MARIAS_IN_HAND:
            return player
    return None


def moon_missed(taken: Mapping[Player, Taken]) -> Player | None:
    """The player who took every heart and Black Maria collected, when a reserved last trick left some
    uncollected (R13): nobody shot the moon and they score normally (R15, decision b). None otherwise."""
    hearts = sum(taking.hearts for taking in taken.values())
    marias = sum(taking.marias for taking in taken.values())
    if (hearts, marias) == (HEARTS_IN_HAND, MARIAS_IN_HAND) or not hearts + marias:
        return None
    for player, taking in taken.items():
        if (taking.hearts, taking.marias) == (hearts, marias):
            return player
    return None


def score_hand(
    taken: Mapping[Player, Taken],
    moon: Moon | str | None = None,
    variant: Variant = SEEDS,
) -> dict[Player, int]:
    """Each player's points for one hand (R14, R15).

    ``taken`` maps any key (seat, name, id) to ``Taken``. Fewer than 26
    hearts in all is legal: a reserved last trick leaves cards uncollected
    (R13). Under a house rule that allows one moon choice only, that one
    is used when ``moon`` is None.
    """
    check_takings(taken, variant)
    return _points(taken, moon, variant)


def _points(taken: Mapping[Player, Taken], moon: Moon | str | None, variant: Variant) -> dict[Player, int]:
    """The points of takings already checked (R14, R15): a moon by its choice, else each player's own."""
    moon = None if moon is None else Moon(moon)
    shooter = moon_shooter(taken)
    if shooter is None:
        if moon is not None:
            raise NoMoonShot()
        return {player: taking.points_under(variant) for player, taking in taken.items()}
    moon = variant.moon_for(moon, shooter)
    # R15: nobody adds the hand's normal points, whichever the choice; J♦ still score (house rule).
    jacks = {player: variant.jack_of_diamonds * taking.jacks for player, taking in taken.items()}
    if moon is Moon.SUBTRACT:
        return {player: jacks[player] - (variant.moon_points if player == shooter else 0) for player in taken}
    return {player: jacks[player] + (0 if player == shooter else variant.moon_points) for player in taken}


def record_points(record: HandRecord, variant: Variant = SEEDS) -> tuple[tuple[int, ...], Taken]:
    """A record's points by seat and what nobody collected (R13-R15): scored without checking its takings
    again when it was checked already (it carries ``uncollected``), checked first when not."""
    taken = dict(enumerate(record.taken))
    uncollected = record.uncollected if record.uncollected is not None else check_takings(taken, variant)
    points = _points(taken, record.moon, variant)
    return tuple(points[seat] for seat in range(len(record.taken))), uncollected


def check_record(taken: Sequence[Taken], moon: Moon | str | None = None, variant: Variant = SEEDS) -> HandRecord:
    """A hand as a document or a backup keeps it, checked once: its record, carrying what nobody collected.

    Cards may be uncollected (a reserved last trick, R13); a moon choice needs
    a shooter (``NoMoonShot``), and under a one-choice house rule the choice
    made is that one (R15).
    """
    by_seat = dict(enumerate(taken))
    problems, total = takings_problems(by_seat, variant)
    _raise_first(problems)
    moon = None if moon is None else Moon(moon)
    shooter = moon_shooter(by_seat)
    if shooter is None:
        if moon is not None:
            raise NoMoonShot()
        return HandRecord(tuple(taken), None, _left_over(total, variant))
    return HandRecord(tuple(taken), variant.moon_for(moon, shooter), _left_over(total, variant))


_TAKEN_KINDS = frozenset(each.name for each in fields(Taken))  # what a hand form may fail to read


def hand_problems(
    taken: Sequence[Taken], moon: Moon | str | None = None, last_trick_reserved: bool = False,
    variant: Variant = SEEDS, unread: frozenset[str] = frozenset(), nothing_collected_confirmed: bool = False,
) -> tuple[RuleError, ...]:
    """Every reason the rules refuse one hand as a table reports it, in the order a table reads them (R13-R15).

    ``taken`` lists each seat's takings. First each seat's own problems, seat
    by seat (``MoreThanTheHandHolds`` for hearts, Black Marias and J♦, then
    ``JacksNotPlayed``); then the kinds too many all together. Only when
    those are fine: ``CardsUnaccounted`` for cards missing without a reserved
    last trick said, ``NothingCollected`` for a reserved last trick that left
    everything (unless ``nothing_collected_confirmed``), and the moon's
    ``MoonChoiceNeeded`` or ``MoonNotAllowed`` as ``check_hand`` decides them.

    ``unread`` names the kinds ("hearts", "marias", "jacks") of which some
    seat's count could not be read and was passed as 0: their sums are only
    lower bounds, so only "too many" is checked. Counts that are no ``Taken``
    or below zero are the caller's bug and raise ``ValueError`` at once.
    """
    return _hand_check(taken, moon, last_trick_reserved, variant, frozenset(unread), nothing_collected_confirmed)[0]


def _hand_check(
    taken: Sequence[Taken], moon: Moon | str | None, last_trick_reserved: bool, variant: Variant,
    unread: frozenset[str], nothing_collected_confirmed: bool,
) -> tuple[tuple[RuleError, ...], Taken]:
    """``hand_problems``, and what nobody collected (the check ``check_hand`` makes once)."""
    if not unread <= _TAKEN_KINDS:
        raise ValueError(f"unread kinds are among {sorted(_TAKEN_KINDS)}, not {sorted(unread)!r}")
    by_seat = dict(enumerate(taken))
    problems, total = takings_problems(by_seat, variant)
    uncollected = _left_over(total, variant)
    # With a count unread, a short sum may be the form's fault, not the table's: say nothing about it.
    if problems or unread:
        return tuple(problems), uncollected
    if uncollected != NOTHING and not last_trick_reserved:
        problems.append(CardsUnaccounted(total.hearts, total.marias,
                                         total.jacks if variant.jack_of_diamonds else None))
    if total == NOTHING and last_trick_reserved and not nothing_collected_confirmed:
        problems.append(NothingCollected(uncollected))
    shooter = moon_shooter(by_seat)
    if shooter is not None:
        try:
            variant.moon_for(moon, shooter)
        except (MoonChoiceNeeded, MoonNotAllowed) as problem:
            problems.append(problem)
    return tuple(problems), uncollected


def check_hand(
    taken: Sequence[Taken], moon: Moon | str | None = None, last_trick_reserved: bool = False,
    variant: Variant = SEEDS, nothing_collected_confirmed: bool = False,
) -> HandRecord:
    """A hand as a table reports it, checked and made a record (R13-R15).

    Raises the first of ``hand_problems``: fewer than all hearts and Black
    Marias (and J♦, when they score) is legal only when the table says the
    last trick was reserved (R13, else ``CardsUnaccounted``), and a hand in
    which nobody collected anything must be confirmed (``NothingCollected``).
    A shooter needs a moon choice (``MoonChoiceNeeded``) unless the house
    rule allows only one, which the record then names; a choice left over
    from an earlier count, with nobody having shot the moon, is dropped.
    """
    problems, uncollected = _hand_check(taken, moon, last_trick_reserved, variant, frozenset(),
                                        nothing_collected_confirmed)
    _raise_first(problems)
    shooter = moon_shooter(dict(enumerate(taken)))
    if shooter is None:
        return HandRecord(tuple(taken), None, uncollected)
    return HandRecord(tuple(taken), variant.moon_for(moon, shooter), uncollected)


@dataclass(frozen=True)
class HandRecord:
    """The facts of one recorded hand: each seat's takings, in its seating's order, and any moon choice.

    ``uncollected`` is what nobody collected (R13), known once the record is
    checked (``check_hand``, ``check_record``, or a stored hand that was):
    such a record is scored without checking its takings again. It is derived,
    so it takes no part in comparing records.
    """

    taken: tuple[Taken, ...]
    moon: Moon | None = None
    uncollected: Taken | None = field(default=None, compare=False, repr=False)
