"""The review of a finished game of tarot: every deal, and each of one seat's decisions judged against the expert.

Built from the seed and the moves alone (``review_at(players)`` gives the ``GameKind.review`` of a table size).
Every decision of the reviewed seat (South, the human's, unless told otherwise) is judged twice: by the expert
from the seat's own view (its hand, what was bid, shown and played: ``TarotView``), and, once nothing is secret,
with every hand known. Values are in the seat's score points for the deal (ruling 15: the marque S times the
seat's share, n − 1 for a lone taker, 2 for a taker with a partner, 1 for the partner or a defender); a
decision's ``cost`` is the value of the expert's own choice minus the seat's (never below 0), ``dd_cost`` the
best value with every hand known minus the seat's.

- A bid: each open contract as ``ExpertTarotBot.bid_values`` values it (deals of the unseen cards played out
  with the seat as taker) less the margin it must beat (``BID_MARGINS``), a pass worth 0; the expert bids as
  at the table (a hand below its count passes unsimulated). With every hand known: the true deal played out.
- The call at five: each card the taker may call, its holder the partner (his own card: alone), in the bid's
  deals (``BidSimulation.values``); the expert calls as the habits do.
- The écart: the expert's candidate écarts (``bidding.ecart_candidates``) and the seat's, each played out in
  the same deals of the other hands (``bidding.ecart_totals``); with every hand known, on the true hands.
- An announcement, judged when it is made or when its chance passes (the seat's first card for a poignée or
  a misère; any move of the play for the taker's chelem): a misère pays 10 from every other seat, whatever
  happens; a poignée's prime and a chelem announced change the marque as the deal's end decides, valued
  over deals drawn from the seat's knowledge (``worlds.sampled_position``) played out by the habits. The
  expert announces as at the table: every misère, the largest poignée, never a chelem.
- A card: each legal card as the expert's card search values it (``ExpertTarotBot.card_search``: deals drawn
  from the seat's knowledge, each distinct card played out; a card dropped from the race is valued over the
  deals played until then, a low card the same as the equal one the search kept); with every hand known, the
  true deal played out by the habits after it (``omniscient.card_marques``). A card still in the race when the
  search stopped costs nothing: on the few deals of the table's budget the expert could not tell it from its
  own choice (the expert's own play, on other draws, would otherwise cost it some 300 points a game). A card the seat had to play is
  ``{"forced": true, "cost": 0.0}``, as is one whose legal cards all win and lose the same tricks.

There is no exact solver for 78 cards: "every hand known" is the omniscient yardstick's playout of the true
deal by the habits, not perfect play.

With ``revealed`` False (a daily game whose day is not over) nothing the seat did not see is in the review
before it was shown: its own hands only, no value with every hand known; the chien and the others' écarts
appear in a deal's ``result``, once the deal is over, as the table showed them (ruling 19).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from couyon.common.cardsets import cards_in
from couyon.common.kind import Options
from couyon.common.review import mark_costliest
from couyon.common.stream import Stream
from couyon.games.tarot.answers import winner_of
from couyon.games.tarot.bots.bidding import BidSimulation, best_index, ecart_candidates, ecart_totals
from couyon.games.tarot.bots.expert import ExpertTarotBot
from couyon.games.tarot.bots.habits import habit_call
from couyon.games.tarot.bots.knowledge import knowledge_of
from couyon.games.tarot.bots.omniscient import card_marques, ecart_marque
from couyon.games.tarot.bots.playout import Position, marque_of, playout
from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
from couyon.games.tarot.bots.rules import legal_mask
from couyon.games.tarot.bots.worlds import ViewFacts, sampled_position, true_position
from couyon.games.tarot.cards import CARD_CODES, CHIEN_SIZES, SEATS_OF, Seat, codes, mask_of
from couyon.games.tarot.game import (
    BIDS,
    CALL,
    CARD,
    CHELEM,
    ECART,
    MISERE_ATOUT,
    MISERE_TETE,
    PASS,
    POIGNEE,
    DealSummary,
    GameState,
    Move,
    new_game,
    play,
)
from couyon.games.tarot.record import deal_report
from couyon.games.tarot.scoring import CONTRACTS, Contract, poignee_prime
from couyon.games.tarot.view import TarotView, view

Json = dict[str, Any]

HUMAN = Seat.S


def _table_expert() -> ExpertTarotBot:
    bot = TAROT_BOTS_BY_ID[TAROT_TABLE_BOT_ID]
    assert isinstance(bot, ExpertTarotBot), "the tables seat an expert"
    return bot


REVIEWER = _table_expert()
"""The expert whose judgement the review shows: the table's."""
ANNOUNCEMENT_WORLDS = 16
"""Deals drawn from the seat's knowledge to value a poignée or a chelem announced."""
COSTLY_MIN = 5.0
"""The least expert cost, in points, of a decision marked costly."""
MISERES = (MISERE_ATOUT, MISERE_TETE)
NO_POIGNEE = "none"
"""The poignée option of showing none."""


