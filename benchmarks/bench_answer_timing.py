"""Does the time of an answer tell what the bots hold? Three signals, with the answer floor off and on (not run by pytest).

Usage: ``.venv/bin/python benchmarks/bench_answer_timing.py [--answers 200] [--players 3] [--floor-ms 80]``.

Starts two ``couyon serve`` on loopback, each with its own temporary SQLite folder: one with
``COUYON_ANSWER_FLOOR_MS=0`` (the bots' answers leave as soon as they are ready) and one with the
floor on (``--floor-ms`` for every game, else each game's own ``decision_floor_ms``). The same players play on both at
the same time, so both see the same load. Each player repeats three kinds of work on each server:

- tarot bids: a new tarot4 or tarot5 free game, then South's one bid (a random legal one): the
  answers that hold the bots' bids;
- tarot cards: one long tarot4 game played with random legal moves (South always passes, so the
  bots take): the answers that hold the bots' cards;
- Malmedy first cards: a new Malmedy free game played until South's first card is answered: the
  answers that hold the bots' first cards.

The measurer, not a player, then reads each game's seed and moves from the server's database,
folds them, and classifies every answer by what the bots it holds had hidden, with the bots' own
rules:

- **bid**: some bot of the answer simulated its bid (``expert/3``'s ``hand_count`` at or above
  ``TABLE_PASS_BELOW``) or none did (every bid answered at once);
- **card**: some bot of the answer had one distinct legal card (``distinct_candidates``; it answers
  at once), or every bot had several (answers holding a bid, an écart, an announcement or a last
  trick's card, which everyone knows to be the only one, are left out);
- **queen**: some bot playing its first card of the deal in the answer held the queen of spades,
  or none did.

For each signal and server it prints the two classes' sizes and median times, and the probability
that a random answer of the first class is slower than one of the second (Mann-Whitney's AUC,
ties counted half; 0.5 is no signal): ``same n`` pairs only answers holding the same number of bot
moves in the same game and route (that number is public: every bot move is in the answer), ``all``
pairs every answer. The time is from sending the request to reading the whole answer. Rounds of
play go on until every class of every signal has ``--answers`` answers on both servers, or
``--seconds`` have passed. Also printed: the load average before and after, and the floor-on
server's logged overruns (answers whose work outlasted their floor).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from couyon.games.malmedy.game import HAND_SIZE, QUEEN_OF_SPADES
from couyon.games.tarot.bots.expert import ExpertTarotBot, distinct_candidates
from couyon.games.tarot.bots.knowledge import knowledge_of
from couyon.games.tarot.bots.rules import legal_mask
from couyon.games.tarot.game import CARD, PASS, Phase
from couyon.games.tarot.scoring import Contract
from couyon.games.tarot.view import view as tarot_view
from couyon.loadgen import ServerProcess
from couyon.registry import GameKind, game_named
from couyon.store import Store, sqlite_url

SIGNALS = {
    "bid": ("a bot simulated its bid", "every bid at once"),
    "card": ("a bot had one distinct card", "every bot had several"),
    "queen": ("a first card by the queen of spades' holder", "no queen of spades"),
}
CARD_MOVES_PER_TURN = 6


@dataclass(frozen=True, slots=True)
class Timed:
    """One answer: which game, which of its stored moves it added, how long it took."""

    server: str
    game: str
    game_id: str
    route: str
    start: int
    end: int
    seconds: float


@dataclass
class Server:
    name: str
    process: ServerProcess
    answers: list[Timed] = field(default_factory=list)


THINK = [0.0]
"""Seconds a player waits before each request (``--think``)."""


async def _request(client: httpx.AsyncClient, method: str, path: str, body: Any) -> tuple[dict[str, Any], float]:
    await asyncio.sleep(THINK[0])
    start = time.perf_counter()
    response = await client.request(method, path, json=body)
    seconds = time.perf_counter() - start
    if response.status_code not in (200, 201):
        raise RuntimeError(f"{method} {path} answered {response.status_code}: {response.text[:200]}")
    answer: dict[str, Any] = response.json()
    return answer, seconds


async def _create(client: httpx.AsyncClient, server: Server, game: str) -> dict[str, Any]:
    answer, seconds = await _request(client, "POST", "/api/games", {"mode": "free", "game": game})
    server.answers.append(Timed(server.name, game, answer["id"], "create", 0, answer["view"]["move_number"], seconds))
    return answer


async def _move(client: httpx.AsyncClient, server: Server, answer: dict[str, Any], move: str) -> dict[str, Any]:
    before = answer["view"]["move_number"]
    body = {"move": move, "move_number": before}
    after, seconds = await _request(client, "POST", f"/api/games/{answer['id']}/moves", body)
    server.answers.append(
        Timed(server.name, answer["game"], answer["id"], "move", before, after["view"]["move_number"], seconds)
    )
    return after


class Player:
    """One player on one server: its own cookie, its ongoing tarot4 card game, its own random choices."""

    def __init__(self, server: Server, seed: int) -> None:
        self.server = server
        self.client = httpx.AsyncClient(base_url=server.process.url, timeout=60)
        self.rng = random.Random(seed)
        self.card_game: dict[str, Any] | None = None

    async def bids(self, game: str) -> None:
        answer = await _create(self.client, self.server, game)
        if answer["view"]["legal"]:
            await _move(self.client, self.server, answer, self.rng.choice(answer["view"]["legal"]))

    async def first_cards(self) -> None:
        answer = await _create(self.client, self.server, "malmedy")
        for _ in range(4):
            legal = answer["view"]["legal"]
            if not legal:
                return
            move = self.rng.choice(legal)
            hand = answer["view"].get("hand", [])
            answer = await _move(self.client, self.server, answer, move)
            if move in hand:
                return

    async def cards(self) -> None:
        for _ in range(CARD_MOVES_PER_TURN):
            if self.card_game is None or not self.card_game["view"]["legal"]:
                self.card_game = await _create(self.client, self.server, "tarot4")
                continue
            legal = self.card_game["view"]["legal"]
            move = PASS if PASS in legal else self.rng.choice(legal)
            self.card_game = await _move(self.client, self.server, self.card_game, move)

    async def turn(self, wanted: set[str]) -> None:
        if "bid" in wanted:
            await self.bids("tarot4")
            await self.bids("tarot5")
        if "queen" in wanted:
            await self.first_cards()
        if "card" in wanted:
            await self.cards()


def _stored(data_dir: Path, game_ids: set[str]) -> dict[str, tuple[Any, list[str]]]:
    store = Store(sqlite_url(data_dir))
    try:
        games = {}
        for game_id in game_ids:
            loaded = store.game(game_id)
            assert loaded is not None, game_id
            games[game_id] = loaded
        return games
    finally:
        store.close()


def _states(kind: GameKind, game: Any, moves: list[str]) -> list[Any]:
    """The state before each stored move."""
    options = json.loads(game.options) if game.options else {}
    state = kind.engine.new_game(game.seed, options)
    states = []
    for text in moves:
        states.append(state)
        state = kind.engine.play(state, kind.engine.parse_move(text, options))
    return states


def _tarot_decision(bot: ExpertTarotBot, state: Any, seat: Any) -> tuple[str, bool] | None:
    """A tarot bot decision's signal and class: ("bid", simulated) or ("card", one distinct card), or None."""
    seat_view = tarot_view(state, seat)
    if seat_view.phase is Phase.BIDDING:
        allowed = [Contract(move.action) for move in seat_view.legal_moves if move.action != PASS]
        return "bid", bool(allowed) and not bot._too_weak(seat_view, allowed)
    if (
        seat_view.phase is Phase.PLAYING
        and len(seat_view.hand) > 1
        and all(move.action == CARD for move in seat_view.legal_moves)
    ):
        legal = legal_mask(seat_view)
        single = not legal & (legal - 1) or len(distinct_candidates(legal, knowledge_of(seat_view))) == 1
        return "card", single
    return None


