"""The game document: export a game as JSON and import one, all or nothing.

The format is documented in docs/game-format.md. Derived fields (dealer,
pass, points, totals, status, winners, next) are written for readers and
ignored on import, where everything is recomputed by the rules engine.
"""

import json

import click
from flask.cli import with_appcontext

from . import rules, table
from .explain import describe
from .forms import has_control_characters, player_name_errors
from .i18n import _
from .models import GAME_NAME_LENGTH, LARGEST_TARGET, Game, db

FORMAT = "scorekeeper/cancellation-hearts"
VERSION = 1
# Far past any evening's game (about 30 hands), and what a guest may upload
# through the page: a game of thousands of hands costs every page it is on.
MOST_UPLOADED_HANDS = 200


class DocumentError(ValueError):
    """A game document that cannot be imported; the message names the problem."""


def export_game(game):
    """The game as a JSON-ready document."""
    board = game.scoreboard()
    upcoming = board.next_hand
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": game.name,
        "target": game.target,
        "players": game.names,
        "first_dealer": game.first_dealer,
        "hands": [
            {
                "number": summary.number,
                "taken": [{"hearts": t.hearts, "marias": t.marias} for t in summary.taken],
                "uncollected": {"hearts": summary.uncollected.hearts, "marias": summary.uncollected.marias},
                "moon": None if summary.moon is None else summary.moon.value,
                "dealer": summary.dealer,
                "pass": summary.direction.value,
                "points": list(summary.points),
                "tricks": _export_tricks(game.log_of(hand), len(game.players)),
            }
            for summary, hand in zip(board.hands, game.hands)
        ],
        "totals": list(board.totals),
        "status": "over" if board.over else "open",
        "winners": list(board.winners),
        "next": None if upcoming is None else {
            "number": upcoming.number,
            "dealer": upcoming.dealer,
            "leader": upcoming.leader,
            "pass": upcoming.direction.value,
            "cards_each": upcoming.cards_each,
            "kitty": upcoming.kitty,
        },
    }


def _export_tricks(log, players):
    """A hand's trick log, with each trick's winning seat derived (R9-R13)."""
    if log is None:
        return None
    play = log.replay(players)
    return {
        "first_leader": log.first_leader,
        "kitty": [str(card) for card in log.kitty_cards] or None,
        "played": [
            {"cards": trick.cards.split(), "confirmed": trick.confirmed, "winner": played.winner}
            for trick, played in zip(log.tricks, play.tricks)
        ],
    }


def dumps(document):
    """The document as pretty, UTF-8 friendly JSON text."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def parse_document(text):
    """Parse JSON text into a document, or raise ``DocumentError``.

    Text the database could not store (a lone surrogate such as "\\ud800",
    which JSON allows) is refused here, whole.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DocumentError(_("The file is not UTF-8 text; export the game again and import that file.")) from None
    try:
        document = json.loads(text)
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError):
        raise DocumentError(_("The file is not valid JSON, so it is not a game exported by the scorekeeper.")) from None
    return document


def _whole(value):
    """Whether ``value`` is a JSON whole number (not a boolean, not 3.0)."""
    return type(value) is int


def _field(mapping, key, where):
    if key not in mapping:
        raise DocumentError(_("%(where)s has no \"%(key)s\" field.", where=where, key=key))
    return mapping[key]


def read_game(document, most_hands=None):
    """Check a document completely and return its ``table.GameFacts`` (or raise ``DocumentError``).

    ``most_hands`` bounds the hands a document may hold (a guest's upload);
    backups and the command line take games of any length.
    """
    if not isinstance(document, dict):
        raise DocumentError(_("The document must be a JSON object describing one game."))
    if document.get("format") != FORMAT:
        raise DocumentError(_("The document's \"format\" must be \"%(format)s\".", format=FORMAT))
    if document.get("version") != VERSION:
        raise DocumentError(_("This scorekeeper reads version %(version)d of the game format only.", version=VERSION))
    where = _("The game")

    name = document.get("name", "")
    if not isinstance(name, str) or len(name.strip()) > GAME_NAME_LENGTH:
        raise DocumentError(_("The game's \"name\" must be text of at most %(max)d characters.", max=GAME_NAME_LENGTH))
    if has_control_characters(name):
        raise DocumentError(_("A name cannot hold tabs, line breaks or other control characters."))

    target = _field(document, "target", where)
    if not _whole(target) or not 1 <= target <= LARGEST_TARGET:
        raise DocumentError(_("The \"target\" must be a whole number, 1 or more (R16)."))

    names = _field(document, "players", where)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise DocumentError(_("\"players\" must be a list of names."))
    names = [n.strip() for n in names]
    if not rules.MIN_PLAYERS <= len(names) <= rules.MAX_PLAYERS:
        raise DocumentError(_("A game has 6 to 11 players (R1), not %(count)d.", count=len(names)))
    problems = player_name_errors(names)
    if problems:
        seat, message = next(iter(problems.items()))
        raise DocumentError(_("Player %(seat)d: %(problem)s", seat=seat + 1, problem=message))

    first_dealer = _field(document, "first_dealer", where)
    if not _whole(first_dealer) or not 0 <= first_dealer < len(names):
        raise DocumentError(_(
            "\"first_dealer\" must be a seat from 0 to %(last)d.", last=len(names) - 1))

    hands = _field(document, "hands", where)
    if not isinstance(hands, list):
        raise DocumentError(_("\"hands\" must be a list."))
    if most_hands is not None and len(hands) > most_hands:
        raise DocumentError(_("A game to import may hold at most %(most)d hands; this one holds %(count)d.",
                              most=most_hands, count=len(hands)))
    records = [_read_hand(hand, number, names) for number, hand in enumerate(hands, start=1)]
    logs = [_read_tricks(hand, number, names) for number, hand in enumerate(hands, start=1)]
    try:
        rules.score_game(len(names), first_dealer, target, records)
    except rules.HandAfterGameOver as error:
        raise DocumentError(_(
            "The game was over after hand %(number)d (R16), but the document has hands after it.",
            number=error.ended_after)) from None
    return table.GameFacts(name, target, first_dealer, tuple(names), tuple(records), tuple(logs))


