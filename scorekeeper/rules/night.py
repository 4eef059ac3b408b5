"""A club night of rounds across tables (R18): how those present split into tables, a round's seats drawn
from a seed, how long a round is, each player's placing at their table as a share, and the night's standing.

Plain values in, plain values out, like the rest of the engine: the people are any hashable values (the
app passes ids), a seed any integer shown to the room, so that the same seed and the same people give the
same draw.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from .game import Scoreboard
from .numbers import MAX_PLAYERS, MIN_PLAYERS

Person = TypeVar("Person", bound=Hashable)

DRAWS_TRIED = 400  # seatings drawn from a seed for a round, the fewest repeated neighbours kept (R18 b)


def table_splits(present: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split ``present`` people into tables of MIN_PLAYERS to MAX_PLAYERS as even as possible
    (no two tables differ by more than one player, R18 a), the fewest tables first, each split's tables the
    largest first: 22 gives (11, 11) and (8, 7, 7). None below MIN_PLAYERS; from MIN_PLAYERS up there is
    always one, so nobody sits out."""
    splits = []
    for tables in range(1, present // MIN_PLAYERS + 1):
        least, more = divmod(present, tables)
        if MIN_PLAYERS <= least and least + (more > 0) <= MAX_PLAYERS:
            splits.append(tuple([least + 1] * more + [least] * (tables - more)))
    return tuple(splits)


def neighbours(seating: Sequence[Person]) -> frozenset[frozenset[Person]]:
    """The pairs who sit side by side round a table (``seating`` clockwise): each passes to or receives from
    the other in some hand (R5), whichever way the cards go."""
    count = len(seating)
    return frozenset(frozenset((seating[seat], seating[(seat + 1) % count])) for seat in range(count))


@dataclass(frozen=True)
class DrawnTable:
    """One table of a round: its players clockwise from seat 1, and the seat that deals first."""

    seating: tuple
    first_dealer: int


@dataclass(frozen=True)
class Draw:
    """A round's draw (R18 b): its tables, drawn from ``seed``, and how many pairs of neighbours in it sat
    side by side earlier that night (the fewest the draw found)."""

    seed: int
    tables: tuple[DrawnTable, ...]
    repeated: int


def draw_round(people: Iterable[Person], sizes: Sequence[int], seed: int,
               earlier: Iterable[frozenset[Person]] = ()) -> Draw:
    """Seat ``people`` at tables of ``sizes`` (one of ``table_splits``), drawn from ``seed`` (R18 b).

    ``earlier`` are the pairs who sat side by side in the night's rounds before (``neighbours`` of each
    table). Of ``DRAWS_TRIED`` seatings drawn in turn, the first with the fewest such pairs seated side by
    side again is kept; the first dealer of each table is drawn too. The people are put in a fixed order
    first, so that the same seed and the same people give the same draw, whatever order they came in.
    """
    chosen = sorted(people, key=repr)
    if sum(sizes) != len(chosen) or len(set(chosen)) != len(chosen):
        raise ValueError(f"{len(chosen)} people (each once) cannot sit at tables of {tuple(sizes)}")
    if any(not MIN_PLAYERS <= size <= MAX_PLAYERS for size in sizes):
        raise ValueError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS}, not {tuple(sizes)}")
    met = frozenset(earlier)
    chance = random.Random(seed)
    best: tuple[int, list[tuple]] | None = None
    for _attempt in range(DRAWS_TRIED):
        order = chance.sample(chosen, len(chosen))
        tables, start = [], 0
        for size in sizes:
            tables.append(tuple(order[start:start + size]))
            start += size
        repeated = sum(len(neighbours(table) & met) for table in tables)
        if best is None or repeated < best[0]:
            best = (repeated, tables)
        if repeated == 0:
            break
    assert best is not None
    repeated, tables = best
    return Draw(seed, tuple(DrawnTable(table, chance.randrange(len(table))) for table in tables), repeated)