def classify(data_dir: Path, answers: list[Timed]) -> dict[str, list[tuple[tuple[str, str, int], bool, float]]]:
    """For each signal: (stratum, class, seconds) of every answer that holds the signal's bot decisions."""
    stored = _stored(data_dir, {answer.game_id for answer in answers})
    before: dict[str, list[Any]] = {}
    classified: dict[str, list[tuple[tuple[str, str, int], bool, float]]] = defaultdict(list)
    for answer in answers:
        game, moves = stored[answer.game_id]
        kind = game_named(game.game)
        if answer.game_id not in before or len(before[answer.game_id]) < answer.end:
            before[answer.game_id] = _states(kind, game, moves)
        states = before[answer.game_id]
        bot = kind.bot(game.bot_id)
        found: dict[str, list[bool]] = defaultdict(list)
        other = False
        bot_moves = 0
        for index in range(answer.start, answer.end):
            state = states[index]
            seat = kind.engine.to_move(state)
            if seat == kind.human:
                continue
            bot_moves += 1
            if kind.id == "malmedy":
                hand = state.deal.hands[seat]
                if state.deal.trump is not None and state.deal.asking is None and hand.bit_count() == HAND_SIZE:
                    found["queen"].append(bool(hand >> QUEEN_OF_SPADES & 1))
                continue
            decision = _tarot_decision(bot, state, seat)
            if decision is None:
                other = True
            else:
                found[decision[0]].append(decision[1])
        stratum = (answer.game, answer.route, bot_moves)
        if found["bid"]:
            classified["bid"].append((stratum, any(found["bid"]), answer.seconds))
        if found["card"] and not found["bid"] and not other:
            classified["card"].append((stratum, any(found["card"]), answer.seconds))
        if found["queen"]:
            classified["queen"].append((stratum, any(found["queen"]), answer.seconds))
    return classified


