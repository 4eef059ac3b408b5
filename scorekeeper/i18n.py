"""Marking user-visible strings for translation.

Until message catalogs exist, these render the English message with its
named placeholders filled, as gettext's null translations do. Messages stay
whole sentences with named placeholders so that translators see them whole.
"""


def gettext(message, **values):
    """Translate ``message`` and fill its ``%(name)s`` placeholders."""
    return message % values if values else message


_ = gettext
