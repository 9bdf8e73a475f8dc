"""The ``hand_value`` component: card points, same-suit sums and set bonuses.

Used by Riding the Bus (a 31 game): the value of a hand is the best sum of one
suit's card values, or the set value (30.5 for three of a kind) if higher.
Values are kept in half points (ints) so that 30.5 is exact.

>>> d = Deck(tuple("23456789") + ("10", "J", "Q", "K", "A"), ("C", "D", "H", "S"),
...          ("black", "red", "red", "black"))
>>> hv = HandValue.build({"values": {"4": 4, "Q": 10, "A": 11}, "combine": "best_suit_sum",
...                       "sets": {"size": 3, "value": 30.5}}, d, "x")
>>> hv.points(hv.value(d.mask([d.parse("4H"), d.parse("QH"), d.parse("AC")])))
14.0
>>> hv.points(hv.value(d.mask([d.parse("4H"), d.parse("4C"), d.parse("4S")])))
30.5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import CardMask, Deck
from .errors import Source, SpecError

SCALE = 2


@dataclass(frozen=True)
class HandValue:
    """Compiled hand-value clause (values in half points)."""

    deck: Deck
    card_units: tuple[int, ...]
    set_size: int
    set_units: int
    source: Source | None

    @staticmethod
    def build(d: Mapping[str, Any], deck: Deck, file: str) -> HandValue:
        """Compile; every value must be a multiple of 0.5."""
        vals = d["values"]
        bad = [r for r in vals if r not in deck.ranks]
        if bad:
            raise SpecError(f"hand_value.values names ranks {bad} not in the deck", file,
                            key="hand_value.values")

        def units(x: float, key: str) -> int:
            u = x * SCALE
            if u != int(u):
                raise SpecError(f"value {x} is not a multiple of 0.5", file, key=key)
            return int(u)

        card_units = tuple(units(vals.get(deck.ranks[deck.rank_of[c]], 0), "hand_value.values")
                           if deck.rank_of[c] >= 0 else 0 for c in range(deck.size))
        sets = d.get("sets")
        src = Source(**d["source"]) if "source" in d else None
        return HandValue(deck, card_units, sets["size"] if sets else 0,
                         units(sets["value"], "hand_value.sets") if sets else 0, src)

    def value(self, hand: CardMask) -> int:
        """The hand's value in half points."""
        by_suit: dict[int, int] = {}
        by_rank: dict[int, int] = {}
        d = self.deck
        for c in d.cards_of(hand):
            s = d.suit_of[c]
            by_suit[s] = by_suit.get(s, 0) + self.card_units[c]
            r = d.rank_of[c]
            by_rank[r] = by_rank.get(r, 0) + 1
        best = max(by_suit.values(), default=0)
        if self.set_size and any(k >= self.set_size for k in by_rank.values()):
            best = max(best, self.set_units)
        return best

    @staticmethod
    def points(units: int) -> float:
        """Half points back to points."""
        return units / SCALE
