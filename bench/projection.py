"""The club night projected from the server's CPU per request of each kind: how many tables one waitress
process, and four gunicorn workers, hold with every kind's p95 at most 50 ms, the phones on other machines.

The request mix of one table is ``bench.club.table_mix`` (one scorer: hand
form, save and table view every 20 s; ten phones polling every 1.5 s and
fetching /watch after a change), each kind costing the CPU the benchmark
measured for it on 40-hand games. With the phones elsewhere, the server's
machine spends only that CPU.

The model is a queue with Poisson arrivals (the requests of many tables
and phones, each on its own clock) and ``c`` servers:

- one waitress process runs Python on one core at a time (its four threads
  take turns under the interpreter's lock), so c = 1;
- four gunicorn workers are four processes, but on this machine's cores at
  most as many run at once as there are cores, so c = min(4, cores).

The service times are far from exponential (a poll is a fraction of a
millisecond, a save tens of them), so plain M/M/c would understate the
waiting; M/G/c with the Allen-Cunneen approximation scales M/M/c's mean
wait by (1 + cs²) / 2, cs² being the squared coefficient of variation of
the mix's CPU per request. A request waits with Erlang C's chance C, and
then for a time taken as exponential with mean E[W] / C, so the wait's
95th percentile is E[W] / C x ln(C / 0.05) (no wait when C <= 0.05). Each
kind's p95 is its own CPU plus that wait; the dearest kind decides. The
tables held are the most for which it stays within 50 ms.
"""

import math
import os
from dataclasses import dataclass

from bench.club import P95_BUDGET, table_mix
from bench.games import LONG_HANDS

# Each kind of the club night's requests, and the figure of the benchmark that measured its CPU.
MEASURED_BY = {
    "hand form": f"form {LONG_HANDS}",
    "save a hand (POST)": f"record {LONG_HANDS}",
    "table view, first view after the hand": f"table new hand {LONG_HANDS}",
    "watch page, first view after the hand": f"watch new hand {LONG_HANDS}",
    "watch page, kept": "watch hit",
    "live state poll, 200": "state 200",
    "live state poll, 304": "state 304",
}
WORKERS = 4
MOST_TABLES = 100_000


@dataclass(frozen=True)
class Kind:
    """One kind of request: how often one table makes it (per second) and the CPU each costs (seconds)."""

    name: str
    figure: str
    rate: float
    cpu: float


@dataclass(frozen=True)
class Mix:
    """One table's requests."""

    kinds: list[Kind]

    @property
    def rate(self):
        return sum(kind.rate for kind in self.kinds)

    @property
    def demand(self):
        """CPU seconds a second (cores) one table keeps busy."""
        return sum(kind.rate * kind.cpu for kind in self.kinds)

    @property
    def mean(self):
        return self.demand / self.rate

    @property
    def variability(self):
        """cs²: the variance of the CPU per request over its mean squared."""
        second_moment = sum(kind.rate * kind.cpu ** 2 for kind in self.kinds) / self.rate
        return second_moment / self.mean ** 2 - 1

    @property
    def dearest(self):
        return max(self.kinds, key=lambda kind: kind.cpu)


def club_mix(timings):
    """The mix of one table, each kind's CPU the median over rounds of its figure."""
    return Mix([Kind(name, MEASURED_BY[name], rate, timings.spread(MEASURED_BY[name]).median)
                for name, rate in table_mix().items()])


def erlang_c(servers, load):
    """The chance that a request waits in M/M/c with ``servers`` servers and ``load`` = lambda x S (cores)."""
    if load >= servers:
        return 1.0
    term = total = 1.0
    for count in range(1, servers):
        term *= load / count
        total += term
    waiting = term * load / servers / (1 - load / servers)
    return waiting / (total + waiting)


@dataclass(frozen=True)
class Load:
    """The model at ``tables`` tables on ``servers`` servers: every input and step, in seconds."""

    servers: int
    tables: int
    arrivals: float  # lambda, requests a second
    load: float  # a = lambda x mean CPU, in cores
    utilisation: float  # rho = a / c
    waiting_chance: float  # Erlang C
    mean_wait: float  # E[W], Allen-Cunneen
    wait95: float
    p95: float  # of the dearest kind

    @property
    def holds(self):
        return self.utilisation < 1 and self.p95 <= P95_BUDGET


def load_at(mix, servers, tables):
    """The queue at ``tables`` tables."""
    arrivals = tables * mix.rate
    load = arrivals * mix.mean
    utilisation = load / servers
    if utilisation >= 1:
        return Load(servers, tables, arrivals, load, utilisation, 1.0, math.inf, math.inf, math.inf)
    chance = erlang_c(servers, load)
    mean_wait = chance * mix.mean / (servers * (1 - utilisation)) * (1 + mix.variability) / 2
    wait95 = mean_wait / chance * math.log(chance / 0.05) if chance > 0.05 else 0.0
    return Load(servers, tables, arrivals, load, utilisation, chance, mean_wait, wait95, mix.dearest.cpu + wait95)


@dataclass(frozen=True)
class Setup:
    """One way of serving: its name, its servers in the model and why, the tables asked of it, and the
    most it holds (``held``) with the model at that many tables and at one more."""

    name: str
    servers: int
    why: str
    least_tables: int
    held: Load
    one_more: Load


def most_tables(mix, servers):
    """The most tables for which the dearest kind's p95 stays within the budget (0 if not even one); the
    model there and at one more."""
    tables = 0
    while tables < MOST_TABLES and load_at(mix, servers, tables + 1).holds:
        tables += 1
    return load_at(mix, servers, tables), load_at(mix, servers, tables + 1)


def project(timings):
    """The mix of a table as measured, and the two setups the issue names."""
    mix = club_mix(timings)
    cores = os.cpu_count() or 1
    setups = []
    for name, servers, why, least in (
            ("one waitress process", 1, "its threads run Python on one core at a time", 100),
            (f"{WORKERS} gunicorn workers", min(WORKERS, cores),
             f"{WORKERS} processes, but at most {min(WORKERS, cores)} run at once on {cores} cores", 250)):
        setups.append(Setup(name, servers, why, least, *most_tables(mix, servers)))
    return mix, setups
