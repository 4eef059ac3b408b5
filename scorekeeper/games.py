"""The games: list, new game, the table view, recording, correcting and removing hands."""

from datetime import date

from flask import (
    Blueprint, Response, abort, flash, redirect, render_template, request, url_for,
)
from sqlalchemy.orm import joinedload, selectinload
from werkzeug.datastructures import CombinedMultiDict, MultiDict

from . import rules
from .chart import score_chart
from .access import grant, is_scorer, matches, require_scorer
from .exchange import DocumentError, dumps, export_game, import_text
from .forms import ConfirmForm, HandForm, ImportForm, NewGameForm, whole_number
from .i18n import _
from .models import Change, ChangedMeanwhile, Game, Hand, Player, TrickLog, commit_change, db
from .serving import qr_svg, watch_url

bp = Blueprint("games", __name__)

INVALID = 400  # status of a form shown again with its errors
RECENT_HANDS = 10  # hands in the table view's history; all of them one tap away
CONFLICT = 409  # status of a form shown again because another device wrote first


def load_game(game_id):
    """The game with all it holds in a fixed number of queries (six at most), or 404."""
    return db.get_or_404(Game, game_id, options=GAME_LOADING)


GAME_LOADING = [
    joinedload(Game.players),
    selectinload(Game.hands).joinedload(Hand.takings),
    selectinload(Game.trick_logs).selectinload(TrickLog.tricks),
    selectinload(Game.changes),
]


@bp.get("/")
def index():
    """The games, newest first, in progress and finished."""
    games = db.session.execute(
        db.select(Game)
        .options(selectinload(Game.players), selectinload(Game.hands).joinedload(Hand.takings))
        .order_by(Game.created_at.desc(), Game.id.desc())
    ).scalars().all()
    return render_template("games/index.html", games=[(game, game.scoreboard()) for game in games])


# --- A new game ------------------------------------------------------------


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    """Set up a game: players in clockwise order, first dealer, target (R1, R4, R16)."""
    if request.method == "GET":
        return render_template("games/new.html", form=NewGameForm())
    form = NewGameForm(request.form)
    if "add" in request.form or "remove" in request.form:
        return render_template("games/new.html", form=_reseated(form, request.form))
    if not form.validate():
        return render_template("games/new.html", form=form), INVALID
    game = Game(
        name=(form.name.data or "").strip() or date.today().isoformat(),
        target=form.target.data,
        first_dealer=form.first_dealer.data,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names)],
    )
    db.session.add(game)
    commit_change(game)
    grant(game)
    if game.target < rules.SUGGESTED_MINIMUM_TARGET:
        flash(_("A target of %(target)d makes a short game: 150 is usual and 100 a good minimum (R16).",
                target=game.target), "warning")
    return redirect(url_for("games.table", game_id=game.id))


def _reseated(form, formdata):
    """The new-game form with a seat added or removed, keeping everything typed."""
    names = [entry.data or "" for entry in form.players.entries]
    dealer = form.first_dealer.data if isinstance(form.first_dealer.data, int) else 0
    if "add" in formdata and len(names) < rules.MAX_PLAYERS:
        names.append("")
    elif "remove" in formdata and len(names) > rules.MIN_PLAYERS:
        try:
            seat = int(formdata["remove"])
        except ValueError:
            seat = len(names) - 1
        if 0 <= seat < len(names):
            names.pop(seat)
            dealer = 0 if dealer == seat else dealer - (dealer > seat)
    reseated = MultiDict(
        (key, value) for key, value in formdata.items(multi=True)
        if not key.startswith("players-") and key not in ("add", "remove", "first_dealer")
    )
    for seat, name in enumerate(names):
        reseated.add(f"players-{seat}", name)
    reseated.add("first_dealer", str(min(dealer, len(names) - 1)))
    return NewGameForm(reseated)


# --- The table view ----------------------------------------------------------


