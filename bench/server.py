"""The app served by waitress in a subprocess on 127.0.0.1, and the HTTP client the benchmark talks to it with.

``python -m bench.server DATABASE_URI`` (from the repository root) is the
subprocess: it prints its port, then serves until terminated.
"""

import gzip
import http.client
import os
import secrets
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from bench import REPOSITORY
from bench.proc import CpuClock, peak_memory, resident_memory
from scorekeeper import create_app

THREADS = 4  # as `flask --app scorekeeper serve` runs waitress
# The floor every figure is read against (issue 25): the app's own trivial route, settling a one-card trick.
FLOOR = "/settle.json?cards=2C"
GZIP = {"Accept-Encoding": "gzip"}  # as every browser asks; without it http.client asks for "identity"


def app_config(database_uri):
    """A fresh app's configuration: this database, a throwaway secret key."""
    return {"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": secrets.token_hex(32)}


def migrated_app(config):
    """An app of ``config`` whose database is brought to the latest migration, as `serve` does when it starts
    (creating an app connects to nothing)."""
    from scorekeeper.db import migrate

    app = create_app(config)
    with app.app_context():
        migrate.upgrade()
    return app


def serve(database_uri):
    """The server subprocess: the app as it is, served by waitress as `flask serve` serves it."""
    from scorekeeper.web.serving import create_server

    app = migrated_app(app_config(database_uri))  # as `serve` migrates before it binds
    server = create_server(app, host="127.0.0.1", port=0, threads=THREADS)
    print(server.effective_port, flush=True)
    server.run()


class Server:
    """The server subprocess: its port, its CPU clock (all its threads, from /proc) and its memory."""

    def __init__(self, process, port):
        self.process = process
        self.port = port
        self.cpu = CpuClock([process.pid])

    def resident_memory(self):
        """Resident memory now, in bytes (VmRSS)."""
        return resident_memory([self.process.pid])

    def peak_memory(self):
        """Peak resident memory in bytes (VmHWM)."""
        return peak_memory(self.process.pid)


@contextmanager
def running_server(database_uri, folder):
    """Start the server subprocess and stop it at the end, whatever happens."""
    log_path = os.path.join(folder, "server.log")
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(  # -X faulthandler: a crash leaves every thread's traceback in the log
            [sys.executable, "-X", "faulthandler", "-m", "bench.server", database_uri],
            cwd=REPOSITORY, stdout=subprocess.PIPE, stderr=log, text=True,
        )
    try:
        port = process.stdout.readline().strip()
        if not port.isdigit():
            with open(log_path, encoding="utf-8") as log:
                raise RuntimeError(f"the server did not start:\n{log.read()}")
        try:
            yield Server(process, int(port))
        except Exception as error:
            if not _ended(process):
                raise
            with open(log_path, encoding="utf-8") as log:
                raise RuntimeError(f"the server died (exit status {process.returncode}) while it was measured; "
                                   f"its log ends:\n{log.read()[-6000:]}") from error
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


def _ended(process):
    """Whether the server process has ended, waiting a moment (a crashed one closes its sockets as it goes)."""
    try:
        process.wait(timeout=1)
    except subprocess.TimeoutExpired:
        return False
    return True


def checked_status(status, expected, what):
    """Stop the run when a page answers other than it should (``expected`` None: any answer will do)."""
    if expected is not None and status != expected:
        raise RuntimeError(f"{what} answered {status}, expected {expected}")


@dataclass(frozen=True)
class Reply:
    """One HTTP response as received."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name):
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    @property
    def gzipped(self):
        """Whether the body was sent gzip-encoded."""
        return (self.header("Content-Encoding") or "").lower() == "gzip"

    @property
    def decoded(self):
        """The body as the page's reader sees it: gunzipped if it was sent gzip-encoded."""
        return gzip.decompress(self.body) if self.gzipped else self.body

    @property
    def text(self):
        return self.decoded.decode("utf-8")

    @property
    def keeps_connection(self):
        """Whether the server keeps the connection open after this response (no "Connection: close")."""
        return (self.header("Connection") or "").lower() != "close"

    @property
    def cached_for(self):
        """Seconds a browser may keep this response without asking again (Cache-Control max-age), else 0."""
        directives = [part.strip().lower() for part in (self.header("Cache-Control") or "").split(",")]
        if "no-cache" in directives or "no-store" in directives:
            return 0
        ages = [part.split("=", 1)[1] for part in directives if part.startswith("max-age=")]
        return int(ages[0]) if ages and ages[0].isdigit() else 0

    @property
    def sent_bytes(self):
        """Status line, headers and body, rebuilt from the parsed response as the server sent them."""
        head = f"HTTP/1.1 {self.status} {self.reason}\r\n"
        head += "".join(f"{key}: {value}\r\n" for key, value in self.headers) + "\r\n"
        return len(head.encode("latin-1")) + len(self.body)

    def new_session(self):
        """The session cookie this response sets, if any."""
        for key, value in self.headers:
            if key.lower() == "set-cookie":
                cookie = SimpleCookie(value)
                if "session" in cookie:
                    return cookie["session"].value
        return None


class Client:
    """One keep-alive HTTP/1.1 connection to the server, sending a session cookie if given; connected again
    when the server closed it while it sat idle (waitress's ``channel_timeout``, gunicorn's keep-alive)."""

    def __init__(self, port, cookie=None):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = cookie
        self.reconnected = 0  # how many times the server had closed the idle connection

    def get(self, path, headers=None, expect=200):
        return self.request("GET", path, None, headers or {}, expect)

    def post(self, path, fields, expect=302):
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.request("POST", path, urlencode(fields), headers, expect)

    def post_file(self, path, fields, file_field, filename, content, expect=302):
        """POST a multipart form with one file in ``file_field``, as a browser uploads it."""
        boundary = secrets.token_hex(16)
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
                 for name, value in fields.items()]
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{filename}"'
                     '\r\nContent-Type: application/json\r\n\r\n'.encode() + content + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}, expect)

    def request(self, method, path, body, headers, expect):
        if self.cookie:
            headers = {**headers, "Cookie": f"session={self.cookie}"}
        try:
            response = self._sent(method, path, body, headers)
        except IDLE_CLOSED:
            # The server closed this connection while it sat idle, before reading the request: nothing was
            # done, so sending it again on a new connection is safe, a POST too.
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.reconnected += 1
            response = self._sent(method, path, body, headers)
        reply = Reply(response.status, response.reason, response.getheaders(), response.read())
        checked_status(reply.status, expect, f"{method} {path}")
        return reply

    def _sent(self, method, path, body, headers):
        self.connection.request(method, path, body=body, headers=headers)
        return self.connection.getresponse()

    def close(self):
        self.connection.close()


# What a connection the server closed while idle raises when it is next used.
IDLE_CLOSED = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


def scorer_cookie(port, games):
    """A session cookie holding the scorer key of every game (and a CSRF secret), as one phone's."""
    client = Client(port)
    try:
        for game in games.values():
            client.cookie = client.get(f"/games/{game.id}/scorer/{game.scorer_key}", expect=302).new_session()
        # The form puts the CSRF secret in the session and shows (so clears) the flashed messages.
        client.cookie = client.get(f"/games/{game.id}/hands/new").new_session() or client.cookie
        return client.cookie
    finally:
        client.close()


if __name__ == "__main__":
    serve(sys.argv[1])
