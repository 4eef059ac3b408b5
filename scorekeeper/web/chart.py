"""The score chart: each player's total after every hand, as points for an inline SVG.

Past a few dozen hands the lines are thinned, so that a long game's page
stays light: every hand that changed the lowest total's holder (who would
win) or took someone over the target is kept, the first and the last hand
too, and the rest only as many as the width can show.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

# Paul Tol's "muted" and "bright" qualitative colours: told apart by most
# colour-blind readers; a marker shape per player does not rely on colour at all.
COLOURS = ["#cc3311", "#0077bb", "#009988", "#ee7733", "#33bbee", "#ee3377",
           "#332288", "#117733", "#999933", "#882255", "#555555"]
MARKERS = ["circle", "square", "triangle", "diamond", "circle", "square",
           "triangle", "diamond", "circle", "square", "triangle"]
HOLLOW_FROM = 4  # the second round of shapes is drawn hollow

WIDTH, HEIGHT = 360, 240
LEFT, RIGHT, TOP, BOTTOM = 34, 86, 12, 26
LABEL_GAP = 13  # between two end labels' baselines: their 11 px bold text never overlaps
LABEL_LOWEST = HEIGHT - 12  # the lowest a label's middle may sit: its text stays well inside the chart
MOST_HANDS_DRAWN = 48  # about one a five pixels of the plot
MOST_TELLING_HANDS = 96  # past this, even the hands that changed the lead share out the width


@dataclass(frozen=True)
class Line:
    """One player's totals as chart points."""

    name: str
    colour: str
    marker: str
    hollow: bool
    points: tuple[tuple[float, float], ...]
    label_y: float
    path: str = ""  # the points as an SVG polyline's, to whole pixels


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    target_y: float
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    plot: tuple[float, float, float, float]  # left, top, right, bottom


