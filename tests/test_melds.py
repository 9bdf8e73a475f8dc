"""The melding kernels (:mod:`cardspec.engine.melds`) against brute force and the rule text (source 004).

Source text: 004_945a3021da002f83.txt.

Each kernel is compared with a reference written straight from the rule text,
which enumerates every run place, every subset and every partition of small
hands (at most 8 cards) drawn by Hypothesis. The hand-written tests are named
after the clause of "The Card Game" or "Hand and Foot" they pin and quote it;
their expected values were worked out by hand from the text.

Card Game conventions here: ranks A 2 .. K are indices 0 .. 12 (aces low: "Aces:
1 point"), suits C D H S are 0 .. 3, the round dealt ``n`` cards has rank ``n``
wild (index ``n - 1``), penalties are "Aces: 1 point", "2-9: Face Value", "10, J,
Q, K: 10 points".
"""

from __future__ import annotations

import doctest
import time
from collections.abc import Iterator
from itertools import combinations, pairwise
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardspec.engine import melds
from cardspec.engine.melds import (
    MAX_CARDS,
    RUN,
    SET,
    can_go_out,
    is_meld,
    is_run,
    is_set,
    meld_partition,
    min_deadwood,
    out_discards,
)

_PROFILE_EXAMPLES = settings().max_examples
CHEAP = settings(max_examples=max(_PROFILE_EXAMPLES, 300), deadline=None)
"""Examples for the one-meld kernels (cheap): at least 300, more under the soak profile."""
HANDS = settings(max_examples=max(_PROFILE_EXAMPLES, 60), deadline=None)
"""Examples for the whole-hand kernels, whose references enumerate every partition."""

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARD_GAME: dict[str, Any] = {"n_ranks": 13, "ace_rank": 0, "ace_low": True}
"""The Card Game's run places under the reading "aces are low only, no wrap"."""
HAND_AND_FOOT: dict[str, Any] = {"max_wild": 1, "per_natural": 2, "unmeldable_ranks": (2,)}
"""Hand and Foot's set rules: "only 1 wild for every 2 'normal' cards", "3's ... can not be used to make sets"."""

Hand = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...]]


def cg(cards: str, dealt: int) -> Hand:
    """A Card Game hand (``"7D 8D 4H 2S"``) in the round where ``dealt`` cards are dealt: ranks, suits, wild, values."""
    ranks = tuple(RANKS.index(c[0]) for c in cards.split())
    suits = tuple(SUITS.index(c[1]) for c in cards.split())
    return ranks, suits, tuple(r == dealt - 1 for r in ranks), tuple(min(r + 1, 10) for r in ranks)


