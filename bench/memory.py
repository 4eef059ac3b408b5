"""One server process's resident memory after it served every page of every game, and the club's pages.

"Every page" is each game's table view, /watch, sheet, hands and trail,
then the club's: the games list page by page (following its "Older games"
links), the season's table, /stats.json, the club's trail and every
person's page (as the season's table links them), one after another on one
keep-alive connection.
"""

import re
import time
from dataclasses import dataclass

from bench.server import GZIP, Client

GAME_PAGES = ("/games/{id}", "/games/{id}/watch", "/games/{id}/sheet", "/games/{id}/hands", "/games/{id}/trail")


@dataclass(frozen=True)
class Served:
    """What one sweep asked for, and the server's memory after it (bytes)."""

    games: int
    requests: int
    seconds: float
    resident: int  # VmRSS right after
    peak: int  # VmHWM so far


@dataclass(frozen=True)
class MemoryScale:
    """The same process after every page of the first ``small`` games, and after every page of the rest up
    to ``large``."""

    small: int
    at_small: Served
    large: int
    at_large: Served


def serve_every_page(server, game_ids):
    """Ask ``server`` for every page of each of ``game_ids``, then for the club's pages; its memory after."""
    began = time.monotonic()
    client = Client(server.port)
    try:
        paths = [page.format(id=game_id) for game_id in game_ids for page in GAME_PAGES]
        for path in paths:
            client.get(path, GZIP)  # as a browser asks
        requests = len(paths) + _club_pages(client)
    finally:
        client.close()
    return Served(len(game_ids), requests, time.monotonic() - began, server.resident_memory(), server.peak_memory())


def _club_pages(client):
    """The games list page by page, the season's table, /stats.json, the club's trail, every person's page."""
    requests, path = 0, "/"
    while path is not None:
        older = re.search(r'href="(/\?before=\d+)"', client.get(path, GZIP).text)
        requests, path = requests + 1, older and older.group(1)
    people = sorted(set(re.findall(r'href="(/players/\d+)"', client.get("/players", GZIP).text)))
    for path in ["/stats.json", "/club", *people]:
        client.get(path, GZIP)
    return requests + 3 + len(people)
