"""What the tests and the benchmark put on the table: the one home of their test data.

The double deck; random legal takings, hands and trick logs, and random game
documents in the export format of docs/game-format.md; and the app's forms
filled in the way its pages are (CSRF token and hidden fields included).

The engine parts import only ``scorekeeper.rules``, so ``tests/unit`` can use
them without an app; whatever needs the app or its database imports it
inside the function.
"""

import csv
import html
import io
import re
import threading
from dataclasses import dataclass
from html.parser import HTMLParser

from scorekeeper import rules, service

ELEVEN = ["Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gil", "Hana", "Ivo", "Jun", "Kai"]  # the largest table
SIX = ELEVEN[:6]  # the smallest table
# The names random games seat: accents, spaces and letters beyond ASCII.
PLAYER_NAMES = [
    "Ana", "Bo", "Caio", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "João",
    "Kåre", "Lía", "Mei", "Nur Aisyah", "Øyvind", "Zoë", "Siti", "Tomás",
]
# Both decks, suit by suit, 2 to ace (R2).
DECK = tuple(rules.Card(rank, suit) for suit in rules.SUITS for rank in range(2, 15)) * rules.COPIES
GAME_FORMAT = "scorekeeper/cancellation-hearts"  # fixed by docs/game-format.md, as other tools read it
GAME_VERSION = 1
CSRF_FIELD = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
HIDDEN_FIELD = re.compile(r'<input type="hidden" name="(revision|number)" value="([^"]*)"')


# --- Random legal hands ---------------------------------------------------------


@dataclass(frozen=True)
class HandMix:
    """How often a random hand is of each kind; the rest are plain hands with every point collected."""

    moon: float = 0.12  # one seat takes everything (R15)
    reserved: float = 0.18  # the last trick was reserved, leaving points uncollected (R13)
    played: float = 0.12  # played trick by trick from a shuffled double deck, with its trick log
    whole: float = 0.7  # of the played hands, those played to the last trick
    kitty_known: float = 0.7  # of the played hands with a kitty, those whose kitty was turned over


MIXED = HandMix()


def random_taken(rng, players, hearts=rules.HEARTS_IN_HAND, marias=rules.MARIAS_IN_HAND):
    """``hearts`` and ``marias`` spread at random among ``players`` seats, as each seat's takings."""
    counts = [[0, 0] for _seat in range(players)]
    for _heart in range(hearts):
        counts[rng.randrange(players)][0] += 1
    for _maria in range(marias):
        counts[rng.randrange(players)][1] += 1
    return [rules.Taken(seat_hearts, seat_marias) for seat_hearts, seat_marias in counts]


def random_played_hand(rng, players, first_leader, whole=0.7, kitty_known=0.7):
    """A shuffled double deck played trick by trick: the engine's ``HandPlay`` and the hand's trick log.

    The kitty is known with chance ``kitty_known`` (when the deal has one),
    and every trick is played with chance ``whole`` (else some of them). A
    lead the engine warns about is confirmed, as the table would.
    """
    the_deal = rules.deal(players)
    deck = list(DECK)
    rng.shuffle(deck)
    known = the_deal.kitty > 0 and rng.random() < kitty_known
    kitty = deck[:the_deal.kitty] if known else []
    cards = deck[the_deal.kitty:]
    tricks = the_deal.tricks if rng.random() < whole else rng.randrange(the_deal.tricks)
    play = rules.HandPlay(players, first_leader, kitty)
    played = []
    for number in range(tricks):
        trick = cards[number * players:(number + 1) * players]
        try:
            play.check_lead(trick[0])
            confirmed = False
        except rules.IllegalLead:
            confirmed = True  # the table said the leader held nothing else
        play.play(trick, confirm=confirmed)
        played.append({"cards": [str(card) for card in trick], "confirmed": confirmed})
    log = {"first_leader": first_leader, "kitty": [str(card) for card in kitty] or None, "played": played}
    return play, log


