"""A season kept on paper, as a spreadsheet's CSV: one line a hand, one column a player (docs/season-csv.md).

Read all or nothing: each line's hand is checked through the rules engine
as a hand typed in the form is (``rules.check_hand``), each game as an
imported game document is (``service.check_game``), and the first problem
is refused with its line number. Each player's cell holds what they took,
never points: every figure of the app is worked out from the hearts and
Black Marias taken (R14, R15), and points cannot be turned back into them.
"""

import csv
import io
import re

from .. import rules, service
from ..db.models import GAME_NAME_LENGTH, LARGEST_TARGET
from ..service import days
from ..service import names as name_rules
from ..words.explain import describe, name_problem, quoted
from ..words.i18n import _, names_list
from .game import DocumentError

# The columns' names: fixed English words, like a file format's field names, whatever the page's language.
GAME, DATE, TARGET, HAND, MOON, RESERVED = "game", "date", "target", "hand", "moon", "reserved"
COLUMNS = (GAME, DATE, TARGET, HAND, MOON, RESERVED)
REQUIRED = (GAME, DATE, HAND)
MOON_CHOICES = {"": None, "subtract": rules.Moon.SUBTRACT.value, "add": rules.Moon.ADD.value}
RESERVED_ANSWERS = {"": False, "no": False, "yes": True}
# A player's cell: hearts, then an M for each Black Maria ("7", "5M", "26MM", "M", "0"). The letter is the
# initial of the Black Maria in every language of the app (Maria Negra, María Negra, Svarte Maria); and unlike
# "7/1" or "7+1", no spreadsheet turns "5M" into a date or a sum when it is typed.
TAKEN = re.compile(r"([0-9]{1,3})?\s*([mM]{0,2})")
NUMBER = re.compile(r"[+-]?[0-9]{1,7}")
MOON_CELL = f"{rules.HEARTS_IN_HAND}{'M' * rules.MARIAS_IN_HAND}"  # a shooter's cell: every heart and Black Maria
SEPARATORS = (",", ";", "\t")  # a spreadsheet set to a comma decimal mark (pt, es, nb) writes semicolons
BYTE_ORDER_MARK = "\ufeff"
# Far past a club's people over a season; a header of thousands of names is a mistake, not a club.
MOST_PLAYER_COLUMNS = 200

# The template on the import page: two short games of a season, every kind of line shown once.
TEMPLATE_ROWS = [
    [GAME, DATE, TARGET, HAND, "Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gus", MOON, RESERVED],
    ["Week 1", "2026-09-04", "100", "1", "5", "4M", "4", "4", "3M", "6", "", "", ""],
    ["Week 1", "2026-09-04", "100", "2", "0", "0", "26MM", "0", "0", "0", "", "subtract", ""],
    ["Week 1", "2026-09-04", "100", "3", "4", "5", "M", "4", "5", "5", "", "", "yes"],
    ["Week 2", "2026-09-11", "150", "1", "", "6", "5M", "4", "4", "3M", "4", "", ""],
    ["Week 2", "2026-09-11", "150", "2", "", "0", "0", "0", "26MM", "0", "0", "add", ""],
    ["Week 2", "2026-09-11", "150", "3", "", "3", "4", "7M", "2", "6", "4M", "", ""],
]


class LineRefused(DocumentError):
    """A season refused at one line of its file: the ``line`` number and the ``problem`` in words."""

    def __init__(self, line, problem):
        super().__init__(_("Line %(line)d: %(problem)s", line=line, problem=problem))
        self.line = line
        self.problem = problem


def template_text():
    """The template as a spreadsheet opens it: UTF-8 with a byte order mark, commas, CRLF lines."""
    written = io.StringIO()
    csv.writer(written, lineterminator="\r\n").writerows(TEMPLATE_ROWS)
    return BYTE_ORDER_MARK + written.getvalue()


