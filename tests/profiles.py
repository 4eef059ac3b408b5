"""Hypothesis profiles: ``ci``, the default, ``thorough`` (``--hypothesis-profile=thorough``), ten times
the examples everywhere, for a long run by hand, and ``floors``, half of them, for a pass by hand on the lowest
versions the dependencies allow (.ci/floors.py), which is there for the libraries' behaviour: every
campaign still meets it many times over, and the whole campaigns ran on the usual versions before.

``ci`` runs each test's own count of examples, or 100 where it names none:
enough to find again every bug the suite has found. Loaded by tests/conftest.py
before any test module is imported, and before pytest reads
``--hypothesis-profile``, which then wins.
"""

import os

from hypothesis import settings

# On a server database (SCOREKEEPER_TEST_DATABASE: CI's PostgreSQL pass, after the whole suite ran on SQLite)
# the campaigns that name their count run half of it: the engine and the forms met every example on SQLite;
# the server pass is for what the database does (locks, conflicts, types, SQL), which every campaign still
# reaches there many times over.
ON_A_SERVER = 0.5 if os.environ.get("SCOREKEEPER_TEST_DATABASE") else 1
# How many times each test's own count of examples a profile runs.
EXAMPLES_TIMES = {"ci": 1, "thorough": 10, "floors": 0.5}
# No deadline: a test asserts behaviour, never time (the benchmark measures it), and the first example of a
# test on a loaded CI machine can take 0.7 s for reasons that have nothing to do with the code under test.
settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True)
settings.register_profile("thorough", max_examples=100 * EXAMPLES_TIMES["thorough"], deadline=None, print_blob=True)
settings.register_profile("floors", max_examples=round(100 * EXAMPLES_TIMES["floors"]), deadline=None, print_blob=True)
settings.load_profile("ci")


def examples(count):
    """``count`` examples on the ``ci`` profile, ten times as many on ``thorough``, half on ``floors`` (half
    of any on a server database): for a test that names its own count (``@settings(max_examples=examples(300))``)."""
    return max(1, round(count * EXAMPLES_TIMES.get(settings.get_current_profile_name(), 1) * ON_A_SERVER))


# The club's campaign (tests/test_club_campaign.py): runs of a club played through two server processes, 20
# steps each, each step compared with a process that kept nothing; some 3.5 s a run on SQLite.
CLUB_CAMPAIGN = 3
