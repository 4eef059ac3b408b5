"""The application factory and its instance setup."""

import os
import stat

from scorekeeper import create_app, load_or_create_secret_key


def test_home_page_names_the_game(client):
    response = client.get("/")

    assert response.status_code == 200
    assert "Cancellation Hearts" in response.get_data(as_text=True)


def test_secret_key_is_generated_once_with_owner_only_permissions(tmp_path):
    first = load_or_create_secret_key(tmp_path)
    second = load_or_create_secret_key(tmp_path)

    assert first == second
    assert len(first) == 64
    mode = stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode)
    assert mode == 0o600


def test_configured_secret_key_is_used_as_given(tmp_path):
    app = create_app({"SECRET_KEY": "from config", "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.config["SECRET_KEY"] == "from config"
