"""A phone that comes back to a page fetches the page alone: its style and scripts are kept."""

from urllib.parse import urlsplit

from playwright.sync_api import expect

from .test_game_flow import EIGHT, start_game


def test_a_repeat_visit_fetches_only_the_html(page, served_paths):
    start_game(page, EIGHT, target=150, name="Cached")
    table_url = page.url
    page.goto("/rules")
    served_paths.clear()

    page.goto(table_url)
    expect(page.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()

    fetched = [path for path in served_paths if not path.endswith("/state")]  # the live poll may tick
    assert fetched == [urlsplit(table_url).path], fetched