@bp.get("/games/<int:game_id>")
def table(game_id):
    """The table view: this hand's dealer, leader and passing, the scoreboard, the history.

    The scorer's device sees the controls; everyone else sees the read-only view.
    """
    game = load_game(game_id)
    return table_page(game, scorer=is_scorer(game))


def table_page(game, scorer):
    """The table view of ``game``: with the scorer's controls, or read-only for everyone else."""
    board = game.scoreboard()
    page = {"game": game, "board": board, "pass_to": rules.pass_to, "readonly": not scorer,
            "recent_hands": RECENT_HANDS, "chart": score_chart(board, game.names)}
    if scorer:
        share = watch_url(game)
        page.update(
            share_url=share, share_qr=qr_svg(share), revert_form=ConfirmForm(),
            scorer_link=url_for("games.become_scorer", game_id=game.id, key=game.scorer_key, _external=True),
        )
    return render_template("games/table.html", **page)


@bp.get("/games/<int:game_id>/hands")
def all_hands(game_id):
    """Every recorded hand of the game, hand by hand."""
    game = load_game(game_id)
    return render_template("games/hands.html", game=game, board=game.scoreboard(), readonly=not is_scorer(game))


@bp.get("/games/<int:game_id>/scorer/<key>")
def become_scorer(game_id, key):
    """The secret scorer link: this device becomes a scorer of the game too."""
    game = db.get_or_404(Game, game_id)
    if not matches(key, game.scorer_key):
        abort(404)
    grant(game)
    flash(_("This device can now record and correct hands of %(name)s.", name=game.name), "success")
    return redirect(url_for("games.table", game_id=game.id))


# --- Recording and correcting hands --------------------------------------


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def record_hand(game_id):
    """Record the next hand's hearts and Black Marias (R13-R15)."""
    game = load_game(game_id)
    require_scorer(game)
    board = game.scoreboard()
    if board.over:
        flash(_("The game is over. Correct a hand if the result is wrong (R17)."), "warning")
        return redirect(url_for("games.table", game_id=game.id))
    number = board.next_hand.number
    if request.method == "GET":
        return _hand_page(game, _new_hand_form(game, number), number)
    form = _posted_hand_form(game)
    if "fill" in request.form:
        return _hand_page(game, form, number)
    posted = whole_number(form.number.data)
    if posted is None or posted > number or form.based_on() is None:
        abort(400)
    if posted != number:
        # A second tap on Save, or another device, recorded this hand already.
        return _conflict(game_id, form, posted)
    records = [hand.record() for hand in game.hands]
    record = _checked_record(form, game, records, len(records))
    if record is None:
        return _hand_page(game, form, number), INVALID
    hand = Hand(number=number)
    hand.set_facts(record)
    game.hands.append(hand)
    _keep_trick_log(game, hand)
    try:
        commit_change(game, based_on=form.based_on())
    except ChangedMeanwhile:
        return _conflict(game_id, form, number)
    flash(_("Hand %(number)d recorded.", number=number), "success")
    return redirect(url_for("games.table", game_id=game.id))


@bp.route("/games/<int:game_id>/hands/<int:number>", methods=["GET", "POST"])
def correct_hand(game_id, number):
    """Correct a recorded hand; everything derived follows, and the trail keeps the old values (R17)."""
    game = load_game(game_id)
    require_scorer(game)
    hand = _hand_or_404(game, number)
    if request.method == "GET":
        form = HandForm(data=_hand_data(hand))
        return _hand_page(game, form, number, hand)
    form = _posted_hand_form(game)
    if "fill" in request.form:
        return _hand_page(game, form, number, hand)
    if form.based_on() is None:
        abort(400)
    records = [h.record() for h in game.hands]
    record = _checked_record(form, game, records, number - 1)
    if record is None:
        return _hand_page(game, form, number, hand), INVALID
    before = hand.record()
    if record != before:
        hand.set_facts(record)
        game.changes.append(Change(action="correct", hand_number=number,
                                   before=Change.facts(before), after=Change.facts(record)))
    try:
        commit_change(game, based_on=form.based_on())
    except ChangedMeanwhile:
        return _conflict(game_id, form, number, correcting=True)
    flash(_("Hand %(number)d corrected.", number=number), "success")
    return redirect(url_for("games.table", game_id=game.id))


