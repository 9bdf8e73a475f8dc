"""Decks: every physical card a distinct small int, with constant tables for rank, suit and colour.

A card id indexes the deck's tables; hands are bit masks of card ids (bit ``c``
set when card ``c`` is held), so decks of any size work (Python ints are
unbounded; Hand and Foot for eight players has 216 cards).

**Card names.** With one copy of each card a card is named rank then suit:
``QH``, ``10D``. With ``copies: k > 1`` every copy is named with its copy
number, ``QH#1`` ... ``QH#k``, so that a record says which physical card moved;
the bare ``QH`` is then ambiguous and refused. Jokers are ``JK`` (one joker)
or ``JK#1``, ``JK#2``, ... Input is forgiving where it cannot be ambiguous:
``T`` stands for ``10`` when the deck has a 10 and no rank named T, and ranks
and suits may be given in either case.

**Decks without suits.** A spec writes ``suits: {}``; the deck then has one
unnamed suit ``""`` (colour ``none``) and a card is named by its rank alone:
``7``, or ``7#1`` ... ``7#5`` with copies (birdhead: ranks 2 to 11, five each).

>>> bh = Deck(tuple(str(r) for r in range(2, 12)), ("",), ("none",), copies=5)
>>> bh.size, bh.names[:2], bh.parse("11#5") == bh.size - 1, bh.parse("t#2") == bh.parse("10#2")
(50, ('2#1', '2#2'), True, True)

>>> d = Deck(("9", "10", "J", "Q", "K", "A"), ("C", "D", "H", "S"),
...          ("black", "red", "red", "black"))
>>> d.size, d.names[d.card(rank="10", suit="D")]
(24, '10D')
>>> d.parse("jh") == d.card(rank="J", suit="H") and d.parse("td") == d.parse("10D")
True
>>> [d.names[c] for c in d.cards_of(d.mask([d.parse("AS"), d.parse("9C")]))]
['9C', 'AS']
>>> two = Deck(("9", "10"), ("C", "D"), ("black", "red"), copies=2)
>>> two.names[:4], two.parse("10c#2")
(('9C#1', '9C#2', '10C#1', '10C#2'), 3)
>>> two.parse("10C")
Traceback (most recent call last):
...
cardspec.engine.errors.CardNameError: '10C' is ambiguous: the deck holds 2 copies; write 10C#1 or 10C#2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from .errors import CardNameError, SpecError

MAX_CARDS: Final = 4096
"""The most physical cards a deck may have, whatever built it (the schema's largest deck, 20 ranks of 8 suits in 20
copies with 80 jokers, has 3280): a deck past it is refused before its tables are made."""
_WORD_BITS: Final = 60
""":meth:`Deck.cards_of` reads a mask this many bits at a time: each piece a machine word for the compiled build."""
_WORD: Final = (1 << _WORD_BITS) - 1


Card = int
"""A card id: an index into the deck's tables."""

CardMask = int
"""A set of cards as a bit mask."""


