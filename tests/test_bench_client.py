"""The benchmark's client (bench/server.py): a keep-alive connection the server closed while it sat idle is
connected again and the request sent once more, so a slow run never loses its output to a closed socket
(issue 37, item 5); what a first load took on the wire counts the headers."""

import socketserver
import threading

import pytest

from bench.measure import FirstLoad
from bench.server import Client

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok"


class ClosesWhenIdle(socketserver.BaseRequestHandler):
    """Answers one request on each connection, says it keeps it, and closes it (as an idle timeout does)."""

    def handle(self):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            data += chunk
        self.request.sendall(ANSWER)


@pytest.fixture
def port():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), ClosesWhenIdle)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_connection_closed_while_idle_is_connected_again(port):
    client = Client(port)
    try:
        assert [client.get("/").body for _request in range(3)] == [b"ok"] * 3
        assert client.reconnected == 2
    finally:
        client.close()


def test_a_first_load_on_the_wire_counts_status_lines_and_headers(port):
    client = Client(port)
    try:
        load = FirstLoad(client.get("/"), {"/a.css": client.get("/a.css")})
    finally:
        client.close()
    assert load.bodies == 4
    assert load.total == 2 * len(ANSWER)
