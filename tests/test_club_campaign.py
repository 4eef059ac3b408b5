"""The club's campaign (issue 33): a whole club played at random across two server processes that share one
database, and after every step nothing either process keeps is stale.

Two apps on one database stand for two server processes: each keeps its own games, pages, rows and
revisions. Each has a phone that is a scorer of every game and a secretary of the club, and a guest's
phone. A Hypothesis state machine makes every change a club makes, each through one process or the other
(Hypothesis chooses), through the pages as a phone makes it: new games, record, correct and remove a hand,
undo the newest entry of a game's trail and undo that undo, join, leave, house rules, import a game,
merge two people, undo a merge, rename, leave a game out of the season, count it again, date it, undo an
entry of the club's trail; and a backup restored (the ``backup`` and ``restore`` commands) into the same
database, which adds its games again as new ones. What to change is chosen from the database as it is,
read by a third app (the test's own eyes). A change the club's rules refuse may be chosen (a name
already someone's, hand 1 removed under a seat change): it must be refused in those words (``REFUSALS``),
and any other refusal, conflict or error fails the run.

After every step that posted anything:

- every kept figure is what the hands say now (``service.figures.check()``: games', players', people's
  and, where they claim to be current, the ratings), before the pages are read and after;
- each process serves the season's table and ``/stats.json``, and the page of each game and person the
  step changed (the game's table view; a merge's two people; a day's ``/stats.json?since=`` after a
  date), to its scorer and secretary, and those games' table views to a guest, exactly as a process that
  has kept nothing: the third app with every cache emptied (``forget_everything``), once for each reader
  so that neither reads what the other's answers left kept, with the scorer's session cookie for the
  scorer's pages. The CSRF tokens (a token a form, with its time) are the one thing allowed to differ.

At the end of each run that failed nowhere, every page (the games list, the season's table,
``/players.csv``, ``/stats.json`` and one filtered by day, every person's page and every game's table
view to the scorer and secretary; the games list, the season's table and every table view to a guest) is
compared in the same way with an app made then, whose caches were never emptied because it never had
any; ``flask refigure --check`` (through the CLI runner) finds nothing; and the kept figures are what
``figures.keep`` derives afresh (``assert_figures_are_fresh``).

An app with its caches emptied serves as a fresh process would, and the run's end checks that claim
against a new app. An app keeps its pages, rows and revisions in ``app.extensions`` (``web/rendered.py``:
emptied), and its games in ``service.kept._GAMES``, a module's map keyed by the app's database engine
(its entries for that engine forgotten). The other module-level caches are pure functions of their
arguments (the numbers and days written in a language, ``words/i18n.py``; the QR code of a link; the
chart's course of a scoreboard, by that very object; house rules' and takings' values; compiled
statements and URL builders; static files by their time and size; the catalogs; the templates' code,
``CompiledOnce``), so sharing them cannot make an answer differ from a fresh process's. What a new
process does and an emptied app does not is connect to the database again: SQLite and PostgreSQL give
each transaction of a pooled connection the database as committed.

A page read by a process is kept for a revision that process read at most ``rendered.FRESH_FOR`` (0.5 s)
ago: that staleness is documented and bounded, so it is set to 0 here, and every page asks the database.

The club stays small so that a run stays some 3 s: two to three tables of 6 or 7 (a restore, once, makes
them four to six), some 20 steps, ``CLUB_CAMPAIGN`` runs (half on PostgreSQL, ``profiles.examples``).
"""

import contextlib
import difflib
import html
import io
import itertools
import json
import random
import re
from datetime import date, timedelta

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from jinja2 import BytecodeCache
from sqlalchemy import select

from scorekeeper import create_app, rules, service
from scorekeeper.db.models import Game, Person, PersonChange, Player, db
from scorekeeper.service import kept
from scorekeeper.web import rendered
from scorekeeper.web.responses import load_game

