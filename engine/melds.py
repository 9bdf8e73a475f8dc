"""Melding arithmetic (sets and runs, deadwood, going out) as small pure functions over ints and tuples, with contracts.

Used by the rummy-like systems: The Card Game (sets and runs of 3 or more, one
rank wild per round, "at least 1 'normal' card" per meld) and Hand and Foot
(sets only, books of 7, "only 1 wild for every 2 'normal' cards", threes never
melded). Nothing here names a game: the rules come in as parameters.

Cards come in as parallel tuples, one entry per card: ``ranks`` (rank index, low
to high in the deck's rank order; ``-1`` for a joker), ``suits`` (``-1`` for a
joker), ``wild`` (whether the card is wild this round) and, where scored,
``values``. A wild card fills any place in a meld, including its own rank; a
natural (non-wild) card stands for itself only, so a natural joker is never
melded. Meld rules common to the hand-level functions are keyword arguments:

* ``kinds``: bit :data:`SET` and/or bit :data:`RUN`;
* ``min_size``, ``min_natural``: at least that many cards, and natural cards, per meld;
* ``max_wild``, ``per_natural``: in a set, ``wilds * per_natural <= naturals * max_wild``
  (``max_wild < 0``: no limit); ``unmeldable_ranks``: ranks whose naturals are in no set;
* ``n_ranks``, ``ace_rank``, ``ace_low``, ``ace_high``, ``wrap``: the places a run
  may take (see :func:`run_lines`);
* ``distinct_suits``: no two natural cards of a set are identical (same rank and suit);
* ``wild_sets``: wild cards alone, all of one rank, make a set of that rank counted as
  natural cards (The Card Game's three 3s in round 1, under that reading).

Hands are searched exactly, memoised on (how many natural cards of each class
of equal cards are left, how many wild cards are left); see :func:`min_deadwood`
for the bound. Contracts are PEP 316 docstring lines, as in
:mod:`cardspec.engine.kernels`.
"""

# PEP 316 conditions are one line each (CrossHair does not join continuation lines): allow long lines.
# ruff: noqa: E501

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Final

SET: Final = 1
"""``kinds`` bit: sets (natural cards of one rank) may be melded."""
RUN: Final = 2
"""``kinds`` bit: runs (consecutive ranks of one suit) may be melded."""
MAX_CARDS: Final = 16
"""The hand-level searches refuse larger hands (their cost is exponential in the hand size)."""
_NEVER: Final = 1 << 20
"""More melds than any hand needs: 'cannot be partitioned'."""
_F: Final = 6
"""Bits per class of equal natural cards in a packed multiset: a count (at most ``MAX_CARDS`` < 32) and a guard bit."""

Cands = dict[int, tuple[int, ...]]
_wilds_known: dict[tuple[object, ...], dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]]] = {}
"""For each (wild count, kinds, sizes, rule): natural ranks and suits -> the wild counts that make them a meld
(:func:`is_meld` is pure, and the same natural parts recur from hand to hand)."""
_WILDS_KNOWN_LIMIT: Final = 200_000
_SHARE: Final = 720720
"""lcm(1 .. MAX_CARDS): a natural's share ``k / n`` of a meld's ``k`` wilds is a whole number of ``1 / _SHARE``."""
_NO_MELD: Final = 1 << 40
"""A share no hand's wilds cover (:func:`out_screen`): the card fits no meld."""
RunShares = list[list[tuple[int, ...] | None]]
"""Per wild count: one suit's natural ranks (a bit mask, the index) -> its :func:`_run_shares` (pure, and suits
recur), for one run rule; a list indexed by the mask, not a dict (compiled, a dict key is boxed and hashed)."""
_share_tables: dict[tuple[int, int, tuple[int, int, bool, bool, bool]], RunShares] = {}
"""For each run rule (``min_size``, ``min_natural``, ``lines`` of :func:`screen_held`): its :data:`RunShares`."""
_SHARE_TABLE_RANKS: Final = 16
"""Decks of more ranks keep no :data:`RunShares` (a list of ``2 ** n_ranks`` entries per wild count)."""
_places: dict[tuple[int, int, bool, bool, bool], tuple[tuple[int, dict[int, int]], ...]] = {}
"""For each run rule: each of the :func:`run_lines`, as its length and rank -> place."""
Rule = tuple[int, int, tuple[int, ...], int, int, bool, bool, bool, bool]
"""``(max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)``."""


