"""The scorekeeper for Cancellation Hearts: a Flask application factory."""

import functools
import os
import re
from datetime import timedelta

import click
from flask import Config, Flask, abort, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from . import instance
from .db.models import LARGEST_ID, close_database
from .instance import load_or_create_secret_key

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def create_app(test_config=None):
    """Create and configure the app; ``test_config`` replaces instance configuration.

    Nothing is written into the instance folder here (a command's --help
    makes an app, and writes nothing): the secret key is read or made the
    first time something signs with it, the database file as it is first
    connected to, and the catalogs are compiled in memory.
    """
    app = Scorekeeper(
        __name__,
        instance_path=instance.configured(),
        instance_relative_config=True,
        template_folder=shipped_folder("templates"),
        static_folder=shipped_folder("static"),
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=1024 * 1024,
        # The biggest form (a hand of 11 players) has about 30 fields: a post
        # with hundreds is refused (413) before any of it is read into a form.
        MAX_FORM_PARTS=200,
        # Behind a reverse proxy: how many proxies' X-Forwarded-For/-Proto/-Host to believe (0: none).
        PROXY_HOPS=0,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # The scorer's phone keeps its scorer keys through a long game night.
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),
        # A cookie only when the session changes: polls stay tiny.
        SESSION_REFRESH_EACH_REQUEST=False,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env()
    else:
        app.config.from_mapping(test_config)

    from . import db, documents, web

    # Ids in paths stop where the database's integers stop: past that, a 404.
    app.url_map.converters["int"] = DatabaseIdConverter
    # An address with "//" in it names no page (404), rather than being redirected (308) to one with the
    # slashes merged: every link the app makes has single slashes.
    app.url_map.merge_slashes = False
    db.init_app(app)  # binds the database (serve and migrate bring its tables up to date)
    web.init_app(app)  # languages, page filters, the blueprints, static files, the serve command
    documents.init_app(app)  # export-game, import-game, backup, restore
    app.before_request(refuse_malformed_host)
    app.after_request(secure_headers)
    app.session_interface = SessionInterface()
    hops = int(app.config["PROXY_HOPS"])
    if hops:  # the proxy's word for the client's scheme and host: HTTPS there makes the cookie Secure
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)
    command_line = click.get_current_context(silent=True)
    if command_line is not None:  # made for a command: its database is closed whole when the command ends
        command_line.call_on_close(functools.partial(close_database, app))
    return app


class InstanceConfig(Config):
    """Flask's configuration, whose ``SECRET_KEY``, unless something set it, is the instance's own: read from
    the instance folder, or made there, the first time it is asked for (``instance.load_or_create_secret_key``)."""

    def __getitem__(self, key):
        value = super().__getitem__(key)
        if key == "SECRET_KEY" and not value:
            value = self["SECRET_KEY"] = load_or_create_secret_key(self.root_path)  # the instance folder
        return value


class Scorekeeper(Flask):
    """Flask, whose log of a request's error names the client and hides the key a scorer's link carries, whose
    secret key is the instance's own, and whose instance folder, installed, is outside its environment."""

    config_class = InstanceConfig

    def another(self):
        """A new app made as the command line makes one (the instance's configuration): each worker process of
        a server makes its own, and the web side, which this package imports, never imports it back."""
        return create_app()

    def log_exception(self, exc_info):
        from .web.logs import log_exception

        log_exception(self, exc_info)

    def auto_find_instance_path(self):
        """``instance/`` at the top of a checkout; for an installed app, the user's data folder, or the folder
        Flask gives an installed app (``<environment>/var/scorekeeper-instance``) while only that holds the
        club's data (see ``scorekeeper.instance``)."""
        flasks = super().auto_find_instance_path()
        if instance.in_a_checkout():
            return flasks
        folder, line = instance.installed_folder(flasks, instance.user_data_folder())
        if line:
            instance.say_once(line)
        return folder


def shipped_folder(name):
    """The app's ``templates`` or ``static`` folder: inside the package where a wheel installed it (setup.py
    ships the repository's top-level folders there), else beside the package, at the top of a checkout."""
    inside = os.path.join(PACKAGE, name)
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(PACKAGE), name)


CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
WELL_FORMED_HOST = re.compile(rf"(?:{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{{1,5}})?")


def refuse_malformed_host():
    """A Host header that names no host (RFC 3986 3.2.2) is a bad request: links are built from it."""
    if not WELL_FORMED_HOST.fullmatch(request.host):
        abort(400)


def secure_headers(response):
    """A strict Content-Security-Policy (no inline script or style) and friends on every response."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if response.mimetype == "text/html":  # the policy governs documents; polls stay small
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
    return response


class DatabaseIdConverter(IntegerConverter):
    """``<int:...>`` in routes, up to the largest id the database can hold."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", LARGEST_ID)
        super().__init__(url_map, *args, **kwargs)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure whenever the page came over HTTPS."""

    def get_cookie_secure(self, app):
        return bool(app.config["SESSION_COOKIE_SECURE"] or (has_request_context() and request.is_secure))
