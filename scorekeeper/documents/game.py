"""The game document: export a game as JSON and import one, all or nothing.

The format is documented in docs/game-format.md. Derived fields (dealer,
pass, points, totals, status, winners, next) are written for readers and
ignored on import, where everything is recomputed by the rules engine.
"""

import json

import click
from flask.cli import with_appcontext

from .. import rules, service
from ..db import needs_database
from ..db.models import GAME_NAME_LENGTH, LARGEST_ID, LARGEST_TARGET, Game, db
from ..service import days
from ..service import names as name_rules
from ..words.explain import describe, name_problem, player_name_errors, quoted
from ..words.i18n import _, names_list

FORMAT = "scorekeeper/cancellation-hearts"
VERSION = 2  # written; version 1 (no house rules, no seat changes) is read too
READABLE_VERSIONS = (1, 2)
# Far past any evening's game (about 30 hands), and what a guest may upload
# through the page: a game of thousands of hands costs every page it is on.
MOST_UPLOADED_HANDS = 200


class DocumentError(ValueError):
    """A game document that cannot be imported; the message names the problem."""


def export_game(game):
    """The game as a JSON-ready document (version 2: house rules, seat changes, players by name)."""
    board = game.scoreboard()
    names = game.names
    upcoming = board.next_hand
    jacks = bool(board.variant.jack_of_diamonds)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": game.name,
        "played_on": game.played_on.isoformat(),
        "target": game.target,
        "rules": board.variant.facts(),
        "players": names[:game.starting_players],
        "first_dealer": game.first_dealer,
        "seat_changes": [_export_seat_change(change.value(), names) for change in game.seat_changes],
        "hands": [
            {
                "number": summary.number,
                "taken": [_counts(taken, jacks) for taken in summary.taken],
                "uncollected": _counts(summary.uncollected, jacks),
                "moon": None if summary.moon is None else summary.moon.value,
                "seating": game.names_of(summary.seating),
                "dealer": names[summary.dealer],
                "pass": summary.direction.value,
                "points": list(summary.seat_points),
                "tricks": _export_tricks(game.log_of(hand), len(summary.seating), board.variant),
            }
            for summary, hand in zip(board.hands, game.hands)
        ],
        "totals": {names[player]: total for player, total in enumerate(board.totals)},
        "status": "over" if board.over else "open",
        "winners": game.names_of(board.winners),
        "left_after": {names[player]: number for player, number in board.left_after.items()},
        "next": None if upcoming is None else {
            "number": upcoming.number,
            "seating": game.names_of(upcoming.seating),
            "dealer": names[upcoming.dealer],
            "leader": names[upcoming.leader],
            "pass": upcoming.direction.value,
            "cards_passed": upcoming.cards_passed,
            "cards_each": upcoming.cards_each,
            "kitty": upcoming.kitty,
        },
    }


def _counts(taken, jacks):
    """A player's (or nobody's) takings as the document writes them: J♦ only when they score."""
    counts = {"hearts": taken.hearts, "marias": taken.marias}
    if jacks:
        counts["jacks"] = taken.jacks
    return counts


def _export_seat_change(change, names):
    if isinstance(change, rules.Join):
        return {"before_hand": change.before_hand, "join": names[change.player], "at": change.at,
                "start": change.start}
    return {"before_hand": change.before_hand, "leave": names[change.player]}


def _export_tricks(log, players, variant):
    """A hand's trick log, with each trick's winning seat derived (R9-R13)."""
    if log is None:
        return None
    play = log.replay(players, variant=variant)
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


def whole(value):
    """Whether ``value`` is a JSON whole number the database can hold: not a boolean (``true == 1`` in
    Python), not ``1.0``, not past a 32-bit integer (nor, then, a number no refusal could quote in a line)."""
    return type(value) is int and -LARGEST_ID <= value <= LARGEST_ID


def _read_played_on(text):
    """The day a document says the game was played (``"2026-11-20"``), or None when it says none: the import's
    day, then. A day before the first the club's secretary may give, or after tomorrow, is refused."""
    if text is None:
        return None
    day = days.iso_day(text)
    if day is None or not days.game_day_allowed(day):
        raise DocumentError(_("\"played_on\" must be the day the game was played, like 2026-12-01, from %(first)s "
                              "to %(last)s, tomorrow, as a clock may be a day behind.",
                              first=days.EARLIEST_GAME_DAY.isoformat(), last=days.latest_game_day().isoformat()))
    return day