def random_hand(rng, players, number, first_dealer, mix=MIXED):
    """Hand ``number`` at random, of a kind drawn from ``mix``: its ``rules.HandRecord`` and its document entry."""
    kind = rng.random()
    tricks = None
    if kind < mix.moon:
        shooter = rng.randrange(players)
        everything = rules.Taken(rules.HEARTS_IN_HAND, rules.MARIAS_IN_HAND)
        taken = [everything if seat == shooter else rules.NOTHING for seat in range(players)]
    elif kind < mix.moon + mix.reserved:
        # Up to a trick's worth of hearts, and maybe a Black Maria, stay uncollected (R13).
        taken = random_taken(rng, players, rules.HEARTS_IN_HAND - rng.randint(1, players),
                             rules.MARIAS_IN_HAND - rng.randint(0, 1))
    elif kind < mix.moon + mix.reserved + mix.played:
        leader = (first_dealer + number) % players  # the deal moves one seat left a hand; the dealer's left leads (R4)
        play, tricks = random_played_hand(rng, players, leader, mix.whole, mix.kitty_known)
        taken = [play.taken[seat] for seat in range(players)] if play.finished else random_taken(rng, players)
    else:
        taken = random_taken(rng, players)
    shooter = rules.moon_shooter(dict(enumerate(taken)))
    moon = None if shooter is None else rng.choice(list(rules.Moon))
    uncollected = rules.check_takings(dict(enumerate(taken)))
    entry = {
        "number": number,
        "taken": [{"hearts": seat_taken.hearts, "marias": seat_taken.marias} for seat_taken in taken],
        "uncollected": {"hearts": uncollected.hearts, "marias": uncollected.marias},
        "moon": None if moon is None else moon.value,
        "tricks": tricks,
    }
    return rules.HandRecord(tuple(taken), moon), entry


# --- House rules ---------------------------------------------------------------------


def house_variants(offered_only=False):
    """``rules.Variant`` values drawing every registered house rule (``rules.HOUSE_RULES``): what a form offers
    (``offered_only``), or anything the engine takes (a number it allows, a passing cycle of 1 to 12
    directions). A rule registered is drawn at once, with no test to update."""
    from hypothesis import strategies as st

    def values(rule):
        if rule.cycle and not offered_only:
            return st.lists(st.sampled_from(list(rule.kind)), min_size=1,
                            max_size=rules.LONGEST_PASSING_CYCLE).map(tuple)
        return st.sampled_from(rule.offered if offered_only else (rule.allowed or rule.offered))

    return st.builds(rules.Variant, **{rule.name: values(rule) for rule in rules.HOUSE_RULES})


# --- Game documents ---------------------------------------------------------------


def game_document(name, names, first_dealer, target, hands):
    """A game in the export format (the facts an import reads); ``hands`` are entries from ``random_hand``."""
    return {
        "format": GAME_FORMAT, "version": GAME_VERSION, "name": name, "target": target,
        "players": list(names), "first_dealer": first_dealer, "hands": list(hands),
    }


def random_game_document(rng, name, fewest_hands=0, most_hands=5):
    """A valid game at random: 6-11 players, a target, hands of every kind until the count or the game's end."""
    players = rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    first_dealer = rng.randrange(players)
    target = rng.choice([30, 60, 100, 150])
    records, hands = [], []
    for number in range(1, rng.randint(fewest_hands, most_hands) + 1):
        if rules.score_game(players, first_dealer, target, records).over:
            break
        record, entry = random_hand(rng, players, number, first_dealer)
        records.append(record)
        hands.append(entry)
    return game_document(name, rng.sample(PLAYER_NAMES, players), first_dealer, target, hands)


# --- A season kept on paper ------------------------------------------------------------------------


@dataclass(frozen=True)
class PaperGame:
    """One game of a season kept on paper, as a secretary writes it in the season's CSV (docs/season-csv.md):
    its players clockwise (the first dealt hand 1) and each hand's takings by seat as (hearts, marias), moon
    choice (or None) and whether its last trick was reserved."""

    name: str
    day: str
    target: int
    seated: tuple
    hands: tuple  # ((taken, moon, reserved), ...)

    def records(self):
        return [rules.HandRecord(tuple(rules.Taken(*counts) for counts in taken), None if moon is None else
                                 rules.Moon(moon)) for taken, moon, _reserved in self.hands]

    def scoreboard(self):
        """What the engine derives from the game's hands (R14-R16): the figures an import must show."""
        return rules.score_game(len(self.seated), 0, self.target, self.records())


