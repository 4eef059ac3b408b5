"""The club's records (issue 23): the secretary's link, who may change people, the club's trail, and
changes to people that cannot tangle when two devices make them at once."""

import threading

import pytest
from sqlalchemy import select, update

from scorekeeper import rules, service
from scorekeeper.db.models import Game, Person, PersonChange, PersonName, Player, db
from scorekeeper.service.kept import kept_game

from .tabletop import SIX, create_game, hidden_fields, make_secretary, on_threads, text_of

ROUNDS = 20  # of each race, on SQLite and on PostgreSQL alike
GUEST_LINE = "Only the club's secretary can rename, merge and unmerge people, leave games out of the season"
SECRETARY_POWERS = ("Only the club's secretary can rename, merge and unmerge people, leave games out of the season "
                    "and count them again, date games, and undo any of these, from a device that opened the club's "
                    "secretary link.")
LANGUAGES = ["en", "pt", "es", "ms", "nb"]


def person_id(app, name):
    with app.app_context():
        return db.session.execute(select(Person.id).where(Person.name == name)).scalar_one()


def people_rows(app):
    with app.app_context():
        return db.session.execute(select(Person.id, Person.name, Person.merged_into_id).order_by(Person.id)).all()


def post_form(client, url, page_url, fields):
    return client.post(url, data={**hidden_fields(client, page_url), **fields})


# --- Who may change people --------------------------------------------------------------