def _json_quoted(value):
    """A document's value as a refusal quotes it: its JSON, about a line of it at most."""
    return quoted(json.dumps(value, ensure_ascii=False))


def _field(mapping, key, where):
    if key not in mapping:
        raise DocumentError(_("%(where)s has no \"%(key)s\" field.", where=where, key=key))
    return mapping[key]


def read_game(document, most_hands=None):
    """Check a document completely and return its ``service.GameFacts`` (or raise ``DocumentError``).

    ``most_hands`` bounds the hands a document may hold (a guest's upload);
    backups and the command line take games of any length.
    """
    if not isinstance(document, dict):
        raise DocumentError(_("The document must be a JSON object describing one game."))
    if document.get("format") != FORMAT:
        raise DocumentError(_("The document's \"format\" must be \"%(format)s\".", format=FORMAT))
    version = document.get("version")
    if not whole(version) or version not in READABLE_VERSIONS:
        raise DocumentError(_("This scorekeeper reads versions 1 and 2 of the game format only."))
    where = _("The game")

    name = document.get("name", "")
    # Written as it is, untrimmed: a line break at its end is refused too.
    reason = (name_rules.game_name_problem(name.strip())
              or (name_rules.CONTROL if name_rules.has_control_characters(name) else None)) \
        if isinstance(name, str) else name_rules.LONG
    if reason == name_rules.LONG:
        raise DocumentError(_("The game's \"name\" must be text of at most %(max)d characters.", max=GAME_NAME_LENGTH))
    if reason is not None:
        raise DocumentError(name_problem(reason))

    played_on = _read_played_on(document.get("played_on")) if version > 1 else None

    target = _field(document, "target", where)
    if not whole(target) or not 1 <= target <= LARGEST_TARGET:
        raise DocumentError(_("The \"target\" must be a whole number, 1 or more (R16)."))

    variant = _read_rules(document.get("rules", {}) if version > 1 else {})

    names = _field(document, "players", where)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise DocumentError(_("\"players\" must be a list of names."))
    names = [n.strip() for n in names]
    if not rules.MIN_PLAYERS <= len(names) <= rules.MAX_PLAYERS:
        raise DocumentError(_("A game has 6 to 11 players (R1), not %(count)d.", count=len(names)))
    starting = len(names)
    changes = _read_seat_changes(document.get("seat_changes", []) if version > 1 else [], names)
    joined = [position for position, (joiner, _change) in enumerate(changes, start=1) if joiner is not None]
    names += [joiner for joiner, _change in changes if joiner is not None]
    # Every name once, in one pass: the players of hand 1, then each joiner (checking the roster again for
    # each joiner made an import of thousands of seat changes cost seconds).
    problems = player_name_errors(names)
    if problems:
        seat, message = next(iter(problems.items()))
        if seat < starting:
            raise DocumentError(_("Player %(seat)d: %(problem)s", seat=seat + 1, problem=message))
        raise DocumentError(_("%(where)s: %(problem)s", problem=message,
                              where=_("Seat change %(number)d", number=joined[seat - starting])))

    first_dealer = _field(document, "first_dealer", where)
    if not whole(first_dealer) or not 0 <= first_dealer < len(names):
        raise DocumentError(_(
            "\"first_dealer\" must be a seat from 0 to %(last)d.", last=len(names) - 1))

    hands = _field(document, "hands", where)
    if not isinstance(hands, list):
        raise DocumentError(_("\"hands\" must be a list."))
    if most_hands is not None and len(hands) > most_hands:
        raise DocumentError(_("A game to import may hold at most %(most)d hands; this one holds %(count)d.",
                              most=most_hands, count=len(hands)))
    changes = [change for _name, change in changes]
    try:
        seatings = rules.seatings(starting, changes, len(hands), target)
    except rules.SeatingRefused as error:
        raise DocumentError(_("Seat changes: %(problem)s", problem=describe(error, names))) from None
    seated = [[names[player] for player in seating] for seating in seatings]  # each hand's players, by name
    records = [_read_hand(hand, number, seated[number - 1], variant) for number, hand in enumerate(hands, start=1)]
    logs = [read_tricks(hand, number, seated[number - 1], variant) for number, hand in enumerate(hands, start=1)]
    facts = service.GameFacts(name, target, first_dealer, tuple(names), tuple(records), tuple(logs), variant,
                              tuple(changes), played_on)
    try:
        return service.check_game(facts)
    except rules.HandAfterGameOver as error:
        raise DocumentError(_(
            "The game was over after hand %(number)d (R16), but the document has hands after it.",
            number=error.ended_after)) from None
    except rules.SeatingRefused as error:
        raise DocumentError(_("Seat changes: %(problem)s", problem=describe(error, names))) from None
    except service.TricksRefused as error:
        raise DocumentError(_("%(where)s, tricks: %(problem)s", where=_("Hand %(number)d", number=error.number),
                              problem=describe(error.error, seated[error.number - 1]))) from None


