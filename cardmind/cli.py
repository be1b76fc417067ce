"""The ``cardmind`` command: a thin layer over the library.

Subcommands::

    cardmind hint RECORD [--seat N] [--upto LINE] [--json] [--verbose] [--asks K]
    cardmind belief RECORD [--seat N] [--upto LINE] [--json] [--verbose]
    cardmind validate RECORD [--seat N]
    cardmind engine [--allow-agent-import] [--max-sessions N]
    cardmind serve [--host HOST] [--port PORT] [--save-dir DIR]

Errors on bad input print ``cardmind: error: file:line: reason`` on stderr and exit with
status 2; nothing is printed on stdout then.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rich.console import Console

from . import __version__
from .errors import CardmindError, Contradiction, OptionError, RecordError



def _positive_int(text: str) -> int:
    """argparse type: an integer of 1 or more."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {v}")
    return v


def _add_record_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a cardmind-record/1 file (.jsonl)")
    p.add_argument("--seat", type=int, default=None,
                   help="whose view to take (required for a complete record; defaults to the record's observer)")
    p.add_argument("--upto", type=int, default=None, metavar="LINE",
                   help="use the record up to and including file line LINE (the header is line 1)")


def _add_game_args(p: argparse.ArgumentParser) -> None:
    """The options of ``hint`` and ``belief`` that some games bring (``Game.cli_options``);
    an option two games share is added once. ``--model`` chooses the player model of games
    that have several (``Game.player_models``)."""
    from .core import game_names, get_game  # noqa: PLC0415

    p.add_argument("--model", default=None, metavar="NAME",
                   help="the player model that weighs the consistent deals (games with player models; "
                        "the output names the model used; default: the game's first)")
    seen: set[str] = set()
    for name in game_names():
        for opt in get_game(name).cli_options:
            if opt.flag in seen:
                continue
            seen.add(opt.flag)
            if opt.switch:
                p.add_argument(opt.flag, dest=f"game_{opt.dest}", action="store_const", const=True, default=None,
                               help=opt.help)
            else:
                p.add_argument(opt.flag, dest=f"game_{opt.dest}", type=opt.type, default=None, metavar=opt.metavar,
                               help=opt.help)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``cardmind`` command."""
    parser = argparse.ArgumentParser(
        prog="cardmind",
        description="Exact belief tracking, advice and AI players for hidden-card games.")
    parser.add_argument("--version", action="version", version=f"cardmind {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("hint", help="advice for a player: claims, asks and the belief table")
    _add_record_args(p)
    p.add_argument("--json", action="store_true", help="print the advice as one JSON object (docs/hints.md)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also show the technical detail: the number of consistent deals and how it was "
                        "counted, every claim however unlikely")
    p.add_argument("--asks", type=_positive_int, default=10, metavar="K", help="how many asks to show (1 or more; default 10)")
    p.add_argument("--no-table", action="store_true", help="leave out the belief table")
    _add_game_args(p)

    p = sub.add_parser("belief", help="the exact posterior: consistent deals, card marginals, claim odds")
    _add_record_args(p)
    p.add_argument("--json", action="store_true",
                   help="print the belief object (same keys as the shared .expected.json cases)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also show how the consistent deals were counted")
    _add_game_args(p)

    p = sub.add_parser("validate", help="check a record: format, rules and (for a player's record) consistency")
    p.add_argument("record")
    p.add_argument("--seat", type=int, default=None, help="also check the view of this seat")

    from .advise.app import add_advise_args  # noqa: PLC0415

    p = sub.add_parser("advise", help="advice during a live game: type each event in one short line",
                       description="Follow a game as it is played from your seat: type each event in one short "
                                   "line (the game's notation: 'help' in the session lists it) and see the advice "
                                   "after every event. Every event is saved to the record file at once; "
                                   "--resume FILE continues a game.")
    add_advise_args(p)
    _add_game_args(p)

    from .protocol.engine import add_engine_args  # noqa: PLC0415

    p = sub.add_parser("engine", help="the engine protocol: JSON Lines on stdin/stdout for frontends (docs/protocol.md)",
                       description="Serve the cardmind engine protocol (cardmind-engine/1): one JSON request per "
                                   "line on stdin, one JSON reply per line on stdout. See docs/protocol.md.")
    add_engine_args(p)

    p = sub.add_parser("serve", help="the web pages (play, at the table, review) and the engine over WebSocket",
                       description="Start a local web server: the pages to play against cardmind's players, get "
                                   "advice at a real table and review records, and the engine protocol over "
                                   "WebSocket at /engine. Needs the web extra: pip install 'cardmind[web]'. "
                                   "See docs/serve.md.")
    _add_serve_args(p)

    from .tournament.cli import add_parser as add_tournament_parser  # noqa: PLC0415

    add_tournament_parser(sub)

    return parser


def _add_serve_args(p: argparse.ArgumentParser) -> None:
    """The options of ``cardmind serve`` (the defaults are repeated here so that the help
    works without the ``web`` extra)."""
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; another address "
                        "lets other machines connect)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0 picks a free one)")
    p.add_argument("--save-dir", default=None, metavar="DIR",
                   help="the folder of games saved from the pages (default ~/.local/share/cardmind/games)")
    p.add_argument("--max-connections", type=_positive_int, default=16, metavar="N",
                   help="WebSocket connections open at once (default 16)")
    p.add_argument("--max-sessions", type=_positive_int, default=64, metavar="N",
                   help="engine sessions per connection (default 64)")


def cmd_serve(args: argparse.Namespace) -> int:
    """``cardmind serve``: exit 2 with a one-line error when the ``web`` extra is missing."""
    from .serve import MISSING_EXTRA  # noqa: PLC0415

    try:
        from .serve.app import is_local, run  # noqa: PLC0415
    except ImportError:
        print(f"cardmind: error: {MISSING_EXTRA}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"cardmind: error: --port must be 0 to 65535, not {args.port}", file=sys.stderr)
        return 2
    if not is_local(args.host):
        print(f"cardmind: warning: listening on {args.host}: other machines can reach this server and play, "
              f"and save games to its folder; there is no login", file=sys.stderr)
    try:
        return run(host=args.host, port=args.port, save_dir=args.save_dir,
                   max_connections=args.max_connections, max_sessions=args.max_sessions)
    except OSError as exc:   # the port is taken, the address is not this machine's
        print(f"cardmind: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def _earlier_contradiction(args: argparse.Namespace, exc: RecordError) -> RecordError:
    """The error to report for a record rejected at ``exc.line``: an earlier event after which
    no deal was consistent with the view, if there is one (the first problem of the record),
    else ``exc`` itself."""
    from .belief import check_record  # noqa: PLC0415
    from .records import read_record  # noqa: PLC0415

    if exc.line is None or exc.line <= 2:
        return exc
    try:
        prefix = read_record(args.record, upto=exc.line - 1)
        seat = prefix.observer if args.seat is None else args.seat
        if seat is None:
            return exc
        check_record(prefix, seat)
    except RecordError as earlier:
        return earlier if earlier.line is not None and earlier.line < exc.line else exc
    except Exception:  # noqa: BLE001 - the rule error stands
        return exc
    return exc


def _load(args: argparse.Namespace):
    from .belief import check_record, tracker_for, view_seat  # noqa: PLC0415
    from .records import read_record  # noqa: PLC0415

    if args.upto is not None and args.upto < 1:
        raise RecordError(args.record, None, f"--upto must be a line number (1 or more), not {args.upto}")
    try:
        rec = read_record(args.record, upto=args.upto)
    except RecordError as exc:
        raise _earlier_contradiction(args, exc) from None
    seat = view_seat(rec, args.seat)
    status: list = []   # the spinner, once shown
    kwargs, unused = _tracker_kwargs(rec.game, args, progress=lambda msg: status and status[0].update(
        f"seat {seat}: {msg} ..."))
    try:
        tracker = tracker_for(rec, seat, **kwargs)
        # a spinner on a terminal's stderr only (nothing when piped): an answer can take a while
        with Console(stderr=True).status(f"seat {seat}: counting the consistent deals ...") as st:
            status.append(st)
            tracker.consistent_deals  # noqa: B018 - raises Contradiction when no deal fits
    except Contradiction:
        check_record(rec, seat)  # raises a RecordError naming the event
        raise
    for flag in unused:   # an option of another game: say so rather than ignore it silently
        why = ("it takes no sampling precision: its card probabilities are counted exactly"
               if tracker.exact else f"the {rec.game.title} belief takes no such option")
        print(f"cardmind: note: {flag} has no effect on this {rec.game.name} record: {why}", file=sys.stderr)
    return rec, tracker


def _tracker_kwargs(game, args: argparse.Namespace, progress=None) -> tuple[dict, list[str]]:
    """The tracker settings of ``game`` from the parsed ``--model`` and game options, and the
    flags given that belong to other games only.

    Raises:
        OptionError: a ``--model`` the game does not have.
    """
    values = {opt.dest: getattr(args, f"game_{opt.dest}", None) for opt in game.cli_options}
    own = {opt.dest for opt in game.cli_options}
    unused = [flag for dest, flag in _game_option_flags().items()
              if dest not in own and getattr(args, f"game_{dest}", None) is not None]
    kwargs = game.tracker_settings(values, progress=progress)
    model = getattr(args, "model", None)
    if model is not None:
        models = game.player_models()
        if model not in models:
            raise OptionError(f"--model {model}: the {game.name} belief has "
                              + (f"the player models {', '.join(models)}" if models else "no player models"))
        kwargs["model"] = model
    return kwargs, unused


def _game_option_flags() -> dict[str, str]:
    """``{dest: flag}`` of every game's ``hint``/``belief`` options (``Game.cli_options``)."""
    from .core import game_names, get_game  # noqa: PLC0415

    return {opt.dest: opt.flag for name in game_names() for opt in get_game(name).cli_options}


