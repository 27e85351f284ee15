"""The ``couyon`` command line: ``verify`` a record (more subcommands register here)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from couyon import __version__
from couyon.common.arena import add_arena_arguments, run_arena_command
from couyon.common.records import MAX_RECORD_BYTES
from couyon.loadgen import add_load_arguments, run_load_command
from couyon.registry import ARENAS, DEFAULT_GAME, GAMES, verify_record
from couyon.server.serve import (
    add_prune_arguments,
    add_puzzles_arguments,
    add_ratings_arguments,
    add_serve_arguments,
    run_prune,
    run_puzzles,
    run_ratings,
    run_serve,
)


def _read_input(path: str) -> bytes:
    """The record's bytes, one past the size cap at most: the verifier then refuses a larger one without reading it all."""
    if path == "-":
        return sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    with open(path, "rb") as file:
        return file.read(MAX_RECORD_BYTES + 1)


def run_verify(args: argparse.Namespace) -> int:
    """Replay a record and print the contract's JSON report; exit 1 if it is refused."""
    try:
        text = _read_input(args.file)
    except OSError as error:
        result = {"valid": False, "error": f"cannot read {args.file!r}: {error.strerror or error}", "move": None}
    else:
        result = verify_record(text)
    # UTF-8 bytes whatever the locale: print() to an ASCII or Latin-1 stdout would raise on a
    # quoted move such as "S:é" (a traceback instead of the contract's refusal).
    sys.stdout.buffer.write(json.dumps(result, ensure_ascii=False).encode("utf-8") + b"\n")
    sys.stdout.flush()
    return 0 if result["valid"] else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="couyon", description="Couyon, the Ardennes card game: engine, bots and server."
    )
    parser.add_argument("--version", action="version", version=f"couyon {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    verify_parser = commands.add_parser("verify", help="replay a game record and print its result as JSON")
    verify_parser.add_argument("file", metavar="FILE", help="the record, or - for standard input")
    verify_parser.set_defaults(handler=run_verify)
    serve_parser = commands.add_parser("serve", help="start the game server (web table and JSON API)")
    add_serve_arguments(serve_parser)
    serve_parser.set_defaults(handler=run_serve)
    prune_parser = commands.add_parser(
        "prune", help="delete unfinished games and players owning nothing, past the retention days"
    )
    add_prune_arguments(prune_parser)
    prune_parser.set_defaults(handler=run_prune)
    ratings_parser = commands.add_parser("ratings", help="recompute every rating from the stored games")
    add_ratings_arguments(ratings_parser)
    ratings_parser.set_defaults(handler=run_ratings)
    puzzles_parser = commands.add_parser("puzzles", help="mine puzzles from seeded bot games into the store")
    add_puzzles_arguments(puzzles_parser, [game.id for game in GAMES.values() if game.puzzles is not None])
    puzzles_parser.set_defaults(handler=run_puzzles)
    arena_parser = commands.add_parser("arena", help="duplicate matches between two bots: strength and speed")
    add_arena_arguments(arena_parser, ARENAS, DEFAULT_GAME)
    arena_parser.set_defaults(handler=lambda args: run_arena_command(args, ARENAS))
    load_parser = commands.add_parser("load", help="many players play complete games over HTTP: moves/s, latency")
    add_load_arguments(load_parser)
    load_parser.set_defaults(handler=run_load_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
