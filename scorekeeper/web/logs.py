"""What the server tells its operator: one line a request, and errors with the client's address.

The scorer's and the secretary's links carry their secret key in the path
(``/games/<id>/scorer/<key>``, ``/club/secretary/<key>``): no log line holds
it, as a log is read, copied and pasted into questions.
"""

import logging
import re
import sys
import time
from urllib.parse import quote

from werkzeug.wsgi import ClosingIterator

ACCESS = logging.getLogger("scorekeeper.access")
SECRET_IN_PATH = re.compile(r"(/scorer/|/club/secretary/)[^/]+")
HIDDEN = "<key>"
# What a path keeps unquoted in a line: RFC 3986's characters of a path segment; anything else (a space, a
# control character, a byte of another script) is written %XX, so that one request is always one line.
PATH_CHARACTERS = "/:@!$&'()*+,;=-._~"


def masked(path):
    """``path`` with the secret key of a scorer's or secretary's link replaced by ``<key>``."""
    return SECRET_IN_PATH.sub(rf"\1{HIDDEN}", path)


def path_of(environ):
    """The request's path as it came over the wire, masked (no query string: it is not needed to follow a
    table, and a script's query may hold anything)."""
    raw = environ.get("PATH_INFO", "").encode("latin-1", "replace")  # WSGI's text is the request's bytes
    return masked(quote(raw, safe=PATH_CHARACTERS))


def method_of(environ):
    """The request's method, on one line whatever a client sent."""
    return quote(environ.get("REQUEST_METHOD", "-").encode("latin-1", "replace"), safe="")


def client_of(environ):
    """The client's address: the phone's, or the one a trusted proxy named (werkzeug's ProxyFix, which
    sets it in the environ the app was called with)."""
    return environ.get("REMOTE_ADDR") or "-"


class AccessLog:
    """WSGI middleware writing one line a request to ``scorekeeper.access``, once its answer was sent:
    the client, the method, the path (keys masked), the status and the time it took.

    It wraps the app outside werkzeug's ProxyFix, and reads the client's
    address after the app ran, when ProxyFix has put the forwarded one there.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        status = []

        def noting_status(line, headers, exc_info=None):
            status[:] = [line.split(" ", 1)[0]]
            return start_response(line, headers, exc_info)

        try:
            body = self.app(environ, noting_status)
        except BaseException:
            self.write(environ, "500", started)
            raise
        return ClosingIterator(body, lambda: self.write(environ, status[0] if status else "-", started))

    @staticmethod
    def write(environ, status, started):
        milliseconds = (time.perf_counter() - started) * 1000
        ACCESS.info("%s %s %s %s %.1f ms", client_of(environ), method_of(environ), path_of(environ), status,
                    milliseconds)


class TerminalHandler(logging.StreamHandler):
    """Writes each line to the standard error the process has when it writes it (not the one it had when
    `serve` started: a test runner swaps it)."""

    def __init__(self):
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _stream):
        pass


def log_to_terminal():
    """Send the access lines and the app's own messages (errors) to the terminal that runs `serve`, each
    with the time (once a process, however often `serve` is run in it)."""
    from flask.logging import default_handler

    for logger in (ACCESS, logging.getLogger("scorekeeper")):
        logger.removeHandler(default_handler)  # Flask's, when an app logged before: one line, not two
        if not any(isinstance(handler, TerminalHandler) for handler in logger.handlers):
            handler = TerminalHandler()
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%d %H:%M:%S"))
            logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    ACCESS.propagate = False  # its own handler only, not the app's too


def access_logged(app):
    """Log every request ``app`` answers (``serve`` does so unless told --no-access-log)."""
    app.wsgi_app = AccessLog(app.wsgi_app)
    return app


def log_exception(app, exc_info):
    """An error a request ran into, with the request's client and masked path (Flask's own line names
    neither the client nor hides the key)."""
    from flask import request

    environ = request.environ
    app.logger.error("Exception on %s %s from %s", method_of(environ), path_of(environ), client_of(environ),
                     exc_info=exc_info)