def is_set(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], min_size: int, min_natural: int,
           max_wild: int = -1, per_natural: int = 1, unmeldable_ranks: tuple[int, ...] = (),
           distinct_suits: bool = False, wild_sets: bool = False) -> bool:
    """Whether the cards make a set: all natural cards of one rank, with enough cards and naturals.

    At least ``min_size`` cards and ``min_natural`` natural cards; no natural joker
    and no natural of an ``unmeldable_ranks`` rank; when ``max_wild >= 0``, at most
    ``max_wild`` wilds per ``per_natural`` naturals (Hand and Foot: 1 per 2).
    Suits do not matter (several decks may give equal cards), unless
    ``distinct_suits``: then no two natural cards share a suit (no identical cards).
    With ``wild_sets``, wild cards alone, all of one rank, are judged as natural
    cards of that rank (a set of the wild rank).

    pre: len(ranks) == len(suits) == len(wild)
    pre: per_natural >= 1
    post: __return__ == ((wild_sets and len(ranks) > 0 and all(wild) and len(set(ranks)) == 1 and is_set(ranks, suits, (False,) * len(ranks), min_size, min_natural, max_wild, per_natural, unmeldable_ranks, distinct_suits)) or (len(ranks) >= min_size and sum(not w for w in wild) >= min_natural and len({r for r, w in zip(ranks, wild) if not w}) <= 1 and all(r >= 0 and r not in unmeldable_ranks for r, w in zip(ranks, wild) if not w) and (max_wild < 0 or sum(wild) * per_natural <= sum(not w for w in wild) * max_wild) and (not distinct_suits or len([s for s, w in zip(suits, wild) if not w]) == len({s for s, w in zip(suits, wild) if not w}))))

    >>> is_set((12, 12, 12, 12), (0, 1, 2, 3), (False,) * 4, 3, 1)  # "4 kings"
    True
    >>> is_set((2, 2, 5), (0, 1, 2), (True, True, True), 3, 1)  # three wild 3s: no "normal" card
    False
    >>> is_set((3, 3, 3, 1), (0, 1, 2, 0), (False, False, False, True), 3, 1, 1, 2)  # three 4s and a 2
    True
    >>> is_set((3, 3, 1, -1), (0, 1, 0, -1), (False, False, True, True), 3, 1, 1, 2)  # two wilds, two 4s
    False
    >>> is_set((2, 2, 5), (0, 1, 2), (True, True, True), 3, 1, wild_sets=True)  # wilds of two ranks: still no set
    False
    >>> is_set((2, 2, 2), (0, 1, 2), (True, True, True), 3, 1, wild_sets=True)  # three 3s as a set of threes
    True
    >>> is_set((12, 12, 12), (2, 2, 3), (False,) * 3, 3, 1), is_set((12, 12, 12), (2, 2, 3), (False,) * 3, 3, 1, distinct_suits=True)
    (True, False)
    """
    if wild_sets and ranks and all(wild) and len(set(ranks)) == 1:
        return is_set(ranks, suits, (False,) * len(ranks), min_size, min_natural, max_wild, per_natural,
                      unmeldable_ranks, distinct_suits)
    naturals = 0
    rank = -1
    for i in range(len(ranks)):  # index loops, not zip(strict=True): compiled, that zip is a generic call
        if wild[i]:
            continue
        r = ranks[i]
        if r < 0 or r in unmeldable_ranks or (naturals and r != rank):
            return False
        rank = r
        naturals += 1
    if len(ranks) < min_size or naturals < min_natural:
        return False
    if distinct_suits:
        nat_suits = [suits[i] for i in range(len(suits)) if not wild[i]]
        if len(set(nat_suits)) != len(nat_suits):
            return False
    return max_wild < 0 or (len(ranks) - naturals) * per_natural <= naturals * max_wild


def run_lines(n_ranks: int, ace_rank: int, ace_low: bool, ace_high: bool, wrap: bool) -> tuple[tuple[int, ...], ...]:
    """The rank sequences a run may follow, each low to high; with ``wrap``, the one sequence is circular.

    Ranks are ``0 .. n_ranks - 1`` in deck order. Without an ace (``ace_rank < 0``)
    that order is the one sequence. Otherwise the other ranks keep their order and
    the ace may sit before them (``ace_low``), after them (``ace_high``), or both,
    but not twice in one run; an ace allowed no way is in no run. ``wrap`` joins
    the ends, the ace (if any) between them (K-A-2), so runs may go round the corner.

    pre: n_ranks >= 1 and -1 <= ace_rank < n_ranks
    post: all(sorted(line) == sorted(set(line)) for line in __return__)
    post: all(len(line) <= n_ranks for line in __return__)
    post: not wrap or len(__return__) == 1
    post: ace_rank < 0 or (ace_low or ace_high or wrap) == any(ace_rank in line for line in __return__)

    >>> run_lines(13, 0, True, False, False)  # A 2 .. K, ace low only
    ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),)
    >>> [line[:2] + line[-2:] for line in run_lines(13, 0, True, True, False)]  # A-2-3 or Q-K-A
    [(0, 1, 11, 12), (1, 2, 12, 0)]
    """
    if ace_rank < 0:
        return (tuple(range(n_ranks)),)
    core = tuple(r for r in range(n_ranks) if r != ace_rank)
    if wrap:
        return ((*core, ace_rank),)
    lines = []
    if ace_low:
        lines.append((ace_rank, *core))
    if ace_high:
        lines.append((*core, ace_rank))
    return tuple(lines) if lines else (core,)


def is_run(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], min_size: int, min_natural: int,
           n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False, ace_high: bool = False, wrap: bool = False) -> bool:
    """Whether the cards make a run: consecutive places of one sequence, natural cards of one suit.

    The cards must fill ``len(ranks)`` consecutive places of one of the
    :func:`run_lines` (round the corner with ``wrap``), each natural card at its
    own rank's place, wild cards at the other places (ends included); so no two
    naturals share a rank, and a run is never longer than its sequence. At least
    ``min_size`` cards and ``min_natural`` natural cards.

    pre: len(ranks) == len(suits) == len(wild)
    pre: n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: not __return__ or min_size <= len(ranks) <= n_ranks
    post: not __return__ or sum(not w for w in wild) >= min_natural
    post: not __return__ or len({s for s, w in zip(suits, wild) if not w}) <= 1
    post: not __return__ or all(s >= 0 for s, w in zip(suits, wild) if not w)
    post: not __return__ or len([r for r, w in zip(ranks, wild) if not w]) == len({r for r, w in zip(ranks, wild) if not w})
    post: __return__ or not all(wild) or min_natural > 0 or len(ranks) < min_size or len(ranks) > max(len(line) for line in run_lines(n_ranks, ace_rank, ace_low, ace_high, wrap))

    >>> H, D = 2, 1
    >>> is_run((3, 4, 5), (H, H, H), (False,) * 3, 3, 1)  # "4, 5, 6 of Hearts"
    True
    >>> is_run((3, 4, 5), (H, D, H), (False,) * 3, 3, 1)  # not one suit
    False
    >>> is_run((6, 7, 3), (D, D, H), (False, False, True), 3, 1)  # 7D 8D and a wild 4H
    True
    >>> is_run((12, 0, 1), (H, H, H), (False,) * 3, 3, 1, 13, 0, True, True, False)  # K-A-2 without wrap
    False
    """
    naturals = [(ranks[i], suits[i]) for i in range(len(ranks)) if not wild[i]]
    size = len(ranks)
    if size < min_size or len(naturals) < min_natural:
        return False
    if any(s < 0 or s != naturals[0][1] for _, s in naturals):
        return False
    rs = sorted(r for r, _ in naturals)
    if any(a == b for a, b in pairwise(rs)):
        return False
    for line in run_lines(n_ranks, ace_rank, ace_low, ace_high, wrap):
        m = len(line)
        if size > m or any(r not in line for r in rs):
            continue
        if not rs:
            return True
        pos = sorted(line.index(r) for r in rs)
        if wrap:  # the shortest arc holding every natural leaves out the widest gap between two of them
            gap = max([b - a for a, b in pairwise(pos)] + [pos[0] + m - pos[-1]])
            need = m - gap + 1
        else:
            need = pos[-1] - pos[0] + 1
        if need <= size:
            return True
    return False


