"""Trick ranking as a function of trump, the trump-fixing card and the led suit.

A :class:`TrickTables` is computed once per (trump, trump card) and cached by the
game: ``eff_suit[c]`` (the suit a card counts as, so a left bower counts as
trump), ``suit_mask[s]`` (cards that follow suit ``s``) and ``power[led][c]``
(0 for a card that cannot win; among the rest the higher wins and, between
equal powers, the card played first).

Used by every trick game: Euchre (bowers), Bird Dog (the twin of the trump card
as a top card that keeps its suit), Bid Euchre (identical cards, first wins).

A ranking may also give a ``low`` order (the clause's ``ranking.low``, rank
indexes low to high): the order of every suit in a *low* no-trump hand, a
trump context of its own, :data:`LOW_NO_TRUMP`, which a bidding component
fixes as the hand's trump (bid-euchre's house rule ``low_no_trump``: 9 high,
ace low). In that context no card is trump, no jack is a bower, there is no
top card, and each card follows its own suit and ranks by ``low``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import kernels
from .cards import Card, Deck
from .errors import Source
from .kernels import LED as LED
from .kernels import TOP as TOP
from .kernels import TRUMP as TRUMP

LOW_NO_TRUMP: Final = -3
"""The trump context of a low no-trump hand: no trump, every suit ranked by the ranking's ``low`` order
(distinct from -1, no trump, and from the action codec's ``NO_TRUMP`` and ``NO_SUIT``)."""


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
    top_keeps_suit: bool = True  # the top card follows as its printed suit, even if it is also a bower
    top_beats_trump_lead: bool = True
    """Whether the top card wins a trick that trump leads (else, there, it is a card of its own suit)."""
    low: tuple[int, ...] | None = None
    """Rank indexes, low to high, of every suit in a low no-trump hand (:data:`LOW_NO_TRUMP`), or None."""
    bower_source: Source | None = None
    """``bowers.source``: the clause that makes the left bower count as the trump suit (an audit cites it when a
    revoke turns on a bower), or None."""

    def _context(self, trump: int) -> tuple[int, tuple[int, ...]]:
        """The kernels' trump (-1 for either no-trump context) and plain order for a trump context."""
        if trump != LOW_NO_TRUMP:
            return trump, self.plain
        if self.low is None:
            raise ValueError("this ranking has no 'low' order, so no low no-trump context")
        return -1, self.low

    @property
    def suit_colors(self) -> tuple[int, ...]:
        """Each suit's colour as an int (equal ints, equal colours), as the kernels take them."""
        colors = self.deck.colors
        return tuple(colors.index(x) for x in colors)

    @property
    def _bower(self) -> int:
        return -1 if self.bower_rank is None else self.bower_rank

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
        """The suit a card follows as, under ``trump`` (-1 for no trump, :data:`LOW_NO_TRUMP` for low).

        >>> d = Deck(("9", "J"), ("C", "D", "H", "S"), ("black", "red", "red", "black"))
        >>> r = Ranking(d, (0, 1), (0,), 1, False)
        >>> d.suits[r.effective_suit(d.parse("JD"), d.suits.index("H"))]
        'H'
        >>> d.suits[r.effective_suit(d.parse("JC"), d.suits.index("H"))]
        'C'
        """
        d = self.deck
        return kernels.effective_suit(d.rank_of[c], d.suit_of[c], self._context(trump)[0], self._bower,
                                      self.suit_colors)

    def card_power(self, c: Card, trump: int, led: int, top: frozenset[Card]) -> int:
        """How strong a card is in a trick (0: cannot win); see :func:`kernels.card_power`. Under
        :data:`LOW_NO_TRUMP` the ``low`` order ranks every suit.

        >>> d = Deck(("9", "A"), ("C", "D", "H", "S"), ("black", "red", "red", "black"))
        >>> r = Ranking(d, (0, 1), (0, 1), None, False, low=(1, 0))
        >>> [r.card_power(d.parse(x), -1, 0, frozenset()) for x in ("9C", "AC")]
        [100, 101]
        >>> [r.card_power(d.parse(x), LOW_NO_TRUMP, 0, frozenset()) for x in ("9C", "AC")]
        [101, 100]
        """
        d = self.deck
        trump, plain = self._context(trump)
        is_top = c in top
        if is_top and led == trump and not self.top_beats_trump_lead:
            # On a trump lead the top card is a card of its own suit: it cannot win there, unless it
            # counts as a trump (a bower that does not keep its suit).
            if self.top_keeps_suit:
                return 0
            is_top = False
        return kernels.card_power(d.rank_of[c], d.suit_of[c], trump, led, self._bower, self.suit_colors,
                                  plain, self.trump, is_top)

    def tables(self, trump: int, trump_card: Card) -> TrickTables:
        """All tables for one trump context (a suit, -1: no trump, or :data:`LOW_NO_TRUMP`)."""
        d = self.deck
        self._context(trump)  # a low context needs a low order
        top = self.twin_of(trump_card) if self.twin_top and trump_card >= 0 else frozenset()
        eff = tuple(d.suit_of[c] if c in top and self.top_keeps_suit else self.effective_suit(c, trump)
                    for c in range(d.size))
        masks = tuple(sum(1 << c for c in range(d.size) if eff[c] == s) for s in range(len(d.suits)))
        power = tuple(tuple(self.card_power(c, trump, led, top) for c in range(d.size))
                      for led in range(len(d.suits)))
        return TrickTables(trump, top, eff, masks, power)


def trick_winner(powers: tuple[int, ...], cards: list[Card], last_wins: bool = False) -> int:
    """Index in ``cards`` of the winning card: highest power, first played on ties (last with ``last_wins``).

    ``powers`` is a row of :attr:`TrickTables.power` (indexed by card); the
    winner is :func:`kernels.trick_winner` of the played cards' powers. (The
    tricks component inlines a copy in its hot path, held to this one by
    ``crosshair diffbehavior``; see :func:`cardspec.engine.components.tricks.winner_fast`.)

    >>> trick_winner((0, 5, 5, 3), [3, 1, 2]), trick_winner((0, 5, 5, 3), [3, 1, 2], last_wins=True)
    (1, 2)
    """
    return _winner(tuple([powers[c] for c in cards]), last_wins)


_winner = kernels.trick_winner
