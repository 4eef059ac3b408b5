"""The server the table runs: waitress on 127.0.0.1, keeping the connection of an unchanged poll; the address
serve notes for the link commands, and what serve, the link commands and the table view say about it."""

import html
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorekeeper.web import serving
from scorekeeper.web.serving import SERVER_RECORD, create_server, table_urls

from .conftest import close
from .tabletop import create_game

REPOSITORY = Path(__file__).resolve().parents[1]


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


# --- Where the server listens: serve notes it, the link commands read it, the table view says it -----------


class FakeServer:
    """Stands in for waitress: binds nothing; ``run`` notes what the instance folder holds while it serves."""

    def __init__(self, app, port):
        self.app, self.effective_port, self.record_while_serving = app, str(port), None  # waitress's is text

    def run(self):
        with open(os.path.join(self.app.instance_path, SERVER_RECORD), encoding="utf-8") as record:
            self.record_while_serving = json.load(record)


@pytest.fixture
def instance(app, tmp_path, monkeypatch):
    """The app's instance folder moved to a temporary one, and the environment the serve command writes kept."""
    app.instance_path = str(tmp_path)
    monkeypatch.setenv("FLASK_LISTENING_HOST", "")
    return tmp_path


@pytest.fixture
def fake_server(monkeypatch):
    """serve's waitress replaced by a FakeServer on port 8765 (as if --port 0 had let the system choose it)."""
    made = []

    def create(app, host, port, threads):
        made.append(FakeServer(app, 8765))
        return made[-1]

    monkeypatch.setattr(serving, "create_server", create)
    return made


def note_server(app, host, port, database=None):
    """Write the instance's note of a running server, as serve writes it."""
    with open(os.path.join(app.instance_path, SERVER_RECORD), "w", encoding="utf-8") as record:
        json.dump({"database": database or serving.database_of(app), "host": host, "port": port, "pid": 1}, record)


@pytest.fixture
def listening_port():
    """A port of 127.0.0.1 on which something accepts connections (a bare socket: no server runs)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener.getsockname()[1]


@pytest.fixture
def silent_port():
    """A port of 127.0.0.1 on which nothing listens now."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        return unused.getsockname()[1]


def test_serve_on_this_device_only_says_other_phones_cannot_reach_it_and_how_to_let_them(app, runner, instance,
                                                                                          fake_server):
    result = runner.invoke(args=["serve", "--host", "127.0.0.1", "--port", "0"])

    assert result.exit_code == 0, result.output
    assert "running on this device only" in result.output
    assert "    http://127.0.0.1:8765/\n" in result.output
    assert "Other phones cannot reach it (--host 127.0.0.1). To let phones on the same Wi-Fi connect, start it " \
           "with --host 0.0.0.0 (the default)." in result.output
    assert "same Wi-Fi:" not in result.output and "scan" not in result.output
    assert app.config["LISTENING_HOST"] == "127.0.0.1"


def test_serve_notes_the_address_it_listens_on_while_it_runs_and_forgets_it_when_it_stops(app, runner, instance,
                                                                                         fake_server):
    result = runner.invoke(args=["serve", "--port", "0"])

    assert result.exit_code == 0, result.output
    assert "Open one of these on any phone on the same Wi-Fi:" in result.output
    assert "    http://127.0.0.1:8765/\n" in result.output  # the port it bound, not the one asked (0)
    assert fake_server[0].record_while_serving == {
        "database": serving.database_of(app), "host": "0.0.0.0", "port": 8765, "pid": os.getpid()}
    assert not os.path.exists(instance / SERVER_RECORD)


def test_a_sigterm_stops_the_server_as_ctrl_c_does_so_that_it_forgets_its_address():
    before = signal.getsignal(signal.SIGTERM)

    with pytest.raises(SystemExit), serving.stopped_by_sigterm():
        os.kill(os.getpid(), signal.SIGTERM)

    assert signal.getsignal(signal.SIGTERM) is before


def test_scorer_link_prints_the_port_of_the_running_server(app, client, runner, instance, listening_port):
    game_id = create_game(client)
    note_server(app, "0.0.0.0", listening_port)

    result = runner.invoke(args=["scorer-link", str(game_id)])

    assert result.exit_code == 0, result.output
    assert result.output.startswith("Anyone who opens this link can record and correct hands of this game:\n")
    assert f"    http://127.0.0.1:{listening_port}/games/{game_id}/scorer/" in result.output
    assert ":8150/" not in result.output


