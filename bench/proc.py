"""What a server's processes spend, read from /proc: CPU time (all their threads) and resident memory.

CPU time comes from each thread's ``/proc/<pid>/task/<tid>/schedstat``,
whose first field is the nanoseconds the thread has run, summed over the
threads of every process given (waitress's worker threads, or each gunicorn
worker). Where the kernel keeps no schedstat, it falls back to user plus
system time of ``/proc/<pid>/stat``, counted in clock ticks (10 ms on most
kernels): a burst must then run long enough for the ticks to mean something
(``CpuClock.resolution``). Either way the figure is the server's own CPU,
which other work on a shared machine hardly moves, where wall time moves
with every neighbour.
"""

import os
import time

TICK_NS = 10**9 // os.sysconf("SC_CLK_TCK")


def process_stat(pid):
    """The fields of ``/proc/<pid>/stat`` after the command name (state first), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def group_processes(leader):
    """The pids of a process group (gunicorn's master and workers, or waitress alone)."""
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and (fields := process_stat(entry)) and int(fields[2]) == leader]  # the group id


def _threads_ns(pid):
    """Nanoseconds on CPU of the process's live threads (schedstat), or None where the kernel keeps none."""
    total = 0
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0  # the process is gone: it spends nothing more
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/schedstat", encoding="ascii") as schedstat:
                total += int(schedstat.read().split()[0])
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{thread}"):
                continue  # the thread ended meanwhile
            return None
        except (OSError, ValueError, IndexError):
            return None
    return total


def _running(pid):
    """Whether a thread of the process is running or runnable (state R in its stat)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for thread in threads:
        fields = process_stat(f"{pid}/task/{thread}")
        if fields is not None and fields[0] == "R":
            return True
    return False


def _ticks_ns(pid):
    """User plus system time of the process (every thread, ended ones included), in nanoseconds of whole ticks."""
    fields = process_stat(pid)
    return 0 if fields is None else (int(fields[11]) + int(fields[12])) * TICK_NS


class CpuClock:
    """The CPU time some processes have used so far, in nanoseconds: per-thread schedstat where the kernel
    keeps it (``resolution`` 1 ns), else whole clock ticks of ``/proc/<pid>/stat`` (``resolution`` a tick).

    ``processes`` is their pids, or a function that lists them at each
    reading (a process group, whose workers may start after the first).
    """

    def __init__(self, processes):
        self._processes = processes if callable(processes) else lambda: processes
        counted = [_threads_ns(pid) for pid in self.pids]
        self.fine = all(count is not None for count in counted) and sum(counted) > 0
        self.source = "per-thread schedstat" if self.fine else "utime+stime clock ticks of /proc/<pid>/stat"
        self.resolution = 1 if self.fine else TICK_NS

    @property
    def pids(self):
        return list(self._processes())

    def wait_idle(self, most_seconds=0.1):
        """Wait (at most ``most_seconds``) until no thread of the processes runs or waits to run: the tail
        of an untimed request (its clean-up after the answer was sent) is then not counted in the next."""
        deadline = time.monotonic() + most_seconds
        pids = self.pids
        while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0)

    def read(self):
        """Nanoseconds of CPU used so far by every thread of the processes."""
        pids = self.pids
        if self.fine:
            return sum(_threads_ns(pid) or 0 for pid in pids)
        return sum(_ticks_ns(pid) for pid in pids)

    def seconds(self):
        return self.read() / 1e9


def _status_kilobytes(pid, field):
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(f"{field}:"))


def resident_memory(pids):
    """Resident memory of the processes now, in bytes (VmRSS), those that are gone counting nothing."""
    total = 0
    for pid in pids:
        try:
            total += _status_kilobytes(pid, "VmRSS") * 1024
        except (OSError, StopIteration):
            continue
    return total


def peak_memory(pid):
    """The peak resident memory of the process in bytes (VmHWM)."""
    return _status_kilobytes(pid, "VmHWM") * 1024