def score_chart(board, names):
    """The chart of ``board`` (a rules.Scoreboard) for players ``names`` (by roster number).

    A player who joined later has no total before their first hand: their line starts there.
    What the whole game decides (the range of totals, the telling hands) is kept for the board's last
    hand and extended by one hand when the game grows by one (``_course``): a page after each hand costs
    one hand's work, and the points of the hands drawn.
    """
    totals_by_hand = _TotalsByHand(board)
    course = _course(board)
    low, high = min(course.low, board.target, 0), max(course.high, board.target, 0)
    span = (high - low) or 1
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    hands = max(len(board.hands), 1)

    def x_of(hand):
        return LEFT + (right - LEFT) * hand / hands

    def y_of(total):
        return bottom - (bottom - TOP) * (total - low) / span

    ends = _spread(sorted((y_of(total), seat) for seat, total in enumerate(totals_by_hand[-1]) if total is not None))
    drawn = [(x_of(hand), totals_by_hand[hand]) for hand in drawn_hands(totals_by_hand, board.target, course.telling)]

    def line(seat):
        points = tuple((x, y_of(totals[seat])) for x, totals in drawn if totals[seat] is not None)
        return Line(name=names[seat], colour=COLOURS[seat % len(COLOURS)], marker=MARKERS[seat % len(MARKERS)],
                    hollow=seat % len(COLOURS) >= HOLLOW_FROM, points=points, label_y=ends[seat],
                    path=" ".join(f"{x:.0f},{y:.0f}" for x, y in points))

    # A player who has yet to play a hand has no line yet.
    lines = tuple(line(seat) for seat in range(board.players) if totals_by_hand[-1][seat] is not None)
    step = max(1, round(span / 4 / 10) * 10) if span >= 20 else max(1, span // 4 or 1)
    first = (low // step) * step
    y_ticks = tuple((y_of(value), value) for value in range(first, high + 1, step) if value >= low)
    x_step = max(1, hands // 8)
    x_ticks = tuple((x_of(hand), hand) for hand in range(0, len(board.hands) + 1, x_step))
    return Chart(WIDTH, HEIGHT, lines, y_of(board.target), y_ticks, x_ticks, (LEFT, TOP, right, bottom))


class _TotalsByHand:
    """Each player's total after every hand of a board, hand 0 being the start (0, or None for who had not
    joined), read from the board's hands as asked for rather than copied."""

    def __init__(self, board):
        self.board = board
        first = board.hands[0].totals if board.hands else board.totals
        self.start = tuple(None if total is None else 0 for total in first)

    def __len__(self):
        return len(self.board.hands) + 1

    def __getitem__(self, hand):
        hand = hand % len(self)
        return self.start if hand == 0 else self.board.hands[hand - 1].totals


@dataclass(frozen=True)
class _Course:
    """What a game's whole course decides of its chart, up to one of its hands (``last``, kept to tell that a
    later board extends this one): the lowest and highest totals, and the telling hands (``drawn_hands``)."""

    last: object  # the board's last ``HandSummary`` (or None before any hand)
    low: int
    high: int
    telling: tuple[int, ...]


# The id of a board's last HandSummary -> its _Course: the boards of recent pages.
_COURSES: OrderedDict[int, _Course] = OrderedDict()
MOST_COURSES = 300
_COURSES_LOCK = threading.Lock()


def _course(board):
    """The ``_Course`` of ``board``: kept, extended from the one of the board one hand shorter (the same
    earlier hands: a kept game grows by one hand, rules.score_next_hand), or worked out from the start."""
    hands = board.hands
    last = hands[-1] if hands else None
    with _COURSES_LOCK:
        kept = _COURSES.get(id(last))
        before = _COURSES.get(id(hands[-2])) if len(hands) >= 2 else None
    if kept is not None and kept.last is last:
        return kept
    totals_by_hand = _TotalsByHand(board)
    if before is not None and before.last is hands[-2]:
        course = _extended(before, totals_by_hand, board.target, len(hands))
    else:
        course = _Course(None, 0, 0, ())
        for hand in range(1, len(hands) + 1):
            course = _extended(course, totals_by_hand, board.target, hand)
    course = _Course(last, course.low, course.high, course.telling)
    with _COURSES_LOCK:
        _COURSES[id(last)] = course
        while len(_COURSES) > MOST_COURSES:
            _COURSES.popitem(last=False)
    return course


def _extended(course, totals_by_hand, target, hand):
    """``course`` with hand ``hand`` of ``totals_by_hand`` taken into account."""
    totals = [total for total in totals_by_hand[hand] if total is not None]
    telling = course.telling + ((hand,) if _tells(totals_by_hand, target, hand) else ())
    return _Course(None, min(course.low, *totals), max(course.high, *totals), telling)


def _tells(totals_by_hand, target, hand):
    """Whether someone else holds the lowest total after ``hand``, or someone reached the target in it."""
    before, after = totals_by_hand[hand - 1], totals_by_hand[hand]
    return _lowest(before) != _lowest(after) or _highest(before) < target <= _highest(after)


def drawn_hands(totals_by_hand, target, telling=None):
    """The hands (0 = the start) whose totals the lines pass through, in order.

    All of them while they are few. Then the telling ones, those after which
    someone else holds the lowest total or someone reached the target
    (``telling``, if the caller knows them already); then, for each of
    ``MOST_HANDS_DRAWN`` equal slices of the game that has none, the first
    hand of the slice. The first and the last hand are always drawn.
    """
    last = len(totals_by_hand) - 1
    if last <= MOST_HANDS_DRAWN:
        return list(range(last + 1))
    if telling is None:
        telling = [hand for hand in range(1, last + 1) if _tells(totals_by_hand, target, hand)]
    kept = {0, last}
    by_slice = {}
    for hand in telling:
        by_slice.setdefault(_slice(hand, last), hand)
    kept.update(telling if len(telling) <= MOST_TELLING_HANDS else by_slice.values())
    for hand in range(last + 1):
        by_slice.setdefault(_slice(hand, last), hand)
    kept.update(by_slice.values())
    return sorted(kept)


def _slice(hand, last):
    return hand * MOST_HANDS_DRAWN // last


def _lowest(totals):
    """The players holding the lowest total (R16: the lowest wins); None is no total yet."""
    low = min(total for total in totals if total is not None)
    return tuple(seat for seat, total in enumerate(totals) if total == low)


def _highest(totals):
    return max(total for total in totals if total is not None)


def _spread(ends):
    """End-label heights pushed apart so that no two names overlap, and all inside the chart; by seat.

    ``ends`` are (height of the line's end, seat), top first. Going down,
    each label keeps its gap from the one above; going back up, each keeps
    its gap from the one below, the lowest no lower than the chart allows.
    Eleven labels take about half the chart's height.
    """
    seats = [seat for _y, seat in ends]
    heights = []
    for y, _seat in ends:
        heights.append(max(y, TOP, heights[-1] + LABEL_GAP if heights else TOP))
    for index in reversed(range(len(heights))):
        lowest = heights[index + 1] - LABEL_GAP if index + 1 < len(heights) else LABEL_LOWEST
        heights[index] = min(heights[index], lowest)
    return dict(zip(seats, heights))
