"""The trail with every kind of entry: hands, seat changes, house rules, tricks and the kitty (R1-R17).

A Hypothesis state machine changes a game at random through the service and
undoes entries at random; whenever an entry can be undone, undoing it and
then undoing that undo returns the very same game. Plain examples show each
kind once, and that seat changes wait while a hand's tricks are being entered.
"""

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from scorekeeper import rules, service
from scorekeeper.db.models import read_trail
from scorekeeper.web.game_pages import RECENT_CHANGES as NEWEST

from .profiles import examples
from .tabletop import DECK, ELEVEN, PLAYER_NAMES, assert_figures_are_fresh, at_table, random_taken
from .test_table import assert_round_trips, fresh, same_game

REFUSALS = (rules.RuleError, service.UndoRefused, service.KittyNeeded, service.NameTaken,
            service.SamePerson)
VARIANTS = [
    rules.SEEDS,
    rules.Variant(moon_points=52),
    rules.Variant(moon_choice=rules.MoonRule.ADD),
    rules.Variant(passing=(rules.Direction.LEFT, rules.Direction.RIGHT, rules.Direction.ACROSS), cards_passed=2),
    rules.Variant(jack_of_diamonds=-10),
]
OTHER_TABLE = st.sampled_from(["record", "join", "leave", "remove", "trick", "take back", "undo"])  # its changes
ROUND_TRIP_EVERY = 8  # rules between two export-import round trips of the game (and one at teardown)
UNDONE_AT_ONCE = Counter()  # the origin of each entry undone and then found the same after undoing the undo


@pytest.fixture
def in_app(app):
    with app.app_context():
        yield app


DEALS = {}  # game id -> the seed of its deals, when the state machine drew one


def deck_of(game_id, number):
    """The double deck as it was dealt for hand ``number`` of a game: the same on every replay (of a state
    machine's example too, whatever id its game gets then)."""
    deck = list(DECK)
    random.Random(f"{DEALS.get(game_id, game_id)} {number}").shuffle(deck)
    return deck


