"""The ``scorekeeper`` command an installed app brings (``pipx install`` puts it on the PATH), and
``python -m scorekeeper``: Flask's command line for this app, as ``flask --app scorekeeper`` is
(``scorekeeper serve``, ``scorekeeper backup games-backup.json``...)."""

from flask.cli import FlaskGroup

from . import create_app

main = FlaskGroup(
    create_app=create_app,
    help="The scorekeeper for Cancellation Hearts. `scorekeeper serve` serves it to the table.",
)
main.params = [option for option in main.params if option.name != "app"]  # this command's app is this one

if __name__ == "__main__":
    main(prog_name="python -m scorekeeper")