from .conftest import close, fresh_database
from .profiles import CLUB_CAMPAIGN, examples
from .tabletop import (
    assert_figures_are_fresh,
    game_form,
    hand_form,
    make_scorer,
    make_secretary,
    offered_form,
    random_game_document,
    random_taken,
)

CONFIG = {"TESTING": True, "SECRET_KEY": "test secret key"}
# The club: two pairs of names that may be one person typed two ways (Ana and Anna, Bo and Bob), accents,
# a space and letters beyond ASCII.
CLUB = ["Ana", "Anna", "Bo", "Bob", "Caio", "Dee", "Eli", "Fay", "João", "Kåre", "Nur Aisyah", "Øyvind"]
RENAMES = ["Robert", "Annie", "Zé", "Ana"]  # the last is someone's name already: refused while she is
MOST_GAMES = 3  # new games and imports stop here: a few tables of a club night, and each step stays cheap
RESTORED_UP_TO = 2  # a restore doubles the games: once a run, and only a club of at most this many
TOKEN = re.compile(r"[0-9]{14}##[0-9a-f]{40}")  # a CSRF token (WTForms' SessionCSRF: its expiry, its HMAC)
PROCESSES = st.sampled_from(["A", "B"])
# The changes a club makes, as often as a club makes them: hands most, then people and undos.
KINDS = ["record"] * 6 + ["undo the newest"] * 3 + ["merge"] * 3 + ["correct", "correct", "join", "join", "leave",
         "leave", "unmerge", "unmerge", "rename", "rename", "date", "date", "undo a club change", "undo a club change",
         "remove", "house rules", "new game", "import game", "leave out", "count again", "restore"]
SEEDS = st.integers(0, 2**32 - 1)
TRIED = {}  # what the campaign did, by kind and answer: printed for the robustness summary
REFUSED = {}  # the words of each kind's refusals (400), printed with it
# The refusals a change chosen as this test chooses may meet, by kind: names the club knows as one person (a
# merge's two names) at one table, or a joiner's name someone at the table was typed with in other letters
# (R1: one seat each); a change that would end the game before hands recorded or players seated after it
# (R16: a correction, a removal, house rules); a recorded hand that new house rules do not allow (a moon
# scored another way, R15); a seat change before hand 2 or past the next hand that removing a hand would
# leave (R1); a rename to someone else's name. Any other refusal fails the test: the change was one the
# rules allow.
ONE_PERSON = r"are one person \(one name written two ways, or two people merged\)"
OVER_BEFORE = (r"^With this change the game would be over after hand [0-9]+ \(R16\)"
               r"|^The game is over, so nobody can join or leave now \(R16\)")
REFUSALS = {kind: re.compile(pattern) for kind, pattern in {
    "new game": ONE_PERSON, "import": ONE_PERSON, "join": rf"{ONE_PERSON}|already plays or played in this game",
    "correct": OVER_BEFORE, "house rules": rf"{OVER_BEFORE}|^Hand [0-9]+ does not fit these house rules",
    "remove": rf"{OVER_BEFORE}|^Hand 1 is played by the starting table|^Players can join or leave only before",
    "rename": r"is already someone else's name"}.items()}


class CompiledOnce(BytecodeCache):
    """Each template compiled once a test process, not once an app: a run makes four apps (two processes,
    the test's eyes, the new app its end compares with), and compiling every template again for each was
    much of a short run's time. A template's code is a pure function of its source (Jinja checks the
    source's checksum before it uses the code), as a fresh process's is."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledOnce()


def club_app(database_uri):
    """An app on the club's database: a server process, or a fresh one for the comparison."""
    app = create_app({**CONFIG, "SQLALCHEMY_DATABASE_URI": database_uri})
    app.jinja_env.bytecode_cache = COMPILED
    return app


class Process:
    """One server process: an app on the club's database, its scorer and secretary's phone, a guest's phone."""

    def __init__(self, database_uri):
        self.app = club_app(database_uri)
        self.phone = make_secretary(self.app, self.app.test_client())
        self.guest = self.app.test_client()
        self.scores = set()  # the games whose scorer's pass the phone holds