def is_meld(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], kinds: int, min_size: int,
            min_natural: int, *, max_wild: int = -1, per_natural: int = 1, unmeldable_ranks: tuple[int, ...] = (),
            n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False, ace_high: bool = False, wrap: bool = False,
            distinct_suits: bool = False, wild_sets: bool = False) -> bool:
    """Whether the cards make a set (if ``kinds`` has :data:`SET`) or a run (if it has :data:`RUN`).

    pre: len(ranks) == len(suits) == len(wild)
    pre: per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: __return__ == ((kinds & SET != 0 and is_set(ranks, suits, wild, min_size, min_natural, max_wild, per_natural, unmeldable_ranks, distinct_suits, wild_sets)) or (kinds & RUN != 0 and is_run(ranks, suits, wild, min_size, min_natural, n_ranks, ace_rank, ace_low, ace_high, wrap)))

    >>> is_meld((6, 7, 3), (1, 1, 2), (False, False, True), SET | RUN, 3, 1), is_meld((6, 7, 3), (1, 1, 2), (False, False, True), SET, 3, 1)
    (True, False)
    """
    if kinds & SET and is_set(ranks, suits, wild, min_size, min_natural, max_wild, per_natural, unmeldable_ranks,
                              distinct_suits, wild_sets):
        return True
    return bool(kinds & RUN) and is_run(ranks, suits, wild, min_size, min_natural, n_ranks, ace_rank, ace_low,
                                        ace_high, wrap)


def _classes(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...],
             values: tuple[int, ...]) -> list[list[int]]:
    """The natural cards' indices in classes of interchangeable cards (equal rank, suit and value), by first index."""
    if not len(ranks) == len(suits) == len(wild) == len(values) or len(ranks) > MAX_CARDS:
        raise ValueError(f"hands of equal-length tuples of at most {MAX_CARDS} cards only")
    classes: dict[tuple[int, int, int], list[int]] = {}
    for i, w in enumerate(wild):
        if not w:
            classes.setdefault((ranks[i], suits[i], values[i]), []).append(i)
    return list(classes.values())


def _fewest_partners_first(classes: list[list[int]], ranks: tuple[int, ...], suits: tuple[int, ...]) -> list[list[int]]:
    """The classes, those with the fewest natural cards of their rank or suit first: the solvers take the
    lowest class first, so a card few melds can hold is tried early and a hopeless search ends soon."""
    by_rank: dict[int, int] = {}
    by_suit: dict[int, int] = {}
    for c in classes:
        by_rank[ranks[c[0]]] = by_rank.get(ranks[c[0]], 0) + len(c)
        by_suit[suits[c[0]]] = by_suit.get(suits[c[0]], 0) + len(c)
    return sorted(classes, key=lambda c: by_rank[ranks[c[0]]] + by_suit[suits[c[0]]])