def _read_rules(facts):
    """A document's house rules as the engine's ``Variant`` (missing ones are the seeds')."""
    if not isinstance(facts, dict):
        raise DocumentError(_("\"rules\" must be an object of house rules."))
    try:
        return rules.Variant.from_facts(facts)
    except rules.HouseRuleRefused as error:
        raise DocumentError(_("The house rule \"%(name)s\" cannot be %(value)s.", name=quoted(error.name),
                              value=_json_quoted(error.value))) from None


def _read_seat_changes(entries, names):
    """A document's seat changes as (joiner's name or None, engine value), in the order made (R1).

    Leavers are named by name; each joiner takes the next roster number. Joiners' names are checked
    with the others' (``read_game``), once.
    """
    if not isinstance(entries, list):
        raise DocumentError(_("\"seat_changes\" must be a list."))
    roster = {}  # each name to its first roster number
    for number, name in enumerate(names):
        roster.setdefault(name, number)
    joiners = len(names)
    read = []
    for position, entry in enumerate(entries, start=1):
        where = _("Seat change %(number)d", number=position)
        if not isinstance(entry, dict) or not whole(entry.get("before_hand")) \
                or ("join" in entry) == ("leave" in entry):
            raise DocumentError(_(
                "%(where)s needs a whole number \"before_hand\" and either \"join\" or \"leave\" with a name.",
                where=where))
        before_hand = entry["before_hand"]
        if read and before_hand < read[-1][1].before_hand:
            raise DocumentError(_("Seat changes are listed in the order they were made, hand by hand; "
                                  "%(where)s is not.", where=where))
        if "leave" in entry:
            leaver = entry["leave"].strip() if isinstance(entry["leave"], str) else None
            if leaver not in roster:
                raise DocumentError(_("%(where)s: %(name)s is not a player of this game.", where=where,
                                      name=_json_quoted(entry["leave"])))
            read.append((None, rules.Leave(before_hand, roster[leaver])))
            continue
        joiner = entry["join"].strip() if isinstance(entry["join"], str) else ""
        at, start = entry.get("at"), entry.get("start")
        if not whole(at) or not whole(start) or abs(start) > LARGEST_TARGET:
            raise DocumentError(_("%(where)s: a joiner needs a whole number \"at\" (their place) and \"start\" "
                                  "(the total they begin with).", where=where))
        read.append((joiner, rules.Join(before_hand, joiners, at, start)))
        roster.setdefault(joiner, joiners)
        joiners += 1
    return read


def _read_hand(hand, number, names, variant):
    """One hand of a document as an engine record, checked through the engine (R13-R15).

    ``names`` are the players of the hand, in its seating order.
    """
    players = len(names)
    jacks = bool(variant.jack_of_diamonds)
    where = _("Hand %(number)d", number=number)
    if not isinstance(hand, dict):
        raise DocumentError(_("%(where)s must be a JSON object.", where=where))
    given = _field(hand, "number", where)
    if not whole(given) or given != number:  # 1.0 == True == 1 in Python; the format says 1
        raise DocumentError(_("Hands must be numbered 1, 2, 3… in order; hand %(number)d is not.", number=number))
    taken = _field(hand, "taken", where)
    seating = hand.get("seating")
    if not isinstance(taken, list) or len(taken) != players or (
            seating is not None and (not isinstance(seating, list) or seating != names)):
        raise DocumentError(_(
            "%(where)s: \"taken\" must list one entry per player of the hand, in its seating: %(names)s.",
            where=where, names=names_list(names)))
    takings = tuple(_read_taken(entry, where, jacks) for entry in taken)
    uncollected = _read_taken(_field(hand, "uncollected", where), where, jacks, "uncollected")
    moon = _field(hand, "moon", where)
    if moon not in (None, rules.Moon.SUBTRACT.value, rules.Moon.ADD.value):
        raise DocumentError(_("%(where)s: \"moon\" must be null, \"subtract\" or \"add\".", where=where))
    try:
        record = rules.check_record(takings, moon, variant)  # a house rule's only choice is kept as the choice made
    except rules.RuleError as error:
        raise DocumentError(_("%(where)s: %(problem)s", where=where, problem=describe(error, names))) from None
    if uncollected != record.uncollected and jacks:
        raise DocumentError(_(
            "%(where)s: hearts taken plus uncollected must make %(hearts)d, Black Marias %(marias)d "
            "and J♦ %(jacks)d (R13, R14).", where=where, hearts=rules.HEARTS_IN_HAND,
            marias=rules.MARIAS_IN_HAND, jacks=rules.JACKS_IN_HAND))
    if uncollected != record.uncollected:
        raise DocumentError(_(
            "%(where)s: hearts taken plus uncollected must make %(hearts)d, and Black Marias %(marias)d (R13, R14).",
            where=where, hearts=rules.HEARTS_IN_HAND, marias=rules.MARIAS_IN_HAND))
    return record


