"""The game document: export a game as JSON and import one, all or nothing.

The format is documented in docs/game-format.md. Derived fields (dealer,
pass, points, totals, status, winners, next) are written for readers and
ignored on import, where everything is recomputed by the rules engine.
"""

import json
from datetime import date

import click
from flask.cli import with_appcontext

from . import rules
from .forms import player_name_errors
from .i18n import _
from .models import GAME_NAME_LENGTH, LARGEST_TARGET, Game, Hand, Player, Trick, TrickLog, cards_text, db

FORMAT = "scorekeeper/cancellation-hearts"
VERSION = 1


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


def read_game(document):
    """Check a document completely and return a new, unsaved ``Game`` (or raise ``DocumentError``)."""
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
    records = [_read_hand(hand, number, len(names)) for number, hand in enumerate(hands, start=1)]
    logs = [_read_tricks(hand, number, len(names)) for number, hand in enumerate(hands, start=1)]
    try:
        rules.score_game(len(names), first_dealer, target, records)
    except rules.HandAfterGameOver as error:
        raise DocumentError(_(
            "The game was over after hand %(number)d (R16), but the document has hands after it.",
            number=error.ended_after)) from None

    game = Game(
        name=name.strip() or date.today().isoformat(),
        target=target,
        first_dealer=first_dealer,
        players=[Player(seat=seat, name=player) for seat, player in enumerate(names)],
    )
    for number, (record, log) in enumerate(zip(records, logs), start=1):
        hand = Hand(number=number)
        hand.set_facts(record)
        game.hands.append(hand)
        if log is not None:
            log.hand = hand
            game.trick_logs.append(log)
    return game


def _read_hand(hand, number, players):
    """One hand of a document as an engine record, checked against R13-R15."""
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
    try:
        left_over = rules.check_takings(dict(enumerate(takings)))
    except ValueError:
        raise DocumentError(_(
            "%(where)s: more than 26 hearts or 2 Black Marias were taken (R14).", where=where)) from None
    if uncollected != left_over:
        raise DocumentError(_(
            "%(where)s: hearts taken plus uncollected must make 26, and Black Marias 2 (R13, R14).",
            where=where))
    moon = _field(hand, "moon", where)
    if moon not in (None, rules.Moon.SUBTRACT.value, rules.Moon.ADD.value):
        raise DocumentError(_("%(where)s: \"moon\" must be null, \"subtract\" or \"add\".", where=where))
    shooter = rules.moon_shooter(dict(enumerate(takings)))
    if moon is not None and shooter is None:
        raise DocumentError(_(
            "%(where)s has a moon choice, but nobody took all 26 hearts and both Black Marias (R15).",
            where=where))
    if moon is None and shooter is not None:
        raise DocumentError(_(
            "%(where)s: seat %(seat)d shot the moon, but the choice (\"subtract\" or \"add\") is missing (R15).",
            where=where, seat=shooter))
    return rules.HandRecord(takings, None if moon is None else rules.Moon(moon))


def _read_tricks(hand, number, players):
    """A hand's optional trick log as an unsaved ``TrickLog``, checked by replaying it (R6-R13)."""
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
    log = TrickLog(first_leader=first_leader)
    try:
        if kitty is not None:
            if not isinstance(kitty, list) or len(kitty) != rules.deal(players).kitty:
                raise ValueError("kitty size")
            log.kitty = cards_text(rules.parse_cards(kitty))
        for trick_number, trick in enumerate(tricks["played"], start=1):
            if not isinstance(trick, dict) or not isinstance(trick.get("cards"), list) \
                    or not isinstance(trick.get("confirmed", False), bool):
                raise ValueError("trick shape")
            cards = rules.parse_cards(trick["cards"])
            log.tricks.append(Trick(number=trick_number, cards=cards_text(cards), confirmed=trick.get("confirmed", False)))
        log.replay(players)
    except ValueError:
        raise DocumentError(_(
            "%(where)s: the tricks cannot have been played as written (cards, kitty, leads or trick sizes; R2-R13).",
            where=where)) from None
    return log


def _read_taken(entry, where, key="taken"):
    if not isinstance(entry, dict) or not _whole(entry.get("hearts")) or not _whole(entry.get("marias")):
        raise DocumentError(_(
            "%(where)s: each \"%(key)s\" entry needs whole numbers \"hearts\" and \"marias\".", where=where, key=key))
    if not 0 <= entry["hearts"] <= rules.HEARTS_IN_HAND or not 0 <= entry["marias"] <= rules.MARIAS_IN_HAND:
        raise DocumentError(_(
            "%(where)s: hearts are 0 to 26 and Black Marias 0 to 2 (R14).", where=where))
    return rules.Taken(entry["hearts"], entry["marias"])


def import_text(text):
    """Create a game from document text in one transaction; return it."""
    game = read_game(parse_document(text))
    db.session.add(game)
    db.session.commit()
    return game


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
        game = import_text(file.read())
    except DocumentError as error:
        raise click.ClickException(str(error)) from None
    click.echo(game.id)


def init_app(app):
    app.cli.add_command(export_game_command)
    app.cli.add_command(import_game_command)