def test_the_link_commands_say_a_server_on_this_device_only_cannot_be_reached_by_other_phones(
        app, client, runner, instance, listening_port):
    game_id = create_game(client)
    note_server(app, "127.0.0.1", listening_port)

    scorer = runner.invoke(args=["scorer-link", str(game_id)])
    club = runner.invoke(args=["club-link"])

    for result in (scorer, club):
        assert result.exit_code == 0, result.output
        assert result.output.startswith(
            "The server listens on this device only (--host 127.0.0.1): other phones cannot reach it, so these "
            "links open on this device only. Start it with --host 0.0.0.0 to let phones on the same Wi-Fi in.\n")
        assert result.output.split()[-1].startswith(f"http://127.0.0.1:{listening_port}/")
    assert len(scorer.output.strip().splitlines()) == 3


def test_scorer_link_without_a_running_server_says_what_it_assumes(client, runner, instance):
    game_id = create_game(client)

    result = runner.invoke(args=["scorer-link", str(game_id)])

    assert result.exit_code == 0
    assert result.output.startswith("No server of this database is running")
    assert "These links assume it will run on port 8150, the default, on every address; give --port" in result.output
    assert result.output.split()[-1].startswith("http://127.0.0.1:8150/games/")


def test_scorer_link_with_a_server_that_stopped_without_a_word_says_it_does_not_answer(app, client, runner, instance,
                                                                                       silent_port):
    game_id = create_game(client)
    note_server(app, "0.0.0.0", silent_port)  # as a server killed with no time to clean up leaves it

    result = runner.invoke(args=["scorer-link", str(game_id)])

    assert result.output.startswith(f"The server last started on this database (--host 0.0.0.0 --port {silent_port})"
                                    " does not answer now. These links assume it will run there again")
    assert result.output.split()[-1].startswith(f"http://127.0.0.1:{silent_port}/games/")


def test_scorer_link_reads_no_note_of_a_server_of_another_database(app, client, runner, instance, listening_port):
    game_id = create_game(client)
    note_server(app, "0.0.0.0", listening_port, database="another database")

    result = runner.invoke(args=["scorer-link", str(game_id)])

    assert result.output.startswith("No server of this database is running")
    assert str(listening_port) not in result.output


def test_scorer_links_port_option_wins(app, client, runner, instance, listening_port):
    game_id = create_game(client)
    note_server(app, "0.0.0.0", listening_port)

    result = runner.invoke(args=["scorer-link", str(game_id), "--port", "9000"])

    assert result.output.startswith("Anyone who opens")
    assert result.output.split()[-1].startswith("http://127.0.0.1:9000/games/")


@pytest.mark.parametrize("host, urls", [
    ("127.0.0.1", ["http://127.0.0.1:8150/"]),
    ("::1", ["http://[::1]:8150/"]),
    ("[::1]", ["http://[::1]:8150/"]),
    ("192.168.1.20", ["http://192.168.1.20:8150/"]),
])
def test_the_printed_addresses_are_addresses_a_browser_opens(host, urls):
    assert table_urls(host, 8150) == urls


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_every_interface_prints_the_lan_addresses_and_this_devices(monkeypatch, host):
    monkeypatch.setattr(serving, "lan_addresses", lambda: ["192.168.1.20"])

    assert table_urls(host, 8150) == ["http://192.168.1.20:8150/", "http://127.0.0.1:8150/"]


def test_the_table_view_of_a_server_on_this_device_only_still_shows_this_device_the_read_only_link(app, client):
    game_id = create_game(client)
    app.config["LISTENING_HOST"] = "127.0.0.1"

    page = client.get(f"/games/{game_id}").get_data(as_text=True)  # the scorer, on this device: "localhost"

    assert f'<a href="http://localhost/games/{game_id}/watch">http://localhost/games/{game_id}/watch</a>' in page
    assert "Other phones cannot open this server: it was started to listen on this device only (--host 127.0.0.1), " \
           "so this read-only link works on this device only. To show the score on every phone, start the server " \
           "again with --host 0.0.0.0." in text_of_page(page)
    assert 'class="qr"' not in page and "/scorer/" not in page


def text_of_page(page):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


# --- serve checks before it speaks -------------------------------------------------------------------


TOO_LONG_A_NAME = "a" * 64  # no host name has a label of 64 letters: refused before anything is looked up