def round_length(players: int, deals: int | None = None) -> int:
    """How many hands a table of ``players`` plays in a round (R18 c): ``deals`` if the night agreed a
    number, else every player deals once. A table also ends its round when someone reaches the target (R16)."""
    if deals is not None and deals < 1:
        raise ValueError(f"a round is one deal or more, not {deals}")
    return players if deals is None else deals


@dataclass(frozen=True)
class TableRound:
    """Where a table's round stands (R18 c, f): the hands of it played, of ``length``; whether it is over (its
    length played, or someone reached the target, R16); and the players of its last hand played (roster
    numbers, clockwise) with their totals after it."""

    hands: int
    length: int
    over: bool
    seating: tuple[int, ...]
    totals: tuple[int, ...]


def table_round(board: Scoreboard, deals: int | None = None) -> TableRound:
    """A table's round as its game's ``board`` stands: the round's hands are the game's first ``length``
    (``round_length`` of the players who sat down for hand 1 and the night's ``deals``); a hand recorded past
    them belongs to no round."""
    seated = board.hands[0].seating if board.hands else board.seating
    length = round_length(len(seated), deals)
    played = board.hands[:length]
    if not played:
        return TableRound(0, length, False, tuple(seated), (0,) * len(seated))
    last = played[-1]
    over = len(played) == length or (board.over and len(board.hands) == len(played))
    totals = tuple(last.totals[player] or 0 for player in last.seating)
    return TableRound(len(played), length, over, tuple(last.seating), totals)


def shares(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's placing at a table of ``totals`` at the end of a round (R18 d): the share of the table
    that beat them, (players with a lower total + half the others with the same total) / (players - 1),
    from 0 (the lowest total alone, best) to 1 (the highest alone)."""
    others = len(totals) - 1
    if others < 1:
        raise ValueError("a share needs a table of two players or more")
    return tuple(Fraction(2 * sum(other < total for other in totals) + sum(other == total for other in totals) - 1,
                          2 * others) for total in totals)


@dataclass(frozen=True)
class RoundResult:
    """One player's round: their share (R18 d), whether they won it outright (the lowest total alone), and
    their points and the hands they played."""

    share: Fraction
    won: bool
    points: int
    hands: int


def round_results(totals: Sequence[int], hands: int) -> tuple[RoundResult, ...]:
    """Each player's ``RoundResult`` at a table whose round ended at ``totals`` after ``hands`` hands."""
    lowest = min(totals)
    outright = sum(total == lowest for total in totals) == 1
    return tuple(RoundResult(share, outright and total == lowest, total, hands)
                 for total, share in zip(totals, shares(totals)))


@dataclass(frozen=True)
class Standing:
    """One player's line of the night's standing (R18 e): their place (shared by those still tied), the mean
    of their round shares, rounds played and won outright, and points a hand."""

    person: Hashable
    place: int
    score: Fraction
    rounds: int
    won: int
    points_per_hand: Fraction | None


def night_standing(rounds: Mapping[Person, Sequence[RoundResult]]) -> tuple[Standing, ...]:
    """The night's standing (R18 e, f) of everyone with a round finished: the lowest mean share first; ties
    broken by more rounds won outright, then by fewer points a hand; those still tied share the place. A late
    arrival or an early leaver is ranked on the rounds they finished."""
    lines = []
    for person, results in rounds.items():
        if not results:
            continue
        hands = sum(result.hands for result in results)
        lines.append(Standing(person, 0, sum((result.share for result in results), Fraction(0)) / len(results),
                              len(results), sum(result.won for result in results),
                              Fraction(sum(result.points for result in results), hands) if hands else None))

    def key(line: Standing) -> tuple:
        return line.score, -line.won, line.points_per_hand if line.points_per_hand is not None else Fraction(0)

    lines.sort(key=lambda line: (key(line), repr(line.person)))
    placed, place = [], 0
    for index, line in enumerate(lines):
        if index == 0 or key(line) != key(lines[index - 1]):
            place = index + 1
        placed.append(Standing(line.person, place, line.score, line.rounds, line.won, line.points_per_hand))
    return tuple(placed)
