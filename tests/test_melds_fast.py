"""The fast paths of :mod:`cardspec.engine.melds` against plain searches, on seeded random hands.

The candidate melds (pruned by rank, suit and gaps) are every sub-multiset of
naturals that :func:`melds.is_meld` accepts with some number of the wilds;
:func:`melds.out_screen` never drops a discard that goes out; :func:`melds.can_go_out`,
:func:`melds.out_discards` and :func:`melds.min_deadwood` agree with brute-force
searches over the cards; and The Card Game's going-out list is that of
:func:`melds.can_go_out` per candidate discard, under every meld rule it offers.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import product
from typing import Any

import pytest

from cardspec.engine import melds
from cardspec.engine.cards import Deck
from cardspec.engine.game import Game

LINES = [(True, False, False), (False, True, False), (True, True, False), (True, True, True), (False, False, False)]


def _hand(rng: random.Random, n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], dict[str, Any]]:
    """A random hand (few ranks and suits, so melds, copies and wild cards are common) and its meld rules."""
    n_ranks = rng.choice([13, 7, 5])
    low, high, wrap = rng.choice(LINES)
    wild_rank = rng.randrange(n_ranks)
    near = rng.randrange(n_ranks)
    ranks, suits, wild = [], [], []
    for _ in range(n):
        if rng.random() < 0.05:  # a joker, wild or not
            ranks.append(-1)
            suits.append(-1)
            wild.append(rng.random() < 0.5)
            continue
        r = rng.randrange(n_ranks) if rng.random() < 0.5 else (near + rng.randrange(4)) % n_ranks
        ranks.append(r)
        suits.append(rng.randrange(rng.choice([1, 2, 4])))
        wild.append(r == wild_rank and rng.random() < 0.8)
    rule = {"max_wild": rng.choice([-1, -1, 1]), "per_natural": rng.choice([1, 2]),
            "unmeldable_ranks": rng.choice([(), (1,)]), "n_ranks": n_ranks,
            "ace_rank": rng.choice([-1, 0, n_ranks - 1]), "ace_low": low, "ace_high": high, "wrap": wrap,
            "distinct_suits": rng.random() < 0.2, "kinds": rng.choice([melds.SET, melds.RUN, 3, 3, 3])}
    rule["min_size"], rule["min_natural"] = rng.choice([(3, 1), (3, 1), (3, 2), (2, 0), (4, 1), (1, 1)])
    return tuple(ranks), tuple(suits), tuple(wild), rule


def _meld(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], idx: tuple[int, ...],
          rule: dict[str, Any], wild_sets: bool = False) -> bool:
    r = dict(rule)
    kinds, size, nat = r.pop("kinds"), r.pop("min_size"), r.pop("min_natural")
    return melds.is_meld(tuple(ranks[i] for i in idx), tuple(suits[i] for i in idx), tuple(wild[i] for i in idx),
                         kinds, size, nat, wild_sets=wild_sets, **r)


def _plain(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], rule: dict[str, Any],
           values: tuple[int, ...], wild_sets: bool = False) -> tuple[dict[int, int], int]:
    """Brute force over the cards themselves: (melds needed to lay all of them -> True, per subset mask), and
    the least deadwood. ``lay[mask]`` is the fewest melds partitioning the cards of ``mask`` (absent: none)."""
    n = len(ranks)
    is_meld = {m for m in range(1, 1 << n)
               if _meld(ranks, suits, wild, tuple(i for i in range(n) if m >> i & 1), rule, wild_sets)}

    @cache
    def lay(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        return min((1 + lay(mask & ~m) for m in is_meld if m & low and m & mask == m), default=99)

    @cache
    def dead(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        best = values[low.bit_length() - 1] + dead(mask & ~low)
        return min([best] + [dead(mask & ~m) for m in is_meld if m & low and m & mask == m])

    full = (1 << n) - 1
    return {m: lay(m) for m in range(full + 1) if lay(m) < 99}, dead(full)


def _kw(rule: dict[str, Any]) -> tuple[int, int, int, dict[str, Any]]:
    r = dict(rule)
    return r.pop("kinds"), r.pop("min_size"), r.pop("min_natural"), r


@pytest.mark.parametrize("seed", range(6))
def test_candidates_are_every_natural_part_of_a_meld(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        ranks, suits, wild, rule = _hand(rng, rng.randint(1, 11))
        kinds, size, nat, kw = _kw(rule)
        values = tuple(rng.choice([1, 2]) if rng.random() < 0.2 else max(r, 0) for r in ranks)
        classes = melds._classes(ranks, suits, wild, values)
        n_wild = sum(wild)
        wilds = tuple(i for i, w in enumerate(wild) if w)
        want = {}
        for counts in product(*(range(len(c) + 1) for c in classes)):
            idx = tuple(i for c, a in zip(classes, counts, strict=True) for i in c[:a])
            ks = tuple(k for k in range(n_wild + 1) if _meld(ranks, suits, wild, idx + wilds[:k], rule))
            if ks:
                want[sum(a << melds._F * j for j, a in enumerate(counts))] = ks
        rule_t = (kw["max_wild"], kw["per_natural"], kw["unmeldable_ranks"], kw["n_ranks"], kw["ace_rank"],
                  kw["ace_low"], kw["ace_high"], kw["wrap"], kw["distinct_suits"])
        got = melds._candidates(ranks, suits, classes, n_wild, kinds, size, nat, rule_t)
        assert got == want, (ranks, suits, wild, rule)


@pytest.mark.parametrize("seed", range(6))
def test_searches_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        ranks, suits, wild, rule = _hand(rng, rng.randint(1, 9))
        kinds, size, nat, kw = _kw(rule)
        values = tuple(rng.randrange(1, 11) for _ in ranks)
        lay, dead = _plain(ranks, suits, wild, rule, values)
        full = (1 << len(ranks)) - 1
        assert melds.min_deadwood(ranks, suits, wild, values, kinds, size, nat, **kw) == dead
        for max_melds in (-1, 1, 2):
            fits = {m for m, melds_needed in lay.items() if max_melds < 0 or melds_needed <= max_melds}
            assert melds.can_go_out(ranks, suits, wild, kinds, size, nat, max_melds=max_melds, **kw) == (full in fits)
            outs = tuple(i for i in range(len(ranks)) if full & ~(1 << i) in fits)
            assert melds.out_discards(ranks, suits, wild, kinds, size, nat, max_melds=max_melds, **kw) == outs
            assert set(outs) <= set(melds.out_screen(ranks, suits, wild, kinds, size, nat, **kw))


@pytest.mark.parametrize("seed", range(4))
def test_screen_of_card_ids_is_the_screen_of_their_faces(seed: int) -> None:
    """:func:`melds.screen_held` (the form a rummy turn runs, over card ids and per-card tables) keeps the cards
    :func:`melds.out_screen` keeps, whatever the ids: card ``i`` of the hand is a card id spread out among others of
    random faces, so that the tables hold cards the hand does not (jokers, copies and wild cards included)."""
    rng = random.Random(300 + seed)
    kept_any = 0
    for _ in range(150):
        ranks, suits, wild, rule = _hand(rng, rng.randint(1, 12))
        rule["unmeldable_ranks"] = ()  # the card-id form has none (no rummy turn passes any)
        kinds, size, nat, kw = _kw(rule)
        ids = sorted(rng.sample(range(3 * len(ranks)), len(ranks)))  # the hand's card ids, in card order
        n = ids[-1] + 1
        rank_of, suit_of, is_wild = [rng.randrange(-1, kw["n_ranks"]) for _ in range(n)], [0] * n, [False] * n
        for i, c in enumerate(ids):
            rank_of[c], suit_of[c], is_wild[c] = ranks[i], suits[i], wild[i]
        lines = (kw["n_ranks"], kw["ace_rank"], kw["ace_low"], kw["ace_high"], kw["wrap"])
        got = melds.screen_held(ids, tuple(rank_of), tuple(suit_of), tuple(is_wild), 4, kinds, size, nat, lines)
        want = melds.out_screen(ranks, suits, wild, kinds, size, nat, **kw)
        assert got == [ids[i] for i in want], (ranks, suits, wild, rule)
        kept_any += bool(want)
    assert kept_any >= 10  # the screen keeps something often enough for the comparison to mean something


@pytest.mark.parametrize("seed", range(4))
def test_screen_keeps_every_discard_with_wild_sets(seed: int) -> None:
    """``wild_sets``: wilds alone (all of one rank) make a set; the screen still keeps every discard that goes out."""
    rng = random.Random(200 + seed)
    for _ in range(60):
        ranks, suits, wild, rule = _hand(rng, rng.randint(1, 9))
        wild_rank = rng.randrange(rule["n_ranks"])
        wild = tuple(r == wild_rank for r in ranks)
        rule["distinct_suits"] = False
        kinds, size, nat, kw = _kw(rule)
        lay, _ = _plain(ranks, suits, wild, rule, tuple(ranks), wild_sets=True)
        full = (1 << len(ranks)) - 1
        outs = {i for i in range(len(ranks)) if full & ~(1 << i) in lay}
        assert outs <= set(melds.out_screen(ranks, suits, wild, kinds, size, nat, wild_sets=True, **kw))
        assert melds.can_go_out(ranks, suits, wild, kinds, size, nat, wild_sets=True, **kw) == (full in lay)


def test_screen_rules_out_hopeless_hands() -> None:
    """Not vacuous: most random 14-card hands have no discard left, and the screen says so without a search."""
    rng = random.Random(7)
    kept = 0
    for _ in range(300):
        cards = rng.sample(range(104), 14)
        ranks, suits = tuple(c % 13 for c in cards), tuple(c // 13 % 4 for c in cards)
        wild = tuple(r == 12 for r in ranks)
        kept += bool(melds.out_screen(ranks, suits, wild, 3, 3, 1, n_ranks=13, ace_rank=0, ace_low=True))
    assert kept < 100


OPTIONS = [{}, {"wild_rank_sets": "natural", "ace_in_runs": "wrap"},
           {"go_out_melds": "two", "stock_exhausted": "end_round", "naturals_per_meld": 2, "set_copies": "distinct",
            "ace_in_runs": "low_or_high"}, {"jokers": "wild", "players": 7}]


@pytest.mark.parametrize("options", OPTIONS)
def test_card_game_out_discards_are_the_plain_ones(options: dict[str, Any]) -> None:
    """The Card Game's going-out list (screens, one shared search) is, card for card, the candidates after
    which the rest can all be laid, asked of :func:`melds.can_go_out` one by one."""
    try:
        game = Game.from_system("the-card-game", options)
    except Exception as e:  # an option this tree's spec does not offer
        pytest.skip(str(e))
    m = next(p.melding for p in game.phases if getattr(p, "melding", None) is not None)
    deck = game.deck
    rng = random.Random(3)
    rounds = len(m.wild_by_round)
    for _ in range(400):
        ridx = rng.randrange(rounds)
        size = rng.choice([4, 6, 9, 12, 14])
        near = rng.randrange(13)  # cards of a few ranks, so that some hands go out
        pool = [c for c in range(deck.size) if deck.rank_of[c] < 0 or (deck.rank_of[c] - near) % 13 < 5]
        hand = sum(1 << c for c in rng.sample(pool if rng.random() < 0.7 else range(deck.size), size))
        cands = deck.canonical(hand) if deck.has_copies else hand
        want = []
        for c in Deck.cards_of(cands):
            _, ranks, suits, wild = m._cards(hand & ~(1 << c), ridx)
            if melds.can_go_out(ranks, suits, wild, m.kinds, m.min_size, m.min_natural, max_melds=m.max_melds,
                                **m.rule):
                want.append(c)
        assert m.out_discards(hand, cands, ridx) == want