def read_season(content, most_games=None, most_hands=None, games_before=0):
    """Each game of a season's CSV (bytes or text) as a ``service.CheckedGame``, in the file's order, or
    ``DocumentError`` (``LineRefused`` when a line is at fault).

    ``most_games`` bounds the games of an import, ``games_before`` of which
    other files of it hold; ``most_hands`` the hands of a game (a guest's upload).
    """
    rows = _rows(_text(content))
    if not rows:
        raise DocumentError(_("The file is empty: it holds no line of a season."))
    header_line, header = rows[0]
    columns = _Columns(header_line, header, rows)
    hands = rows[1:]
    if not hands:
        raise LineRefused(header_line, _("The first line names the columns, but no line below it holds a hand."))
    _refuse_points(columns, hands)
    return [_read_game(columns, game, most_hands)
            for game in _games(columns, hands, most_games, games_before)]


def _text(content):
    """The file's text: UTF-8 (with or without a byte order mark), or UTF-16 with one (a spreadsheet's
    "Unicode text")."""
    if isinstance(content, str):
        return content.removeprefix(BYTE_ORDER_MARK)
    try:
        text = content.decode("utf-16" if content.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:  # no spreadsheet writes a NUL: UTF-16 without its byte order mark
        raise DocumentError(_("The file is not UTF-8 text: save it from the spreadsheet as “CSV UTF-8” and "
                              "import that file."))
    return text


def _rows(text):
    """The file's lines as (number of the line it starts on, its cells trimmed), blank lines left out.

    The separator is the one a first line such as ``sep=;`` names (as spreadsheets write it; that line is
    no row), else the one the first line uses most: comma, semicolon or tab.
    """
    lines = text.splitlines()
    number, first = next(((number, line) for number, line in enumerate(lines, 1) if line.strip()), (1, ""))
    named = _named_separator(number, first)
    separator = named or max(SEPARATORS, key=first.count)
    rows = _read_rows(text, separator)
    return rows[1:] if named else rows


def _named_separator(number, first):
    """The separator a first line ``sep=X`` names (None for a first line of another kind); refused when X is
    no separator the file can have."""
    if not first.lower().startswith("sep="):
        return None
    named = first[len("sep="):].strip(" \r\n")
    if named not in SEPARATORS:
        raise LineRefused(number, _(
            "The first line, “%(line)s”, names a separator the scorekeeper does not read: write sep=, or sep=; "
            "or sep= and a tab, or leave the line out.", line=quoted(first.strip())))
    return named


def _read_rows(text, separator):
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    rows = []
    while True:
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return rows
        except csv.Error:
            raise LineRefused(line, _("This line cannot be read as CSV: a quote (\") that opens a cell must "
                                      "close it, right before the next separator.")) from None
        cells = [cell.strip() for cell in cells]
        if any(cells):
            rows.append((line, cells))


class _Columns:
    """What the first line says each column holds: the fixed columns by name, every other one a player."""

    def __init__(self, line, header, rows):
        self.line = line
        self.width = len(header)
        self.fixed = {}
        self.players = []  # (column index, name), in the header's order: the seating of each game
        self.unnamed = set()  # columns with no name in the header: they must stay empty
        for index, cell in enumerate(header):
            word = cell.casefold()
            if word in COLUMNS:
                if word in self.fixed:
                    raise LineRefused(line, _("The column “%(column)s” is named twice.", column=word))
                self.fixed[word] = index
            elif cell:
                self.players.append((index, cell))
            else:
                self.unnamed.add(index)
        missing = [column for column in REQUIRED if column not in self.fixed]
        if missing:
            if _score_sheet(rows):
                raise DocumentError(_(
                    "This file is a game's score sheet: it holds points, not the hearts and Black Marias each "
                    "player took. The scorekeeper works out every score from what each player took (R14, R15), "
                    "and points cannot be turned back into it: %(points)d points are %(points)d hearts or one Black "
                    "Maria. Write each player's hearts, then an M for each Black Maria (like 7, 5M or %(moon)s), as "
                    "the template on the import page shows.", points=rules.SEEDS.maria_points, moon=MOON_CELL))
            # Translators: game, date, hand, target, moon and reserved are the file's column names, kept in English.
            raise LineRefused(line, _(
                "The first line names the columns: game, date and hand, then one column a player headed with "
                "their name (and target, moon and reserved when needed). Missing: %(columns)s.",
                columns=names_list(missing)))
        if not self.players:
            # Translators: game, date and hand are the file's column names, kept in English.
            raise LineRefused(line, _("The first line names no player: after game, date and hand, give each "
                                      "player a column headed with their name."))
        if len(self.players) > MOST_PLAYER_COLUMNS:
            raise LineRefused(line, _("A season to import has at most %(most)d players, one column each; this one "
                                      "has %(count)d.", most=MOST_PLAYER_COLUMNS, count=len(self.players)))
        names = [name for _index, name in self.players]
        for name in names:
            reason = name_rules.problem(name)
            if reason:
                raise LineRefused(line, _("The player's name “%(name)s”: %(problem)s", name=quoted(name),
                                          problem=name_problem(reason)))
        repeated = name_rules.repeats(names)
        if repeated:
            place, earlier = next(iter(repeated.items()))
            raise LineRefused(line, _("“%(name)s” and “%(other)s” are one player's name written twice; give each "
                                      "player one column.", name=quoted(names[place]), other=quoted(names[earlier])))

    def cell(self, cells, column):
        """The cell of a fixed column on a line ("" when the column is not in the file or the line is short)."""
        index = self.fixed.get(column)
        return cells[index] if index is not None and index < len(cells) else ""

    def player_cells(self, cells):
        """Each player's cell on a line, in the header's order, as (name, cell)."""
        return [(name, cells[index] if index < len(cells) else "") for index, name in self.players]

    def check_width(self, line, cells):
        """A cell under no column, or under a column with no name, is refused: it would be lost."""
        for index, cell in enumerate(cells):
            if cell and (index >= self.width or index in self.unnamed):
                raise LineRefused(line, _("“%(cell)s” in column %(column)s has no name above it on the first "
                                          "line, so it cannot be read.", cell=quoted(cell),
                                          column=column_letters(index)))


def column_letters(index):
    """A column as a spreadsheet names it: A for the first, Z, AA, AB…"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _score_sheet(rows):
    """Whether the file looks like a game's score sheet (``/games/ID/sheet.csv``): points by hand, a Total."""
    firsts = {cells[0].casefold() for _line, cells in rows}
    return {"hand", "total"} <= firsts


def _taken(cell):
    """A player's cell as the hearts and Black Marias they took, or None when it is no such count."""
    match = TAKEN.fullmatch(cell)
    if match is None or not cell:
        return None
    hearts, marias = match.groups()
    return rules.Taken(int(hearts or 0), len(marias))


def _refuse_points(columns, hands):
    """A file that gives points rather than takings is refused whole, saying why (R14, R15).

    Takings mark Black Marias: a file that marks none, with a line of whole
    numbers that are negative (a moon subtracted) or add up past the hearts
    of a hand (a Black Maria's 13 points), holds points.
    """
    cells = [(line, [cell for _name, cell in columns.player_cells(row) if cell]) for line, row in hands]
    if any((taken := _taken(cell)) is not None and taken.marias for _line, filled in cells for cell in filled):
        return
    for line, filled in cells:
        if filled and all(NUMBER.fullmatch(cell) for cell in filled):
            numbers = [int(cell) for cell in filled]
            if min(numbers) < 0 or sum(numbers) > rules.HEARTS_IN_HAND:
                raise LineRefused(line, _(
                    "The cells look like points (%(cells)s), not the hearts and Black Marias each player took. "
                    "The scorekeeper works out every score from what each player took (R14, R15), and points "
                    "cannot be turned back into it: %(points)d points are %(points)d hearts or one Black Maria. "
                    "Write each player's hearts, then an M for each Black Maria (like 7, 5M or %(moon)s), as the "
                    "template on the import page shows.", cells=quoted(", ".join(filled)),
                    points=rules.SEEDS.maria_points, moon=MOON_CELL))


def _games(columns, hands, most_games, games_before):
    """The lines of each game, in order: a game is the lines that follow one another under one name (a blank
    name goes on with the game above)."""
    games = []
    for line, cells in hands:
        columns.check_width(line, cells)
        name = columns.cell(cells, GAME)
        if name and (not games or name != columns.cell(games[-1][0][1], GAME)):
            if most_games is not None and games_before + len(games) >= most_games:
                raise LineRefused(line, _("This line starts game %(number)d of the import, but one import takes "
                                          "at most %(most)d games: import the rest in another file.",
                                          number=games_before + len(games) + 1, most=most_games))
            games.append([])
        elif not games:
            # Translators: "game" is the file's column name, kept in English.
            raise LineRefused(line, _("Write the game's name in the game column of its first hand."))
        games[-1].append((line, cells))
    return games


def _read_game(columns, rows, most_hands):
    """One game's lines as a ``service.CheckedGame``, each hand checked through the engine on its line."""
    first_line, first = rows[0]
    name = columns.cell(first, GAME)
    reason = name_rules.game_name_problem(name) or (
        name_rules.CONTROL if name_rules.has_control_characters(name) else None)
    if reason == name_rules.LONG:
        raise LineRefused(first_line, _("A game's name has at most %(max)d characters.", max=GAME_NAME_LENGTH))
    if reason is not None:
        raise LineRefused(first_line, _("The game's name: %(problem)s", problem=name_problem(reason)))
    played_on = _played_on(first_line, columns.cell(first, DATE))
    target = _target(first_line, columns.cell(first, TARGET))
    seated = [player for player, cell in columns.player_cells(first) if cell]
    try:
        rules.check_players(len(seated))
    except rules.TableSize:
        raise LineRefused(first_line, _(
            "“%(game)s” has %(count)d players (the players with a cell on this line), but Cancellation Hearts needs "
            "%(least)d to %(most)d (R1).", game=quoted(name), count=len(seated), least=rules.MIN_PLAYERS,
            most=rules.MAX_PLAYERS)) from None
    records = []
    for number, (line, cells) in enumerate(rows, start=1):
        if most_hands is not None and number > most_hands:
            raise LineRefused(line, _("A game to import may hold at most %(most)d hands, and this line is hand "
                                      "%(number)d of “%(game)s”.", most=most_hands, number=number, game=quoted(name)))
        if number > 1:
            _same_for_the_game(line, cells, columns, first_line, first)
        records.append(_read_hand(line, cells, number, columns, name, seated, first_line))
    facts = service.GameFacts(name, target, 0, tuple(seated), tuple(records), played_on=played_on)
    try:
        return service.check_game(facts)
    except rules.HandAfterGameOver as error:
        raise LineRefused(rows[error.ended_after][0], _(
            "“%(game)s” was over after hand %(number)d (R16), so no hand can follow it. If this line starts "
            "another game, give that game another name.", game=quoted(name), number=error.ended_after)) from None


def _played_on(line, text):
    """The day a game was played, from its first line's date cell (year-month-day)."""
    if not text:
        # Translators: "date" is the file's column name, kept in English.
        raise LineRefused(line, _("Write the day the game was played in the date column of its first hand, like "
                                  "2026-12-01."))
    day = days.iso_day(text)
    if day is None or not days.game_day_allowed(day):
        raise LineRefused(line, _(
            "The date “%(date)s” is not one the scorekeeper reads: write the day the game was played as "
            "year-month-day, like 2026-12-01, from %(first)s to %(last)s, tomorrow, as a clock may be a day "
            "behind (in a spreadsheet, format the date column as text or as yyyy-mm-dd).", date=quoted(text),
            first=days.EARLIEST_GAME_DAY.isoformat(), last=days.latest_game_day().isoformat()))
    return day


def _target(line, text):
    """A game's target, from its first line's target cell; empty: the usual one (R16)."""
    if not text:
        return rules.DEFAULT_TARGET
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= LARGEST_TARGET:
        raise LineRefused(line, _("The target “%(target)s” is not a whole number of points from 1 to "
                                  "%(most)d (R16).", target=quoted(text), most=LARGEST_TARGET))
    return int(text)


def _same_for_the_game(line, cells, columns, first_line, first):
    """A later line of a game may leave its date and target empty, or give the first line's again."""
    date, target = columns.cell(cells, DATE), columns.cell(cells, TARGET)
    if date and date != columns.cell(first, DATE):
        raise LineRefused(line, _(
            "The date “%(given)s” is not the one on the game's first line, %(first_line)d: a game is played on one "
            "day. If this line starts another game, give that game another name.", given=quoted(date),
            first_line=first_line))
    if target and target != columns.cell(first, TARGET):
        raise LineRefused(line, _(
            "The target “%(given)s” is not the one on the game's first line, %(first_line)d: a game has one "
            "target. If this line starts another game, give that game another name.", given=quoted(target),
            first_line=first_line))


def _read_hand(line, cells, number, columns, game, seated, first_line):
    """One line's hand as an engine record, checked as a hand typed in the form is (R13-R15)."""
    given = columns.cell(cells, HAND)
    if given != str(number):
        raise LineRefused(line, _(
            "The hands of a game are numbered 1, 2, 3… in order, so this line is hand %(number)d of “%(game)s”, "
            "not “%(given)s”. If it starts another game, give that game another name.", number=number,
            game=quoted(game), given=quoted(given)))
    taken = []
    for player, cell in columns.player_cells(cells):
        if player not in seated:
            if cell:
                raise LineRefused(line, _(
                    "%(name)s has “%(cell)s” here but no cell on the game's first line, %(first_line)d: a game's "
                    "players have a cell on each of its lines, and everyone else none.", name=player,
                    cell=quoted(cell), first_line=first_line))
            continue
        if not cell:
            raise LineRefused(line, _(
                "%(name)s plays in this game but has no cell on this line: write what they took, 0 for nothing.",
                name=player))
        counted = _taken(cell)
        if counted is None:
            raise LineRefused(line, _(
                "“%(cell)s” for %(name)s is not what a player took: write their hearts, then an M for each Black "
                "Maria, like 7, 5M, %(moon)s, M (one Black Maria and no heart) or 0.", cell=quoted(cell), name=player,
                moon=MOON_CELL))
        taken.append(counted)
    moon, reserved = columns.cell(cells, MOON), columns.cell(cells, RESERVED)
    if moon.casefold() not in MOON_CHOICES:
        # Translators: "moon", "subtract" and "add" are words of the file, kept in English.
        raise LineRefused(line, _("The moon column holds subtract, add or nothing, not “%(given)s”.",
                                  given=quoted(moon)))
    if reserved.casefold() not in RESERVED_ANSWERS:
        # Translators: "reserved", "yes" and "no" are words of the file, kept in English.
        raise LineRefused(line, _("The reserved column holds yes, no or nothing, not “%(given)s”.",
                                  given=quoted(reserved)))
    moon, reserved = MOON_CHOICES[moon.casefold()], RESERVED_ANSWERS[reserved.casefold()]
    try:
        # A file cannot be asked twice: "yes" in the reserved column of a line of zeros says it.
        record = rules.check_hand(taken, moon, reserved, nothing_collected_confirmed=reserved)
    except rules.CardsUnaccounted as error:
        # Translators: "yes" and "reserved" are words of the file, kept in English.
        raise LineRefused(line, _(
            "The hearts add up to %(hearts)d of %(all_hearts)d and the Black Marias to %(marias)d of "
            "%(all_marias)d. If the last trick was reserved and nobody collected its cards (R13), write yes in "
            "the reserved column; otherwise correct the counts.", hearts=error.hearts,
            all_hearts=rules.HEARTS_IN_HAND, marias=error.marias, all_marias=rules.MARIAS_IN_HAND)) from None
    except rules.MoonChoiceNeeded as error:
        # Translators: "subtract", "moon" and "add" are words of the file, kept in English.
        raise LineRefused(line, _(
            "%(name)s took all %(hearts)d hearts and both Black Marias: they shot the moon! Write subtract in the "
            "moon column if they subtracted %(points)d, or add if everyone else added %(points)d (R15).",
            name=seated[error.shooter], hearts=rules.HEARTS_IN_HAND, points=rules.SEEDS.moon_points)) from None
    except rules.RuleError as error:
        raise LineRefused(line, describe(error, seated)) from None
    if moon is not None and record.moon is None:  # the form drops a choice nobody needs; a file gave it
        raise LineRefused(line, describe(rules.NoMoonShot(), seated))
    return record

