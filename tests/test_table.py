"""The service layer: every change to a game goes through scorekeeper.service (R13-R17).

Plain examples of each change and its refusals, the undo's semantics, two
writers at once, and a Hypothesis state machine that drives record,
correct, remove and undo (stale ones included) against a plain model.
"""

import random
import threading

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from scorekeeper import rules, service
from scorekeeper.db.models import Change, Game, db
from scorekeeper.documents.game import export_game, read_game
from scorekeeper.web.responses import load_game
from scorekeeper.words import explain

from .profiles import examples
from .tabletop import SIX, at_table, create_game, exported, hidden_fields, on_threads, random_taken, text_of
from .tabletop import record_hand as record_web

SPREAD = [rules.Taken(5, 0), rules.Taken(5, 1), rules.Taken(4, 0), rules.Taken(4, 1), rules.Taken(4, 0),
          rules.Taken(4, 0)]
OTHER = [rules.Taken(6, 0), rules.Taken(4, 0), rules.Taken(5, 1), rules.Taken(4, 0), rules.Taken(5, 1),
         rules.Taken(2, 0)]
MOON = [rules.Taken(26, 2)] + [rules.Taken(0, 0)] * 5
WEB_SPREAD = [(taken.hearts, taken.marias) for taken in SPREAD]


@pytest.fixture
def in_app(app):
    """The app's context, for calling the service directly (not ``context``: that is Playwright's fixture)."""
    with app.app_context():
        yield app


def new_game(target=150):
    return service.new_game("Friday", target, 0, SIX)


def fresh(game_id):
    """The game as a new request would load it."""
    db.session.remove()
    return load_game(game_id)


def record(game, taken=SPREAD, moon=None, reserved=False):
    service.record_hand(at_table(game), taken, moon, reserved, game.revision)
    return fresh(game.id)


def undo(game, change):
    service.undo(game, change.id, game.revision)
    return fresh(game.id)


def trail_of(game):
    """The trail, oldest first, as (action, hand number, undoable)."""
    return [(line.change.action, line.change.hand_number, line.undoable) for line in reversed(service.trail(game))]


def entry(game, action, number):
    """The newest trail entry of ``action`` on hand ``number``."""
    return next(line.change for line in service.trail(game)
                if line.change.action == action and line.change.hand_number == number)


# --- Each change, and what it refuses ------------------------------------------


def test_a_new_game_starts_at_revision_one_with_its_players_in_order(in_app):
    game = new_game()

    assert fresh(game.id).names == SIX
    assert fresh(game.id).revision == 1


@pytest.mark.parametrize("names, error", [(SIX[:5], rules.TableSize), (SIX * 2, rules.TableSize)])
def test_a_table_of_the_wrong_size_is_refused_by_the_engine(in_app, names, error):
    with pytest.raises(error):
        service.new_game("", 150, 0, names)

    assert db.session.execute(db.select(Game)).first() is None


def test_recording_a_hand_moves_the_revision_and_writes_the_trail(in_app):
    game = record(new_game())

    assert len(game.hands) == 1
    assert game.revision == 2
    assert trail_of(game) == [("record", 1, True)]


@pytest.mark.parametrize("taken, moon, reserved, error", [
    ([rules.Taken(27, 0)] + [rules.Taken(0, 0)] * 5, None, False, rules.MoreThanTheHandHolds),
    ([rules.Taken(20, 1), rules.Taken(10, 1)] + [rules.Taken(0, 0)] * 4, None, False, rules.MoreThanTheHandHolds),
    ([rules.Taken(20, 1)] + [rules.Taken(0, 0)] * 5, None, False, rules.CardsUnaccounted),
    (MOON, None, False, rules.MoonChoiceNeeded),
])
def test_a_hand_the_rules_refuse_changes_nothing(in_app, taken, moon, reserved, error):
    game = new_game()

    with pytest.raises(error):
        service.record_hand(at_table(game), taken, moon, reserved, game.revision)

    game = fresh(game.id)
    assert (len(game.hands), game.revision, game.changes) == (0, 1, [])


def test_a_player_given_too_many_hearts_is_named_by_seat(in_app):
    game = new_game()

    with pytest.raises(rules.MoreThanTheHandHolds) as refused:
        too_many = [rules.Taken(0, 0), rules.Taken(30, 0)] + [rules.Taken(0, 0)] * 4
        service.record_hand(at_table(game), too_many, None, False, 1)

    assert (refused.value.player, refused.value.what, refused.value.count, refused.value.most) == (1, "hearts", 30, 26)


