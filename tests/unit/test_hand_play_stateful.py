"""A real two-deck hand played at random, legally, against a naive model of R6-R13."""

import copy

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from scorekeeper.rules import Card, HandPlay, IllegalLead, Taken

from ..profiles import examples
from ..tabletop import DECK

BLACK_MARIA = Card(12, "♠")


def count_points(cards):
    """Hearts and Black Marias among some cards, counted without the engine."""
    return Taken(
        sum(1 for card in cards if card.suit == "♥"),
        sum(1 for card in cards if card == BLACK_MARIA),
    )


def sum_taken(takings):
    return sum(takings, Taken(0, 0))


@st.composite
def shuffled_decks(draw, players):
    """Both decks shuffled together; half the time seats sit in pairs holding twin hands.

    Plain shuffles almost never reserve a trick; twin hands make cancellations,
    reserved tricks and a waiting kitty common. Either way the deal is the 104
    cards in some order, dealt in seat order with the rest to the kitty.
    """
    if not draw(st.booleans()):
        return draw(st.permutations(DECK))
    cards_each = len(DECK) // players
    kinds = draw(st.permutations(DECK[:52]))
    twinned = players // 2 * cards_each
    deck = []
    for start in range(0, twinned, cards_each):
        deck += kinds[start:start + cards_each] * 2
    return deck + draw(st.permutations(kinds[twinned:] * 2))


