"""``couyon load``: many players play complete games over HTTP at once; moves/s, latency percentiles, errors.

Each simulated player has its own cookie jar and plays random legal moves of ``view.legal`` (its own
``Stream``) in games of ``--game`` (the server's default game if none is named), one request at a time,
until it has played its number of games or the run's time budget is spent; the run therefore always
stops by itself. Afterwards every finished game's record is downloaded and replayed by its game's
verifier (``GameKind.verify``): it must be valid, finished, and give the score (and the winner, where
the report names one) and number of moves the player saw, and a ranked game must have entered the
leaderboard. An unfinished
game (cut by the time budget) must resume at the last view the player was given. Any other answer
than the expected one counts as an error. Without ``--url`` the command starts its own
``couyon serve`` on a free loopback port (SQLite in a temporary folder, or ``--database-url``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from couyon.common.stream import Stream
from couyon.registry import GAMES

if TYPE_CHECKING:
    import httpx

Json = dict[str, Any]
PERCENTILES = (50, 90, 99)
REQUEST_TIMEOUT_SECONDS = 30.0
VERIFY_CONCURRENCY = 8


class ServerStartError(RuntimeError):
    """The server process exited or did not answer its health check in time; the message has its log's end."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """A ``couyon serve`` child process on loopback (rate limits off unless ``environment`` sets them).

    It runs in its own process group so that ``kill`` reaches uvicorn's worker processes too.
    ``start`` may be called again after ``kill`` or ``stop``: the new process reuses the port.
    """

    def __init__(
        self,
        data_dir: Path,
        database_url: str | None = None,
        *,
        port: int | None = None,
        workers: int = 1,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / "server.log"
        self._environment = {
            **os.environ,
            "COUYON_DATA_DIR": str(data_dir),
            "COUYON_RATE_GAMES_PER_MINUTE": "0",
            "COUYON_RATE_MOVES_PER_MINUTE": "0",
            "COUYON_LOG_LEVEL": "warning",
            **(environment or {}),
        }
        # The server's database and secret are the ones given here (or found in that database), never
        # ones inherited from the caller's environment.
        self._environment.pop("COUYON_SECRET", None)
        self._environment.pop("COUYON_DATABASE_URL", None)
        if database_url is not None:
            self._environment["COUYON_DATABASE_URL"] = database_url
        self._command = [
            sys.executable,
            "-m",
            "couyon.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            str(workers),
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until ``/api/health`` answers 200."""
        import httpx

        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self._command, env=self._environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                tail = self.log_path.read_text(errors="replace")[-2000:]
                raise ServerStartError(f"the server at {self.url} did not start; its log ends with:\n{tail}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL the whole process group at once, as a crash or an out-of-memory kill would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self._reap()

    def stop(self) -> None:
        """Ask the server to shut down gracefully, killing it if it has not after ten seconds."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reap()

    def _reap(self) -> None:
        if self.process is not None:
            self.process.wait()
            self.process = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """One run: ``players`` at once, each playing up to ``games`` games, all within ``duration`` seconds.

    About ``think`` seconds pass between an answer and the player's next move (from half to one and a half
    times it, so that players do not move in lockstep): 0 plays as fast as the server answers (a closed loop
    that measures capacity); a person's few seconds measure latency at a given load.
    """

    players: int = 50
    games: int = 2
    duration: float = 120.0
    seed: str = "load"
    think: float = 0.0
    game: str | None = None
    """The game played (a registry id); None names none, so the server plays its default game."""
    table: Json = field(default_factory=dict)
    """The table options of every game played (coucou: ``{"players": 20}``); empty leaves the server's defaults."""


@dataclass(slots=True)
class PlayedGame:
    """What one player saw of one game: its last answer and whether the game ended."""

    game_id: str
    game: str
    """The game's kind (a registry id), whose verifier replays its record."""
    client: int
    last_answer: Json
    finished: bool = False


@dataclass(slots=True)
class Tally:
    """Everything measured during a run."""

    move_ms: list[float] = field(default_factory=list)
    create_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games: list[PlayedGame] = field(default_factory=list)
    seat_moves: int = 0
    """Moves of all seats (the bots' answers included) carried by the answers."""


def percentiles(values: list[float]) -> Json:
    """Nearest-rank p50/p90/p99 and the maximum, in milliseconds rounded to 0.1; all None without values."""
    ordered = sorted(values)
    result: Json = {}
    for percent in PERCENTILES:
        result[f"p{percent}"] = (
            round(ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)], 1) if ordered else None
        )
    result["max"] = round(ordered[-1], 1) if ordered else None
    return result


def _error_key(response: httpx.Response, what: str) -> str:
    try:
        code = response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        code = "no error body"
    return f"{what}: {response.status_code} {code}"


