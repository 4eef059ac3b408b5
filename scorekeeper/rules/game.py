"""A whole game: the deal, the seating and its changes, dealers, passing, totals and the verdict
(R1, R3-R5, R16, R17)."""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from .errors import BadTarget, HandAfterGameOver, HandDoesNotFit, JacksFixed, RuleError, SeatingRefused, TableSize
from .hand import HandRecord, Moon, Taken, moon_shooter, record_points, score_hand
from .numbers import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, MOST_SEAT_CHANGES
from .variant import SEEDS, Direction, Variant


@dataclass(frozen=True)
class Deal:
    """How the 104 cards are dealt among the players (R3)."""

    players: int
    cards_each: int
    kitty: int

    @property
    def tricks(self) -> int:
        """One trick per card in each hand."""
        return self.cards_each


def check_players(players: int) -> int:
    """Return ``players`` if it is a legal table size (R1)."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise TableSize(players)
    return players


def deal(players: int) -> Deal:
    """Cards each and the kitty's size for a table of ``players`` (R3)."""
    check_players(players)
    return Deal(players, DECK_SIZE // players, DECK_SIZE % players)




def check_seat(seat: int, players: int, what: str = "seat") -> None:
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"{what} must be a seat from 0 to {players - 1}, not {seat!r}")


def left_of(seat: int, players: int) -> int:
    """The next seat clockwise (R1)."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The previous seat clockwise (R1)."""
    return (seat - 1) % players