class HandPlayMachine(RuleBasedStateMachine):
    """Seats hold real cards; the model keeps the reserved pile, the kitty holder and the leader."""

    @initialize(players=st.integers(6, 11), data=st.data())
    def deal_a_shuffled_hand(self, players, data):
        deck = data.draw(shuffled_decks(players), label="deck")
        # How often, out of 10, a follower holding a twin of a card in the trick plays it.
        self.twin_odds = data.draw(st.sampled_from([5, 9, 10]), label="twin odds")
        assert sorted(deck) == sorted(DECK)
        cards_each = len(DECK) // players
        leader = data.draw(st.integers(0, players - 1), label="leader")
        self.players = players
        self.tricks_in_hand = cards_each
        self.holding = {seat: list(deck[seat * cards_each:(seat + 1) * cards_each]) for seat in range(players)}
        self.kitty = list(deck[players * cards_each:])
        self.hand = HandPlay(players, leader, kitty=self.kitty)
        # The naive model.
        self.leader = leader
        self.reserved = list(self.kitty)  # R12: the kitty waits with the reserved cards
        self.kitty_holder = None
        self.collected = {seat: [] for seat in range(players)}
        self.uncollected = []
        self.played = []
        self.tricks_played = 0
        self.hearts_broken = False

    # --- legal and illegal moves, as the table sees them ---------------------

    def legal_leads(self):
        holding = self.holding[self.leader]
        if self.tricks_played == 0:
            return [card for card in holding if card.suit != "♥" and card != BLACK_MARIA]  # R6
        if not self.hearts_broken:
            return [card for card in holding if card.suit != "♥"]  # R8
        return holding

    def illegal_leads(self):
        legal = self.legal_leads()
        return [card for card in self.holding[self.leader] if card not in legal]

    def followers(self, lead, data):
        """One card from each other seat in turn, following suit when able (R7)."""
        trick = [lead]
        for offset in range(1, self.players):
            holding = self.holding[(self.leader + offset) % self.players]
            same_suit = [card for card in holding if card.suit == lead.suit]
            choices = same_suit or holding
            twins = [card for card in choices if card in trick]
            if twins and data.draw(st.integers(0, 9), label="play a twin") < self.twin_odds:
                choices = twins
            trick.append(data.draw(st.sampled_from(choices)))
        return trick

    def naive_winner(self, trick):
        """R9 by brute force: the highest card of the suit led that appears only once."""
        survivors = [
            (card.rank, position) for position, card in enumerate(trick)
            if card.suit == trick[0].suit and trick.count(card) == 1
        ]
        if not survivors:
            return None
        return (self.leader + max(survivors)[1]) % self.players

    def finished(self):
        return self.tricks_played == self.tricks_in_hand

    # --- the one rule: the table plays on ------------------------------------
    # A single rule, so that Hypothesis's swarm testing (which switches rules
    # off for a whole run) cannot leave a run with no way to play on.

    @rule(data=st.data())
    def play_the_next_trick(self, data):
        if self.finished():
            self.a_trick_after_the_last_one_is_refused(data)
            return
        if self.illegal_leads() and data.draw(st.booleans(), label="try an illegal lead first"):
            self.an_unconfirmed_illegal_lead_is_refused(data)
        legal = self.legal_leads()
        # A leader holding nothing legal (only hearts) leads one and the table confirms (R8).
        lead = data.draw(st.sampled_from(legal or self.holding[self.leader]), label="lead")
        trick = self.followers(lead, data)
        leader_before = self.hand.leader

        winner = self.hand.play(trick, confirm=not legal)

        assert winner == self.naive_winner(trick)
        assert self.hand.leader == (leader_before if winner is None else winner)
        self.record(trick, winner)

    def an_unconfirmed_illegal_lead_is_refused(self, data):
        lead = data.draw(st.sampled_from(self.illegal_leads()), label="illegal lead")
        trick = self.followers(lead, data)
        before = copy.deepcopy(vars(self.hand))

        with pytest.raises(IllegalLead) as refused:
            self.hand.play(trick)

        assert refused.value.rule == ("R6" if self.tricks_played == 0 else "R8")
        assert vars(self.hand) == before

    def a_trick_after_the_last_one_is_refused(self, data):
        trick = data.draw(
            st.lists(st.sampled_from(DECK[:52]), min_size=self.players, max_size=self.players, unique=True),
            label="trick after the last",
        )
        before = copy.deepcopy(vars(self.hand))

        with pytest.raises(ValueError):
            self.hand.play(trick, confirm=True)

        assert vars(self.hand) == before

    def record(self, trick, winner):
        for position, card in enumerate(trick):
            self.holding[(self.leader + position) % self.players].remove(card)
        self.played += trick
        self.tricks_played += 1
        self.hearts_broken = self.hearts_broken or any(c.suit == "♥" or c == BLACK_MARIA for c in trick)
        self.reserved += trick
        if winner is not None:
            self.collected[winner] += self.reserved  # R11, R12
            self.reserved = []
            if self.kitty_holder is None:
                self.kitty_holder = winner
            self.leader = winner  # R10
        elif self.finished():
            self.uncollected = self.reserved  # R13
            self.reserved = []

    # --- invariants ------------------------------------------------------------

    @invariant()
    def points_are_conserved(self):
        accounted = sum_taken(self.hand.taken.values()) + self.hand.uncollected + self.hand.waiting

        assert accounted == count_points(self.played + self.kitty)

    @invariant()
    def the_engine_agrees_with_the_model(self):
        assert self.hand.leader == self.leader
        assert self.hand.taken == {seat: count_points(cards) for seat, cards in self.collected.items()}
        assert self.hand.waiting == count_points(self.reserved)
        assert self.hand.uncollected == count_points(self.uncollected)
        assert self.hand.kitty_taken_by == self.kitty_holder
        assert self.hand.finished == self.finished()

    @invariant()
    def after_the_last_trick_nothing_waits_and_the_full_deck_is_accounted_for(self):
        if self.finished():
            assert self.hand.waiting == Taken(0, 0)
            assert not self.hand.kitty_waiting
            assert sum_taken(self.hand.taken.values()) + self.hand.uncollected == Taken(26, 2)
            assert all(not holding for holding in self.holding.values())


# Even the smallest run deals 104 cards and plays a whole hand (up to 17 tricks),
# so the "large base example" health check does not apply. 20 steps: the deal,
# up to 17 tricks, and at least two tries at a trick after the last one.
HandPlayMachine.TestCase.settings = settings(
    max_examples=examples(60),
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.large_base_example],
)
TestHandPlay = HandPlayMachine.TestCase
