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

SET = 1
"""``kinds`` bit: sets (natural cards of one rank) may be melded."""
RUN = 2
"""``kinds`` bit: runs (consecutive ranks of one suit) may be melded."""
MAX_CARDS = 16
"""The hand-level searches refuse larger hands (their cost is exponential in the hand size)."""
_NEVER = 1 << 20
"""More melds than any hand needs: 'cannot be partitioned'."""
_F = 6
"""Bits per class of equal natural cards in a packed multiset: a count (at most ``MAX_CARDS`` < 32) and a guard bit."""

Cands = dict[int, tuple[int, ...]]
_wilds_known: dict[tuple[object, ...], dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]]] = {}
"""For each (wild count, kinds, sizes, rule): natural ranks and suits -> the wild counts that make them a meld
(:func:`is_meld` is pure, and the same natural parts recur from hand to hand)."""
_WILDS_KNOWN_LIMIT = 200_000
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
    for r, w in zip(ranks, wild, strict=True):
        if w:
            continue
        if r < 0 or r in unmeldable_ranks or (naturals and r != rank):
            return False
        rank = r
        naturals += 1
    if len(ranks) < min_size or naturals < min_natural:
        return False
    if distinct_suits:
        nat_suits = [s for s, w in zip(suits, wild, strict=True) if not w]
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
    naturals = [(r, s) for r, s, w in zip(ranks, suits, wild, strict=True) if not w]
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


def _candidates(ranks: tuple[int, ...], suits: tuple[int, ...], classes: list[list[int]], n_wild: int, kinds: int,
                min_size: int, min_natural: int, rule: Rule) -> Cands:
    """Packed multiset of natural cards -> the numbers of wild cards (ascending) with which they make a meld.

    A multiset holds ``a`` cards of class ``j`` as ``a << _F * j``. Natural parts
    are grown class by class and pruned as soon as they can be neither a set (one
    rank, meldable) nor a run (one suit, distinct ranks): both properties pass to
    every part of a meld, so no meld is missed.
    """
    max_wild, per_natural, unmeldable, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct = rule
    out: Cands = {}
    known = _wilds_known.setdefault((n_wild, kinds, min_size, min_natural, rule), {})
    if len(known) > _WILDS_KNOWN_LIMIT:
        known.clear()
    stack: list[tuple[int, int, tuple[int, ...], tuple[int, ...], bool, bool]] = [
        (0, -1, (), (), bool(kinds & SET), bool(kinds & RUN))]  # (multiset, last class, its ranks, suits, set ok, run ok)
    while stack:
        packed, last, sub_r, sub_s, set_ok, run_ok = stack.pop()
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
        for j in range(last + 1, len(classes)):
            r, s = ranks[classes[j][0]], suits[classes[j][0]]
            s_ok = set_ok and r >= 0 and r not in unmeldable and (not sub_r or r == sub_r[0])
            r_ok = run_ok and r >= 0 and s >= 0 and r not in sub_r and (not sub_s or s == sub_s[0])
            for a in range(1, len(classes[j]) + 1):
                sa = s_ok and (a == 1 or not distinct)  # identical cards: one per set when distinct
                if sa or (r_ok and a == 1):
                    stack.append((packed + (a << _F * j), j, sub_r + (r,) * a, sub_s + (s,) * a, sa, r_ok and a == 1))
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