@dataclass(frozen=True)
class Deck:
    """Ranks low to high, suits with colours, copies of each card, jokers.

    Card ids run suit by suit, rank by rank, copy by copy, then the jokers; the
    copies of one card have consecutive ids, the first copy the lowest.
    """

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    colors: tuple[str, ...]
    copies: int = 1
    jokers: int = 0
    rank_of: tuple[int, ...] = field(init=False, repr=False)
    suit_of: tuple[int, ...] = field(init=False, repr=False)
    copy_of: tuple[int, ...] = field(init=False, repr=False)
    names: tuple[str, ...] = field(init=False, repr=False)
    face: tuple[str, ...] = field(init=False, repr=False)
    by_name: dict[str, Card] = field(init=False, repr=False)
    bit_by_name: dict[str, CardMask] = field(init=False, repr=False)
    """Each card's own name with its bit in a hand mask (``1 << card``): a deal written by name is summed at C speed."""
    later_copies: tuple[CardMask, ...] = field(init=False, repr=False)
    has_copies: bool = field(init=False, repr=False)
    """Whether some face occurs more than once (two-deck games, several jokers)."""

    def __post_init__(self) -> None:
        c, j = self.copies, self.jokers
        if type(c) is not int or type(j) is not int or c < 1 or j < 0 or \
                len(self.ranks) * len(self.suits) * c + j > MAX_CARDS:
            raise SpecError(f"a deck of {len(self.ranks)} ranks, {len(self.suits)} suits, {c!r} copies and {j!r} "
                            f"jokers: at least one copy, no negative jokers, at most {MAX_CARDS} cards", key="deck")
        rank_of: list[int] = []
        suit_of: list[int] = []
        copy_of: list[int] = []
        face: list[str] = []
        for s, suit in enumerate(self.suits):
            for r, rank in enumerate(self.ranks):
                for k in range(self.copies):
                    rank_of.append(r)
                    suit_of.append(s)
                    copy_of.append(k)
                    face.append(f"{rank}{suit}")
        for k in range(self.jokers):
            rank_of.append(-1)
            suit_of.append(-1)
            copy_of.append(k)
            face.append("JK")
        many = {f: face.count(f) > 1 for f in set(face)}
        names = [f"{f}#{k + 1}" if many[f] else f for f, k in zip(face, copy_of, strict=True)]
        object.__setattr__(self, "rank_of", tuple(rank_of))
        object.__setattr__(self, "suit_of", tuple(suit_of))
        object.__setattr__(self, "copy_of", tuple(copy_of))
        object.__setattr__(self, "face", tuple(face))
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "by_name", {n: c for c, n in enumerate(names)})
        object.__setattr__(self, "bit_by_name", {n: 1 << c for c, n in enumerate(names)})
        object.__setattr__(self, "has_copies", any(many.values()))
        # later_copies[j - 1]: the cards c whose card c - j is an earlier copy of the same face
        most = max(self.copies, self.jokers, 1)
        object.__setattr__(self, "later_copies", tuple(
            sum(1 << c for c in range(j, len(names)) if face[c] == face[c - j] and copy_of[c] == copy_of[c - j] + j)
            for j in range(1, most)))

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return len(self.names)

    @property
    def full_mask(self) -> CardMask:
        """Every card of the deck."""
        return (1 << self.size) - 1

    def card(self, rank: str, suit: str, copy: int = 0) -> Card:
        """The id of a card by rank and suit (and copy, from 0)."""
        return (self.suits.index(suit) * len(self.ranks) + self.ranks.index(rank)) * self.copies + copy

    def _normal(self, name: str) -> str:
        """Upper case, with ``T`` read as ``10`` where that cannot be ambiguous."""
        key = name.strip().upper()
        if key[:1] == "T" and "T" not in self.ranks and "10" in self.ranks and len(key) > 1:
            key = "10" + key[1:]
        return key

    def parse(self, name: str) -> Card:
        """The card a name stands for; raises :class:`CardNameError` (a ``KeyError``).

        A name without a copy number is refused when the deck holds several
        copies of that face, so a record cannot silently pick one.
        """
        key = self._normal(name)
        c = self.by_name.get(key)
        if c is not None:
            return c
        twins = [n for n in self.names if n.split("#")[0] == key]
        if twins:
            raise CardNameError(f"'{name.strip()}' is ambiguous: the deck holds {len(twins)} copies; "
                                f"write {' or '.join(twins)}")
        raise CardNameError(f"'{name.strip()}' is not a card of this deck")

    def canonical(self, m: CardMask) -> CardMask:
        """``m`` without the cards that have an earlier copy of the same face in ``m``.

        Two copies of a face in one place are interchangeable for the choice a
        player makes, so a list of legal actions names only the first copy held.

        >>> two = Deck(("9",), ("C", "D"), ("black", "red"), copies=2)
        >>> [two.names[c] for c in two.cards_of(two.canonical(0b1011))]
        ['9C#1', '9D#2']
        """
        later = self.later_copies
        if not later:
            return m
        redundant = 0
        j = 1  # counted by hand: a compiled build calls enumerate(later, 1) as a Python builtin
        for s in later:
            redundant |= (m << j) & s
            j += 1
        return m & ~redundant

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
    def cards_of(m: CardMask) -> list[Card]:
        """The card ids in a mask, ascending.

        A mask of more than 62 bits (two decks and more) is no machine word for the compiled build, so it is
        read :data:`_WORD_BITS` bits at a time, and each piece a bit at a time.

        >>> Deck.cards_of(0b1011), Deck.cards_of(1 << 107 | 1 << 64 | 1 << 3), Deck.cards_of(0)
        ([0, 1, 3], [3, 64, 107], [])
        >>> Deck.cards_of((1 << 200) - 1) == list(range(200))
        True
        """
        out: list[Card] = []
        base = 0
        while m:
            w = m & _WORD
            while w:
                low = w & -w
                out.append(base + low.bit_length() - 1)
                w ^= low
            m >>= _WORD_BITS
            base += _WORD_BITS
        return out

    def show(self, cards: Iterable[Card]) -> str:
        """Names joined by spaces."""
        return " ".join(self.names[c] for c in cards)