def review_at(players: int) -> Callable[..., Json]:
    """The ``GameKind.review`` of a tarot table of ``players``: ``(seed, moves, revealed, options, bots, seat)``."""

    def review(seed: str, moves: Sequence[str], revealed: bool, options: Options, bots: str, seat: str = HUMAN) -> Json:
        return tarot_review(players, seed, moves, revealed, Seat(seat))

    return review


def tarot_review(players: int, seed: str, moves: Sequence[str], revealed: bool, seat: Seat = HUMAN) -> Json:
    """The review of the finished game ``seed`` + ``moves`` at ``players``, ``seat``'s decisions judged (see the
    module's text)."""
    state = new_game(seed, players)
    deals = [_shown_deal(summary, players) for summary in state.finished_deals]
    decisions: list[Json] = []
    for text in moves:
        move = Move.parse(text, players)
        deal = state.deal
        if not deals or deals[-1]["number"] != deal.number:
            deals.append(_deal_start(state, revealed, seat))
        entry = deals[-1]
        for passed in _chances_passed(state, move, seat, revealed):
            entry["announcements"].append(passed)
            decisions.append(passed["review"])
        judged = _judged(state, move, seat, revealed) if move.seat == seat else None
        if judged is not None:
            decisions.append(judged)
        _enter(entry, state, move, judged, revealed or move.seat == seat)
        after = play(state, move)
        ended = after.finished_deals[len(state.finished_deals) :]
        if move.action == CARD and len(deal.trick) + 1 == players:
            winner = ended[0].tricks[-1].winner if ended else SEATS_OF[players][after.deal.tricks[-1][2]]
            entry["tricks"][-1]["winner"] = str(winner)
        if ended:
            entry["result"] = deal_report(ended[0], players)
            deals.extend(_shown_deal(summary, players) for summary in ended[1:])
        state = after
    mark_costliest(decisions, COSTLY_MIN)
    winner = winner_of(state)
    return {
        "revealed": revealed,
        "expert": f"{REVIEWER.name}/{REVIEWER.version}",
        "players": players,
        "seats": [str(one) for one in state.seats],
        "seat": str(seat),
        "winner": None if winner is None else str(winner),
        "score": state.score_of(seat),
        "totals": {str(one): total for one, total in zip(state.seats, state.totals, strict=True)},
        "cost": round(sum(decision["cost"] for decision in decisions), 3),
        "deals": deals,
    }


def _deal_start(state: GameState, revealed: bool, seat: Seat) -> Json:
    deal = state.deal
    seats = state.seats
    shown = seats if revealed else (seat,)
    entry: Json = {
        "number": deal.number,
        "dealer": str(seats[deal.dealer]),
        "hands": {str(one): codes(cards_in(deal.dealt[seats.index(one)])) for one in shown},
        "bids": [],
        "ecart": None,
        "announcements": [],
        "tricks": [],
        "result": None,
    }
    if revealed:
        entry["chien"] = codes(cards_in(deal.chien))
    return entry


def _shown_deal(summary: DealSummary, players: int) -> Json:
    """A deal annulled before its first bid (a petit sec): its record entry, the Petit's lone hand shown."""
    return {
        "number": summary.number,
        "dealer": str(summary.dealer),
        "hands": {},
        "bids": [],
        "ecart": None,
        "announcements": [],
        "tricks": [],
        "result": deal_report(summary, players),
        "petit_sec": {str(seat): codes(cards) for seat, cards in summary.petit_sec},
    }