def _candidates(ranks: tuple[int, ...], suits: tuple[int, ...], classes: list[list[int]], n_wild: int, kinds: int,
                min_size: int, min_natural: int, rule: Rule) -> Cands:
    """Packed multiset of natural cards -> the numbers of wild cards (ascending) with which they make a meld.

    A multiset holds ``a`` cards of class ``j`` as ``a << _F * j``. Only natural
    parts that may be a meld are tried: a set's are cards of one meldable rank
    (one per class when ``distinct``); a run's, one card each of distinct ranks
    of one suit, on one of the :func:`run_lines`, whose stretch from the lowest to
    the highest (the shortest arc with ``wrap``) has at most ``n_wild`` places
    without a natural. Every run :func:`is_run` accepts has such a stretch (its
    places past its naturals are wild), so no meld is missed. Runs are grown from
    their lowest place upward, each next card further along, so the places
    without a natural only grow and the growth stops at the first that needs too many.
    """
    max_wild, per_natural, unmeldable, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct = rule
    heads = [(ranks[c[0]], suits[c[0]]) for c in classes]
    least = max(min_size - n_wild, min_natural)  # fewer naturals make no meld
    parts: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {0: ((), ())}  # packed -> its ranks, suits
    if kinds & SET:
        by_rank: dict[int, list[int]] = {}
        for j, (r, _) in enumerate(heads):
            if r >= 0 and r not in unmeldable:
                by_rank.setdefault(r, []).append(j)
        for r, js in by_rank.items():
            combos: list[tuple[int, tuple[int, ...]]] = [(0, ())]
            for j in js:  # identical cards: one per set when distinct
                combos = [(p + (a << _F * j), ss + (heads[j][1],) * a) for p, ss in combos
                          for a in range(1 + (1 if distinct else len(classes[j])))]
            for p, ss in combos[1:]:
                if len(ss) >= least:
                    parts[p] = ((r,) * len(ss), ss)
    if kinds & RUN:
        key = (n_ranks, ace_rank, ace_low, ace_high, wrap)
        places = _places.get(key) or _places.setdefault(key, tuple(
            (len(line), {r: i for i, r in enumerate(line)}) for line in run_lines(*key)))
        for size, place in places:
            by_suit: dict[int, list[tuple[int, int]]] = {}
            for j, (r, s) in enumerate(heads):
                if s >= 0 and r in place:
                    by_suit.setdefault(s, []).append((place[r], j))
            for s, members in by_suit.items():
                members.sort()
                for i, (p0, j0) in enumerate(members):
                    ahead = [((p - p0) % size, j) for p, j in members[i + 1:] + (members[:i] if wrap else [])]
                    stack: list[tuple[int, int, int, tuple[int, ...]]] = [(1 << _F * j0, 0, 1, (heads[j0][0],))]
                    while stack:  # (multiset, last place past p0, naturals, their ranks)
                        packed, last, n, sub_r = stack.pop()
                        if n >= least:
                            parts[packed] = (sub_r, (s,) * n)
                        for off, j in ahead:
                            if off - n > n_wild:  # places without a natural from p0 to off
                                break
                            if off > last:
                                stack.append((packed + (1 << _F * j), off, n + 1, (*sub_r, heads[j][0])))
    out: Cands = {}
    known = _wilds_known.setdefault((n_wild, kinds, min_size, min_natural, rule), {})
    if len(known) > _WILDS_KNOWN_LIMIT:
        known.clear()
    for packed, (sub_r, sub_s) in parts.items():
        ks = known.get((sub_r, sub_s))
        if ks is None:
            ks = known[(sub_r, sub_s)] = tuple(
                k for k in range(n_wild + 1)
                if is_meld(sub_r + (-1,) * k, sub_s + (-1,) * k, (False,) * len(sub_r) + (True,) * k, kinds, min_size,
                           min_natural, max_wild=max_wild, per_natural=per_natural, unmeldable_ranks=unmeldable,
                           n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low, ace_high=ace_high, wrap=wrap,
                           distinct_suits=distinct))
        if ks:
            out[packed] = ks
    return out


def _hand_cands(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], classes: list[list[int]],
                kinds: int, min_size: int, min_natural: int, rule: Rule, wild_sets: bool) -> Cands:
    """:func:`_candidates` for a hand, with ``wild_sets``: the hand's wild cards alone (all of one rank)
    make a set of that rank, so a number of wilds alone melds when that many naturals of the rank would."""
    n_wild = sum(wild)
    cands = _candidates(ranks, suits, classes, n_wild, kinds, min_size, min_natural, rule)
    if wild_sets and n_wild and kinds & SET:
        wild_ranks = {r for r, w in zip(ranks, wild, strict=True) if w}
        if len(wild_ranks) > 1 or rule[8]:
            raise ValueError("wild_sets needs the wild cards of one rank, and no distinct_suits")
        r = wild_ranks.pop()
        alone = tuple(k for k in range(1, n_wild + 1)
                      if is_set((r,) * k, (0,) * k, (False,) * k, min_size, min_natural, rule[0], rule[1], rule[2]))
        if alone:
            cands[0] = tuple(sorted(set(cands.get(0, ())) | set(alone)))
    return cands


