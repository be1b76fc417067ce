"""The layers of ``docs/architecture.md``: the shared packages never name a built-in game.

Every module of cardmind outside ``cardmind/games/`` is parsed and its code (not its
docstrings, not its comments) is searched for a built-in game's name: in identifiers,
attribute names, imported modules and string literals. A shared layer that picks a game by
name, imports a game's module or says "Go Fish" in a message fails here; it should ask the
registered ``Game`` instead (``Game.teams``, ``tracker_class``, ``hint_engine``,
``agent_classes``, ``codec_class``, ``cli_options``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import cardmind
from cardmind.core import get_game

ROOT = Path(cardmind.__file__).resolve().parent
BUILTIN = ("literature", "gofish", "carioca", "handfoot")


def _pattern() -> re.Pattern:
    words = set()
    for name in BUILTIN:
        g = get_game(name)
        words.add(re.escape(g.name))
        # the title's leading words too ("Literature", "Go Fish", "GoFish", "go_fish")
        for part in re.findall(r"[A-Za-z]+(?: [A-Za-z]+)?", g.title.replace("Bulgarian ", ""))[:1]:
            words.add(r"[\s_-]?".join(re.escape(w) for w in part.split()))
    return re.compile("|".join(sorted(words)), re.IGNORECASE)


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def _names(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of every identifier and string literal of the code (docstrings left out)."""
    docs = _docstring_nodes(tree)
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            out.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((line, node.name))
        elif isinstance(node, ast.arg):
            out.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            out.append((line, node.arg))
        elif isinstance(node, ast.alias):
            out.append((line, node.name))
            if node.asname:
                out.append((line, node.asname))
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((line, node.module))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out.append((line, node.value))
    return out


def shared_modules() -> list[Path]:
    """Every Python module of cardmind outside ``cardmind/games/``."""
    return sorted(p for p in ROOT.rglob("*.py") if "games" not in p.relative_to(ROOT).parts[:1])


def violations(path: Path, pattern: re.Pattern) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [f"{path.relative_to(ROOT.parent)}:{line}: {text[:80]!r}"
            for line, text in _names(tree) if pattern.search(text)]


def test_the_search_finds_what_it_should():
    """The checker itself: it flags game names in code and strings, and skips docstrings."""
    pat = _pattern()
    src = ('"""Literature and Go Fish are named here: fine."""\n'
           'from .games.gofish import belief\n'
           'def f():\n    """Go Fish again: fine."""\n    return name == "literature"\n'
           'class GoFishThing: pass\n'
           'x = f"the {name} of Go Fish"\n'
           '# gofish in a comment is fine\n')
    tree = ast.parse(src)
    hits = sorted({text for _, text in _names(tree) if pat.search(text)})
    assert hits == [" of Go Fish", "GoFishThing", "games.gofish", "literature"]


def test_shared_layers_name_no_game():
    pat = _pattern()
    mods = shared_modules()
    assert len(mods) > 20 and ROOT / "cli.py" in mods and not any("games" in p.parts for p in mods)
    found = [v for p in mods for v in violations(p, pat)]
    assert found == [], "the shared layers name a built-in game:\n" + "\n".join(found)


@pytest.mark.parametrize("name", BUILTIN)
def test_each_game_is_one_package(name):
    """Everything specific to a game lives in its package: the shared packages have no module
    named after it."""
    stray = [p for p in shared_modules() if name in p.stem.lower()]
    assert stray == []
    assert (ROOT / "games" / name / "__init__.py").exists()


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import of a cardmind module (relative ones resolved)."""
    mod = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
    # the package a relative import starts from: the module's own for an __init__.py
    package = mod.removesuffix(".__init__") if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            out += [(node.lineno, f"{target}.{a.name}") for a in node.names]
    return [(ln, m) for ln, m in out if m == "cardmind" or m.startswith("cardmind.")]


#: what each layer must not import (docs/architecture.md)
LOWER = ("cardmind.errors", "cardmind.cards", "cardmind.core", "cardmind.records", "cardmind.actions", "cardmind.plugins",
         "cardmind.belief", "cardmind.hints", "cardmind.agents")
UPPER = ("cardmind.protocol", "cardmind.tournament", "cardmind.serve", "cardmind.cli")


def _is(mod: str, prefixes) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in prefixes)


def test_layers_point_down():
    """Games and adapters never import the protocol, the tournament or the CLI; the lower shared
    layers import none of those nor the adapters; no shared module imports a game's modules (the
    built-in games are entry points of cardmind's own ``pyproject.toml``, found as plugins are)."""
    bad = []
    for path in sorted(ROOT.rglob("*.py")):
        mod = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
        for line, target in _imports(path):
            where = f"{path.relative_to(ROOT.parent)}:{line} imports {target}"
            if _is(mod, ("cardmind.games",)):
                if _is(target, UPPER):
                    bad.append(where)
            else:
                if _is(target, ("cardmind.games",)):
                    bad.append(where)
                if _is(mod, LOWER) and _is(target, UPPER + ("cardmind.adapters",)):
                    bad.append(where)
                if _is(mod, ("cardmind.adapters",)) and _is(target, UPPER):
                    bad.append(where)
    assert bad == [], "imports against the layers:\n" + "\n".join(bad)


