"""Does ``couyon verify`` print the same bytes at two commits? A check for changes that must not change behaviour.

    python benchmarks/compare_verify.py OLD_REV NEW_REV [--records 200] [--seed compare]

It writes the records once, with the registry of NEW_REV: for each game (couyon, Malmedy, tarot at 3,
4 and 5, coucou), ``--records`` random games from seeds ``SEED:game:i``, played with random legal moves
and cut at a random move, a third of them with one move changed to another legal move text of the same
game, or to a move of another seat. Then each commit, checked out in a temporary worktree, runs
``couyon verify`` (its ``couyon.cli.main``, one process per commit) on every record under
``tests/data`` and on the new ones, and the script prints the first difference, or how many outputs
were compared, and exits 1 on a difference. Records under ``tests/data`` that only one commit holds are
listed and left out of the comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WRITE_RECORDS = r"""
import json, sys
from pathlib import Path
from couyon.registry import GAMES
from couyon.common.stream import Stream

out, count, seed = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for game in GAMES.values():
    options = game.daily_options
    for index in range(count):
        rng = Stream(f"{seed}:{game.id}:{index}", "compare")
        deal_seed = f"{seed}-{game.id}-{index}"
        state = game.new_game(deal_seed, options)
        moves = []
        while not game.engine.is_over(state):
            legal = list(game.engine.legal_moves(state))
            move = legal[rng.uniform(len(legal))]
            moves.append(str(move))
            state = game.engine.play(state, move)
        cut = rng.uniform(len(moves) + 1) if index % 2 else len(moves)
        moves = moves[:cut]
        if moves and index % 3 == 0:
            at = rng.uniform(len(moves))
            seat, _, action = moves[at].partition(":")
            other = moves[rng.uniform(len(moves))]
            moves[at] = other if rng.uniform(2) else f"{seat}:{other.partition(':')[2]}"
        text = game.engine.record_json(deal_seed, moves, game.parse_options(options), {})
        (out / f"{game.id}-{index:04d}.json").write_text(text, encoding="utf-8")
"""

VERIFY_ALL = r"""
import contextlib, io, json, sys
from pathlib import Path
from couyon.cli import main

outputs = {}
for path in sys.argv[1:]:
    buffer = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(buffer):
        status = main(["verify", path])
    buffer.flush()
    outputs[path] = [status, buffer.buffer.getvalue().decode("utf-8")]
json.dump(outputs, sys.stdout)
"""


def run_in(tree: Path, code: str, *args: str) -> str:
    environment = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=tree, env=environment, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"{tree.name}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--records", type=int, default=200, help="random records per game (default 200)")
    parser.add_argument("--seed", default="compare")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="compare-verify-") as temporary:
        base = Path(temporary)
        trees = {}
        for name, revision in (("old", args.old), ("new", args.new)):
            tree = base / name
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), revision], check=True
            )
            trees[name] = tree
        try:
            records = base / "records"
            records.mkdir()
            run_in(trees["new"], WRITE_RECORDS, str(records), str(args.records), args.seed)
            outputs = {}
            for name, tree in trees.items():
                golden = sorted(str(path.relative_to(tree)) for path in (tree / "tests" / "data").rglob("*.json"))
                golden = [path for path in golden if not path.endswith(".expected.json")]
                fresh = sorted(str(path) for path in records.iterdir())
                outputs[name] = json.loads(run_in(tree, VERIFY_ALL, *golden, *fresh))
        finally:
            for tree in trees.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    old, new = outputs["old"], outputs["new"]
    if sorted(old) != sorted(new):
        # A record only one commit holds (a golden record of a new format, say) has nothing to be compared with.
        print("records under tests/data that only one commit holds, not compared:")
        print("  only old:", sorted(set(old) - set(new)))
        print("  only new:", sorted(set(new) - set(old)))
        old = {path: output for path, output in old.items() if path in new}
        new = {path: output for path, output in new.items() if path in old}
    differences = [path for path in old if old[path] != new[path]]
    for path in differences[:5]:
        print(f"{path}:\n  old {old[path]}\n  new {new[path]}")
    refused = sum(status != 0 for status, _ in new.values())
    print(f"{len(old)} records ({refused} refused), {len(differences)} outputs differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