def _solver(cands: Cands, n_classes: int, base: list[int], drop: list[int] | None, step: int) -> Callable[[int, int], int]:
    """f(state, w): the least cost of the naturals in the packed multiset ``state`` and ``w`` wilds.

    A meld costs ``step``; with no naturals left the cost is ``base[w]`` or a meld
    of wilds only; a natural of class ``j`` may be left out at ``drop[j]`` (never,
    if ``drop`` is None). Memoised; the naturals are taken lowest class first.
    """
    guard = sum(1 << (_F * j + _F - 1) for j in range(n_classes))
    by_low: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for packed, ks in cands.items():
        if packed:
            by_low.setdefault(((packed & -packed).bit_length() - 1) // _F, []).append((packed, ks))
    pure = cands.get(0, ())
    memo: dict[tuple[int, int], int] = {}

    def f(state: int, w: int) -> int:
        if (state, w) in memo:
            return memo[(state, w)]
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
                    for k in ks:
                        if k <= w:
                            best = min(best, step + f(state - packed, w - k))
        memo[(state, w)] = best
        return best

    return f


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
            taken[j] += best[1] >> _F * j & 31
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
    classes = _classes(ranks, suits, wild, (0,) * len(ranks))
    rule = (max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)
    n_wild = sum(wild)
    g = _solver(_hand_cands(ranks, suits, wild, classes, kinds, min_size, min_natural, rule, wild_sets), len(classes),
                [0] + [_NEVER] * n_wild, None, 1)
    budget = len(ranks) if max_melds < 0 else min(max_melds, len(ranks))  # no partition needs more melds
    return g(sum(len(c) << _F * j for j, c in enumerate(classes)), n_wild) <= budget


def out_discards(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], kinds: int, min_size: int,
                 min_natural: int, *, max_melds: int = -1, max_wild: int = -1, per_natural: int = 1,
                 unmeldable_ranks: tuple[int, ...] = (), n_ranks: int = 13, ace_rank: int = -1, ace_low: bool = False,
                 ace_high: bool = False, wrap: bool = False, distinct_suits: bool = False) -> tuple[int, ...]:
    """The indices ``i`` such that every card but card ``i`` can be laid in at most ``max_melds`` melds.

    What :func:`can_go_out` answers for the hand without each card in turn, from one search: the melds of
    a hand without a card are those of the whole hand that do not use it, so one memoised solver over the
    whole hand's melds is asked about each smaller hand (a natural card of class ``j`` is one fewer of
    that class; a wild card, one fewer wild). (Without ``wild_sets``: a meld of wild cards alone depends on
    which wild cards are left.)

    pre: 1 <= len(ranks) == len(suits) == len(wild) <= MAX_CARDS
    pre: min_size >= 1 and per_natural >= 1 and n_ranks >= 1 and -1 <= ace_rank < n_ranks
    pre: all(-1 <= r < n_ranks for r in ranks)
    post: __return__ == tuple(i for i in range(len(ranks)) if can_go_out(ranks[:i] + ranks[i + 1:], suits[:i] + suits[i + 1:], wild[:i] + wild[i + 1:], kinds, min_size, min_natural, max_melds=max_melds, max_wild=max_wild, per_natural=per_natural, unmeldable_ranks=unmeldable_ranks, n_ranks=n_ranks, ace_rank=ace_rank, ace_low=ace_low, ace_high=ace_high, wrap=wrap, distinct_suits=distinct_suits))

    >>> S, H, D = 3, 2, 1  # 9S 9H 9D 7S: only the seven can go, leaving a set of nines
    >>> out_discards((8, 8, 8, 6), (S, H, D, S), (False,) * 4, SET | RUN, 3, 1)
    (3,)
    """
    classes = _classes(ranks, suits, wild, (0,) * len(ranks))
    rule = (max_wild, per_natural, unmeldable_ranks, n_ranks, ace_rank, ace_low, ace_high, wrap, distinct_suits)
    n_wild = sum(wild)
    g = _solver(_hand_cands(ranks, suits, wild, classes, kinds, min_size, min_natural, rule, False), len(classes),
                [0] + [_NEVER] * n_wild, None, 1)
    full = sum(len(c) << _F * j for j, c in enumerate(classes))
    n = len(ranks) - 1
    budget = n if max_melds < 0 else min(max_melds, n)  # no partition needs more melds
    class_of = {i: j for j, c in enumerate(classes) for i in c}
    out = []
    for i in range(len(ranks)):
        state, w = (full, n_wild - 1) if wild[i] else (full - (1 << _F * class_of[i]), n_wild)
        if g(state, w) <= budget:
            out.append(i)
    return tuple(out)