def cmd_belief(args: argparse.Namespace) -> int:
    """``cardmind belief``."""
    rec, tracker = _load(args)
    obj = tracker.to_json()
    if args.json:
        print(json.dumps(obj, indent=1, sort_keys=True))
        return 0
    from .hints import hint_for  # noqa: PLC0415
    from .hints.render import render_hint  # noqa: PLC0415

    render_hint(hint_for(tracker), rec, tables_only=True, verbose=args.verbose)
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    """``cardmind hint``."""
    from .hints import hint_for  # noqa: PLC0415
    from .hints.render import render_hint  # noqa: PLC0415

    rec, tracker = _load(args)
    declared = {p.name for p in rec.game.hint_params}
    hint = hint_for(tracker, **({"max_asks": max(0, args.asks)} if "max_asks" in declared else {}))
    if args.json:
        print(json.dumps(hint.to_json(), indent=1))
        return 0
    render_hint(hint, rec, show_table=not args.no_table, verbose=args.verbose)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """``cardmind validate``: exit 0 and print a summary when the record is good."""
    from .belief import check_record  # noqa: PLC0415
    from .records import read_record  # noqa: PLC0415

    try:
        rec = read_record(args.record)
    except RecordError as exc:
        raise _earlier_contradiction(args, exc) from None
    seats = [args.seat] if args.seat is not None else ([rec.observer] if rec.observer is not None else [])
    for s in seats:
        check_record(rec, s)
    kind = f"a complete {rec.game.name} record" if rec.is_complete else f"seat {rec.observer}'s {rec.game.name} record"
    seen = f"; consistent from seat {seats[0]}'s view" if seats else ""
    print(f"{args.record}: ok: {kind} with {len(rec.events)} events{seen}")
    return 0


