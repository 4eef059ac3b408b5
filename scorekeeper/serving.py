"""Serving the app to the phones at the table with waitress."""

import socket

import click
from flask import current_app
from flask.cli import with_appcontext

DEFAULT_PORT = 8150


def lan_addresses():
    """This machine's IPv4 addresses that other devices on the network can reach."""
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


def table_urls(host, port):
    """The addresses to print for the table, best first."""
    if host in ("0.0.0.0", ""):
        return [f"http://{address}:{port}/" for address in lan_addresses()] + [f"http://127.0.0.1:{port}/"]
    return [f"http://{host}:{port}/"]


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the same Wi-Fi connect.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=int)
@click.option("--threads", default=4, show_default=True, type=int)
@with_appcontext
def serve_command(host, port, threads):
    """Serve the scorekeeper to the table with waitress."""
    import waitress

    click.echo("Cancellation Hearts scorekeeper is running. Open one of these on any phone on the same Wi-Fi:")
    for url in table_urls(host, port):
        click.echo(f"    {url}")
    click.echo("Stop it with Ctrl+C.")
    waitress.serve(current_app._get_current_object(), host=host, port=port, threads=threads, ident="scorekeeper")


def init_app(app):
    app.cli.add_command(serve_command)