class ClubOfTwoProcesses(RuleBasedStateMachine):
    """A club played through two server processes, compared after every step with a process that kept nothing."""

    databases = None  # (folder, template): where each run makes its database (set by the test)

    def __init__(self):
        super().__init__()
        self.closing = contextlib.ExitStack()
        folder, template = self.databases
        run = folder / f"run {next(RUNS)}"
        run.mkdir()
        self.database_uri = self.closing.enter_context(fresh_database(run, template))
        self.folder = run
        self.processes = {}
        for name in ("A", "B"):
            self.processes[name] = Process(self.database_uri)
            self.closing.callback(close, self.processes[name].app)
        # The test's own eyes, and the process that kept nothing, each time it is compared: its caches are
        # emptied before it serves (``forget_everything``).
        self.eyes = club_app(self.database_uri)
        self.closing.callback(close, self.eyes)
        self.backups = 0
        self.last_game = None  # the game changed last
        self.changed = False  # whether a step posted or restored anything: a step that did not is not checked
        self.touched = set()  # the pages of the games and people the step changed, compared after it
        self.unfinished = False  # a step or a check failed: the run's end checks nothing more, so as to
        # leave Hypothesis the step's own failure

    # --- What the club holds now, read by the test's own app ----------------------------------------------

    @contextlib.contextmanager
    def reading(self):
        with self.eyes.app_context():
            try:
                yield
            finally:
                db.session.remove()

    def game_ids(self):
        with self.reading():
            return db.session.execute(select(Game.id).order_by(Game.id)).scalars().all()

    def game(self, game_id):
        """What a change needs of the game: its scoreboard, its house rules, its names, its trail."""
        with self.reading():
            game = load_game(game_id)
            return Table(game.id, game.scoreboard(), game.variant, list(game.names), game.voided_at is not None,
                         [Line(line.change.id, line.undoable, line.change.undoes_id) for line in service.trail(game)])

    def chosen_game(self, rng, where=lambda table: True):
        """A game meeting ``where``: half the time the one changed last, if it does (a club night plays on
        at its tables), else any."""
        tables = [self.game(game_id) for game_id in self.game_ids()]
        tables = [table for table in tables if where(table)]
        last = [table for table in tables if table.id == self.last_game]
        chosen = last[0] if last and rng.random() < 0.5 else rng.choice(tables) if tables else None
        if chosen is not None:
            self.last_game = chosen.id
            self.touched.add(f"/games/{chosen.id}")
            self.touch_people_of(chosen.id, rng)
        return chosen

    def touch_people_of(self, game_id, rng):
        """One person the game seats: their page is compared after the step (who they are and what they played)."""
        with self.reading():
            people = db.session.execute(select(Player.person_id).where(Player.game_id == game_id)
                                        .order_by(Player.id)).scalars().all()
        if people:
            self.touched.add(f"/players/{rng.choice(people)}")

    # --- Making changes as a phone does -----------------------------------------------------------------

    def post(self, via, page, fields, form=None, to=None, kind=None, files=False):
        """Post the form of ``page`` that posts to ``form`` (``page`` itself by default) from ``via``'s phone,
        with its hidden fields and ``fields``, to ``to`` (a button's own address) or where the form posts;
        follow a redirect as the phone does (its message is shown once). The answer: made (302), or refused
        in words (400) for one of the reasons the club's rules give (``REFUSALS``); never a conflict, as no
        two phones are ever at once here, nor an error."""
        phone = self.processes[via].phone
        hidden = offered_form(phone, page, form)
        response = phone.post(to or form or page, data={**hidden, **fields},
                              content_type="multipart/form-data" if files else None)
        TRIED.setdefault(kind, {}).setdefault(response.status_code, 0)
        TRIED[kind][response.status_code] += 1
        self.changed = True
        assert response.status_code in (302, 400), (kind, response.status_code, response.get_data(as_text=True))
        if response.status_code == 400:
            words = refusals(response)
            REFUSED.setdefault(kind, set()).update(words)
            expected = REFUSALS.get(kind)
            assert words and expected and all(expected.search(said) for said in words), (kind, page, words)
        if response.status_code == 302:
            phone.get(response.headers["Location"])
        return response

    def everyone_scores_every_game(self):
        """Both phones hold a scorer's pass of every game, as the scorer's link gives one."""
        for process in self.processes.values():
            for game_id in self.game_ids():
                if game_id not in process.scores:
                    make_scorer(process.app, process.phone, game_id)
                    process.scores.add(game_id)

    @initialize(via=PROCESSES, seed=SEEDS)
    def first_games(self, via, seed):
        """Two tables of the club start, one through each process: people who never sat together, to merge."""
        rng = random.Random(seed)
        self.unfinished = True
        self.new_game(via, rng)
        self.new_game("B" if via == "A" else "A", rng)
        self.unfinished = False

    @rule(kind=st.sampled_from(KINDS), via=PROCESSES, seed=SEEDS)
    def change(self, kind, via, seed):
        """A change of ``kind`` made through process ``via``, chosen with ``seed`` among what the club holds;
        nothing when there is nothing to make it on (no hand to correct, no merge to undo...)."""
        self.unfinished = True
        getattr(self, kind.replace(" ", "_"))(via, random.Random(seed))
        self.unfinished = False

    def new_game(self, via, rng):
        """A table starts a game of 6 or 7 of the club, with house rules or without."""
        if len(self.game_ids()) >= MOST_GAMES:
            return
        names = spelled(rng, rng.sample(CLUB, rng.randint(6, 7)))
        fields = game_form(names, rng.randrange(len(names)), rng.choice([20, 40, 60]), f"Night {rng.randrange(1000)}",
                           random_house_rules(rng) if rng.random() < 0.4 else None)
        self.post(via, "/games/new", fields, kind="new game")
        self.touched.add(f"/games/{self.game_ids()[-1]}")
        self.everyone_scores_every_game()

    def record(self, via, rng):
        table = self.chosen_game(rng, lambda table: table.board.next_hand is not None)
        if table is None:
            return
        number = len(table.board.hands) + 1
        self.post(via, f"/games/{table.id}/hands/new",
                  random_hand_fields(rng, len(table.board.next_hand.seating), number, table.variant), kind="record")

    def correct(self, via, rng):
        table = self.chosen_game(rng, lambda table: table.board.hands)
        if table is None:
            return
        number = rng.randrange(len(table.board.hands)) + 1
        seats = len(table.board.hands[number - 1].seating)
        self.post(via, f"/games/{table.id}/hands/{number}", random_hand_fields(rng, seats, number, table.variant),
                  kind="correct")

    def remove(self, via, rng):
        table = self.chosen_game(rng, lambda table: table.board.hands)
        if table is None:
            return
        self.post(via, f"/games/{table.id}/hands/{rng.randrange(len(table.board.hands)) + 1}/remove", {},
                  kind="remove")

    def undo_the_newest(self, via, rng):
        """Undo the newest entry of a game's trail that can be undone, then undo that undo up to twice in a
        row, from the same phone: each undo of the chain can be undone (R17)."""
        table = self.chosen_game(rng, lambda table: any(line.undoable for line in table.trail))
        if table is None:
            return
        line = next(line for line in table.trail if line.undoable)
        for time in range(rng.randint(1, 3)):
            page = f"/games/{table.id}/changes/{line.id}/undo"
            response = self.post(via, page, {}, kind="undo" if time == 0 else "undo the undo")
            if response.status_code != 302:
                return
            table = self.game(table.id)
            newest = table.trail[0]
            assert newest.undoes == line.id and newest.undoable, (line, newest)
            line = newest

    def join(self, via, rng):
        table = self.chosen_game(rng, lambda table: table.board.next_hand is not None and table.board.hands
                                 and len(table.board.seating) < rules.MAX_PLAYERS)
        if table is None:
            return
        name = spelled(rng, [rng.choice([name for name in CLUB + RENAMES if name not in table.names])])[0]
        self.post(via, f"/games/{table.id}/seating", {"name": name, "at": str(rng.randint(0, len(table.board.seating))),
                                                      "start_rule": rng.choice(["highest", "average", "zero"]),
                                                      "start": ""}, kind="join")

    def leave(self, via, rng):
        table = self.chosen_game(rng, lambda table: table.board.next_hand is not None and table.board.hands
                                 and len(table.board.seating) > rules.MIN_PLAYERS)
        if table is None:
            return
        player = rng.choice(table.board.seating)
        self.post(via, f"/games/{table.id}/seating/leave?player={player}", {},
                  form=f"/games/{table.id}/seating/leave", kind="leave")

    def house_rules(self, via, rng):
        table = self.chosen_game(rng)
        chosen = random_house_rules(rng)
        if table.board.hands:  # J♦ is the one rule that stays as it is once a hand is recorded
            chosen.pop("jack_of_diamonds", None)
            if table.variant.jack_of_diamonds:
                chosen["jack_of_diamonds"] = "y"
        self.post(via, f"/games/{table.id}/rules", {f"rules-{name}": value for name, value in chosen.items()},
                  kind="house rules")

    def import_game(self, via, rng):
        """A game played elsewhere, imported from its document (its names typed as the club's)."""
        if len(self.game_ids()) >= MOST_GAMES:
            return
        document = random_game_document(rng, f"Imported {rng.randrange(1000)}", most_hands=6)
        document["players"] = spelled(rng, rng.sample(CLUB, len(document["players"])))
        upload = (io.BytesIO(json.dumps(document).encode()), "game.json")
        self.post(via, "/games/import", {"document": upload}, kind="import", files=True)
        self.everyone_scores_every_game()

    def restore(self, via, rng):
        """The club's backup (``flask backup``) restored into its own database (``flask restore``): every
        game of it is added again, as a new game. Once a run, and only for a small club."""
        if self.backups or len(self.game_ids()) > RESTORED_UP_TO:
            return
        runner = self.processes[via].app.test_cli_runner()
        self.backups += 1
        path = self.folder / f"backup {self.backups}.json"
        saved = runner.invoke(args=["backup", str(path)])
        restored = runner.invoke(args=["restore", str(path)])
        TRIED.setdefault("restore", {}).setdefault(restored.exit_code, 0)
        TRIED["restore"][restored.exit_code] += 1
        self.changed = True
        assert (saved.exit_code, restored.exit_code) == (0, 0), (saved.output, restored.output)
        self.everyone_scores_every_game()

    # --- The club's people and season -------------------------------------------------------------------

    def people(self):
        """Everyone not merged away, and the people each game seats."""
        with self.reading():
            live = db.session.execute(select(Person.id).where(Person.merged_into_id.is_(None))
                                      .order_by(Person.id)).scalars().all()
            tables = {}
            for game_id, person in db.session.execute(select(Player.game_id, Player.person_id)):
                tables.setdefault(game_id, set()).add(person)
        return live, list(tables.values())

    def merge(self, via, rng):
        """Two people who never sat at one table are one person typed two ways."""
        live, tables = self.people()
        pairs = [(person, other) for person, other in itertools.permutations(live, 2)
                 if not any({person, other} <= table for table in tables)]
        if not pairs:
            return
        person, other = rng.choice(pairs)
        self.touched.update({f"/players/{person}", f"/players/{other}"})
        self.post(via, f"/players/{person}", {"other": str(other)}, form=f"/players/{person}/merge", kind="merge")

    def unmerge(self, via, rng):
        with self.reading():
            entries = db.session.execute(select(PersonChange).order_by(PersonChange.id)).scalars().all()
            merges = [(entry.id, entry.person_id) for entry in entries
                      if entry.action == "merge" and service.person_change_refusal(entry, entries) is None]
        if not merges:
            return
        change, person = rng.choice(merges)
        self.touched.add(f"/players/{person}")
        self.post(via, f"/players/{person}", {"change": str(change)}, form=f"/players/{person}/undo",
                  kind="unmerge")

    def rename(self, via, rng):
        live, _tables = self.people()
        person = rng.choice(live)
        self.touched.add(f"/players/{person}")
        self.post(via, f"/players/{person}", {"name": rng.choice(RENAMES)}, form=f"/players/{person}/rename",
                  kind="rename")

    def leave_out(self, via, rng):
        table = self.chosen_game(rng, lambda table: not table.voided)
        if table is None:
            return
        self.post(via, f"/games/{table.id}", {"action": "void", "reason": "a practice game"},
                  form=f"/games/{table.id}/season", kind="leave out")  # the season controls of its own page

    def count_again(self, via, rng):
        table = self.chosen_game(rng, lambda table: table.voided)
        if table is None:
            return
        self.post(via, "/club", {}, form="/club", to=f"/club/games/{table.id}/count", kind="count again")

    def date(self, via, rng):
        table = self.chosen_game(rng)
        day = date.today() - timedelta(rng.randint(1, 6))
        self.touched.add(f"/stats.json?since={(day - timedelta(rng.randint(0, 1))).isoformat()}")
        self.post(via, f"/games/{table.id}", {"action": "date", "day": day.isoformat()},
                  form=f"/games/{table.id}/season", kind="date")

    def undo_a_club_change(self, via, rng):
        """Undo an entry the club's trail offers to undo (a rename, a merge, a game left out, counted again or
        dated, or an undo of one), as the secretary's page offers it."""
        page = self.processes[via].phone.get("/club").get_data(as_text=True)
        offered = re.findall(r'name="change" value="([0-9]+)" formaction="([^"]+)"', page)
        if not offered:
            return
        change, undo = rng.choice(offered)
        self.post(via, "/club", {"change": change}, form="/club/undo", to=undo, kind="undo a club change")

    # --- After every step -------------------------------------------------------------------------------

    @invariant()
    def every_kept_figure_is_what_the_hands_say_and_every_page_a_fresh_processs(self):
        if not self.changed:
            return
        self.unfinished = True
        with self.reading():
            assert service.figures.check() == []
        self.compare(self.step_pages(), self.eyes, forget_first=True)
        with self.reading():  # the pages rated the season again if a change asked it: the ratings are checked now
            assert service.figures.check() == []
        self.changed = False
        self.touched.clear()
        self.unfinished = False

    def compare(self, pages, fresh_app, forget_first=False):
        """Each process serves ``pages`` (paths by reader) as ``fresh_app`` does, its caches emptied first
        (``forget_first``) for each reader, so that neither reads what the other's answers left kept."""
        for reader, paths in pages.items():
            served = {name: answers(getattr(process, reader), paths) for name, process in self.processes.items()}
            if forget_first:
                forget_everything(fresh_app, self.game_ids())
            fresh = fresh_app.test_client()
            if reader == "phone":  # the scorer and secretary's own session: their passes, their pages
                fresh.set_cookie("session", self.processes["A"].phone.get_cookie("session").value)
            expected = answers(fresh, paths)
            for name, answered in served.items():
                for path in paths:
                    assert answered[path] == expected[path], difference(name, reader, path, answered[path],
                                                                        expected[path])

    def step_pages(self):
        """The pages compared after a step, by reader: the season's table and ``/stats.json``, and the page
        of each game and person the step changed (a merge's two people), to the scorer and secretary; those
        games' table views to a guest (who sees the club's pages as the secretary does, but for the secretary's
        buttons: compared at a run's end)."""
        touched = sorted(self.touched)
        return {"phone": ["/players", "/stats.json", *touched],
                "guest": [path for path in touched if path.startswith("/games/")]}

    def every_page(self):
        """Every page compared at a run's end, by reader: the club's and every person's and game's to the
        scorer and secretary, the club's pages and every game's to a guest."""
        with self.reading():
            people = db.session.execute(select(Person.id).order_by(Person.id)).scalars().all()
        tables = [f"/games/{game}" for game in self.game_ids()]
        since = (date.today() - timedelta(3)).isoformat()
        club = ["/", "/players", "/players.csv", "/stats.json", f"/stats.json?since={since}"]
        return {"phone": club + [f"/players/{person}" for person in people] + tables,
                "guest": ["/", "/players"] + tables}

    def teardown(self):
        """At the end of a run that failed nowhere: every page of each process is a new app's (made now, in
        no way emptied), ``flask refigure --check`` finds nothing, and every kept figure is fresh."""
        try:
            if self.processes and not self.unfinished:
                fresh_app = club_app(self.database_uri)
                try:
                    self.compare(self.every_page(), fresh_app)
                finally:
                    close(fresh_app)
                checked = self.processes["A"].app.test_cli_runner().invoke(args=["refigure", "--check"])
                assert checked.exit_code == 0, checked.output
                with self.reading():
                    assert_figures_are_fresh()
        finally:
            self.closing.close()