def random_paper_game(rng, name, day, order=PLAYER_NAMES, most_hands=6):
    """A game at random as a paper season keeps it: 6-11 of ``order`` (seated in that order), hands of every
    kind a paper sheet holds (moons, reserved last tricks, no trick logs) until the count or the game's end."""
    players = rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    chosen = set(rng.sample(range(len(order)), players))
    seated = tuple(player for place, player in enumerate(order) if place in chosen)
    target = rng.choice([30, 60, 100, 150])
    records, hands = [], []
    for number in range(1, most_hands + 1):
        if rules.score_game(players, 0, target, records).over:
            break
        record, entry = random_hand(rng, players, number, 0, HandMix(played=0))
        records.append(record)
        reserved = entry["uncollected"] != {"hearts": 0, "marias": 0}
        hands.append((tuple((taken.hearts, taken.marias) for taken in record.taken), entry["moon"], reserved))
    return PaperGame(name, day, target, seated, tuple(hands))


def season_csv(games, separator=",", order=None):
    """The CSV of a season kept on paper: a column a player of any of ``games`` (``PaperGame``), in ``order``
    (by default as first seated; each game's seating must follow it), then the moon and reserved columns."""
    players = list(order or dict.fromkeys(player for game in games for player in game.seated))
    written = io.StringIO()
    writer = csv.writer(written, delimiter=separator, lineterminator="\r\n")
    writer.writerow(["game", "date", "target", "hand", *players, "moon", "reserved"])
    for game in games:
        assert [player for player in players if player in game.seated] == list(game.seated), game.seated
        for number, (taken, moon, reserved) in enumerate(game.hands, start=1):
            cells = {player: f"{hearts}{'M' * marias}" for player, (hearts, marias) in zip(game.seated, taken)}
            writer.writerow([game.name, game.day, game.target, number, *(cells.get(player, "") for player in players),
                             moon or "", "yes" if reserved else ""])
    return written.getvalue()


def store_games(app, documents):
    """Store game documents in ``app``'s database as one restored backup; return each game's (id, scorer key)."""
    from scorekeeper.documents.backup import FORMAT, VERSION, restore_document

    with app.app_context():
        games = restore_document({"format": FORMAT, "version": VERSION, "games": documents})
        return [(game.id, game.scorer_key) for game in games]


def kept_figures(game_ids=None):
    """The figures kept of these games (every game's by default), as plain values: {game id: (its row's
    columns, each seat's columns)}, read in the app context."""
    from sqlalchemy import select

    from scorekeeper.db.models import GameFigures, SeatFigures, db

    games, seats = select(GameFigures.__table__), select(SeatFigures.__table__).order_by(SeatFigures.seat)
    if game_ids is not None:
        games, seats = games.where(GameFigures.game_id.in_(game_ids)), seats.where(SeatFigures.game_id.in_(game_ids))
    kept = {row.game_id: tuple(row)[1:] for row in db.session.execute(games)}
    by_game = {}
    for row in db.session.execute(seats):
        by_game.setdefault(row.game_id, []).append(tuple(row)[1:])
    return {game_id: (columns, by_game.get(game_id, [])) for game_id, columns in kept.items()}


def derived_figures(game_ids=None):
    """The figures the hands of these games (every game by default) derive now, as ``kept_figures`` shows
    them: written by the service's own ``figures.keep`` into the transaction, read, and rolled back."""
    from sqlalchemy import select

    from scorekeeper.db.models import Game, counts_in_season, db

    query = select(Game) if game_ids is None else select(Game).where(Game.id.in_(game_ids))
    for game in db.session.execute(query).scalars().all():
        service.figures.keep(game.id, game.revision, game.scoreboard(), list(game.names), counts_in_season(game))
    derived = kept_figures(game_ids)
    db.session.rollback()
    return derived


def assert_figures_are_fresh(game_ids=None):
    """The figures kept of these games (every game by default) are of each game's revision and say what its
    hands derive now (R17), each person's are the sums of their players' in the games the season counts,
    and the club's ratings are what rating every counted finished game in the order played gives: the
    invariant of every write."""
    from sqlalchemy import func, select

    from scorekeeper.db.models import COUNTED, Game, PersonFigures, SeatFigures, db

    condition = None if game_ids is None else Game.id.in_(game_ids)
    stale = service.figures.stale_games(condition)
    assert not stale, f"games whose figures are not of their revision: {stale}"
    assert kept_figures(game_ids) == derived_figures(game_ids)
    summed = service.figures.SUMMED
    kept_people = {row.person_id: tuple(getattr(row, name) for name in ("games", *summed))
                   for row in db.session.execute(select(PersonFigures)).scalars() if row.games}
    sums = db.session.execute(
        select(SeatFigures.person_id, func.count(), *(func.sum(getattr(SeatFigures, name)) for name in summed))
        .where(SeatFigures.counted, SeatFigures.person_id.is_not(None)).group_by(SeatFigures.person_id)).all()
    assert kept_people == {person: tuple(int(value) for value in values) for person, *values in sums}
    kept_ratings = service.refreshing.kept_ratings()  # worked out again first, if a change asked it
    now, after_game = service.ratings.rate_in_order(service.ratings.counted_results(COUNTED))
    assert kept_ratings == now
    assert {(row.game_id, row.seat): (row.mu, row.sigma) for row in db.session.execute(
        select(SeatFigures.game_id, SeatFigures.seat, SeatFigures.mu, SeatFigures.sigma)
        .where(SeatFigures.mu.is_not(None)))} == {key: (rating.mu, rating.sigma) for key, rating in after_game.items()}


