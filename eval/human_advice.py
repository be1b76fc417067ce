"""Advice measured on people's Literature games (issue 3, "Advice measured on people's games").

For every game in ``../shared/records/literature-human`` (complete records; the one logged
with a mistake is used up to the line before it):

* every **claim** people made, from the claimer's view just before it: the exact probability
  that it was right, whether it was right, and the first moment the ``belief`` player in that
  seat would have claimed that set (the first earlier point where its team held the set for
  certain in that seat's view, or where its claim rule fired on its turn);
* every **ask**: whether ``belief`` in the asker's seat, at that moment, would have asked for
  the same card (and the same target), and whether the people's ask was among its top 3.

Usage::

    python eval/human_advice.py [--shared ../shared] [--out docs/human-advice.md]

Writes the tables to ``docs/human-advice.md`` (between markers) and prints them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "eval"))

from cardmind.games.literature.agents.belief import BeliefAgent  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.errors import RecordError  # noqa: E402
from cardmind.records import read_record  # noqa: E402

MARK_BEGIN = "<!-- human-advice:begin -->"
MARK_END = "<!-- human-advice:end -->"


def load(path: Path):
    """The record, or its legal prefix when a line is illegal (returns (record, cut line or None))."""
    try:
        return read_record(path), None
    except RecordError as exc:
        if exc.line is None or exc.line <= 2:
            raise
        return read_record(path, upto=exc.line - 1), exc.line


def people_models(shared: Path) -> dict[str, str]:
    """Register a ``people`` player model fitted without each game (leave one game out);
    ``{file name: model name}`` (:func:`calibration.leave_one_out_people`)."""
    from calibration_literature import leave_one_out_people, people_records

    return {f"{name}.jsonl": m for name, m in leave_one_out_people(people_records(shared)).items()}


def analyse(path: Path, model: str | None = None) -> dict:
    """One pass over the record with a ``belief`` player in every seat (each sees only its
    own view), noting when each would first claim each set, and what each would ask."""
    rec, cut = load(path)
    game = get_game("literature")
    n = game.num_seats(rec.options)
    # the belief players' own choices use the constraint-only posterior (as before issue 16)
    plain = {"opponent_model": "uniform", "teammate_model": "uniform"}
    agents = [BeliefAgent(game, s, rec.options, {"observer": s, "hand": rec.header["hands"][s]}, plain)
              for s in range(n)]
    first_claim: dict[tuple[int, str], int] = {}
    claims, asks = [], []
    rng = np.random.default_rng(0)
    for i, ev in enumerate(rec.events):
        # what would each belief player do now, before event i?
        for s, a in enumerate(agents):
            st = a.state
            if not st.may_claim(s):
                continue
            for name in st.unclaimed_sets():
                if (s, name) in first_claim:
                    continue
                best = a.tracker.best_assignment(name, exact=True)
                if best is not None and best[1] == 1:
                    first_claim[(s, name)] = i
        mover = agents[0].state.to_move()
        if mover is not None and agents[mover].state.sizes[mover] > 0:
            act = agents[mover].act(rng)
            if hasattr(act, "set") and (mover, act.set) not in first_claim:
                first_claim[(mover, act.set)] = i
        if ev["type"] == "claim":
            c = ev["claimer"]
            b = agents[c].tracker
            before = b.seat_models
            b.set_models("uniform")
            p = b.assignment_probability(ev["set"], ev["assignment"])
            p_team = b.team_holds_probability(ev["set"])
            p_model = None
            if model is not None:
                b.set_models(model, {})
                p_model = b.assignment_probability(ev["set"], ev["assignment"])
            b.set_models("uniform", before)
            first = first_claim.get((c, ev["set"]))
            claims.append({"event": i + 1, "claimer": c, "set": ev["set"], "p_right": p, "p_team": p_team,
                           "p_right_model": p_model,
                           "correct": ev["correct"], "belief_first": None if first is None else first + 1,
                           "earlier_by": None if first is None else i - first})
        elif ev["type"] == "ask":
            s = ev["asker"]
            a = agents[s]
            choice = a.act(rng)
            marg = a.tracker.marginals()
            legal = a.state.legal_asks(s)
            ranked = sorted(legal, key=lambda x: -marg.get(x.card, {}).get(x.target, 0.0))
            top3 = {(x.card, x.target) for x in ranked[:3]}
            human_p = marg.get(ev["card"], {}).get(ev["target"], 0.0)
            bc, bt = getattr(choice, "card", None), getattr(choice, "target", None)
            asks.append({"event": i + 1, "asker": s, "card": ev["card"], "target": ev["target"],
                         "success": ev["success"], "human_p": human_p, "belief_card": bc, "belief_target": bt,
                         "belief_action": choice.to_json(),
                         "belief_p": marg.get(bc, {}).get(bt, 0.0) if bc is not None else None,
                         "same_card": bc == ev["card"], "same_ask": (bc, bt) == (ev["card"], ev["target"]),
                         "in_top3": (ev["card"], ev["target"]) in top3})
        for a in agents:
            a.observe(ev)
    return {"file": path.name, "options": rec.options, "events": len(rec.events), "cut_at_line": cut,
            "claims": claims, "asks": asks}


def table(results: list[dict]) -> str:
    lines = ["### Claims people made", "",
             "| game | event | claimer | set | P(right) at that moment | P(right), people model | right? | P(team holds) | belief would first claim at event | how many events earlier |",
             "| --- | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    for r in results:
        for c in r["claims"]:
            first = "not before" if c["belief_first"] is None else str(c["belief_first"])
            earlier = "" if c["earlier_by"] is None else str(c["earlier_by"])
            pm = "" if c.get("p_right_model") is None else f"{c['p_right_model']:.3f}"
            lines.append(f"| {r['file']} | {c['event']} | {c['claimer']} | {c['set']} | {c['p_right']:.3f} | {pm} | "
                         f"{'yes' if c['correct'] else 'no'} | {c['p_team']:.3f} | {first} | {earlier} |")
    lines += ["", "### Asks: does `belief` choose what people chose?", "",
              "| game | asks | same card and target | same card | people's ask in belief's top 3 | people's hit rate | P(hit) of people's asks (mean) | P(hit) of belief's choices (mean) |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    tot = {"n": 0, "same": 0, "card": 0, "top3": 0, "hit": 0, "hp": 0.0, "bp": 0.0}
    for r in results:
        a = r["asks"]
        n = len(a)
        if not n:
            continue
        same = sum(x["same_ask"] for x in a)
        card = sum(x["same_card"] for x in a)
        top3 = sum(x["in_top3"] for x in a)
        hit = sum(x["success"] for x in a)
        hp = sum(x["human_p"] for x in a) / n
        bp = sum(x["belief_p"] or 0.0 for x in a) / n
        for k, v in (("n", n), ("same", same), ("card", card), ("top3", top3), ("hit", hit)):
            tot[k] += v
        tot["hp"] += hp * n
        tot["bp"] += bp * n
        lines.append(f"| {r['file']} | {n} | {same / n:.1%} | {card / n:.1%} | {top3 / n:.1%} | {hit / n:.1%} | "
                     f"{hp:.3f} | {bp:.3f} |")
    n = tot["n"]
    if n:
        lines.append(f"| **all** | {n} | {tot['same'] / n:.1%} | {tot['card'] / n:.1%} | {tot['top3'] / n:.1%} | "
                     f"{tot['hit'] / n:.1%} | {tot['hp'] / n:.3f} | {tot['bp'] / n:.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--out", default=str(ROOT / "docs" / "human-advice.md"))
    ap.add_argument("--json", default=None, help="also write the raw results here")
    args = ap.parse_args(argv)
    files = sorted((Path(args.shared) / "records" / "literature-human").glob("*.jsonl"))
    if not files:
        print(f"no human records under {args.shared}", file=sys.stderr)
        return 1
    loo = people_models(Path(args.shared))
    results = [analyse(p, loo[p.name]) for p in files]
    text = table(results)
    notes = [f"- {r['file']}: {r['events']} events used"
             + (f" (the record is illegal at line {r['cut_at_line']}; the events before it are used)"
                if r["cut_at_line"] else "") + f"; options {json.dumps(r['options'])}" for r in results]
    body = "\n".join([MARK_BEGIN, "", *notes, "", text, "", MARK_END])
    out = Path(args.out)
    if out.exists() and MARK_BEGIN in out.read_text():
        old = out.read_text()
        new = old[:old.index(MARK_BEGIN)] + body + old[old.index(MARK_END) + len(MARK_END):]
    else:
        new = HEADER + body + "\n"
    out.write_text(new)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(text)
    return 0


HEADER = """# Advice measured on people's games

Produced by `python eval/human_advice.py` (it reads `../shared/records/literature-human`).
Each claim is seen from the claimer's view just before it: **P(right)** is the exact share of
consistent deals in which the named assignment is right; **P(right), people model** is the same
with the deals weighed by the `people` player model (`docs/belief.md`, "Player models") fitted
on the *other* people's games (leave one game out); **belief would first claim at event**
is the first point at which cardmind's `belief` player in that seat would have claimed the
set (its team holds it for certain, or its claim rule fires on its turn). Each ask is compared
with what `belief` would have asked in the asker's seat at that moment (with the groups' house
rules: claims at any time and asking for a card you hold). Events are numbered from 1 (event
k is on line k + 1 of the record).

"""

if __name__ == "__main__":
    sys.exit(main())