def _by_low(cands: Cands, n_classes: int) -> tuple[int, dict[int, list[tuple[int, tuple[int, ...]]]]]:
    """The guard bits of a packed multiset of ``n_classes`` classes, and the natural parts by their lowest class."""
    by_low: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for packed, ks in cands.items():
        if packed:
            by_low.setdefault(((packed & -packed).bit_length() - 1) // _F, []).append((packed, ks))
    return sum(1 << (_F * j + _F - 1) for j in range(n_classes)), by_low


def _solver(cands: Cands, n_classes: int, base: list[int], drop: list[int] | None, step: int) -> Callable[[int, int], int]:
    """f(state, w): the least cost of the naturals in the packed multiset ``state`` and ``w`` wilds.

    A meld costs ``step``; with no naturals left the cost is ``base[w]`` or a meld
    of wilds only; a natural of class ``j`` may be left out at ``drop[j]`` (never,
    if ``drop`` is None). Memoised; the naturals are taken lowest class first.
    """
    guard, by_low = _by_low(cands, n_classes)
    pure = cands.get(0, ())
    memo: dict[int, int] = {}  # state << 5 | w (w <= MAX_CARDS < 32) -> f(state, w)

    def f(state: int, w: int) -> int:
        key = state << 5 | w
        best = memo.get(key)
        if best is not None:
            return best
        if state == 0:
            best = base[w]
            for s in pure:
                if s <= w:
                    best = min(best, step + f(0, w - s))
        else:
            j = ((state & -state).bit_length() - 1) // _F
            best = _NEVER if drop is None else drop[j] + f(state - (1 << _F * j), w)
            for packed, ks in by_low.get(j, ()):
                if ((state | guard) - packed) & guard == guard:  # no count goes below zero
                    rest = state - packed
                    for k in ks:  # ascending
                        if k > w:
                            break
                        cost = step + f(rest, w - k)
                        if cost < best:
                            best = cost
        memo[key] = best
        return best

    return f


def _layable(cands: Cands, n_classes: int) -> Callable[[int, int], bool]:
    """h(state, w): whether the naturals in ``state`` and ``w`` wilds can all be laid in melds, any number of them.

    The same search as ``_solver(cands, n_classes, [0] + [_NEVER] * W, None, 1)(state, w) < _NEVER``, but
    a state stops at the first way found instead of counting the melds of every way.
    """
    guard, by_low = _by_low(cands, n_classes)
    pure = cands.get(0, ())
    memo: dict[int, bool] = {}

    def h(state: int, w: int) -> bool:
        key = state << 5 | w
        ok = memo.get(key)
        if ok is not None:
            return ok
        if state == 0:
            ok = w == 0 or any(s <= w and h(0, w - s) for s in pure)
        else:
            j = ((state & -state).bit_length() - 1) // _F
            ok = any(h(state - packed, w - k) for packed, ks in by_low.get(j, ())
                     if ((state | guard) - packed) & guard == guard for k in ks if k <= w)
        memo[key] = ok
        return ok

    return h


def min_deadwood(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], values: tuple[int, ...],
                 kinds: int, min_size: int, min_natural: int, *, max_wild: int = -1, per_natural: int = 1,
                 unmeldable_ranks: tuple[int, ...] = (), n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False,
                 ace_high: bool = False, wrap: bool = False, distinct_suits: bool = False, wild_sets: bool = False) -> int:
    """The least total ``values`` of the cards left out, over all ways to lay part of the hand in disjoint melds.

    The Card Game's tally: "anyone who has a set or run of at least 3 doesn't
    count those points against them" (wild cards count their own value when left
    out: "a 3 is worth 3 points… even if the card is wild").

    Exact search, bounded by the hand size (at most ``MAX_CARDS``, else ValueError).
    Which wilds a meld holds does not change whether it is a meld, and neither
    does which of several equal natural cards it holds; so the most valuable ones
    are melded first and the state is (how many natural cards of each class of
    equal cards are left, how many wilds are left). For ``N`` naturals and ``W``
    wilds: at most ``2**N`` natural parts of melds, each checked with ``0..W``
    wilds, and ``2**N * (W + 1)`` states, each trying the melds that hold its
    lowest class. Measured: 14-card hands with 4 wilds take about 10 ms (random
    two-deck hands) to 0.1 s (ten naturals of one suit); the slowest 14-card hand
    found, thirteen naturals of one suit and a wild, about 0.5 s.

    pre: len(ranks) == len(suits) == len(wild) == len(values) <= MAX_CARDS
    pre: min_size >= 1 and per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    pre: all(v >= 0 for v in values)
    post: 0 <= __return__ <= sum(values)
    post: (kinds & (SET | RUN) != 0 and len(ranks) >= min_size) or __return__ == sum(values)

    >>> A, H, D, S = 0, 2, 1, 3  # round 4: fours (rank 3) are wild; 7D 8D 4H 2S
    >>> min_deadwood((6, 7, 3, 1), (D, D, H, S), (False, False, True, False), (7, 8, 4, 2), SET | RUN, 3, 1)
    2
    """
    classes = _classes(ranks, suits, wild, values)
    rule = (max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)
    wv = sorted((v for v, w in zip(values, wild, strict=True) if w), reverse=True)
    cands = _hand_cands(ranks, suits, wild, classes, kinds, min_size, min_natural, rule, wild_sets)
    cheapest = [sum(wv[len(wv) - w:]) for w in range(len(wv) + 1)]  # the wilds left out are the cheapest
    f = _solver(cands, len(classes), cheapest, [values[c[0]] for c in classes], 0)
    return f(sum(len(c) << _F * j for j, c in enumerate(classes)), len(wv))


def meld_partition(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], kinds: int, min_size: int,
                   min_natural: int, *, max_melds: int = -1, max_wild: int = -1, per_natural: int = 1,
                   unmeldable_ranks: tuple[int, ...] = (), n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False,
                   ace_high: bool = False, wrap: bool = False, distinct_suits: bool = False,
                   wild_sets: bool = False) -> tuple[tuple[int, ...], ...] | None:
    """A partition of ALL the cards into at most ``max_melds`` melds (``-1``: any number), or None if there is none.

    The answer is deterministic: each meld lists its card indices ascending, the
    melds are ordered by their lowest index, and of all such partitions the
    lexicographically smallest (Python tuple order) is returned. Found greedily:
    the meld holding the lowest card left is the smallest one after which the
    rest can still be partitioned within the budget. Search bound as in
    :func:`min_deadwood`.

    pre: len(ranks) == len(suits) == len(wild) <= MAX_CARDS
    pre: min_size >= 1 and per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: __return__ is None or sorted(i for meld in __return__ for i in meld) == list(range(len(ranks)))
    post: __return__ is None or max_melds < 0 or len(__return__) <= max_melds
    post: __return__ is None or list(__return__) == sorted(__return__)
    post: __return__ is None or all(is_meld(tuple(ranks[i] for i in m), tuple(suits[i] for i in m), tuple(wild[i] for i in m), kinds, min_size, min_natural, max_wild=max_wild, per_natural=per_natural, unmeldable_ranks=unmeldable_ranks, n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low, ace_high=ace_high, wrap=wrap, distinct_suits=distinct_suits, wild_sets=wild_sets) for m in __return__)

    >>> S, H = 3, 2  # 6-card round, sixes wild: 5S 5H 7S 8S 6H 9S
    >>> meld_partition((4, 4, 6, 7, 5, 8), (S, H, S, S, H, S), (False,) * 4 + (True, False), SET | RUN, 3, 1)
    ((0, 1, 4), (2, 3, 5))
    """
    classes = _classes(ranks, suits, wild, (0,) * len(ranks))
    rule = (max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)
    wilds = [i for i, w in enumerate(wild) if w]
    cands = _hand_cands(ranks, suits, wild, classes, kinds, min_size, min_natural, rule, wild_sets)
    g = _solver(cands, len(classes), [0] + [_NEVER] * len(wilds), None, 1)
    state = sum(len(c) << _F * j for j, c in enumerate(classes))
    budget = len(ranks) if max_melds < 0 else min(max_melds, len(ranks))  # no partition needs more melds
    if g(state, len(wilds)) > budget:
        return None
    guard = sum(1 << (_F * j + _F - 1) for j in range(len(classes)))
    taken = [0] * len(classes)  # each meld takes the lowest cards left of each class, and the lowest wilds left
    used = 0
    parts: list[tuple[int, ...]] = []
    while state or used < len(wilds):
        w = len(wilds) - used
        heads = [(c[taken[j]], j) for j, c in enumerate(classes) if taken[j] < len(c)]
        first = min(heads, default=(len(ranks), -1))
        if w and wilds[used] < first[0]:
            first = (wilds[used], -1)
        best: tuple[tuple[int, ...], int, int] | None = None
        for packed, ks in cands.items():
            if ((state | guard) - packed) & guard != guard or (first[1] >= 0 and not packed >> _F * first[1] & 31):
                continue
            for k in ks:
                if k > w or (first[1] < 0 and k == 0) or 1 + g(state - packed, w - k) > budget - len(parts):
                    continue
                meld = tuple(sorted([i for j, c in enumerate(classes)
                                     for i in c[taken[j]:taken[j] + (packed >> _F * j & 31)]] + wilds[used:used + k]))
                if best is None or meld < best[0]:
                    best = (meld, packed, k)
        assert best is not None  # g said the rest can be partitioned
        parts.append(best[0])
        for j in range(len(classes)):
            taken[j] = taken[j] + (best[1] >> _F * j & 31)
        state -= best[1]
        used += best[2]
    return tuple(parts)