class EveryKindOfEntry(RuleBasedStateMachine):
    """Every change the service makes, and undos of any entry, undos of undos included."""

    def __init__(self):
        super().__init__()
        self.game_id = None
        self.other_id = None  # another table's game, changed meanwhile
        self.steps = 0  # rules run since the last export-import round trip

    @initialize(players=st.sampled_from([7, 9, 10]), deals=st.integers(0, 2**32))
    def start(self, players, deals):
        self.game_id = service.new_game("Every kind", 100_000, 0, ELEVEN[:players]).id
        DEALS[self.game_id] = f"deals {deals}"

    def game(self):
        return fresh(self.game_id)

    @rule(kind=st.sampled_from(["record", "record", "correct", "remove", "join", "leave", "house rules",
                                "trick", "trick", "trick", "take back"]),
          seed=st.integers(0, 2**32))
    def change(self, kind, seed):
        """Make a change of one kind; whatever the rules refuse changes nothing."""
        game = self.game()
        try:
            change_game(game, kind, random.Random(seed))
        except REFUSALS:
            assert self.game().revision == game.revision

    @rule(data=st.data())
    def undo(self, data):
        game = self.game()  # one load a rule: loading the whole game is most of this machine's time
        lines = service.trail(game)
        if lines:
            line = data.draw(st.sampled_from(lines))
            try:
                service.undo(game, line.change.id, game.revision)
            except REFUSALS:
                assert not line.undoable or self.game().revision == game.revision

    @rule(data=st.data())
    def undo_then_undo_the_undo(self, data):
        """Undoing an entry and then undoing that undo returns the very same game (R17)."""
        undoable = {}  # by the kind of change, so that every kind gets its turn
        game = self.game()
        for line in service.trail(game):
            if line.undoable:
                undoable.setdefault(line.origin_action, []).append(line)
        if undoable:
            kind = data.draw(st.sampled_from(sorted(undoable)))
            undo_and_undo_again(game, data.draw(st.sampled_from(undoable[kind])))

    @rule(data=st.data(), times=st.integers(3, 5))
    def undo_and_redo_over_and_over(self, data, times):
        """One device undoes an entry, then undoes each undo in turn, while another table may play on: the
        game goes back and forth between the two, and no undo of the chain is refused, nor a conflict (R17)."""
        game = self.game()
        undoable = {}  # by the kind of change, so that every kind gets its turn
        for line in service.trail(game):
            if line.undoable:
                undoable.setdefault(line.origin_action, []).append(line)
        if not undoable:
            return
        kind = data.draw(st.sampled_from(sorted(undoable)))
        line = data.draw(st.sampled_from(undoable[kind]))
        before = same_game(game)
        try:
            service.undo(game, line.change.id, game.revision)
        except REFUSALS:
            return
        undone = same_game(self.game())
        for _again in range(times - 1):
            if data.draw(st.booleans()):
                self.another_table(data.draw(OTHER_TABLE), data.draw(st.integers(0, 2**32)))
            game = self.game()
            newest = service.trail(game)[0]
            assert newest.undoable
            service.undo(game, newest.change.id, game.revision)
        assert same_game(self.game()) == (undone if times % 2 else before)
        UNDONE_AT_ONCE[kind] += 1

    @rule(kind=OTHER_TABLE, seed=st.integers(0, 2**32))
    def another_table(self, kind, seed):
        """Another table of the club changes its game meanwhile: its new rows take ids too (SQLite once gave
        them the ids of rows this game's undos had taken out, and putting those back was a conflict)."""
        rng = random.Random(seed)
        if self.other_id is None:  # a hand played, so that players can join and leave
            other = service.new_game("Another table", 100_000, 0, ELEVEN[:8])
            service.record_hand(at_table(other), random_taken(rng, 8), None, True, other.revision)
            self.other_id = other.id
        other = fresh(self.other_id)
        try:
            if kind == "undo":
                lines = [line for line in service.trail(other) if line.undoable]
                if lines:
                    service.undo(other, rng.choice(lines).change.id, other.revision)
            else:
                change_game(other, kind, rng)
        except REFUSALS:
            pass

    @invariant()
    def the_game_plays_on(self):
        """Whatever was undone, the game is whole: it scores, its open hand replays, its trail reads."""
        if self.game_id is None:
            return
        game = self.game()
        service.open_play(game)
        assert [hand.number for hand in game.hands] == list(range(1, len(game.hands) + 1))
        assert_newest_entries_read_alone_are_as_the_whole_trail_says(game)
        assert_figures_are_fresh([game.id])
        self.steps += 1  # invariants are checked once after each rule
        if self.steps == ROUND_TRIP_EVERY:
            self.steps = 0
            assert_round_trips(game)

    def teardown(self):
        if self.game_id is not None:
            assert_round_trips(self.game())


def assert_newest_entries_read_alone_are_as_the_whole_trail_says(game):
    """The table view reads only the trail's newest entries and the entries they undo (``read_trail``): each of
    those lines is as the whole trail has it, and the count is the whole trail's."""
    whole = service.trail(game)
    rows, count = read_trail(game.id, NEWEST)

    newest = service.trail(game, rows)[:NEWEST]

    assert count == len(whole)
    assert [line_facts(line) for line in newest] == [line_facts(line) for line in whole[:NEWEST]]


def line_facts(line):
    """What a trail line says, with the entries it names by their ids."""
    return (line.change.id, line.origin.id, line.subject, line.depth, line.before, line.after, line.holds, line.now,
            line.legacy, line.undoable, line.moved, *(None if other is None else other.change.id
                                                      for other in (line.undone_by, line.blocked_by)))