def test_the_import_check_resolves_relative_imports():
    """The checker itself, on a game module with relative imports up and across packages."""
    path = ROOT / "games" / "literature" / "hints.py"
    found = {m for _, m in _imports(path)}
    assert "cardmind.hints.turn_note" in found and "cardmind.games.literature.belief" in found


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    """``{module: the cardmind modules it imports}`` over every module of ``cardmind/``, with the
    imports inside functions (lazy ones) included and those under ``if TYPE_CHECKING:`` left out
    (they never run). ``from P import n`` counts as an import of the module ``P.n`` when ``n`` is
    a module of ``P`` (a ``.py`` file, a package or a compiled extension's C source), else of
    ``P`` itself (a name ``P`` defines or re-exports); ``import a.b`` counts as ``a.b``."""
    paths = sorted(ROOT.rglob("*.py"))
    modules = {_module_name(p) for p in paths} | {_module_name(p) for p in ROOT.rglob("*.c")}
    graph: dict[str, set[str]] = {}
    for path in paths:
        mod = _module_name(path)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        deps: set[str] = set()
        tree = ast.parse(path.read_text())
        skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
                for stmt in node.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for a in node.names:
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target)
        graph[mod] = {d for d in deps if d in modules and d != mod}
    for mod in modules - set(graph):     # compiled extensions import no cardmind module
        graph[mod] = set()
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of two or more modules
    (scipy's ``connected_components(connection="strong")``), each sorted, largest first."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    names = sorted(graph)
    index = {m: i for i, m in enumerate(names)}
    rows = [index[m] for m in names for _ in graph[m]]
    cols = [index[d] for m in names for d in sorted(graph[m])]
    matrix = csr_matrix(([1] * len(rows), (rows, cols)), shape=(len(names), len(names)))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    groups: dict[int, list[str]] = {}
    for m, lab in zip(names, labels):
        groups.setdefault(int(lab), []).append(m)
    return sorted((g for g in groups.values() if len(g) > 1), key=len, reverse=True)


def test_no_import_cycle():
    """No module of cardmind imports, directly or through others (lazy imports included), a
    module that imports it back (issue 26: the layers form no knot)."""
    graph = import_graph()
    assert "cardmind.core" in graph and len(graph) > 100
    assert not any(d.startswith("cardmind.games") for d in graph["cardmind.core"])
    cycles = import_cycles(graph)
    assert cycles == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle():
    """The checker itself: a circle of three modules and a module outside it."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
    graph["c"] = set()
    assert import_cycles(graph) == []


#: the modules every game package has, in the same roles (docs/architecture.md, "one shape")
SHAPE = ("__init__.py", "rules.py", "notation.py", "state.py", "belief.py", "models.py", "advice.py", "hints.py",
         "shorthand.py", "view.py", "codec.py", "agents/__init__.py", "agents/peer.py", "agents/belief.py")
#: the games whose decisions are priced over worlds in a module of their own (Literature reads its
#: chances straight from the tracker)
DECIDE = ("gofish", "carioca", "handfoot")


@pytest.mark.parametrize("name", BUILTIN)
def test_every_game_package_has_the_one_shape(name):
    """The same module names play the same roles in every game; the decision layer is
    ``decide.py`` wherever a game has one; codecs hold no players."""
    pkg = ROOT / "games" / name
    missing = [m for m in SHAPE if not (pkg / m).exists()]
    assert missing == []
    assert (pkg / "decide.py").exists() == (name in DECIDE)
    for other in ("advisor.py", "evaluate.py", "agents/rollout.py"):
        assert not (pkg / other).exists()
    codec = (pkg / "codec.py").read_text()
    assert "ISMCTSAgent" not in codec and "class " in codec


def _advice_classes(path: Path) -> list[str]:
    """The classes of ``path`` that subclass ``Advice`` (by the base's name)."""
    tree = ast.parse(path.read_text())
    return [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
            and any((b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")) == "Advice" for b in n.bases)]


@pytest.mark.parametrize("name", BUILTIN)
def test_advice_and_hints_play_their_roles(name):
    """``advice.py`` holds the game's one ``Advice`` subclass (what is said and how it is
    shown); ``hints.py`` holds the hint engine that ``Game.hint_engine()`` returns, and no
    ``Advice`` subclass."""
    from cardmind.hints.words import Advice

    pkg = ROOT / "games" / name
    classes = _advice_classes(pkg / "advice.py")
    assert len(classes) == 1
    assert _advice_classes(pkg / "hints.py") == []
    engine = get_game(name).hint_engine()
    assert engine.__module__ == f"cardmind.games.{name}.hints"
    module = __import__(f"cardmind.games.{name}.advice", fromlist=[classes[0]])
    cls = getattr(module, classes[0])
    assert issubclass(cls, Advice) and cls.__module__ == module.__name__
    assert engine.__annotations__["return"] in (classes[0], cls)
