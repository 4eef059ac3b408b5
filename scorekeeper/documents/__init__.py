"""What goes out and comes back in files: the game document (``game``) and the backup (``backup``)."""


def init_app(app):
    """The commands that write and read them: export-game, import-game, backup, restore."""
    from . import backup_commands, game

    game.init_app(app)
    backup_commands.init_app(app)
