"""Tricks: settle one trick anywhere, and play a game's hand trick by trick (R6-R13).

Entering a trick, the kitty or taking a trick back goes through ``table``;
the views read the form, call it, and word what it refuses.
"""

import re
from collections import Counter
from dataclasses import dataclass, replace

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for

from .. import rules, service
from ..db.models import Game, db
from ..words.explain import describe, explain, quoted
from ..words.i18n import DEFAULT_LANGUAGE, LANGUAGES, _, card_examples, card_letters, seeds_trick, speaking
from .forms import THEIRS, ConfirmForm, KittyForm, TrickForm, whole_number
from .responses import CONFLICT, INVALID, load_game, load_game_to_change, reloaded

bp = Blueprint("tricks", __name__)

CARD_SEPARATORS = re.compile(r"[\s,;]+")


def typed_cards(text):
    """The words of cards typed as "10s 9h, Q♠"; the engine reads each."""
    return [word for word in CARD_SEPARATORS.split(text or "") if word]


def settle_trick(text, letters=None, players=None):
    """Resolve typed cards (R9), read with the reader's letters; the engine's typed errors say what is wrong.

    From a game, a trick holds at most one card of each of its ``players`` (R1), so that no seat is named twice.
    """
    return rules.resolve_trick(rules.parse_cards(typed_cards(text), letters or card_letters()), players)


# --- Settle a trick ------------------------------------------------------------


@bp.get("/settle")
def settle():
    """Settle one trick: who wins, what cancelled, and why (R9); the whole page in ``lang``, if given."""
    language = request.args.get("lang")
    if language not in LANGUAGES:
        return _settle_page(None)
    with speaking(language):
        return _settle_page(language)


def _settle_page(language):
    text = request.args.get("cards", "")
    game = _optional_game(request.args.get("game"))
    seated = _seated_now(game) if game is not None else None
    leader = _leader(game, request.args.get("leader"))
    letters = card_letters()
    result = error = None
    if text.strip():
        try:
            result = settle_trick(text, letters, len(seated) if seated else None)
        except rules.RuleError as problem:
            error = describe(problem)
    seats = None
    if seated and result is not None:
        seats = [(leader + position) % len(seated) for position in range(len(result.cards))]
    status = INVALID if error else 200
    return render_template("tricks/settle.html", text=text, game=game, leader=leader, seated=seated, grid=card_grid(),
                           result=result, error=error, seats=seats, lang=language,
                           placeholder=seeds_trick(letters), examples=" ".join(card_examples(letters))), status


@bp.get("/settle.json")
def settle_json():
    """The settled trick as JSON: winner position or null, cancelled positions, explanation, and the notes
    the settle page shows under it (cancelled cards that decided nothing, the points they keep, R9's reading).

    The answer is in ``lang`` (English by default): its card letters and its words (``lang=pt``: "10E"
    is 10♠, and the explanation is Portuguese). With ``game``, at most one card of each of its players.
    """
    language = request.args.get("lang", DEFAULT_LANGUAGE)
    if language not in LANGUAGES:
        return jsonify(error=_("There is no language %(lang)s here; lang is one of %(languages)s.",
                               lang=quoted(language), languages=", ".join(LANGUAGES))), 400
    game = _optional_game(request.args.get("game"))
    players = len(_seated_now(game)) if game is not None else None
    with speaking(language):
        try:
            result = settle_trick(request.args.get("cards", ""), card_letters(), players)
        except rules.RuleError as problem:
            return jsonify(error=describe(problem)), 400
        return jsonify(
            winner=result.winner,
            cancelled=sorted(result.cancelled),
            explanation=explain(result.reason),
            notes=explain(result.reason, notes=True),
            cards=[str(card) for card in result.cards],
            rules=list(result.reason.rules),
        )