def can_go_out(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], kinds: int, min_size: int,
               min_natural: int, *, max_melds: int = -1, max_wild: int = -1, per_natural: int = 1,
               unmeldable_ranks: tuple[int, ...] = (), n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False,
               ace_high: bool = False, wrap: bool = False, distinct_suits: bool = False, wild_sets: bool = False) -> bool:
    """Whether ALL the cards can be laid in at most ``max_melds`` melds (``-1``: any number); no cards: True.

    Going out in The Card Game is "you must use all your cards, and you must
    discard": the caller removes the discard first, asking this of the hand
    without each candidate discard in turn (so six cards making two sets of 3
    do not go out in the 5-card round: any five of them leave two cards over).
    Search bound as in :func:`min_deadwood`.

    pre: len(ranks) == len(suits) == len(wild) <= MAX_CARDS
    pre: min_size >= 1 and per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: not __return__ or len(ranks) == 0 or (len(ranks) >= min_size and max_melds != 0 and kinds & (SET | RUN) != 0)
    post: __return__ == (meld_partition(ranks, suits, wild, kinds, min_size, min_natural, max_melds=max_melds, max_wild=max_wild, per_natural=per_natural, unmeldable_ranks=unmeldable_ranks, n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low, ace_high=ace_high, wrap=wrap, distinct_suits=distinct_suits, wild_sets=wild_sets) is not None)

    >>> S, H, D = 3, 2, 1  # 5-card round, fives (rank 4) wild: 9S 9H 9D and the wild 5H 5D
    >>> can_go_out((8, 8, 8, 4, 4), (S, H, D, H, D), (False,) * 3 + (True, True), SET | RUN, 3, 1)
    True
    """
    classes = _fewest_partners_first(_classes(ranks, suits, wild, (0,) * len(ranks)), ranks, suits)
    rule = (max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)
    n_wild = sum(wild)
    cands = _hand_cands(ranks, suits, wild, classes, kinds, min_size, min_natural, rule, wild_sets)
    state = sum(len(c) << _F * j for j, c in enumerate(classes))
    if max_melds < 0 or max_melds >= len(ranks):  # no partition needs more melds than cards
        return _layable(cands, len(classes))(state, n_wild)
    return _solver(cands, len(classes), [0] + [_NEVER] * n_wild, None, 1)(state, n_wild) <= max_melds


def _run_shares(mask: int, n_wild: int, min_size: int, min_natural: int,
                lines: tuple[tuple[int, ...], ...], wrap: bool, n_ranks: int) -> tuple[int, ...]:
    """Per rank: the least share of wilds per natural (times :data:`_SHARE`) of a run holding that rank's natural.

    ``mask`` holds one suit's natural ranks. A run fills a stretch of ``L`` places
    of a line (round the corner with ``wrap``); with ``n`` of them held as
    naturals it needs ``L - n`` wilds (at most ``n_wild``), so its naturals'
    share is ``(L - n) / n``: every run the hand could lay with that suit is such a
    stretch, or one with fewer naturals and a larger share. :data:`_NO_MELD` where no run fits.
    """
    best = [_NO_MELD] * n_ranks
    fewest = max(min_natural, 1)
    for line in lines:
        size = len(line)
        bits = [mask >> r & 1 for r in line]
        for start in range(size if wrap else size - min_size + 1):
            n = 0
            for length in range(1, (size if wrap else size - start) + 1):
                n += bits[(start + length - 1) % size]
                if length - n > n_wild:
                    break
                if length >= min_size and n >= fewest:
                    share = (length - n) * _SHARE // n
                    for j in range(start, start + length):
                        r = line[j % size]
                        if bits[j % size] and share < best[r]:
                            best[r] = share
    return tuple(best)


