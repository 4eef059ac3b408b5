"""Joins and leaves raced by other devices: a 409 with the form kept, never a 500 nor a refusal the table
did not earn (R1).

A page reads a game in several statements; a write committed between them (PostgreSQL reads each statement
at the newest commit, and so does SQLite outside a transaction) once left a leave's page holding a join's
seat change without its joiner: the engine counted five starters and refused the table (``TableSize``), a
500. Each such moment is made here on purpose, the other device's write slipped in between two of the
page's reads; then a few rounds of a join racing six leaves, as phones would.
"""

import threading

import pytest
from sqlalchemy import event, select

from scorekeeper import rules, service
from scorekeeper.db.models import Game, db
from scorekeeper.web.responses import load_game

from .tabletop import ELEVEN, SIX, create_game, hidden_fields, on_threads, record_hand, text_of
from .test_house_rules_and_seats import SPREAD

ROUNDS = 4  # of the race, on SQLite and on PostgreSQL alike: the moments above are each made on purpose


def a_game_after_one_hand(client, names=SIX):
    game_id = create_game(client, names)
    record_hand(client, game_id, [*SPREAD, *[(0, 0)] * (len(names) - len(SPREAD))])
    return game_id


def other_device(app, game_id, change):
    """Make ``change`` (a function of the game, the whole game as loaded now) as another device would, on a
    session of its own, and wait for its commit; what it raised, if anything."""
    raised = []

    def run(_place, _change):
        with app.app_context():
            try:
                change(load_game(game_id))
            except Exception as error:  # noqa: BLE001 - handed to the test, which fails on it
                raised.append(error)
            finally:
                db.session.remove()

    on_threads(run, [change])
    return raised


def slipped_in(app, game_id, change, before="FROM seat_change", nth=1):
    """While this thread's ``nth`` statement holding ``before`` is about to run, another device makes
    ``change``."""
    page = threading.get_ident()
    seen, done = [], []

    def between(_connection, _cursor, statement, _parameters, _context, _executemany):
        if threading.get_ident() == page and not done and before in statement:
            seen.append(statement)
            if len(seen) == nth:
                done.append(other_device(app, game_id, change))

    event.listen(db.engine, "before_cursor_execute", between)
    return lambda: event.remove(db.engine, "before_cursor_execute", between) or done


def joins(name):
    return lambda game: service.seat_player(game, name, 0, rules.StartRule.HIGHEST, game.revision)


def leaves(player):
    return lambda game: service.see_off(game, player, game.revision)


JOIN_FIELDS = {"name": "Zoë", "at": "0", "start_rule": "highest", "start": ""}
PAGES = {  # what the phone sends (with the form it holds), and what it is answered when a change slipped in
    "the leave page": (lambda client, url, form: client.get(f"{url}/seating/leave?player=2"), 200),
    "a leave": (lambda client, url, form: client.post(f"{url}/seating/leave", data={**form, "player": "2"}), 409),
    "the seating page": (lambda client, url, form: client.get(f"{url}/seating"), 200),
    "a join": (lambda client, url, form: client.post(f"{url}/seating", data={**form, **JOIN_FIELDS}), 409),
    "the trail": (lambda client, url, form: client.get(f"{url}/trail"), 200),
}


@pytest.mark.parametrize(("page", "other"), [*((page, "a join") for page in PAGES), ("a leave", "a leave"),
                                             ("a join", "a leave")])
def test_a_seat_change_slipped_in_between_a_pages_reads_of_the_game_is_a_conflict_not_a_500(app, client, page,
                                                                                              other):
    """Six players and a join (the engine counted five starters), or eight and a leave."""
    game_id = a_game_after_one_hand(client, ELEVEN[:6] if other == "a join" else ELEVEN[:8])
    form = hidden_fields(client, f"/games/{game_id}/seating")  # as the phone holds it
    send, answer = PAGES[page]
    with app.app_context():
        stop = slipped_in(app, game_id, joins("Yan") if other == "a join" else leaves(4))
        try:
            response = send(client, f"/games/{game_id}", form)
        finally:
            slipped = stop()

    assert slipped == [[]], f"the other device's change was not made: {slipped}"
    assert response.status_code == answer, text_of(response)[:300]
    if page == "a join":
        assert 'value="Zoë"' in response.get_data(as_text=True)  # what was typed, kept
    if page == "a leave":
        assert "Caio" in text_of(response)  # the leave asked again, of the game as it is now
    with app.app_context():
        game = load_game(game_id)
        assert [change.kind for change in game.seat_changes] == ["join" if other == "a join" else "leave"]