@pytest.mark.parametrize("options, line", [
    (["--port", "65536"], "Error: --port 65536 is not a port: give a number from 1 to 65535 (0 lets the system "
                          "choose one; the default is 8150)."),
    (["--port", "99999"], "Error: --port 99999 is not a port: give a number from 1 to 65535"),
    (["--port", "-1"], "Error: --port -1 is not a port: give a number from 1 to 65535"),
    (["--port", "eighty"], "Error: --port eighty is not a port: give a number from 1 to 65535"),
    (["--host", TOO_LONG_A_NAME], f"Error: --host {TOO_LONG_A_NAME} names no address this machine can listen on"),
    (["--host", "192.0.2.1"], "Error: --host 192.0.2.1 is not an address of this machine, so the server cannot "
                              "listen there: give one of its addresses, or 0.0.0.0 (every address, the default)."),
])
def test_serve_refuses_what_it_cannot_listen_on_in_one_line_before_anything_else(runner, instance, fake_server,
                                                                                 options, line):
    result = runner.invoke(args=["serve", *options])

    assert result.exit_code == 2
    assert result.output.startswith(line)
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert fake_server == [] and not os.path.exists(instance / SERVER_RECORD)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_on_a_port_in_use_says_so_in_one_line(runner, instance, fake_server, listening_port, workers):
    result = runner.invoke(args=["serve", "--host", "127.0.0.1", "--port", str(listening_port), "--workers", workers])

    assert result.exit_code == 2
    assert result.output == (f"Error: Port {listening_port} is already in use on 127.0.0.1 (another server listens "
                             f"there, perhaps a scorekeeper started earlier): stop it, or choose another port with "
                             f"--port.\n")
    assert fake_server == []


def test_serve_brings_a_new_database_to_the_latest_schema_before_it_serves(empty_database_uri, tmp_path,
                                                                           monkeypatch, fake_server):
    from scorekeeper import create_app
    from scorekeeper.db import migrate

    monkeypatch.setenv("FLASK_LISTENING_HOST", "")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": empty_database_uri})
    app.instance_path = str(tmp_path)

    result = app.test_cli_runner().invoke(args=["serve", "--host", "127.0.0.1", "--port", "0"])

    assert result.exit_code == 0, result.output
    with app.app_context(), migrate.reach() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == migrate.latest()
    close(app)


# --- The real servers: what the operator reads in the terminal ---------------------------------------


class Served:
    """`flask --app scorekeeper serve` on a free port of 127.0.0.1, its terminal read line by line."""

    STARTING_SECONDS = 20

    def __init__(self, database_uri, *options):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {name: value for name, value in os.environ.items() if not name.startswith("FLASK_")}
        env.update(FLASK_SQLALCHEMY_DATABASE_URI=database_uri, FLASK_SECRET_KEY="serving test secret key")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "scorekeeper", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), *options],
            cwd=REPOSITORY, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True)
        self.lines = []
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True)
        self.reader.start()

    def wait_for(self, words):
        """Wait until a line holding ``words`` was written (the server is killed and the test fails if not)."""
        deadline = time.monotonic() + self.STARTING_SECONDS
        while not any(words in line for line in self.lines):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                pytest.fail(f"no line with {words!r}:\n{''.join(self.lines)}")
            time.sleep(0.05)

    def get(self, path):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", path)
        status = connection.getresponse().status
        connection.close()
        return status

    def stop(self):
        """SIGTERM, as a service manager stops it; everything it wrote."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.reader.join(timeout=5)
        self.process.stdout.close()
        return "".join(self.lines)


@pytest.mark.parametrize("workers", ["1", "2"], ids=["waitress", "gunicorn, 2 workers"])
def test_each_server_writes_one_line_a_request_with_the_key_hidden_after_the_address_to_open(database_uri, workers):
    served = Served(database_uri, "--workers", workers)
    try:
        served.wait_for("Stop it with Ctrl+C.")
        statuses = [served.get("/games/1/scorer/THESECRETKEY"), served.get("/rules")]
        served.wait_for(" GET /rules ")
    finally:
        output = served.stop()

    assert statuses == [404, 200]
    assert output.index(f"http://127.0.0.1:{served.port}/") < output.index(" GET /games/1/scorer/<key> 404 ")
    assert re.search(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d 127\.0\.0\.1 GET /rules 200 \d+\.\d ms$", output, re.M)
    assert "THESECRETKEY" not in output


def test_the_access_log_can_be_turned_off(database_uri):
    served = Served(database_uri, "--no-access-log")
    try:
        served.wait_for("Stop it with Ctrl+C.")
        status = served.get("/rules")
    finally:
        output = served.stop()

    assert status == 200
    assert " GET /rules " not in output
