"""Docs that cannot drift: every fenced shell and Python block of ``README.md`` and
``docs/*.md`` runs, and the quoted output is checked or marked as an example run.

The rules for doc authors (markers, where blocks run, quoted output) are in the docstring
of :mod:`tests.docs_runner`, which does the work; ``docs/architecture.md`` ("Docs that
cannot drift") repeats them. One test per block (``test_doc_block[docs/x.md:12 sh]``): a
run block passes when it exits 0 (and prints what its quote says), a skipped one is
reported as skipped with its reason (``pytest -rs``), and a block whose markup is wrong
fails. Every block marked ``docs:skip`` is listed with its reason at the end of the run.
"""

from __future__ import annotations

import datetime

import pytest

from . import docs_runner as dr
from .extras import missing_extra

BLOCKS = [b for path in dr.doc_files() for b in dr.parse_doc(path)]
#: (file:line, reason) of every block marked docs:skip, for the summary at the end of the run
SKIPPED = [(b.where, b.skip_reason) for b in BLOCKS if b.runs and b.skip_reason is not None]


@pytest.fixture(scope="module")
def doc_runs(tmp_path_factory):
    """One scratch copy (and Python session) per doc file, made when its first block runs."""
    runs: dict[str, dr.DocRun] = {}

    def get(block: dr.Block) -> dr.DocRun:
        if block.path not in runs:
            runs[block.path] = dr.DocRun(dr.ROOT / block.path, tmp_path_factory.mktemp("docs"))
        return runs[block.path]

    yield get
    for run in runs.values():
        run.close()


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b.where} {b.lang or 'bare'}" for b in BLOCKS])
def test_doc_block(block, doc_runs):
    assert not block.problems, f"{block.where}: " + "; ".join(block.problems)
    if not block.runs:
        return   # quoted output is checked with the block that prints it; other blocks are not run
    if block.skip_reason is not None:
        pytest.skip(f"docs:skip {block.where}: {block.skip_reason}")
    blocks = [b for b in BLOCKS if b.path == block.path]
    try:
        doc_runs(block).run(blocks, block)
    except dr.ExtraMissing as exc:
        missing_extra(f"{exc} (needed by {block.where})", 'pip install -e ".[test,openspiel,pettingzoo]", and Node.js')
    except dr.BlockFailed as exc:
        pytest.fail(str(exc), pytrace=False)


def test_the_runner_finds_every_kind_of_block(tmp_path):
    """The parser on a doc with each case: run blocks, a checked quote, a marked example, the
    markers' errors, an indented fence, a stray marker."""
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# t\n"
        "```sh\necho hi\n```\n\n"                                            # 2: run, quote checked
        "```text\nhi\n```\n"                                                 # 6: the quote
        "<!-- docs:skip needs the network -->\n```bash\ncurl x\n```\n"       # 10: skipped
        "<!-- docs:example 2026-01-02 abc1234 -->\n```text\nold\n```\n"      # 14: example run
        "```text\nunmarked\n```\n"                                           # 17: error
        "<!-- docs:skip -->\n```python\nx = 1\n```\n"                        # 21: no reason
        "<!-- docs:example 2026-01-02 abc1234 -->\n```python\nx = 1\n```\n"  # 25: wrong kind
        "1. a list\n\n   ```python\n   y = 2\n   ```\n"                      # 30: indented
        "<!-- docs:skip stray -->\n\n"                                       # 33: stray marker
        "```\nnot run\n```\n",                                               # 35: bare
        encoding="utf-8")
    blocks = dr.parse_doc(doc, tmp_path)
    got = {(b.line, b.lang): b for b in blocks}
    assert got[(2, "sh")].expects is got[(6, "text")] and not got[(6, "text")].problems
    assert got[(10, "bash")].skip_reason == "needs the network" and not got[(10, "bash")].problems
    assert got[(14, "text")].marker == ("example", "2026-01-02 abc1234") and not got[(14, "text")].problems
    assert "must follow the block that prints it" in got[(17, "text")].problems[0]
    assert "needs a reason" in got[(21, "python")].problems[0]
    assert "marks quoted output" in got[(25, "python")].problems[0]
    assert got[(30, "python")].code == "y = 2\n" and got[(30, "python")].runs
    assert "not on the line just before a fence" in got[(33, "marker")].problems[0]
    assert not got[(35, "")].runs and not got[(35, "")].problems
    future = (datetime.date.today() + datetime.timedelta(days=30)).isoformat()
    doc.write_text(f"<!-- docs:example {future} abc1234 -->\n```text\nx\n```\n", encoding="utf-8")
    assert "in the future" in dr.parse_doc(doc, tmp_path)[0].problems[0]


