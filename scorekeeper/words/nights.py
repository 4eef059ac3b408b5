"""A club night's words (R18): why a change to it was refused, each entry of its trail, a round's length,
a share, and where someone sits; each a whole sentence with named placeholders."""

from .i18n import _, ngettext


def night_refused(error):
    """One sentence for a ``service.NightRefused``."""
    reason = error.reason
    if reason == "no_night":
        return _("There is no such night.")
    if reason == "not_here":
        return _("That person is not checked in for this night, or has left it already.")
    if reason == "round_open":
        return _("A table of this round is still playing. Wait for every table to finish, or close the round "
                 "(each table then counts as it stood, R18 f).")
    if reason == "too_few":
        return _("A table needs 6 players or more (R18 a): check more people in first.")
    if reason == "split":
        return _("Those tables do not seat everyone checked in for the next round; choose one of the splits "
                 "shown (R18 a).")
    if reason == "no_round":
        return _("That round is closed already, or there is no such round.")
    if reason == "finished":
        return _("Every table of that round has finished, so it needs no closing: draw the next round.")
    if reason == "played":
        return _("A hand or a trick is recorded at a table of that round, so its draw cannot be taken back. "
                 "Close the round instead, or remove what was recorded at that table first.")
    return _("This night has no change to undo.")


def night_changed_meanwhile():
    """The words of a change refused because another device changed the night first."""
    return _("Another device changed this night just now, so nothing was saved. The page shows the night as it "
             "is now: check and try again.")


def round_length_words(deals):
    """How long a round is (R18 c): every player deals once, or the agreed number of deals."""
    if deals is None:
        return _("A round: every player deals once (R18 c).")
    return ngettext("A round: %(num)d deal at every table (R18 c).",
                    "A round: %(num)d deals at every table (R18 c).", deals)


def split_words(sizes):
    """A split of the people into tables, as the draw offers it: "3 tables: 8, 7 and 7 players"."""
    players = ", ".join(str(size) for size in sizes)
    return ngettext("%(num)d table of %(players)s players", "%(num)d tables: %(players)s players",
                    len(sizes), players=players)


def share_text(share):
    """A share (0 best to 1 worst, R18 d) as the standing shows it: three decimals."""
    return f"{float(share):.3f}"


def entry_words(entry, names):
    """What one entry of a night's trail did (``service.nights.NightEntry``); ``names`` by person id."""
    change = _change_words(entry, names)
    if entry.depth == 0:
        return change
    if entry.depth % 2:
        return _("Undone: %(change)s", change=change)
    return _("Made again: %(change)s", change=change)


def _change_words(entry, names):
    """The words of the change a chain of undos began with."""
    action = entry.origin.action
    if action in ("check_in", "see_off"):
        listed = ", ".join(sorted((names.get(person, "?") for person in entry.made), key=str.casefold))
        return (_("Checked in: %(names)s", names=listed) if action == "check_in"
                else _("Left the night: %(names)s", names=listed))
    if action == "draw":
        return _("Round %(round)d drawn from seed %(seed)d", round=entry.round, seed=entry.made["seed"])
    return _("Round %(round)d closed before every table finished", round=entry.round)


def where_words(sits):
    """Where someone sits this round: "Table 2, seat 4, left of Ana" (``web.nights.Seat``)."""
    return _("Table %(table)d, seat %(seat)d, left of %(name)s", table=sits.table, seat=sits.seat, name=sits.right)
