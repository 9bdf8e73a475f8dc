"""Trick ranking as a function of trump, the trump-fixing card and the led suit.

A :class:`TrickTables` is computed once per (trump, trump card) and cached by the
game: ``eff_suit[c]`` (the suit a card counts as, so a left bower counts as
trump), ``suit_mask[s]`` (cards that follow suit ``s``) and ``power[led][c]``
(0 for a card that cannot win; among the rest the higher wins and, between
equal powers, the card played first).

Used by every trick game: Euchre (bowers), Bird Dog (the twin of the trump card
as a top card that keeps its suit), Bid Euchre (identical cards, first wins).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Deck

TOP = 10_000
TRUMP = 1_000
LED = 100


@dataclass(frozen=True)
class TrickTables:
    """Precomputed ranking for one trump context."""

    trump: int
    top_cards: frozenset[Card]
    eff_suit: tuple[int, ...]
    suit_mask: tuple[int, ...]
    power: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Ranking:
    """The spec's ranking clause, compiled against a deck."""

    deck: Deck
    plain: tuple[int, ...]  # rank indexes, low to high
    trump: tuple[int, ...]
    bower_rank: int | None  # rank index of the bowers, or None
    twin_top: bool  # the twin of the trump card is the top card

    def twin_of(self, c: Card) -> frozenset[Card]:
        """Cards of the same rank and colour as ``c`` in the other suit(s).

        >>> d = Deck(("9", "10"), ("C", "D", "H", "S"), ("black", "red", "red", "black"))
        >>> r = Ranking(d, (0, 1), (0, 1), None, True)
        >>> sorted(d.names[x] for x in r.twin_of(d.parse("10D")))
        ['10H']
        """
        d = self.deck
        return frozenset(x for x in range(d.size)
                         if d.rank_of[x] == d.rank_of[c] and d.suit_of[x] != d.suit_of[c]
                         and d.suit_of[x] >= 0 and d.color_of(x) == d.color_of(c))

    def effective_suit(self, c: Card, trump: int) -> int:
        """The suit a card follows as, under ``trump`` (-1 for no trump).

        >>> d = Deck(("9", "J"), ("C", "D", "H", "S"), ("black", "red", "red", "black"))
        >>> r = Ranking(d, (0, 1), (0,), 1, False)
        >>> d.suits[r.effective_suit(d.parse("JD"), d.suits.index("H"))]
        'H'
        >>> d.suits[r.effective_suit(d.parse("JC"), d.suits.index("H"))]
        'C'
        """
        d = self.deck
        s = d.suit_of[c]
        if (trump >= 0 and self.bower_rank is not None and d.rank_of[c] == self.bower_rank
                and s >= 0 and d.colors[s] == d.colors[trump]):
            return trump
        return s

    def card_power(self, c: Card, trump: int, led: int, top: frozenset[Card]) -> int:
        """How strong a card is in a trick (0: cannot win)."""
        if c in top:
            return TOP
        d = self.deck
        eff = self.effective_suit(c, trump)
        r = d.rank_of[c]
        if trump >= 0 and eff == trump:
            if self.bower_rank is not None and r == self.bower_rank:
                return TRUMP + len(self.trump) + (2 if d.suit_of[c] == trump else 1)
            return TRUMP + self.trump.index(r) if r in self.trump else 0
        if eff == led:
            return LED + self.plain.index(r) if r in self.plain else 0
        return 0

    def tables(self, trump: int, trump_card: Card) -> TrickTables:
        """All tables for one trump context."""
        d = self.deck
        top = self.twin_of(trump_card) if self.twin_top and trump_card >= 0 else frozenset()
        eff = tuple(self.effective_suit(c, trump) for c in range(d.size))
        masks = tuple(sum(1 << c for c in range(d.size) if eff[c] == s) for s in range(len(d.suits)))
        power = tuple(tuple(self.card_power(c, trump, led, top) for c in range(d.size))
                      for led in range(len(d.suits)))
        return TrickTables(trump, top, eff, masks, power)


def trick_winner(powers: tuple[int, ...], cards: list[Card]) -> int:
    """Index in ``cards`` of the winning card: highest power, first played on ties.

    >>> trick_winner((0, 5, 5, 3), [3, 1, 2])
    1
    """
    best, best_i = -1, 0
    for i, c in enumerate(cards):
        p = powers[c]
        if p > best:
            best, best_i = p, i
    return best_i
