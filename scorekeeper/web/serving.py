"""Serving the app to the table: the LAN address and the links other phones are handed (with their QR code),
the `serve` command (its checks, the note of where it listens, what it prints) and the link commands.

The servers themselves, waitress and gunicorn's workers, are ``servers``'."""

import contextlib
import errno
import functools
import hashlib
import io
import json
import os
import signal
import socket
import threading
import time
from urllib.parse import urlunsplit

import click
import segno
from flask import current_app, request, url_for
from flask.cli import with_appcontext

from .. import instance, service
from ..db import migrate, needs_database
from ..db.models import Game, close_database, db
from . import logs
from .servers import bound_port, create_server, gunicorn_application

DEFAULT_PORT = 8150
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}


def lan_addresses():
    """This machine's IPv4 addresses that other devices on the network can reach."""
    return _lan_addresses(int(time.monotonic() // 60))  # looked up again each minute


@functools.lru_cache(maxsize=1)
def _lan_addresses(_minute):
    found = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    # Asking the routing table which source address a datagram socket would use
    # sends nothing, and finds the Wi-Fi address when the hostname does not.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: documentation only, never routed
            found.add(probe.getsockname()[0])
    except OSError:
        pass
    return sorted(address for address in found if not address.startswith("127."))


EVERY_INTERFACE = {"0.0.0.0", "", "::"}  # waitress and gunicorn take "::" for every IPv6 (and often IPv4) address


def is_loopback(host):
    """Whether ``host`` (as given to ``--host``) is this device only: no other phone can reach it."""
    host = (host or "").strip("[]").lower()
    return host in LOOPBACK_HOSTS or host.startswith("127.")


def table_urls(host, port):
    """The addresses to print for the table, best first."""
    if host in EVERY_INTERFACE:
        return [f"http://{address}:{port}/" for address in lan_addresses()] + [f"http://127.0.0.1:{port}/"]
    host = host.strip("[]")
    return [f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"]


def watch_url(game):
    """The read-only link as other phones on the network must type it."""
    return shared_url("live.watch", game_id=game.id)


def shared_url(endpoint, **values):
    """A link to hand to another phone (shown as text and as a QR code), built from an address it can reach.

    From ``PUBLIC_URL`` when the configuration sets one (a server behind a
    proxy or with a name). Otherwise from the Host the request named, but
    only if it is one of this machine's own names or addresses, or listed in
    ``TRUSTED_HOSTS``: a Host header is the client's word, and a link built
    from ``Host: evil.example`` would send the table elsewhere. A loopback
    name, or a Host not trusted, gives way to this machine's LAN address.
    """
    path = url_for(endpoint, **values)
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + path
    host = request.host.rsplit(":", 1)[0].strip("[]").lower() if request.host else ""
    if host in known_hosts() and host not in LOOPBACK_HOSTS:
        return request.host_url.rstrip("/") + path
    addresses = lan_addresses()
    address = addresses[0] if addresses else (host if host in LOOPBACK_HOSTS else "127.0.0.1")
    port = request.environ.get("SERVER_PORT")
    netloc = address + (f":{port}" if port and port not in ("80", "443") else "")
    return urlunsplit((request.scheme, netloc, path, "", ""))


def reachable_by_others():
    """Whether other phones can open this server: not when `serve` listens on a loopback address only."""
    if current_app.config.get("PUBLIC_URL"):
        return True
    return not is_loopback(current_app.config.get("LISTENING_HOST"))


def known_hosts():
    """The names and addresses this machine answers to, and the configured ``TRUSTED_HOSTS``."""
    name = socket.gethostname().lower()
    configured = current_app.config.get("TRUSTED_HOSTS") or []
    return {*LOOPBACK_HOSTS, *lan_addresses(), name, f"{name}.local", *(host.lower() for host in configured)}


@functools.lru_cache(maxsize=64)
def qr_svg(url):
    """A QR code of ``url`` as an SVG image, generated here (no network).

    Kept per URL: the same link always draws the same code, and drawing it
    took a quarter of the table view's time.
    """
    image = io.BytesIO()
    segno.make(url, error="m").save(image, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                    xmldecl=False, omitsize=True)
    return image.getvalue()


# --- Where the server listens, for the link commands --------------------------------------


SERVER_RECORD = "server.json"  # in the instance folder


def database_of(app):
    """A short name of ``app``'s database, hashed, as its address may hold a password."""
    return hashlib.sha256(str(app.config["SQLALCHEMY_DATABASE_URI"]).encode()).hexdigest()[:16]


def record_server(app, host, port):
    """Note in the instance folder that this process serves ``app``'s database on ``host`` and ``port``
    (written whole or not at all); the note's path."""
    path = os.path.join(app.instance_path, SERVER_RECORD)
    partial = f"{path}.{os.getpid()}"
    with open(partial, "w", encoding="utf-8") as record:
        json.dump({"database": database_of(app), "host": host, "port": port, "pid": os.getpid()}, record)
    os.replace(partial, path)
    return path


def forget_server(path):
    """Remove the note of ``record_server`` when the server stops, unless a later server wrote its own."""
    try:
        with open(path, encoding="utf-8") as record:
            ours = json.load(record).get("pid") == os.getpid()
        if ours:
            os.remove(path)
    except (OSError, ValueError, AttributeError):
        pass


def recorded_server(app):
    """(host, port) that `serve` noted for ``app``'s database, or None: nothing noted, or noted by a server
    of another database (another FLASK_SQLALCHEMY_DATABASE_URI), whose links would find no such game."""
    try:
        with open(os.path.join(app.instance_path, SERVER_RECORD), encoding="utf-8") as record:
            noted = json.load(record)
        database, host, port = noted["database"], noted["host"], noted["port"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if database != database_of(app) or not isinstance(host, str) or type(port) is not int or not 0 < port < 65536:
        return None
    return host, port


def answers(host, port):
    """Whether something accepts connections on ``port`` at ``host`` (as `serve` was given it), from here."""
    probe = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host.strip("[]")
    try:
        with socket.create_connection((probe, port), timeout=0.5):
            return True
    except OSError:
        return False


def link_address(app, port):
    """The (host, port) the link commands build their links for, and what to say about it first.

    ``--port`` when given (every interface assumed); else the address the running `serve` noted; else
    the defaults, said plainly, as no link can be checked against a server that does not run.
    """
    noted = recorded_server(app)
    if port is not None:
        host = noted[0] if noted and noted[1] == port else "0.0.0.0"
        return host, port, []
    if noted is None:
        return "0.0.0.0", DEFAULT_PORT, [
            f"No server of this database is running (`flask --app scorekeeper serve` notes its address when it "
            f"starts). These links assume it will run on port {DEFAULT_PORT}, the default, on every address; "
            f"give --port if it will run on another."]
    host, port = noted
    if not answers(host, port):
        return host, port, [
            f"The server last started on this database (--host {host} --port {port}) does not answer now. "
            f"These links assume it will run there again; give --port if it will run on another."]
    return host, port, []


def local_only_words(host):
    """What the link commands say first when the server listens on this device only."""
    if not is_loopback(host):
        return []
    return [f"The server listens on this device only (--host {host}): other phones cannot reach it, so these "
            f"links open on this device only. Start it with --host 0.0.0.0 to let phones on the same Wi-Fi in."]


class ServeRefused(click.ClickException):
    """What serve cannot do as asked (a port out of range, a host it cannot listen on, a port in use):
    said in one line, before anything else is printed, with the exit status of a usage error."""

    exit_code = 2


class PortNumber(click.ParamType):
    """``--port``: 1 to 65535, or 0 for a port the system chooses; anything else is refused in one line."""

    name = "port"

    def convert(self, value, param, ctx):
        try:
            port = int(value)
        except (TypeError, ValueError):
            port = None
        if port is None or not 0 <= port <= 65535:
            raise ServeRefused(f"--port {value} is not a port: give a number from 1 to 65535 "
                               f"(0 lets the system choose one; the default is {DEFAULT_PORT}).")
        return port


def check_listening(host, port):
    """Refuse, in one line (``ServeRefused``), a ``host`` and ``port`` this machine cannot listen on now.

    Each address ``host`` names is bound and let go at once, as the server
    binds it next: a port in use, an address of another machine, a name
    that names nothing are said before anything is printed.
    """
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ServeRefused(f"--host {host} names no address this machine can listen on ({reason}): give 0.0.0.0 "
                           f"(every address, the default) or 127.0.0.1 (this device only).") from None
    for family, kind, protocol, _name, address in found:
        with socket.socket(family, kind, protocol) as trial:
            trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as both servers bind
            try:
                trial.bind(address)
            except OSError as error:
                raise ServeRefused(cannot_listen(host, port, error)) from None


def cannot_listen(host, port, error):
    """Why the server cannot listen on ``host`` and ``port``, in one line that says what to do."""
    if error.errno == errno.EADDRINUSE:
        return (f"Port {port} is already in use on {host} (another server listens there, perhaps a scorekeeper "
                f"started earlier): stop it, or choose another port with --port.")
    if error.errno == errno.EADDRNOTAVAIL:
        return (f"--host {host} is not an address of this machine, so the server cannot listen there: give one "
                f"of its addresses, or 0.0.0.0 (every address, the default).")
    if error.errno == errno.EACCES:
        return (f"Port {port} is reserved for the administrator on this machine: choose one above 1023 with "
                f"--port (the default is {DEFAULT_PORT}).")
    return f"Cannot listen on {host} port {port}: {error.strerror or error}."


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the same Wi-Fi connect, 127.0.0.1 this device only.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=PortNumber(),
              help="Port to listen on, 1 to 65535; 0 lets the system choose one (printed, and noted for "
                   "scorer-link).")
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 256),
              help="Requests served at once by each process.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes. More than one runs gunicorn (Linux and macOS; pip install -e '.[club]'), "
                   "for a club's server with many tables, best on PostgreSQL.")
@click.option("--access-log/--no-access-log", default=None,
              help="One line a request on the terminal (client, method, path with keys hidden, status, time). "
                   "On unless ACCESS_LOG is false in the configuration (FLASK_ACCESS_LOG=false).")
@with_appcontext
def serve_command(host, port, threads, workers, access_log):
    """Serve the scorekeeper to the table: waitress, or gunicorn with several workers.

    The port is bound and the database brought to this version's schema
    before anything is printed; what stands in the way is said in one line.
    """
    app = current_app._get_current_object()
    if workers > 1:
        # gunicorn is looked for first: a missing one is refused before anything is printed
        gunicorn_server = gunicorn_application(note_and_announce, forget_server)
    instance.prepare(app)  # an instance folder that cannot be written, said in one line (exit status 2)
    if access_log is None:
        access_log = bool(app.config.get("ACCESS_LOG", True))
    check_listening(host, port)
    migrate.upgrade()  # one line, and no server, when the database cannot be reached
    # Pages say so when no other phone can reach this server (workers read it from the environment).
    app.config["LISTENING_HOST"] = os.environ["FLASK_LISTENING_HOST"] = host
    logs.log_to_terminal()
    if workers > 1:
        close_database(app)  # no connection of this process is inherited by the workers it forks
        served = gunicorn_server(host, port, workers, threads, access_log)
        with stopped_by_sigterm():
            served.run()  # binds, then announces (its when_ready), then serves
        return
    if access_log:
        logs.access_logged(app)
    try:
        server = create_server(app, host=host, port=port, threads=threads)
    except (OSError, ValueError) as error:  # taken between the check and now
        raise ServeRefused(cannot_listen(host, port, error) if isinstance(error, OSError) else
                           f"Cannot listen on {host} port {port}: {error}") from None
    record = note_and_announce(app, host, bound_port(server, port))
    try:
        with stopped_by_sigterm():
            server.run()  # Ctrl+C and SIGTERM end it here, once waitress has let its threads finish
    finally:
        close_database(app)  # the database file whole: a copy of it alone holds every hand
        if record:
            forget_server(record)


def note_and_announce(app, host, port):
    """Note where the server listens (for scorer-link and club-link), then print the addresses to open; the
    note's path (None if the instance folder is read-only), for ``forget_server`` when the server stops."""
    try:
        record = record_server(app, host, port)
    except OSError as error:  # a read-only instance folder still serves
        record = None
        click.echo(f"Could not note the address in the instance folder ({error.strerror}): scorer-link and "
                   f"club-link will need --port {port}.")
    announce(host, port)
    return record


@contextlib.contextmanager
def stopped_by_sigterm():
    """SIGTERM (``kill``, a service manager, a container's stop) ends the server as Ctrl+C does, running its
    clean-up; gunicorn's arbiter installs its own handler for it, which also exits that way."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_on_sigterm(_number, _frame):
    raise SystemExit(0)


def announce(host, port):
    """Print where to open the scorekeeper: every phone's addresses and a QR code, or this device's only."""
    urls = table_urls(host, port)
    if is_loopback(host):
        click.echo("Cancellation Hearts scorekeeper is running on this device only. Open this in its browser:")
        for url in urls:
            click.echo(f"    {url}")
        click.echo(f"Other phones cannot reach it (--host {host}). To let phones on the same Wi-Fi connect, "
                   "start it with --host 0.0.0.0 (the default).")
    else:
        click.echo("Cancellation Hearts scorekeeper is running. Open one of these on any phone on the same Wi-Fi:")
        for url in urls:
            click.echo(f"    {url}")
        if len(urls) > 1:
            click.echo("Or scan this with a phone's camera:")
            segno.make(urls[0], error="m").terminal(compact=True)
    click.echo("Stop it with Ctrl+C.")



PORT_HELP = f"The port the server listens on. Default: the running server's (noted by serve), else {DEFAULT_PORT}."


def print_links(port, intro, path):
    """Say what the link commands assume about the server, then ``intro`` and the links to ``path``
    (last, one a line: the link is the output's last word)."""
    app = current_app._get_current_object()
    host, port, words = link_address(app, port)
    for line in words + local_only_words(host):
        click.echo(line)
    click.echo(intro)
    for url in table_urls(host, port):
        click.echo(f"    {url}{path}")


@click.command("scorer-link")
@click.argument("game_id", type=int)
@click.option("--port", default=None, type=click.IntRange(1, 65535), help=PORT_HELP)
@with_appcontext
@needs_database
def scorer_link_command(game_id, port):
    """Print the secret scorer link of game GAME_ID (for a game imported or restored here)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"No game has id {game_id}.")
    print_links(port, "Anyone who opens this link can record and correct hands of this game:",
                f"games/{game.id}/scorer/{game.scorer_key}")


@click.command("club-link")
@click.option("--new", "new_key", is_flag=True, help="Make a new key first: every earlier link and pass stop working.")
@click.option("--port", default=None, type=click.IntRange(1, 65535), help=PORT_HELP)
@with_appcontext
@needs_database
def club_link_command(new_key, port):
    """Print the club's secretary link: a device that opens it may change the club's records."""
    key = service.new_secretary_key() if new_key else service.secretary_key()
    if new_key:
        click.echo("A new secretary key is made: the earlier link and every device's pass no longer work.")
    print_links(port, "Anyone who opens this link becomes a secretary of the club: they can rename, merge and "
                "unmerge people, leave games out of the season and count them again, date games, and undo any "
                "of these:", f"club/secretary/{key}")


@click.command("refigure")
@click.option("--check", "only_check", is_flag=True,
              help="Only compare the kept figures with the hands, writing nothing: exit 1 if any differs.")
@with_appcontext
@needs_database
def refigure_command(only_check):
    """Derive every game's kept figures afresh from its hands (after an upgrade), or check them."""
    if not only_check:
        click.echo(f"{service.refreshing.refigure()} games' figures derived from their hands.")
        return
    differences = service.figures.check()
    for line in differences:
        click.echo(line)
    if differences:
        click.echo(f"{len(differences)} kept figures differ from what the hands say: "
                   "`refigure` derives them afresh.")
        raise SystemExit(1)
    click.echo("Every kept figure is what the hands say.")


def init_app(app):
    app.cli.add_command(serve_command)
    app.cli.add_command(scorer_link_command)
    app.cli.add_command(club_link_command)
    app.cli.add_command(refigure_command)
