"""The games list (/) on one database that grows while one server serves it: a page of 20 games of 11 players
of 1,000 hands, then 20 of 100 hands and 20 of 2 hands newer than them (the list shows the newest 20), then
ten thousand games in all, the newest of the same shape.

The list must cost the same whatever the length of the games it shows
(issue 25) and whatever the number of games in the database (issue 12).
"""

import os
from dataclasses import dataclass

from bench.games import add_many_games
from bench.server import FLOOR, GZIP, Client, running_server
from bench.timing import Timed, Timings, time_rounds
from tests.tabletop import ELEVEN

FEW_GAMES = 20  # one page of the list: with fewer, the page would show less, not cost less


@dataclass(frozen=True)
class ListScale:
    """The list's timings when its page shows ``FEW_GAMES`` games of each length (by hands), and once the
    database holds ``games`` games."""

    by_hands: dict[int, Timings]
    many: Timings
    games: int


def list_scale(folder, settings):
    """Fill, serve and time the games list at each of ``settings.list_hands``, longest first, then with
    ``settings.many_games`` games."""
    uri = f"sqlite:///{os.path.join(folder, 'list.sqlite')}"
    lengths = sorted(settings.list_hands, reverse=True)
    add_many_games(uri, FEW_GAMES, hands=lengths[0], players=ELEVEN)
    by_hands = {}
    with running_server(uri, folder) as server:
        client = Client(server.port)
        try:
            timed = {"list": Timed(lambda: client.get("/", GZIP))}
            floor = Timed(lambda: client.get(FLOOR, GZIP))
            for hands in lengths:
                if hands != lengths[0]:
                    add_many_games(uri, FEW_GAMES, hands=hands, players=ELEVEN)
                by_hands[hands] = time_rounds(timed, floor, server.cpu, settings)
            shortest = lengths[-1]
            add_many_games(uri, settings.many_games - FEW_GAMES * len(lengths), hands=shortest, players=ELEVEN)
            many = time_rounds(timed, floor, server.cpu, settings)
        finally:
            client.close()
    return ListScale(by_hands, many, settings.many_games)
