"""How often expert/2 bids with a weak hand: the measurement behind expert/3's pass without simulating.

Usage: ``python benchmarks/tarot_bid_cutoff.py PLAYERS HANDS [LIMIT] [--over-petite]``. For each
of HANDS games ``"cutoff:<i>"`` it takes two bidding positions of the first deal: the first
speaker (no bid yet) and the last speaker after everyone else passed (the weakest others,
where a weak hand is most tempted); with ``--over-petite``, the second speaker after the
first bid petite (only garde and above are open). Each hand whose usual count
(``habits.hand_count``) is below LIMIT (default 50) is bid by expert/2. Prints, per count
band, the hands and how many bid, then, per candidate cutoff, the share of all hands below
it (the bids it saves) and how many of those expert/2 bid.
"""

from __future__ import annotations

import sys
from collections import Counter

from couyon.common.stream import Stream
from couyon.games.tarot.bots.expert import ExpertTarotBot
from couyon.games.tarot.bots.habits import hand_count
from couyon.games.tarot.cards import mask_of
from couyon.games.tarot.game import PASS, Move, new_game, play, to_move
from couyon.games.tarot.view import view


def main(argv: list[str]) -> int:
    players, hands = int(argv[0]), int(argv[1])
    over_petite = "--over-petite" in argv
    argv = [arg for arg in argv if arg != "--over-petite"]
    limit = float(argv[2]) if len(argv) > 2 else 50.0
    bot = ExpertTarotBot.table_expert(2)
    counts: list[float] = []
    bids: list[tuple[float, str]] = []
    for index in range(hands):
        seed = f"cutoff:{index}"
        state = new_game(seed, players)
        if over_petite:
            first = to_move(state)
            assert first is not None
            state = play(state, Move(first, "petite"))
        for position in range(1 if over_petite else players):
            seat = to_move(state)
            assert seat is not None
            if over_petite or position in (0, players - 1):
                seat_view = view(state, seat)
                count = hand_count(mask_of(seat_view.hand), players)
                counts.append(count)
                if count < limit:
                    move = bot.choose(seat_view, Stream(seed, f"bid:{position}"))
                    bids.append((count, move.action))
            if position < players - 1:
                state = play(state, Move(seat, PASS))
    band_hands = Counter(int(count // 5) * 5 for count in counts if count < limit)
    band_bids = Counter(int(count // 5) * 5 for count, action in bids if action != PASS)
    where = "the second speaker over a petite" if over_petite else "2 positions"
    print(f"{players} players, {len(counts)} hands ({hands} games, {where}), simulated below {limit:g}")
    for band in sorted(band_hands):
        print(f"  count {band:>3}-{band + 5:<3} hands {band_hands[band]:>5}  bid {band_bids[band]:>4}")
    bidders = [count for count, action in bids if action != PASS]
    print(f"  lowest count that bid: {min(bidders, default=float('nan')):.2f}")
    for cutoff in range(10, int(limit) + 1, 2):
        below = [action for count, action in bids if count < cutoff]
        made = sum(action != PASS for action in below)
        share = len(below) / len(counts)
        print(f"  cutoff {cutoff:>3}: {share:6.1%} of hands below, {made} bid of {len(below)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