def test_a_guest_sees_people_read_only_and_cannot_rename_merge_or_unmerge(app, client):
    create_game(client, SIX, name="Friday")
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"], name="Saturday")
    ana, anna = person_id(app, "Ana"), person_id(app, "Anna")
    secretary = make_secretary(app, app.test_client())
    post_form(secretary, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    before = people_rows(app)
    guest = app.test_client()
    token = hidden_fields(guest, "/games/new")  # a real CSRF token: the refusal is the missing pass, not the form

    page = guest.get(f"/players/{ana}")
    refused = [guest.post(f"/players/{ana}/rename", data={**token, "name": "Queen"}),
               guest.post(f"/players/{ana}/merge", data={**token, "other": str(person_id(app, "Bo"))}),
               guest.post(f"/players/{ana}/undo", data={**token, "change": "1"})]

    assert page.status_code == 200
    assert SECRETARY_POWERS in text_of(page)
    assert 'action="/players/' not in page.get_data(as_text=True)  # no rename, merge or undo form
    assert "Anna" in text_of(page)  # the merge is shown, without its Undo
    assert [response.status_code for response in refused] == [403, 403, 403]
    assert people_rows(app) == before


def test_the_secretary_link_makes_a_secretary_and_a_new_key_ends_every_earlier_pass(app, client, runner):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    printed = runner.invoke(args=["club-link"])
    link = printed.output.split()[-1]
    key = link.rsplit("/", 1)[1]
    secretary = app.test_client()

    wrong = secretary.get("/club/secretary/not-the-key")
    opened = secretary.get(f"/club/secretary/{key}")
    page = secretary.get(f"/players/{bo}")
    renewed = runner.invoke(args=["club-link", "--new"])
    token = hidden_fields(secretary, "/games/new")
    after = secretary.post(f"/players/{bo}/rename", data={**token, "name": "Robert"})
    new_key = renewed.output.split()[-1].rsplit("/", 1)[1]

    assert printed.exit_code == 0 and "/club/secretary/" in link
    assert ("rename, merge and unmerge people, leave games out of the season and count them again, date games, "
            "and undo any of these") in printed.output
    assert wrong.status_code == 404
    assert opened.status_code == 302 and opened.headers["Location"] == "/club"
    assert 'action="/players/%d/rename"' % bo in page.get_data(as_text=True)
    assert renewed.exit_code == 0 and new_key != key
    assert after.status_code == 403  # the old pass stopped working
    assert secretary.get(f"/club/secretary/{key}").status_code == 404
    assert make_secretary(app, secretary).get("/club").status_code == 200
    assert [name for _id, name, _into in people_rows(app)].count("Bo") == 1


def test_the_clubs_trail_shows_each_change_with_its_device(app, client):
    create_game(client, SIX)
    create_game(client, ["Anna", "Zoe", "Yan", "Xu", "Wes", "Val"])
    ana, anna, bo = person_id(app, "Ana"), person_id(app, "Anna"), person_id(app, "Bo")
    secretary = make_secretary(app, app.test_client())

    refused = post_form(secretary, "/club/device", "/club", {"name": "Ana\u2028phone"})
    named = post_form(secretary, "/club/device", "/club", {"name": "Ana's phone"})
    post_form(secretary, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Robert"})
    post_form(secretary, f"/players/{ana}/merge", f"/players/{ana}", {"other": str(anna)})
    page = text_of(app.test_client().get("/club"))

    assert refused.status_code == 400 and 'value="Ana\u2028phone"' in refused.get_data(as_text=True)
    assert "A name cannot hold" in text_of(refused)
    assert named.status_code == 302
    assert "Bo renamed Robert." in page and "Anna merged into Ana." in page
    assert page.count("from Ana's phone") == 2
    assert GUEST_LINE in page
    assert app.test_client().post("/club/device", data={"name": "Mine"}).status_code in (400, 403)


def trail_ids(app, action):
    with app.app_context():
        return db.session.execute(select(PersonChange.id).where(PersonChange.action == action)
                                  .order_by(PersonChange.id)).scalars().all()


def test_undoing_a_rename_shows_the_old_name_and_frees_the_spelling_it_gave(app, client):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    secretary = make_secretary(app, app.test_client())
    post_form(secretary, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Robert"})
    post_form(secretary, f"/players/{bo}/rename", f"/players/{bo}", {"name": "Bobby"})
    first, second = trail_ids(app, "rename")

    blocked = post_form(secretary, "/club/undo", "/club", {"change": str(first)})
    guest = app.test_client().post("/club/undo", data={**hidden_fields(app.test_client(), "/games/new"),
                                                       "change": str(second)})
    undone = [post_form(secretary, "/club/undo", "/club", {"change": str(change)}) for change in (second, first)]
    create_game(client, ["Robert", "Zoe", "Yan", "Xu", "Wes", "Val"], name="Later")
    page = text_of(secretary.get("/club"))

    assert blocked.status_code == 400
    assert "A later change stands in the way: undo “Robert renamed Bobby.” (" in text_of(blocked)
    assert guest.status_code == 403
    assert [response.status_code for response in undone] == [302, 302]
    names = [name for _id, name, _into in people_rows(app)]
    assert "Bo" in names and "Bobby" not in names
    assert names.count("Robert") == 1 and person_id(app, "Robert") != bo  # the freed name is someone new
    assert "Rename undone: shown as Robert again." in page and "Rename undone: shown as Bo again." in page
    again = post_form(secretary, "/club/undo", "/club", {"change": str(first)})
    assert again.status_code == 400 and "That change was undone already." in text_of(again)


def test_a_cycle_of_merges_in_old_data_is_404_not_a_redirect_loop(app, client):
    create_game(client, SIX)
    ana, bo = person_id(app, "Ana"), person_id(app, "Bo")
    with app.app_context():
        db.session.execute(update(Person).where(Person.id == ana).values(merged_into_id=bo))
        db.session.execute(update(Person).where(Person.id == bo).values(merged_into_id=ana))
        db.session.commit()

    assert client.get(f"/players/{ana}").status_code == 404


# --- Races --------------------------------------------------------------------------------


def three_people(round_number):
    """Three people of the round, each in a game of their own (so any two may be merged)."""
    names = [f"X{round_number}", f"Y{round_number}", f"Z{round_number}"]
    for name in names:
        service.new_game("Race", 150, 0, [name, *(f"{name} friend {seat}" for seat in range(5))])
    return [db.session.execute(select(Person.id).where(Person.name == name)).scalar_one() for name in names]


def person(person_id):
    return db.session.get(Person, person_id)


# Each change below, called in its thread, reads what it needs and returns the write to make at the barrier:
# both writes start from the same reads, as two devices showing the same page would.


def merge(into, away):
    def read():
        survivor, merged = person(into), person(away)
        return lambda: service.merge_people(survivor, merged)
    return read


def rename(who, name):
    def read():
        renamed = person(who)
        return lambda: service.rename_person(renamed, name)
    return read


def new_game_with(name):
    def read():
        return lambda: service.new_game("Late", 150, 0, [name, *(f"{name} late {seat}" for seat in range(5))])
    return read


def undo_latest_merge():
    def read():
        latest = db.session.execute(select(PersonChange).where(PersonChange.action == "merge")
                                    .order_by(PersonChange.id.desc()).limit(1)).scalar_one()
        return lambda: service.undo_merge(latest)
    return read


def hand_in_game_of(name):
    """A hand recorded in the game ``name`` sits first in, by a scorer who read the game before the barrier."""
    def read():
        game = db.session.execute(select(Player.game_id).where(Player.name == name, Player.seat == 0)
                                  .order_by(Player.game_id)).scalars().first()
        revision, key = db.session.execute(select(Game.revision, Game.scorer_key).where(Game.id == game)).one()
        kept = kept_game(game, revision, key)
        taken = [rules.Taken(hearts, marias) for hearts, marias in [(5, 0), (5, 0), (4, 1), (4, 0), (4, 1), (4, 0)]]
        return lambda: service.record_hand(kept, taken, None, False, revision)
    return read


RACES = {
    "X into Y with Y into X": lambda x, y, z, n: (merge(y, x), merge(x, y)),
    "X into Y with Y into Z": lambda x, y, z, n: (merge(y, x), merge(z, y)),
    "a merge with a rename": lambda x, y, z, n: (merge(y, x), rename(x, f"Renamed {n}")),
    "a merge with a new game": lambda x, y, z, n: (merge(y, x), new_game_with(f"X{n}")),
    "an undo with a merge": lambda x, y, z, n: (undo_latest_merge(), merge(z, y)),
    "a merge with a hand of the one merged away": lambda x, y, z, n: (merge(y, x), hand_in_game_of(f"X{n}")),
}


def race(app, changes):
    """Make the two changes at once, each on a session of its own; what each ended as."""
    barrier = threading.Barrier(len(changes))
    outcomes = [None] * len(changes)

    def run(place, change):
        with app.app_context():
            try:
                made = change()  # the reads, before the barrier
                barrier.wait()
                made()
                outcomes[place] = "made"
            except (service.Conflict, service.PeopleRefused) as error:
                outcomes[place] = type(error).__name__
            except Exception as error:  # noqa: BLE001 - the outcome is what the test checks
                outcomes[place] = repr(error)
            finally:
                db.session.remove()

    on_threads(run, changes)
    return outcomes


def assert_untangled(app):
    """No cycle; every player, and every spelling, on a person not merged away."""
    with app.app_context():
        into = dict(db.session.execute(select(Person.id, Person.merged_into_id)).all())
        for start in into:
            seen, at = set(), start
            while into[at] is not None:
                assert at not in seen, f"a cycle of merges through {at}"
                seen.add(at)
                at = into[at]
        for model in (Player, PersonName):
            on = db.session.execute(select(model.person_id)).scalars().all()
            assert all(into[person_id] is None for person_id in on), f"a {model.__name__} on a person merged away"


@pytest.mark.parametrize("name", RACES)
def test_two_changes_to_people_at_once_never_tangle_them(app, name):
    outcomes = []
    for round_number in range(ROUNDS):
        with app.app_context():
            x, y, z = three_people(round_number)
            if name == "an undo with a merge":
                service.merge_people(person(y), person(x))
        outcome = race(app, list(RACES[name](x, y, z, round_number)))
        outcomes.append(outcome)
        assert all(result in ("made", "Conflict", "PeopleRefused") for result in outcome), outcome
        assert "made" in outcome, outcome
        if name == "X into Y with Y into X":
            assert outcome.count("made") == 1, outcome
        assert_untangled(app)
    with app.app_context():
        assert service.figures.check() == []  # every seat's figures name the person its player is now
    made = sum(outcome.count("made") for outcome in outcomes)
    print(f"races: {name}, {ROUNDS} rounds: {made} changes made, {2 * ROUNDS - made} refused, nothing tangled")


# --- Games left out of the season ----------------------------------------------------------


def test_a_voided_game_counts_nowhere_stays_shown_marked_and_can_be_counted_again(app, client):
    from .tabletop import record_hand

    kept = create_game(client, SIX, name="Friday")
    record_hand(client, kept, [(5, 0), (5, 0), (4, 1), (4, 0), (4, 1), (4, 0)])
    practice = create_game(client, ["Ana", "Bo", "Caio", "Dee", "Eli", "Yuki"], name="Practice")
    record_hand(client, practice, [(26, 0), (0, 2), (0, 0), (0, 0), (0, 0), (0, 0)])
    secretary = make_secretary(app, app.test_client())
    guest = app.test_client()
    before = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}
    offered_before = text_of(client.get("/games/new"))

    refused = post_form(secretary, "/club/void", "/club", {"game": str(practice), "reason": "a\u2028practice"})
    by_guest = guest.post("/club/void", data={**hidden_fields(guest, "/games/new"), "game": str(practice),
                                              "reason": "mine"})
    voided = post_form(secretary, "/club/void", "/club", {"game": str(practice), "reason": "A practice game"})
    twice = post_form(secretary, "/club/void", "/club", {"game": str(practice), "reason": "Again"})
    during = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}
    yuki_page = text_of(client.get(f"/players/{person_id(app, 'Yuki')}"))
    table, games_list = text_of(client.get(f"/games/{practice}")), text_of(client.get("/"))
    club_page = text_of(guest.get("/club"))
    new_game_page = text_of(client.get("/games/new"))
    counted = post_form(secretary, f"/club/games/{practice}/count", "/club", {})
    after = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}

    assert refused.status_code == 400 and 'value="a\u2028practice"' in refused.get_data(as_text=True)
    assert by_guest.status_code == 403
    assert voided.status_code == 302
    assert twice.status_code == 409 and "nothing was saved" in text_of(twice)
    assert during["Ana"]["games"] == 1 and "Yuki" not in during  # the practice counts nowhere
    assert during["Ana"]["points"] == before["Ana"]["points"] - 26
    assert "No games recorded for Yuki yet." in yuki_page
    assert "Left out of the season by the club's secretary: A practice game" in table
    assert "Left out of the season" in games_list
    assert "Practice left out of the season: A practice game" in club_page and "A practice game" in club_page
    assert "Yuki" in offered_before and "Yuki" not in new_game_page  # no quick pick from a game left out
    assert counted.status_code == 302 and after == before
    assert "Practice counted in the season again." in text_of(guest.get("/club"))


