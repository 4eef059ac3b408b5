"""What the app writes for spreadsheets (a game's sheet, the season's table): CSV with a byte order mark,
the separator asked for, and cells that no spreadsheet runs as a formula."""

import csv
import io
from decimal import Decimal

from flask import Response, request

from ..words.i18n import _

BYTE_ORDER_MARK = "\ufeff"  # how a spreadsheet (Excel above all) knows the file is UTF-8
# A cell starting with one of these is read as a formula by spreadsheets (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The CSV's ``sep`` parameter: a comma unless asked, whatever the page's language, so that one link
# always gives the same file. A spreadsheet set to a comma decimal mark (pt, es, nb) reads semicolons.
SEPARATORS = {"comma": ",", "semicolon": ";", "tab": "\t", ",": ",", ";": ";", "\t": "\t"}
# Each separator's decimal mark: semicolons are for spreadsheets that write a decimal comma ("22,5",
# "0,2857"); a comma or a tab keeps the decimal point ("22.5").
DECIMAL_MARKS = {",": ".", ";": ",", "\t": "."}


def asked_separator():
    """The separator ``?sep=`` asks for (a comma if none), or None for one it cannot be."""
    return SEPARATORS.get(request.args.get("sep", "comma"))


def unknown_separator():
    """The answer to a ``sep`` the app does not know (400)."""
    return Response(_("The separator (sep) is comma, semicolon or tab."), 400, mimetype="text/plain")


def spreadsheet_response(rows, separator, filename):
    """``rows`` as a CSV file to download, named ``filename``."""
    return Response(csv_text(rows, separator), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def csv_text(rows, separator):
    """``rows`` as CSV text with a byte order mark; numbers with the separator's decimal mark
    (``DECIMAL_MARKS``), text safe from formula injection."""
    mark = DECIMAL_MARKS[separator]
    written = io.StringIO()
    writer = csv.writer(written, delimiter=separator)
    writer.writerows([decimal_text(cell, mark) if is_fraction(cell) else inert(cell) for cell in row]
                     for row in rows)
    return BYTE_ORDER_MARK + written.getvalue()


def is_fraction(cell):
    """Whether a cell is a number that may hold a decimal mark (a whole number never does)."""
    return isinstance(cell, (float, Decimal))


def decimal_text(value, mark):
    """A number written with the decimal ``mark``, in plain digits (never an exponent: 0.0001, not 1E-4)."""
    text = format(value, "f") if isinstance(value, Decimal) else repr(value)
    return text.replace(".", mark)


def inert(cell):
    """A cell as the spreadsheet should read it: typed text that looks like a formula is kept as text."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return "" if cell is None else cell
