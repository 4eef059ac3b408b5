"""The scorekeeper for Cancellation Hearts: a Flask application factory."""

import os
import re
import secrets
from datetime import timedelta

from flask import Flask, abort, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from .db.models import LARGEST_ID

SECRET_KEY_FILE = "secret_key"
PACKAGE = os.path.dirname(os.path.abspath(__file__))
INSTANCE_VARIABLE = "SCOREKEEPER_INSTANCE"


def create_app(test_config=None):
    """Create and configure the app; ``test_config`` replaces instance configuration."""
    app = Scorekeeper(
        __name__,
        instance_path=configured_instance_path(),
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
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(app.instance_path)

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
    return app


class Scorekeeper(Flask):
    """Flask, whose log of a request's error names the client and hides the key a scorer's link carries."""

    def log_exception(self, exc_info):
        from .web.logs import log_exception

        log_exception(self, exc_info)


def shipped_folder(name):
    """The app's ``templates`` or ``static`` folder: inside the package where a wheel installed it (setup.py
    ships the repository's top-level folders there), else beside the package, at the top of a checkout."""
    inside = os.path.join(PACKAGE, name)
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(PACKAGE), name)


def configured_instance_path():
    """The instance folder ``SCOREKEEPER_INSTANCE`` names, made absolute; None lets Flask choose: ``instance/``
    at the top of a checkout, ``<the environment>/var/scorekeeper-instance`` for an installed app."""
    configured = os.environ.get(INSTANCE_VARIABLE)
    return os.path.abspath(os.path.expanduser(configured)) if configured else None


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


def load_or_create_secret_key(instance_path):
    """Read the instance's secret key, generating it (mode 0600) on first start.

    Several server processes may start at once: the key is written whole to a
    file of this process's own, then linked into place only if no other
    process got there first, so every process reads one and the same key.
    """
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    if not os.path.exists(path):
        partial = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as key_file:
            key_file.write(secrets.token_hex(32))
        try:
            os.link(partial, path)  # fails if another process's key is in place: then that one is the key
        except FileExistsError:
            pass
        finally:
            os.unlink(partial)
    with open(path, encoding="ascii") as key_file:
        return key_file.read().strip()