def read_tricks(hand, number, names, variant):
    """A hand's optional trick log as a ``rules.PlayedLog``, its cards read; the service plays it through (R6-R13).

    ``names`` are the players of the hand, in its seating order.
    """
    players = len(names)
    where = _("Hand %(number)d", number=number)
    tricks = hand.get("tricks")
    if tricks is None:
        return None
    if not isinstance(tricks, dict) or not isinstance(tricks.get("played"), list):
        raise DocumentError(_("%(where)s: \"tricks\" must be null or an object with a \"played\" list.", where=where))
    first_leader = tricks.get("first_leader")
    if not whole(first_leader) or not 0 <= first_leader < players:
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
        return rules.PlayedLog(
            first_leader,
            rules.parse_cards(kitty or ()),
            tuple((rules.parse_cards(trick["cards"]), trick.get("confirmed", False)) for trick in played),
        )
    except rules.RuleError as error:
        raise DocumentError(_(
            "%(where)s, tricks: %(problem)s", where=where, problem=describe(error, names))) from None


def _read_taken(entry, where, jacks, key="taken"):
    """One "taken" (or "uncollected") entry: hearts and Black Marias, and J♦ exactly when they score."""
    counts = (entry.get("hearts"), entry.get("marias")) if isinstance(entry, dict) else (None, None)
    if not all(whole(count) and count >= 0 for count in counts):
        raise DocumentError(_(
            "%(where)s: each \"%(key)s\" entry needs whole numbers \"hearts\" and \"marias\".", where=where, key=key))
    if not jacks:
        if not whole(entry.get("jacks", 0)):
            raise DocumentError(_("%(where)s: \"jacks\" in a \"%(key)s\" entry must be a whole number.",
                                  where=where, key=key))
        if entry.get("jacks", 0) != 0:
            raise DocumentError(_(
                "%(where)s: J♦ are counted, but this game's house rules do not score them.", where=where))
        return rules.Taken(entry["hearts"], entry["marias"])
    if not whole(entry.get("jacks")) or entry["jacks"] < 0:
        raise DocumentError(_(
            "%(where)s: each \"%(key)s\" entry needs a whole number \"jacks\" too: this game scores J♦.",
            where=where, key=key))
    return rules.Taken(entry["hearts"], entry["marias"], entry["jacks"])


def read_text(text, most_hands=None):
    """The ``service.GameFacts`` of a game document's text (bytes or str), or ``DocumentError``."""
    return read_game(parse_document(text), most_hands)


@click.command("export-game")
@click.argument("game_id", type=int)
@with_appcontext
@needs_database
def export_game_command(game_id):
    """Print game GAME_ID as a JSON document."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"No game has id {game_id}.")
    click.echo(dumps(export_game(game)), nl=False)


@click.command("import-game")
@click.argument("file", type=click.File("rb"))
@with_appcontext
@needs_database
def import_game_command(file):
    """Create a game from a JSON document FILE ('-' reads standard input) and print its id."""
    try:
        game = service.import_game(read_text(file.read()))
    except DocumentError as error:
        raise click.ClickException(str(error)) from None
    except service.SamePerson as error:
        raise click.ClickException(f"{error} here (merged); nothing was imported.") from None
    except service.Conflict:
        raise click.ClickException("The database refused the game; nothing was imported.") from None
    click.echo(game.id)


def init_app(app):
    app.cli.add_command(export_game_command)
    app.cli.add_command(import_game_command)
