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
from functools import cache
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
TABLED_RANKS: Final = 13
"""``best_suit_sum`` over a deck of at most this many ranks (one copy of each card, no jokers) reads each suit's sum
from a table of ``2 ** ranks`` sums (:func:`suit_sums`), with no memo: a riding-the-bus hand is valued after every
turn, and nearly every hand is new."""


@cache
def spread_table(n: int) -> tuple[int, ...]:
    """For each mask of ``n`` rank bits: the same ranks one per four bits (rank ``r`` at bit ``4 r``), so that adding
    the spread masks of several suits counts each rank in its own nibble.

    >>> [bin(x) for x in spread_table(2)]
    ['0b0', '0b1', '0b10000', '0b10001']
    """
    out = [0] * (1 << n)
    for m in range(1, len(out)):
        low = m & -m
        out[m] = out[m ^ low] | 1 << 4 * (low.bit_length() - 1)
    return tuple(out)


@cache
def suit_sums(units: tuple[int, ...]) -> tuple[int, ...]:
    """For one suit whose ranks (low to high) are worth ``units``: the sum of every set of its ranks, indexed by the
    set as a bit mask of rank indices (one table per distinct ``units``, shared by every suit and clause).

    >>> suit_sums((2, 3, 10))
    (0, 2, 3, 5, 10, 12, 13, 15)
    """
    out = [0] * (1 << len(units))
    for m in range(1, len(out)):
        low = m & -m
        out[m] = out[m ^ low] + units[low.bit_length() - 1]
    return tuple(out)


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
    _tables: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    """Per suit, :func:`suit_sums` of its cards' values, when :data:`TABLED_RANKS` allows (else empty)."""
    _spread: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """With :attr:`_tables`: :func:`spread_table` of the deck's ranks (held here: no call per hand valued)."""
    _set_bias: int = field(default=0, compare=False, repr=False)
    """With :attr:`_tables`: ``8 - set_size`` in every rank's nibble, so that a count of ``set_size`` or more
    reaches the nibble's top bit (``set_size`` suits at most 7 and no more than the suits: else 0)."""
    _set_test: int = field(default=0, compare=False, repr=False)
    """The top bit of every rank's nibble, where :attr:`_set_bias` applies (else 0: no set can be held)."""

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
        n = len(deck.ranks)
        k = sets["size"] if sets else 0
        tabled = combine == "best_suit_sum" and deck.copies == 1 and deck.jokers == 0 and n <= TABLED_RANKS \
            and len(deck.suits) <= 7 and all(  # a rank's count and its bias fit its nibble
                deck.suit_of[c] == c // n and deck.rank_of[c] == c % n for c in range(deck.size))  # ids suit by suit
        tables = tuple(suit_sums(card_units[s * n:(s + 1) * n]) for s in range(len(deck.suits))) if tabled else ()
        nibbles = sum(1 << 4 * r for r in range(n))
        bias, test = ((8 - k) * nibbles, 8 * nibbles) if tables and 1 <= k <= min(7, len(deck.suits)) else (0, 0)
        return HandValue(deck, card_units, k, units(sets["value"], "hand_value.sets") if sets else 0, src, combine,
                         _tables=tables, _spread=spread_table(n) if tables else (), _set_bias=bias, _set_test=test)

    def value(self, hand: CardMask) -> int:
        """The hand's value in half points, memoised by hand.

        ``combine: best_suit_sum``: :func:`kernels.hand_value_of_cards` (:func:`kernels.hand_value_units`, the
        best one-suit sum or a set's value, read through the per-card tables); ``most_cards_suit``:
        :func:`kernels.most_cards_suit_value` (the longest suit's sum) or a set's value; ``combine: total``:
        every card at its value.
        """
        if self._tables:
            return self._tabled(hand)
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

    def _tabled(self, hand: CardMask) -> int:
        """:meth:`value` under ``best_suit_sum`` read from :attr:`_tables`: each suit's cards are ``len(ranks)``
        consecutive bits of ``hand`` (a rank mask into that suit's table). A rank held in ``set_size`` suits is a
        set: the ranks' counts are added up in one int, four bits per rank (:func:`spread`), and the nibble test
        of :attr:`_set_bias` and :attr:`_set_test` finds a count of ``set_size`` or more (ints only: natively
        compiled)."""
        n = len(self.deck.ranks)
        full = (1 << n) - 1
        spread = self._spread
        counts = 0
        best = 0
        for table in self._tables:
            p = hand & full
            hand >>= n
            if p:
                v = table[p]
                if v > best:
                    best = v
                counts += spread[p]
        if self.set_units > best and (counts + self._set_bias) & self._set_test:
            return self.set_units
        return best

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
