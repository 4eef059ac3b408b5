"""The kept tables: what the hands say, derived and kept for one revision of a game, never a fact (R17).

``GameFigures`` and ``SeatFigures`` hold a game's figures for one ``revision`` of it, ``PersonFigures`` a
person's sums over the games the season counts, and the club's ratings (``mu``, ``sigma``) are kept with
them. The service writes them in the transaction of each write and brings them up to the hands
(``service/figures.py``, ``service/refreshing.py``, ``flask refigure``): figures of another revision are
stale, and the hands win.
"""

from sqlalchemy import Double, ForeignKey, Index, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model


class GameFigures(Model):
    """A game's derived figures, kept for one ``revision`` of it (a cache of what its hands say, R17): whether
    it is over, the next hand's number, how many hands, and what the games list shows (``facts``: players,
    totals, leader, winners). Written in the transaction of each write (service/figures.py), with the game's
    ``SeatFigures``; rebuilt by ``flask refigure``. Figures of another revision are stale: the hands win."""

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    revision: Mapped[int]
    roster: Mapped[int]  # everyone who sat at the table in this game
    hands: Mapped[int]
    over: Mapped[bool]
    next_hand: Mapped[int | None]
    facts: Mapped[str] = mapped_column(Text)  # JSON


class FigureColumns:
    """``rules.Figures`` after ``games``, field by field: a player's in one game, or a person's added up."""

    finished: Mapped[int]
    wins: Mapped[int]
    hands: Mapped[int]
    points: Mapped[int]
    zero_hands: Mapped[int]
    moons_subtracted: Mapped[int]
    moons_added: Mapped[int]
    hearts: Mapped[int]
    marias: Mapped[int]


FIGURE_COLUMNS = tuple(FigureColumns.__annotations__)  # their names, in ``rules.Figures``'s order


class RatingColumns:
    """A rating (service/ratings.py): a skill ``mu`` and its uncertainty ``sigma``; none until rated."""

    # Double precision, named: SQLAlchemy 2.0 maps ``float`` to a Float, 2.1 to a Double.
    mu: Mapped[float | None] = mapped_column(Double)
    sigma: Mapped[float | None] = mapped_column(Double)


class SeatFigures(FigureColumns, RatingColumns, Model):
    """One player's figures in one game (``seat``: their roster number), kept with the game's ``GameFigures``
    for the same ``revision``: their person and whether the game counts in the season (as the game and its
    players say now), ``rules.Figures`` field by field, their ``total`` (a joiner's start included), for a
    finished game they were at the end of their ``rules.Finish`` (place, players seated, margin), and, once
    the club's ratings reach this game, their rating after it (``mu``, ``sigma``)."""


    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    revision: Mapped[int]
    person_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"))
    counted: Mapped[bool]  # not left out of the season
    total: Mapped[int]
    place: Mapped[int | None]
    seated: Mapped[int | None]
    margin: Mapped[int | None]
    from_bottom: Mapped[int | None]  # seated - place: how near the bottom of the table they finished


# A person's games, and their best and worst game each one seek, in the orders of web/season.Finish's keys.
Index("ix_seat_figures_best", SeatFigures.person_id, SeatFigures.place, SeatFigures.margin.desc(),
      SeatFigures.game_id.desc())
Index("ix_seat_figures_worst", SeatFigures.person_id, SeatFigures.from_bottom, SeatFigures.margin,
      SeatFigures.game_id.desc())


class PersonFigures(FigureColumns, RatingColumns, Model):
    """A person's figures over every game the season counts, kept as the sums of their ``SeatFigures``
    (written with them, by each write to a game, a void, a merge), and their rating after the last game the
    club's ratings reached (``Club.rated_version``)."""

    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"), primary_key=True)
    games: Mapped[int]
