"""The trick log of a recorded hand names who really led, and says why when the deal has moved since (R4, R17)."""

from scorekeeper import service
from scorekeeper.db.models import Game, db, read_shown_game

from .tabletop import ELEVEN, create_game, record_hand, text_of
from .test_tricks import play_trick

NINE = ELEVEN[:9]
HAND_ONE = [(10, 1), (16, 1)] + [(0, 0)] * 7
HAND_TWO = [(26, 0), (0, 2)] + [(0, 0)] * 7


def played_after_a_hand(client):
    """Hand 1 (Ana deals) recorded by its counts; hand 2 (Bo deals, Caio leads) played trick by trick."""
    game_id = create_game(client, NINE)
    record_hand(client, game_id, HAND_ONE)
    assert play_trick(client, game_id, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1).status_code == 302
    record_hand(client, game_id, HAND_TWO)
    return game_id


def remove_hand(app, game_id, number):
    with app.app_context():
        game = db.session.get(Game, game_id)
        service.remove_hand(game, number, game.revision)


def test_the_trick_log_names_who_led_and_says_nothing_more_while_the_deal_stands(client):
    game_id = played_after_a_hand(client)

    log = text_of(client.get(f"/games/{game_id}/hands/2/tricks"))

    assert "Caio led the first trick." in log
    assert "These tricks were played with" not in log


def test_removing_an_earlier_hand_keeps_the_played_leader_and_explains_the_moved_deal(app, client):
    game_id = played_after_a_hand(client)

    remove_hand(app, game_id, 1)

    log = text_of(client.get(f"/games/{game_id}/hands/1/tricks"))
    assert "Caio led the first trick." in log
    assert ("These tricks were played with Caio leading the first trick. With the hands as recorded now, Ana "
            "deals this hand and Bo would lead (R4): an earlier hand was removed or put back since, which moves "
            "the deal (R17). The tricks are kept as they were played.") in log


def test_putting_the_removed_hand_back_puts_the_deal_back_too(app, client):
    game_id = played_after_a_hand(client)
    remove_hand(app, game_id, 1)

    with app.app_context():
        game = db.session.get(Game, game_id)
        removal = max(game.changes, key=lambda change: change.id)
        service.undo(game, removal.id, game.revision)

    log = text_of(client.get(f"/games/{game_id}/hands/2/tricks"))
    assert "Caio led the first trick." in log
    assert "These tricks were played with" not in log


def test_each_game_reads_its_own_open_trick_log_when_several_are_being_played(app, client):
    """Regression: the open log's columns once took any game's open log (and PostgreSQL refused the page)."""
    first, second, unplayed = (create_game(client, NINE) for _game in range(3))
    assert play_trick(client, first, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1).status_code == 302
    assert play_trick(client, second, "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 1).status_code == 302

    with app.app_context():
        shown = {game_id: read_shown_game(game_id).open_log_facts for game_id in (first, second, unplayed)}

    assert shown[first][1:] == (1, None, "K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣")
    assert shown[second][1:] == (1, None, "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣")
    assert shown[unplayed] is None
    for game_id in (first, second):
        assert client.get(f"/games/{game_id}").status_code == 200
