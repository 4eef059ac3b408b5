"""Rows, and the one place that turns them into engine values; the schema's migrations."""


def init_app(app):
    """Bind the database to the app and bring its schema to the latest migration (tables made on first start)."""
    from . import migrate, models

    models.init_app(app)
    with app.app_context():
        migrate.upgrade()
