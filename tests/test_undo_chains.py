"""One device's undo chains: an entry undone and its undo undone, again and again, whatever else the club does
meanwhile, is never refused as if another device had changed the game (R17).

The trail names seat changes and trick logs by their ids; an undo puts a seat change back under its id.
SQLite gave a new row the highest id in use plus one, so the id a deleted row had went to the next row of
any game: these are the chains that broke on it, each replayed through the service as the trail's state
machine (tests/test_trail.py) calls it, and the upgrade that keeps those ids from being handed out again.
"""

import json
import random

import pytest
import sqlalchemy as sa
from alembic import command

from scorekeeper import rules, service
from scorekeeper.db.migrate import alembic_config
from scorekeeper.db.models import db

from .conftest import SERVER_DATABASE
from .tabletop import ELEVEN, at_table, random_taken
from .test_table import assert_round_trips, fresh, same_game
from .test_trail import play_next, undo_and_undo_again


@pytest.fixture
def in_app(app):
    with app.app_context():
        yield app


def newest(game):
    return service.trail(game)[0]


def undo_newest(game_id):
    game = fresh(game_id)
    service.undo(game, newest(game).change.id, game.revision)
    return fresh(game_id)


def recorded(game, seed=1):
    service.record_hand(at_table(game), random_taken(random.Random(seed), len(game.scoreboard().next_hand.seating)),
                        None, False, game.revision)
    return fresh(game.id)


def test_the_chain_of_issue_33_undone_and_undone_again_is_never_a_conflict(in_app):
    """Found by the trail's state machine: 7 players, a leave (refused before hand 2), a hand, a join; undo
    the join, undo that undo, undo again; house rules, and the machine's export-import round trip, whose new
    game's players took the ids the undo had freed; undo (the joiner back), a join, undo it and undo that."""
    game = service.new_game("Every kind", 100_000, 0, ELEVEN[:7])
    with pytest.raises(rules.SeatingRefused):
        service.see_off(game, 0, game.revision)
    game = recorded(fresh(game.id))
    service.seat_player(game, "Zoë", 2, rules.StartRule.AVERAGE, game.revision)
    for _ in range(3):
        game = undo_newest(game.id)
    service.change_house_rules(game, rules.Variant(moon_points=52), game.revision)
    assert_round_trips(fresh(game.id))
    game = fresh(game.id)
    zoe_taken_back = next(line for line in service.trail(game) if line.subject is service.Subject.SEATS)
    service.undo(game, zoe_taken_back.change.id, game.revision)
    game = fresh(game.id)
    service.seat_player(game, "Lía", 3, rules.StartRule.AVERAGE, game.revision)
    game = fresh(game.id)

    assert undo_and_undo_again(game, newest(game))
    assert fresh(game.id).names[-2:] == ["Zoë", "Lía"]


def test_a_joiner_sits_again_after_another_game_started(in_app):
    game = recorded(service.new_game("One", 1000, 0, ELEVEN[:7]))
    service.seat_player(game, "Zoë", 0, 0, game.revision)
    game = undo_newest(game.id)

    service.new_game("Another table", 1000, 0, ELEVEN[:9])  # its players take the ids the undo freed
    game = undo_newest(game.id)

    assert fresh(game.id).names[-1] == "Zoë"


def test_a_leaver_leaves_again_after_another_game_changed_its_seats(in_app):
    game_id = recorded(service.new_game("One", 1000, 0, ELEVEN[:7])).id
    other_id = recorded(service.new_game("Another table", 1000, 0, ELEVEN[:8])).id
    game = fresh(game_id)
    service.see_off(game, 3, game.revision)
    leave = newest(fresh(game_id)).after["id"]
    undo_newest(game_id)

    other = fresh(other_id)
    service.see_off(other, 0, other.revision)  # the newest seat change of the club: once given the id freed
    undo_newest(game_id)

    assert [change.id for change in fresh(game_id).seat_changes] == [leave]
    assert [change.id for change in fresh(other_id).seat_changes] != [leave]


def test_a_trick_taken_back_in_one_hand_is_never_offered_in_the_next(in_app):
    """The second hand's log was given the id of the first's, deleted when that hand was recorded with its
    tricks all taken back: the first hand's taken-back trick was offered, and entered, in the second."""
    game = play_next(recorded(service.new_game("One", 100_000, 0, ELEVEN[:9])))
    service.take_back_trick(game, game.revision)
    game = play_next(recorded(fresh(game.id), seed=2))
    service.take_back_trick(game, game.revision)
    game = fresh(game.id)

    taken_back = [line for line in service.trail(game) if line.subject is service.Subject.TRICKS and line.undoable]

    assert [line.before["log"] for line in taken_back] == [game.trick_log.id]


def test_a_seat_change_after_the_tricks_were_taken_back_leaves_the_next_lead_to_the_table_as_it_sits(in_app):
    """Found by the trail's state machine: a log whose tricks were all taken back kept who was to lead at a
    table of nine; a leave made it eight, and every page that replays the open hand failed (R1, R4)."""
    game = recorded(service.new_game("One", 100_000, 0, ELEVEN[:9]))
    for undo in (False, True):
        game = play_next(fresh(game.id))
        service.take_back_trick(game, game.revision)
        game = fresh(game.id)
        if undo:
            service.undo(game, next(line for line in service.trail(game) if line.origin_action is service.Action.LEAVE
                                    and line.undoable).change.id, game.revision)
        else:
            service.see_off(game, 8, game.revision)
        game = fresh(game.id)

        board, log, play = service.open_play(game)
        taken_back = next(line for line in service.trail(game) if line.subject is service.Subject.TRICKS)

        assert log is None and play.leader == board.next_hand.place(board.next_hand.leader)
        assert not taken_back.undoable and taken_back.blocked_by.subject is service.Subject.SEATS
        before = same_game(game)
        assert undo_and_undo_again(game, newest(game)) and same_game(fresh(game.id)) == before


