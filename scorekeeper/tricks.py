"""Tricks: settle one trick anywhere, and play a game's hand trick by trick (R6-R13)."""

import re

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for

from . import rules
from .explain import explain, illegal_lead
from .access import require_scorer
from .forms import ConfirmForm, KittyForm, TrickForm, whole_number
from .games import INVALID, changed_meanwhile_message, load_game
from .i18n import _
from .models import ChangedMeanwhile, Game, Trick, TrickLog, cards_text, commit_change, db

bp = Blueprint("tricks", __name__)

CARD_SEPARATORS = re.compile(r"[\s,;]+")


class CardsError(ValueError):
    """Typed cards that cannot be read; the message names the problem in plain words."""


def read_cards(text, most=rules.MAX_PLAYERS):
    """Cards typed as "10s 9h, Q♠" into a tuple of cards, or raise ``CardsError``."""
    words = [word for word in CARD_SEPARATORS.split(text or "") if word]
    if len(words) > most:
        raise CardsError(_("A trick has at most %(most)d cards, one per player (R1).", most=most))
    cards = []
    for word in words:
        try:
            cards.append(rules.Card.parse(word))
        except ValueError:
            raise CardsError(_(
                "“%(card)s” is not a card. Write a rank and a suit, like 10S, Q♠ or 2c.", card=word)) from None
    return tuple(cards)


def settle_trick(text):
    """Resolve typed cards, or raise ``CardsError``/``ValueError`` with a plain message (R9)."""
    cards = read_cards(text)
    if not cards:
        raise CardsError(_("Enter the trick's cards in the order they were played, the lead first."))
    try:
        return rules.resolve_trick(cards)
    except ValueError:
        card = next(c for c in cards if cards.count(c) > rules.COPIES)
        raise CardsError(_(
            "%(card)s appears %(count)d times, but the two decks hold only two (R2).",
            card=card, count=cards.count(card))) from None


# --- Settle a trick ------------------------------------------------------------


@bp.get("/settle")
def settle():
    """Settle one trick: who wins, what cancelled, and why (R9)."""
    text = request.args.get("cards", "")
    game = _optional_game(request.args.get("game"))
    leader = _leader(game, request.args.get("leader"))
    result = error = None
    if text.strip():
        try:
            result = settle_trick(text)
        except CardsError as problem:
            error = str(problem)
    seats = None
    if game is not None and result is not None:
        seats = [(leader + position) % len(game.players) for position in range(len(result.cards))]
    status = INVALID if error else 200
    return render_template("tricks/settle.html", text=text, game=game, leader=leader,
                           result=result, error=error, seats=seats), status


@bp.get("/settle.json")
def settle_json():
    """The settled trick as JSON: winner position or null, cancelled positions, explanation."""
    try:
        result = settle_trick(request.args.get("cards", ""))
    except CardsError as problem:
        return jsonify(error=str(problem)), 400
    return jsonify(
        winner=result.winner,
        cancelled=sorted(result.cancelled),
        explanation=explain(result.reason),
        cards=[str(card) for card in result.cards],
        rules=list(result.reason.rules),
    )


def _optional_game(game_id):
    number = whole_number(game_id)
    return None if number is None else db.session.get(Game, number)


def _leader(game, seat_text):
    """The seat that led, from the form; by default whoever leads the game's next hand."""
    if game is None:
        return 0
    players = len(game.players)
    seat = whole_number(seat_text, most=players - 1)
    if seat is not None:
        return seat
    upcoming = game.scoreboard().next_hand
    return upcoming.leader if upcoming else 0


# --- Playing a hand trick by trick -----------------------------------------------


def _current_play(game):
    """The open hand's trick log (or None) and its replayed state, or a 302 if the game is over."""
    board = game.scoreboard()
    if board.over:
        return board, None, None
    log = game.trick_log
    play = log.replay(len(game.players)) if log else rules.HandPlay(len(game.players), board.next_hand.leader)
    return board, log, play


def kitty_needed(log, play):
    """The kitty's winner has it but the table has not said what it held (R12)."""
    return play.deal.kitty > 0 and play.kitty_taken_by is not None and not (log and log.kitty)