@bp.route("/games/<int:game_id>/hands/<int:number>/remove", methods=["GET", "POST"])
def remove_hand(game_id, number):
    """Ask, then remove a recorded hand; later hands move up one; the trail keeps it (R17)."""
    game = load_game(game_id)
    require_scorer(game)
    hand = _hand_or_404(game, number)
    form = ConfirmForm(request.form if request.method == "POST" else None)
    problem = None
    if request.method == "POST" and form.validate():
        if form.based_on() is None:
            abort(400)
        records = [h.record() for h in game.hands if h is not hand]
        try:
            game.scoreboard(records)
        except rules.HandAfterGameOver as error:
            problem = _after_game_over_message(error)
        else:
            game.changes.append(Change(action="remove", hand_number=number,
                                       before=Change.facts(hand.record()), after=None))
            _renumber(game, remove=hand)
            try:
                commit_change(game, based_on=form.based_on())
            except ChangedMeanwhile:
                flash(changed_meanwhile_message(), "warning")
                return redirect(url_for("games.table", game_id=game_id))
            flash(_("Hand %(number)d removed.", number=number), "success")
            return redirect(url_for("games.table", game_id=game.id))
    summary = game.scoreboard().hands[number - 1]
    status = INVALID if request.method == "POST" else 200
    return render_template("games/remove_hand.html", game=game, summary=summary, form=form,
                           problem=problem), status


@bp.post("/games/<int:game_id>/changes/<int:change_id>/revert")
def revert_change(game_id, change_id):
    """Undo one correction or removal from the trail, itself kept in the trail (R17)."""
    game = load_game(game_id)
    require_scorer(game)
    change = next((c for c in game.changes if c.id == change_id), None)
    form = ConfirmForm(request.form)
    if change is None:
        abort(404)
    if not form.validate() or form.based_on() is None:
        abort(400)
    problem = _revert(game, change)
    if problem:
        db.session.rollback()
        flash(problem, "warning")
        return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))
    try:
        commit_change(game, based_on=form.based_on())
    except ChangedMeanwhile:
        flash(changed_meanwhile_message(), "warning")
        return redirect(url_for("games.table", game_id=game_id))
    flash(_("Hand %(number)d is back as it was before that change.", number=change.hand_number), "success")
    return redirect(url_for("games.table", game_id=game.id, _anchor="changes"))


def _revert(game, change):
    """Put a hand back as it was before ``change``; the problem in words if it cannot be."""
    number = change.hand_number
    restored = Change.record_of(change.before)
    if change.after is None:  # the hand was removed: put it back in its place
        if number > len(game.hands) + 1:
            return _("Hand %(number)d cannot go back in its place: hands were removed since.", number=number)
        records = [h.record() for h in game.hands]
        records.insert(number - 1, restored)
    else:
        if number > len(game.hands) or game.hands[number - 1].record() != Change.record_of(change.after):
            return _("Hand %(number)d has changed since; revert the later changes first.", number=number)
        records = [h.record() for h in game.hands]
        records[number - 1] = restored
    try:
        game.scoreboard(records)
    except rules.HandAfterGameOver as error:
        return _after_game_over_message(error)
    current = game.hands[number - 1].record() if change.after is not None else None
    if change.after is None:
        hand = Hand(number=number)
        hand.set_facts(restored)
        _renumber(game, insert=hand)
    else:
        game.hands[number - 1].set_facts(restored)
    game.changes.append(Change(action="revert", hand_number=number,
                               before=Change.facts(current), after=Change.facts(restored)))
    return None