def forget_everything(app, game_ids):
    """Empty every cache ``app`` holds, as a process just started holds none: its kept pages, rows and
    revisions (``app.extensions``) and its kept games (``service.kept``, by its database engine)."""
    for name in [name for name in app.extensions if name.startswith("scorekeeper.")]:
        del app.extensions[name]
    with app.app_context():
        engine = db.engine
    for game_id in range(1, max(game_ids, default=0) + 1):
        kept._GAMES.forget((engine, game_id))


RUNS = itertools.count()


class Table:
    """What a change needs of a game, read by the test's own app."""

    def __init__(self, game_id, board, variant, names, voided, trail):
        self.id, self.board, self.variant, self.names, self.voided, self.trail = (
            game_id, board, variant, names, voided, trail)


class Line:
    """A line of a game's trail: its entry's id, whether it can be undone now, the entry it undoes."""

    def __init__(self, change_id, undoable, undoes):
        self.id, self.undoable, self.undoes = change_id, undoable, undoes

    def __repr__(self):
        return f"Line({self.id}, undoable={self.undoable}, undoes={self.undoes})"


def spelled(rng, names):
    """``names`` as a phone may type them: now and then in capitals, which finds the same person."""
    return [name.upper() if rng.random() < 0.1 else name for name in names]


def random_house_rules(rng):
    """House rules at random, as the form's fields (without the ``rules-`` prefix)."""
    chosen = {}
    for house_rule in rules.HOUSE_RULES:  # every registered rule, each as its control asks it
        if house_rule.control == "radios":
            chosen[house_rule.name] = house_rule.form_text(rng.choice(house_rule.offered))
        elif rng.random() < 0.3:
            chosen[house_rule.name] = "y"
    return chosen


