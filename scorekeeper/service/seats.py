"""A changing table and a game's own rules: players who join or leave (R1), house rules (R5, R14, R15)."""

from .. import rules
from ..db.models import (
    Player,
    SeatChange,
    db,
    variant_columns,
)
from .entries import Action, trail_game
from .errors import HandUnderWay, NameTaken
from .games import seat_change_columns
from .names import cleaned, refuse_repeats, seated_already
from .people import people_of
from .writing import refusals_of, writing


def change_house_rules(game, variant, based_on):
    """Play the game under other house rules from now on and through every recorded hand (R17).

    Refused (a ``rules.RuleError``) when a recorded hand does not fit them,
    e.g. J♦ counted where they no longer score.
    """
    before = game.variant
    if variant == before:
        return game
    with refusals_of(game):
        board = check_hands_under(game, variant)
    with writing(game, based_on, board=board):
        set_house_rules(game, variant)
        trail_game(game, Action.RULES, before=before.facts(), after=variant.facts())
    return game


def set_house_rules(game, variant):
    for column, value in variant_columns(variant).items():
        setattr(game, column, value)


def check_hands_under(game, variant):
    """Every recorded hand, and the game, under ``variant``: raises the engine's ``JacksFixed``,
    ``HandDoesNotFit`` or the game's own refusal (R16); the game's scoreboard under ``variant``."""
    records = game.records()
    rules.check_rules_change(records, game.variant, variant)
    return game.scoreboard(records, variant=variant)


def seat_player(game, name, at, start, based_on):
    """A player joins before the next hand, at place ``at`` of the seating as it stands, with ``start`` points (R1).

    ``start`` is a total or a ``rules.StartRule``; raises ``NameTaken`` for
    a name already in the game, or too alike one (naming the player as the game has them),
    ``SamePerson`` for a name too alike a person of the club it is not, and ``rules.SeatingRefused``
    for a table the rules cannot seat. ``name`` is kept ``cleaned``.
    """
    name = cleaned(name)
    seated_name = seated_already(name, game.names)  # "ana" or Cyrillic "Аna" beside "Ana"
    if seated_name is not None:
        raise NameTaken(seated_name)
    if isinstance(start, (rules.StartRule, str)):
        with refusals_of(game):
            start = rules.starting_total(game.scoreboard(), start)
    join = rules.Join(len(game.hands) + 1, len(game.names), at, start)
    _add_seat_change(game, join, name, based_on)
    return join


def see_off(game, player, based_on):
    """Player ``player`` (a roster number) leaves before the next hand, keeping their total (R1)."""
    leave = rules.Leave(len(game.hands) + 1, player)
    _add_seat_change(game, leave, game.names[player], based_on)
    return leave


def _add_seat_change(game, change, name, based_on):
    """Check a ``Join`` or ``Leave`` through the engine (after the game is over it refuses any), then store it
    with its trail entry; a joiner becomes a player of the game under ``name``. A refusal of a game another
    device has written to since it was read (a race of joins and leaves) is ``Conflict``."""
    with refusals_of(game):
        refuse_while_under_way(game)
        board = game.scoreboard(changes=game.seat_change_values() + [change])
    with writing(game, based_on, board=board):
        facts = with_log_dropped(game, seated(game, change, name))
        trail_game(game, Action(facts["kind"]), hand_number=change.before_hand, after=facts)


def refuse_while_under_way(game):
    """Raise ``HandUnderWay`` when the open hand has tricks entered, or its kitty (by the table as it sits
    now: another table's deal holds another kitty, R3)."""
    log = game.trick_log
    if log is not None and (log.tricks or log.kitty):
        raise HandUnderWay(len(game.hands) + 1, kitty_only=not log.tricks)


def with_log_dropped(game, facts):
    """Drop the open hand's trick log, if any, made before a seat change (or its undo) that ``facts`` are of.

    Only a log with every trick taken back and no kitty can be there (``refuse_while_under_way``); it holds
    no more than who was to lead, which the seat change moves: the next trick starts one for the table as
    it sits. The facts name it (``log``), as a recorded hand's do, so that the trail names the seat change
    as what stands in the way of its tricks' entries.
    """
    facts = {key: value for key, value in facts.items() if key != "log"}
    log = game.trick_log
    if log is not None:
        facts["log"] = log.id
        game.trick_logs.remove(log)
    return facts


def seated(game, change, name, row_id=None):
    """Write a ``Join`` or ``Leave`` (and a joiner's player, linked to their person); the facts the trail keeps.

    ``row_id`` puts back the seat change an undo took out under the id the trail names it by. A joiner's
    player is a new row each time: nothing names a player by its id (the game by its roster number, its
    figures by its seat), and the id an undo freed may be another game's player's by now (SQLite hands
    out the highest id freed again).
    """
    if isinstance(change, rules.Join):
        person = people_of([name], typed=row_id is None)[0]  # an undo seats a name the game had
        refuse_repeats([*game.names, name], [*(player.person_id for player in game.players), person])
        game.players.append(Player(seat=change.player, name=name, person_id=person))
    row = SeatChange(id=row_id, **seat_change_columns(change))
    game.seat_changes.append(row)
    db.session.flush()  # the row's id, for the trail to name it
    return {"id": row.id, "name": name, **seat_change_columns(change)}