def card_grid(copies_left=None):
    """The card picker's rows, a suit each, as the page hands them to its script: each card with the copies
    of it left (R2; every copy when no hand is being played) and the suit's name in the reader's language."""
    names = {rules.SPADES: _("spades"), rules.HEARTS: _("hearts"), rules.DIAMONDS: _("diamonds"),
             rules.CLUBS: _("clubs")}
    rows = {}
    for card in rules.CARD_KINDS:
        left = rules.COPIES if copies_left is None else copies_left[card]
        rows.setdefault(card.suit, []).append([str(card), left])
    return [{"suit": suit, "name": names[suit], "red": suit in (rules.HEARTS, rules.DIAMONDS), "cards": cards}
            for suit, cards in rows.items()]


def _optional_game(game_id):
    number = whole_number(game_id)
    return None if number is None else db.session.get(Game, number)


def _seated_now(game):
    """The names at the table now, in seating order: the next hand's players (the last hand's once over)."""
    return game.names_of(game.scoreboard().seating)


def _leader(game, seat_text):
    """The seat that led, from the form; by default whoever leads the game's next hand."""
    if game is None:
        return 0
    board = game.scoreboard()
    seat = whole_number(seat_text, most=len(board.seating) - 1)
    if seat is not None:
        return seat
    upcoming = board.next_hand
    return upcoming.place(upcoming.leader) if upcoming else 0


# --- Playing a hand trick by trick -----------------------------------------------