def game_entries(app):
    from scorekeeper.db.models import GameChange

    with app.app_context():
        return db.session.execute(select(GameChange.id, GameChange.action).order_by(GameChange.id)).all()


def test_a_game_dated_on_the_day_it_was_played_moves_in_the_season_and_each_game_change_undoes(app, client):
    game_id = create_game(client, SIX, name="Imported late")
    secretary = make_secretary(app, app.test_client())
    in_november = "/stats.json?since=2026-11-01&until=2026-11-30"

    refused = post_form(secretary, "/club/date", "/club", {"game": str(game_id), "day": "2026-13-40"})
    dated = post_form(secretary, "/club/date", "/club", {"game": str(game_id), "day": "2026-11-06"})
    counted_in_november = client.get(in_november).get_json()["players"]
    post_form(secretary, "/club/date", "/club", {"game": str(game_id), "day": "2026-11-07"})
    voided = post_form(secretary, "/club/void", "/club", {"game": str(game_id), "reason": "Imported twice"})
    (first_date, _date), (second_date, _again), (void_entry, _void) = game_entries(app)
    blocked = post_form(secretary, "/club/games/undo", "/club", {"change": str(first_date)})
    undone = [post_form(secretary, "/club/games/undo", "/club", {"change": str(entry)})
              for entry in (void_entry, second_date)]  # a date and a void stand apart: either order
    page = text_of(secretary.get("/club"))

    assert refused.status_code == 400 and 'value="2026-13-40"' in refused.get_data(as_text=True)
    assert "Write the day as year-month-day" in text_of(refused)
    assert dated.status_code == 302 and len(counted_in_november) == 6
    assert voided.status_code == 302
    assert blocked.status_code == 400 and "The game was changed again since. Undo that change first." in text_of(
        blocked)
    assert [response.status_code for response in undone] == [302, 302]
    assert [player["games"] for player in client.get(in_november).get_json()["players"]] == [1] * 6  # the 6th
    assert len(client.get("/stats.json").get_json()["players"]) == 6  # and counted again
    assert "Imported late dated Nov 6, 2026 (it was" in page
    assert "Imported late counted in the season again." in page
    assert [action for _id, action in game_entries(app)] == ["date", "date", "void", "count", "date"]
    assert post_form(secretary, "/club/games/undo", "/club", {"change": str(first_date)}).status_code == 400


