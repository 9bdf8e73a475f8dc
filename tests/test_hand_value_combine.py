"""``hand_value.combine``: both values are read (the review found a parameter with one value, never read)."""

from __future__ import annotations

import pytest

from cardspec.engine.cards import Deck
from cardspec.engine.errors import SpecError
from cardspec.engine.handvalue import HandValue

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