def test_a_short_hand_is_recorded_once_the_table_says_the_last_trick_was_reserved(in_app):
    game = record(new_game(), [rules.Taken(20, 1)] + [rules.Taken(0, 0)] * 5, reserved=True)

    assert (game.hands[0].uncollected_hearts, game.hands[0].uncollected_marias) == (6, 1)


def test_a_stale_revision_is_a_conflict_and_changes_nothing(in_app):
    game = record(new_game())

    with pytest.raises(service.Conflict):
        service.record_hand(at_table(game), SPREAD, None, False, game.revision - 1)

    assert len(fresh(game.id).hands) == 1


def test_no_hand_follows_the_one_that_ended_the_game(in_app):
    game = record(new_game(target=10))

    with pytest.raises(rules.HandAfterGameOver):
        service.record_hand(at_table(game), SPREAD, None, False, game.revision)


def test_a_correction_keeps_the_old_facts_in_the_trail(in_app):
    game = record(new_game())

    service.correct_hand(game, 1, OTHER, None, False, game.revision)

    game = fresh(game.id)
    assert game.hands[0].record().taken == tuple(OTHER)
    assert Change.record_of(entry(game, "correct", 1).before).taken == tuple(SPREAD)


def test_removing_a_hand_renumbers_the_later_ones_and_keeps_their_keys(in_app):
    game = record(record(record(new_game()), OTHER))
    keys = [hand.key for hand in game.hands]

    service.remove_hand(game, 1, game.revision)

    game = fresh(game.id)
    assert [hand.number for hand in game.hands] == [1, 2]
    assert [hand.key for hand in game.hands] == keys[1:]


# --- Undo ------------------------------------------------------------------------


def test_an_undone_removal_offers_no_undo_again_and_a_forged_one_is_refused(in_app):
    """The bug that duplicated a hand: undo a removal, then undo it again."""
    game = record(record(record(new_game()), OTHER))
    service.remove_hand(game, 2, game.revision)
    game = fresh(game.id)
    removal = entry(game, "remove", 2)
    game = undo(game, removal)
    before = export_game(game)

    with pytest.raises(service.UndoRefused) as refused:
        service.undo(game, removal.id, game.revision)

    game = fresh(game.id)
    assert [hand.number for hand in game.hands] == [1, 2, 3]
    assert game.hands[1].record().taken == tuple(OTHER)
    assert export_game(game) == before
    assert refused.value.line.undone_by is not None
    assert not next(line for line in service.trail(game) if line.change.id == removal.id).undoable


def test_an_undo_can_be_undone_and_that_makes_the_change_again(in_app):
    """Undo on a "put back" entry answered 500, then was refused: now it corrects the hand again (R17)."""
    game = record(new_game())
    service.correct_hand(game, 1, OTHER, None, False, game.revision)
    game = fresh(game.id)
    game = undo(game, entry(game, "correct", 1))
    put_back = entry(game, "undo", 1)

    game = undo(game, put_back)

    assert game.hands[0].record().taken == tuple(OTHER)
    assert trail_of(game) == [("record", 1, False), ("correct", 1, False), ("undo", 1, False), ("undo", 1, True)]
    with pytest.raises(service.UndoRefused):
        service.undo(game, put_back.id, game.revision)


def test_a_later_change_to_the_same_hand_stands_in_the_way_and_is_named(in_app, app):
    game = record(new_game())
    service.correct_hand(game, 1, OTHER, None, False, game.revision)
    game = fresh(game.id)
    service.correct_hand(game, 1, SPREAD[::-1], None, False, game.revision)
    game = fresh(game.id)
    first, second = sorted((c for c in game.changes if c.action == "correct"), key=lambda c: c.id)

    line = next(line for line in service.trail(game) if line.change.id == first.id)

    assert line.blocked_by.change.id == second.id
    with app.test_request_context():
        assert "Hand 1 corrected." in explain.why_not_undoable(line)
    with pytest.raises(service.UndoRefused):
        service.undo(game, first.id, game.revision)