def _enter(entry: Json, state: GameState, move: Move, judged: Json | None, cards_seen: bool) -> None:
    """Put ``move`` (with ``judged``, its review) where it belongs in its deal's ``entry``."""
    action = move.action
    made: Json = {"seat": str(move.seat)}
    if judged is not None:
        made["review"] = judged
    if action in BIDS:
        entry["bids"].append({**made, "bid": action})
    elif action == CALL:
        entry["bids"].append({**made, "call": CARD_CODES[move.cards[0]]})
    elif action == ECART:
        entry["ecart"] = {**made, "cards": codes(sorted(move.cards))} if cards_seen else made
    elif action == CARD:
        if not state.deal.trick:
            entry["tricks"].append({"leader": str(move.seat), "cards": [], "winner": None})
        entry["tricks"][-1]["cards"].append({**made, "card": CARD_CODES[move.cards[0]]})
    else:
        shown = {"cards": codes(sorted(move.cards))} if action == POIGNEE else {}
        entry["announcements"].append({**made, "announcement": action, **shown})


def _judged(state: GameState, move: Move, seat: Seat, revealed: bool) -> Json | None:
    """The seat's decision ``move``: the expert's values of its choices, the true deal's when ``revealed``."""
    seat_view = view(state, seat)
    rng = Stream(state.seed, f"tarot-review:{state.move_count}")
    action = move.action
    if action in BIDS:
        return _bid(state, seat_view, action, rng, revealed)
    if action == CALL:
        return _call(state, seat_view, move.cards[0], rng, revealed)
    if action == ECART:
        return _ecart(state, seat_view, move, rng, revealed)
    if action == POIGNEE:
        return _poignee(state, seat_view, str(len(move.cards)), revealed)
    if action in MISERES:
        return _misere(state.players, True)
    if action == CHELEM:
        return _chelem(state, seat_view, True, revealed)
    if action == CARD:
        return _card(state, seat_view, move.cards[0], rng, revealed)
    return None


def _chances_passed(state: GameState, move: Move, seat: Seat, revealed: bool) -> list[Json]:
    """The announcements the seat lets pass with ``move``: a chelem the taker did not announce before the play's
    first move; a poignée or a misère not made before the seat's first card. Each as an ``announcements`` entry."""
    deal = state.deal
    seats = state.seats
    passed: list[Json] = []
    taker = None if deal.taker is None else seats[deal.taker]
    if deal.chelem_open and taker == seat and not (move.seat == seat and move.action == CHELEM):
        judged = _chelem(state, view(state, seat), False, revealed)
        passed.append({"seat": str(seat), "announcement": f"no-{CHELEM}", "review": judged})
    if move.seat != seat or move.action != CARD:
        return passed
    seat_view = view(state, seat)
    offered = {option.action for option in seat_view.legal_moves}
    if POIGNEE in offered:
        judged = _poignee(state, seat_view, NO_POIGNEE, revealed)
        passed.append({"seat": str(seat), "announcement": f"no-{POIGNEE}", "review": judged})
    for misere in MISERES:
        if misere in offered:
            passed.append({"seat": str(seat), "announcement": f"no-{misere}", "review": _misere(state.players, False)})
    return passed


# --- what a point of marque is worth to the seat


def _share(seat_view: TarotView) -> int:
    """The seat's score points per point of its camp's marque, as it knows them: n − 1 for a lone taker, 2 for a
    taker with a partner (at five, while the called card's holder is unknown, a partner is assumed), else 1."""
    if seat_view.taker != seat_view.seat:
        return 1
    if seat_view.players == 5 and not (seat_view.partner_known and seat_view.partner is None):
        return 2
    return seat_view.players - 1


def _true_share(state: GameState, seat: Seat) -> int:
    """The seat's score points per point of its camp's marque in the true deal."""
    deal = state.deal
    if deal.taker != state.seats.index(seat):
        return 1
    return 2 if deal.partner is not None else state.players - 1


# --- each kind of decision