@bp.route("/games/<int:game_id>/play", methods=["GET", "POST"])
def play_hand(game_id):
    """Play the open hand trick by trick: each trick's cards from the leader (R6-R13)."""
    game = load_game_to_change(game_id)
    board, log, play = service.open_play(game)
    if play is None:
        flash(_("The game is over. Correct a hand if the result is wrong (R17)."), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    players = play.players
    if request.method == "GET":
        form = TrickForm(data={"number": str(play.trick_number), "cards": [""] * players})
        return _play_page(game, board, log, play, form)

    form = TrickForm(request.form)
    form.seat_rows(players)
    if _entered_meanwhile(board, play, form):
        return _trick_contested(game, board, log, play, form)
    if service.kitty_needed(log, play):  # the trick form is not even on the page
        return _kitty_first(game, board, log, play, form, service.KittyNeeded(play.kitty_taken_by))
    valid = form.validate()
    if valid and form.based_on() is None:
        abort(400)
    if valid and form.number.data != str(play.trick_number):
        flash(_("Trick %(number)s was already entered; here is the hand now.", number=form.number.data), "warning")
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    read = play.finished or _cards_read(form, play)  # a finished hand's refusal is the engine's (R3)
    if not (valid and read):
        return _play_page(game, board, log, play, form), INVALID
    try:
        cards = rules.parse_cards(form.card_texts(), card_letters())
        service.play_trick(game, cards, form.confirm.data, form.based_on())
    except rules.IllegalLead as warning:
        form.illegal_lead = describe(warning)
        return _play_page(game, board, log, play, form), INVALID
    except (rules.NotACard, rules.ThirdCopy) as error:
        form.cards.entries[error.position].errors = [describe(error)]
        return _play_page(game, board, log, play, form), INVALID
    except service.KittyNeeded as error:
        return _kitty_first(game, board, log, play, form, error)
    except service.Conflict as error:
        return _conflict(game_id, form, KittyForm(), error)
    except rules.RuleError as error:
        form.problem = describe(error, game.names_of(board.next_hand.seating))
        return _play_page(game, board, log, play, form), INVALID
    # The next trick's controls at the top of the screen, the last trick's verdict with them.
    return redirect(url_for("tricks.play_hand", game_id=game_id, _anchor="next-trick"))


def _cards_read(form, play):
    """Read each typed card on its own with the reader's letters and ask the engine about the trick, so
    that every card that is no card or one copy too many is marked at once (R1, R2). Whether all is well.

    An empty card is the form's to mark; an apparently illegal lead is a warning the table may confirm,
    left to ``service.play_trick`` (R6, R8).
    """
    letters = card_letters()
    cards = []
    for entry in form.cards.entries:
        text = (entry.data or "").strip()
        try:
            cards.append(rules.Card.parse(text, letters) if text else None)
        except rules.NotACard as error:
            entry.errors = [*entry.errors, describe(error)]
            cards.append(None)
    for problem in rules.trick_problems(cards, play.players, play.copies_seen):
        if isinstance(problem, rules.TrickSize):
            form.problem = describe(problem)
        else:
            entry = form.cards.entries[problem.position]
            entry.errors = [*entry.errors, describe(problem)]
    return not form.problem and not any(entry.errors for entry in form.cards.entries)


@bp.post("/games/<int:game_id>/play/kitty")
def enter_kitty(game_id):
    """Say what the kitty held once its winner turns it over (R12)."""
    game = load_game_to_change(game_id)
    board, log, play = service.open_play(game)
    form = KittyForm(request.form)
    if play is not None and log is not None and log.kitty and form.based_on() not in (None, game.revision):
        return _kitty_contested(game, board, log, play, form)  # another device said it meanwhile
    if play is None or not service.kitty_needed(log, play):
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    trick_form = TrickForm(data={"number": str(play.trick_number), "cards": [""] * play.players})
    if not form.validate():
        return _play_page(game, board, log, play, trick_form, form), INVALID
    if form.based_on() is None:
        abort(400)
    try:
        service.enter_kitty(game, rules.parse_cards(typed_cards(form.cards.data), card_letters()), form.based_on())
    except rules.RuleError as error:
        form.problem = describe(error, game.names_of(board.next_hand.seating))
        return _play_page(game, board, log, play, trick_form, form), INVALID
    except service.Conflict as error:
        return _conflict(game_id, trick_form, form, error)
    return redirect(url_for("tricks.play_hand", game_id=game_id))


@bp.post("/games/<int:game_id>/play/undo")
def undo_trick(game_id):
    """Take back the last trick entered."""
    game = load_game_to_change(game_id)
    form = ConfirmForm(request.form)
    if not form.validate() or form.based_on() is None:
        abort(400)
    try:
        number = service.take_back_trick(game, form.based_on())
    except service.Conflict as error:
        return _conflict(game_id, TrickForm(), KittyForm(), error)
    if number is not None:
        flash(_("Trick %(number)d taken back.", number=number), "success")
    return redirect(url_for("tricks.play_hand", game_id=game_id))


def _conflict(game_id, form, kitty_form, error):
    """The hand as it is now, with what was typed kept: another device wrote first (409)."""
    game = reloaded(game_id, form, kitty_form)
    board, log, play = service.open_play(game)
    if play is None:
        flash(describe(error), "warning")
        return redirect(url_for("games.table", game_id=game_id))
    form.number.data = str(play.trick_number)
    form.seat_rows(play.players)
    return _play_page(game, board, log, play, form, kitty_form, conflict=describe(error)), CONFLICT


# --- Another device entered that trick, or said that kitty, first ------------------


@dataclass(frozen=True)
class CardsAside:
    """One row of a trick or kitty another device entered first: what is saved beside what was typed here."""

    name: str  # the player who played the card (a trick), or the kitty
    saved: str
    typed: str
    differs: bool


@dataclass(frozen=True)
class CardsContest:
    """A trick or a kitty another device entered while this one was typing it, row by row beside what was
    typed, and the question with the words of its two buttons (``mine`` None where it cannot be done). The
    answers post ``fields`` (what was typed) to ``action``, still based on ``based_on``; putting mine over
    theirs is checked against ``revision``, the one shown."""

    question: str
    heading: str  # the rows' column heading
    rows: tuple
    action: str
    fields: tuple  # (name, value) of each hidden field carrying what was typed
    based_on: int
    revision: int
    theirs: str
    mine: str | None
    problem: str | None = None  # why putting mine over theirs was refused
    confirm: str | None = None  # the label of the box confirming an apparently illegal lead (R6, R8)


def _entered_meanwhile(board, play, form):
    """Whether ``form`` was typed for a trick of the open hand that is entered already (by another device,
    or by a second tap)."""
    posted, hand = whole_number(form.number.data), whole_number(form.hand.data)
    return (posted is not None and 1 <= posted < play.trick_number and form.based_on() is not None
            and hand in (None, board.next_hand.number))


def _typed_card(text):
    """A card as typed, written as the pages write cards, or as typed if it is no card."""
    try:
        return str(rules.Card.parse(text, card_letters()))
    except rules.RuleError:
        return text


def _trick_contested(game, board, log, play, form):
    """A trick posted that another device (or a second tap) entered first: the same cards are entered
    already; others are shown beside theirs (409) until the scorer keeps theirs or puts theirs over."""
    number = whole_number(form.number.data)
    if form.chose(THEIRS):
        flash(_("Trick %(number)d is as the other phone entered it; your cards were dropped.", number=number),
              "success")
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    theirs = play.tricks[number - 1]
    typed = [_typed_card(text) for text in form.card_texts()]
    saved = [str(card) for card in theirs.result.cards]
    if typed == saved:
        return redirect(url_for("tricks.play_hand", game_id=game.id, _anchor="next-trick"))
    if form.chose_mine() is None or number != play.tricks[-1].number:
        return _play_page(game, board, log, play, _next_trick_form(play),
                          contest=_trick_contest(game, board, play, form, number, typed)), CONFLICT
    try:
        service.put_trick_over(game, number, rules.parse_cards(form.card_texts(), card_letters()),
                               form.confirm.data, form.chose_mine())
    except service.Conflict:
        return _trick_contested(game, *service.open_play(load_game(game.id)), form)
    except rules.IllegalLead as warning:
        return _trick_refused(game, board, log, play, form, number, typed, warning, confirm=True)
    except rules.RuleError as error:
        return _trick_refused(game, board, log, play, form, number, typed, error)
    flash(_("Trick %(number)d is as you typed it; the other phone's is taken back, and the changes can undo "
            "that.", number=number), "success")
    return redirect(url_for("tricks.play_hand", game_id=game.id, _anchor="next-trick"))


def _trick_refused(game, board, log, play, form, number, typed, error, confirm=False):
    """Putting this device's trick over theirs, refused by the rules (400): the question again, saying why."""
    problem = describe(error, game.names_of(board.next_hand.seating))
    contest = _trick_contest(game, board, play, form, number, typed, problem)
    if confirm:
        contest = replace(contest, confirm=_("The lead is right: enter the trick anyway (R6, R8, our decision)"))
    return _play_page(game, board, log, play, _next_trick_form(play), contest=contest), INVALID


def _trick_contest(game, board, play, form, number, typed, problem=None):
    """Trick ``number`` as entered beside the cards ``typed`` for it, card by card from its leader."""
    theirs = play.tricks[number - 1]
    seated = game.names_of(board.next_hand.seating)
    rows = tuple(CardsAside(seated[seat], str(card), typed_card, str(card) != typed_card)
                 for seat, card, typed_card in zip(theirs.seats, theirs.result.cards, typed))
    last = number == play.tricks[-1].number
    if last:
        question = _("Another phone entered trick %(number)d while you were typing. Keep theirs, or put yours "
                     "over it?", number=number)
    else:
        question = _("Another phone entered trick %(number)d while you were typing, and more tricks since: yours "
                     "can no longer be put over it.", number=number)
    fields = (("number", str(number)), ("hand", str(board.next_hand.number)),
              *((f"cards-{position}", text) for position, text in enumerate(form.card_texts())))
    return CardsContest(question, _("Player"), rows, url_for("tricks.play_hand", game_id=game.id), fields,
                        form.based_on(), game.revision, _("Keep theirs"),
                        _("Put mine over theirs") if last else None, problem)


def _next_trick_form(play):
    return TrickForm(data={"number": str(play.trick_number), "cards": [""] * play.players})


def _kitty_contested(game, board, log, play, form):
    """A kitty posted that another device said first: the same cards are said already; others are shown
    beside theirs (409) until the scorer keeps theirs or puts theirs over (R12)."""
    if form.chose(THEIRS):
        flash(_("The kitty is as the other phone said it; your cards were dropped."), "success")
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    typed = [_typed_card(text) for text in typed_cards(form.cards.data)]
    if Counter(typed) == Counter(log.kitty.split()):
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    if form.chose_mine() is None:
        return _kitty_contest_page(game, board, log, play, form, typed), CONFLICT
    try:
        service.put_kitty_over(game, rules.parse_cards(typed_cards(form.cards.data), card_letters()),
                               form.chose_mine())
    except service.Conflict:
        game = load_game(game.id)
        board, log, play = service.open_play(game)
        if play is None or log is None or not log.kitty:
            flash(describe(service.Conflict()), "warning")
            return redirect(url_for("tricks.play_hand", game_id=game.id))
        return _kitty_contest_page(game, board, log, play, form, typed), CONFLICT
    except rules.RuleError as error:
        problem = describe(error, game.names_of(board.next_hand.seating))
        return _kitty_contest_page(game, board, log, play, form, typed, problem), INVALID
    flash(_("The kitty is as you typed it; the changes can put the other phone's back."), "success")
    return redirect(url_for("tricks.play_hand", game_id=game.id))


def _kitty_contest_page(game, board, log, play, form, typed, problem=None):
    """The kitty as said beside the cards typed for it, and the question."""
    saved = log.kitty.split()
    rows = (CardsAside(_("The kitty"), " ".join(saved), " ".join(typed), Counter(saved) != Counter(typed)),)
    contest = CardsContest(
        _("Another phone said what the kitty held while you were typing. Keep theirs, or put yours over it?"),
        _("Cards"), rows, url_for("tricks.enter_kitty", game_id=game.id), (("cards", form.cards.data or ""),),
        form.based_on(), form.asked_at() if form.chose_mine() and problem else game.revision,
        _("Keep theirs"), _("Put mine over theirs"), problem)
    return _play_page(game, board, log, play, _next_trick_form(play), contest=contest)


def _kitty_first(game, board, log, play, form, error):
    kitty_form = KittyForm()
    kitty_form.problem = describe(error)
    return _play_page(game, board, log, play, form, kitty_form), INVALID


def _play_page(game, board, log, play, form, kitty_form=None, conflict=None, contest=None):
    seated = game.names_of(board.next_hand.seating)
    return render_template(
        "tricks/play.html", game=game, board=board, log=log, play=play, form=form, seated=seated,
        in_play_order=[seated[seat] for seat in play.next_seats],  # the next trick's players, from its leader
        kitty_form=kitty_form or KittyForm(), kitty_needed=service.kitty_needed(log, play),
        revision=form.revision.data or game.revision, conflict=conflict, contest=contest,
        grid=card_grid(play.copies_left),
    )


# --- The log of a recorded hand --------------------------------------------------


@bp.get("/games/<int:game_id>/hands/<int:number>/tricks")
def hand_tricks(game_id, number):
    """Every trick of a hand played trick by trick: cards, winner and why."""
    game = load_game(game_id)
    if not 1 <= number <= len(game.hands) or game.log_of(game.hands[number - 1]) is None:
        abort(404)
    hand = game.hands[number - 1]
    log = game.log_of(hand)
    board = game.scoreboard()
    seating = board.hands[number - 1].seating
    play = log.replay(len(seating), variant=board.variant)
    recorded = hand.record().taken
    matches = tuple(play.taken[seat] for seat in range(len(seating))) == recorded
    summary = board.hands[number - 1]
    # The deal is derived from the hands as recorded now (R4, R17); the log keeps who really led.
    moved_deal = None if log.first_leader == seating.index(summary.leader) else summary
    return render_template("tricks/log.html", game=game, hand=hand, log=log, play=play, matches=matches,
                           seated=game.names_of(seating), moved_deal=moved_deal)