def _renumber(game, remove=None, insert=None):
    """Remove or insert one hand, moving the later hands' numbers one at a time.

    Each move is flushed on its own, in an order that never puts two hands on
    one number, which the (game, number) unique constraint forbids.
    """
    if remove is not None:
        later = [h for h in game.hands if h.number > remove.number]
        game.hands.remove(remove)
        db.session.flush()
        for hand in later:
            hand.number -= 1
            db.session.flush()
    else:
        for hand in sorted((h for h in game.hands if h.number >= insert.number), key=lambda h: -h.number):
            hand.number += 1
            db.session.flush()
        game.hands.insert(insert.number - 1, insert)


def _conflict(game_id, form, number, correcting=False):
    """The form again, as typed, with the score as it is now: another device was quicker."""
    db.session.rollback()
    game = load_game(game_id)
    board = game.scoreboard()
    if correcting:
        form.conflict = changed_meanwhile_message()
    else:
        form.conflict = _(
            "Hand %(number)d was just recorded by another device (or by a second tap on Save). "
            "Here is the score now; what you typed is kept below. Save it again only if it is "
            "for the next hand.", number=number)
        number = board.next_hand.number if board.next_hand else number
        form.number.data = str(number)
    form.revision.data = str(game.revision)
    if board.over and not correcting:
        flash(form.conflict, "warning")
        return redirect(url_for("games.table", game_id=game.id))
    hand = game.hands[number - 1] if correcting and number <= len(game.hands) else None
    return _hand_page(game, form, number, hand, board=board), CONFLICT


def changed_meanwhile_message():
    """What a device is told when another one changed the game first."""
    return _("Another device changed this game a moment ago, so nothing was saved. "
             "Here is the score now; check your change and save it again.")


def _hand_or_404(game, number):
    if not 1 <= number <= len(game.hands):
        abort(404)
    return game.hands[number - 1]


def _new_hand_form(game, number):
    """A blank hand form, or one filled in from the tricks played (R13)."""
    log = game.trick_log
    play = log.replay(len(game.players)) if log else None
    if play is None or not play.finished:
        return HandForm(data={"number": str(number), "revision": str(game.revision),
                              "takings": [{} for _player in game.players]})
    form = HandForm(data={
        "number": str(number),
        "revision": str(game.revision),
        "takings": [{"hearts": t.hearts, "marias": t.marias} for t in play.taken.values()],
        "last_trick_reserved": bool(play.uncollected.hearts or play.uncollected.marias),
    })
    form.from_tricks = True
    return form


def _keep_trick_log(game, hand):
    """The tricks played for this hand become its log; an empty log is dropped."""
    log = game.trick_log
    if log is None:
        return
    if log.tricks:
        log.hand = hand
    else:
        game.trick_logs.remove(log)


def _hand_data(hand):
    return {
        "number": str(hand.number),
        "revision": str(hand.game.revision),
        "takings": [{"hearts": t.hearts, "marias": t.marias} for t in hand.takings],
        "last_trick_reserved": bool(hand.uncollected_hearts or hand.uncollected_marias),
        "moon": hand.moon,
    }


def _posted_hand_form(game):
    """The posted hand form, with exactly one row per player whatever was posted."""
    form = HandForm(request.form)
    players = len(game.players)
    while len(form.takings.entries) < players:
        form.takings.append_entry()
    del form.takings.entries[players:]
    if "fill" in request.form:
        _fill_remaining_hearts(form, request.form["fill"])
    return form


def _fill_remaining_hearts(form, seat_text):
    """Give one player the hearts the others did not take (the "Rest" button)."""
    try:
        seat = int(seat_text)
        entry = form.takings.entries[seat]
    except (ValueError, IndexError):
        return
    others = sum(
        e.hearts.data or 0 for i, e in enumerate(form.takings.entries)
        if i != seat and isinstance(e.hearts.data, int)
    )
    rest = max(rules.HEARTS_IN_HAND - others, 0)
    entry.hearts.data = rest
    entry.hearts.raw_data = [str(rest)]


