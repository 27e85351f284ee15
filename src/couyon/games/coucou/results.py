"""A coucou game's lines of the day's results and its traveller: one line per coup number."""

from __future__ import annotations

from couyon.common.kind import Json
from couyon.common.results import by_number, own_of
from couyon.games.coucou.answers import COUCOU_HUMAN
from couyon.games.coucou.game import GameState, Outcome


def deal_results(state: GameState) -> list[Json]:
    """How each finished coup seat 1 was dealt a card in went for it: the day's traveller's line.

    ``card`` is the card seat 1 was dealt, ``said`` ``keep`` or ``change`` (a change refused by a
    king's "Coucou !" or shown king, or made with the stock included), None when seat 1 dealt and so had no say
    (as qui court: unless he was handed an ace);
    ``lost`` whether it lost a token at the showdown, ``eliminated`` whether that was its last.
    """
    results: list[Json] = []
    for coup in state.finished:
        position = coup.position_of(COUCOU_HUMAN)
        if position is None:
            continue
        # The dealer has no say, except at as qui court when he was handed an ace (his move is then logged).
        dealt = position >= len(coup.actions)
        results.append(
            {
                "coup": coup.number,
                "card": str(coup.before[position]),
                "said": None if dealt else "keep" if coup.actions[position] == Outcome.KEEP else "change",
                "lost": COUCOU_HUMAN in (coup.losers or ()),
                "eliminated": COUCOU_HUMAN in (coup.eliminated or ()),
            }
        )
    return results


def traveller(field: list[list[Json]], own: list[Json]) -> list[Json]:
    """Coucou's traveller: one line per coup number, over the games that reached it with seat 1 still in.

    How many had seat 1 keep, change or deal (no say), lose a token and go out, and the player's own coup.
    """
    return [
        {
            "coup": number,
            "games": len(lines),
            "keep": sum(line["said"] == "keep" for line in lines),
            "change": sum(line["said"] == "change" for line in lines),
            "dealer": sum(line["said"] is None for line in lines),
            "lost": sum(bool(line["lost"]) for line in lines),
            "eliminated": sum(bool(line["eliminated"]) for line in lines),
            "you": own_of(own_line, "coup"),
        }
        for number, lines, own_line in by_number(field, own, "coup")
    ]