def test_the_clubs_trail_writes_a_dated_games_days_as_the_readers_language_does_and_links_the_game(app, client):
    game_id = create_game(client, SIX, name="Imported late")
    secretary = make_secretary(app, app.test_client())
    post_form(secretary, "/club/date", "/club", {"game": str(game_id), "day": "2026-11-06"})
    post_form(secretary, "/club/void", "/club", {"game": str(game_id), "reason": "Imported twice"})

    english = secretary.get("/club", headers={"Accept-Language": "en"}).get_data(as_text=True)
    portuguese = text_of(secretary.get("/club", headers={"Accept-Language": "pt"}))
    norwegian = text_of(secretary.get("/club", headers={"Accept-Language": "nb"}))

    assert f'<a href="/games/{game_id}">Imported late dated Nov 6, 2026 (it was ' in english
    assert f'<a href="/games/{game_id}">Imported late left out of the season: Imported twice</a>' in english
    assert "2026-11-06" not in portuguese and "6 de nov. de 2026" in portuguese
    assert "2026-11-06" not in norwegian and "6. nov. 2026" in norwegian


def secretary_only_requests(app, client):
    """A request of every kind only a secretary may make: rename, merge, undo, leave out, count again, date."""
    game_id = create_game(client, SIX)
    bo, ana = person_id(app, "Bo"), person_id(app, "Ana")
    return [(f"/players/{bo}/rename", {"name": "Robert"}), (f"/players/{ana}/merge", {"other": str(bo)}),
            (f"/players/{ana}/undo", {"change": "1"}), ("/club/undo", {"change": "1"}),
            ("/club/void", {"game": str(game_id), "reason": "Practice"}),
            (f"/club/games/{game_id}/count", {}), ("/club/date", {"game": str(game_id), "day": "2026-11-06"})]