def _checked_record(form, game, records, index):
    """The hand as an engine record if the form holds a complete, legal hand, else None.

    Problems are left on the form: per field, and in ``form.hand_errors`` for
    the hand as a whole (totals, the moon choice, the game's end).
    """
    form.hand_errors = []
    if not form.validate():
        return None
    taken = form.taken()
    hearts = sum(t.hearts for t in taken)
    marias = sum(t.marias for t in taken)
    if hearts > rules.HEARTS_IN_HAND:
        form.hand_errors.append(_(
            "The hearts add up to %(hearts)d, but a hand holds only 26 (R14).", hearts=hearts))
    if marias > rules.MARIAS_IN_HAND:
        form.hand_errors.append(_(
            "The Black Marias add up to %(marias)d, but a hand holds only 2 (R14).", marias=marias))
    if form.hand_errors:
        return None
    if (hearts, marias) != (rules.HEARTS_IN_HAND, rules.MARIAS_IN_HAND) and not form.last_trick_reserved.data:
        form.hand_errors.append(_(
            "The hearts add up to %(hearts)d of 26 and the Black Marias to %(marias)d of 2. "
            "If the last trick was reserved and nobody collected its cards (R13), tick the box below; "
            "otherwise correct the counts.", hearts=hearts, marias=marias))
        return None
    shooter = rules.moon_shooter(dict(enumerate(taken)))
    if shooter is not None and form.moon.data is None:
        form.moon_needed = True
        form.hand_errors.append(_(
            "%(name)s took all 26 hearts and both Black Marias: they shot the moon! "
            "Choose how it scores (R15).", name=game.names[shooter]))
        return None
    record = rules.HandRecord(taken, rules.Moon(form.moon.data) if shooter is not None else None)
    changed = records[:index] + [record] + records[index + 1:]
    try:
        game.scoreboard(changed)
    except rules.HandAfterGameOver as error:
        form.hand_errors.append(_after_game_over_message(error))
        return None
    return record


def _after_game_over_message(error):
    return _(
        "With this change the game would be over after hand %(number)d (R16), but later hands are "
        "recorded. Remove the later hands first if this is right.", number=error.ended_after)


def _hand_page(game, form, number, hand=None, board=None):
    taken = form.taken() if not any(e.errors for e in form.takings.entries) else None
    shooter = rules.moon_shooter(dict(enumerate(taken))) if taken else None
    return render_template(
        "games/hand.html", game=game, form=form, number=number, hand=hand,
        summary=rules.next_hand(number, game.first_dealer, len(game.players)),
        shooter=shooter, board=board, revision=form.revision.data or game.revision,
    )


# --- Export and import --------------------------------------------------------


@bp.get("/games/<int:game_id>/export.json")
def export(game_id):
    """Download the game as a JSON document."""
    game = load_game(game_id)
    return Response(
        dumps(export_game(game)),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="cancellation-hearts-game-{game.id}.json"'},
    )


@bp.route("/games/import", methods=["GET", "POST"])
def import_game():
    """Create a game from an exported JSON document; nothing is created if it is invalid."""
    if request.method == "GET":
        return render_template("games/import.html", form=ImportForm())
    form = ImportForm(CombinedMultiDict((request.files, request.form)))
    form.problem = None
    if form.validate():
        upload = form.document.data
        try:
            game = import_text(upload.read() if hasattr(upload, "read") else b"")
        except DocumentError as error:
            form.problem = str(error)
        else:
            grant(game)
            flash(_("Game imported: %(name)s.", name=game.name), "success")
            return redirect(url_for("games.table", game_id=game.id))
    return render_template("games/import.html", form=form), INVALID
