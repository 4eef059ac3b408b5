"""Static files, read, minified (CSS) and compressed once at start, served from memory under content-hashed URLs.

``url_for("static", filename="style.css")`` becomes ``/static/style.css?v=<hash>``:
a URL that names one version of the file, so the browser may keep it for a
year without asking again (``immutable``); a change to the file changes its
URL. Text files keep a gzip copy, sent to browsers that accept it.
"""

import functools
import gzip
import hashlib
import mimetypes
import os
import re
from dataclasses import dataclass

from flask import Response, abort, request

ONE_YEAR = 365 * 24 * 3600
COMPRESSED_TYPES = ("text/", "application/javascript", "application/manifest+json", "image/svg+xml")
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("video/webm", ".webm")  # awake.js's silent loops
mimetypes.add_type("video/mp4", ".mp4")


@dataclass(frozen=True)
class Asset:
    """One static file: its bytes, their gzip copy (if worth sending), its type and version."""

    body: bytes
    gzipped: bytes | None
    mimetype: str
    version: str


def read_assets(folder):
    """Every file under ``folder`` by its path there ("icons/icon.svg"), read and compressed."""
    assets = {}
    for directory, _folders, files in os.walk(folder):
        for name in files:
            path = os.path.join(directory, name)
            found = os.stat(path)
            assets[os.path.relpath(path, folder).replace(os.sep, "/")] = _asset(path, found.st_mtime_ns, found.st_size)
    return assets


@functools.lru_cache(maxsize=256)
def _asset(path, _modified, _size):
    """One file read, minified if CSS, and compressed; kept while it is unchanged (its time and size), so
    that each app a process makes (every test makes one) does not compress the same files again."""
    with open(path, "rb") as asset_file:
        body = asset_file.read()
    mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
    if mimetype == "text/css":
        body = minified_css(body)
    elif mimetype == "text/javascript":
        body = trimmed_js(body)
    gzipped = gzip.compress(body, 9, mtime=0) if mimetype.startswith(COMPRESSED_TYPES) else None
    if gzipped is not None and len(gzipped) >= len(body):
        gzipped = None
    return Asset(body, gzipped, mimetype, hashlib.sha256(body).hexdigest()[:12])


CSS_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
CSS_SPACE = re.compile(rb"\s+")
CSS_SPACE_AROUND = re.compile(rb"\s*([{};,])\s*")


def minified_css(css):
    """Our style sheets without comments and layout whitespace: a phone's first load is lighter.

    Only for this project's own CSS, which has no comment markers, braces,
    semicolons or commas inside quoted strings.
    """
    css = CSS_SPACE.sub(b" ", CSS_COMMENT.sub(b"", css))
    css = CSS_SPACE_AROUND.sub(rb"\1", css).replace(b": ", b":").replace(b";}", b"}")
    return css.strip()


def trimmed_js(script):
    """Our scripts without their comment lines and indentation: the table's phones fetch less. Lines are kept
    (a statement never joins the next), and only whole lines of comment go, never a "//" after code, which
    might sit in a string."""
    lines = (line.strip() for line in script.splitlines())
    return b"\n".join(line for line in lines if line and not line.startswith(b"//")) + b"\n"


def accepts_gzip():
    """Whether this request's client takes gzip-encoded answers."""
    return request.accept_encodings["gzip"] > 0


def encoded(response, body, gzipped):
    """``response`` with ``gzipped`` as its body if the client takes it, else ``body``; varies by encoding."""
    response.vary.add("Accept-Encoding")
    if gzipped is not None and accepts_gzip():
        response.set_data(gzipped)
        response.content_encoding = "gzip"
    else:
        response.set_data(body)
    return response


SMALLEST_COMPRESSED = 1024  # bytes: below this, gzip's own header and the work outweigh what it saves
COMPRESSION_LEVEL = 6  # zlib's default: most of the saving of 9 for a third of its work


def compressed(response):
    """Every answer over ``SMALLEST_COMPRESSED`` bytes of a text type (pages, JSON, CSV, SVG) gzip-encoded for a
    client that takes it: the pages kept rendered and the static files are compressed once already."""
    if (response.content_encoding or response.direct_passthrough or response.is_streamed
            or not response.mimetype.startswith((*COMPRESSED_TYPES, "application/json"))):
        return response
    body = response.get_data()
    response.vary.add("Accept-Encoding")
    if len(body) < SMALLEST_COMPRESSED or not accepts_gzip():
        return response
    response.set_data(gzip.compress(body, COMPRESSION_LEVEL, mtime=0))
    response.content_encoding = "gzip"
    if response.get_etag()[0]:  # the same representation's tag would now name another one (RFC 9110 8.8.3)
        response.set_etag(response.get_etag()[0], weak=True)
    return response


def init_app(app):
    """Serve ``app``'s static folder from memory, under versioned URLs; compress every answer worth it."""
    app.after_request(compressed)
    assets = read_assets(app.static_folder)

    def static(filename):
        asset = assets.get(filename)
        if asset is None:
            abort(404)
        response = encoded(Response(mimetype=asset.mimetype), asset.body, asset.gzipped)
        # Safari plays a video only from a server that answers a byte range (206).
        ranges = {"accept_ranges": True, "complete_length": len(asset.body)} if asset.mimetype.startswith(
            "video/") else {}
        if request.args.get("v") == asset.version:
            response.cache_control.public = True
            response.cache_control.max_age = ONE_YEAR
            response.cache_control.immutable = True
            if ranges:
                response.make_conditional(request, **ranges)
        else:  # an old or unversioned URL: the browser asks again each time
            response.cache_control.no_cache = True
            response.set_etag(asset.version, weak=True)  # the same for either encoding
            response.make_conditional(request, **ranges)
        return response

    def versioned(endpoint, values):
        if endpoint == "static" and values.get("filename") in assets:
            values.setdefault("v", assets[values["filename"]].version)

    app.view_functions["static"] = static
    app.url_defaults(versioned)
