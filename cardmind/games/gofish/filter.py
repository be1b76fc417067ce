"""The vectorised Go Fish forward filter (the fast engine of :mod:`cardmind.games.gofish.belief`).

Same states, transitions and integer multiplicities as the reference filter in
``gofish.py`` (the tests check they agree exactly), organised for speed: states sharing
their public context (the cards each seat is known to hold, the ranks of face-down books,
an unseen draw a book may follow) form a **group**, and a group's hidden counts are the rows
of one ``int8`` matrix (one column per other seat and rank) with one weight per row:
exact Python integers in an object array.

Past the tracker's ``budget`` of states (three or more players, as a rule: the joint of every
other seat's hidden counts is far too large) it raises ``MemoryError`` and the tracker
switches to the draw engine (:mod:`cardmind.games.gofish.draws`). (It used to switch to a
particle filter, which died of particle depletion: particles cannot revise the dealt hands.)
"""

from __future__ import annotations

from collections import Counter
from math import factorial
from typing import Any

import numpy as np

from ...errors import Contradiction, IllegalAction
from .rules import move_known_book

_FACT = np.array([factorial(i) for i in range(64)], dtype=object)


def _compositions_np(total: int, caps: np.ndarray) -> np.ndarray:
    """Every vector ``x`` (rows of an int8 matrix) with ``sum(x) == total`` and
    ``0 <= x <= caps``, built rank by rank with numpy."""
    n = len(caps)
    suffix = np.concatenate([np.cumsum(caps[::-1])[::-1], [0]])
    rows = np.zeros((1, 0), dtype=np.int8)
    left = np.array([total], dtype=np.int64)
    for i in range(n):
        parts_r, parts_l = [], []
        for x in range(int(min(caps[i], total)) + 1):
            m = (left >= x) & (left - x <= suffix[i + 1])
            if m.any():
                parts_r.append(np.hstack([rows[m], np.full((int(m.sum()), 1), x, dtype=np.int8)]))
                parts_l.append(left[m] - x)
        if not parts_r:
            return np.zeros((0, n), dtype=np.int8)
        rows = np.concatenate(parts_r)
        left = np.concatenate(parts_l)
    return rows[left == 0]