def change_game(game, kind, rng):
    """One change of ``kind`` to ``game`` through the service, chosen with ``rng``."""
    board = game.scoreboard()
    if kind == "record":
        taken = random_taken(rng, len(board.next_hand.seating), hearts=26 - (rng.random() < 0.2) * rng.randrange(4))
        moon = rules.Moon.ADD if rules.moon_shooter(dict(enumerate(taken))) is not None else None
        service.record_hand(at_table(game), taken, moon, True, game.revision)
    elif kind == "correct" and board.hands:
        number = rng.randrange(len(board.hands)) + 1
        service.correct_hand(game, number, random_taken(rng, len(board.hands[number - 1].seating)), None, False,
                           game.revision)
    elif kind == "remove" and board.hands:
        service.remove_hand(game, rng.randrange(len(board.hands)) + 1, game.revision)
    elif kind == "join":
        name = rng.choice([name for name in PLAYER_NAMES if name not in game.names])
        service.seat_player(game, name, rng.randrange(len(board.seating) + 1), rng.choice(list(rules.StartRule)[:3]),
                          game.revision)
    elif kind == "leave":
        service.see_off(game, rng.choice(board.seating), game.revision)
    elif kind == "house rules":
        service.change_house_rules(game, rng.choice(VARIANTS), game.revision)
    elif kind == "trick":
        play_next(game)
    elif kind == "take back":
        service.take_back_trick(game, game.revision)


def undo_and_undo_again(game, line):
    """Undo ``line``'s entry, then that undo: the very same game comes back. False if the rules refused the
    first undo (the game it would leave breaks them)."""
    before = same_game(game)
    try:
        service.undo(game, line.change.id, game.revision)
    except REFUSALS:
        return False
    game = fresh(game.id)
    newest = service.trail(game)[0]
    assert newest.change.undoes_id == line.change.id and newest.undoable
    service.undo(game, newest.change.id, game.revision)
    assert same_game(fresh(game.id)) == before
    UNDONE_AT_ONCE[line.origin_action] += 1
    return True


def test_random_changes_and_undos_of_every_kind_keep_the_game_whole(in_app):
    run_state_machine_as_test(type("Machine", (EveryKindOfEntry,), {}), settings=settings(
        max_examples=examples(15), stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))

    print("service: undone and undone again, the same game each time: "
          + ", ".join(f"{action.value} {count}" for action, count in sorted(UNDONE_AT_ONCE.items())))
    assert UNDONE_AT_ONCE


def test_every_kind_of_entry_undone_and_its_undo_undone_is_the_same_game(in_app):
    """After each step of a game with every kind of entry, every entry that can be undone is undone and
    its undo undone, and the game is the very same each time (R17)."""
    game = new_game(9)
    steps = ["record", "trick", "trick", "record", "correct", "join", "record", "leave", "house rules", "record",
             "remove", "trick", "trick", "take back", "trick"]
    rng = random.Random(7)
    tried = Counter()
    for kind in steps:
        change_game(fresh(game.id), kind, rng)
        for line in service.trail(fresh(game.id)):
            if line.undoable and undo_and_undo_again(fresh(game.id), line):
                tried[line.origin_action] += 1
                assert_figures_are_fresh([game.id])
        assert_figures_are_fresh([game.id])
    print(f"service: every kind undone and undone again after each step: {dict(tried)}")

    assert set(tried) == set(service.Action) - {service.Action.UNDO}


# --- Plain examples ---------------------------------------------------------------------


def new_game(players=9):
    return service.new_game("Plain", 1000, 0, ELEVEN[:players])


def play_next(game):
    """Enter the next trick of the open hand (from its dealt deck), or the kitty first if it is due."""
    board, log, play = service.open_play(game)
    deck = deck_of(game.id, board.next_hand.number)
    if play is None or play.finished:
        return game
    if service.kitty_needed(log, play):
        service.enter_kitty(game, deck[:play.deal.kitty], game.revision)
    else:
        cards = deck[play.deal.kitty:]
        service.play_trick(game, cards[len(play.tricks) * play.players:][:play.players], True, game.revision)
    return fresh(game.id)


