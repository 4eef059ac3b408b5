"""Each game's summary for the games list, kept for its revision (a cache of what the hands derive).

Every write to a game passes the scoreboard it checked to ``writing``, which
writes the summary of the revision it makes, in the same transaction; a
write that changes nothing derived (a trick, the kitty, a void) moves the
summary on to its revision. A summary of another revision is stale: the
games list derives that game from its hands, and ``games.rebuild_summaries``
(the command ``flask rebuild-summaries``) writes every summary afresh. The hands win.
"""

import json

from sqlalchemy import insert, select, update

from ..db.models import Game, GameSummary, Player, db


def summary_facts(board, names):
    """What the games list shows of a scoreboard: players in the next hand, target, hands, each roster
    player's total (name and points, roster order), whether it is over, the winners and their points, and
    the next hand's number."""
    return {
        "players": len(board.seating), "target": board.target, "hands": len(board.hands),
        "totals": [[names[player], total] for player, total in enumerate(board.totals)],
        "over": board.over, "winners": [names[player] for player in board.winners], "lowest": board.lowest,
        "next_hand": None if board.next_hand is None else board.next_hand.number,
    }


def keep(game_id, revision, board, names=None):
    """Write game ``game_id``'s summary of ``revision`` from ``board`` (inside the write's transaction);
    ``names`` are its roster's, read from its players if not given."""
    if names is None:
        names = db.session.execute(select(Player.name).where(Player.game_id == game_id)
                                   .order_by(Player.seat)).scalars().all()
    facts = json.dumps(summary_facts(board, names), ensure_ascii=False)
    replaced = db.session.execute(
        update(GameSummary).where(GameSummary.game_id == game_id).values(revision=revision, facts=facts),
        execution_options={"synchronize_session": False})
    if replaced.rowcount == 0:  # the game's first summary; a game claimed by this write has no racing writer
        db.session.execute(insert(GameSummary), [{"game_id": game_id, "revision": revision, "facts": facts}])


def move_on(game_id, revision):
    """The write to ``revision`` changed nothing the summary shows: the summary of the revision before
    (if it was fresh) is that revision's too."""
    db.session.execute(update(GameSummary).where(GameSummary.game_id == game_id,
                                                 GameSummary.revision == revision - 1).values(revision=revision),
                       execution_options={"synchronize_session": False})


def kept_summaries(game_ids):
    """The fresh summaries of these games, as ``{game id: facts}`` (a stale one is left out)."""
    rows = db.session.execute(
        select(GameSummary.game_id, GameSummary.facts).join(Game, Game.id == GameSummary.game_id)
        .where(GameSummary.game_id.in_(game_ids), GameSummary.revision == Game.revision)).all()
    return {game_id: json.loads(facts) for game_id, facts in rows}
