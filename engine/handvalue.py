"""The ``hand_value`` component: card points, same-suit sums and set bonuses.

``combine`` says how card values make a hand's value. ``best_suit_sum``
(Riding the Bus, a 31 game): the best sum of one suit's card values, or the
set value (30.5 for three of a kind) if higher. ``most_cards_suit`` (Riding the
Bus's other reading of "added together if the cards are the same suit"): the sum of
the suit holding the most cards (of equally long suits, the best sum), or the set
value if higher. ``total``: the sum of every card's value (cards left in hand
counted against their holder).
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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .cards import CardMask, Deck
from .components.declared import BOOL, Declared, Fact
from .errors import Source, SpecError
from .kernels import hand_value_of_cards, most_cards_suit_value, set_value
from .tables import Value

if TYPE_CHECKING:
    from .state import State

SCALE: Final = 2
MEMO_LIMIT: Final = 1 << 16
"""Hand values memoised per compiled clause before the memo is cleared."""


@dataclass(frozen=True)
class HandValue:
    """Compiled hand-value clause (values in half points)."""

    deck: Deck
    card_units: tuple[int, ...]
    set_size: int
    set_units: int
    source: Source | None
    combine: str = "best_suit_sum"
    _memo: dict[CardMask, int] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def build(d: Mapping[str, Any], deck: Deck, file: str) -> HandValue:
        """Compile; every value must be a non-negative multiple of 0.5."""
        vals = d["values"]
        bad = [r for r in vals if r not in deck.ranks]
        if bad:
            raise SpecError(f"hand_value.values names ranks {bad} not in the deck", file,
                            key="hand_value.values")

        def units(x: int | float, key: str) -> int:  # not plain float: compiled, an int would show as 1.0
            u = x * SCALE
            if u != int(u):
                raise SpecError(f"value {x} is not a multiple of 0.5", file, key=key)
            if u < 0:  # the kernels' precondition: a best-suit sum is a whole suit's sum only if no value is negative
                raise SpecError(f"value {x} is negative", file, key=key)
            return int(u)

        card_units = tuple(units(vals.get(deck.ranks[deck.rank_of[c]], 0), "hand_value.values")
                           if deck.rank_of[c] >= 0 else 0 for c in range(deck.size))
        sets = d.get("sets")
        src = Source(**d["source"]) if "source" in d else None
        combine = d["combine"]
        if combine == "total" and sets:
            raise SpecError("sets apply to one suit's sum; a total counts every card at its value", file,
                            key="hand_value.sets")
        return HandValue(deck, card_units, sets["size"] if sets else 0,
                         units(sets["value"], "hand_value.sets") if sets else 0, src, combine)

    def value(self, hand: CardMask) -> int:
        """The hand's value in half points, memoised by hand.

        ``combine: best_suit_sum``: :func:`kernels.hand_value_of_cards` (:func:`kernels.hand_value_units`, the
        best one-suit sum or a set's value, read through the per-card tables); ``most_cards_suit``:
        :func:`kernels.most_cards_suit_value` (the longest suit's sum) or a set's value; ``combine: total``:
        every card at its value.
        """
        v = self._memo.get(hand)
        if v is not None:
            return v
        d = self.deck
        units = self.card_units
        if self.combine == "total":
            v = 0
            for c in d.cards_of(hand):
                v += units[c]
        elif self.combine == "best_suit_sum":
            v = hand_value_of_cards(d.cards_of(hand), units, d.suit_of, d.rank_of, self.set_size, self.set_units)
        else:  # most_cards_suit
            cards = d.cards_of(hand)
            suits, ranks = d.suit_of, d.rank_of
            v = max(most_cards_suit_value(tuple([units[c] for c in cards]), tuple([suits[c] for c in cards])),
                    set_value(tuple([ranks[c] for c in cards]), self.set_size, self.set_units))
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[hand] = v
        return v

    def hand_facts(self, st: State, teams: Sequence[tuple[int, ...]]) -> list[dict[str, Value]]:
        """For each entity (its seats): ``lowest``, a seat of it still in holds a hand of the lowest value
        among players still in. Each hand is valued once, whatever the number of entities."""
        active = st.active  # every seat, dummies too
        values: list[int] = []
        low = -1
        for s in range(st.game.num_players):  # loops, not generators: compiled, a generator is an object
            v = self.value(st.hands[s])
            values.append(v)
            if active[s] and (low < 0 or v < low):
                low = v
        out: list[dict[str, Value]] = []
        for team in teams:
            lowest = False
            for s in team:
                if active[s] and values[s] == low:
                    lowest = True
            out.append({"lowest": lowest})
        return out

    @staticmethod
    def points(units: int) -> float:
        """Half points back to points."""
        return units / SCALE

    def declarations(self) -> Declared:
        """What the clause offers scoring: ``lowest`` (no cards move, no actions of its own)."""
        return Declared(facts=(Fact("lowest", BOOL),))


def hand_value_by_subsets(values: tuple[int, ...], suits: tuple[int, ...], ranks: tuple[int, ...],
                          set_size: int, set_units: int) -> int:
    """Brute-force reference for :func:`kernels.hand_value_units`, read straight off the rule text.

    Every subset of the hand is a candidate: cards of one suit add up ("points are
    only added together if the cards are the same suit"), and ``set_size`` cards
    of one rank are worth ``set_units``. The value is the best candidate. CrossHair's
    ``diffbehavior`` compares the two (see :mod:`cardspec.verification.contracts`).

    >>> hand_value_by_subsets((8, 20, 22), (2, 2, 0), (2, 10, 12), 3, 61)
    28
    """
    n = len(values)
    best = 0
    for bits in range(1, 1 << n):
        chosen = [i for i in range(n) if bits >> i & 1]
        first = chosen[0]
        if all(suits[i] == suits[first] for i in chosen):
            best = max(best, sum(values[i] for i in chosen))
        if set_size and len(chosen) == set_size and all(ranks[i] == ranks[first] for i in chosen):
            best = max(best, set_units)
    return best
