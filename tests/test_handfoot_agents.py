"""Hand and Foot players: every action any agent returns is legal, the re-deal test (an
agent's action does not change when the cards it cannot see are dealt differently), the
facts of the ``peer`` policy, and tournaments with partnerships as teams."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.errors import IllegalAction
from cardmind.games.handfoot import Answer, AskOut, Discard, Draw, Meld, TakePile
from cardmind.games.handfoot.plan import BookNeeds, down_plan
from cardmind.games.handfoot.rules import is_wild
from tests.hf_helpers import GAME, play, state_with

AGENTS = ["random", "peer", "belief"]


def agents_available() -> list[str]:
    from cardmind.agents import agent_names
    return [a for a in AGENTS if a in agent_names("handfoot")]


@pytest.mark.parametrize("options", [{"hands": 1}, {"players": 6, "hands": 1},
                                     {"players": 3, "cutthroat": True, "hands": 1},
                                     {"hands": 1, "out_by_laying": True}])
def test_every_action_any_agent_returns_is_legal(options):
    """The referee loop forfeits a seat that returns an illegal action: no game may forfeit."""
    names = agents_available()
    n = GAME.num_seats(GAME.parse_options(options))
    for k, (a, b) in enumerate([(x, y) for x in names for y in names if x != y]):
        classes = [resolve_agent(a if s % 2 == 0 else b, GAME) for s in range(n)]
        mr = play_game(GAME, options, classes, np.random.default_rng(k), [np.random.default_rng([k, s]) for s in range(n)])
        assert mr.forfeit is None, mr.forfeit_reason
        assert mr.result is not None and len(mr.result.detail["hands"]) == GAME.parse_options(options)["hands"]


# ---------------------------------------------------------------------------- re-deal
def _played(seed: int, names: list[str], options: dict, stop: int):
    """A game's deal and the first ``stop`` actions (seat, action) of agents ``names``."""
    rng = np.random.default_rng(seed)
    state, header = GAME.initial_state(options, rng)
    n = state.num_seats
    agents = [resolve_agent(names[s % len(names)], GAME)(GAME, s, state.options, GAME.observer_header(header, s))
              for s in range(n)]
    rngs = [np.random.default_rng([seed, s]) for s in range(n)]
    actions = []
    while not state.is_over() and len(actions) < stop:
        s = state.to_move()
        a = agents[s].act(rngs[s])
        actions.append((s, a))
        for ev in state.apply_action(a):
            for t in range(n):
                agents[t].observe(state.redact(ev, t))
    return header, actions, state


def _replay(header: dict, actions) -> tuple | None:
    st = GAME.new_state(header["options"], header)
    events = []
    try:
        for _, a in actions:
            events.extend(st.apply_action(a))
    except IllegalAction:
        return None
    return st, events


def _hidden_swaps(header: dict, seat: int, actions, rng: np.random.Generator, tries: int = 150) -> dict:
    """A different deal that ``seat`` cannot tell from ``header`` after ``actions``: random swaps
    of two cards among the other seats' hands and feet and the stock, kept when the actions
    stay legal and every event reads the same for ``seat``."""
    base = _replay(header, actions)
    assert base is not None
    want = [base[0].redact(e, seat) for e in base[1]]
    h = json.loads(json.dumps(header))
    places = [("hands", s, i) for s in range(len(h["hands"])) if s != seat for i in range(len(h["hands"][s]))]
    places += [("feet", s, i) for s in range(len(h["feet"])) for i in range(len(h["feet"][s]))]
    places += [("stock", None, i) for i in range(len(h["stock"]))]

    def get(p):
        return h[p[0]][p[2]] if p[0] == "stock" else h[p[0]][p[1]][p[2]]

    def put(p, c):
        if p[0] == "stock":
            h[p[0]][p[2]] = c
        else:
            h[p[0]][p[1]][p[2]] = c

    changed = 0
    for _ in range(tries):
        p, q = (places[int(i)] for i in rng.choice(len(places), 2, replace=False))
        a, b = get(p), get(q)
        if a == b:
            continue
        put(p, b)
        put(q, a)
        got = _replay(h, actions)
        if got is not None and [got[0].redact(e, seat) for e in got[1]] == want:
            changed += 1
            continue
        put(p, a)
        put(q, b)
    assert changed > 5
    return h


@pytest.mark.parametrize("name", AGENTS)
def test_redeal_does_not_change_the_action(name):
    """At several decisions, the seat's action is the same in a world whose cards it cannot see
    are dealt differently (its view is the same; so must be its action)."""
    if name not in agents_available():
        pytest.skip(f"no {name} agent yet")
    options = {"hands": 1}
    for seed, stop in ((3, 30), (4, 75), (5, 140)):
        header, actions, state = _played(seed, [name, "peer"], options, stop)
        if state.is_over():
            continue
        seat = state.to_move()
        other = _hidden_swaps(header, seat, actions, np.random.default_rng(seed))
        assert other != header
        decisions = []
        for h in (header, other):
            st, events = _replay(h, actions)
            agent = resolve_agent(name, GAME)(GAME, seat, st.options, GAME.observer_header(h, seat))
            for ev in events:
                agent.observe(st.redact(ev, seat))
            decisions.append(agent.act(np.random.default_rng(99)))
        assert decisions[0] == decisions[1]


# ---------------------------------------------------------------------------- the peer's policy
def peer(state, seat):
    agent = resolve_agent("peer", GAME)(GAME, seat, state.options, {"observer": seat, "hand": state.dealt[0][seat]})
    agent.state = state.view(seat)
    return agent