def random_hand_fields(rng, players, number, variant):
    """A hand at random for ``players`` seats, as the hand form's fields: a moon now and then (with a choice
    the game's house rules allow), a reserved last trick now and then, the J♦ where a house rule scores it."""
    if rng.random() < 0.1:
        shooter = rng.randrange(players)
        taken = [rules.Taken(rules.HEARTS_IN_HAND, rules.MARIAS_IN_HAND) if seat == shooter else rules.NOTHING
                 for seat in range(players)]
        reserved = False
    else:
        reserved = rng.random() < 0.15
        taken = random_taken(rng, players, rules.HEARTS_IN_HAND - reserved * rng.randint(1, players),
                             rules.MARIAS_IN_HAND - reserved * rng.randint(0, 1))
    jacks = [0] * players
    if variant.jack_of_diamonds:
        for _jack in range(rules.COPIES):
            jacks[rng.randrange(players)] += 1
    moon = None
    if rules.moon_shooter(dict(enumerate(taken))) is not None:
        allowed = variant.moon_choice
        moon = rng.choice(list(rules.Moon)).value if allowed is rules.MoonRule.EITHER else allowed.value
    return hand_form([(seat.hearts, seat.marias, jack) for seat, jack in zip(taken, jacks)], number, moon, reserved)


