"""The numbers the rules give: the table, the decks, a hand's hearts and Black Marias, the target (R1-R16)."""

from __future__ import annotations

MIN_PLAYERS = 6
MAX_PLAYERS = 11
# R1, Decision: before one hand, at most a full table leaving and as many joining. No real table changes
# more between two hands; a document of thousands of changes costs every page of its game.
MOST_SEAT_CHANGES = 2 * MAX_PLAYERS
DECK_SIZE = 104  # R2: two 52-card decks
COPIES = 2  # R2: every card exists exactly twice
HEARTS_IN_HAND = 26  # R14
MARIAS_IN_HAND = 2  # R14
DEFAULT_TARGET = 150  # R16
SUGGESTED_MINIMUM_TARGET = 100  # R16
JACKS_IN_HAND = 2  # R2: one J♦ a deck