def test_a_trick_taken_back_can_be_entered_again_by_undoing_the_take_back(in_app):
    game = play_next(play_next(new_game()))
    tricks = [trick.cards for trick in game.trick_log.tricks]

    service.take_back_trick(game, game.revision)
    game = fresh(game.id)
    taken_back = service.trail(game)[0]
    service.undo(game, taken_back.change.id, game.revision)

    game = fresh(game.id)
    assert [trick.cards for trick in game.trick_log.tricks] == tricks
    assert [line.action for line in service.trail(game)][:2] == [service.Action.UNDO, service.Action.UNDO]


def test_nobody_joins_while_a_hand_is_being_played_trick_by_trick(in_app):
    game = play_next(new_game())

    with pytest.raises(service.HandUnderWay):
        service.seat_player(game, "Zoë", 0, 0, game.revision)
    with pytest.raises(service.HandUnderWay):
        service.see_off(game, 0, game.revision)

    assert fresh(game.id).seat_changes == []


def test_nobody_joins_while_the_open_hands_kitty_stands_even_with_its_tricks_taken_back(in_app):
    """Regression (found by the state machine on PostgreSQL): a join after the tricks were taken back but
    not the kitty left a kitty of another table's deal, and every page of the game failed (R1, R3)."""
    game = new_game(7)  # 104 cards to 7: a kitty of 6
    service.record_hand(at_table(game), random_taken(random.Random(1), 7), None, False, game.revision)
    game = fresh(game.id)
    while game.trick_log is None or not game.trick_log.kitty:
        game = play_next(game)
    while service.take_back_trick(game, game.revision) is not None:
        game = fresh(game.id)

    with pytest.raises(service.HandUnderWay) as refused:
        service.seat_player(game, "Zoë", 0, 0, game.revision)
    game = fresh(game.id)
    kitty = next(line for line in service.trail(game) if line.action is service.Action.KITTY)
    service.undo(game, kitty.change.id, game.revision)
    game = fresh(game.id)
    service.seat_player(game, "Zoë", 0, 0, game.revision)

    assert refused.value.kitty_only
    assert [change.kind for change in fresh(game.id).seat_changes] == ["join"]
    service.open_play(fresh(game.id))  # eight players, no kitty: the hand plays on


def test_a_seat_change_waits_for_the_tricks_to_be_taken_back_and_names_them(in_app):
    game = new_game()
    service.record_hand(at_table(game), random_taken(random.Random(1), 9), None, False, game.revision)
    game = fresh(game.id)
    service.seat_player(game, "Zoë", 0, 0, game.revision)
    game = play_next(fresh(game.id))

    join = next(line for line in service.trail(game) if line.action is service.Action.JOIN)

    assert not join.undoable
    assert join.blocked_by.action is service.Action.TRICK


def test_a_removed_hand_put_back_and_removed_again_shows_its_figures_each_time(in_app, client):
    game = new_game(7)
    for seed in (1, 2, 3):
        service.record_hand(at_table(game), random_taken(random.Random(seed), 7), None, False, game.revision)
        game = fresh(game.id)
    service.remove_hand(game, 2, game.revision)
    game = fresh(game.id)
    service.undo(game, service.trail(game)[0].change.id, game.revision)
    game = fresh(game.id)
    service.undo(game, service.trail(game)[0].change.id, game.revision)
    game = fresh(game.id)

    removed = [line for line in service.trail(game) if line.subject is service.Subject.HAND
               and line.before is not None and line.after is None]

    assert [line.depth for line in removed] == [2, 0]
    assert all(line.before["taken"] == removed[0].before["taken"] for line in removed)
    assert "tricks" not in removed[0].before and removed[0].before["seats"] == []