def answers(client, paths):
    """What ``client`` is served at each of ``paths``: status, where it redirects, type, and the body with
    each CSRF token in one place-holder (a token is the session's, and its time)."""
    served = {}
    for path in paths:
        response = client.get(path)
        served[path] = (response.status_code, response.headers.get("Location"), response.mimetype,
                        TOKEN.sub("<token>", response.get_data(as_text=True)))
    return served


def refusals(response):
    """The words a refused post answered with: its form's errors and its flashed messages (not the messages a
    page holds hidden for its script to show, such as the hand form's "No connection")."""
    page = response.get_data(as_text=True)
    found = re.findall(r'<(?:p|span) class="(?:error|flash [a-z-]+)"([^>]*)>(.*?)</(?:p|span)>', page, flags=re.S)
    return {re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", words))).strip()
            for attributes, words in found if not re.search(r"\shidden\b", attributes)}


def difference(process, reader, path, served, fresh):
    """Where process ``process`` served ``path`` to ``reader`` otherwise than a fresh process did."""
    lines = difflib.unified_diff(fresh[3].splitlines(), served[3].splitlines(), "a fresh process",
                                 f"process {process}", n=1, lineterm="")
    return (f"process {process} served {path} to the {reader} otherwise than a fresh process: "
            f"{served[:3]} vs {fresh[:3]}\n" + "\n".join(itertools.islice(lines, 60)))


