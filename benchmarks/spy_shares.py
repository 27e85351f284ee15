"""Shares of a py-spy profile by the innermost frame of the project's own code, compiled or not (not run by pytest).

Usage: ``python benchmarks/spy_shares.py PROFILE.raw [ANCHOR] [--top N]``. PROFILE.raw is what
``py-spy record --native -f raw`` writes (one stack a line, then its sample count). With ``--native`` a
compiled module's functions show as mypyc's C functions (``CPyDef_couyon___bots___solver____play``), which this
names ``couyon.bots.solver._play [compiled]``; a plain Python frame is named by its file and function. Only the
stacks with a frame containing ANCHOR are counted (``ExpertBot.choose``: one bot's decisions; default: every
stack), each one under its innermost project frame, so a share is the time spent in that function itself or in
what it calls outside the project (the interpreter, the standard library). Prints the shares by module and by
function.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

COMPILED = re.compile(r"CPy(?:Def|Py)_(\S+) \(")
PROJECT = re.compile(r"(\S+) \((couyon/[\w/]+\.py):\d+\)")
OUTSIDE = "outside the project's code (the interpreter, libraries)"


def place(frames: list[str]) -> tuple[str, str]:
    """(module, function) of the innermost project frame of one stack."""
    for frame in reversed(frames):
        compiled = COMPILED.match(frame)
        if compiled is not None:
            parts = compiled.group(1).split("___")
            # A closure or a lambda is a class mypyc names after it (``trick__make_search_obj``): its module's.
            generated = [index for index, part in enumerate(parts[:-1]) if "__" in part.strip("_")]
            module = parts[: generated[0]] if generated else parts[:-1]
            return ".".join(module) + " [compiled]", ".".join(parts) + " [compiled]"
        plain = PROJECT.match(frame)
        if plain is not None:
            return plain.group(2), f"{plain.group(2)}:{plain.group(1)}"
    return OUTSIDE, OUTSIDE


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("anchor", nargs="?", default="")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    modules: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    total = 0
    with open(args.profile) as lines:
        for line in lines:
            stack, _, count = line.rstrip().rpartition(" ")
            frames = stack.split(";")
            total += int(count)
            if args.anchor and not any(args.anchor in frame for frame in frames):
                continue
            module, function = place(frames)
            modules[module] += int(count)
            functions[function] += int(count)
    counted = sum(modules.values())
    print(f"{total} samples, {counted} under {args.anchor or 'any frame'} ({100 * counted / max(1, total):.0f}%)")
    for title, shares in (("by module", modules), ("by function", functions)):
        print(title)
        for name, count in shares.most_common(args.top):
            print(f"  {100 * count / max(1, counted):5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