def test_peer_opens_as_soon_as_it_reaches_the_minimum():
    # 3 kings (30) + a joker (50): 80, enough for 50; wilds are spent only while short
    s = state_with({"hands": 1}, hands={0: ["KC", "KD", "KH", "RJ", "BJ", "4C", "5D", "6H", "7S", "8C", "9D"]})
    play(s, [Draw(0)])
    a = peer(s, 0).act(np.random.default_rng(0))
    assert isinstance(a, Meld) and sorted(a.cards) == ["BJ", "KC", "KD", "KH"] or \
        isinstance(a, Meld) and sorted(a.cards) == ["KC", "KD", "KH", "RJ"]
    assert sum(is_wild(c) for c in a.cards) == 1     # one wild reaches 80: the second stays in hand
    # short of the minimum it does not open
    t = state_with({"hands": 1}, hands={0: ["KC", "KD", "KH", "4C", "4D", "5D", "6H", "7S", "8C", "9D", "TD"]},
                   stock_front=["JC", "QC"])
    play(t, [Draw(0)])
    assert isinstance(peer(t, 0).act(np.random.default_rng(0)), Discard)


def test_peer_keeps_wilds_in_hand_and_off_clean_books():
    needs = BookNeeds(2, 2)
    s = state_with({"hands": 1}, hands={0: ["KC", "KD", "KH", "KS", "KC", "KD", "2C", "4C", "4D", "4H", "9S"]})
    play(s, [Draw(0), Meld(0, ("4C", "4D", "4H", "2C"))])
    s.opening = False
    groups = down_plan(s.zone[0], s.melds[0], False, needs)
    # six kings make a clean prospect: no wild goes on it while clean books are owed
    k = [g for g in groups if g.rank == "K"][0]
    assert k.wild == [] and len(k.nat) == 6


def test_peer_takes_the_pile_unless_it_holds_more_than_two_red_threes():
    from tests.test_handfoot_rules import pile_state
    s = pile_state("9H", ("9C", "9S"), True)
    agent = peer(s, 3)
    a = agent.act(np.random.default_rng(0))
    assert isinstance(a, TakePile)
    # three red threes among the seven cards: it draws instead
    agent = peer(s, 3)
    agent.state.pile[-5:-2] = ["3H", "3D", "3H"]     # (a test's shortcut: those cards on the pile)
    assert isinstance(agent.act(np.random.default_rng(0)), Draw)


def test_peer_asks_to_go_out_and_says_yes():
    from tests.test_handfoot_rules import in_foot_again
    s = in_foot_again()
    a = peer(s, 0).act(np.random.default_rng(0))
    assert a == AskOut(0)
    play(s, [a])
    assert peer(s, 2).act(np.random.default_rng(0)) == Answer(2, True)
    play(s, [Answer(2, True)])
    while not s.is_over():
        play(s, [peer(s, 0).act(np.random.default_rng(0))])
    end = [e for e in s.history if e["type"] == "hand_end"][0]
    assert end["reason"] == "out" and end["player"] == 0
    last = s.history[s.history.index(end) - 1]
    assert last["type"] == "discard" and last["player"] == 0      # going out ends with a discard


def test_peer_goes_out_by_laying_only_under_the_house_rule():
    """With ``out_by_laying`` the position of the test above goes out by laying every card
    (nine sixes, then three nines): no discard ends the hand."""
    from tests.test_handfoot_rules import in_foot_again
    s = in_foot_again(out_by_laying=True)
    play(s, [AskOut(0), Answer(2, True)])
    while not s.is_over():
        play(s, [peer(s, 0).act(np.random.default_rng(0))])
    end = [e for e in s.history if e["type"] == "hand_end"][0]
    assert end["reason"] == "out" and end["player"] == 0 and end["held"][0] == []
    last = [e for e in s.history[:s.history.index(end)] if e["type"] != "book"][-1]
    assert last["type"] in ("meld", "lay_off") and last["player"] == 0


@pytest.mark.parametrize("options", [{}, {"out_by_laying": True}])
def test_peer_and_belief_go_out_and_every_going_out_follows_the_option(options):
    """Whole games of ``peer`` against ``belief``: hands end by going out, and each going out
    ends with a discard by default; under ``out_by_laying`` the players may lay the last card."""
    opts = {"hands": 2, "books_clean": 1, "books_dirty": 1, "pile_min": 5, "hand_size": 7, **options}
    outs = lays = 0
    for k in range(3):
        classes = [resolve_agent("peer" if s % 2 == k % 2 else "belief", GAME) for s in range(4)]
        mr = play_game(GAME, opts, classes, np.random.default_rng(100 + k),
                       [np.random.default_rng([100 + k, s]) for s in range(4)])
        assert mr.forfeit is None, mr.forfeit_reason
        evs = mr.record.events
        for i, e in enumerate(evs):
            if e["type"] == "hand_end" and e["reason"] == "out":
                outs += 1
                last = [x for x in evs[:i] if x["type"] != "book"][-1]
                assert last["player"] == e["player"]
                if last["type"] != "discard":
                    lays += 1
    assert outs >= 3
    if not options:
        assert lays == 0


def test_tournament_seats_partnerships_as_teams(tmp_path):
    from cardmind.tournament import run_tournament
    summary = run_tournament("handfoot", ["peer", "random"], games=2, out_dir=tmp_path / "t",
                             options={"hands": 1}, quiet=True)
    lines = [json.loads(x) for x in (tmp_path / "t" / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        seats = line["seats"]
        assert seats[0] == seats[2] and seats[1] == seats[3] and seats[0] != seats[1]
        assert line["outcome"][0] == line["outcome"][2] and line["forfeit"] is None
    assert summary["schedule"]["seat_teams"] == [0, 1, 0, 1] if "schedule" in summary else True
