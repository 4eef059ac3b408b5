"""The servers `serve` runs: waitress (one process, its connection kept after a bodiless answer) or gunicorn's
``gthread`` workers (each making its own app), and what each process makes before its first page."""

import functools
import gc
import signal

import click
from flask import current_app
from sqlalchemy.exc import OperationalError

from .. import service
from ..db.models import close_database, db
from ..words import i18n
from . import logs, season

MOST_CONNECTIONS = 2000  # open connections one waitress process keeps (phones between polls included)
KEEP_ALIVE_SECONDS = 20  # longer than a phone's poll interval (1.5 s, static/live.js), so polls reuse connections


def gunicorn_application(note_and_announce, forget_server):
    """gunicorn's application class, serving the app with ``gthread`` workers, each creating its own app.

    No app is shared across the fork: each worker makes its own (``app.another()``)
    (serve migrated the database before; one secret key in the instance
    folder), and every per-process cache is keyed by the game's revision.
    The addresses are printed once gunicorn has bound its port (its
    ``when_ready``: ``note_and_announce(app, host, port)``, which returns the
    note's path), and the note forgotten when it stops (``forget_server(path)``).
    Each worker closes its database as it exits, however it was stopped
    (gunicorn's ``worker_exit`` runs in the worker on SIGTERM, SIGINT and
    SIGQUIT alike), so that the SQLite file alone is whole once all are gone.
    A worker on its way out ignores any further signal to stop: Ctrl+C sends
    SIGINT to every process and the arbiter then sends each worker a SIGQUIT,
    and the exit that second signal raised in the middle of the first one's
    clean-up cut it short (the hands were left in the write-ahead log).
    """
    try:
        from gunicorn.app.base import BaseApplication
    except ImportError:
        raise click.ClickException(
            "Several workers need gunicorn: pip install -e '.[club]' (Linux or macOS). "
            "One worker (the default) needs nothing more.") from None

    app = current_app._get_current_object()
    records = []  # the note of the address, forgotten when the arbiter exits (workers leave it alone)

    class Server(BaseApplication):
        def __init__(self, host, port, workers, threads, access_log):
            self.access_log = access_log
            self.settings = {
                "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "workers": workers,
                "worker_class": "gthread",
                "threads": threads,
                "keepalive": KEEP_ALIVE_SECONDS,
                "graceful_timeout": 10,
                "proc_name": "scorekeeper",
                # gunicorn 27's control socket is one path per user: two servers on a machine would share it.
                "control_socket_disable": True,
                "when_ready": lambda arbiter: records.append(
                    note_and_announce(app, host, arbiter.LISTENERS[0].sock.getsockname()[1])),
                "on_exit": lambda _arbiter: [forget_server(record) for record in records if record],
                "worker_int": lambda _worker: deaf_to_stop_signals(),  # in the worker, on SIGINT or SIGQUIT
                "worker_exit": lambda _arbiter, _worker: self.close_served(),
            }
            self.served = None  # the app this worker serves; none in the arbiter, which also calls worker_exit
            super().__init__()

        def close_served(self):
            if self.served is not None:  # in a worker (the arbiter calls worker_exit for a worker gone already)
                deaf_to_stop_signals()
                close_database(self.served)

        def load_config(self):
            for name, value in self.settings.items():
                if name in self.cfg.settings:  # settings newer than the installed gunicorn are left out
                    self.cfg.set(name, value)

        def load(self):
            served = self.served = app.another()
            settle_memory(served)
            return logs.access_logged(served) if self.access_log else served

    return Server


def deaf_to_stop_signals():
    """Ignore SIGINT, SIGQUIT and SIGTERM from now on: this process is stopping already (SIGKILL still ends it)."""
    for name in ("SIGINT", "SIGQUIT", "SIGTERM"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def create_server(app, **adjustments):
    """A waitress server for ``app`` whose bodiless answers (an unchanged poll's 304) keep the connection.

    Waitress 3.0 closes the connection after every response without a
    length, 304 included; a 304 ends at its header section (RFC 9110 15.4.5,
    RFC 9112 6.3), so the phone's next poll can reuse the connection.
    """
    import waitress.server

    settings = {
        "ident": "scorekeeper",
        # Every watching phone keeps a connection open between polls: waitress's default of 100
        # connections left a club's 550 phones queuing for seconds. poll() has no select()'s
        # limit of 1024 descriptors.
        "connection_limit": MOST_CONNECTIONS,
        "asyncore_use_poll": True,
        **adjustments,
    }
    settle_memory(app)
    server = waitress.server.create_server(app, **settings)
    sockets = server.map if isinstance(server, waitress.server.MultiSocketServer) else server._map
    for dispatcher in list(sockets.values()):
        if isinstance(dispatcher, waitress.server.BaseWSGIServer):
            dispatcher.channel_class = _keep_alive_channel()
    return server


def settle_memory(app):
    """Make what every first page would make, then set it aside from the garbage collector.

    Every template is compiled, each language's number and date formats read
    (the first page of a language read them from disk: some 20 ms) and its
    catalog compiled (some 10 ms), and the season's statements compiled by
    reading the season once from the kept figures (some 10 ms; only when
    they are all fresh: no game is scored at start). Then everything made so far is set aside from the collector's
    full sweeps (``gc.freeze``): the app, its modules, templates, formats and
    statements are some hundred thousand objects that live as long as the
    process, and each full collection walked them all again in the middle of
    a request. Not for a test's app: a test process makes thousands of apps,
    which must stay collectable.
    """
    if app.testing:
        return
    with app.app_context():
        for name in app.jinja_env.list_templates(extensions=["html"]):
            app.jinja_env.get_template(name)
        i18n.load_formats()
        i18n.load_catalogs()
    with app.test_request_context("/"):
        try:
            if not service.figures.stale_games():
                season.season()
        except OperationalError:
            pass  # the database is not reachable yet: the first page makes them
        finally:
            db.session.remove()
    gc.collect()
    gc.freeze()


@functools.cache
def _keep_alive_channel():
    """waitress's channel, making tasks that keep the connection after a bodiless answer."""
    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask

    class KeepAliveTask(WSGITask):
        _bodiless = False

        def build_response_header(self):
            connection = self.request.headers.get("CONNECTION", "").lower()
            self._bodiless = not self.has_body and self.version == "1.1" and connection != "close"
            try:
                return super().build_response_header()
            finally:
                self._bodiless = False

        def set_close_on_finish(self):
            if not self._bodiless:  # only waitress's "no length, so close" for a response with no body
                super().set_close_on_finish()

    class KeepAliveChannel(HTTPChannel):
        task_class = KeepAliveTask

    return KeepAliveChannel


def bound_port(server, port):
    """The port a waitress server listens on (its first, when it listens on several addresses), a number."""
    if getattr(server, "effective_port", None):
        return int(server.effective_port)  # waitress gives it as text
    listening = getattr(server, "effective_listen", None)
    return int(listening[0][1]) if listening else port