def test_a_trick_after_the_kitty_undone_and_its_undo_undone_with_the_kitty_undone_too(in_app):
    """Found by the trail's state machine: the kitty was undone (to be said again) while a trick after it
    stood; that trick taken back could not be put back ("say what the kitty held first") (R12, R17)."""
    game = recorded(service.new_game("One", 100_000, 0, ELEVEN[:7]))  # 104 cards to 7: a kitty of 6
    while game.trick_log is None or not game.trick_log.kitty:
        game = play_next(game)
    game = play_next(game)
    kitty = next(line for line in service.trail(game) if line.action is service.Action.KITTY)
    service.undo(game, kitty.change.id, game.revision)
    game = fresh(game.id)
    trick = next(line for line in service.trail(game) if line.action is service.Action.TRICK and line.undoable)

    assert undo_and_undo_again(game, trick)
    assert fresh(game.id).trick_log.kitty is None


# --- The upgrade: ids the trail names are never handed out again ------------------------------------------


@pytest.mark.skipif(bool(SERVER_DATABASE), reason="PostgreSQL's sequences never hand out an id twice: 0010 does "
                    "nothing there")
def test_the_upgrade_keeps_every_row_and_never_hands_out_an_id_the_trail_names(empty_database_uri):
    """0010 rebuilds seat_change and trick_log (SQLite's AUTOINCREMENT): every seat change, log and trick
    stays, and a new row's id is past every id a trail entry names, even one deleted before the upgrade."""
    engine = sa.create_engine(empty_database_uri)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0009")
        fill_seats_and_tricks(connection)
        before = held(connection)
        command.upgrade(alembic_config(connection), "0010")

        after = held(connection)
        connection.execute(sa.text("INSERT INTO seat_change (game_id, before_hand, kind, player) "
                                   "VALUES (1, 2, 'leave', 1)"))
        connection.execute(sa.text("INSERT INTO trick_log (game_id, first_leader) VALUES (1, 0)"))
        new_ids = [connection.execute(sa.text(f"SELECT MAX(id) FROM {table}")).scalar()
                   for table in ("seat_change", "trick_log")]
    engine.dispose()

    assert after == before
    assert new_ids[0] > 9 and new_ids[1] > 7  # past the seat change and the log only the trail still names


def fill_seats_and_tricks(connection):
    """A game at 0009 with two seat changes, a log of two tricks, and trail entries naming a seat change
    (9) and a log (7) an undo deleted, the newest of each."""
    connection.execute(sa.text("INSERT INTO game (id, name, target, first_dealer, created_at, revision, scorer_key) "
                               "VALUES (1, 'G', 150, 0, '2027-01-01', 5, 'k')"))
    connection.execute(sa.text("INSERT INTO seat_change (id, game_id, before_hand, kind, player, at, start) "
                               "VALUES (3, 1, 2, 'join', 6, 0, 0), (4, 1, 3, 'leave', 0, NULL, NULL)"))
    connection.execute(sa.text("INSERT INTO trick_log (id, game_id, first_leader, kitty) VALUES (5, 1, 1, NULL)"))
    connection.execute(sa.text("INSERT INTO trick (log_id, number, cards, confirmed) "
                               "VALUES (5, 1, '2♣ 3♣ 4♣ 5♣ 6♣ 7♣', 0), (5, 2, '2♦ 3♦ 4♦ 5♦ 6♦ 7♦', 1)"))
    entries = [("undo", {"id": 9, "name": "Zoë", "kind": "join", "before_hand": 4, "player": 7, "at": 0,
                         "start": 0}, None),
               ("undo", {"log": 7, "trick": 1, "cards": "2♠ 3♠ 4♠ 5♠ 6♠ 7♠", "confirmed": True}, None)]
    for action, before, after in entries:
        connection.execute(sa.text("INSERT INTO change (game_id, at, action, hand_number, before, after) "
                                   "VALUES (1, '2027-01-01', :action, 4, :before, :after)"),
                           {"action": action, "before": json.dumps(before), "after": json.dumps(after)})


def held(connection):
    return [connection.execute(sa.text(f"SELECT * FROM {table} ORDER BY id")).all()
            for table in ("seat_change", "trick_log", "trick")]


def test_a_games_seat_changes_logs_and_tricks_go_with_it_in_the_rebuilt_tables(in_app):
    """The rebuilt tables keep their foreign keys: a trick needs its log, and a game's rows go with it."""
    game = recorded(service.new_game("One", 100_000, 0, ELEVEN[:9]))
    service.see_off(game, 8, game.revision)
    game = play_next(fresh(game.id))
    db.session.remove()

    with pytest.raises(sa.exc.IntegrityError):
        with db.session.begin():
            db.session.execute(sa.text("INSERT INTO trick (log_id, number, cards, confirmed) "
                                       "VALUES (999999, 1, '2♣', false)"))
    with db.session.begin():
        db.session.execute(sa.text("DELETE FROM game WHERE id = :game"), {"game": game.id})
    left = [db.session.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar()
            for table in ("seat_change", "trick_log", "trick")]

    assert left == [0, 0, 0]