async def _timed(
    client: httpx.AsyncClient, method: str, path: str, body: Json | None, latencies: list[float], tally: Tally
) -> Json | None:
    """One request whose latency is recorded; its JSON answer, or None after counting an error."""
    import httpx

    what = "move" if path.endswith("/moves") else "new game"
    started = time.perf_counter()
    try:
        response = await client.request(method, path, json=body)
    except httpx.HTTPError as error:
        tally.errors[f"{what}: {type(error).__name__}"] += 1
        return None
    latencies.append((time.perf_counter() - started) * 1000.0)
    if response.status_code not in (200, 201):
        tally.errors[_error_key(response, what)] += 1
        return None
    answer: Json = response.json()
    return answer


def _moves_in(answer: Json) -> int:
    # Every game's move events, and only they, name the seat that moved (docs/api.md).
    return sum(1 for event in answer["events"] if "seat" in event)


async def _play(client: httpx.AsyncClient, index: int, options: LoadOptions, deadline: float, tally: Tally) -> None:
    """One player: new game, random legal moves until the end, again; stops at the first error or the deadline."""
    chooser = Stream(options.seed, f"player:{index}")
    pauses = Stream(options.seed, f"think:{index}")
    body: Json = {"mode": "free"} if options.game is None else {"mode": "free", "game": options.game}
    if options.table:
        body["options"] = options.table
    for _ in range(options.games):
        if time.monotonic() >= deadline:
            return
        answer = await _timed(client, "POST", "/api/games", body, tally.create_ms, tally)
        if answer is None:
            return
        if options.game is not None and answer.get("game") != options.game:
            tally.errors["new game: the answer names another game than the one asked for"] += 1
            return
        if any(answer.get("options", {}).get(name) != value for name, value in options.table.items()):
            tally.errors["new game: the answer's table options differ from those asked for"] += 1
            return
        game = PlayedGame(answer["id"], answer["game"], index, answer)
        tally.games.append(game)
        tally.seat_moves += answer["view"]["move_number"]
        while answer["view"]["winner"] is None:
            if options.think:
                await asyncio.sleep(options.think * (0.5 + pauses.random()))
            if time.monotonic() >= deadline:
                return
            view = answer["view"]
            move = {"move": chooser.choice(view["legal"]), "move_number": view["move_number"]}
            answer = await _timed(client, "POST", f"/api/games/{game.game_id}/moves", move, tally.move_ms, tally)
            if answer is None:
                return
            if answer["view"]["move_number"] != view["move_number"] + _moves_in(answer) or _moves_in(answer) < 1:
                # The events must be exactly the moves between the two views.
                tally.errors["move: events do not match the move numbers"] += 1
                return
            tally.seat_moves += _moves_in(answer)
            game.last_answer = answer
        game.finished = True


async def _check(client: httpx.AsyncClient, game: PlayedGame) -> str | None:
    """Why the stored game differs from what its player saw, or None if it does not."""
    seen = game.last_answer
    if not game.finished:
        response = await client.get(f"/api/games/{game.game_id}")
        if response.status_code != 200 or response.json()["view"] != seen["view"]:
            return "unfinished game does not resume at the player's last view"
        return None
    response = await client.get(f"/api/games/{game.game_id}/record")
    if response.status_code != 200:
        return _error_key(response, "record")
    report = GAMES[game.game].verify(response.content)
    view = seen["view"]
    if not report["valid"] or not report["finished"]:
        return "stored record does not replay to a finished game"
    # Every game's report gives the human's score; tarot's names no winner (only the scores of every seat).
    if report["score"] != view["score"] or ("winner" in report and report["winner"] != view["winner"]):
        return "stored record replays to another result than the player saw"
    if len(json.loads(response.content)["moves"]) != view["move_number"]:
        return "stored record holds another number of moves than the player saw"
    if seen["ranked"] and seen["leaderboard"] is None:
        # The final move answers before the verifying replay; showing the game runs or awaits it.
        shown = await client.get(f"/api/games/{game.game_id}")
        if shown.status_code != 200:
            return _error_key(shown, "show")
        if shown.json()["leaderboard"] is None:
            return "finished ranked game did not enter the leaderboard"
    return None


async def _run(base_url: str, options: LoadOptions) -> Json:
    import httpx

    tally = Tally()
    timeout = httpx.Timeout(REQUEST_TIMEOUT_SECONDS)
    limits = httpx.Limits(max_connections=1)
    clients = [httpx.AsyncClient(base_url=base_url, timeout=timeout, limits=limits) for _ in range(options.players)]
    try:
        started = time.monotonic()
        deadline = started + options.duration
        await asyncio.gather(*(_play(client, index, options, deadline, tally) for index, client in enumerate(clients)))
        elapsed = time.monotonic() - started
        gate = asyncio.Semaphore(VERIFY_CONCURRENCY)

        async def check(game: PlayedGame) -> str | None:
            async with gate:
                try:
                    return await _check(clients[game.client], game)
                except httpx.HTTPError as error:
                    return f"check: {type(error).__name__}"

        problems = await asyncio.gather(*(check(game) for game in tally.games))
    finally:
        await asyncio.gather(*(client.aclose() for client in clients))
    tally.errors.update(problem for problem in problems if problem is not None)
    finished = sum(1 for game in tally.games if game.finished)
    verified = sum(1 for game, problem in zip(tally.games, problems, strict=True) if game.finished and not problem)
    return {
        "url": base_url,
        "players": options.players,
        "games_per_player": options.games,
        "duration_limit_s": options.duration,
        "think_s": options.think,
        "game": options.game,
        "table": options.table,
        "elapsed_s": round(elapsed, 2),
        "games_started": len(tally.games),
        "games_finished": finished,
        "records_verified": verified,
        "move_requests": len(tally.move_ms),
        "move_requests_per_s": round(len(tally.move_ms) / elapsed, 1) if elapsed > 0 else None,
        "seat_moves_per_s": round(tally.seat_moves / elapsed, 1) if elapsed > 0 else None,
        "move_latency_ms": percentiles(tally.move_ms),
        "new_game_latency_ms": percentiles(tally.create_ms),
        "errors": dict(tally.errors),
        "error_count": sum(tally.errors.values()),
    }