def test_a_club_played_through_two_processes_keeps_nothing_stale(tmp_path, migrated_template, monkeypatch):
    monkeypatch.setattr(rendered, "FRESH_FOR", 0)  # a revision read by another process is trusted for 0.5 s
    machine = type("Machine", (ClubOfTwoProcesses,), {"databases": (tmp_path, migrated_template)})

    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples(CLUB_CAMPAIGN), stateful_step_count=20, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))

    print("service: the club's campaign tried " + ", ".join(
        f"{kind} {dict(sorted(statuses.items()))}" for kind, statuses in sorted(TRIED.items())))
    print("service: the club's campaign was refused " + "; ".join(
        f"{kind}: {' / '.join(sorted(words))}" for kind, words in sorted(REFUSED.items())))
    assert "record" in TRIED


def test_a_hand_after_a_merge_made_by_the_other_process_counts_for_the_person_merged_into(
        tmp_path, migrated_template, monkeypatch):
    # Issue 33's first finding, as the campaign found it again with the fix undone: process A holds a game,
    # B merges one of its players into someone else, A records a hand in it.
    monkeypatch.setattr(rendered, "FRESH_FOR", 0)
    machine = type("Machine", (ClubOfTwoProcesses,), {"databases": (tmp_path, migrated_template)})
    club = machine()
    try:
        club.first_games(via="A", seed=0)
        club.every_kept_figure_is_what_the_hands_say_and_every_page_a_fresh_processs()
        club.change(kind="record", via="A", seed=0)
        club.every_kept_figure_is_what_the_hands_say_and_every_page_a_fresh_processs()
        club.change(kind="merge", via="B", seed=2155663)
        club.every_kept_figure_is_what_the_hands_say_and_every_page_a_fresh_processs()

        club.change(kind="record", via="A", seed=0)

        club.every_kept_figure_is_what_the_hands_say_and_every_page_a_fresh_processs()
    finally:
        club.teardown()
