"""The docs runner: every command shown in ``README.md`` and ``docs/*.md`` runs, and the output
a doc quotes is checked or marked as an example run ("docs that cannot drift").

``tests/test_docs.py`` runs it under pytest; ``python tests/docs_runner.py [FILE ...]`` runs
it alone (``--list`` only lists the blocks and what the runner does with each).

What a doc author must do
-------------------------

* **Every fenced ``sh``/``bash``/``shell`` and ``python``/``py`` block is run** (nothing to
  opt in). Shell blocks run with ``bash -euo pipefail`` (a failing command fails the block;
  show an expected failure as ``cmd || echo "exit status $?"``). Python blocks of one file
  run in order in one interpreter, so a later block may use the names an earlier one
  defined, as in a Python session. ``python`` and ``cardmind`` are the ones of the
  interpreter running the tests.
* **Where it runs.** Each file's blocks run in order in a scratch copy of the repository
  (the files git tracks or would track, :func:`copy_repository`; the package ``cardmind/``
  itself is a link to the one under test) next to a link named ``shared`` to the real
  ``../shared``, so relative paths such as ``examples/literature-6p.jsonl`` and
  ``../shared/records/...`` work and whatever a block writes (``--out runs/x``, records,
  ``tournaments/``) lands in the copy, never in the repository. Write outputs to relative
  paths: a run block that names ``/tmp/`` fails (the runner could not clean it up, and a
  second run would find the folder taken). ``TMPDIR`` points into the scratch folder. Stdin
  is empty.
* **Too slow, needs the network or installs something?** Put
  ``<!-- docs:skip REASON -->`` on the line just before the opening fence, with the reason
  (it is required). Every skipped block is listed with its reason at the end of the test
  run ("docs blocks not run"). Each block must finish in :data:`TIMEOUT` seconds (120 unless
  ``CARDMIND_DOCS_TIMEOUT`` says otherwise); keep the whole file's blocks to seconds.
* **Quoted output** goes in a ``text`` fence. It is either **checked**: a ``text`` block
  that follows a run block with nothing but blank lines between them is that block's
  expected output (stdout and stderr together), compared line by line after trailing
  spaces are dropped, where ``...`` stands for any text (also across lines), as in
  doctest's ELLIPSIS; or it is **an example run**, marked on the line just before its fence
  by ``<!-- docs:example YYYY-MM-DD COMMIT -->`` (the date and the commit it was run at), and
  not compared. An unmarked ``text`` block that follows no run block fails the check. Use a
  bare fence (no language) for anything else that is not run (usage synopses, formulas,
  diagrams, pseudo-code); ``json``, ``toml`` and other languages are not run either.
* **Optional extras.** A block that fails only because OpenSpiel, PettingZoo or Node.js is
  missing is skipped, unless ``CARDMIND_REQUIRE_EXTRAS`` is set (as CI does): then it fails.
* A marker that is not directly followed by a fence, a ``docs:skip`` without a reason, a
  ``docs:example`` without a valid date and commit, or a marker on a block of the wrong kind
  (``docs:skip`` on quoted output, ``docs:example`` on a run block) is an error.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import select
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: seconds a block may take
TIMEOUT = float(os.environ.get("CARDMIND_DOCS_TIMEOUT", "120"))
SHELL = {"sh", "bash", "shell"}
PYTHON = {"python", "py", "python3"}
OUTPUT = {"text"}
#: modules and commands of the optional extras (a block failing for want of one is skipped)
EXTRAS = {"pyspiel": "OpenSpiel", "open_spiel": "OpenSpiel", "pettingzoo": "PettingZoo",
          "gymnasium": "PettingZoo", "node": "Node.js"}
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
_MARKER = re.compile(r"^\s*<!--\s*docs:(?P<verb>[\w-]+)(?P<rest>.*?)-->\s*$")
_IGNORE = shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis", "build",
                                 "dist", "tournaments", "runs", "out", "*.tmp", ".venv", "venv", "cardmind")


def copy_repository(root: Path, dest: Path) -> None:
    """Copy the working tree at ``root`` to ``dest`` for the blocks to run in: the files git
    tracks or would track (``git ls-files --cached --others --exclude-standard``: new docs
    too, not ignored outputs, virtualenvs or caches), or without git everything but those.
    The package folder ``cardmind/`` is not copied but linked, so that ``python -m cardmind``
    run in the copy imports the very package under test, with its compiled extensions."""
    dest.mkdir(parents=True)
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                             capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
        files = [f for f in out.split("\0") if f and not f.startswith("cardmind/")]
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(root, dest, ignore=_IGNORE, symlinks=True, dirs_exist_ok=True)
    else:
        for rel in files:
            src = root / rel
            if not src.is_file():   # deleted in the working tree but still tracked
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target, follow_symlinks=False)
    if (root / "cardmind").is_dir():
        (dest / "cardmind").symlink_to(root / "cardmind", target_is_directory=True)


def doc_files(root: Path = ROOT) -> list[Path]:
    """``README.md`` and every ``docs/*.md``, found anew each run."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


@dataclass
class Block:
    """One fenced block of a doc.

    Attributes:
        path: the doc, relative to the repository (``docs/tournament.md``).
        line: the line of the opening fence (1-based).
        lang: the fence's language, lower case (``""`` for a bare fence).
        code: the block's text (the fence's indentation removed).
        marker: ``(verb, rest)`` of a ``<!-- docs:... -->`` line just before the fence, or ``None``.
        index: the block's position among the doc's blocks.
        expects: for a run block, the ``text`` block that is its expected output (or ``None``).
        problems: what is wrong with the block's markup (filled by :func:`parse_doc`).
    """

    path: str
    line: int
    lang: str
    code: str
    marker: tuple[str, str] | None
    index: int
    expects: "Block | None" = None
    follows_run: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        """``file:line`` of the opening fence."""
        return f"{self.path}:{self.line}"

    @property
    def kind(self) -> str:
        """``shell``, ``python``, ``output`` or ``other``."""
        if self.lang in SHELL:
            return "shell"
        if self.lang in PYTHON:
            return "python"
        if self.lang in OUTPUT:
            return "output"
        return "other"

    @property
    def runs(self) -> bool:
        """Whether the block is code the runner executes."""
        return self.kind in ("shell", "python")

    @property
    def skip_reason(self) -> str | None:
        """The reason of its ``docs:skip`` marker, if it has one."""
        if self.marker and self.marker[0] == "skip":
            return self.marker[1]
        return None

    @property
    def action(self) -> str:
        """What the runner does with the block, in words (``--list``)."""
        if self.problems:
            return "ERROR: " + "; ".join(self.problems)
        if self.kind == "output":
            return "example run " + self.marker[1] if self.marker else "checked output"
        if not self.runs:
            return "not run"
        if self.skip_reason is not None:
            return "skipped: " + self.skip_reason
        return "run" + (f", output checked against {self.expects.where}" if self.expects else "")


def parse_doc(path: Path, root: Path = ROOT) -> list[Block]:
    """The fenced blocks of one Markdown file, with their markers checked (see the module
    docstring); problems are recorded in each block's ``problems`` and, for markers that
    precede no fence, in a block of language ``"marker"``."""
    rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    strays: list[Block] = []
    i = 0
    last_end = -10
    last_block: Block | None = None
    while i < len(lines):
        m = _FENCE.match(lines[i])
        mk = _MARKER.match(lines[i])
        if mk and not (i + 1 < len(lines) and _FENCE.match(lines[i + 1])):
            stray = Block(rel, i + 1, "marker", lines[i], None, -1)
            stray.problems.append(f"the marker docs:{mk.group('verb')} is not on the line just before a fence")
            strays.append(stray)
        if not m:
            i += 1
            continue
        indent, fence, info = m.group("indent"), m.group("fence"), m.group("info").lower()
        body = []
        j = i + 1
        while j < len(lines):
            close = re.match(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$", lines[j])
            if close:
                break
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        prev = _MARKER.match(lines[i - 1]) if i > 0 else None
        marker = (prev.group("verb"), prev.group("rest").strip()) if prev else None
        block = Block(rel, i + 1, info, "\n".join(body) + ("\n" if body else ""), marker, len(blocks))
        between = lines[last_end + 1:i]
        block.follows_run = (last_block is not None and last_block.runs and last_block.skip_reason is None
                             and all(not x.strip() for x in between))
        if block.kind == "output" and block.follows_run and marker is None:
            last_block.expects = block
        _check_marker(block)
        blocks.append(block)
        last_block = block
        last_end = j
        i = j + 1
    return blocks + strays


def _check_marker(block: Block) -> None:
    if block.kind == "output" and block.marker is None and not block.follows_run:
        block.problems.append("quoted output (a text block) must follow the block that prints it (then it is "
                              "checked) or be marked <!-- docs:example YYYY-MM-DD COMMIT --> on the line before "
                              "its fence")
    if block.marker is None:
        return
    verb, rest = block.marker
    if verb == "skip":
        if not rest:
            block.problems.append("docs:skip needs a reason: <!-- docs:skip REASON -->")
        if not block.runs:
            block.problems.append(f"docs:skip on a {block.lang or 'bare'} block, which is not run anyway")
    elif verb == "example":
        m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})\s+([0-9a-f]{7,40})", rest)
        if not m:
            block.problems.append(f"docs:example needs a date and a commit: <!-- docs:example YYYY-MM-DD COMMIT "
                                  f"-->, not {rest!r}")
        else:
            try:
                day = datetime.date.fromisoformat(m.group(1))
            except ValueError:
                block.problems.append(f"docs:example: {m.group(1)} is not a date")
            else:
                if day > datetime.date.today() + datetime.timedelta(days=1):
                    block.problems.append(f"docs:example: {m.group(1)} is in the future")
        if block.kind != "output":
            block.problems.append("docs:example marks quoted output (a text block); a run block is checked by "
                                  "running it (mark it docs:skip REASON if it cannot run)")
    else:
        block.problems.append(f"unknown marker docs:{verb} (docs:skip REASON or docs:example DATE COMMIT)")


# ---------------------------------------------------------------------------- expected output
def output_matches(expected: str, got: str) -> bool:
    """Whether ``got`` is ``expected`` with ``...`` standing for any text (trailing spaces of
    each line and blank lines at either end ignored)."""
    def norm(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip("\n")

    parts = [re.escape(p) for p in norm(expected).split("...")]
    return re.fullmatch(".*?".join(parts), norm(got), re.S) is not None


# ---------------------------------------------------------------------------- running
#: the mark the live advisor (``cardmind advise``) prints before a refused line
REFUSAL = "\u2717"


class BlockFailed(AssertionError):
    """A block that failed: the message says where, what ran and what it printed."""


class ExtraMissing(Exception):
    """A block that failed for want of an optional extra (``EXTRAS``)."""


_DRIVER = r'''
import contextlib, io, json, os, sys, tempfile, traceback
proto = os.fdopen(os.dup(1), "w", buffering=1)
cmds = os.fdopen(os.dup(0), "r")
null = os.open(os.devnull, os.O_RDONLY)
os.dup2(null, 0)
sys.path.insert(0, os.getcwd())   # as in a Python session started in the repository
ns = {"__name__": "__main__"}
for line in cmds:
    req = json.loads(line)
    out = tempfile.TemporaryFile(mode="w+b")
    saved = os.dup(1), os.dup(2)
    sys.stdout.flush(); sys.stderr.flush()
    os.dup2(out.fileno(), 1); os.dup2(out.fileno(), 2)
    ok, missing = True, None
    try:
        code = compile("\n" * req["line"] + req["code"], req["file"], "exec")
        exec(code, ns)
    except SystemExit as exc:
        ok = exc.code in (None, 0)
        if not ok:
            print(f"SystemExit: {exc.code}", file=sys.stderr)
    except BaseException as exc:
        ok = False
        if isinstance(exc, ModuleNotFoundError):
            missing = exc.name
        traceback.print_exc()
    finally:
        sys.stdout.flush(); sys.stderr.flush()
        os.dup2(saved[0], 1); os.dup2(saved[1], 2)
        os.close(saved[0]); os.close(saved[1])
    out.seek(0)
    text = out.read().decode("utf-8", "replace")
    proto.write(json.dumps({"ok": ok, "output": text, "missing": missing}) + "\n")
'''


class DocRun:
    """The scratch copy of the repository where one doc's blocks run, in order, and the
    Python session its ``python`` blocks share."""

    def __init__(self, path: Path, scratch: Path, root: Path = ROOT):
        self.path = path
        self.scratch = scratch
        self.root = root
        self.repo = scratch / root.name
        self.proc: subprocess.Popen | None = None
        self.done: dict[int, BaseException | None] = {}
        copy_repository(root, self.repo)
        shared = root.parent / "shared"
        if shared.exists():
            (scratch / "shared").symlink_to(shared, target_is_directory=True)
        (scratch / "tmp").mkdir()
        bindir = str(Path(sys.executable).parent)
        self.env = dict(os.environ, TMPDIR=str(scratch / "tmp"), PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                        PYTHONDONTWRITEBYTECODE="1")
        self.env.pop("COLUMNS", None)
        self.env.pop("LINES", None)

    # -------------------------------------------------------------- shell
    def _shell(self, block: Block) -> str:
        try:
            proc = subprocess.run(["bash", "-euo", "pipefail", "-c", block.code], cwd=self.repo, env=self.env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout.decode("utf-8", "replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            raise BlockFailed(self._message(block, f"took longer than {TIMEOUT:g} s (make it faster, or mark it "
                                                   f"<!-- docs:skip REASON -->)", out)) from None
        if proc.returncode != 0:
            missing = _missing_extra(proc.stdout)
            if missing:
                raise ExtraMissing(missing)
            raise BlockFailed(self._message(block, f"failed (exit status {proc.returncode})", proc.stdout))
        return proc.stdout

    # -------------------------------------------------------------- python
    def _python(self, block: Block) -> str:
        if self.proc is None:
            driver = self.scratch / "_docs_driver.py"
            driver.write_text(_DRIVER, encoding="utf-8")
            self.proc = subprocess.Popen([sys.executable, str(driver)], cwd=self.repo, env=self.env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"code": block.code, "file": block.path, "line": block.line}) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        if not ready:
            self.close()
            raise BlockFailed(self._message(block, f"took longer than {TIMEOUT:g} s (make it faster, or mark it "
                                                   f"<!-- docs:skip REASON -->)", ""))
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            raise BlockFailed(self._message(block, "ended the Python session (it exited or crashed)", ""))
        res = json.loads(line)
        if not res["ok"]:
            if res["missing"] and res["missing"].split(".")[0] in EXTRAS:
                raise ExtraMissing(res["missing"])
            raise BlockFailed(self._message(block, "raised", res["output"]))
        return res["output"]

    # -------------------------------------------------------------- both
    def run(self, blocks: list[Block], upto: Block) -> None:
        """Run every not yet run block of the doc up to ``upto`` (in order), then ``upto``.

        Raises:
            BlockFailed: ``upto`` (or an earlier block it may depend on) failed, or its
                output differs from the quoted output.
            ExtraMissing: it failed for want of an optional extra.
        """
        for b in blocks:
            if b.index > upto.index:
                break
            if not b.runs or b.skip_reason is not None or b.problems:
                continue
            if b.index not in self.done:
                self.done[b.index] = self._run_one(b)
            err = self.done[b.index]
            if err is not None:
                if b is upto:
                    raise err
                if isinstance(err, BlockFailed):
                    raise BlockFailed(f"{upto.where}: not run: the earlier block {b.where} failed")

    def _run_one(self, block: Block) -> BaseException | None:
        bad = re.search(r"(?<![\w.])/tmp/", block.code)
        if bad:
            return BlockFailed(f"{block.where}: the block writes or reads /tmp/: use a relative path (the block runs "
                               f"in a scratch copy of the repository, which is removed afterwards)")
        t0 = time.perf_counter()
        try:
            out = self._shell(block) if block.kind == "shell" else self._python(block)
        except (BlockFailed, ExtraMissing) as exc:
            return exc
        block_seconds = time.perf_counter() - t0
        if block.expects is None and REFUSAL in out:
            # a live-advisor session that refuses a typed line still exits 0: a doc's example
            # with no quoted output must not show a refusal a reader would not expect
            return BlockFailed(self._message(block, f"printed a refusal ({REFUSAL}) that no quoted output shows "
                                                    f"(fix the example, or quote its output)", out))
        if block.expects is not None and not output_matches(block.expects.code, out):
            return BlockFailed(self._message(
                block, f"printed something else than the output quoted at {block.expects.where} "
                       f"(update the quote, use ... for what varies, or mark the quote "
                       f"<!-- docs:example YYYY-MM-DD COMMIT -->)", out, expected=block.expects.code))
        SECONDS[block.where] = block_seconds
        return None

    def _message(self, block: Block, what: str, output: str, expected: str | None = None) -> str:
        tail = "\n".join(output.rstrip().splitlines()[-60:])
        text = (f"{block.where}: the ```{block.lang} block {what}\n--- the block ---\n"
                f"{textwrap.indent(block.code.rstrip(), '    ')}\n--- its output ---\n{textwrap.indent(tail, '    ')}")
        if expected is not None:
            text += f"\n--- the quoted output ---\n{textwrap.indent(expected.rstrip(), '    ')}"
        return text

    def close(self) -> None:
        """Stop the Python session, if one was started."""
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except Exception:  # noqa: BLE001 - it is being stopped anyway
                self.proc.kill()
                self.proc.wait()
            self.proc = None


#: seconds each block took (``file:line`` -> s), for the summary
SECONDS: dict[str, float] = {}


def _missing_extra(output: str) -> str | None:
    """The optional extra a failed shell block's output says is missing, if any."""
    m = re.search(r"No module named '([\w.]+)'", output)
    if m and m.group(1).split(".")[0] in EXTRAS:
        return m.group(1)
    if re.search(r"\bnode: (command )?not found", output):
        return "node"
    if "needs OpenSpiel" in output:
        return "pyspiel"
    return None


# ---------------------------------------------------------------------------- standalone
def main(argv: list[str] | None = None) -> int:
    """``python tests/docs_runner.py [--list] [FILE ...]``: list or run the docs' blocks."""
    import argparse
    import tempfile

    p = argparse.ArgumentParser(description="Run (or list) the fenced blocks of README.md and docs/*.md.")
    p.add_argument("files", nargs="*", help="docs to take (default: README.md and docs/*.md)")
    p.add_argument("--list", action="store_true", help="only list the blocks and what the runner does with each")
    args = p.parse_args(argv)
    files = [Path(f).resolve() for f in args.files] or doc_files()
    status = 0
    for path in files:
        blocks = parse_doc(path)
        if args.list:
            for b in blocks:
                print(f"{b.where}: {b.lang or 'bare'}: {b.action}")
            continue
        with tempfile.TemporaryDirectory(prefix="cardmind-docs-") as tmp:
            run = DocRun(path, Path(tmp))
            try:
                for b in blocks:
                    if b.problems:
                        print(f"{b.where}: ERROR: {'; '.join(b.problems)}")
                        status = 1
                    elif b.runs and b.skip_reason is None:
                        try:
                            run.run(blocks, b)
                            print(f"{b.where}: ok ({SECONDS.get(b.where, 0):.1f} s)")
                        except ExtraMissing as exc:
                            print(f"{b.where}: skipped: {exc} is missing")
                        except BlockFailed as exc:
                            print(exc)
                            status = 1
                    elif b.skip_reason is not None:
                        print(f"{b.where}: skipped: {b.skip_reason}")
            finally:
                run.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
