"""How a figure is timed: the server's CPU per request (from /proc) and the wall time, in rounds, each burst
right after a burst of the floor, so that a noisy machine moves both.

Every figure is read as the server's CPU per request divided by the floor's
(``bench.server.FLOOR``: the app's trivial route) in the same round; that
ratio is what the budgets are about. Wall time is kept beside it: on a
shared machine it moves with every neighbour, the server's own CPU hardly.
"""

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Timed:
    """One request to time; what to do before each one, untimed (a write that makes the next view a first
    view after it); and the most requests a burst may make (a figure whose games run out)."""

    request: Callable[[], object]
    before: Callable[[], object] | None = None
    most: int | None = None


@dataclass(frozen=True)
class Spread:
    """Median, min and max of some figures."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values):
        return cls(statistics.median(values), min(values), max(values))


@dataclass(frozen=True)
class Burst:
    """Back-to-back requests of one kind: the server's CPU and the wall time per request, in seconds, each
    the burst's total over its requests (so a request's share of the garbage collections, which some
    requests pay for all, counts); whether the CPU clock's resolution made the burst's CPU coarse (fewer
    units of the clock than asked for)."""

    cpu: float
    wall: float
    coarse: bool


@dataclass(frozen=True)
class Timings:
    """Per round, seconds per request of each figure (server CPU and wall), and its ratio to the floor burst
    just before it (``floor`` is the median of a round's floor bursts)."""

    cpu: dict[str, list[float]]
    wall: dict[str, list[float]]
    ratios: dict[str, list[float]]  # CPU x the floor
    wall_ratios: dict[str, list[float]]
    coarse: frozenset[str] = field(default_factory=frozenset)

    def spread(self, label):
        return Spread.of(self.cpu[label])

    def wall_spread(self, label):
        return Spread.of(self.wall[label])

    def ratio(self, label):
        return statistics.median(self.ratios[label])

    def wall_ratio(self, label):
        return statistics.median(self.wall_ratios[label])

    @property
    def labels(self):
        return [label for label in self.cpu if label != "floor"]

    @classmethod
    def joined(cls, parts):
        """Several timings as one: the rounds of a label measured in several servers, side by side."""
        joined = cls({}, {}, {}, {})
        for part in parts:
            for mine, theirs in ((joined.cpu, part.cpu), (joined.wall, part.wall), (joined.ratios, part.ratios),
                                 (joined.wall_ratios, part.wall_ratios)):
                for label, values in theirs.items():
                    mine.setdefault(label, []).extend(values)
        return cls(joined.cpu, joined.wall, joined.ratios, joined.wall_ratios,
                   frozenset().union(*(part.coarse for part in parts)))


@dataclass(frozen=True)
class BurstSizes:
    """How long a burst runs: at least ``least_seconds`` of wall time (untimed work included), enough CPU
    for ``least_cpu_units`` units of the clock (ticks, where there is no schedstat), and ``least_requests``
    requests unless it has already run ``patience`` seconds (a request of a second is measured well
    alone); at most ``most_requests`` (with a clock of ticks, as many as the CPU asks for) and
    ``most_seconds``."""

    least_requests: int
    least_seconds: float
    least_cpu_units: int
    most_requests: int
    most_seconds: float
    patience: float = 1.0


ONE_REQUEST = BurstSizes(1, 0, 0, 1, math.inf)


def burst(timed, clock, sizes):
    """Back-to-back requests of ``timed`` on the server whose CPU ``clock`` reads; its ``before`` runs
    untimed, between the readings, and the server is let finish it before the next reading."""
    requests, cpu, wall = 0, 0, 0.0
    least_cpu = sizes.least_cpu_units * clock.resolution
    most = timed.most or (sizes.most_requests if clock.fine else math.inf)
    start = time.perf_counter()

    def enough():
        elapsed = time.perf_counter() - start
        if elapsed >= sizes.most_seconds:
            return True
        return (requests >= 1 and elapsed >= sizes.least_seconds and cpu >= least_cpu
                and (requests >= sizes.least_requests or elapsed >= sizes.patience))

    while requests < most and not enough():
        if timed.before is not None:
            timed.before()
            clock.wait_idle()
        cpu_before, began = clock.read(), time.perf_counter()
        timed.request()
        wall += time.perf_counter() - began
        cpu += clock.read() - cpu_before
        requests += 1
    return Burst(cpu / requests / 1e9, wall / requests, cpu < least_cpu)


def time_rounds(timed, floor, clock, settings):
    """Every figure of ``timed`` (by label) in turn, each right after a burst of ``floor``, for
    ``settings.rounds`` rounds, after one untimed request of each (templates compiled, connections open)."""
    for request in [floor, *timed.values()]:
        burst(request, clock, ONE_REQUEST)
    cpu = {"floor": [], **{label: [] for label in timed}}
    wall = {"floor": [], **{label: [] for label in timed}}
    ratios = {"floor": [], **{label: [] for label in timed}}
    wall_ratios = {"floor": [], **{label: [] for label in timed}}
    coarse = set()
    for _round in range(settings.rounds):
        floors = []
        for label, request in timed.items():
            floors.append(burst(floor, clock, settings.floor_burst))
            figure = burst(request, clock, settings.burst)
            cpu[label].append(figure.cpu)
            wall[label].append(figure.wall)
            ratios[label].append(figure.cpu / floors[-1].cpu)
            wall_ratios[label].append(figure.wall / floors[-1].wall)
            coarse.update([label] if figure.coarse else [])
            coarse.update(["floor"] if floors[-1].coarse else [])
        cpu["floor"].append(statistics.median(base.cpu for base in floors))
        wall["floor"].append(statistics.median(base.wall for base in floors))
        ratios["floor"].append(1.0)
        wall_ratios["floor"].append(1.0)
    return Timings(cpu, wall, ratios, wall_ratios, frozenset(coarse))


def time_first(label, request, floor, clock, settings):
    """The first request of its kind in a server that has just started: one request, timed alone after a
    burst of ``floor`` (the server's first requests, and the round's floor). A single request cannot be
    made longer: on a clock of ticks it is coarse."""
    burst(floor, clock, ONE_REQUEST)
    base = burst(floor, clock, settings.floor_burst)
    first = burst(Timed(request), clock, ONE_REQUEST)
    return Timings({"floor": [base.cpu], label: [first.cpu]}, {"floor": [base.wall], label: [first.wall]},
                   {"floor": [1.0], label: [first.cpu / base.cpu]}, {"floor": [1.0], label: [first.wall / base.wall]},
                   frozenset([label] if not clock.fine else []))
