"""A player's figures across games: the club's memory (R14-R16)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from .game import Scoreboard
from .variant import Moon


@dataclass(frozen=True)
class Figures:
    """What a player did in one game, or a person in many (added up), derived from the recorded hands (R17).

    ``games`` played, of them ``finished`` (the game ended, R16) and ``wins``
    (a finished game won; a shared win is a win). ``hands`` played and the
    ``points`` they scored (moons included, a joiner's starting total not),
    ``zero_hands`` scored 0, the moons shot by choice (R15), and the
    ``hearts`` and ``marias`` taken (R14).
    """

    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    zero_hands: int = 0
    moons_subtracted: int = 0
    moons_added: int = 0
    hearts: int = 0
    marias: int = 0

    def __add__(self, other: Figures) -> Figures:
        return Figures(*(mine + theirs for mine, theirs in zip(self.counts(), other.counts())))

    def counts(self) -> tuple[int, ...]:
        """The fields as a plain tuple, in their order (``dataclasses.astuple`` copies deeply, slowly)."""
        return tuple(getattr(self, name) for name in _FIGURE_FIELDS)

    @property
    def moons(self) -> int:
        return self.moons_subtracted + self.moons_added

    @property
    def points_per_hand(self) -> Decimal | None:
        """Points a hand to one decimal, halves rounded away from zero; None before any hand."""
        if not self.hands:
            return None
        return (Decimal(self.points) / Decimal(self.hands)).quantize(Decimal("0.1"), ROUND_HALF_UP)

    @property
    def win_rate(self) -> Fraction | None:
        """Wins over finished games (a shared win is a win, R16); None before any game finished."""
        if not self.finished:
            return None
        return Fraction(self.wins, self.finished)


_FIGURE_FIELDS = tuple(each.name for each in fields(Figures))


_TALLIED = ("hands", "points", "zero_hands", "moons_subtracted", "moons_added", "hearts", "marias")


def game_figures(board: Scoreboard, before: tuple[Figures, ...] | None = None) -> tuple[Figures, ...]:
    """Each player's ``Figures`` in one game, by roster number.

    ``before`` are the figures this function gave for the same game before
    its last hand: then only the last hand is tallied, so that recording a
    hand costs the same in a game of ten hands or a thousand.
    """
    if before is None:
        tallies: list[Counter[str]] = [Counter() for _player in range(board.players)]
        hands = board.hands
    else:
        tallies = [Counter({name: getattr(figures, name) for name in _TALLIED}) for figures in before]
        tallies += [Counter[str]() for _joiner in range(board.players - len(tallies))]
        hands = board.hands[-1:]
    for summary in hands:
        for player, points, taken in zip(summary.seating, summary.seat_points, summary.taken):
            tally = tallies[player]
            tally["hands"] += 1
            tally["points"] += points
            tally["zero_hands"] += points == 0
            tally["hearts"] += taken.hearts
            tally["marias"] += taken.marias
            if summary.shooter == player:
                tally["moons_subtracted" if summary.moon is Moon.SUBTRACT else "moons_added"] += 1
    finished = int(board.over)
    return tuple(Figures(games=1, finished=finished, wins=int(player in board.winners), **tally)
                 for player, tally in enumerate(tallies))


@dataclass(frozen=True)
class Finish:
    """Where a player ended a finished game they were still at the table for (R16).

    ``place`` among the ``seated`` players at the table at the end (1 is the
    win; equal totals share a place); ``margin`` the lowest total among the
    others at the table minus theirs: how far ahead of the next player a
    winner ended (0 for a shared win), how far behind the winner anyone else.
    """

    place: int
    seated: int
    margin: int


def finishes(board: Scoreboard) -> tuple[Finish | None, ...]:
    """Each player's ``Finish``, by roster number: None while the game is open, and for who left before its end."""
    if not board.over:
        return (None,) * board.players
    places = {player: place for place, player in board.standings}
    seated = len(places)

    def finish(player: int) -> Finish:
        others = [board.totals[other] for other in places if other != player]
        return Finish(places[player], seated, min(others) - board.totals[player])

    return tuple(finish(player) if player in places else None for player in range(board.players))