def _dispatch(args: argparse.Namespace) -> int | None:
    if args.command == "hint":
        return cmd_hint(args)
    if args.command == "belief":
        return cmd_belief(args)
    if args.command == "validate":
        return cmd_validate(args)
    if args.command == "advise":
        from .advise.app import run_advise  # noqa: PLC0415

        return run_advise(args, lambda game: _tracker_kwargs(game, args)[0])
    if args.command == "engine":
        from .protocol.engine import run_engine  # noqa: PLC0415

        return run_engine(args)
    if args.command == "serve":
        return cmd_serve(args)
    if args.command == "tournament":
        from .tournament.cli import run as cmd_tournament  # noqa: PLC0415

        return cmd_tournament(args)
    return None


def _quiet_stdout() -> None:
    """Point the standard output at the null device, so that the output still buffered is
    not written (and fails) again when the interpreter exits."""
    import os  # noqa: PLC0415

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _ignore_interrupts() -> None:
    """Ignore SIGINT from now on (in the main thread; elsewhere nothing changes)."""
    import signal  # noqa: PLC0415
    import threading  # noqa: PLC0415

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cardmind`` command; return the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:   # named with the command's own usage, not the top-level one
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        (sub.choices.get(args.command) or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if sys.stdout is None:
        print("cardmind: error: the standard output is closed: nothing could be written", file=sys.stderr)
        return 1
    try:
        status = _dispatch(args)
        if status is not None:
            sys.stdout.flush()   # a full disk shows here, not at exit
            return status
    except CardmindError as exc:
        print(f"cardmind: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else "cannot write the output: "
        print(f"cardmind: error: {where}{exc.strerror or exc}", file=sys.stderr)
        _quiet_stdout()
        return 1
    except KeyboardInterrupt:
        _ignore_interrupts()   # the command is ending: a second Ctrl-C must not print a traceback
        print("cardmind: interrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