def out_screen(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], kinds: int, min_size: int,
               min_natural: int, *, max_wild: int = -1, per_natural: int = 1, unmeldable_ranks: tuple[int, ...] = (),
               n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False, ace_high: bool = False,
               wrap: bool = False, distinct_suits: bool = False, wild_sets: bool = False) -> tuple[int, ...]:
    """The indices ``i`` that may be discards (a cheap bound): for every other ``i``, the hand without card ``i``
    cannot all be laid in melds, whatever ``max_melds``.

    Sound because going out lays every wild card: each meld ``M`` holds ``n`` naturals and ``k`` wilds, so
    the wilds in hand are ``sum(k)``, and splitting each meld's ``k`` evenly over its naturals, that is the
    sum over the naturals of ``k / n``. Each natural's share is at least the least ``k / n`` of any meld
    the whole hand could hold it in: a set of its rank with every natural of that rank (``max(0, min_size
    - n) / n``), or a stretch of run places with every natural of its suit there (:func:`_run_shares`);
    no such meld, no share small enough (a card no meld holds). Fewer cards only raise the least shares,
    so if the shares of the other naturals sum to more than the wilds left, that hand cannot go out.
    Wild ratios, unmeldable ranks (kept), distinct suits and meld budgets are left out: they only make
    laying harder. A meld of wilds alone (``wild_sets``) holds no natural and only uses up wilds.

    pre: len(ranks) == len(suits) == len(wild) <= MAX_CARDS
    pre: min_size >= 1 and per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: all(i in __return__ or not can_go_out(ranks[:i] + ranks[i + 1:], suits[:i] + suits[i + 1:], wild[:i] + wild[i + 1:], kinds, min_size, min_natural, max_wild=max_wild, per_natural=per_natural, unmeldable_ranks=unmeldable_ranks, n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low, ace_high=ace_high, wrap=wrap, distinct_suits=distinct_suits, wild_sets=wild_sets) for i in range(len(ranks)))

    >>> S, H, D = 3, 2, 1  # 9S 9H 9D 7S 2H: two cards no meld can hold, so no discard goes out
    >>> out_screen((8, 8, 8, 6, 1), (S, H, D, S, H), (False,) * 5, SET | RUN, 3, 1)
    ()
    >>> out_screen((8, 8, 6, 1, 4), (S, H, S, H, D), (False,) * 4 + (True,), SET | RUN, 3, 1)  # 9S 9H 7S 2H, wild 5D
    ()
    >>> out_screen((8, 8, 6, 4), (S, H, S, D), (False,) * 3 + (True,), SET | RUN, 3, 1)  # 9S 9H 7S, wild 5D
    (0, 1, 2)
    >>> out_discards((8, 8, 6, 4), (S, H, S, D), (False,) * 3 + (True,), SET | RUN, 3, 1)  # a bound: 9H 7S and a wild meld nothing
    (1, 2)
    """
    return tuple(screen_held(list(range(len(ranks))), ranks, suits, wild, max(suits, default=-1) + 1, kinds, min_size,
                             min_natural, (n_ranks, ace_rank, ace_low, ace_high, wrap), unmeldable_ranks))


def run_shares_memo(min_size: int, min_natural: int, lines: tuple[int, int, bool, bool, bool]) -> RunShares:
    """The memo :func:`screen_held` keeps of :func:`_run_shares` for this rule (``lines``: :func:`run_lines`'s
    arguments), shared by every caller of the rule."""
    key = (min_size, min_natural, lines)
    memo = _share_tables.get(key)
    if memo is None:
        memo = _share_tables[key] = []
    return memo


