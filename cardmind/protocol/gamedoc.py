"""The per-game part of ``docs/protocol.md``, generated from the registered games so that it
cannot drift: every game's actions and events, each with a real request and reply.

``python -m cardmind.protocol.gamedoc`` prints the section; ``--write`` replaces it in
``docs/protocol.md`` (between ``<!-- gamedoc:begin -->`` and ``<!-- gamedoc:end -->``);
``--check`` exits with status 1 when the file differs from what the code makes now (the docs
tests run the same comparison).

How the section is made (no game is named here; everything is asked of the
:class:`~cardmind.core.Game` and of engine sessions):

* For each registered game, seeded games are played through an in-process
  :class:`~cardmind.protocol.engine.Engine`, as a frontend plays them: a referee session deals
  (``new`` with ``role: referee`` and a seed), one player session per seat whose agent
  chooses (``act``, and ``react`` for seats offered an out-of-turn action), the referee
  resolves each action (``apply``), and every event is passed to every player session as
  that seat sees it (``event``, with the referee's ``redacted`` view).
* The first ``apply`` of each action type, and the first ``event`` of each event type (sent
  to the first seat whose view of it hides something, so that a hidden card shows as
  ``null``; else to the seat after the one who acted), are quoted as they were sent and
  answered (``id`` left out).
* The games are played with :data:`AGENTS` (the built-in players) on :data:`SEEDS`, first
  with the game's default options, then with each boolean option that is off by default
  turned on (for event types that only such an option makes), until every event type of
  :meth:`~cardmind.core.Game.event_schema` has an example (a game is left there) or
  :data:`MAX_GAMES` games were played. The player sessions check events against the rules
  only (``check: false``), which is faster. An action type is listed when a player chose it, or when the ``legal`` list of
  the seat to move offered it (checked every :data:`LEGAL_EVERY` actions).
* The ``view`` example is the table as seat 1 sees it where the first game played stopped
  (at its end, or once every event type had an example).
* The action table says which event types ``apply`` made of each action type: the action
  and the event it makes need not share a name (a ``take_pile`` action makes a ``pickup``
  event), so a frontend that reads the events must use the event's name.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import Game, game_names, get_game
from .client import EngineClient
from .engine import dumps

#: agent names tried per game, in order (each seat of a game plays the same one)
AGENTS = ("peer", "random")
#: deal seeds tried per game and option set
SEEDS = (0, 1)
#: games played per game at most while looking for every event type
MAX_GAMES = 12
#: actions per game at most (a game still running then is abandoned)
MAX_ACTIONS = 4000
#: how often (in actions) the seat to move's ``legal`` list is read for action types
LEGAL_EVERY = 50
BEGIN = "<!-- gamedoc:begin -->"
END = "<!-- gamedoc:end -->"
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@dataclass
class Example:
    """One request and its reply, as JSON objects (no ``id``)."""

    request: dict
    reply: dict

    def lines(self) -> list[str]:
        """``> request`` and ``< reply`` lines, as a frontend sends and reads them."""
        reply = {k: v for k, v in self.reply.items() if k != "id"}
        return [f"> {dumps(self.request)}", f"< {dumps(reply)}"]


@dataclass
class GameExamples:
    """What playing a game through the engine showed.

    Attributes:
        name, title: the game.
        options: the options of the game that gave each example (``{}``: the defaults).
        actions: action type -> its first ``apply`` example.
        action_options: action type -> the options its example was played with.
        makes: action type -> the event types ``apply`` made of it (in the order first seen).
        offered: action types seen only in ``legal`` lists -> one such action.
        events: event type -> its first ``event`` example.
        event_options: event type -> the options its example was played with.
        games: seeded games played.
        view: the ``view`` of one seat where the first game played stopped, or ``None``.
    """

    name: str
    title: str
    actions: dict[str, Example] = field(default_factory=dict)
    action_options: dict[str, dict] = field(default_factory=dict)
    makes: dict[str, list[str]] = field(default_factory=dict)
    offered: dict[str, dict] = field(default_factory=dict)
    events: dict[str, Example] = field(default_factory=dict)
    event_options: dict[str, dict] = field(default_factory=dict)
    games: int = 0
    view: Example | None = None


def _option_sets(game: Game) -> list[dict]:
    """The default options, then each boolean option that is off by default turned on."""
    sets: list[dict] = [{}]
    for spec in game.option_specs:
        if spec.default is False:
            try:
                game.parse_options({spec.name: True})
            except Exception:  # noqa: BLE001 - an option that needs others with it: skip
                continue
            sets.append({spec.name: True})
    return sets


def _play(client: EngineClient, game: Game, options: dict, seed: int, agent: str, ex: GameExamples) -> None:
    """Play one game through engine sessions, keeping the first example of every type; stop
    once every event type has one."""
    wanted = set(game.event_schema())
    req = lambda cmd, **kw: ({"cmd": cmd, **kw}, client.request(cmd, **kw))  # noqa: E731
    ref = client.request("new", session="ref", game=game.name, role="referee", seed=seed, options=options)
    header, n = ref["header"], ref["seats"]
    parsed = ref["options"]
    sessions = []
    for s in range(n):
        seat_header = game.observer_header(header, s)
        extra = {k: v for k, v in seat_header.items() if k not in ("observer", "hand")}
        fields: dict[str, Any] = {"session": f"seat{s}", "game": game.name, "options": parsed, "seat": s,
                                  "hand": seat_header["hand"], "agent": agent, "seed": s, "check": False}
        if extra:
            fields["header"] = extra
        sessions.append(client.request("new", **fields)["session"])

    def resolve(seat: int, action: dict) -> dict:
        request, reply = req("apply", session="ref", action=action)
        kind = action["type"]
        if kind not in ex.actions:
            ex.actions[kind] = Example(request, reply)
            ex.action_options[kind] = options
            ex.offered.pop(kind, None)
        made = ex.makes.setdefault(kind, [])
        for e in reply["events"]:
            if e["type"] not in made:
                made.append(e["type"])
        if reply.get("notice") is not None:
            for s in range(n):
                client.request("notice", session=sessions[s], notice=reply["notice"])
        for i, e in enumerate(reply["events"]):
            views = [reply["redacted"].get(str(s), reply["events"])[i] for s in range(n)]
            # quote a seat that sees less than the complete event, if any: it shows what is hidden
            watcher = next((s for s in range(n) if views[s] != e), (seat + 1) % n)
            for s in range(n):
                view = views[s]
                request, answer = req("event", session=sessions[s], event=view)
                if s == watcher and view["type"] not in ex.events:
                    ex.events[view["type"]] = Example(request, answer)
                    ex.event_options[view["type"]] = options
        return reply

    status = ref
    actions = 0
    try:
        while not status["over"] and actions < MAX_ACTIONS and not wanted <= set(ex.events):
            seat = status["to_move"]
            if actions % LEGAL_EVERY == 0:
                for a in client.request("legal", session="ref", seat=seat)["actions"]:
                    if a["type"] not in ex.actions and a["type"] not in ex.offered:
                        ex.offered[a["type"]] = a
            status = resolve(seat, client.request("act", session=sessions[seat])["action"])
            actions += 1
            while not status["over"]:
                for s in status["actors"][1:]:
                    action = client.request("react", session=sessions[s])["action"]
                    if action is not None:
                        status = resolve(s, action)
                        break
                else:
                    break
        if ex.view is None:
            ex.view = Example(*req("view", session=sessions[1 % n]))
    finally:
        for sid in ["ref", *sessions]:
            client.request("close", session=sid)
    ex.games += 1


def examples(game: Game | str) -> GameExamples:
    """Play seeded games of ``game`` through an in-process engine (see the module docstring)
    and return the examples found (computed once per game and process: do not change them).
    Deterministic: the same code gives the same examples."""
    return _examples(game if isinstance(game, Game) else get_game(game))


@functools.cache
def _examples(g: Game) -> GameExamples:
    ex = GameExamples(g.name, g.title)
    wanted = set(g.event_schema())
    client = EngineClient()
    for options in _option_sets(g):
        for agent in AGENTS:
            for seed in SEEDS:
                if wanted <= set(ex.events) or ex.games >= MAX_GAMES:
                    return ex
                try:
                    _play(client, g, options, seed, agent, ex)
                except Exception:  # noqa: BLE001 - an agent the game lacks, a game that fails: next
                    ex.games += 1
    return ex


def _keys(obj: Mapping) -> str:
    return ", ".join(f"`{k}`" for k in obj if k != "type") or "(none)"


def _opts(options: dict) -> str:
    return "" if not options else f" (with `{json.dumps(options)}`)"


_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]*\.)?([^`]+)`")


def _first_sentence(doc: str | None) -> str:
    """The first sentence of a docstring, in Markdown (reST roles and double backquotes made plain)."""
    if not doc:
        return ""
    text = " ".join(doc.strip().split("\n\n")[0].split())
    text = _ROLE.sub(lambda m: f"`{m.group(1)}`", text).replace("``", "`")
    quoted = False
    for i, ch in enumerate(text):   # cut at the first ". ", ": " or "; " outside backquotes
        quoted ^= ch == "`"
        if not quoted and ch in ".:;" and (i + 1 == len(text) or text[i + 1] == " "):
            text = text[:i] + "."
            break
    return text.replace("|", "\\|")


def game_section(game: Game | str) -> str:
    """The Markdown section of one game (see the module docstring)."""
    g = game if isinstance(game, Game) else get_game(game)
    ex = examples(g)
    schema = g.event_schema()
    out = [f"### `{g.name}`: {g.title}", ""]
    out += ["Actions (what `act` and `react` return; what `apply` and `check` take):", "",
            "| action `type` | keys | what it is | events `apply` made of it |", "| --- | --- | --- | --- |"]
    for kind in sorted(set(ex.actions) | set(ex.offered)):
        obj = ex.actions[kind].request["action"] if kind in ex.actions else ex.offered[kind]
        try:
            what = _first_sentence(type(g.action_from_json(obj)).__doc__)
        except ValueError:
            what = ""
        made = ex.makes.get(kind)
        made_text = ", ".join(f"`{t}`" for t in made) if made else "(not applied in the games played)"
        if made and kind not in made:
            made_text += f" (**not** `{kind}`)"
        out.append(f"| `{kind}` | {_keys(obj)} | {what} | {made_text} |")
    out += ["", "Events (what `event` takes and `apply` returns; keys and kinds as `hello`'s `events` lists them, "
            "`?` optional):", "", "| event `type` | keys and kinds |", "| --- | --- |"]
    for kind, keys in schema.items():
        out.append(f"| `{kind}` | " + ", ".join(f"`{k}`: {v}" for k, v in keys.items()) + " |")
    out += ["", f"<details><summary>A real request and reply for each {g.name} action and event</summary>", ""]
    for kind in sorted(ex.actions):
        out += [f"`apply`, action `{kind}`{_opts(ex.action_options[kind])}:", "", "```", *ex.actions[kind].lines(),
                "```", ""]
    for kind in schema:
        if kind in ex.events:
            out += [f"`event`, event `{kind}`{_opts(ex.event_options[kind])}:", "", "```",
                    *ex.events[kind].lines(), "```", ""]
    if ex.view is not None:
        out += [f"`view` of seat {ex.view.reply['view']['seat']} where the first game played stopped (the "
                f"table as that seat sees it):", "", "```", *ex.view.lines(), "```", ""]
    missing = [k for k in schema if k not in ex.events]
    if missing:
        out += [f"No example of {', '.join(f'`{k}`' for k in missing)}: "
                f"{'it' if len(missing) == 1 else 'they'} did not occur in the {ex.games} seeded games played.", ""]
    out += ["</details>", ""]
    return "\n".join(out)


def section() -> str:
    """The whole generated section: one part per registered game, in name order."""
    intro = ("Generated by `python -m cardmind.protocol.gamedoc` from the registered games (do not edit by "
             "hand: `--write` updates it, and the docs tests check it): the requests and replies are real, "
             "from seeded games played through the engine by the built-in players, a referee session "
             "`ref` and one player session per seat (`seat0`, `seat1`, ...). Each `event` example is sent "
             "to a seat whose view hides part of the event where there is one (a hidden card is `null`), "
             "else to the seat after the one who acted. The `id` is left out.")
    return "\n".join([intro, "", *(game_section(name) for name in game_names())]).rstrip("\n") + "\n"


def splice(text: str, generated: str) -> str:
    """``text`` with the part between :data:`BEGIN` and :data:`END` replaced by ``generated``.

    Raises:
        ValueError: the markers are missing.
    """
    try:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
    except ValueError:
        raise ValueError(f"docs/protocol.md has no {BEGIN} ... {END} part") from None
    return f"{head}{BEGIN}\n{generated}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m cardmind.protocol.gamedoc",
                                     description="Print (or write, or check) the per-game part of docs/protocol.md.")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="replace the part in docs/protocol.md")
    mode.add_argument("--check", action="store_true", help="exit with status 1 when docs/protocol.md is stale")
    parser.add_argument("--doc", type=Path, default=DOC, help="the file (default: docs/protocol.md)")
    args = parser.parse_args(argv)
    generated = section()
    if not (args.write or args.check):
        sys.stdout.write(generated)
        return 0
    text = args.doc.read_text(encoding="utf-8")
    new = splice(text, generated)
    if args.check:
        if new != text:
            print(f"{args.doc}: the per-game part is stale; run python -m cardmind.protocol.gamedoc --write",
                  file=sys.stderr)
            return 1
        return 0
    args.doc.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