def _wins(first: list[float], second: list[float]) -> tuple[float, int]:
    """How many (first, second) pairs have the first slower (ties half), and how many pairs there are."""
    ordered = sorted(second)
    wins = 0.0
    for value in first:
        below = bisect_left(ordered, value)
        equal = bisect_right(ordered, value) - below
        wins += below + equal / 2
    return wins, len(first) * len(second)


def auc(rows: list[tuple[tuple[str, str, int], bool, float]], by_stratum: bool) -> float | None:
    groups: dict[Any, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for stratum, positive, seconds in rows:
        groups[stratum if by_stratum else None][0 if positive else 1].append(seconds)
    wins = pairs = 0.0
    for first, second in groups.values():
        won, counted = _wins(first, second)
        wins, pairs = wins + won, pairs + counted
    return wins / pairs if pairs else None


def _counts(classified: dict[str, list[tuple[tuple[str, str, int], bool, float]]]) -> dict[str, tuple[int, int]]:
    return {
        signal: (
            sum(1 for _, positive, _ in classified.get(signal, []) if positive),
            sum(1 for _, positive, _ in classified.get(signal, []) if not positive),
        )
        for signal in SIGNALS
    }


def _overruns(log: Path) -> int:
    return sum(1 for line in log.read_text(errors="replace").splitlines() if "answer floor overrun" in line)


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f}" if values else "      -"


async def _round(players: list[Player], wanted: set[str], seconds: float) -> None:
    deadline = time.monotonic() + seconds

    async def run(player: Player) -> None:
        while time.monotonic() < deadline:
            await player.turn(wanted)

    await asyncio.gather(*(run(player) for player in players))


