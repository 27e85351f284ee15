"""Self-play measurements that set the expert's bid margins (``bidding.BID_MARGINS``); not run by the tests.

``python -m couyon.games.tarot.bots.tune sample PLAYERS DEALS [--seed S] [--workers K] > samples.json``
takes the first deal of the games ``S:0`` … and, for the first seat to speak, notes what
the expert's bid simulation predicts for each contract, then plays the deal once per
contract that way (that seat bids it, the others pass; experts in every seat: self-play)
and notes the taker's actual score (S times his share, misères aside; petite is read off
the garde deal, whose play is the same, with the multiplier 1).

``python -m couyon.games.tarot.bots.tune fit samples.json`` chooses the four margins that would
have scored best on those deals: the seat takes the contract whose prediction beats its
margin by most, or passes (0), and the margins are searched contract by contract on a grid
until none improves.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections.abc import Sequence
from typing import Any

from couyon.games.tarot.bots import bot_rng
from couyon.games.tarot.bots.expert import ExpertTarotBot
from couyon.games.tarot.bots.habits import hand_count
from couyon.games.tarot.cards import SEATS_OF
from couyon.games.tarot.game import Move, new_game, play, to_move
from couyon.games.tarot.scoring import CONTRACTS, Contract
from couyon.games.tarot.view import view

PLAYED = (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
HOPELESS = -150.0
"""A contract predicted below this is not played out: no margin of the grid would take it."""


def sample(task: tuple[str, int]) -> dict[str, Any]:
    """One deal: the first speaker's predictions and actual scores for each contract."""
    seed, players = task
    bot = ExpertTarotBot()
    start = new_game(seed, players)
    seats = SEATS_OF[players]
    # The seat with the best count: its decisions are the ones near a margin.
    first = max(seats, key=lambda seat: hand_count(start.deal.hands[seats.index(seat)], players))
    seat_view = view(start, first)
    predicted = bot.bid_values(seat_view, bot_rng(seed, first, start.move_count), list(CONTRACTS))
    actual: dict[str, float] = {}
    finished = len(start.finished_deals)
    for contract in PLAYED:
        if predicted[contract] < HOPELESS:
            continue
        state = start
        while len(state.finished_deals) == finished:
            seat = to_move(state)
            assert seat is not None
            if state.deal.taker is None:
                move = Move(seat, contract.value if seat == first else "pass")
            else:
                move = bot.choose(view(state, seat), bot_rng(seed, seat, state.move_count))
            state = play(state, move)
        result = state.finished_deals[finished].result
        summary = state.finished_deals[finished]
        assert result is not None
        share = players - 1 if summary.partner is None else 2
        marque = result.marque
        actual[contract.value] = share * marque.marque
        if contract is Contract.GARDE:
            petite = (
                marque.contract_points // 2
                + marque.petit_au_bout_points // 2
                + marque.poignee_points
                + marque.chelem_points
            )
            actual[Contract.PETITE.value] = share * petite
    return {
        "seed": seed,
        "players": players,
        "predicted": {contract.value: predicted[contract] for contract in CONTRACTS},
        "actual": actual,
    }


def policy_value(samples: Sequence[dict[str, Any]], margins: Sequence[float]) -> float:
    """The mean actual score of the first speaker bidding with these margins (passing scores 0)."""
    total = 0.0
    for item in samples:
        best = None
        best_edge = 0.0
        for contract in CONTRACTS:
            edge = item["predicted"][contract.value] - margins[contract.strength]
            if edge > best_edge:
                best, best_edge = contract, edge
        if best is not None:
            # Predicted above HOPELESS, so it was played; were it not, the prediction stands in.
            total += item["actual"].get(best.value, item["predicted"][best.value])
    return total / len(samples)


GRID = tuple(float(value) for value in range(-60, 401, 10))
"""Margins tried: never below ``HOPELESS``."""


def fit(samples: Sequence[dict[str, Any]]) -> tuple[list[float], float]:
    """Margins searched contract by contract on ``GRID`` until none improves the policy's value."""
    margins = [0.0, 0.0, 0.0, 0.0]
    value = policy_value(samples, margins)
    improved = True
    while improved:
        improved = False
        for strength in range(4):
            for candidate in GRID:
                trial = list(margins)
                trial[strength] = candidate
                trial_value = policy_value(samples, trial)
                if trial_value > value + 1e-9:
                    margins, value, improved = trial, trial_value, True
    return margins, value


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    sampling = commands.add_parser("sample")
    sampling.add_argument("players", type=int)
    sampling.add_argument("deals", type=int)
    sampling.add_argument("--seed", default="tune")
    sampling.add_argument("--workers", type=int, default=1)
    fitting = commands.add_parser("fit")
    fitting.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "sample":
        tasks = [(f"{args.seed}:{args.players}:{index}", args.players) for index in range(args.deals)]
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for item in pool.imap(sample, tasks):
                print(json.dumps(item), flush=True)
        return 0
    with open(args.file, encoding="utf-8") as file:
        samples = [json.loads(line) for line in file if line.strip()]
    margins, value = fit(samples)
    print(
        json.dumps(
            {
                "samples": len(samples),
                "margins": margins,
                "value": round(value, 3),
                "value_at_zero": round(policy_value(samples, [0.0] * 4), 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