def test_undoing_a_removal_brings_back_its_place_and_its_trick_log(in_app):
    game = record(new_game())
    leader = game.scoreboard().next_hand.leader
    service.play_trick(game, ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"], False, game.revision)
    game = fresh(game.id)
    game = record(game, OTHER)
    game = record(game, SPREAD[::-1])
    assert game.log_of(game.hands[1]) is not None
    service.remove_hand(game, 2, game.revision)
    game = fresh(game.id)

    game = undo(game, entry(game, "remove", 2))

    assert [hand.record().taken for hand in game.hands] == [tuple(SPREAD), tuple(OTHER), tuple(SPREAD[::-1])]
    log = game.log_of(game.hands[1])
    assert [trick.cards.split() for trick in log.tricks] == [["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"]]
    assert log.first_leader == leader


def test_undoing_a_record_takes_the_hand_back(in_app):
    game = record(record(new_game()), OTHER)

    game = undo(game, entry(game, "record", 2))

    assert [hand.record().taken for hand in game.hands] == [tuple(SPREAD)]
    assert trail_of(game) == [("record", 1, True), ("record", 2, False), ("undo", 2, True)]


def test_an_undo_that_would_put_a_hand_after_game_over_is_refused(in_app):
    none = [rules.Taken(0, 0)] * 4
    first = [rules.Taken(20, 2), rules.Taken(6, 0)] + none  # Ana 46
    second = [rules.Taken(20, 0), rules.Taken(6, 0), rules.Taken(0, 2), rules.Taken(0, 0)] + none[:2]  # Ana 20
    third = [rules.Taken(20, 0), rules.Taken(6, 0), rules.Taken(0, 1), rules.Taken(0, 1)] + none[:2]
    game = record(record(new_game(target=60), first), second)
    service.remove_hand(game, 1, game.revision)
    game = record(fresh(game.id), third)  # Ana 40: the game goes on without the first hand

    with pytest.raises(rules.HandAfterGameOver) as refused:
        service.undo(game, entry(game, "remove", 1).id, game.revision)

    assert refused.value.ended_after == 2
    assert len(fresh(game.id).hands) == 2


def test_every_refusal_of_the_engine_and_the_service_is_worded(app):
    kinds = set(rules.RuleError.__subclasses__()) | {service.Conflict, service.UndoRefused, service.KittyNeeded,
                                                     service.SamePerson, service.PeopleRefused}

    assert kinds <= set(explain._WORDING)


# --- Two writers at once ---------------------------------------------------------


def at_once(app, game_id, changes):
    """Run each change on its own thread and connection at the same moment; return what each raised."""
    barrier = threading.Barrier(len(changes))
    outcomes = [None] * len(changes)

    def run(index, change):
        with app.app_context():
            game = load_game(game_id)
            barrier.wait()
            try:
                change(game)
                outcomes[index] = "saved"
            except Exception as error:  # noqa: BLE001 - the outcome is what the test checks
                outcomes[index] = type(error).__name__
            finally:
                db.session.remove()

    on_threads(run, changes)
    return outcomes


def test_two_scorers_removing_different_hands_at_once_one_wins_the_other_conflicts(app):
    rounds = 12
    with app.app_context():
        game = new_game(target=100_000)
        for _hand in range(rounds + 3):
            game = record(game)
        game_id = game.id
    outcomes = []
    for _round in range(rounds):
        with app.app_context():
            revision = fresh(game_id).revision
        outcomes.append(sorted(at_once(app, game_id, [
            lambda game: service.remove_hand(game, 2, revision),
            lambda game: service.remove_hand(game, 3, revision),
        ])))

    with app.app_context():
        numbers = [hand.number for hand in fresh(game_id).hands]
    print(f"races: {rounds} simultaneous removals, {numbers[-1]} hands left, numbered 1..n")
    assert outcomes == [["Conflict", "saved"]] * rounds
    assert numbers == list(range(1, 4))


def test_two_scorers_undoing_at_once_undo_once(app):
    with app.app_context():
        game = record(record(record(new_game())))
        service.remove_hand(game, 2, game.revision)
        game = fresh(game.id)
        removal, revision, game_id = entry(game, "remove", 2).id, game.revision, game.id

    outcomes = at_once(app, game_id, [lambda game: service.undo(game, removal, revision)] * 2)

    with app.app_context():
        assert sorted(outcomes) == ["Conflict", "saved"]
        assert [hand.number for hand in fresh(game_id).hands] == [1, 2, 3]


# --- Every conflict is a 409 with the form kept ----------------------------------------


def stale(client, url, **fields):
    """A form at ``url`` as a phone showed it before the game changed: its revision one behind."""
    shown = hidden_fields(client, url)
    return {**shown, "revision": str(int(shown["revision"]) - 1), **fields}


def test_a_stale_removal_asks_again_with_the_game_as_it_is_now(client):
    game_id = create_game(client)
    for _hand in range(2):
        record_web(client, game_id, WEB_SPREAD)
    url = f"/games/{game_id}/hands/1/remove"

    response = client.post(url, data=stale(client, url))

    assert response.status_code == 409
    assert "Another device changed this game a moment ago, so nothing was saved." in text_of(response)
    assert "Yes, remove hand 1" in text_of(response)
    assert len(exported(client, game_id)["hands"]) == 2


def test_a_stale_trick_is_refused_with_the_cards_as_typed(client):
    game_id = create_game(client)
    url = f"/games/{game_id}/play"
    cards = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"]
    record_web(client, game_id, WEB_SPREAD)

    response = client.post(url, data=stale(client, url, number="1",
                                           **{f"cards-{seat}": card for seat, card in enumerate(cards)}))

    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Another device changed this game a moment ago" in text_of(response)
    assert all(f'value="{card}"' in page for card in cards)


def test_a_stale_undo_shows_the_trail_as_it_is_now(app, client):
    game_id = create_game(client)
    record_web(client, game_id, WEB_SPREAD)
    record_web(client, game_id, WEB_SPREAD)
    with app.app_context():
        first = min(change.id for change in db.session.get(Game, game_id).changes)

    shown_before_the_second_hand = {**hidden_fields(client, "/games/new"), "revision": "2"}

    response = client.post(f"/games/{game_id}/changes/{first}/undo", data=shown_before_the_second_hand)

    assert response.status_code == 409
    assert "Another device changed this game a moment ago" in text_of(response)
    assert len(exported(client, game_id)["hands"]) == 2


# --- A state machine against a plain model -----------------------------------------


def naive_points(taken, moon):
    """A hand's points by R14 and R15, written out plainly, without the engine."""
    shooter = next((seat for seat, t in enumerate(taken) if (t.hearts, t.marias) == (26, 2)), None)
    if shooter is None:
        return [t.hearts + 13 * t.marias for t in taken]
    if moon is rules.Moon.SUBTRACT:
        return [-26 if seat == shooter else 0 for seat in range(len(taken))]
    return [0 if seat == shooter else 26 for seat in range(len(taken))]


def naive_end(hands, target):
    """The number of the hand after which someone reached the target (R16), or None."""
    totals = [0] * len(SIX)
    for number, (taken, moon) in enumerate(hands, start=1):
        totals = [total + points for total, points in zip(totals, naive_points(taken, moon))]
        if max(totals) >= target:
            return number
    return None


def legal_after_all(hands, target):
    """Whether no hand follows the one that ended the game."""
    end = naive_end(hands, target)
    return end is None or end == len(hands)


def random_hand(seed):
    """Random legal takings for six players, with a moon now and then and a reserved last trick."""
    rng = random.Random(seed)
    if rng.random() < 0.08:
        shooter = rng.randrange(len(SIX))
        taken = tuple(rules.Taken(26, 2) if seat == shooter else rules.Taken(0, 0) for seat in range(len(SIX)))
        return taken, rng.choice(list(rules.Moon))
    collected = 26 - (rng.randrange(4) if rng.random() < 0.15 else 0)  # a reserved last trick now and then
    taken = tuple(random_taken(rng, len(SIX), hearts=collected))
    if rules.moon_shooter(dict(enumerate(taken))) is not None:
        return taken, rules.Moon.ADD
    return taken, None


STEPS = {"steps": 0, "games": 0, "undos": 0, "undone undos": 0, "refused": 0}
ROUND_TRIP_EVERY = 6  # changes tried between two export-import round trips of a game (an import costs a step)


class GameAgainstAModel(RuleBasedStateMachine):
    """Random records, corrections, removals and undos (of undos too, stale ones too) against plain lists.

    The model keeps each entry's facts before and after, as the trail does,
    and says an entry can be undone while it is not undone and the game still
    holds what it left: a hand's facts, or for a hand taken out, that it is
    gone and the hand it followed is there (R17).
    """

    target = 160

    def __init__(self):
        super().__init__()
        self.game_id = None
        self.hands = []  # the model: (taken, moon) in order
        self.keys = []  # the model's name for each hand, in order
        self.entries = []  # the model's trail: dicts with key, after_key, before, after, depth, undone
        self.next_key = 0
        self.loaded = None  # the game as loaded since the last change: every check of a step reads it
        self.tried = 0  # changes tried since the last export-import round trip


    @initialize()
    def start(self):
        game = service.new_game("Model", self.target, 0, SIX)
        self.game_id = game.id
        STEPS["games"] += 1

    def game(self):
        """The game as a new request would load it; loaded again only after a change (or an attempt at one)."""
        if self.loaded is None:
            self.loaded = fresh(self.game_id)
        return self.loaded

    def forget(self):
        """The next look at the game loads it afresh: the database changed, or may have."""
        self.loaded = None

    def attempt(self, change, expect_ok, **entry):
        """Make a change; the model changes only if the service says it saved."""
        STEPS["steps"] += 1
        self.tried += 1
        game = self.game()
        try:
            change(game)
        except (rules.HandAfterGameOver, service.UndoRefused):
            assert not expect_ok
            STEPS["refused"] += 1
            return False
        finally:
            self.forget()
        assert expect_ok, f"the service saved what the model refuses: {entry}"
        return True

    def entry(self, key, before, after, after_key=None, depth=0):
        self.entries.append({"key": key, "after_key": after_key, "before": before, "after": after, "depth": depth,
                             "undone": False})

    def model_undoable(self, index):
        target = self.entries[index]
        if target["undone"]:
            return False
        if target["after"] is not None:
            return target["key"] in self.keys and self.hands[self.keys.index(target["key"])] == target["after"]
        return target["key"] not in self.keys and target["after_key"] in (None, *self.keys)

    @rule(seed=st.integers(0, 2**32))
    def record(self, seed):
        taken, moon = random_hand(seed)
        after = self.hands + [(taken, moon)]
        ok = self.attempt(lambda game: service.record_hand(at_table(game), taken, moon, True, game.revision),
                          legal_after_all(after, self.target), action="record")
        if ok:
            self.next_key += 1
            self.hands, self.keys = after, self.keys + [self.next_key]
            self.entry(self.next_key, None, (taken, moon))

    @rule(data=st.data(), seed=st.integers(0, 2**32))
    def correct(self, data, seed):
        if not self.hands:
            return
        index = data.draw(st.integers(0, len(self.hands) - 1))
        taken, moon = random_hand(seed)
        after = self.hands[:index] + [(taken, moon)] + self.hands[index + 1:]
        unchanged = self.hands[index] == (taken, moon)
        ok = self.attempt(lambda game: service.correct_hand(game, index + 1, taken, moon, True, game.revision),
                          legal_after_all(after, self.target), action="correct")
        if ok and not unchanged:
            self.entry(self.keys[index], self.hands[index], (taken, moon))
            self.hands = after

    @rule(data=st.data())
    def remove(self, data):
        if not self.hands:
            return
        index = data.draw(st.integers(0, len(self.hands) - 1))
        after = self.hands[:index] + self.hands[index + 1:]
        ok = self.attempt(lambda game: service.remove_hand(game, index + 1, game.revision),
                          legal_after_all(after, self.target), action="remove")
        if ok:
            self.entry(self.keys[index], self.hands[index], None, self.keys[index - 1] if index else None)
            self.hands, self.keys = after, self.keys[:index] + self.keys[index + 1:]

    @rule(data=st.data())
    def undo(self, data):
        """Undo any entry of the trail, undos, stale and already undone ones included."""
        if not self.entries:
            return
        index = data.draw(st.integers(0, len(self.entries) - 1))
        self.undo_entry(index)

    @rule(data=st.data())
    def undo_then_undo_the_undo(self, data):
        """Undoing an entry and then undoing that undo returns the very same game."""
        undoable = [index for index in range(len(self.entries)) if self.model_undoable(index)]
        if not undoable:
            return
        index = data.draw(st.sampled_from(undoable))
        before = same_game(self.game())
        if self.undo_entry(index):
            assert self.undo_entry(len(self.entries) - 1), "an undo could not be undone at once"
            STEPS["undone undos"] += 1
            assert same_game(self.game()) == before

    def undo_entry(self, index):
        target = self.entries[index]
        hands, keys = self.hands[:], self.keys[:]
        key, after_key = target["key"], None
        if self.model_undoable(index):
            if target["after"] is None:  # a hand taken out comes back after the one it followed
                place = 0 if target["after_key"] is None else keys.index(target["after_key"]) + 1
                hands.insert(place, target["before"])
                keys.insert(place, key)
                after_key = target["after_key"]
            elif target["before"] is None:  # a hand put in goes out
                place = keys.index(key)
                after_key = keys[place - 1] if place else None
                del hands[place], keys[place]
            else:
                hands[keys.index(key)] = target["before"]
        expect_ok = self.model_undoable(index) and legal_after_all(hands, self.target)
        change_id = self.change_ids()[index]
        ok = self.attempt(lambda game: service.undo(game, change_id, game.revision), expect_ok, action="undo")
        if ok:
            STEPS["undos"] += 1
            target["undone"] = True
            self.hands, self.keys = hands, keys
            self.entry(key, target["after"], target["before"], after_key, target["depth"] + 1)
        return ok

    @rule()
    def stale_write(self):
        """A form shown before the last change is refused whole."""
        game = self.game()
        if game.revision < 2 or naive_end(self.hands, self.target) is not None:
            return  # a game over refuses the hand for the rules first (R16)
        before = export_game(game)
        with pytest.raises(service.Conflict):
            service.record_hand(at_table(game), *random_hand(0), True, game.revision - 1)
        self.forget()
        assert export_game(self.game()) == before

    def change_ids(self):
        return [change.id for change in sorted(self.game().changes, key=lambda change: change.id)]

    @invariant()
    def hands_are_numbered_one_to_n_and_match_the_model(self):
        if self.game_id is None:
            return
        game = self.game()
        assert [hand.number for hand in game.hands] == list(range(1, len(self.hands) + 1))
        assert [(hand.record().taken, hand.record().moon) for hand in game.hands] == self.hands
        assert [hand.key for hand in game.hands] == self.keys

    @invariant()
    def the_scoreboard_equals_the_plain_model(self):
        if self.game_id is None:
            return
        board = self.game().scoreboard()
        totals = [0] * len(SIX)
        for taken, moon in self.hands:
            totals = [total + points for total, points in zip(totals, naive_points(taken, moon))]
        assert list(board.totals) == totals
        assert board.over == (naive_end(self.hands, self.target) is not None)

    @invariant()
    def undoable_entries_are_the_models(self):
        if self.game_id is None:
            return
        lines = {line.change.id: line.undoable for line in service.trail(self.game())}
        assert [lines[change_id] for change_id in self.change_ids()] == [
            self.model_undoable(index) for index in range(len(self.entries))]

    @invariant()
    def export_then_import_gives_the_same_game(self):
        if self.game_id is None or self.tried < ROUND_TRIP_EVERY:
            return
        self.tried = 0
        assert_round_trips(self.game())
        self.forget()  # the import ended the session the game was loaded in

    def teardown(self):
        """Undoing, newest first, every entry whose change stands (an origin, or an undo of an undo)
        returns the game to its start."""
        if self.game_id is None:
            return
        assert_round_trips(self.game())
        self.forget()
        for index in reversed(range(len(self.entries))):
            if self.entries[index]["depth"] % 2 == 0 and self.model_undoable(index):
                assert self.undo_entry(index), "a standing entry could not be undone newest first"
        assert self.hands == []
        self.forget()
        assert self.game().hands == []


def same_game(game):
    """Everything a game holds, as a table would compare it: its document (hands, trick logs, seat
    changes, house rules, totals) and each hand's key, the open hand's log, the players' people."""
    log = game.trick_log
    return (export_game(game), [hand.key for hand in game.hands], None if log is None else log.facts(),
            [(player.seat, player.name, player.person_id) for player in game.players],
            [(change.id, change.value()) for change in game.seat_changes])


def assert_round_trips(game):
    document = export_game(game)
    copy = service.import_game(read_game(document))
    assert export_game(fresh(copy.id)) == document


def test_random_records_corrections_removals_and_undos_agree_with_a_plain_model(in_app):
    machine = type("Machine", (GameAgainstAModel,), {})
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples(60), stateful_step_count=25, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))

    print(f"service: a state machine ran {STEPS['steps']} steps in {STEPS['games']} games, "
          f"{STEPS['undos']} undos ({STEPS['undone undos']} undone at once and found the same), "
          f"{STEPS['refused']} refusals checked against the model")
    assert STEPS["steps"] > 0 and STEPS["undone undos"] > 0