@bp.route("/games/<int:game_id>/play", methods=["GET", "POST"])
def play_hand(game_id):
    """Play the open hand trick by trick: each trick's cards from the leader (R6-R13)."""
    game = load_game(game_id)
    require_scorer(game)
    board, log, play = _current_play(game)
    if play is None:
        flash(_("The game is over. Correct a hand if the result is wrong (R17)."), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    players = len(game.players)
    if request.method == "GET":
        form = TrickForm(data={"number": str(play.trick_number), "cards": [""] * players})
        return _play_page(game, board, log, play, form)

    form = TrickForm(request.form)
    while len(form.cards.entries) < players:
        form.cards.append_entry()
    del form.cards.entries[players:]
    form.problem = form.illegal_lead = None
    if not form.validate():
        return _play_page(game, board, log, play, form), INVALID
    if form.based_on() is None:
        abort(400)
    if form.number.data != str(play.trick_number) or play.finished:
        flash(_("Trick %(number)s was already entered; here is the hand now.", number=form.number.data), "warning")
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    if kitty_needed(log, play):
        kitty_form = KittyForm()
        kitty_form.problem = _("First say what the kitty held (R12).")
        return _play_page(game, board, log, play, form, kitty_form), INVALID
    cards = _read_trick(form, play)
    if cards is None:
        return _play_page(game, board, log, play, form), INVALID
    try:
        play.play(cards, confirm=form.confirm.data)
    except rules.IllegalLead as warning:
        form.illegal_lead = illegal_lead(warning)
        return _play_page(game, board, log, play, form), INVALID
    if log is None:
        log = TrickLog(first_leader=board.next_hand.leader)
        game.trick_logs.append(log)
    log.tricks.append(Trick(number=play.trick_number - 1, cards=cards_text(cards), confirmed=form.confirm.data))
    try:
        commit_change(game, based_on=form.based_on())
    except ChangedMeanwhile:
        flash(changed_meanwhile_message(), "warning")
    return redirect(url_for("tricks.play_hand", game_id=game.id, _anchor="last-trick"))


def _read_trick(form, play):
    """The trick's cards from the form, or None with the problems left next to each card."""
    cards = []
    for entry in form.cards.entries:
        text = (entry.data or "").strip()
        if not text:
            entry.errors = [_("Enter this player's card.")]
            continue
        try:
            cards.append(rules.Card.parse(text))
        except ValueError:
            entry.errors = [_("“%(card)s” is not a card. Write a rank and a suit, like 10S, Q♠ or 2c.", card=text)]
            continue
        card = cards[-1]
        if play.copies_played(card) + cards.count(card) > rules.COPIES:
            entry.errors = [_(
                "%(card)s has already been played twice in this hand (kitty included); "
                "the two decks hold only two (R2).", card=card)]
    if any(entry.errors for entry in form.cards.entries):
        return None
    return cards


@bp.post("/games/<int:game_id>/play/kitty")
def enter_kitty(game_id):
    """Say what the kitty held once its winner turns it over (R12)."""
    game = load_game(game_id)
    require_scorer(game)
    board, log, play = _current_play(game)
    if play is None or not kitty_needed(log, play):
        return redirect(url_for("tricks.play_hand", game_id=game.id))
    form = KittyForm(request.form)
    form.problem = None
    trick_form = TrickForm(data={"number": str(play.trick_number), "cards": [""] * len(game.players)})
    if not form.validate():
        return _play_page(game, board, log, play, trick_form, form), INVALID
    if form.based_on() is None:
        abort(400)
    try:
        kitty = read_cards(form.cards.data, most=play.deal.kitty)
        if len(kitty) != play.deal.kitty:
            raise CardsError(_("The kitty holds %(count)d cards (R3); enter all of them.", count=play.deal.kitty))
        log.kitty = cards_text(kitty)
        log.replay(len(game.players))
    except CardsError as problem:
        form.problem = str(problem)
    except ValueError:
        form.problem = _("One of these cards has already been played twice in this hand; check the kitty (R2).")
    if form.problem:
        db.session.rollback()
        game = load_game(game_id)
        board, log, play = _current_play(game)
        return _play_page(game, board, log, play, trick_form, form), INVALID
    try:
        commit_change(game, based_on=form.based_on())
    except ChangedMeanwhile:
        flash(changed_meanwhile_message(), "warning")
    return redirect(url_for("tricks.play_hand", game_id=game.id))


@bp.post("/games/<int:game_id>/play/undo")
def undo_trick(game_id):
    """Take back the last trick entered."""
    game = load_game(game_id)
    require_scorer(game)
    log = game.trick_log
    form = ConfirmForm(request.form)
    if not form.validate() or form.based_on() is None:
        abort(400)
    if log is not None and log.tricks:
        number = log.tricks[-1].number
        log.tricks.pop()
        try:
            commit_change(game, based_on=form.based_on())
        except ChangedMeanwhile:
            flash(changed_meanwhile_message(), "warning")
        else:
            flash(_("Trick %(number)d taken back.", number=number), "success")
    return redirect(url_for("tricks.play_hand", game_id=game.id))


def _play_page(game, board, log, play, form, kitty_form=None):
    return render_template(
        "tricks/play.html", game=game, board=board, log=log, play=play, form=form,
        kitty_form=kitty_form or KittyForm(), kitty_needed=kitty_needed(log, play),
        revision=form.revision.data or game.revision,
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
    play = log.replay(len(game.players))
    recorded = hand.record().taken
    matches = tuple(play.taken[seat] for seat in range(len(game.players))) == recorded
    return render_template("tricks/log.html", game=game, hand=hand, log=log, play=play, matches=matches)
