"""Decks: cards as small ints, with constant tables for rank, suit and colour.

A card id indexes the deck's tables; hands are bit masks of card ids
(bit ``c`` set when card ``c`` is held). Identical copies (two-deck games)
get distinct ids but share a name.

>>> d = Deck(("9", "10", "J", "Q", "K", "A"), ("C", "D", "H", "S"),
...          ("black", "red", "red", "black"))
>>> d.size, d.names[d.card(rank="10", suit="D")]
(24, '10D')
>>> d.parse("JH") == d.card(rank="J", suit="H")
True
>>> [d.names[c] for c in d.cards_of(d.mask([d.parse("AS"), d.parse("9C")]))]
['9C', 'AS']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

Card = int
"""A card id: an index into the deck's tables."""

CardMask = int
"""A set of cards as a bit mask."""


@dataclass(frozen=True)
class Deck:
    """Ranks low to high, suits with colours, copies of each card, jokers."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    colors: tuple[str, ...]
    copies: int = 1
    jokers: int = 0
    rank_of: tuple[int, ...] = field(init=False, repr=False)
    suit_of: tuple[int, ...] = field(init=False, repr=False)
    names: tuple[str, ...] = field(init=False, repr=False)
    by_name: dict[str, Card] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rank_of: list[int] = []
        suit_of: list[int] = []
        names: list[str] = []
        for s, suit in enumerate(self.suits):
            for r, rank in enumerate(self.ranks):
                for _ in range(self.copies):
                    rank_of.append(r)
                    suit_of.append(s)
                    names.append(f"{rank}{suit}")
        for _ in range(self.jokers):
            rank_of.append(-1)
            suit_of.append(-1)
            names.append("JK")
        by_name: dict[str, Card] = {}
        for c, n in enumerate(names):
            by_name.setdefault(n, c)
        object.__setattr__(self, "rank_of", tuple(rank_of))
        object.__setattr__(self, "suit_of", tuple(suit_of))
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "by_name", by_name)

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return len(self.names)

    @property
    def full_mask(self) -> CardMask:
        """Every card of the deck."""
        return (1 << self.size) - 1

    def card(self, rank: str, suit: str, copy: int = 0) -> Card:
        """The id of a card by rank and suit (and copy)."""
        return (self.suits.index(suit) * len(self.ranks) + self.ranks.index(rank)) * self.copies + copy

    def parse(self, name: str) -> Card:
        """The first id with this name; raises KeyError for an unknown name."""
        return self.by_name[name.strip().upper()]

    def color_of(self, c: Card) -> str:
        """The colour of a card's suit."""
        return self.colors[self.suit_of[c]]

    @staticmethod
    def mask(cards: Iterable[Card]) -> CardMask:
        """The bit mask of some cards."""
        m = 0
        for c in cards:
            m |= 1 << c
        return m

    @staticmethod
    def cards_of(m: CardMask) -> Iterator[Card]:
        """The card ids in a mask, ascending."""
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def show(self, cards: Iterable[Card]) -> str:
        """Names joined by spaces."""
        return " ".join(self.names[c] for c in cards)