def _joint_compositions(total: int, caps: np.ndarray, k: int) -> np.ndarray:
    """Rows of ``k`` blocks, each a composition of ``total`` under the caps left by the
    blocks before it (the joint deal of ``k`` hands from the unknown cards)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    first = _compositions_np(total, caps)
    if k == 1:
        return first
    out = []
    for row in first:
        rest = _joint_compositions(total, caps - row, k - 1)
        out.append(np.hstack([np.repeat(row[None, :], len(rest), axis=0), rest]))
    return np.concatenate(out) if out else np.zeros((0, k * len(caps)), dtype=np.int8)


def _zeros_obj(n: int) -> np.ndarray:
    out = np.empty(n, dtype=object)
    out[:] = 0
    return out


class FastFilter:
    """Applies Go Fish events to grouped hidden states (see the module docstring).

    Args:
        tracker: the :class:`~cardmind.games.gofish.belief.GoFishBelief` (options, observer,
            hand, budget).
    """

    def __init__(self, tracker: Any, use_model: bool = True, model: Any = None, giver: str | None = None):
        t = self.t = tracker
        #: the player model (a :class:`~cardmind.belief.models.ChoiceModel`) that weighs the
        #: states at the others' asks (the tracker's ``_ask_ctx``); ``None``: counts only
        self.model = model if use_model else None
        self.use_model = self.model is not None
        #: the model also weighs which card another player hands over under ``give: "one"``:
        #: ``"random"`` (any card of the rank it holds alike: ``1 / cards of the rank``);
        #: ``None``: the hand-over is a fact only (the constraint-only semantics)
        self.giver = giver if use_model else None
        #: the log of the factor the float weights were divided by (so that the weights stay
        #: in range): the true total weight is ``exp(log_scale) * total``
        self.log_scale = 0.0
        self.R, self.K, self.S = t.R, t.K, t.S
        self.own = Counter(c[0] for c in t.hand)
        self.own_cards = set(t.hand)
        self.known_books: dict[str, int] = {}
        self.book_log: list[dict] = []
        self.window: tuple | None = None
        self.refused: tuple | None = None
        self.opening = True
        self.opening_hidden: Counter = Counter()
        self.opening_known: list[tuple[int, str]] = []
        self.exact = True  # always: past the budget it raises MemoryError
        #: the weights are a player model's likelihoods times counts (floats), not counts
        self.weighted = False
        self.groups: dict = {}
        self.processed = 0

    # ------------------------------------------------------------------ helpers
    def col(self, k: int, r: str) -> int:
        return k * self.R + self.t.rank_index[r]

    def unknown(self, r: str, pub, bk) -> int:
        if r in self.known_books or any(br == r for br, _ in bk):
            return 0
        return self.S - self.own[r] - sum(1 for q in pub for c in q if c[0] == r)

    @staticmethod
    def pubcount(q: frozenset, r: str) -> int:
        return sum(1 for c in q if c[0] == r)

    def hidden_total(self, H: np.ndarray, r: str) -> np.ndarray:
        ri = self.t.rank_index[r]
        return H[:, ri::self.R].sum(axis=1) if self.K else np.zeros(len(H), dtype=np.int64)

    # ------------------------------------------------------------------ group plumbing
    def _put(self, out: dict, ctx, H: np.ndarray, W: np.ndarray) -> None:
        if len(H) == 0:
            return
        out.setdefault(ctx, []).append((H, W))

    def _finish(self, out: dict) -> dict:
        """Merge duplicate rows of groups built from several parts; check the budget."""
        res = {}
        for ctx, parts in out.items():
            merged = len(parts) > 1
            if merged:
                H = np.concatenate([h for h, _ in parts])
                W = np.concatenate([w for _, w in parts])
            else:
                H, W = parts[0]
            if merged:
                H = np.ascontiguousarray(H)
                if H.shape[1] <= 20:  # counts are below 8: pack a row into one int64 (3 bits each)
                    v = H.astype(np.int64) @ (np.int64(8) ** np.arange(H.shape[1], dtype=np.int64))
                else:
                    v = H.view(np.dtype((np.void, H.shape[1]))).ravel()
                uniq, first, inv = np.unique(v, return_index=True, return_inverse=True)
                if len(uniq) < len(H):
                    W2 = _zeros_obj(len(uniq)) if W.dtype == object else np.zeros(len(uniq))
                    np.add.at(W2, inv.ravel(), W)
                    H, W = H[first], W2
            res[ctx] = (H, W)
        n = sum(len(H) for H, _ in res.values())
        if n > self.t.budget:
            raise MemoryError(f"the exact Go Fish filter exceeded {self.t.budget} states")
        return res

    def _mul(self, W: np.ndarray, factor: np.ndarray) -> np.ndarray:
        return W * (factor.astype(object) if W.dtype == object else factor)

    def _div(self, W: np.ndarray, d: int) -> np.ndarray:
        return W // d if W.dtype == object else W / d

    # ------------------------------------------------------------------ the deal
    def deal(self) -> dict:
        t = self.t
        u0 = tuple(self.S - self.own[r] for r in t.ranks)
        H = t.options["hand"]
        n1 = len(_compositions_np(H, np.array(u0, dtype=np.int64)))
        empty_pub = tuple(frozenset() for _ in range(self.K))
        ctx = (empty_pub, (), None)
        if n1 ** self.K > t.budget:
            raise MemoryError(f"the exact Go Fish filter would need about {n1 ** self.K} states at the deal")
        Hm = _joint_compositions(H, np.array(u0, dtype=np.int64), self.K)
        W = np.empty(len(Hm), dtype=object)
        W[:] = 1
        for ri in range(self.R):
            cols = Hm[:, ri::self.R].astype(np.int64)
            stock = u0[ri] - cols.sum(axis=1)
            w = _FACT[u0[ri]] // _FACT[stock]
            for k in range(self.K):
                w = w // _FACT[cols[:, k]]
            W = W * w
        return {ctx: (Hm, W)}

    # ------------------------------------------------------------------ running
    def advance(self, events: list[dict]) -> None:
        """Apply the events not yet applied (the filter is incremental)."""
        if self.processed == 0 and not self.groups:
            self.groups = self.deal()
        for i in range(self.processed, len(events)):
            ev = events[i]
            try:
                ctx = self.t._ask_ctx.get(i) if self.use_model and getattr(self.t, "_ask_ctx", None) else None
                if ctx is not None:
                    self.groups = self._weigh(self.groups, self.model, *ctx)
                self.groups = self.step(self.groups, ev)
            except Contradiction as exc:
                raise Contradiction(exc.message, i) from None
            if not self.groups:
                raise Contradiction(f"no deal is consistent with the events after this {ev['type']}", i)
            self.processed = i + 1

    def now(self, settled: bool = False) -> dict:
        """The groups as of now. The record so far is a legal prefix: dealt books may still
        come from seats yet to lay them, and, unless ``settled``, a book may still follow
        the last event (with ``settled``, the last move is over and no book came: what a
        player to act next knows)."""
        groups = self.groups
        saved = (self.window, self.opening)
        if self.window is not None and settled:
            groups = self._no_book(groups, self.window)
        if self.opening:
            groups = self._end_opening(groups, final=False)
        self.window, self.opening = saved
        if not groups:
            raise Contradiction("no deal is consistent with the events", max(0, self.processed - 1))
        return groups

    def step(self, groups: dict, ev: dict) -> dict:
        o = self.t.observer
        kind = ev["type"]
        if kind == "book" and self.opening:
            s, r = ev["player"], ev["rank"]
            if s == o:
                self._own_book(r)
            elif r is not None:
                self.opening_known.append((s, r))
                self.known_books[r] = s
            else:
                self.opening_hidden[s] += 1
            self.book_log.append({"maker": s, "rank": r, "owner": s})
            return groups
        if self.opening:
            groups = self._end_opening(groups, final=True)
        w, self.window = self.window, None
        if w is not None and kind == "book" and ev["player"] == w[0]:
            return self._book(groups, ev, w)
        if w is not None:
            groups = self._no_book(groups, w)
        if kind == "ask":
            return self._ask(groups, ev)
        if kind == "draw":
            return self._draw(groups, ev)
        if kind == "ask_book":
            return self._ask_book(groups, ev)
        if kind == "assume_lacks":
            return self._assume_lacks(groups, ev)
        raise IllegalAction("book-window", "a book outside a window")

    def _weigh(self, groups: dict, model, ctx, rank_index: int) -> dict:
        """Weigh every state by the player model's likelihood of the ask about to be made
        (``ctx``: its :class:`~.models.AskContext`; the asker's holdings in a state: its
        hidden counts plus its public cards). The weights become floating point (they are
        no longer counts of deals)."""
        from .models import log_likelihood  # noqa: PLC0415

        k = self.t.kidx[ctx.asker]
        lws = {}
        top = -np.inf
        for key, (H, W) in groups.items():
            counts = H[:, k * self.R:(k + 1) * self.R].astype(np.int64)
            for c in key[0][k]:
                counts[:, self.t.rank_index[c[0]]] += 1
            lw = log_likelihood(model, ctx, counts, rank_index)
            lws[key] = lw
            if np.isfinite(lw).any():
                top = max(top, float(lw[np.isfinite(lw)].max()))
        out: dict = {}
        for key, (H, W) in groups.items():
            lw = lws[key]
            keep = np.isfinite(lw)
            if keep.any():
                out[key] = (H[keep], np.asarray(W[keep], dtype=float) * np.exp(lw[keep] - top))
        self.weighted = True
        if np.isfinite(top):
            self.log_scale += top
        return self._rescale(out)

    def _rescale(self, groups: dict) -> dict:
        """Keep float weights within range (divide by the largest; :attr:`log_scale` keeps
        the factor)."""
        big = max((float(W.max()) for _, W in groups.values() if len(W)), default=0.0)
        if big > 0:
            groups = {k: (H, W / big) for k, (H, W) in groups.items()}
            self.log_scale += float(np.log(big))
        return groups

    def _assume_lacks(self, groups: dict, ev: dict) -> dict:
        """An assumption (``GoFishBelief.assume_lacks``): the seat holds none of the ranks."""
        k = self.t.kidx[ev["player"]]
        out: dict = {}
        for (pub, bk, pend), (H, W) in groups.items():
            keep = np.ones(len(H), dtype=bool)
            for r in ev["ranks"]:
                keep &= (H[:, self.col(k, r)] + self.pubcount(pub[k], r)) == 0
            self._put(out, (pub, bk, pend), H[keep], W[keep])
        return self._finish(out)

    def _own_book(self, r: str) -> None:
        for c in [c for c in self.own_cards if c[0] == r]:
            self.own_cards.discard(c)
        self.own[r] = 0
        self.known_books[r] = self.t.observer

    # ------------------------------------------------------------------ transitions
    def _no_book(self, groups: dict, w: tuple) -> dict:
        seat, rank = w
        out: dict = {}
        if seat == self.t.observer:
            for (pub, bk, pend), (H, W) in groups.items():
                self._put(out, (pub, bk, None), H, W)
            return self._finish(out)
        k = self.t.kidx[seat]
        for (pub, bk, pend), (H, W) in groups.items():
            r = rank if rank is not None else (pend[1] if pend else None)
            if r is not None:
                cnt = H[:, self.col(k, r)] + self.pubcount(pub[k], r)
                keep = cnt < self.S
                H, W = H[keep], W[keep]
            self._put(out, (pub, bk, None), H, W)
        return self._finish(out)

    def _end_opening(self, groups: dict, final: bool = True) -> dict:
        t = self.t
        if final:
            self.opening = False
        hidden, known = self.opening_hidden, self.opening_known
        order = [b["maker"] for b in self.book_log if b["rank"] is None]
        last = max((b["maker"] for b in self.book_log), default=-1)
        out: dict = {}
        for (pub, bk, pend), (H, W) in groups.items():
            full = H >= self.S
            if not full.any() and not any(hidden.values()) and not known:
                self._put(out, (pub, bk, pend), H, W)
                continue
            patterns, inv = np.unique(full, axis=0, return_inverse=True)
            inv = inv.ravel()
            for pi, pat in enumerate(patterns):
                sel = inv == pi
                Hs = H[sel].copy()
                ranks_of: dict[int, list[str]] = {}
                ok = True
                for k, s in enumerate(t.others):
                    fr = [r for ri, r in enumerate(t.ranks) if pat[k * self.R + ri]]
                    kn = [r for (s2, r) in known if s2 == s]
                    if any(r not in fr for r in kn):
                        ok = False
                        break
                    rest = [r for r in fr if r not in kn]
                    may_add = not final and s >= last
                    if len(rest) < hidden[s] or (len(rest) > hidden[s] and not may_add):
                        ok = False
                        break
                    laid = kn + rest[:hidden[s]]
                    if may_add and kn and sorted(fr, key=t.ranks.index)[:len(laid)] != sorted(laid, key=t.ranks.index):
                        ok = False
                        break
                    for r in laid:
                        Hs[:, self.col(k, r)] = 0
                    ranks_of[s] = rest[:hidden[s]]
                if not ok:
                    continue
                used: Counter = Counter()
                seq = []
                for s in order:
                    seq.append((ranks_of[s][used[s]], s))
                    used[s] += 1
                self._put(out, (pub, tuple(seq), pend), Hs, W[sel])
        return self._finish(out)

    def _ask(self, groups: dict, ev: dict) -> dict:
        t = self.t
        o = t.observer
        a, tg, r, given = ev["asker"], ev["target"], ev["rank"], list(ev["given"])
        give_all = t.options["give"] == "all"
        if self.giver == "random" and given and tg != o and not give_all:
            # the hand-over is weighed (floats) in every group alike
            groups = {key: (H, np.asarray(W, dtype=float)) for key, (H, W) in groups.items()}
        out: dict = {}
        for (pub, bk, pend), (H, W) in groups.items():
            pub = list(pub)
            keep = np.ones(len(H), dtype=bool)
            if a != o:
                ka = t.kidx[a]
                keep &= (H[:, self.col(ka, r)] + self.pubcount(pub[ka], r)) >= 1
            H2, W2 = H, W
            if tg != o:
                kt = t.kidx[tg]
                c_t = self.col(kt, r)
                if not given:
                    keep &= (H[:, c_t] + self.pubcount(pub[kt], r)) == 0
                H2, W2 = H[keep], W[keep]
                keep = None
                u = self.unknown(r, pub, bk)
                dead = False
                for c in given:
                    if c in pub[kt]:
                        if self.giver == "random" and not give_all:
                            # a random giver picked this public card: 1 / (its cards of the rank)
                            W2 = W2 / (H2[:, c_t].astype(np.int64) + self.pubcount(pub[kt], r))
                        pub[kt] = pub[kt] - {c}
                        continue
                    if c in self.own_cards or any(c in q for q in pub):
                        dead = True
                        break
                    if u < 1:
                        dead = True
                        break
                    x = H2[:, c_t].astype(np.int64)
                    m = x >= 1
                    H2, W2, x = H2[m].copy(), W2[m], x[m]
                    if self.giver == "random" and not give_all:
                        # a random giver hands over any of its x + p cards of the rank alike
                        # (p public): x / u of the identities, each chosen 1 / (x + p) of the time
                        W2 = W2 / u * (x / (x + self.pubcount(pub[kt], r)))
                        self.weighted = True
                    else:
                        W2 = self._div(self._mul(W2, x), u)
                    H2[:, c_t] -= 1
                    u -= 1
                if dead:
                    continue
                if give_all and given:
                    m = (H2[:, c_t] + self.pubcount(pub[kt], r)) == 0
                    H2, W2 = H2[m], W2[m]
            else:
                H2, W2 = H[keep], W[keep]
            if given and a != o:
                ka = t.kidx[a]
                pub[ka] = pub[ka] | frozenset(given)
            self._put(out, (tuple(pub), bk, pend), H2, W2)
        for c in given:
            if a == o:
                self.own_cards.add(c)
                self.own[r] += 1
            if tg == o:
                self.own_cards.discard(c)
                self.own[r] -= 1
        if given:
            self.window = (a, r)
            self.refused = None
        else:
            self.refused = (a, r)
        return self._finish(out)

    def _draw(self, groups: dict, ev: dict) -> dict:
        t = self.t
        o = t.observer
        p, card = ev["player"], ev["card"]
        refused = self.refused[1] if self.refused is not None and self.refused[0] == p else None
        self.refused = None
        out: dict = {}
        if card is not None:
            r = card[0]
            for (pub, bk, pend), (H, W) in groups.items():
                if card in self.own_cards or any(card in q for q in pub):
                    continue
                u = self.unknown(r, pub, bk)
                if u < 1:
                    continue
                stock_r = u - self.hidden_total(H, r)
                m = stock_r >= 1
                H2, W2 = H[m], self._div(self._mul(W[m], stock_r[m]), u)
                npub = pub
                if p != o:
                    k = t.kidx[p]
                    npub = tuple(q | {card} if j == k else q for j, q in enumerate(pub))
                self._put(out, (npub, bk, pend), H2, W2)
            if p == o:
                self.own_cards.add(card)
                self.own[r] += 1
            self.window = (p, r)
            return self._finish(out)
        k = t.kidx[p]
        for (pub, bk, pend), (H, W) in groups.items():
            branches = []
            for ri, r in enumerate(t.ranks):
                if r == refused:
                    continue  # a card of the rank just asked for would have been shown
                u = self.unknown(r, pub, bk)
                if not u:
                    continue
                stock_r = u - self.hidden_total(H, r)
                branches.append((r, np.maximum(stock_r, 0)))
            if not branches:
                continue
            for r, sr in branches:
                m = sr > 0
                if not m.any():
                    continue
                H2 = H[m].copy()
                H2[:, self.col(k, r)] += 1
                self._put(out, (pub, bk, (k, r)), H2, self._mul(W[m], sr[m]))
        self.window = (p, None)
        return self._finish(out)

    def _book(self, groups: dict, ev: dict, w: tuple) -> dict:
        t = self.t
        s, r = ev["player"], ev["rank"]
        if s == t.observer:
            self._own_book(r)
            self.book_log.append({"maker": s, "rank": r, "owner": s})
            out: dict = {}
            for (pub, bk, pend), (H, W) in groups.items():
                self._put(out, (pub, bk, None), H, W)
            return self._finish(out)
        k = t.kidx[s]
        known_rank = r if r is not None else w[1]
        hidden = known_rank is None
        out = {}
        for (pub, bk, pend), (H, W) in groups.items():
            rr = known_rank if known_rank is not None else (pend[1] if pend else None)
            if rr is None:
                continue
            c = self.col(k, rr)
            m = (H[:, c] + self.pubcount(pub[k], rr)) == self.S
            H2 = H[m].copy()
            H2[:, c] = 0
            npub = tuple(frozenset(x for x in q if x[0] != rr) if j == k else q for j, q in enumerate(pub))
            nbk = bk + ((rr, s),) if hidden else bk
            self._put(out, (npub, nbk, None), H2, W[m])
        if not hidden:
            self.known_books[known_rank] = s
        self.book_log.append({"maker": s, "rank": known_rank, "owner": s})
        return self._finish(out)

    def _ask_book(self, groups: dict, ev: dict) -> dict:
        a, tg, r, success = ev["asker"], ev["target"], ev["rank"], ev["success"]
        if r in self.known_books:
            if success:
                move_known_book(self.known_books, self.book_log, r, a)
            return groups
        out: dict = {}
        for (pub, bk, pend), (H, W) in groups.items():
            idx = [i for i, (br, _) in enumerate(bk) if br == r]
            owner = bk[idx[0]][1] if idx else None
            if owner == a:
                continue
            if success:
                if owner != tg:
                    continue
                bk = tuple((br, a) if i == idx[0] else (br, ow) for i, (br, ow) in enumerate(bk))
            elif owner == tg:
                continue
            self._put(out, (pub, bk, pend), H, W)
        return self._finish(out)

    # ------------------------------------------------------------------ answers
    def total(self, groups: dict):
        return sum((W.sum() for _, W in groups.values()), 0)

    def holdings(self, groups: dict) -> tuple[dict, Any]:
        """``({(seat or "stock", rank): {count: weight}}, total weight)``."""
        t = self.t
        acc: dict = {}
        total = self.total(groups)
        for (pub, bk, pend), (H, W) in groups.items():
            booked = {br for br, _ in bk}
            for ri, r in enumerate(t.ranks):
                if r in self.known_books:
                    continue
                if r in booked:
                    tot = W.sum()
                    for s in list(t.others) + ["stock"]:
                        d = acc.setdefault((s, r), {})
                        d[0] = d.get(0, 0) + tot
                    continue
                hidden = np.zeros(len(H), dtype=np.int64)
                for k, s in enumerate(t.others):
                    x = H[:, k * self.R + ri].astype(np.int64)
                    hidden += x
                    pc = self.pubcount(pub[k], r)
                    d = acc.setdefault((s, r), {})
                    for v in np.unique(x):
                        d[int(v) + pc] = d.get(int(v) + pc, 0) + W[x == v].sum()
                stock = self.unknown(r, pub, bk) - hidden
                d = acc.setdefault(("stock", r), {})
                for v in np.unique(stock):
                    d[int(v)] = d.get(int(v), 0) + W[stock == v].sum()
        return acc, total

    def book_ranks(self, groups: dict) -> list[tuple[dict, dict]]:
        """Per hidden book (in order laid): ``({rank: weight}, {owner: weight})``."""
        out: list = []
        for (pub, bk, pend), (H, W) in groups.items():
            tot = W.sum()
            for i, (r, owner) in enumerate(bk):
                while len(out) <= i:
                    out.append(({}, {}))
                out[i][0][r] = out[i][0].get(r, 0) + tot
                out[i][1][owner] = out[i][1].get(owner, 0) + tot
        return out