def _judgement(
    key: str,
    order: Sequence[str],
    expert: dict[str, float],
    choice: str,
    chosen: str,
    exact: dict[str, float] | None,
    undecided: bool = False,
) -> Json:
    """A decision among the options ``order`` (``key`` names them): each one's values, the expert's choice, the
    costs (none when ``undecided``: the expert could not tell the seat's choice from its own). ``expert`` and
    ``exact`` are in the seat's points."""
    judged: Json = {
        "forced": False,
        "choice": chosen,
        "expert_choice": choice,
        "cost": 0.0 if undecided else round(max(0.0, expert[choice] - expert[chosen]), 3),
    }
    if exact is not None:
        judged["dd_cost"] = round(max(exact.values()) - exact[chosen], 3)
    options: list[Json] = []
    for option in order:
        values: Json = {key: option, "expert": round(expert[option], 3)}
        if exact is not None:
            values["dd"] = round(exact[option], 3)
        options.append(values)
    judged["options"] = options
    return judged


def _bid(state: GameState, seat_view: TarotView, chosen: str, rng: Stream, revealed: bool) -> Json:
    allowed = [Contract(move.action) for move in seat_view.legal_moves if move.action != PASS]
    if not allowed:
        return {"forced": True, "cost": 0.0}
    values = REVIEWER.bid_values(seat_view, rng, allowed)
    margins = REVIEWER.margins[state.players]
    expert = {PASS: 0.0, **{str(c): values[c] - margins[c.strength] for c in allowed}}
    best = None if REVIEWER.too_weak(seat_view, allowed) else REVIEWER.bid_choice(state.players, values)
    exact = None
    if revealed:
        deal = state.deal
        me = state.seats.index(seat_view.seat)
        known = BidSimulation.known(state.players, me, list(deal.hands), deal.chien).values(allowed)
        exact = {PASS: 0.0, **{str(contract): value for contract, value in known.items()}}
    order = [PASS, *(str(contract) for contract in CONTRACTS if contract in allowed)]
    return _judgement("bid", order, expert, PASS if best is None else str(best), chosen, exact)


def _call(state: GameState, seat_view: TarotView, chosen: int, rng: Stream, revealed: bool) -> Json:
    """The card a taker calls at five: each callable card as the bid's deals played out with its holder as the
    partner (the seat's own card: alone); the expert calls as the habits do."""
    assert seat_view.contract is not None
    contract = seat_view.contract
    me = state.seats.index(seat_view.seat)
    hand = mask_of(seat_view.hand)
    callable_cards = [move.cards[0] for move in seat_view.legal_moves]
    bids = [(state.seats.index(bidder), bid) for bidder, bid in seat_view.bids]
    simulation = BidSimulation(state.players, me, hand, bids, rng, REVIEWER.bid_worlds)
    names = [CARD_CODES[card] for card in callable_cards]
    expert = {
        name: simulation.values([contract], card)[contract] for name, card in zip(names, callable_cards, strict=True)
    }
    exact = None
    if revealed:
        deal = state.deal
        known = BidSimulation.known(state.players, me, list(deal.dealt), deal.chien)
        exact = {
            name: known.values([contract], card)[contract] for name, card in zip(names, callable_cards, strict=True)
        }
    choice = CARD_CODES[habit_call(hand, callable_cards)]
    return _judgement("call", names, expert, choice, CARD_CODES[chosen], exact)


def _ecart(state: GameState, seat_view: TarotView, move: Move, rng: Stream, revealed: bool) -> Json:
    assert seat_view.contract is not None
    players = state.players
    full = mask_of(seat_view.hand)
    called = seat_view.called
    partner_card = called if called is not None and not full >> called & 1 else None
    candidates = ecart_candidates(full, CHIEN_SIZES[players])
    chosen = tuple(sorted(move.cards))
    ecarts = candidates if chosen in candidates else [*candidates, chosen]
    me = state.seats.index(seat_view.seat)
    worlds = REVIEWER.ecart_worlds
    totals = ecart_totals(players, me, full, seat_view.contract, partner_card, rng, worlds, ecarts)
    share = _share(seat_view)
    names = [",".join(codes(cards)) for cards in ecarts]
    expert = {name: share * total / worlds for name, total in zip(names, totals, strict=True)}
    exact = None
    if revealed:
        true_share = _true_share(state, seat_view.seat)
        exact = {
            name: float(true_share * ecart_marque(state, cards)) for name, cards in zip(names, ecarts, strict=True)
        }
    choice = names[best_index(totals[: len(candidates)])]
    return _judgement("ecart", names, expert, choice, ",".join(codes(chosen)), exact)