def at_table(game):
    """A stored game (a ``Game`` or ``ShownGame``) as the service records its next hand on it: the
    ``KeptGame`` of its revision."""
    return service.kept_game(game.id, game.revision, game.scorer_key)


def on_threads(run, changes):
    """Call ``run(place, change)`` for each change on a thread of its own, all started together, and wait
    for them (a minute at most each): for races, whose ``run`` meets the others at a barrier."""
    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(changes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def make_secretary(app, client):
    """Open the club's secretary link (``flask club-link``) on ``client``: it may rename and merge people."""
    from scorekeeper import service

    with app.app_context():
        key = service.secretary_key()
    response = client.get(f"/club/secretary/{key}")
    assert response.status_code == 302, response.status_code
    return client


# --- The app's forms, as its pages fill them ------------------------------------------


def form_fields(page):
    """The hidden fields of the first form in ``page`` (CSRF token, revision, number), as a browser sends them."""
    fields = {"csrf_token": CSRF_FIELD.search(page).group(1)}
    for name, value in HIDDEN_FIELD.findall(page):
        fields.setdefault(name, value)
    return fields


def hidden_fields(client, url):
    """The hidden fields of the first form at ``url``, fetched with a Flask test client."""
    return form_fields(client.get(url).get_data(as_text=True))


def csrf_token(client, url):
    """The CSRF token of the form at ``url``, as a browser would find it."""
    return hidden_fields(client, url)["csrf_token"]


def game_form(names, first_dealer=0, target="150", name="", house_rules=None):
    """The new-game form's fields for these players, and any ``house_rules`` (field name -> value)."""
    fields = {"name": name, "target": str(target), "first_dealer": str(first_dealer)}
    fields.update({f"rules-{rule}": value for rule, value in (house_rules or {}).items()})
    fields.update({f"players-{seat}": player for seat, player in enumerate(names)})
    return fields


def hand_form(taken, number, moon=None, reserved=False):
    """The hand form's fields: ``taken`` is a list of (hearts, marias) or (hearts, marias, jacks) in seat order."""
    fields = {"number": str(number)}
    for seat, (hearts, marias, *jacks) in enumerate(taken):
        fields[f"takings-{seat}-hearts"] = str(hearts)
        fields[f"takings-{seat}-marias"] = str(marias)
        if jacks:
            fields[f"takings-{seat}-jacks"] = str(jacks[0])
    if moon:
        fields["moon"] = moon
    if reserved:
        fields["last_trick_reserved"] = "y"
    return fields


def create_game(client, names=SIX, first_dealer=0, target=150, name="Friday", house_rules=None):
    """Create a game through the form; return its id."""
    fields = game_form(names, first_dealer, target, name, house_rules)
    fields["csrf_token"] = csrf_token(client, "/games/new")
    response = client.post("/games/new", data=fields)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post_hand(client, game_id, taken, number=None, moon=None, reserved=False):
    """Submit the record-a-hand form (or a correction when ``number`` is recorded)."""
    if number is None:
        from scorekeeper.db.models import Game, db

        with client.application.app_context():
            number = len(db.session.get(Game, game_id).hands) + 1
        url = f"/games/{game_id}/hands/new"
    else:
        url = f"/games/{game_id}/hands/{number}"
    fields = {**hidden_fields(client, url), **hand_form(taken, number, moon, reserved)}
    return client.post(url, data=fields)


def record_hand(client, game_id, taken, moon=None, reserved=False):
    """Record the next hand and check it was accepted."""
    response = post_hand(client, game_id, taken, moon=moon, reserved=reserved)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


def exported(client, game_id):
    """The game's export document."""
    return client.get(f"/games/{game_id}/export.json").get_json()


def text_of(response):
    """The page's visible text, whitespace folded, for plain assertions."""
    page = response.get_data(as_text=True)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


# --- Hands of reserved tricks -----------------------------------------------------


def every_trick_reserved(rng, players):
    """A deal at ``players`` in which every trick is reserved (R9): its kitty and its tricks, each in play order.

    Each trick is pairs of twins, which cancel (R9), and at an odd table one
    single card of another suit than the one led; the singles' twins are in
    other tricks or in the kitty. Together they are the 104 cards. Leads may
    break R6 or R8, so play them confirmed.
    """
    the_deal = rules.deal(players)
    pairs_each, singles_each = divmod(players, 2)
    paired = the_deal.tricks * pairs_each
    while True:
        kinds = list(DECK[:52])  # one of each card
        rng.shuffle(kinds)
        singles = kinds[paired:] * rules.COPIES
        rng.shuffle(singles)
        kitty, singles = singles[:the_deal.kitty], singles[the_deal.kitty:]
        tricks = []
        for number in range(the_deal.tricks):
            twins = kinds[number * pairs_each:(number + 1) * pairs_each]
            single = singles[number * singles_each:(number + 1) * singles_each]
            # The single must not be of the suit led, or it would win the trick.
            leads = [card for card in twins if all(card.suit != other.suit for other in single)]
            if not leads:
                break  # rare: deal again
            lead = rng.choice(leads)
            rest = twins * rules.COPIES + single
            rest.remove(lead)
            rng.shuffle(rest)
            tricks.append([lead, *rest])
        else:
            return kitty, tricks


# --- What a refused page says -------------------------------------------------------------


def error_summary(response):
    """The problems the summary at the top of a refused page lists, as (field id, message), in order."""
    page = response.get_data(as_text=True)
    summary = re.search(r'<div class="error-summary".*?</ul>', page, flags=re.S)
    if summary is None:
        return []
    items = re.findall(r'<li><a href="#([^"]+)">(.*?)</a></li>', summary.group(0), flags=re.S)
    return [(target, html.unescape(re.sub(r"\s+", " ", message)).strip()) for target, message in items]


def field_errors(response, field_id):
    """The messages shown next to the field ``field_id`` (the elements with id ``<field_id>-error``)."""
    page = response.get_data(as_text=True)
    found = re.findall(rf'<(span|p) class="error" id="{re.escape(field_id)}-error">(.*?)</\1>', page, flags=re.S)
    return [html.unescape(re.sub(r"\s+", " ", message)).strip() for _tag, message in found]


# --- Forms as a page offers them, and the passes a phone holds ------------------------------------------


class _FormsOfAPage(HTMLParser):
    """Each form of a page as (method, action or None, {hidden field: value}), in the page's order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append(((attributes.get("method") or "get").lower(), attributes.get("action"), {}))
        elif tag == "input" and attributes.get("type") == "hidden" and self.forms and attributes.get("name"):
            self.forms[-1][2].setdefault(attributes["name"], attributes.get("value") or "")


def page_forms(page):
    """The forms of ``page`` (HTML text): (method, action or None for the page's own address, hidden fields)."""
    parser = _FormsOfAPage()
    parser.feed(page)
    return parser.forms


def offered_form(client, url, action=None):
    """The hidden fields (CSRF token, revision, number and the rest) of the post form of the page at ``url``
    that posts to ``action`` (``url`` itself by default), fetched with a Flask test client as a phone would;
    AssertionError if the page offers no such form."""
    response = client.get(url)
    action = action or url.split("?", 1)[0]
    for method, posted_to, fields in page_forms(response.get_data(as_text=True)):
        if method == "post" and (posted_to or url.split("?", 1)[0]) == action:
            return fields
    raise AssertionError(f"{url} ({response.status_code}) offers no form posting to {action}")


def make_scorer(app, client, game_id):
    """Open game ``game_id``'s scorer link on ``client`` (and the table view it leads to, where its message
    is shown once): it may record, correct and undo in that game."""
    from scorekeeper.db.models import Game, db

    with app.app_context():
        key = db.session.get(Game, game_id).scorer_key
        db.session.remove()
    response = client.get(f"/games/{game_id}/scorer/{key}")
    assert response.status_code == 302, response.status_code
    client.get(response.headers["Location"])
    return client
