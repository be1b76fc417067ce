"""Tunable limits and defaults of the draw engine (read as ``settings.NAME`` so that tests
and callers can change them at run time)."""

from __future__ import annotations

#: Gibbs steps per query in approximate mode (``"seats"``: one seat's draws redrawn per step)
DEFAULT_STEPS = 400
#: draws redrawn together per Gibbs step (and summed over exactly in the estimates)
DEFAULT_BLOCK = 2
#: draws summed over in every step's estimate (Rao-Blackwellisation)
DEFAULT_RECORD_BLOCK = 4
#: rank exchanges per Gibbs step
DEFAULT_EXCHANGES = 2
#: the exact mode sums over the ranks of at least this many last draws inside the block
#: product (more when the capacity space is small: ``EXACT_CELLS``)
DEFAULT_EXACT_FREE = 10
#: ... and over ``m`` draws when ``2**m`` times the capacity states (``(hand + 1)**(players -
#: 1)``) is at most this. With 6 cards dealt: 14 draws with 4 players (343 states; about
#: 5-10 s and 500 MB on the full deck), 17 with 3 (49 states; about 7 s and 350 MB), 11 with
#: 5 (about 13 s and 750 MB), 10 (the floor) with 6 (about 40 s and 2.3 GB)
EXACT_CELLS = 6_500_000
#: past ``exact_free`` unseen draws the engine still sums over *all* of them exactly when the
#: tables of that block product (forward and backward, ``2 x`` the live subsets of
#: :meth:`_DP.live_rows` times the capacity states; 8 bytes a cell) hold at most this many
#: cells: about 1.6 GB (or the forward tables and two backward stages, streamed). Late in
#: a game most draws' ranks are pinned down enough that few subsets stay alive (most 4-player
#: positions with 15-22 unseen draws: 1-25 s, under 1 GB; some mid-game ones need 2-4 GB and
#: then sample)
EXACT_TABLE_CELLS = 200_000_000
#: past the budget the planned sum is cut into at most this many parts that each fit it,
#: each part restricting the ranks a few draws may have (:meth:`DrawEngine.split`): the
#: same exact sum in less memory, at more time
EXACT_SPLIT_PARTS = 32
#: ... and with ``exact_sum`` (never sample: ``cardmind hint --exact``) at most this many
EXACT_SPLIT_PARTS_MAX = 100_000
#: bytes of one table cell (float64): ``cardmind belief --exact-memory GB`` sets
#: ``exact_cells`` to ``GB * 1e9 / CELL_BYTES``
CELL_BYTES = 8
#: :func:`block_order` searches the best order of the blocks from this many free draws
#: (below it the order hardly matters and the search would cost more than it saves)
ORDER_MIN_FREE = 6
#: search nodes the exact enumeration of the other draws' ranks may visit before giving up
DEFAULT_ENUM_NODES = 40
#: most rank vectors of those draws the exact mode sums over
DEFAULT_ENUM_LEAVES = 2
#: importance samples of the estimate of the number of consistent deals
DEFAULT_IS_SAMPLES = 200
#: the Gibbs moves: ``"seats"`` (every step redraws all unseen draws of one seat jointly) or
#: ``"draws"`` (``block`` random draws per step; the older sampler)
DEFAULT_SAMPLER = "seats"
#: most draws of one seat redrawn (and summed over) in one ``"seats"`` step
DEFAULT_SEAT_CAP = 8
#: batches of the batch-means estimate of the sampler's standard error
STDERR_BATCHES = 10
#: chain states kept for the estimate of the number of consistent deals
VISITED_KEEP = 400
#: a :class:`_DP` whose tables hold at least this many cells runs its backward pass in a
#: second thread beside the forward one (the C kernels release the GIL)
PARALLEL_CELLS = 4_000_000
#: row lookups of a :class:`_DP` over ``m`` free draws use a dense table of ``2**m`` entries
#: up to this many draws (8 bytes each, built per stage), and keep it per stage for the
#: context sums up to ``KEEP_FIND_BITS``
DENSE_FIND_BITS = 23
KEEP_FIND_BITS = 20
#: :meth:`_DP.live_rows` collects distinct subsets in a bitmap of ``2**m`` bytes up to this
#: many draws (else sorts them)
BITMAP_BITS = 26
#: use the C kernels of ``_drawdp.c`` when they are built (False: the numpy reference)
DP_FAST = True
#: the compact exact sum (:mod:`.compact`): most rows, box cells (8 bytes each, in three
#: tables), transitions and multiply-adds of one pass of a plan, and most ways for one rank
#: to take the unseen draws; past them :func:`~.compact.plan_compact` gives up
COMPACT_MAX_ROWS = 2_000_000
COMPACT_MAX_CELLS = 12_000_000
COMPACT_MAX_NUS = 20_000
COMPACT_MAX_WORK = 4_000_000_000
COMPACT_MAX_TRANSITIONS = 3_000_000
#: the default tracker's budget of work units of one pass of the compact sum (the cells of
#: the source boxes times the block rows, an upper bound on the multiply-adds, plus
#: ``COMPACT_PAIR_COST`` per transition and block row: what a pair costs beside its cells);
#: 1.5e9 is about 1-3 s of the three passes on the 2-core machine these ran on; past it the
#: answer is sampled
COMPACT_WORK = 1_500_000_000
COMPACT_PAIR_COST = 30
#: below this many consistent deals the compact sum's counts are given as exact integers
COMPACT_INT_TOTAL = 1e8
#: the compact sum searches the ranks' order that minimises its estimated work when the
#: draw engine's order is estimated at more than this many row-moves (the search costs
#: about 0.1-0.3 s on a full deck)
COMPACT_ORDER_SEARCH = 3e5
#: the compact sum runs its forward and backward passes (independent, in C without the GIL)
#: in two threads when its plan has at least this many box cells (smaller sums: one thread;
#: the numbers are the same either way); 0 turns the second thread off
COMPACT_THREAD_CELLS = 50_000