def _read_hand(hand, number, names):
    """One hand of a document as an engine record, checked through the engine (R13-R15)."""
    players = len(names)
    where = _("Hand %(number)d", number=number)
    if not isinstance(hand, dict):
        raise DocumentError(_("%(where)s must be a JSON object.", where=where))
    if _field(hand, "number", where) != number:
        raise DocumentError(_("Hands must be numbered 1, 2, 3… in order; hand %(number)d is not.", number=number))
    taken = _field(hand, "taken", where)
    if not isinstance(taken, list) or len(taken) != players:
        raise DocumentError(_(
            "%(where)s: \"taken\" must list one entry per player (%(count)d).", where=where, count=players))
    takings = tuple(_read_taken(entry, where) for entry in taken)
    uncollected = _read_taken(_field(hand, "uncollected", where), where, "uncollected")
    moon = _field(hand, "moon", where)
    if moon not in (None, rules.Moon.SUBTRACT.value, rules.Moon.ADD.value):
        raise DocumentError(_("%(where)s: \"moon\" must be null, \"subtract\" or \"add\".", where=where))
    record = rules.HandRecord(takings, None if moon is None else rules.Moon(moon))
    try:
        left_over = rules.check_takings(dict(enumerate(takings)))
        rules.score_hand(dict(enumerate(takings)), moon)
    except rules.RuleError as error:
        raise DocumentError(_("%(where)s: %(problem)s", where=where, problem=describe(error, names))) from None
    if uncollected != left_over:
        raise DocumentError(_(
            "%(where)s: hearts taken plus uncollected must make %(hearts)d, and Black Marias %(marias)d (R13, R14).",
            where=where, hearts=rules.HEARTS_IN_HAND, marias=rules.MARIAS_IN_HAND))
    return record


def _read_tricks(hand, number, names):
    """A hand's optional trick log as a ``table.PlayedLog``, checked by replaying it (R6-R13)."""
    players = len(names)
    where = _("Hand %(number)d", number=number)
    tricks = hand.get("tricks")
    if tricks is None:
        return None
    if not isinstance(tricks, dict) or not isinstance(tricks.get("played"), list):
        raise DocumentError(_("%(where)s: \"tricks\" must be null or an object with a \"played\" list.", where=where))
    first_leader = tricks.get("first_leader")
    if not _whole(first_leader) or not 0 <= first_leader < players:
        raise DocumentError(_("%(where)s: the tricks' \"first_leader\" must be a seat.", where=where))
    kitty = tricks.get("kitty")
    played = tricks["played"]
    if (kitty is not None and not isinstance(kitty, list)) or not all(
        isinstance(trick, dict) and isinstance(trick.get("cards"), list)
        and isinstance(trick.get("confirmed", False), bool)
        for trick in played
    ):
        raise DocumentError(_(
            "%(where)s: the tricks cannot have been played as written (cards, kitty, leads or trick sizes; R2-R13).",
            where=where))
    try:
        log = table.PlayedLog(
            first_leader,
            rules.parse_cards(kitty or ()),
            tuple((rules.parse_cards(trick["cards"]), trick.get("confirmed", False)) for trick in played),
        )
        table.check_log(log, players)
    except rules.RuleError as error:
        raise DocumentError(_(
            "%(where)s, tricks: %(problem)s", where=where, problem=describe(error, names))) from None
    return log


def _read_taken(entry, where, key="taken"):
    counts = (entry.get("hearts"), entry.get("marias")) if isinstance(entry, dict) else (None, None)
    if not all(_whole(count) and count >= 0 for count in counts):
        raise DocumentError(_(
            "%(where)s: each \"%(key)s\" entry needs whole numbers \"hearts\" and \"marias\".", where=where, key=key))
    return rules.Taken(entry["hearts"], entry["marias"])


def read_text(text, most_hands=None):
    """The ``table.GameFacts`` of a game document's text (bytes or str), or ``DocumentError``."""
    return read_game(parse_document(text), most_hands)


@click.command("export-game")
@click.argument("game_id", type=int)
@with_appcontext
def export_game_command(game_id):
    """Print game GAME_ID as a JSON document."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"No game has id {game_id}.")
    click.echo(dumps(export_game(game)), nl=False)


@click.command("import-game")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_game_command(file):
    """Create a game from a JSON document FILE ('-' reads standard input) and print its id."""
    try:
        game = table.import_game(read_text(file.read()))
    except DocumentError as error:
        raise click.ClickException(str(error)) from None
    except table.Conflict:
        raise click.ClickException("The database refused the game; nothing was imported.") from None
    click.echo(game.id)


def init_app(app):
    app.cli.add_command(export_game_command)
    app.cli.add_command(import_game_command)