def screen_held(held: list[int], rank_of: tuple[int, ...], suit_of: tuple[int, ...], wild: tuple[bool, ...],
                n_suits: int, kinds: int, min_size: int, min_natural: int, lines: tuple[int, int, bool, bool, bool],
                unmeldable_ranks: tuple[int, ...] = (), memo: RunShares | None = None) -> list[int]:
    """:func:`out_screen` of the cards ``held`` (card ids): those that may be discards, in the order held.

    Card ``c`` has rank ``rank_of[c]`` and suit ``suit_of[c]`` (below ``n_suits``; -1 for none), and is wild when
    ``wild[c]``; ``lines`` are the arguments of :func:`run_lines`; ``memo``, if given, is :func:`run_shares_memo`
    of this rule (a caller asking often keeps it, saving the look-up by the rule). Card ids and per-card tables,
    with no tuple per card: a draw-and-discard turn asks it on every discard (:meth:`~cardspec.engine.components.
    melding.MeldRules.out_discards`), and it usually rules every card out. So the counts per rank and the ranks per suit
    are bit fields of two ints, not lists (compiled, an int in a local is a machine word, one in a list a
    boxed object); the shares are summed without a list, and the sum stops at the first card that settles
    the answer "none": the shares of all the cards but the largest one only grow as cards are added, and no
    card may go once they need more than the wilds held. Only a hand that passes is gone through again, for the
    cards that may go.

    pre: len(rank_of) == len(suit_of) == len(wild) and all(0 <= c < len(rank_of) for c in held)
    pre: all(-1 <= s < n_suits for s in suit_of) and all(-1 <= r < lines[0] for r in rank_of) and lines[0] >= 1
    pre: min_size >= 1
    post: all(c in held for c in __return__)

    >>> rank_of, suit_of = tuple(c % 13 for c in range(52)), tuple(c // 13 for c in range(52))
    >>> wild = tuple(r == 4 for r in rank_of)  # fives wild
    >>> nine_s, nine_h, seven_s, five_d = 3 * 13 + 8, 2 * 13 + 8, 3 * 13 + 6, 1 * 13 + 4  # out_screen's example
    >>> screen_held([nine_s, nine_h, seven_s, five_d], rank_of, suit_of, wild, 4, SET | RUN, 3, 1,
    ...             (13, -1, False, False, False))  # the naturals, not the wild
    [47, 34, 45]
    """
    n_ranks = lines[0]
    width = len(held).bit_length()  # bits per rank's count: no count reaches 1 << width
    n_wild = counts = have = 0  # counts: rank r's naturals at bit width * r; have: suit s's ranks at bit n_ranks * s
    for c in held:
        if wild[c]:
            n_wild += 1
            continue
        r = rank_of[c]
        if r >= 0:
            counts += 1 << width * r
            s = suit_of[c]
            if s >= 0:
                have |= 1 << n_ranks * s + r
    runs = kinds & RUN
    tables: list[tuple[int, ...] | None] | None = None  # the memo of run shares, if kept
    if runs and n_ranks <= _SHARE_TABLE_RANKS:
        if memo is None:
            memo = run_shares_memo(min_size, min_natural, lines)
        while len(memo) <= n_wild:
            memo.append([None] * (1 << n_ranks))
        tables = memo[n_wild]
    sets = kinds & SET
    spare = n_wild * _SHARE  # what the wilds held cover
    field = (1 << width) - 1
    suit_ranks = (1 << n_ranks) - 1
    out: list[int] = []  # the cards that may go (on the second pass)
    least = 0  # (after the first pass) card c may go when its share is at least this (+ one wild's, if wild)
    for keep in range(2):  # the sum, then (only if the hand passes) the cards that may go
        total = top = 0
        run: tuple[int, ...] = ()
        run_suit = -1  # the suit whose run shares are ``run`` (cards held suit by suit look each suit up once)
        for c in held:
            share = 0
            is_wild = wild[c]
            if not is_wild:
                share = _NO_MELD
                r = rank_of[c]
                if r >= 0:
                    k = counts >> width * r & field
                    if sets and k >= min_natural and k + n_wild >= min_size and \
                            (not unmeldable_ranks or r not in unmeldable_ranks):
                        share = max(0, min_size - k) * _SHARE // k
                    s = suit_of[c]
                    if runs and s >= 0:
                        if s != run_suit:
                            mask = have >> n_ranks * s & suit_ranks
                            got = tables[mask] if tables is not None else None
                            if got is None:
                                got = _run_shares(mask, n_wild, min_size, min_natural, run_lines(
                                    n_ranks, lines[1], lines[2], lines[3], lines[4]), lines[4], n_ranks)
                                if tables is not None:
                                    tables[mask] = got
                            run, run_suit = got, s
                        if run[r] < share:
                            share = run[r]
            total += share
            if share > top:
                top = share
            if total - top > spare:  # not even dropping the card of the largest share leaves a hand the wilds cover
                return out  # (still empty)
            if keep and share >= least + (_SHARE if is_wild else 0):
                out.append(c)
        least = total - spare
    return out


def out_discards(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], kinds: int, min_size: int,
                 min_natural: int, *, max_melds: int = -1, max_wild: int = -1, per_natural: int = 1,
                 unmeldable_ranks: tuple[int, ...] = (), n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False,
                 ace_high: bool = False, wrap: bool = False, distinct_suits: bool = False) -> tuple[int, ...]:
    """The indices ``i`` such that every card but card ``i`` can be laid in at most ``max_melds`` melds.

    What :func:`can_go_out` answers for the hand without each card in turn, from one search: the melds of
    a hand without a card are those of the whole hand that do not use it, so one memoised solver over the
    whole hand's melds is asked about each smaller hand (a natural card of class ``j`` is one fewer of
    that class; a wild card, one fewer wild), and only about the cards :func:`out_screen` leaves. (Without
    ``wild_sets``: a meld of wild cards alone depends on which wild cards are left.)

    pre: 1 <= len(ranks) == len(suits) == len(wild) <= MAX_CARDS
    pre: min_size >= 1 and per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: __return__ == tuple(i for i in range(len(ranks)) if can_go_out(ranks[:i] + ranks[i + 1:], suits[:i] + suits[i + 1:], wild[:i] + wild[i + 1:], kinds, min_size, min_natural, max_melds=max_melds, max_wild=max_wild, per_natural=per_natural, unmeldable_ranks=unmeldable_ranks, n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low, ace_high=ace_high, wrap=wrap, distinct_suits=distinct_suits))

    >>> S, H, D = 3, 2, 1  # 9S 9H 9D 7S: only the seven can go, leaving a set of nines
    >>> out_discards((8, 8, 8, 6), (S, H, D, S), (False,) * 4, SET | RUN, 3, 1)
    (3,)
    """
    maybe = out_screen(ranks, suits, wild, kinds, min_size, min_natural, max_wild=max_wild, per_natural=per_natural,
                       unmeldable_ranks=unmeldable_ranks, n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low,
                       ace_high=ace_high, wrap=wrap, distinct_suits=distinct_suits)
    if not maybe:
        return ()
    classes = _fewest_partners_first(_classes(ranks, suits, wild, (0,) * len(ranks)), ranks, suits)
    rule = (max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)
    n_wild = sum(wild)
    cands = _hand_cands(ranks, suits, wild, classes, kinds, min_size, min_natural, rule, False)
    n = len(ranks) - 1
    if max_melds < 0 or max_melds >= n:  # no partition needs more melds than cards
        ok: Callable[[int, int], bool] = _layable(cands, len(classes))
    else:
        g = _solver(cands, len(classes), [0] + [_NEVER] * n_wild, None, 1)
        ok = lambda state, w: g(state, w) <= max_melds  # noqa: E731
    full = sum(len(c) << _F * j for j, c in enumerate(classes))
    class_of = {i: j for j, c in enumerate(classes) for i in c}
    return tuple(i for i in maybe if ok(*((full, n_wild - 1) if wild[i] else (full - (1 << _F * class_of[i]), n_wild))))

