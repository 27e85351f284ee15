"""Coucou bot levels: each level's loss rate per coup by position, one seat of that level among Expert bots.

Usage: ``python benchmarks/coucou_levels.py [--variant coucou|as-qui-court] [--tables 6 8 12] [--deals N]
[--prefix P] [--games G]`` (not run by pytest).

``--variant as-qui-court`` measures as qui court (rulings 20–24) with its version-2 bots: the deal of
``new_game(…, variant=AS_QUI_COURT)``, the dealer's move included (every level changes a handed ace, so it
is no difference between levels; the dealer's row is his loss). ``--games G`` adds the whole-game table:
G games per table size (seeds ``f"{P}:game:{size}:{i}"``, 3 tokens), seat 1 of each level among Expert
bots, the same seeds for every level: win rate, mean place, mean score (ruling 16), and the paired
difference of score between Expert and Normal at seat 1 with its 95% interval.

For every table size and every deal (coup 1 of ``new_game(f"{P}:{size}:{i}", size, 3)``,
so all ``size`` players are in), the coup is played by Expert bots through the engine and
the views; then, for every deciding position p (first to speak … the dealer's left) and
every other level, the seat at p plays that level instead, the others staying Expert.
This is a paired (duplicate) design: every level meets the same deals at the same
positions, so the differences between levels are measured on the same cards. A level
that makes the Expert's decision gets the Expert's outcome without replaying; otherwise
the coup is replayed from p on (the later Expert seats react to what they see).

"Loss" is losing a token in the coup. Printed: the loss rate of each level at each
position with its 95% interval (normal approximation, deals independent), the dealer's
(no decision), the mean over the deciding positions, and the paired differences per
decision (normal − expert, easy − normal, easy − expert) with 95% intervals computed
over deals (each deal's mean difference over its positions).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import subprocess
import sys
import time
from pathlib import Path

from couyon.games.coucou.bots import AQC_BOTS, BOTS, CoucouBot, bot_rng
from couyon.games.coucou.entry import CoucouEngine
from couyon.games.coucou.game import COUCOU, GameState, Move, Variant, new_game, play
from couyon.games.coucou.view import view

LEVELS = ("easy", "normal", "expert")
Z95 = 1.959964
VARIANT = {"variant": COUCOU}
"""The variant measured (``--variant``): coucou's bots are version 1, as qui court's version 2."""


def bot_of(level: str) -> CoucouBot:
    if VARIANT["variant"] is COUCOU:
        return BOTS[f"{level}/1"]
    return AQC_BOTS[f"{level}/2"]


def finish_coup(state: GameState, expert: CoucouBot) -> GameState:
    """Play the coup in progress to its showdown with Expert at every seat still to speak."""
    number = state.coup.number
    while state.winner is None and state.coup.number == number:
        state = play(state, choice(state, expert))
    return state


def choice(state: GameState, bot: CoucouBot) -> Move:
    seat = state.to_move
    assert seat is not None
    return bot.choose(view(state, seat), bot_rng(state.seed, state.coup.number, seat))


def deal_losses(seed: str, size: int) -> dict[str, list[int]]:
    """For one deal: by level, the loss (0/1) of the seat at each position 0 … m − 1 (the last is the dealer)."""
    expert = bot_of("expert")
    state = new_game(seed, size, 3, VARIANT["variant"])
    order = state.coup.order
    before_move: list[GameState] = []
    expert_moves: list[Move] = []
    while state.coup.number == 1 and state.winner is None:
        before_move.append(state)
        move = choice(state, expert)
        expert_moves.append(move)
        state = play(state, move)
    losers = set(state.finished[0].losers or ())
    expert_losses = [int(seat in losers) for seat in order]
    losses = {"expert": expert_losses}
    for level in LEVELS[:-1]:
        bot = bot_of(level)
        row = list(expert_losses)
        for position, at in enumerate(before_move):
            move = choice(at, bot)
            if move != expert_moves[position]:
                end = finish_coup(play(at, move), expert)
                row[position] = int(order[position] in (end.finished[0].losers or ()))
        losses[level] = row
    return losses


def variance(values: list[float]) -> float:
    """The sample variance."""
    count = len(values)
    mean = sum(values) / count
    return sum((value - mean) ** 2 for value in values) / (count - 1) if count > 1 else 0.0


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    return sum(values) / len(values), Z95 * math.sqrt(variance(values) / len(values))


def percent(mean: float, half: float) -> str:
    return f"{100 * mean:.2f} ± {100 * half:.2f}"


def points(mean: float, half: float) -> str:
    low, high = 100 * (mean - half), 100 * (mean + half)
    return f"{100 * mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def measure(size: int, deals: int, prefix: str) -> list[str]:
    rows: dict[str, list[list[int]]] = {level: [] for level in LEVELS}
    started = time.process_time()
    for number in range(deals):
        losses = deal_losses(f"{prefix}:{size}:{number}", size)
        for level in LEVELS:
            rows[level].append(losses[level])
    elapsed = time.process_time() - started
    deck = 32 if size <= 6 else 52
    lines = [
        f"#### {size} players ({deck} cards), {deals:,} deals, {deals * (size - 1):,} decisions per level "
        f"({elapsed:.0f} s of CPU)",
        "",
        "| position | easy | normal | expert |",
        "|---|---|---|---|",
    ]
    for position in range(size):
        name = {0: "1 (first to speak)", size - 2: f"{size - 1} (dealer's left)", size - 1: "dealer"}.get(
            position, str(position + 1)
        )
        cells = [percent(*interval([float(row[position]) for row in rows[level]])) for level in LEVELS]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    deciding = size - 1
    means = {level: [sum(row[:deciding]) / deciding for row in rows[level]] for level in LEVELS}
    lines.append(
        "| mean of those who decide | " + " | ".join(percent(*interval(means[level])) for level in LEVELS) + " |"
    )
    lines.append("")
    lines.append("Paired differences per decision, points of loss (95% interval):")
    lines.append("")
    for worse, better in (("normal", "expert"), ("easy", "normal"), ("easy", "expert")):
        differences = [a - b for a, b in zip(means[worse], means[better], strict=True)]
        # What the same number of deals would give unpaired (independent samples), for comparison.
        unpaired = Z95 * math.sqrt((variance(means[worse]) + variance(means[better])) / deals)
        lines.append(f"- {worse} − {better}: {points(*interval(differences))} (unpaired: ± {100 * unpaired:.2f})")
    lines.append("")
    return lines


def whole_games(size: int, games: int, prefix: str) -> list[str]:
    """Seat 1 of each level among Expert bots, whole games of 3 tokens: win rate, mean place, mean score."""
    engine = CoucouEngine(VARIANT["variant"])
    expert = bot_of("expert")
    scores: dict[str, list[float]] = {level: [] for level in LEVELS}
    places: dict[str, list[float]] = {level: [] for level in LEVELS}
    coups: list[int] = []
    started = time.process_time()
    for number in range(games):
        seed = f"{prefix}:game:{size}:{number}"
        for level in LEVELS:
            own = bot_of(level)
            state = new_game(seed, size, 3, VARIANT["variant"])
            while state.winner is None:
                state = play(state, engine.bot_move(state, own if state.to_move == 1 else expert))
            assert state.score is not None
            scores[level].append(float(state.score))
            places[level].append(float(state.place_of(1) or 0))
            if level == "expert":
                coups.append(state.coup.number)
    elapsed = time.process_time() - started
    lines = [
        f"#### whole games, {size} players, 3 tokens, {games:,} games per level (mean {sum(coups) / games:.0f} coups; "
        f"{elapsed:.0f} s of CPU)",
        "",
        "| seat 1 plays | win rate | mean place | mean score |",
        "|---|---|---|---|",
    ]
    for level in LEVELS:
        wins = [float(place == 1) for place in places[level]]
        win, half = interval(wins)
        place, place_half = interval(places[level])
        score, score_half = interval(scores[level])
        lines.append(
            f"| {level} | {percent(win, half)}% | {place:.2f} ± {place_half:.2f} | {score:.0f} ± {score_half:.0f} |"
        )
    lines.append("")
    for worse, better in (("normal", "expert"), ("easy", "normal")):
        differences = [b - a for a, b in zip(scores[worse], scores[better], strict=True)]
        mean, half = interval(differences)
        lines.append(
            f"- score, {better} − {worse} (paired by seed): {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]"
        )
    lines.append("")
    return lines


def describe_run(argv: list[str]) -> list[str]:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        commit = "unknown"
    command = " ".join([".venv/bin/python benchmarks/coucou_levels.py", *argv])
    return [f"`{command}` — {dt.date.today().isoformat()}, commit {commit or 'unknown'}", ""]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[6, 8, 12])
    parser.add_argument("--deals", type=int, default=50_000, help="deals per table size (default 50,000)")
    parser.add_argument("--prefix", default="levels", help="seed prefix of the deals")
    parser.add_argument("--variant", choices=[str(variant) for variant in Variant], default=str(COUCOU))
    parser.add_argument("--games", type=int, default=0, help="whole games per table size and level (default none)")
    parser.add_argument("--game-tables", type=int, nargs="+", default=[5, 8, 12, 20])
    args = parser.parse_args(argv)
    VARIANT["variant"] = Variant(args.variant)
    output = describe_run(argv)
    for size in args.tables if args.deals else ():
        output.extend(measure(size, args.deals, args.prefix))
        print("\n".join(output), flush=True)
        output = []
    for size in args.game_tables if args.games else ():
        output.extend(whole_games(size, args.games, args.prefix))
        print("\n".join(output), flush=True)
        output = []
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
