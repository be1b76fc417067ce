"""Regenerate the contract rummy example records in examples/ from seeded simulated games.

    python scripts/make_carioca_examples.py              # every example
    python scripts/make_carioca_examples.py --only live  # only examples/carioca-3p-complete.jsonl

Writes

* ``examples/carioca-4p-complete.jsonl``: a whole game (seven hands, four players: two
  ``belief`` and two ``peer`` seats), every hand known;
* ``examples/carioca-4p.jsonl``: seat 1's record of the same game, cut in hand 2 at the
  fourth time the discard is offered to seat 1 on its turn (take or pass?);
* ``examples/carioca-short-complete.jsonl``: the shortest one-hand, three-player ``peer``
  game among deal seeds 0-199 (the complete example of ``docs/carioca.md``, which a test keeps
  equal to this file);
* ``examples/carioca-3p-complete.jsonl``: a short whole game for typing live (``cardmind
  advise``): three players, two hands, one deck and two jokers, ``belief`` at seat 0 and
  ``peer`` at seats 1 and 2, deal seed 14. Seen from seat 2 it is 114 typed lines with every
  main form of the notation: takes, ``nobody takes``, steals (its own with the penalty card),
  its own draws, go downs, lay-offs, a restock (filled in), the end of a hand and a new deal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents.base import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.records import Record, replay, write_record  # noqa: E402

GAME = get_game("carioca")


def full_game(seed: int = 17) -> Record:
    """Four players, seven hands: belief at seats 0 and 2, peer at seats 1 and 3."""
    names = ["belief", "peer", "belief", "peer"]
    factories = [resolve_agent(n, GAME) for n in names]
    res = play_game(GAME, {"players": 4}, factories, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(4)])
    if res.result is None:
        raise SystemExit(f"seed {seed}: the game did not finish ({res.forfeit_reason or res.unfinished})")
    return res.record


def cut_for_offer(rec: Record, seat: int, hand: int = 2, nth: int = 4) -> Record:
    """``seat``'s record, cut at the ``nth`` offer to ``seat`` on its turn in hand ``hand``."""
    mine = rec.for_seat(seat)
    st = GAME.new_state(mine.options, mine.header)
    seen = 0
    for i, ev in enumerate(mine.events):
        if st.hand_no == hand and st.phase == "offer" and st.to_move() == seat == st.turn and i > 0:
            seen += 1
            if seen == nth:
                return Record(mine.game, mine.options, mine.header, mine.events[:i], mine.path, mine.lines[:i])
        st.apply_event(ev)
    raise SystemExit("no offer to cut at")


def shortest(players: int = 3, seeds: range = range(200)) -> Record:
    """The shortest complete one-hand ``peer`` game among ``seeds``."""
    peer = resolve_agent("peer", GAME)
    best = None
    for seed in seeds:
        res = play_game(GAME, {"players": players, "hands": 1}, [peer] * players, np.random.default_rng(seed),
                        [np.random.default_rng([seed, s]) for s in range(players)], max_actions=2000)
        if res.result is not None and (best is None or len(res.record.events) < len(best.events)):
            best = res.record
    return best


#: the options, players and deal seed of ``examples/carioca-3p-complete.jsonl``
LIVE_OPTIONS = {"players": 3, "hands": 2, "decks": 1, "jokers": 2}
LIVE_AGENTS = ["belief", "peer", "peer"]
LIVE_SEED = 14


def live_game() -> Record:
    """The short whole game typed live in the tests (see the module docstring)."""
    factories = [resolve_agent(n, GAME) for n in LIVE_AGENTS]
    res = play_game(GAME, LIVE_OPTIONS, factories, np.random.default_rng(LIVE_SEED),
                    [np.random.default_rng([LIVE_SEED, s]) for s in range(len(LIVE_AGENTS))])
    if res.result is None:
        raise SystemExit(f"seed {LIVE_SEED}: the game did not finish")
    return res.record


def main(argv: list[str] | None = None) -> None:
    """Write the examples (``--only live``: only ``examples/carioca-3p-complete.jsonl``)."""
    import argparse

    ap = argparse.ArgumentParser(description="regenerate the contract rummy example records")
    ap.add_argument("--only", choices=["live"], default=None,
                    help="write only the short live game (examples/carioca-3p-complete.jsonl)")
    args = ap.parse_args(argv)
    live = live_game()
    write_record(ROOT / "examples" / "carioca-3p-complete.jsonl", live)
    if args.only == "live":
        print(f"wrote examples/carioca-3p-complete.jsonl ({len(live.events)} events)")
        return
    rec = full_game()
    write_record(ROOT / "examples" / "carioca-4p-complete.jsonl", rec)
    cut = cut_for_offer(rec, 1)
    write_record(ROOT / "examples" / "carioca-4p.jsonl", cut)
    short = shortest()
    write_record(ROOT / "examples" / "carioca-short-complete.jsonl", short)
    st = replay(rec)
    print(f"wrote examples/carioca-4p-complete.jsonl ({len(rec.events)} events; totals {st.totals}), "
          f"examples/carioca-4p.jsonl ({len(cut.events)} events), examples/carioca-short-complete.jsonl "
          f"({len(short.events)} events) and examples/carioca-3p-complete.jsonl ({len(live.events)} events)")


if __name__ == "__main__":
    main()