def pass_to(seat: int, players: int, direction: Direction) -> int | None:
    """The seat that ``seat`` passes its cards to (R5): None in a hold hand, halfway round across."""
    if direction is Direction.LEFT:
        return left_of(seat, players)
    if direction is Direction.RIGHT:
        return right_of(seat, players)
    if direction is Direction.ACROSS and players % 2 == 0:
        return (seat + players // 2) % players
    return None






@dataclass(frozen=True)
class Leave:
    """Player ``player`` (a roster number) leaves the table before hand ``before_hand``."""

    before_hand: int
    player: int


@dataclass(frozen=True)
class Join:
    """A new player sits down before hand ``before_hand``, at place ``at`` (0-based) of the
    seating the changes before it left, with ``start`` points.

    ``player`` is their roster number: the players of hand 1 are 0 to n-1 in
    their seating order, and each joiner takes the next number.
    """

    before_hand: int
    player: int
    at: int
    start: int


SeatChange = Join | Leave


@dataclass(frozen=True)
class HandSummary:
    """One recorded hand with everything derived from it.

    Players are roster numbers. ``seating`` lists who played the hand,
    clockwise; ``taken`` follows it. ``points`` and ``totals`` are indexed by
    roster number: None in ``points`` for who did not play the hand, in
    ``totals`` for who had not joined yet. ``direction`` is how the hand
    passed: a hold where the cycle said across at an odd table (``across_held``).
    """

    number: int
    dealer: int
    leader: int
    direction: Direction
    taken: tuple[Taken, ...]
    uncollected: Taken
    moon: Moon | None
    shooter: int | None
    points: tuple[int | None, ...]
    totals: tuple[int | None, ...]  # running totals after this hand
    seating: tuple[int, ...] = ()
    across_held: bool = False

    @property
    def seat_points(self) -> tuple[int, ...]:
        """The points of the hand in seating order, as ``taken``."""
        # Everyone seated played the hand: only the roster's others have None.
        return cast(tuple[int, ...], tuple(self.points[player] for player in self.seating))


@dataclass(frozen=True)
class NextHand:
    """The hand to deal next: who sits where, deals, leads, which way and how many to pass (R3-R5)."""

    number: int
    dealer: int
    leader: int
    direction: Direction
    cards_each: int
    kitty: int
    seating: tuple[int, ...] = ()
    across_held: bool = False
    cards_passed: int = 3

    @property
    def passes(self) -> tuple[tuple[int, int], ...]:
        """(giver, receiver) for every player, in seating order; none in a hold hand (R5)."""
        players = len(self.seating)
        pairs: list[tuple[int, int]] = []
        for place, giver in enumerate(self.seating):
            receiver = pass_to(place, players, self.direction)
            if receiver is not None:
                pairs.append((giver, self.seating[receiver]))
        return tuple(pairs)

    def place(self, player: int) -> int:
        """Where ``player`` sits in this hand's seating (0-based, clockwise)."""
        return self.seating.index(player)


@dataclass(frozen=True)
class Scoreboard:
    """A game's state, derived from its recorded hands and seat changes every time (R17).

    Players are roster numbers (``players`` of them: everyone who sat at the
    table in this game). ``seating`` is who is at the table now (for the
    next hand; the last hand's when the game is over); ``left_after`` maps
    each player who left to the last hand they played.
    """

    players: int
    target: int
    hands: tuple[HandSummary, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    next_hand: NextHand | None
    seating: tuple[int, ...] = ()
    left_after: Mapping[int, int] = field(default_factory=dict)
    variant: Variant = SEEDS

    def __post_init__(self) -> None:
        if not self.seating:
            object.__setattr__(self, "seating", tuple(range(self.players)))

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def lowest(self) -> int:
        """The lowest total among the players at the table (R16)."""
        return min(self.totals[player] for player in self.seating)

    @property
    def standings(self) -> tuple[tuple[int, int], ...]:
        """(place, player) from the lowest total up, players at the table only; equal totals share a place (R16)."""
        present = [self.totals[player] for player in self.seating]
        order = sorted(self.seating, key=lambda player: (self.totals[player], self.seating.index(player)))
        return tuple((1 + sum(total < self.totals[player] for total in present), player) for player in order)


def check_target(target: int) -> int:
    """Return ``target`` if it is a whole number from 1 up (R16)."""
    if type(target) is not int or target < 1:
        raise BadTarget(target)
    return target


def next_dealer(dealer: int, before: Sequence[int], after: Sequence[int]) -> int:
    """Who deals after ``dealer`` dealt at seating ``before``, now the seating is ``after`` (R4).

    The deal passes to the next player clockwise from the last dealer in the
    new seating; if the dealer left, to the first player clockwise from
    their old place who played the last hand and is still at the table.
    Should nobody of the last hand remain, the first place deals.
    """
    if dealer in after:
        return after[(after.index(dealer) + 1) % len(after)]
    place = before.index(dealer)
    for step in range(1, len(before)):
        candidate = before[(place + step) % len(before)]
        if candidate in after:
            return candidate
    return after[0]


def _upcoming(number: int, dealer: int, seating: tuple[int, ...], variant: Variant) -> NextHand:
    """Dealer, first leader, passing and the deal for hand ``number`` at ``seating`` (R3-R5)."""
    players = len(seating)
    the_deal = deal(players)
    leader = seating[left_of(seating.index(dealer), players)]
    direction = variant.direction(number, players)
    across_held = direction is not variant.cycle_direction(number)
    return NextHand(number, dealer, leader, direction, the_deal.cards_each, the_deal.kitty,
                    seating, across_held, variant.cards_passed)


def _seat(change: SeatChange, seating: list[int], roster: int, target: int) -> int:
    """Apply one seat change to ``seating``; return the roster size after it (R1)."""
    if isinstance(change, Leave):
        if change.player not in seating:
            raise SeatingRefused("absent", change)
        if len(seating) == MIN_PLAYERS:
            raise SeatingRefused("short", change)
        seating.remove(change.player)
        return roster
    if change.player != roster:
        raise ValueError(f"the next joiner is roster number {roster}, not {change.player!r}")
    if len(seating) == MAX_PLAYERS:
        raise SeatingRefused("full", change)
    if type(change.at) is not int or not 0 <= change.at <= len(seating):
        raise SeatingRefused("place", change)
    if type(change.start) is not int or change.start >= target:
        raise SeatingRefused("start", change)
    seating.insert(change.at, change.player)
    return roster + 1


def starting_players(roster: int, changes: Sequence[SeatChange]) -> int:
    """How many sat down for hand 1 of a game of ``roster`` players (all who sat at its table) after ``changes``."""
    return roster - sum(isinstance(change, Join) for change in changes)


def seatings(players: int, changes: Sequence[SeatChange], hands: int, target: int) -> tuple[tuple[int, ...], ...]:
    """Who sits where (roster numbers, clockwise) for hands 1 to ``hands`` + 1, after ``changes`` (R1).

    Raises ``SeatingRefused`` as ``score_game`` does, except for a change
    after the game is over, which only scoring can tell.
    """
    made_before = _check_changes(changes, hands)
    seating = list(range(check_players(players)))
    roster = players
    found = []
    for number in range(1, hands + 2):
        roster = _seat_all(made_before.get(number, ()), seating, roster, target)
        found.append(tuple(seating))
    return tuple(found)


def _seat_all(made: Sequence[SeatChange], seating: list[int], roster: int, target: int) -> int:
    """Apply the changes ``made`` before one hand to ``seating``, in order; return the roster size after them."""
    for change in made:
        roster = _seat(change, seating, roster, target)
    return roster


def _check_changes(changes: Sequence[SeatChange], hands: int) -> dict[int, list[SeatChange]]:
    """Seat changes come in the order made, from before hand 2 to before the next hand, at most
    ``MOST_SEAT_CHANGES`` before one hand (R1); the changes made before each hand, by its number."""
    numbers = [change.before_hand for change in changes]
    if not all(type(number) is int for number in numbers) or numbers != sorted(numbers):
        raise ValueError("seat changes are listed in the order they were made, hand by hand")
    made_before: dict[int, list[SeatChange]] = {}
    for change in changes:
        if change.before_hand < 2:
            raise SeatingRefused("first_hand", change)
        if change.before_hand > hands + 1:
            raise SeatingRefused("unplayed", change, next_hand=hands + 1)
        made = made_before.setdefault(change.before_hand, [])
        if len(made) == MOST_SEAT_CHANGES:
            raise SeatingRefused("many", change)
        made.append(change)
    return made_before


def score_game(
    players: int,
    first_dealer: int,
    target: int,
    hands: Sequence[HandRecord],
    variant: Variant = SEEDS,
    changes: Sequence[SeatChange] = (),
) -> Scoreboard:
    """Derive totals, seating, dealers, passing, the verdict and the next hand (R1, R3-R5, R14-R17).

    ``players`` sit down for hand 1 as roster numbers 0 to players-1;
    ``changes`` (in the order they were made, by ``before_hand``) seat
    joiners and see leavers off between hands, from before hand 2 up to
    before the next hand. A player who left keeps their total but no longer
    deals, passes, ends the game or wins.

    Raises ``MoonChoiceNeeded`` or ``ValueError`` for a hand that cannot be
    scored, ``SeatingRefused`` for a change the table cannot make, and
    ``HandAfterGameOver`` when hands follow the one that ended the game.
    """
    check_players(players)
    check_seat(first_dealer, players, "the first dealer")
    check_target(target)
    made_before = _check_changes(changes, len(hands))
    seating = list(range(players))
    totals = [0] * players
    summaries: list[HandSummary] = []
    dealer = first_dealer
    over: list[int] = []
    for number in range(1, len(hands) + 2):
        before = tuple(seating)
        made = made_before.get(number, [])
        if made and over:
            raise SeatingRefused("game_over", made[0])
        _seat_all(made, seating, len(totals), target)
        totals += [change.start for change in made if isinstance(change, Join)]
        if number > 1:
            dealer = next_dealer(dealer, before, seating)
        if number > len(hands):
            break
        if over:
            raise HandAfterGameOver(number - 1, len(hands))
        summary, after = _scored_hand(hands[number - 1], _upcoming(number, dealer, tuple(seating), variant),
                                      totals, variant)
        summaries.append(summary)
        totals = list(after)
        over = winners({player: totals[player] for player in seating}, target)
    coming = None if over else _upcoming(len(hands) + 1, dealer, tuple(seating), variant)
    left_after = {change.player: change.before_hand - 1 for change in changes if isinstance(change, Leave)}
    # Hands before a join have no place for the joiner yet: every hand lists the whole roster.
    summaries = [_padded(summary, len(totals)) for summary in summaries]
    return Scoreboard(len(totals), target, tuple(summaries), tuple(totals), tuple(over), coming,
                      tuple(seating), left_after, variant)


def score_next_hand(board: Scoreboard, record: HandRecord) -> Scoreboard:
    """``board`` with ``record`` scored as its next hand: the very board ``score_game`` derives from the hands
    before and this one, without scoring those again (R14-R16).

    Seat changes are made only before the next hand, so none comes between
    this hand and the one after it: the deal passes one seat on (R4). Raises
    ``HandAfterGameOver`` once the game is over.
    """
    hand = board.next_hand
    if hand is None:
        raise HandAfterGameOver(len(board.hands), len(board.hands) + 1)
    summary, totals = _scored_hand(record, hand, board.totals, board.variant)
    over = winners({player: totals[player] for player in board.seating}, board.target)
    coming = None if over else _upcoming(hand.number + 1, next_dealer(hand.dealer, board.seating, board.seating),
                                         board.seating, board.variant)
    return replace(board, hands=board.hands + (summary,), totals=totals, winners=tuple(over),
                   next_hand=coming)


def _padded(summary: HandSummary, roster: int) -> HandSummary:
    missing: tuple[None, ...] = (None,) * (roster - len(summary.points))
    if not missing:
        return summary
    return replace(summary, points=summary.points + missing, totals=summary.totals + missing)


def _scored_hand(
    record: HandRecord, hand: NextHand, totals: Sequence[int], variant: Variant,
) -> tuple[HandSummary, tuple[int, ...]]:
    """One recorded hand scored at its seating (R14, R15), and the running totals after it: a total for each
    player of the roster so far."""
    seats = len(hand.seating)
    if len(record.taken) != seats:
        raise ValueError(f"hand {hand.number} has takings for {len(record.taken)} seats, not {seats}")
    taken = dict(enumerate(record.taken))
    points_by_place, uncollected = record_points(record, variant)
    shooter = moon_shooter(taken)
    moon = None if shooter is None else variant.moon_for(record.moon, shooter)
    points: list[int | None] = [None] * len(totals)
    after = list(totals)
    for place, player in enumerate(hand.seating):
        points[player] = points_by_place[place]
        after[player] += points_by_place[place]
    totals_after = tuple(after)
    summary = HandSummary(
        hand.number, hand.dealer, hand.leader, hand.direction, tuple(record.taken), uncollected, moon,
        None if shooter is None else hand.seating[shooter], tuple(points), totals_after,
        hand.seating, hand.across_held,
    )
    return summary, totals_after


def check_rules_change(records: Sequence[HandRecord], before: Variant, after: Variant) -> None:
    """Whether every recorded hand fits house rules ``after`` instead of ``before`` (R17): raises
    ``JacksFixed`` for a J♦ rule changed once hands are recorded, ``HandDoesNotFit`` for a hand they refuse."""
    if records and after.jack_of_diamonds != before.jack_of_diamonds:
        raise JacksFixed()
    for number, record in enumerate(records, start=1):
        try:
            score_hand(dict(enumerate(record.taken)), record.moon, after)
        except RuleError as error:
            raise HandDoesNotFit(number, error) from None


def winners(totals: Mapping[Hashable, int] | Sequence[int], target: int) -> list:
    """Nobody while all totals are below the target; else all on the lowest total (R16).

    ``totals`` is a mapping (the winners are its keys) or a sequence (the
    winners are positions).
    """
    check_target(target)
    by_player = dict(totals) if isinstance(totals, Mapping) else dict(enumerate(totals))
    if not by_player or max(by_player.values()) < target:
        return []
    lowest = min(by_player.values())
    return [player for player, total in by_player.items() if total == lowest]


# --- A player joining: the total they start with ---------------------------------


class StartRule(str, enum.Enum):
    """How the table picks a joiner's starting total: joining late should be no advantage by default."""

    HIGHEST = "highest"  # the highest total among the players at the table
    AVERAGE = "average"  # their average, rounded up
    ZERO = "zero"
    TYPED = "typed"  # a number the table agrees

    def __repr__(self) -> str:
        return f"StartRule.{self.name}"


def starting_total(board: Scoreboard, rule: StartRule | str, typed: int | None = None) -> int:
    """The total a player joining now starts with, under ``rule`` (``typed`` for ``StartRule.TYPED``)."""
    rule = StartRule(rule)
    present = [board.totals[player] for player in board.seating]
    if rule is StartRule.HIGHEST:
        return max(present)
    if rule is StartRule.AVERAGE:
        return -(-sum(present) // len(present))  # rounded up, also below zero
    if rule is StartRule.ZERO:
        return 0
    if type(typed) is not int:
        raise ValueError(f"a typed starting total is a whole number, not {typed!r}")
    return typed
