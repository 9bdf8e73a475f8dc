"""``hand_value.combine``: both values are read (the review found a parameter with one value, never read)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cardspec.engine.cards import Deck
from cardspec.engine.errors import SpecError
from cardspec.engine.handvalue import HandValue
from cardspec.engine.kernels import hand_value_of_cards, hand_value_units

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = Deck(RANKS, ("C", "D", "H", "S"), ("black", "red", "red", "black"))
VALUES = {"2": 2, "3": 3, "4": 4, "J": 10, "A": 11}


def _hand(*names: str) -> int:
    return DECK.mask(DECK.parse(n) for n in names)


def test_best_suit_sum_counts_one_suit_only() -> None:
    """"points are only added together if the cards are the same suit" (004, Riding the Bus)."""
    hv = HandValue.build({"values": VALUES, "combine": "best_suit_sum"}, DECK, "x")
    assert hv.points(hv.value(_hand("AH", "JH", "4C"))) == 21.0


def test_total_counts_every_card() -> None:
    hv = HandValue.build({"values": VALUES, "combine": "total"}, DECK, "x")
    assert hv.points(hv.value(_hand("AH", "JH", "4C"))) == 25.0
    assert hv.value(0) == 0


def test_sets_only_make_sense_for_one_suits_sum() -> None:
    with pytest.raises(SpecError, match="sets apply to one suit's sum"):
        HandValue.build({"values": VALUES, "combine": "total", "sets": {"size": 3, "value": 30.5}}, DECK, "x")


def test_the_table_read_kernel_values_every_three_card_hand_as_the_tuple_kernel() -> None:
    """``HandValue.value`` (best_suit_sum) reads the hand through the per-card tables
    (``kernels.hand_value_of_cards``); every 3-card hand of Riding the Bus's deck, and a sample of longer
    hands, is valued as ``kernels.hand_value_units`` values the hand's own tuples (sets of three at 30.5)."""
    units = tuple(2 * (int(r) if r.isdigit() else 11 if r == "A" else 10) for r in (DECK.ranks[DECK.rank_of[c]]
                                                                                       for c in range(DECK.size)))
    suits, ranks = DECK.suit_of, DECK.rank_of

    def both(cards: list[int]) -> tuple[int, int]:
        return (hand_value_of_cards(cards, units, suits, ranks, 3, 61),
                hand_value_units(tuple(units[c] for c in cards), tuple(suits[c] for c in cards),
                                 tuple(ranks[c] for c in cards), 3, 61))

    hands = [list(h) for h in combinations(range(DECK.size), 3)]
    rng = random.Random(4)
    hands += [sorted(rng.sample(range(DECK.size), rng.randint(0, 8))) for _ in range(20_000)]
    differ = [h for h in hands if (v := both(h))[0] != v[1]]
    assert not differ, [DECK.show(h) for h in differ[:3]]
    assert both([DECK.parse(n) for n in ("4H", "4C", "4S")]) == (61, 61)  # a set: 30.5 points
    assert both([DECK.parse(n) for n in ("AH", "JH", "4C")]) == (42, 42)  # 21 points of hearts