def test_quoted_output_matching():
    assert dr.output_matches("a\n...\nz\n", "a\nb\nc\nz  \n\n")
    assert dr.output_matches("took ... s; results in ...", "took 2.1 s; results in runs/x")
    assert not dr.output_matches("a\nz", "a\nb\nz")
    assert not dr.output_matches("exit status 2", "exit status 1")


def test_the_runner_runs_blocks_in_a_scratch_copy(tmp_path, monkeypatch):
    """Blocks of one file share a Python session and a scratch copy of the repository (with
    ``../shared`` beside it); what they write stays there; a wrong quote, a failing block and
    a ``/tmp/`` path fail with the file and line; blocks after a failed one are not run."""
    monkeypatch.setattr(dr, "SECONDS", {})   # not the real docs' timings

    def doc_run(name: str, text: str):
        doc = tmp_path / "docs" / name
        doc.parent.mkdir(exist_ok=True)
        doc.write_text(text, encoding="utf-8")
        scratch = tmp_path / f"scratch-{name}"
        scratch.mkdir()
        blocks = dr.parse_doc(doc, tmp_path)
        return blocks, [b for b in blocks if b.runs], dr.DocRun(doc, scratch)

    blocks, runs, run = doc_run("d.md", (
        "```python\nimport os\nn = len(os.listdir('examples'))\nopen('written.txt', 'w').write('x')\n```\n"
        "```python\nprint(n > 0, os.path.exists('../shared'))\n```\n"
        "```text\nTrue %s\n```\n"
        "```sh\ncat written.txt; echo; printf 'one\\ntwo\\n'\n```\n"
        "```text\nx\n...\n```\n"
        "```sh\necho wrong\n```\n"
        "```text\nright\n```\n"
        "```sh\necho after\n```\n") % (dr.ROOT.parent / "shared").exists())   # (no absolute path: it may be under /tmp)
    try:
        for b in runs[:3]:
            run.run(blocks, b)
        with pytest.raises(dr.BlockFailed, match=r"d.md:19: the ```sh block printed something else"):
            run.run(blocks, runs[3])
        with pytest.raises(dr.BlockFailed, match=r"d.md:25: not run: the earlier block docs/d.md:19 failed"):
            run.run(blocks, runs[4])
    finally:
        run.close()
    assert (run.repo / "written.txt").exists() and not (dr.ROOT / "written.txt").exists()
    for name, text, message in (("e.md", "```sh\ntrue\nfalse\n```\n", r"e.md:1: the ```sh block failed \(exit status 1\)"),
                                ("t.md", "```sh\nls /tmp/x\n```\n", r"t.md:1: the block writes or reads /tmp/"),
                                ("p.md", "```python\nimport json\njson.loads('{')\n```\n",
                                 r"(?s)p.md:1: the ```python block raised.*p.md\", line 3.*JSONDecodeError")):
        blocks, runs, run = doc_run(name, text)
        try:
            with pytest.raises(dr.BlockFailed, match=message):
                run.run(blocks, runs[0])
        finally:
            run.close()


def test_every_skipped_block_gives_its_reason():
    """The list printed at the end of the run: every docs:skip block with a reason."""
    assert all(reason for _, reason in SKIPPED)
    assert len({where for where, _ in SKIPPED}) == len(SKIPPED)