async def main_async(args: argparse.Namespace) -> int:
    root = Path(tempfile.mkdtemp(prefix="couyon-timing-"))
    THINK[0] = args.think
    # None: the setting unset, each game's own floor per decision (GameKind.decision_floor_ms).
    floors: list[int | None] = args.floor_ms or [None]
    common = {"COUYON_MAX_REQUESTS_PER_ADDRESS": "0", "COUYON_RETENTION_DAYS": "0", "COUYON_LOG_LEVEL": "warning"}
    servers = [
        Server("off", ServerProcess(root / "off", environment={**common, "COUYON_ANSWER_FLOOR_MS": "0"})),
        *(
            Server(
                "own" if floor is None else f"{floor}ms",
                ServerProcess(
                    root / ("own" if floor is None else f"{floor}ms"),
                    environment={**common, "COUYON_ANSWER_FLOOR_MS": "" if floor is None else str(floor)},
                ),
            )
            for floor in floors
        ),
    ]
    load_before = os.getloadavg()
    for server in servers:
        server.process.start()
    players = [Player(server, seed) for seed in range(args.players) for server in servers]
    started = time.monotonic()
    wanted = set(SIGNALS)
    counts: dict[str, dict[str, tuple[int, int]]] = {}
    classified: dict[str, dict[str, list[tuple[tuple[str, str, int], bool, float]]]] = {}
    try:
        while wanted and time.monotonic() - started < args.seconds:
            await _round(players, wanted, min(args.round_seconds, args.seconds - (time.monotonic() - started)))
            for server in servers:
                classified[server.name] = classify(server.process.data_dir, server.answers)
                counts[server.name] = _counts(classified[server.name])
            wanted = {
                signal
                for signal in SIGNALS
                if any(min(counts[server.name][signal]) < args.answers for server in servers)
            }
            shown = "; ".join(
                f"{signal} " + " ".join(f"{server.name} {counts[server.name][signal]}" for server in servers)
                for signal in SIGNALS
            )
            print(f"after {time.monotonic() - started:.0f} s: class sizes {shown}", file=sys.stderr)
    finally:
        for player in players:
            await player.client.aclose()
        for server in servers:
            server.process.stop()
    load_after = os.getloadavg()
    print(
        f"servers: {', '.join(server.name for server in servers)} (COUYON_ANSWER_FLOOR_MS, off = 0); "
        f"players: {args.players} on each server at once, "
        f"{args.think * 1000:.0f} ms before each request"
    )
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in load_before)}; after: "
        f"{' '.join(f'{x:.2f}' for x in load_after)}; run: {time.monotonic() - started:.0f} s"
    )
    for server in servers[1:]:
        overruns = _overruns(server.process.log_path)
        print(f"{server.name}: {overruns} overruns logged of {len(server.answers)} answers")
    print()
    print(
        f"{'signal':6} {'floor':6} {'n A':>5} {'n B':>5} {'med A ms':>8} {'med B ms':>8} {'AUC same n':>10} {'AUC all':>8}"
    )
    for signal in SIGNALS:
        for server in servers:
            rows = classified[server.name].get(signal, [])
            a = [seconds for _, positive, seconds in rows if positive]
            b = [seconds for _, positive, seconds in rows if not positive]
            same, every = auc(rows, True), auc(rows, False)
            print(
                f"{signal:6} {server.name:6} {len(a):5} {len(b):5} {_ms(a):>8} {_ms(b):>8} "
                f"{'-' if same is None else f'{same:.3f}':>10} {'-' if every is None else f'{every:.3f}':>8}"
            )
    if args.dump is not None:
        args.dump.write_text(json.dumps(classified))
    print()
    for signal, (first, second) in SIGNALS.items():
        print(f"{signal}: A = {first}; B = {second}")
    shutil.rmtree(root, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=200, help="answers wanted in every class of every signal")
    parser.add_argument("--players", type=int, default=3, help="players on each server at once")
    parser.add_argument(
        "--floor-ms",
        type=int,
        nargs="+",
        default=None,
        help="one server per value, its floor for every game (default: one server with each game's own floor)",
    )
    parser.add_argument("--dump", type=Path, default=None, help="write every classified answer to this JSON file")
    parser.add_argument("--think", type=float, default=0.05, help="seconds a player waits before each request")
    parser.add_argument("--seconds", type=float, default=1800, help="stop after this long even if classes are short")
    parser.add_argument("--round-seconds", type=float, default=60, help="play this long between two counts")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
