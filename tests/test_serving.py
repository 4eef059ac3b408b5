"""The server the table runs: waitress on 127.0.0.1, keeping the connection of an unchanged poll."""

import http.client
import threading

import pytest

from scorekeeper.web.serving import create_server

from .tabletop import create_game


@pytest.fixture
def served(app):
    """The app served by the production server on a free port of 127.0.0.1, stopped after the test."""
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    server.close()
    thread.join(timeout=5)


def test_two_unchanged_polls_reuse_one_connection(client, served):
    game_id = create_game(client)
    connection = http.client.HTTPConnection("127.0.0.1", served, timeout=10)
    connection.request("GET", f"/games/{game_id}/state")
    first = connection.getresponse()
    first.read()
    etag = first.getheader("ETag")

    connection.request("GET", f"/games/{game_id}/state", headers={"If-None-Match": etag})
    unchanged = connection.getresponse()
    unchanged.read()
    kept = connection.sock
    connection.request("GET", f"/games/{game_id}/state", headers={"If-None-Match": etag})
    again = connection.getresponse()
    again.read()

    assert unchanged.status == again.status == 304
    assert unchanged.getheader("Connection") is None
    assert kept is not None and connection.sock is kept, "the 304 closed the connection"
    connection.close()


def test_a_client_that_asks_to_close_gets_its_connection_closed(client, served):
    game_id = create_game(client)
    connection = http.client.HTTPConnection("127.0.0.1", served, timeout=10)

    connection.request("GET", f"/games/{game_id}/state", headers={"If-None-Match": '"r1"', "Connection": "close"})
    response = connection.getresponse()
    response.read()

    assert response.status == 304
    assert response.getheader("Connection") == "close"
    assert connection.sock is None
