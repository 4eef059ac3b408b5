"""The score chart: each player's total after every hand, as points for an inline SVG.

Past a few dozen hands the lines are thinned, so that a long game's page
stays light: every hand that changed the lowest total's holder (who would
win) or took someone over the target is kept, the first and the last hand
too, and the rest only as many as the width can show.
"""

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

    @property
    def path(self):
        return " ".join(f"{x:.0f},{y:.0f}" for x, y in self.points)


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
    """
    first = board.hands[0].totals if board.hands else board.totals
    totals_by_hand = [tuple(None if total is None else 0 for total in first)] + [hand.totals for hand in board.hands]
    values = [total for totals in totals_by_hand for total in totals if total is not None] + [board.target, 0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    hands = max(len(board.hands), 1)

    def x_of(hand):
        return LEFT + (right - LEFT) * hand / hands

    def y_of(total):
        return bottom - (bottom - TOP) * (total - low) / span

    ends = _spread(sorted((y_of(total), seat) for seat, total in enumerate(totals_by_hand[-1]) if total is not None))
    drawn = drawn_hands(totals_by_hand, board.target)
    lines = tuple(
        Line(
            name=names[seat],
            colour=COLOURS[seat % len(COLOURS)],
            marker=MARKERS[seat % len(MARKERS)],
            hollow=seat % len(COLOURS) >= HOLLOW_FROM,
            points=tuple((x_of(hand), y_of(totals_by_hand[hand][seat])) for hand in drawn
                         if totals_by_hand[hand][seat] is not None),
            label_y=ends[seat],
        )
        for seat in range(board.players)
        if totals_by_hand[-1][seat] is not None  # a player who has yet to play a hand has no line yet
    )
    step = max(1, round(span / 4 / 10) * 10) if span >= 20 else max(1, span // 4 or 1)
    first = (low // step) * step
    y_ticks = tuple((y_of(value), value) for value in range(first, high + 1, step) if value >= low)
    x_step = max(1, hands // 8)
    x_ticks = tuple((x_of(hand), hand) for hand in range(0, len(board.hands) + 1, x_step))
    return Chart(WIDTH, HEIGHT, lines, y_of(board.target), y_ticks, x_ticks, (LEFT, TOP, right, bottom))


def drawn_hands(totals_by_hand, target):
    """The hands (0 = the start) whose totals the lines pass through, in order.

    All of them while they are few. Then the telling ones, those after which
    someone else holds the lowest total or someone reached the target; then,
    for each of ``MOST_HANDS_DRAWN`` equal slices of the game that has none,
    the first hand of the slice. The first and the last hand are always drawn.
    """
    last = len(totals_by_hand) - 1
    if last <= MOST_HANDS_DRAWN:
        return list(range(last + 1))
    telling = [
        hand for hand in range(1, last + 1)
        if _lowest(totals_by_hand[hand - 1]) != _lowest(totals_by_hand[hand])
        or _highest(totals_by_hand[hand - 1]) < target <= _highest(totals_by_hand[hand])
    ]
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