def test_a_guests_or_an_expired_passs_secretary_request_is_told_it_needs_the_secretary_link(app, client, runner):
    requests = secretary_only_requests(app, client)
    expired = make_secretary(app, app.test_client())
    runner.invoke(args=["club-link", "--new"])  # the pass of ``expired`` is made from the old key
    guest = app.test_client()
    token = hidden_fields(guest, "/games/new")

    refused = [guest.post(url, data={**token, **fields}) for url, fields in requests]
    stale = expired.post(requests[0][0], data={**hidden_fields(expired, "/games/new"), **requests[0][1]})

    for response in [*refused, stale]:
        text = text_of(response)
        assert response.status_code == 403
        assert SECRETARY_POWERS in text
        assert "flask --app scorekeeper club-link" in text
        assert "scorer" not in text.lower()  # never the scorer's words
    assert "the club has a new one since" in text_of(stale)
    assert "the club has a new one since" not in text_of(refused[0])


def translated(app, language, message):
    from scorekeeper.words.i18n import _

    with app.test_request_context(headers={"Accept-Language": language}):
        return _(message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_guests_rename_is_refused_in_the_readers_language(app, client, language):
    create_game(client, SIX)
    bo = person_id(app, "Bo")
    guest = app.test_client()
    refusal = translated(app, language, SECRETARY_POWERS)

    response = guest.post(f"/players/{bo}/rename", data={**hidden_fields(guest, "/games/new"), "name": "Robert"},
                          headers={"Accept-Language": language})

    assert response.status_code == 403
    assert language == "en" or refusal != SECRETARY_POWERS  # translated
    assert refusal in text_of(response)
