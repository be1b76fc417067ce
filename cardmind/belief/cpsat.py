"""An OR-Tools CP-SAT model of an assignment of hidden items to seats.

The same constraints the exact counter uses (:mod:`cardmind.belief.blocks` via a game's
tracker), stated as a constraint program: one Boolean per (item, allowed seat), each item
at exactly one seat, each seat receiving exactly its capacity, and every "seat receives at
least one of these items" clause. It serves three purposes:

* :meth:`AssignmentModel.enumerate`: list every solution when there are few (the late game);
* :meth:`AssignmentModel.forced`: find every item whose seat is the same in all solutions;
* tests: the number of solutions must equal the exact count.

Seeded CP-SAT solutions are not uniform over the solutions (``belief-notes.md``), so
sampling uses the counts instead (see ``sample_deal`` of the trackers).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from ortools.sat.python import cp_model


class TooManySolutions(Exception):
    """Enumeration stopped at its limit (the count is larger)."""


class AssignmentModel:
    """Items to seats under allowed seats, capacities and at-least-one clauses.

    Args:
        items: the hidden items (cards).
        allowed: per item, the seats it may go to.
        caps: per seat, how many items it receives (seats absent receive none).
        clauses: ``(seat, items)`` pairs: the seat receives at least one of the items.
    """

    def __init__(self, items: Sequence[Hashable], allowed: Mapping[Hashable, Iterable[int]],
                 caps: Mapping[int, int], clauses: Iterable[tuple[int, Iterable[Hashable]]] = ()):
        self.items = list(items)
        self.allowed = {c: sorted(set(allowed[c])) for c in self.items}
        self.caps = dict(caps)
        self.clauses = [(s, list(u)) for s, u in clauses]
        self.model = cp_model.CpModel()
        self.x: dict[tuple[Hashable, int], cp_model.IntVar] = {}
        for c in self.items:
            for s in self.allowed[c]:
                self.x[(c, s)] = self.model.new_bool_var(f"x[{c},{s}]")
            self.model.add_exactly_one(self.x[(c, s)] for s in self.allowed[c])
        for s, cap in self.caps.items():
            self.model.add(sum(self.x[(c, s)] for c in self.items if (c, s) in self.x) == cap)
        for s, u in self.clauses:
            lits = [self.x[(c, s)] for c in u if (c, s) in self.x]
            self.model.add_bool_or(lits) if lits else self.model.add_bool_or([self.model.new_constant(0)])

    def _solver(self, time_limit: float | None) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = time_limit
        return solver

    def feasible(self, time_limit: float | None = None) -> bool | None:
        """Whether some assignment satisfies everything (``None`` if undecided in time)."""
        status = self._solver(time_limit).solve(self.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True
        if status == cp_model.INFEASIBLE:
            return False
        return None

    def enumerate(self, limit: int = 100_000, time_limit: float | None = None) -> list[dict[Hashable, int]]:
        """Every solution as ``{item: seat}``.

        Raises:
            TooManySolutions: more than ``limit`` solutions, or the time ran out first.
        """
        solver = self._solver(time_limit)
        solver.parameters.enumerate_all_solutions = True
        x = self.x
        items = self.items
        allowed = self.allowed
        out: list[dict[Hashable, int]] = []

        class Collect(cp_model.CpSolverSolutionCallback):
            def __init__(self) -> None:
                super().__init__()
                self.over = False

            def on_solution_callback(self) -> None:
                if len(out) >= limit:
                    self.over = True
                    self.stop_search()
                    return
                out.append({c: next(s for s in allowed[c] if self.boolean_value(x[(c, s)])) for c in items})

        cb = Collect()
        status = solver.solve(self.model, cb)
        if cb.over:
            raise TooManySolutions(f"more than {limit} solutions")
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise TooManySolutions("the time limit ran out before the enumeration finished")
        return out

    def count(self, limit: int = 100_000, time_limit: float | None = None) -> int:
        """The number of solutions by enumeration (see :meth:`enumerate`)."""
        return len(self.enumerate(limit, time_limit))

    def forced(self, time_limit: float | None = None) -> dict[Hashable, int]:
        """``{item: seat}`` for every item whose seat is the same in every solution.

        One solution gives each item's only candidate; an item is forced when the model
        with that item elsewhere is infeasible.

        Raises:
            ValueError: the model has no solution.
        """
        solver = self._solver(time_limit)
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise ValueError("no assignment satisfies the constraints")
        first = {c: next(s for s in self.allowed[c] if solver.boolean_value(self.x[(c, s)])) for c in self.items}
        out = {}
        for c in self.items:
            if len(self.allowed[c]) == 1:
                out[c] = first[c]
                continue
            lit = self.x[(c, first[c])]
            self.model.clear_assumptions()
            self.model.add_assumptions([lit.Not()])
            st = self._solver(time_limit).solve(self.model)
            self.model.clear_assumptions()
            if st == cp_model.INFEASIBLE:
                out[c] = first[c]
        return out
