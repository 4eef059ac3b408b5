"""The web side: one module per blueprint (none importing another), the responses they share, forms and
the pages kept rendered (``rendered``); the words they show come from ``scorekeeper.words``."""

BLUEPRINTS = ("games", "hands", "trail", "live", "tricks", "seating", "people", "club", "nights", "pages", "sheet")


def init_app(app):
    """Languages, the pages' filters and the rules' numbers, every blueprint, static files, the serve command."""
    from importlib import import_module

    from .. import rules, service
    from ..words import explain, house_rules, i18n
    from . import assets, forms, rendered, serving

    i18n.init_app(app)
    app.jinja_env.filters["explain"] = explain.explain
    app.jinja_env.filters["house_rule"] = house_rules.house_rule
    app.jinja_env.filters["direction_word"] = house_rules.direction_word
    app.jinja_env.filters["shown"] = forms.shown_value
    # Pages take the rules' numbers from the engine, never from a literal.
    app.jinja_env.globals.update(
        HEARTS_IN_HAND=rules.HEARTS_IN_HAND, MARIAS_IN_HAND=rules.MARIAS_IN_HAND,
        # The house rules, each control and its words from the registry (rules/variant.py, words/house_rules.py).
        HOUSE_RULES=rules.HOUSE_RULES, HOUSE_RULE_WORDS=house_rules.WORDS,
        house_rules_varying=lambda printed: tuple(rule.name for rule in rules.HOUSE_RULES if rule.varies == printed),
    )
    # Block tags leave no blank lines or indentation behind: pages stay light.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    for name in BLUEPRINTS:
        app.register_blueprint(import_module(f"{__name__}.{name}").bp)
    service.after_commit(rendered.forget)  # a write made here shows at once in this process's kept pages
    serving.init_app(app)
    assets.init_app(app)
