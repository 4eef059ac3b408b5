"""One import of several files: game documents (.json) and seasons kept on paper (.csv), all read and
checked before any game is stored, so that the import is all or nothing; a refused file is named."""

from dataclasses import dataclass

from ..words.explain import quoted
from ..words.i18n import _
from .game import MOST_UPLOADED_HANDS, DocumentError, read_text
from .season_csv import LineRefused, read_season

# What a spreadsheet saves a sheet as: comma or semicolon separated (.csv), tab separated (.tsv, .txt).
SEASON_SUFFIXES = (".csv", ".tsv", ".txt")


@dataclass(frozen=True)
class Upload:
    """One uploaded file: the name the device gave it and what it holds."""

    name: str
    content: bytes

    @property
    def is_season(self):
        """A season kept on paper is a spreadsheet's text file; anything else is read as a game document."""
        return self.name.casefold().endswith(SEASON_SUFFIXES)


def read_uploads(uploads, most_games, most_hands=MOST_UPLOADED_HANDS):
    """Every game of ``uploads`` (``Upload`` values), ``most_games`` at most, as a ``service.CheckedGame``,
    file by file in order.

    Raises ``DocumentError`` for the first file with a problem, named by its
    file name when there are several, with nothing of any file stored.
    """
    if len(uploads) > most_games:
        raise DocumentError(_("You chose %(count)d files, but one import takes at most %(most)d games: import "
                              "them in several parts.", count=len(uploads), most=most_games))
    games = []
    for upload in uploads:
        try:
            if upload.is_season:
                games += read_season(upload.content, most_games, most_hands, games_before=len(games))
            else:
                if len(games) >= most_games:
                    raise DocumentError(_("This file would be game %(number)d of the import, but one import "
                                          "takes at most %(most)d games: import it in another part.",
                                          number=len(games) + 1, most=most_games))
                games.append(read_text(upload.content, most_hands))
        except LineRefused as error:
            if len(uploads) == 1:
                raise
            raise DocumentError(_("%(file)s, line %(line)d: %(problem)s", file=_shown(upload.name),
                                  line=error.line, problem=error.problem)) from None
        except DocumentError as error:
            if len(uploads) == 1:
                raise
            raise DocumentError(_("%(file)s: %(problem)s", file=_shown(upload.name), problem=str(error))) from None
    return games


def _shown(name):
    """A file's name as a refusal shows it: its last part, about a line of it at most."""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    return quoted(name) if name else _("A file without a name")
