"""House rules as a registry (issue 35): every registered rule (``rules.HOUSE_RULES``) is whole, each of its
pieces present (the engine's field and default, a column of the migrated database, its words, its row in the
game document's docs), and every one round-trips: chosen on the form, stored, shown on its page, written in a
game document and imported, it is the same variant. A rule registered without its column or its words is
caught (docs/house-rules.md adds one as a worked example)."""

import dataclasses
import io
import json
import pathlib
import re

from hypothesis import HealthCheck, given, settings
from sqlalchemy import inspect, select

from scorekeeper import rules
from scorekeeper.db.models import Game, db, variant_of_row
from scorekeeper.rules import HouseRule
from scorekeeper.web.forms import HouseRulesForm
from scorekeeper.words.house_rules import WORDS

from .profiles import examples
from .tabletop import SIX, csrf_token, game_form, hidden_fields, house_variants, make_secretary

GAME_FORMAT_DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "game-format.md"


def variant_defaults():
    """``rules.Variant``'s fields, each with its default."""
    return {field.name: field.default for field in dataclasses.fields(rules.Variant)}


def missing_pieces(rule, defaults, columns, words, docs):
    """What ``rule`` lacks of a whole house rule: the engine's field with the registry's default (``defaults``:
    ``Variant``'s), a column of the database (``columns``: the migrated game table's), its words (``words``:
    by rule name), its row in the game document's docs (``docs``: their text)."""
    missing = []
    if rule.name not in defaults or defaults[rule.name] != rule.default:
        missing.append("a field of rules.Variant with its default")
    if rule.name not in columns:
        missing.append("a column (a migration)")
    if rule.name not in words:
        missing.append("its words (words/house_rules.py)")
    if f"| `{rule.name}` |" not in docs:
        missing.append("its row in docs/game-format.md")
    return missing


def migrated_columns(app):
    with app.app_context():
        return {column["name"] for column in inspect(db.engine).get_columns(Game.__tablename__)}


def test_every_registered_house_rule_is_whole(app):
    columns, docs = migrated_columns(app), GAME_FORMAT_DOCS.read_text(encoding="utf-8")

    defaults = variant_defaults()
    assert {rule.name: missing_pieces(rule, defaults, columns, WORDS, docs) for rule in rules.HOUSE_RULES} == {
        rule.name: [] for rule in rules.HOUSE_RULES}
    assert set(WORDS) == set(rules.HOUSE_RULE_NAMES)  # no words of a rule that is no longer registered
    assert rules.Variant().facts() == {rule.name: rule.document_value(rule.default) for rule in rules.HOUSE_RULES}


def test_a_rule_registered_without_its_column_or_its_words_is_caught(app):
    """A rule registered with none of its other pieces (the worked example's, docs/house-rules.md, with a
    ``Variant`` field of its own): each missing piece is named; without the field, that too."""
    example = HouseRule("example_points", "R14", 13, (13, 26))
    columns, docs = migrated_columns(app), GAME_FORMAT_DOCS.read_text(encoding="utf-8")

    assert missing_pieces(example, {**variant_defaults(), "example_points": 13}, columns, WORDS, docs) == [
        "a column (a migration)", "its words (words/house_rules.py)", "its row in docs/game-format.md"]
    assert missing_pieces(example, variant_defaults(), columns, WORDS, docs)[0] == \
        "a field of rules.Variant with its default"
    assert missing_pieces(example, {**variant_defaults(), "example_points": 26}, columns, WORDS, docs)[0] == \
        "a field of rules.Variant with its default"  # a default that is not the registry's


def form_fields(variant):
    """``variant`` as the new-game form posts it: each rule's choice, a ticked box as "y"."""
    fields = {}
    for name, data in HouseRulesForm.data_of(variant).items():
        if data is True:
            fields[name] = "y"
        elif data is not False:
            fields[name] = str(data)
    return fields


def shown_variant(page):
    """The variant the house rules page of a game shows chosen: its checked radios and ticked boxes."""
    checked = dict(re.findall(r'<input type="(?:radio|checkbox)" id="[^"]*" name="rules-(\w+)" value="([^"]*)" checked',
                              page))
    values = {}
    for rule in rules.HOUSE_RULES:
        if rule.control == "checkbox":
            values[rule.name] = rule.ticked if rule.name in checked else rule.default
        else:
            values[rule.name] = rule.from_form(checked[rule.name])
    return rules.Variant(**values)


def stored_variant(app, game_id):
    with app.app_context():
        return variant_of_row(db.session.execute(select(Game).where(Game.id == game_id)).scalar_one())


# One app for every example: each makes games of its own and reads only those.
@settings(max_examples=examples(20), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=house_variants(offered_only=True), other=house_variants())
def test_every_house_rule_round_trips_from_the_form_to_the_page_the_document_and_an_import(app, variant, other):
    """``variant`` (values the form offers) from the form; ``other`` (any the engine takes, a passing cycle of
    any length) from a game document; both come back the same from every place they are kept."""
    client = make_secretary(app, app.test_client())
    fields = {**game_form(SIX, name="House"), "csrf_token": csrf_token(client, "/games/new"),
              **{f"rules-{name}": value for name, value in form_fields(variant).items()}}
    created = client.post("/games/new", data=fields)
    assert created.status_code == 302, created.get_data(as_text=True)
    game_id = int(created.headers["Location"].rsplit("/", 1)[1])

    assert stored_variant(app, game_id) == variant
    assert shown_variant(client.get(f"/games/{game_id}/rules").get_data(as_text=True)) == variant
    document = client.get(f"/games/{game_id}/export.json").get_json()
    assert document["rules"] == variant.facts()

    for chosen, written in ((variant, document), (other, {**document, "rules": other.facts()})):
        imported = client.post("/games/import", data={
            "csrf_token": csrf_token(client, "/games/import"),
            "document": (io.BytesIO(json.dumps(written).encode()), "game.json")}, content_type="multipart/form-data")
        assert imported.status_code == 302, imported.get_data(as_text=True)
        imported_id = int(imported.headers["Location"].rsplit("/", 1)[1])
        assert stored_variant(app, imported_id) == chosen
        assert shown_variant(client.get(f"/games/{imported_id}/rules").get_data(as_text=True)) == chosen
        assert hidden_fields(client, f"/games/{imported_id}/rules")  # the page offers the form, whatever the cycle