def run_load(options: LoadOptions, url: str | None = None, database_url: str | None = None, workers: int = 1) -> Json:
    """Play the run against ``url``, or against a server started for it (SQLite unless ``database_url``)."""
    if url is not None:
        return asyncio.run(_run(url.rstrip("/"), options)) | {"database": "given server"}
    database = "sqlite" if database_url is None or database_url.startswith("sqlite") else "postgresql"
    with (
        tempfile.TemporaryDirectory(prefix="couyon-load-") as folder,
        ServerProcess(Path(folder), database_url, workers=workers) as server,
    ):
        return asyncio.run(_run(server.url, options)) | {"database": database, "server_workers": workers}


def format_report(report: Json) -> str:
    """The report as a few human-readable lines."""

    def line(values: Json) -> str:
        return "  ".join(f"{name} {value} ms" for name, value in values.items())

    table = "".join(f" {name}={value}" for name, value in report["table"].items())

    lines = [
        f"{report['players']} players of {report['game'] or 'the default game'}{table} against {report['url']} "
        f"({report['database']}), {report['elapsed_s']} s (limit {report['duration_limit_s']} s), "
        f"think time {report['think_s']} s",
        f"games: {report['games_started']} started, {report['games_finished']} finished, "
        f"{report['records_verified']} records replayed to the result the players saw",
        f"moves: {report['move_requests']} requests, {report['move_requests_per_s']} requests/s, "
        f"{report['seat_moves_per_s']} moves/s of all seats",
        f"move latency: {line(report['move_latency_ms'])}",
        f"new game latency: {line(report['new_game_latency_ms'])}",
        f"errors: {report['error_count']}",
    ]
    lines.extend(f"  {count} × {kind}" for kind, count in sorted(report["errors"].items()))
    return "\n".join(lines)


def add_load_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``couyon load``."""
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--url", help="a running server to load (default: start one on a free loopback port)")
    target.add_argument(
        "--database-url", help="database of the server started for the run (default: SQLite in a temporary folder)"
    )
    parser.add_argument("--players", type=int, default=50, help="players playing at once (default 50)")
    parser.add_argument("--games", type=int, default=2, help="games each player plays (default 2)")
    parser.add_argument("--duration", type=float, default=120.0, help="time budget in seconds (default 120)")
    parser.add_argument("--workers", type=int, default=1, help="processes of the server started for the run")
    parser.add_argument("--think", type=float, default=0.0, help="seconds between an answer and the next move")
    parser.add_argument("--seed", default="load", help="seed of the players' move choices (default 'load')")
    parser.add_argument(
        "--game", choices=list(GAMES), help="the game played (default: none named, the server's default game)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option of every game played, repeatable (coucou: --option players=20 --option level=easy)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def table_options(items: list[str]) -> Json | str:
    """The ``--option NAME=VALUE`` items as table options (a whole number sent as a number), or why they are not."""
    table: Json = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not (name and equals and value):
            return f"--option takes NAME=VALUE, like players=20, not {item!r}."
        table[name] = int(value) if value.isascii() and value.isdigit() else value
    return table


def run_load_command(args: argparse.Namespace) -> int:
    """Run ``couyon load``; exit status 1 if any error was counted, 2 for bad arguments or a server that fails."""
    for name in ("players", "games", "workers"):
        if getattr(args, name) < 1:
            print(f"couyon load: --{name} must be at least 1, not {getattr(args, name)}.", file=sys.stderr)
            return 2
    if not args.duration > 0:
        print(f"couyon load: --duration must be a positive number of seconds, not {args.duration}.", file=sys.stderr)
        return 2
    if not 0 <= args.think < args.duration:
        print(f"couyon load: --think must be from 0 to less than --duration, not {args.think}.", file=sys.stderr)
        return 2
    table = table_options(args.option)
    if isinstance(table, str):
        print(f"couyon load: {table}", file=sys.stderr)
        return 2
    options = LoadOptions(
        players=args.players,
        games=args.games,
        duration=args.duration,
        seed=args.seed,
        think=args.think,
        game=args.game,
        table=table,
    )
    try:
        report = run_load(options, args.url, args.database_url, args.workers)
    except ServerStartError as error:
        print(f"couyon load: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_report(report))
    return 1 if report["error_count"] else 0