@pytest.mark.parametrize("sent", ["a leave from six", "a join to eleven"])
def test_a_change_refused_only_for_what_another_device_changed_after_the_read_is_a_conflict(app, client, sent):
    """The leave is refused (five would be left), the join too (twelve): but another device's join, or
    leave, landed once the page had read the game, and now the table can: a 409, the form as sent, not the
    refusal of a table that is no more (R1)."""
    names = SIX if sent == "a leave from six" else ELEVEN
    game_id = a_game_after_one_hand(client, names)
    form = hidden_fields(client, f"/games/{game_id}/seating/leave?player=0")  # a full table offers no join
    send = PAGES["a leave" if sent == "a leave from six" else "a join"][0]
    with app.app_context():
        change = joins("Yan") if sent == "a leave from six" else leaves(4)
        stop = slipped_in(app, game_id, change, before="SELECT game.revision", nth=2)  # after the whole read
        try:
            response = send(client, f"/games/{game_id}", form)
        finally:
            slipped = stop()

    assert slipped == [[]], f"the other device's change was not made: {slipped}"
    assert response.status_code == 409, text_of(response)[:300]
    if sent == "a leave from six":
        assert "Caio" in text_of(response) and "leaves" in text_of(response)  # asked again, of seven
    else:
        assert 'value="Zoë"' in response.get_data(as_text=True)


def test_the_service_turns_a_refusal_of_a_game_changed_since_it_was_read_into_a_conflict(app, client):
    """Twelve at a table is refused (R1), but only of the game as read: another device's leave came in since,
    and the service says so (``Conflict``) instead of refusing what the table can now do."""
    game_id = a_game_after_one_hand(client, ELEVEN)
    with app.app_context():
        game = load_game(game_id)
        other_device(app, game_id, leaves(4))

        with pytest.raises(service.Conflict):
            service.seat_player(game, "Zoë", 0, 0, game.revision)
        db.session.remove()
        game = load_game(game_id)
        service.seat_player(game, "Zoë", 0, 0, game.revision)  # as the 409 page offers it again: made
        db.session.remove()

        assert len(load_game(game_id).scoreboard().next_hand.seating) == 11


def test_a_join_racing_six_leaves_ends_each_as_made_refused_or_a_conflict(app, client):
    """Seven phones at once: one seats a seventh player, six see a player off each; whatever wins, every
    answer is a redirect, a refusal in words (400) or a 409 with the form, and the game stays whole (R1)."""
    outcomes = []
    for _round in range(ROUNDS):
        game_id = a_game_after_one_hand(client)
        phones = [app.test_client() for _ in range(7)]
        for phone in phones:
            with phone.session_transaction() as session, client.session_transaction() as scorer:
                session.update(scorer)
        forms = [hidden_fields(phone, f"/games/{game_id}/seating") for phone in phones]
        barrier = threading.Barrier(len(phones))
        statuses = [None] * len(phones)

        def send(place, phone, game_id=game_id, barrier=barrier, statuses=statuses):
            barrier.wait()
            try:
                if place == 0:
                    response = phone.post(f"/games/{game_id}/seating", data={**forms[place], **JOIN_FIELDS})
                else:
                    response = phone.post(f"/games/{game_id}/seating/leave",
                                          data={**forms[place], "player": str(place - 1)})
                statuses[place] = response.status_code
            except Exception as error:  # noqa: BLE001 - the outcome is what the test checks
                statuses[place] = repr(error)

        on_threads(send, phones)
        outcomes.append(statuses)
        assert all(status in (302, 400, 409) for status in statuses), statuses
        assert statuses.count(302) >= 1, statuses
        with app.app_context():
            game = load_game(game_id)
            assert 6 <= len(game.scoreboard().next_hand.seating) <= 7
            assert db.session.execute(select(Game.revision).where(Game.id == game_id)).scalar() == game.revision
    print(f"seating races: {outcomes}")