def hf(cards: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    """A Hand and Foot hand: 2s and jokers (``"JK"``) wild."""
    ranks = tuple(-1 if c == "JK" else RANKS.index(c[0]) for c in cards.split())
    suits = tuple(-1 if c == "JK" else SUITS.index(c[1]) for c in cards.split())
    return ranks, suits, tuple(r in (-1, 1) for r in ranks)


def goes_out_with_a_discard(cards: str, dealt: int) -> bool:
    """The caller's rule: "to go out you must use all your cards, and you must discard".

    The player holds ``dealt + 1`` cards after drawing; they go out if, for some
    discard, the other ``dealt`` cards are all melded.
    """
    ranks, suits, wild, _ = cg(cards, dealt)
    assert len(ranks) == dealt + 1
    keep = [tuple(i for i in range(len(ranks)) if i != d) for d in range(len(ranks))]
    return any(can_go_out(tuple(ranks[i] for i in k), tuple(suits[i] for i in k), tuple(wild[i] for i in k),
                          SET | RUN, 3, 1, **CARD_GAME) for k in keep)


# ---------------------------------------------------------------- references straight from the text

def ref_is_set(ranks: tuple[int, ...], wild: tuple[bool, ...], min_size: int, min_natural: int, max_wild: int,
               per_natural: int, unmeldable: tuple[int, ...]) -> bool:
    """"Set -> Collection of the same number", wild cards standing in for any card of it."""
    naturals = [r for r, w in zip(ranks, wild, strict=True) if not w]
    wilds = len(ranks) - len(naturals)
    return (len(ranks) >= min_size and len(naturals) >= min_natural and len(set(naturals)) <= 1
            and not any(r == -1 or r in unmeldable for r in naturals)
            and (max_wild < 0 or wilds * per_natural <= len(naturals) * max_wild))


def ref_sequences(length: int, n_ranks: int, ace: int, low: bool, high: bool, wrap: bool) -> Iterator[tuple[int, ...]]:
    """"Run -> Sequential numbers": every chain of ``length`` distinct ranks, each following the one before.

    The non-ace ranks follow each other in deck order; the ace follows the top
    one (``high``) or precedes the bottom one (``low``), and sits inside a chain
    only when runs go round the corner (``wrap``), which also joins the ends.
    """
    others = [r for r in range(n_ranks) if r != ace]
    ace_in = ace >= 0 and (low or high or wrap)
    follows: dict[int, set[int]] = {r: set() for r in range(n_ranks)}
    for a, b in pairwise(others):
        follows[a].add(b)
    if ace_in and others and (high or wrap):
        follows[others[-1]].add(ace)
    if ace_in and others and (low or wrap):
        follows[ace].add(others[0])
    if wrap and not ace_in and others:
        follows[others[-1]].add(others[0])
    if ace >= 0 and not ace_in:
        follows[ace] = set()

    def chains(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(prefix) == length:
            yield prefix
            return
        for nxt in sorted(follows[prefix[-1]]):
            if nxt not in prefix:
                yield from chains((*prefix, nxt))

    starts = [r for r in range(n_ranks) if ace_in or r != ace]
    for start in starts:
        for chain in chains((start,)):
            if wrap or ace < 0 or ace not in chain[1:-1]:
                yield chain


def ref_is_run(ranks: tuple[int, ...], suits: tuple[int, ...], wild: tuple[bool, ...], min_size: int,
               min_natural: int, n_ranks: int, ace: int, low: bool, high: bool, wrap: bool) -> bool:
    """"Sequential numbers in the same suit", each wild card standing in for one missing card."""
    naturals = [(r, s) for r, s, w in zip(ranks, suits, wild, strict=True) if not w]
    if len(ranks) < min_size or len(naturals) < min_natural or len(ranks) == 0:
        return False
    if len({s for _, s in naturals}) > 1 or any(s == -1 for _, s in naturals):
        return False
    nat_ranks = [r for r, _ in naturals]
    return any(sorted(nat_ranks) == sorted(set(nat_ranks)) and set(nat_ranks) <= set(seq)
               for seq in ref_sequences(len(ranks), n_ranks, ace, low, high, wrap))


def ref_is_meld(cards: tuple[int, ...], hand: Hand, rule: dict[str, Any]) -> bool:
    ranks, suits, wild, _ = hand
    r = tuple(ranks[i] for i in cards)
    s = tuple(suits[i] for i in cards)
    w = tuple(wild[i] for i in cards)
    return bool((rule["kinds"] & SET and ref_is_set(r, w, rule["min_size"], rule["min_natural"], rule["max_wild"],
                                                    rule["per_natural"], rule["unmeldable_ranks"]))
                or (rule["kinds"] & RUN and ref_is_run(r, s, w, rule["min_size"], rule["min_natural"], rule["n_ranks"],
                                                       rule["ace_rank"], rule["ace_low"], rule["ace_high"],
                                                       rule["wrap"])))


def partitions(items: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
    """Every partition of ``items`` into blocks (each block ascending, blocks by their first item)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            remaining = tuple(i for i in rest if i not in others)
            for p in partitions(remaining):
                yield [(first, *others), *p]


# ---------------------------------------------------------------- generated hands and rules

@st.composite
def hands(draw: st.DrawFn, max_cards: int = 8) -> tuple[Hand, dict[str, Any]]:
    """A small hand (ranks bunched so that melds happen) and a meld rule."""
    n_ranks = draw(st.integers(3, 13))
    base = draw(st.integers(0, n_ranks - 1))
    n = draw(st.integers(0, max_cards))
    ranks, suits, wild, values = [], [], [], []
    for _ in range(n):
        joker = draw(st.integers(0, 11)) == 0
        ranks.append(-1 if joker else (base + draw(st.integers(0, 3))) % n_ranks)
        suits.append(-1 if joker else draw(st.integers(0, 2)))
        wild.append(draw(st.integers(0, 3)) == 0)
        values.append(draw(st.integers(0, 10)))  # min_deadwood's precondition: no negative values
    rule = {"kinds": draw(st.sampled_from((SET, RUN, SET | RUN))), "min_size": draw(st.integers(1, 4)),
            "min_natural": draw(st.integers(0, 2)), "max_wild": draw(st.integers(-1, 2)),
            "per_natural": draw(st.integers(1, 3)),
            "unmeldable_ranks": draw(st.sampled_from(((), (base,), ((base + 1) % n_ranks,)))),
            "n_ranks": n_ranks, "ace_rank": draw(st.sampled_from((-1, 0, n_ranks - 1, base))),
            "ace_low": draw(st.booleans()), "ace_high": draw(st.booleans()), "wrap": draw(st.booleans())}
    return (tuple(ranks), tuple(suits), tuple(wild), tuple(values)), rule


def rule_kwargs(rule: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in rule.items() if k not in ("kinds", "min_size", "min_natural")}


# ---------------------------------------------------------------- against the references

@CHEAP
@given(hands(max_cards=8))
def test_set_is_a_collection_of_the_same_number_with_any_wilds(case: tuple[Hand, dict[str, Any]]) -> None:
    """"Set -> Collection of the same number"; as many wilds as the rule allows; naturals as the rule says."""
    (ranks, suits, wild, _), r = case
    assert is_set(ranks, suits, wild, r["min_size"], r["min_natural"], r["max_wild"], r["per_natural"],
                  r["unmeldable_ranks"]) == ref_is_set(ranks, wild, r["min_size"], r["min_natural"], r["max_wild"],
                                                       r["per_natural"], r["unmeldable_ranks"])


@CHEAP
@given(hands(max_cards=8))
def test_run_is_sequential_numbers_in_the_same_suit_with_wilds_filling_places(
        case: tuple[Hand, dict[str, Any]]) -> None:
    """"Run -> Sequential numbers in the same suit"; each wild fills one place, ends included."""
    (ranks, suits, wild, _), r = case
    got = is_run(ranks, suits, wild, r["min_size"], r["min_natural"], r["n_ranks"], r["ace_rank"], r["ace_low"],
                 r["ace_high"], r["wrap"])
    assert got == ref_is_run(ranks, suits, wild, r["min_size"], r["min_natural"], r["n_ranks"], r["ace_rank"],
                             r["ace_low"], r["ace_high"], r["wrap"])


@CHEAP
@given(hands(max_cards=6))
def test_meld_is_a_set_or_a_run_as_the_game_allows(case: tuple[Hand, dict[str, Any]]) -> None:
    hand, r = case
    got = is_meld(hand[0], hand[1], hand[2], r["kinds"], r["min_size"], r["min_natural"], **rule_kwargs(r))
    assert got == ref_is_meld(tuple(range(len(hand[0]))), hand, r)


@HANDS
@given(hands(max_cards=8))
def test_tally_does_not_count_cards_in_sets_or_runs_against_the_holder(case: tuple[Hand, dict[str, Any]]) -> None:
    """"anyone who has a set or run of at least 3 doesn't count those points against them": over every partition."""
    hand, r = case
    ranks, suits, wild, values = hand
    cache: dict[tuple[int, ...], bool] = {}
    best = sum(values)
    for p in partitions(tuple(range(len(ranks)))):
        left = 0
        for block in p:
            if block not in cache:
                cache[block] = ref_is_meld(block, hand, r)
            if not cache[block]:
                left += sum(values[i] for i in block)
        best = min(best, left)
    got = min_deadwood(ranks, suits, wild, values, r["kinds"], r["min_size"], r["min_natural"], **rule_kwargs(r))
    assert got == best


@HANDS
@given(hands(max_cards=8), st.integers(-1, 3))
def test_going_out_uses_all_cards_in_melds_smallest_partition_first(case: tuple[Hand, dict[str, Any]],
                                                                      max_melds: int) -> None:
    """"to go out you must use all your cards": every card in a meld, at most ``max_melds`` melds."""
    hand, r = case
    ranks, suits, wild, _ = hand
    cache: dict[tuple[int, ...], bool] = {}
    valid = []
    for p in partitions(tuple(range(len(ranks)))):
        if max_melds >= 0 and len(p) > max_melds:
            continue
        for block in p:
            if block not in cache:
                cache[block] = ref_is_meld(block, hand, r)
        if all(cache[b] for b in p):
            valid.append(tuple(p))
    args = (ranks, suits, wild, r["kinds"], r["min_size"], r["min_natural"])
    assert can_go_out(*args, max_melds=max_melds, **rule_kwargs(r)) == bool(valid)
    assert meld_partition(*args, max_melds=max_melds, **rule_kwargs(r)) == (min(valid) if valid else None)


# ---------------------------------------------------------------- The Card Game, clause by clause

@HANDS
@given(hands(max_cards=8), st.integers(-1, 3))
def test_the_discards_that_go_out_are_those_leaving_a_hand_that_lays_out(case: tuple[Hand, dict[str, Any]],
                                                                          max_melds: int) -> None:
    """"you must use all your cards, and you must discard": the one-search answer for every discard is, card
    by card, :func:`can_go_out` of the hand without that card (itself pinned to the partitions above)."""
    hand, r = case
    ranks, suits, wild, _ = hand
    assume(len(ranks) >= 1)
    assert "wild_sets" not in r  # the one-search answer is for hands without wild-only sets
    kw = rule_kwargs(r)
    want = tuple(i for i in range(len(ranks))
                 if can_go_out(ranks[:i] + ranks[i + 1:], suits[:i] + suits[i + 1:], wild[:i] + wild[i + 1:],
                               r["kinds"], r["min_size"], r["min_natural"], max_melds=max_melds, **kw))
    assert out_discards(ranks, suits, wild, r["kinds"], r["min_size"], r["min_natural"], max_melds=max_melds,
                        **kw) == want


def test_set_example_4_kings_and_run_example_4_5_6_of_hearts() -> None:
    """"Run -> Sequential numbers in the same suit [e.g. 4, 5, 6 of Hearts] / Set -> ... [e.g. 4 kings]"."""
    r, s, w, _ = cg("KC KD KH KS", 3)
    assert is_set(r, s, w, 3, 1) and not is_run(r, s, w, 3, 1, **CARD_GAME)
    r, s, w, _ = cg("4H 5H 6H", 3)
    assert is_run(r, s, w, 3, 1, **CARD_GAME) and not is_set(r, s, w, 3, 1)
    r, s, w, _ = cg("4H 5D 6H", 3)  # not the same suit
    assert not is_meld(r, s, w, SET | RUN, 3, 1, **CARD_GAME)
    r, s, w, _ = cg("4H 6H 7H", 3)  # not sequential, no wild (3s are wild)
    assert not is_meld(r, s, w, SET | RUN, 3, 1, **CARD_GAME)


def test_as_many_wilds_as_you_like_but_at_least_one_normal_card() -> None:
    """"You may use as many wilds as you'd like in a set or run, but you must have at least 1 "normal" card"."""
    r, s, w, _ = cg("9S 3C 3D 3H 3S", 3)  # a 9 and four wild 3s: a set of 9s, or a run like 7S..JS
    assert w == (False, True, True, True, True)
    assert is_set(r, s, w, 3, 1) and is_run(r, s, w, 3, 1, **CARD_GAME)
    r, s, w, _ = cg("3C 3D 3H", 3)  # only wilds: no normal card
    assert not is_meld(r, s, w, SET | RUN, 3, 1, **CARD_GAME)
    assert not can_go_out(r, s, w, SET | RUN, 3, 1, **CARD_GAME)


def test_first_round_set_or_run_of_3_then_discard() -> None:
    """"until someone has a set or a run of 3 ... lays down their 3 cards face up, and discards one card"."""
    assert goes_out_with_a_discard("7C 7D 3S KH", 3)  # 7 7 and a wild 3; discard the K
    assert goes_out_with_a_discard("8H 9H TH 2C", 3)
    assert not goes_out_with_a_discard("8H 9H JH 2C", 3)  # 8 9 J of hearts: a gap and no wild
    assert goes_out_with_a_discard("8H 9H JH 3C", 3)  # 8 9 and the wild 3 (as 10); discard the J


def test_round_4_example_7D_8D_wild_4H_2S_scores_2() -> None:
    """"I have a 7 and 8 of diamonds, a 4 of hearts, and a 2 of spades. I would get 2 points"."""
    hand = cg("7D 8D 4H 2S", 4)
    assert hand[2] == (False, False, True, False) and hand[3] == (7, 8, 4, 2)
    assert min_deadwood(*hand, SET | RUN, 3, 1, **CARD_GAME) == 2
    assert min_deadwood(*hand, SET, 3, 1, **CARD_GAME) == 21  # no set there: every card counts


def test_a_wild_card_left_over_counts_its_face_value() -> None:
    """"thus a 3 is worth 3 points… even if the card is wild"."""
    hand = cg("3H KS 9D", 3)  # a wild 3 and two unrelated cards: nothing melds (a meld needs 3 cards)
    assert min_deadwood(*hand, SET | RUN, 3, 1, **CARD_GAME) == 3 + 10 + 9
    hand = cg("3H KS KD 9D 5C", 3)  # the wild 3 makes K K 3; the 9 and 5 are left
    assert min_deadwood(*hand, SET | RUN, 3, 1, **CARD_GAME) == 9 + 5


def test_tally_takes_several_melds_and_the_best_use_of_a_wild() -> None:
    """"anyone with at least a run or a set of 3 doesn't count those points": several melds, wilds where best."""
    hand = cg("7C 7D 7H 9S TS JS 2D", 7)  # sevens wild this round: 7C 7D 7H are all wild
    # 9S TS JS is a run; the three wild 7s go with the 2D (a set of 2s) or extend the run: nothing is left
    assert min_deadwood(*hand, SET | RUN, 3, 1, **CARD_GAME) == 0
    hand = cg("5C 5D 5H 9S TS JS KD QC", 3)  # threes wild: none here
    assert min_deadwood(*hand, SET | RUN, 3, 1, **CARD_GAME) == 20  # K and Q left


def test_no_two_sets_of_3_on_the_5_card_round() -> None:
    """"to go out you must use all your cards, and you must discard (so no doing two sets of 3 on the "5 cards"
    round)"."""
    cards = "9S 9H 9D KS KH KD"
    r, s, w, _ = cg(cards, 5)
    assert can_go_out(r, s, w, SET | RUN, 3, 1, **CARD_GAME)  # the six cards are two sets of 3 ...
    assert not goes_out_with_a_discard(cards, 5)  # ... but after any discard two cards are left over
    assert goes_out_with_a_discard("9S 9H 9D 9C 5H KS", 5)  # four 9s and a wild 5; discard the K
    assert goes_out_with_a_discard("4C 6C 7C 8C 5H KS", 5)  # 4C 5(wild) 6C 7C 8C; discard the K


def test_six_card_round_two_runs_run_and_set_two_sets_or_one_large() -> None:
    """"you can do 2 runs, or a run and a set, or 2 sets, or one large run or set"."""
    for cards in ("3H 4H 5H 9S TS JS", "3H 4H 5H 9S 9C 9D", "3H 3C 3D 9S 9C 9D", "4C 5C 6H 7C 8C 9C",
                  "7C 7D 7H 7S 6C 6D"):  # the 6H, 6C and 6D are wild
        r, s, w, _ = cg(cards, 6)
        assert can_go_out(r, s, w, SET | RUN, 3, 1, **CARD_GAME), cards
    r, s, w, _ = cg("4C 5C 7C 8C 9C TC", 6)  # no wild: the 6C is missing
    assert not any(w) and not can_go_out(r, s, w, SET | RUN, 3, 1, **CARD_GAME)
    r, s, w, _ = cg("3H 4H 5H 9S TS JS", 6)  # two runs need two melds
    assert not can_go_out(r, s, w, SET | RUN, 3, 1, max_melds=1, **CARD_GAME)
    assert meld_partition(r, s, w, SET | RUN, 3, 1, **CARD_GAME) == ((0, 1, 2), (3, 4, 5))


def test_partition_record_is_the_lexicographically_smallest_by_card_index() -> None:
    """Of two ways to go out (set of 7s + run of 8 9 W, or run 7 8 9 + set 7 7 W) the record names the smaller."""
    r, s, w, _ = cg("7H 7S 7D 8H 9H 3C", 3)
    # ((0,1,2),(3,4,5)): 7H 7S 7D, then 8H 9H 3C(as 10H); ((0,3,4),(1,2,5)): 7H 8H 9H, then 7S 7D 3C
    assert meld_partition(r, s, w, SET | RUN, 3, 1, **CARD_GAME) == ((0, 1, 2), (3, 4, 5))
    r, s, w, _ = cg("7H 8H 9H 7S 7D 3C", 3)
    assert meld_partition(r, s, w, SET | RUN, 3, 1, **CARD_GAME) == ((0, 1, 2), (3, 4, 5))
    assert meld_partition(r, s, w, SET, 3, 1, **CARD_GAME) is None  # 8H 9H cannot make a set with one wild


def test_run_needs_distinct_ranks_and_fits_in_the_ranks_of_a_suit() -> None:
    """"Sequential numbers": no rank twice (two decks give equal cards), never longer than A..K."""
    r, s, w, _ = cg("5H 5H 6H", 3)
    assert not is_run(r, s, w, 3, 1, **CARD_GAME)
    r, s, w, _ = cg("5H 5H 6H 3C", 3)  # a wild does not help
    assert not is_run(r, s, w, 3, 1, **CARD_GAME)
    hand = cg("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH KC", 13)  # kings wild: A..Q of hearts and two wild kings
    assert not is_run(*hand[:3], 3, 1, **CARD_GAME)  # 14 cards, 13 places
    assert not is_run(*hand[:3], 3, 1, n_ranks=13, ace_rank=0, ace_low=True, ace_high=True, wrap=True)
    assert is_run(*(x[:13] for x in hand[:3]), 3, 1, **CARD_GAME)  # without the KC: A..K
    assert can_go_out(*hand[:3], SET | RUN, 3, 1, **CARD_GAME)  # as two runs instead (A..5 K, 6..Q K)


def test_ace_placement_is_a_parameter() -> None:
    """"Aces: 1 point" suggests aces low; A-2-3, Q-K-A and K-A-2 under each reading."""
    low_run, high_run, corner = (cg(c, 4)[:3] for c in ("AH 2H 3H", "QH KH AH", "KH AH 2H"))
    readings = [  # (low, high, wrap) -> A-2-3, Q-K-A, K-A-2
        ((True, False, False), (True, False, False)),
        ((False, True, False), (False, True, False)),
        ((True, True, False), (True, True, False)),
        ((True, True, True), (True, True, True)),
        ((False, False, False), (False, False, False)),
    ]
    for (low, high, wrap), expected in readings:
        got = tuple(is_run(*h, 3, 1, 13, 0, low, high, wrap) for h in (low_run, high_run, corner))
        assert got == expected, (low, high, wrap)
    r, s, w = cg("QH KH 2H", 4)[:3]  # no ace: wrap joins K to A only, so Q K 2 is never a run
    assert not is_run(r, s, w, 3, 1, 13, 0, True, True, True)


# ---------------------------------------------------------------- Hand and Foot, clause by clause

def test_hand_and_foot_one_wild_for_every_two_normal_cards() -> None:
    """"you are allowed only 1 wild for every 2 "normal" cards. So one 2 or Joker with three 4's ... With four 4's you
    could add another 2 or Joker"."""
    def ok(cards: str) -> bool:
        return is_set(*hf(cards), 3, 1, **HAND_AND_FOOT)
    assert ok("4C 4D 4H 2S") and ok("4C 4D 4H JK")
    assert not ok("4C 4D 4H 2S JK")
    assert ok("4C 4D 4H 4S 2S JK")
    assert ok("6C 6D JK")  # "a Joker and two 6's"
    assert not ok("6C 2D JK")


def test_hand_and_foot_threes_can_not_make_sets_and_there_are_no_runs() -> None:
    """"3's ... can not be used to make sets/books"; "There are no runs in this game"."""
    r, s, w = hf("3C 3D 3H")
    assert not is_set(r, s, w, 3, 1, **HAND_AND_FOOT)
    r, s, w = hf("4H 5H 6H")
    assert not is_meld(r, s, w, SET, 3, 1, **HAND_AND_FOOT)


def test_hand_and_foot_books_are_sets_of_at_least_7() -> None:
    """"Books are sets of at least 7 cards. A "clean book" is a set of 7+ with no wilds"."""
    r, s, w = hf("9C 9D 9H 9S 9C 9D 2H")
    assert is_set(r, s, w, 7, 1, **HAND_AND_FOOT)
    assert not is_set(r[:6], s[:6], w[:6], 7, 1, **HAND_AND_FOOT)
    assert is_set((*r[:6], 8), (*s[:6], 1), (*w[:6], False), 7, 7, **HAND_AND_FOOT)  # clean: 7 naturals


# ---------------------------------------------------------------- bounds, speed, doctests

def test_a_large_meld_budget_does_not_make_the_impossible_possible() -> None:
    """A single 7 is no meld, whatever ``max_melds`` says (CrossHair found this with a budget of 2**20)."""
    r, s, w, _ = cg("7H", 4)
    for budget in (-1, 1, 2**20, 10**9):
        assert not can_go_out(r, s, w, SET | RUN, 3, 1, max_melds=budget, **CARD_GAME)
        assert meld_partition(r, s, w, SET | RUN, 3, 1, max_melds=budget, **CARD_GAME) is None
    assert can_go_out((), (), (), SET | RUN, 3, 1, max_melds=0) and meld_partition((), (), (), SET, 3, 1) == ()


def test_hands_above_the_bound_are_refused() -> None:
    n = MAX_CARDS + 1
    with pytest.raises(ValueError):
        can_go_out((0,) * n, (0,) * n, (False,) * n, SET, 3, 1)


def test_fourteen_cards_with_four_wilds_in_well_under_a_second() -> None:
    """The round of 13 (kings wild), 13 cards and the one drawn: ten hearts and four wild kings."""
    hand = cg("AH 2H 3H 4H 5H 6H 7H 8H 9H TH KC KD KH KS", 13)
    assert sum(hand[2]) == 4
    start = time.perf_counter()
    assert min_deadwood(*hand, SET | RUN, 3, 1, **CARD_GAME) == 0
    assert can_go_out(*hand[:3], SET | RUN, 3, 1, **CARD_GAME)
    partition = meld_partition(*hand[:3], SET | RUN, 3, 1, **CARD_GAME)
    assert partition is not None and partition[0] == (0, 1, 2)  # A 2 3 of hearts, then 4..10 with the kings
    assert time.perf_counter() - start < 1.0


@pytest.mark.pure_only  # doctest reads the module's Python functions
def test_doctests() -> None:
    result = doctest.testmod(melds)
    assert result.attempted > 0 and result.failed == 0