def _worlds(seat_view: TarotView, label: str, state: GameState) -> list[Position]:
    """Deals of the hidden cards drawn from the seat's knowledge, for valuing an announcement."""
    facts = ViewFacts(seat_view, knowledge_of(seat_view))
    rng = Stream(state.seed, f"tarot-review:{label}:{state.move_count}")
    return [sampled_position(facts, rng, REVIEWER.evidence_candidates) for _ in range(ANNOUNCEMENT_WORLDS)]


def _announced_values(
    positions: list[Position], seat: int, share: int, options: dict[str, tuple[int, bool]]
) -> dict[str, float]:
    """Each option (extra primes, chelem announced) as the seat's mean points over ``positions`` played out."""
    totals = dict.fromkeys(options, 0.0)
    for position in positions:
        outcome = playout(position)
        sign = share if position.attack[seat] else -share
        for name, (primes, chelem) in options.items():
            totals[name] += sign * marque_of(position.contract, outcome, position.primes + primes, chelem)
    return {name: total / len(positions) for name, total in totals.items()}


def _poignee(state: GameState, seat_view: TarotView, chosen: str, revealed: bool) -> Json:
    """Which poignée to show, if any: none, or each size the seat may show (its prime counts for the deal's winner)."""
    players = state.players
    sizes = sorted({len(move.cards) for move in seat_view.legal_moves if move.action == POIGNEE})
    order = [NO_POIGNEE, *(str(size) for size in sizes)]
    options = {NO_POIGNEE: (0, False), **{str(size): (poignee_prime(players, size) or 0, False) for size in sizes}}
    me = state.seats.index(seat_view.seat)
    expert = _announced_values(_worlds(seat_view, POIGNEE, state), me, _share(seat_view), options)
    exact = None
    if revealed:
        exact = _announced_values([true_position(state)], me, _true_share(state, seat_view.seat), options)
    return _judgement(POIGNEE, order, expert, order[-1], chosen, exact)


def _chelem(state: GameState, seat_view: TarotView, announced: bool, revealed: bool) -> Json:
    """Whether to announce a chelem: +400 won, −200 lost, against +200 won unannounced (ruling 15)."""
    options = {"no": (0, False), "yes": (0, True)}
    me = state.seats.index(seat_view.seat)
    expert = _announced_values(_worlds(seat_view, CHELEM, state), me, _share(seat_view), options)
    exact = None
    if revealed:
        exact = _announced_values([true_position(state)], me, _true_share(state, seat_view.seat), options)
    return _judgement(CHELEM, ["no", "yes"], expert, "no", "yes" if announced else "no", exact)


def _misere(players: int, announced: bool) -> Json:
    """A misère pays its announcer 10 from every other seat, whatever the deal (ruling 11): no draw needed."""
    values = {"no": 0.0, "yes": 10.0 * (players - 1)}
    return _judgement("misere", ["no", "yes"], values, "yes", "yes" if announced else "no", values)


def _card(state: GameState, seat_view: TarotView, card: int, rng: Stream, revealed: bool) -> Json:
    legal = legal_mask(seat_view)
    if not legal & (legal - 1):
        return {"forced": True, "cost": 0.0}
    search = REVIEWER.card_search(seat_view, legal, rng)
    if len(search.candidates) == 1:
        return {"forced": True, "cost": 0.0}  # every legal card wins and loses the same tricks
    means = search.means()
    share = _share(seat_view)
    expert: dict[str, float] = {}
    kept = -1
    undecided = False
    for option in cards_in(legal):
        if option in means:
            kept = option
        expert[CARD_CODES[option]] = share * means[kept]
        undecided = undecided or (option == card and kept in search.active)
    choice = REVIEWER.card_choice(seat_view, search)
    exact = None
    if revealed:
        true_share = _true_share(state, seat_view.seat)
        exact = {
            CARD_CODES[one]: float(true_share * value) for one, value in card_marques(state, cards_in(legal)).items()
        }
    return _judgement("card", list(expert), expert, CARD_CODES[choice], CARD_CODES[card], exact, undecided)
