"""A game's hands: record, correct and remove them (R13-R17).

Views read the form, call the one function of the service for the change,
word the error it may raise, and redirect.
"""

from dataclasses import dataclass, replace

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from .. import rules, service
from ..db.models import read_open_log
from ..words.explain import describe
from ..words.i18n import _, names_list
from .forms import THEIRS, ConfirmForm, HandForm, shown_value
from .rendered import kept_page
from .responses import CONFLICT, INVALID, load_game, load_game_to_change, reloaded

bp = Blueprint("hands", __name__)

HAND_ERRORS = (rules.RuleError,)  # what the engine refuses in a hand, worded next to the form
DRAFT_SAVED = "draft-saved"  # a flash's category whose message is the key of a draft the device may drop


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def record_hand(game_id):
    """Record the next hand's hearts and Black Marias (R13-R15)."""
    kept = load_game_to_change(game_id, kept=True)  # as this process keeps it for its revision: the form showed it
    game, board = kept.game, kept.board
    if board.over:
        flash(_("The game is over. Correct a hand if the result is wrong (R17)."), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    number = board.next_hand.number
    seated = game.names_of(board.next_hand.seating)
    if request.method == "GET":  # the same form for every scorer of this revision: kept rendered
        return kept_page(game.id, game.revision, game.scorer_key, True, lambda: _new_hand_page(game, board))
    form = _posted_hand_form(len(seated), board.variant)
    posted = form.number_posted()
    if posted is None or not 1 <= posted <= number or form.based_on() is None:
        abort(400)
    if posted != number:
        # Another device, or a second tap on Save, recorded hand ``posted`` already: never saved as the next
        # hand without being asked (recorded twice), and never over it.
        if form.chose(THEIRS):
            return _dropped(game, form, posted)
        if form.chose_mine() is None or "fill" in request.form:
            return _recorded_meanwhile(game_id, form, posted)
    elif "fill" in request.form:
        return _hand_page(game, form, number, board=board)
    based_on = form.based_on() if posted == number else form.chose_mine()
    if not form.validate():
        _put_problems(form, board.variant, seated)
        if posted != number:
            return _recorded_meanwhile(game_id, form, posted, INVALID)
        return _hand_page(game, form, number, board=board), INVALID
    try:
        service.record_hand(kept, form.taken(board.variant), form.moon.data, form.last_trick_reserved.data,
                            based_on, nothing_collected=form.nothing_collected.data)
    except HAND_ERRORS as error:
        _put_problems(form, board.variant, seated, error)
        if posted != number:
            return _recorded_meanwhile(game_id, form, posted, INVALID)
        return _hand_page(game, form, number, board=board), INVALID
    except service.Conflict:
        if posted != number:
            return _recorded_meanwhile(game_id, form, posted)
        return _conflict(game_id, form, number)
    flash(_("Hand %(number)d recorded.", number=number), "success")
    flash(draft_key(game), DRAFT_SAVED)
    return redirect(url_for("games.table", game_id=game_id))


@bp.route("/games/<int:game_id>/hands/<int:number>", methods=["GET", "POST"])
def correct_hand(game_id, number):
    """Correct a recorded hand; everything derived follows, and the trail keeps the old values (R17)."""
    game = load_game_to_change(game_id)
    if request.method == "POST" and not 1 <= number <= len(game.hands):
        return _moved_away(game, number)
    hand = _hand_or_404(game, number)
    board = service.kept_game(game.id, game.revision, game.scorer_key).board  # as the form showed it
    if request.method == "GET":
        return _hand_page(game, HandForm(data=_hand_data(hand)), number, hand, board)
    seated = game.names_of(board.hands[number - 1].seating)
    form = _posted_hand_form(len(seated), board.variant)
    if "fill" in request.form:
        if form.asked_at() is not None:  # the question stays, at the revision it was asked at
            return _correction_contest(game, board, form, hand, form.asked_at())
        return _hand_page(game, form, number, hand, board)
    if form.based_on() is None:
        abort(400)
    if form.chose(THEIRS):
        return _kept_theirs(game, form, number)
    if not form.validate():
        _put_problems(form, board.variant, seated)
        return _correction_refused(game, form, number, hand, board)
    draft = draft_key(game, hand)
    try:
        service.correct_hand(game, number, form.taken(board.variant), form.moon.data,
                             form.last_trick_reserved.data, form.chose_mine() or form.based_on(),
                             nothing_collected=form.nothing_collected.data)
    except HAND_ERRORS as error:
        _put_problems(form, board.variant, seated, error)
        return _correction_refused(game, form, number, hand, board)
    except service.Conflict:
        return _conflict(game_id, form, number, correcting=True)
    flash(_("Hand %(number)d corrected.", number=number), "success")
    flash(draft, DRAFT_SAVED)
    return redirect(url_for("games.table", game_id=game_id))


@bp.route("/games/<int:game_id>/hands/<int:number>/remove", methods=["GET", "POST"])
def remove_hand(game_id, number):
    """Ask, then remove a recorded hand; later hands move up one; the trail keeps it (R17)."""
    game = load_game_to_change(game_id)
    _hand_or_404(game, number)
    form = ConfirmForm(request.form if request.method == "POST" else None)
    problem = None
    if request.method == "POST" and form.validate():
        if form.based_on() is None:
            abort(400)
        try:
            service.remove_hand(game, number, form.based_on())
        except rules.RuleError as error:  # the game would end earlier, or a seat change land before hand 1
            problem = describe(error, game.names)
        except service.Conflict as error:
            return _removal_conflict(game_id, number, form, error)
        else:
            flash(_("Hand %(number)d removed.", number=number), "success")
            return redirect(url_for("games.table", game_id=game_id))
    summary = game.scoreboard().hands[number - 1]
    status = INVALID if request.method == "POST" else 200
    return render_template("games/remove_hand.html", game=game, summary=summary, form=form,
                           problem=problem), status


def _conflict(game_id, form, number, correcting=False):
    """The form again, as typed, with the game as it is now (409): another device was quicker.

    A correction whose hand another device changed meanwhile asks which to keep (``_contest``), staying
    based on the revision it was made from; otherwise (something else changed, or a new hand's game did)
    the form moves on to the game as it is now, with the score, to be saved again as it stands.
    """
    game = load_game(game_id)
    board = game.scoreboard()
    hand = _hand_typed_for(game, form, number) if correcting else None
    if correcting and hand is None:
        flash(describe(service.Conflict()), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    if board.over and not correcting:
        flash(describe(service.Conflict()), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    if hand is not None and hand.number != number:
        form.renumbered = _("The hand you were correcting is now hand %(number)d.", number=hand.number)
        number = hand.number
    if hand is not None and _changed_meanwhile(game, board, form, hand):
        return _correction_contest(game, board, form, hand), CONFLICT
    form.revision.data = str(game.revision)
    form.theirs.data = form.choice.data = None
    form.conflict = describe(service.Conflict())
    if not correcting:
        number = board.next_hand.number
    form.number.data = str(number)
    shown = board.hands[number - 1] if correcting else board.next_hand
    form.seat_rows(len(shown.seating))  # a row a player of the hand as it is now
    return _hand_page(game, form, number, hand, board=board), CONFLICT


def _changed_meanwhile(game, board, form, hand):
    """Whether another device changed ``hand`` since ``form`` found it: its figures now are not those the form
    carries in ``found``. A form without them (a page of an older version of the app) goes by the trail: an
    entry about the hand among the newest, one a revision since the form's (more when a write of the club's
    moved a revision without an entry of the game's; fewer only after a legacy trick taken back, which writes
    two, and takes no hand)."""
    found = form.found_read(len(board.hands[hand.number - 1].seating))
    if found is not None:
        record = hand.record()
        return found != (record.taken, record.moon)
    since = game.revision - (form.based_on() or 0)
    newest = sorted(game.changes, key=lambda change: change.id)[-since:] if since > 0 else ()
    return any(change.hand_key == hand.key for change in newest)


@dataclass(frozen=True)
class SeatAside:
    """One seat of a hand another device saved first: its figures saved now beside what this device typed."""

    name: str
    saved: rules.Taken
    typed: tuple  # the hearts, Black Marias and J♦ boxes as typed (text)
    differs: bool  # what this device typed is not what is saved
    changed: bool  # the other device changed this seat since this device's form found it


@dataclass(frozen=True)
class Contest:
    """A hand another device saved while this one was typing it: seat by seat, what it holds now beside what
    was typed here, what the other device changed (``notes``), and the question with the words of its two
    buttons: keep theirs (``theirs``), put mine over it (``mine``, None where it cannot be done). ``revision``
    is the one shown, against which putting mine over it is checked."""

    seats: tuple
    saved_moon: tuple | None  # (the shooter's name, the moon's choice) of the hand as saved
    typed_moon: tuple | None  # the same for what was typed ("" for a choice not made yet)
    same: bool  # what was typed is what is saved
    notes: tuple = ()
    question: str = ""
    theirs: str = ""
    mine: str | None = None
    revision: int = 0


def _sides(game, board, form, number, found=None):
    """Hand ``number`` as saved now beside what ``form`` holds (a row a player of that hand), as a ``Contest``
    still without its question; with ``found`` (``HandForm.found_read``), notes naming what the other
    device changed since the form found the hand."""
    names = game.names_of(board.hands[number - 1].seating)
    saved = game.hands[number - 1].record()
    readable = not any(field.errors for entry in form.takings.entries
                       for field in (entry.hearts, entry.marias, entry.jacks))
    typed = form.taken(board.variant) if readable else None
    seats = tuple(SeatAside(
        names[seat], saved.taken[seat],
        tuple(shown_value(field, 0) for field in (entry.hearts, entry.marias, entry.jacks)),
        typed is None or typed[seat] != saved.taken[seat],
        found is not None and found[0][seat] != saved.taken[seat],
    ) for seat, entry in enumerate(form.takings.entries))
    saved_moon = _moon_of(names, saved.taken, saved.moon and saved.moon.value)
    typed_moon = _moon_of(names, typed, form.moon_read() or "") if typed else None
    notes = []
    changed = [seat.name for seat in seats if seat.changed]
    if changed:
        notes.append(_("The other phone changed the figures of %(names)s.", names=names_list(changed)))
    if found is not None and found[1] != saved.moon:
        notes.append(_("The other phone changed how the moon scores."))
    same = typed == saved.taken and (typed_moon and typed_moon[1]) == (saved_moon and saved_moon[1])
    return Contest(seats, saved_moon, typed_moon, same, tuple(notes))


def _moon_of(names, taken, choice):
    """(the shooter's name, ``choice``) if one of ``names`` shot the moon with ``taken`` (R15), else None."""
    shooter = rules.moon_shooter(dict(enumerate(taken)))
    return None if shooter is None or choice is None else (names[shooter], choice)


def _correction_contest(game, board, form, hand, revision=None):
    """The correction of ``hand`` asked about: another device saved the hand while this one was typing.
    The question is asked at ``revision`` (the game's, unless the form is asked again at an earlier one)."""
    number = hand.number
    sides = _sides(game, board, form, number, form.found_read(len(board.hands[number - 1].seating)))
    if sides.same:
        form.contest = replace(sides, question=_(
            "Another phone saved hand %(number)d while you were typing, with the figures you typed: there is "
            "nothing more to save.", number=number), theirs=_("Back to the table"), revision=game.revision)
    else:
        form.contest = replace(sides, question=_(
            "Another phone saved hand %(number)d while you were typing. Keep theirs, or put yours over it?",
            number=number), theirs=_("Keep theirs"), mine=_("Put mine over theirs"),
            revision=revision or game.revision)
    return _hand_page(game, form, number, hand, board)


def _recorded_meanwhile(game_id, form, posted, status=CONFLICT):
    """A new hand's form posted for hand ``posted``, which another device (or a second tap on Save) recorded
    meanwhile: that hand as recorded beside what this device typed, and the question (409): record this
    device's as the next hand too, or drop it. The form stays the form of hand ``posted``."""
    game = load_game(game_id)
    if posted > len(game.hands):  # a removal took it away again since: the form is for the next hand again
        return _conflict(game_id, form, posted)
    board = game.scoreboard()
    seating = board.hands[posted - 1].seating
    form.seat_rows(len(seating))  # a row a player of that hand, as this device typed them
    sides = _sides(game, board, form, posted)
    following = not board.over and board.next_hand.seating == seating  # can be the next hand, as typed
    if sides.same:
        question = _("Hand %(number)d is saved already, with the figures you typed (by another phone, or by "
                     "a second tap on Save).", number=posted)
    elif not following:
        question = _("Another phone recorded hand %(number)d while you were typing, and the game has moved on "
                     "since: yours cannot be recorded as another hand.", number=posted)
    else:
        question = _("Another phone recorded hand %(number)d while you were typing. Record yours as hand "
                     "%(next)d too, or drop it?", number=posted, next=board.next_hand.number)
    mine = _("Record mine as hand %(number)d", number=board.next_hand.number) if following and not sides.same else None
    form.contest = replace(sides, question=question, theirs=_("Back to the table") if sides.same else _("Drop mine"),
                           mine=mine, revision=game.revision)
    return _hand_page(game, form, board.next_hand.number if following else posted, board=board), status


def _dropped(game, form, posted):
    """This device's figures for hand ``posted``, which another device (or a second tap) recorded meanwhile,
    dropped as chosen: the table, saying so unless they were the figures recorded."""
    if posted <= len(game.hands):
        board = game.scoreboard()
        form.seat_rows(len(board.hands[posted - 1].seating))
        if not _sides(game, board, form, posted).same:
            flash(_("Hand %(number)d is as the other phone recorded it; what you typed was dropped.",
                    number=posted), "success")
    flash(draft_key(game), DRAFT_SAVED)
    return redirect(url_for("games.table", game_id=game.id))


def _kept_theirs(game, form, number):
    """A correction dropped as chosen, keeping the hand as another device saved it: its form as it is now
    (the table when both said the same, or when the hand is gone)."""
    hand = _hand_typed_for(game, form, number)
    if hand is None:
        flash(describe(service.Conflict()), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    flash(draft_key(game, hand), DRAFT_SAVED)
    if _sides(game, game.scoreboard(), form, hand.number).same:
        return redirect(url_for("games.table", game_id=game.id))
    flash(_("Hand %(number)d is as the other phone saved it; what you typed was dropped.", number=hand.number),
          "success")
    return redirect(url_for("hands.correct_hand", game_id=game.id, number=hand.number))


def _correction_refused(game, form, number, hand, board):
    """A correction the rules refuse (400): the form with every problem, and still the question if it was
    putting this device's figures over another's."""
    if form.chose_mine() is None:
        return _hand_page(game, form, number, hand, board), INVALID
    return _correction_contest(game, board, form, hand, form.chose_mine()), INVALID


def _moved_away(game, number):
    """A correction posted for a hand number the game no longer has: a removal moved or took the hand
    the form names by its own key (409, as any change made meanwhile), else there is no such hand (404)."""
    form = HandForm(request.form)
    if form.based_on() is None or form.hand_key_posted(draft_prefix(game)) is None:
        abort(404)
    return _conflict(game.id, form, number, correcting=True)


def _hand_typed_for(game, form, number):
    """The hand a refused correction was typed for, wherever a removal or an undo moved it; None if it is gone.

    The form names it by its own key (in its draft key); a form without one is taken at its number.
    """
    key = form.hand_key_posted(draft_prefix(game))
    if key is None:
        return game.hands[number - 1] if number <= len(game.hands) else None
    return next((hand for hand in game.hands if hand.key == key), None)


def _removal_conflict(game_id, number, form, error):
    """The removal asked again, as the game is now: another device wrote first (409)."""
    game = reloaded(game_id, form)
    if number > len(game.hands):
        flash(describe(error), "warning")
        return redirect(url_for("games.table", game_id=game_id))
    summary = game.scoreboard().hands[number - 1]
    return render_template("games/remove_hand.html", game=game, summary=summary, form=form,
                           problem=describe(error)), CONFLICT


def _put_problems(form, variant, names, refused=None):
    """Every reason the engine finds to refuse the hand as typed, all at once, each where it belongs.

    Counts the form could not read are the engine's to pass over (only "too
    many" is checked for their kind). ``refused`` is what the service raised:
    shown itself if it is about something other than the hand's own figures
    (the game would end before later hands). ``names`` are the hand's players
    in its seating order.
    """
    taken, unread = form.as_read(variant)
    problems = rules.hand_problems(taken, form.moon_read(), form.last_trick_reserved.data, variant, unread,
                                   nothing_collected_confirmed=form.nothing_collected.data)
    for problem in problems or ((refused,) if refused is not None else ()):
        if isinstance(problem, rules.MoonChoiceNeeded) and form.moon.errors:
            continue  # the moon choice is refused already, next to it
        _put_error(form, problem, names)


def _put_error(form, error, names):
    """Show an engine refusal next to the field it is about, or above Save for the hand as a whole.

    ``names`` are the hand's players in its seating order.
    """
    message = describe(error, names)
    if isinstance(error, rules.MoreThanTheHandHolds) and error.player is not None:
        entry = form.takings.entries[error.player]
        field = {"hearts": entry.hearts, "marias": entry.marias, "jacks": entry.jacks}[error.what]
        field.errors = [*field.errors, message]
        form.naming = (*form.naming, message)  # the summary names the player once
    elif isinstance(error, rules.NothingCollected):
        form.nothing_collected_question = message
    else:
        form.hand_errors = [*form.hand_errors, message]


def draft_prefix(game):
    """The start of the keys under which a device keeps what was typed for ``game``'s hands (static/hand.js).

    The game's id and the moment it was made: a restored or new database
    may give another game the same id. Never the scorer key, which is secret.
    """
    made = game.created_at.isoformat() if game.created_at else "unknown"
    return f"scorekeeper draft {game.id} {made} "


def draft_key(game, hand=None):
    """The key of what a device typed for ``hand``, or for the next hand when None.

    A hand's own key, not its number: numbers move when a hand is removed.
    """
    return draft_prefix(game) + ("next" if hand is None else f"hand-{hand.key}")


def _hand_or_404(game, number):
    if not 1 <= number <= len(game.hands):
        abort(404)
    return game.hands[number - 1]


def _new_hand_form(game, board):
    """A blank hand form for the next hand's seating, or one filled in from the tricks played (R13)."""
    upcoming = board.next_hand
    log = read_open_log(game.id) if game.playing_trick_by_trick else None
    play = log.replay(len(upcoming.seating), variant=board.variant) if log else None
    if play is None or not play.finished:
        return HandForm(data={"number": str(upcoming.number), "revision": str(game.revision),
                              "takings": [{} for _player in upcoming.seating]})
    form = HandForm(data={
        "number": str(upcoming.number),
        "revision": str(game.revision),
        "takings": [{"hearts": t.hearts, "marias": t.marias, "jacks": t.jacks} for t in play.taken.values()],
        "last_trick_reserved": play.uncollected != rules.NOTHING,
    })
    form.from_tricks = True
    return form


def _new_hand_page(game, board):
    """The form of the next hand, and the CSRF token it holds."""
    form = _new_hand_form(game, board)
    return _hand_page(game, form, board.next_hand.number, board=board), form.csrf_token.current_token


def _hand_data(hand):
    return {
        "number": str(hand.number),
        "revision": str(hand.game.revision),
        "found": HandForm.found_text(hand.record()),
        "takings": [{"hearts": t.hearts, "marias": t.marias, "jacks": t.jacks} for t in hand.takings],
        "last_trick_reserved": bool(hand.uncollected_hearts or hand.uncollected_marias or hand.uncollected_jacks),
        "moon": hand.moon,
    }


def _posted_hand_form(players, variant):
    """The posted hand form, with exactly one row per player of the hand whatever was posted, its moon
    refusal worded for ``variant``."""
    form = HandForm(request.form)
    form.seat_rows(players)
    form.moon_rules(variant)
    if "fill" in request.form:
        form.fill_remaining_hearts(request.form["fill"])
    return form


def _moon_missed(taken):
    """(seat, what nobody collected) when one player took every heart and Black Maria collected and a reserved
    last trick left the rest with nobody: no moon (R13; R15, decision b). None otherwise."""
    left = rules.Taken(rules.HEARTS_IN_HAND - sum(t.hearts for t in taken),
                       rules.MARIAS_IN_HAND - sum(t.marias for t in taken))
    if left.hearts < 0 or left.marias < 0:
        return None
    seat = rules.moon_missed(dict(enumerate(taken)))
    return None if seat is None else (seat, left)


def _hand_page(game, form, number, hand=None, board=None):
    """The hand form for hand ``number``: its seating, dealer and leader, and what was typed.

    ``board`` is the game's scoreboard if the caller has it (a conflict shows its totals).
    """
    now = game.scoreboard() if board is None else board
    summary = now.hands[number - 1] if number <= len(now.hands) else now.next_hand
    taken = form.taken(now.variant) if not any(e.errors for e in form.takings.entries) else None
    shooter = rules.moon_shooter(dict(enumerate(taken))) if taken else None
    missed = _moon_missed(taken) if taken and shooter is None else None
    return render_template(
        "games/hand.html", game=game, form=form, number=number, hand=hand, summary=summary, contest=form.contest,
        seated=game.names_of(summary.seating), variant=now.variant,
        shooter=shooter, missed=missed, board=board, revision=form.revision.data or game.revision,
        draft_key=draft_key(game, hand), draft_prefix=draft_prefix(game),
        hand_keys=" ".join(f"hand-{shown.key}" for shown in game.hands),
        night_table=None if hand is not None else service.nights.table_of_game(game, now),
    )
