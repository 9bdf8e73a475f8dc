"""Rule arithmetic as small pure functions over ints and tuples of ints, with contracts.

Every rule computation the engine performs on cards (the suit a card follows as,
its power in a trick, the trick winner, the legal plays, pair counting, hand
values) is a kernel here. The engine calls them directly (hand values, pairs),
to build the per-trump tables of :mod:`cardspec.engine.ranking` (effective
suit, card power), or, in the two hot paths of the tricks component (legal
plays, trick winner), runs an inlined copy that ``crosshair diffbehavior`` and
a test over played states hold to the kernel. The kernels take
only ints and tuples of ints: no deck, no state, no dicts of lists. That is what
lets CrossHair explore all their paths symbolically (see
:mod:`cardspec.verification.contracts`, run in CI by ``tests/test_contracts.py``).

Contracts are written as PEP 316 docstring lines (``pre:`` and ``post:``,
``__return__`` for the result). We chose PEP 316 over icontract or deal because
it adds no runtime dependency and costs nothing when the engine runs (the
conditions are text, read only by the checker), and because it keeps each
contract beside the function's doctests, in the one place a reader looks.
The doctests are run by the test suite too.

Conventions: a suit or rank of ``-1`` is a joker's (no suit, no rank); a
``bower_rank`` of ``-1`` means the game has no bowers; a trump of ``-1`` means
no trump; colours are small ints (equal ints, equal colours); card sets are
bit masks (bit ``c`` for card ``c``); hand values are in half points.
"""

# PEP 316 conditions are one line each (CrossHair does not join continuation lines): allow long lines.
# ruff: noqa: E501

from __future__ import annotations

from typing import Final

TOP: Final = 10_000
"""Power of a top card (the Bird Dog): above every trump."""
TRUMP: Final = 1_000
"""Base power of a trump."""
LED: Final = 100
"""Base power of a card of the led suit."""


def bower_kind(rank: int, suit: int, trump: int, bower_rank: int, suit_colors: tuple[int, ...]) -> int:
    """0 for a card that is not a bower, 1 for the left bower, 2 for the right bower.

    The right bower is the bower-rank card of the trump suit; the left bower is
    the bower-rank card of the other suit of the trump's colour.

    pre: -1 <= suit < len(suit_colors)
    pre: -1 <= trump < len(suit_colors)
    post: __return__ in (0, 1, 2)
    post: (__return__ == 2) == (trump >= 0 and bower_rank >= 0 and rank == bower_rank and suit == trump)
    post: __return__ != 1 or (rank == bower_rank >= 0 and suit >= 0 and suit != trump >= 0 and suit_colors[suit] == suit_colors[trump])
    post: __return__ != 0 or trump < 0 or bower_rank < 0 or rank != bower_rank or suit < 0 or suit_colors[suit] != suit_colors[trump]

    >>> colors = (0, 1, 1, 0)  # C black, D red, H red, S black
    >>> bower_kind(2, 2, 2, 2, colors), bower_kind(2, 1, 2, 2, colors), bower_kind(2, 0, 2, 2, colors)
    (2, 1, 0)
    >>> bower_kind(2, 2, 2, -1, colors)  # a game without bowers
    0
    """
    if trump < 0 or bower_rank < 0 or rank != bower_rank or suit < 0:
        return 0
    if suit == trump:
        return 2
    return 1 if suit_colors[suit] == suit_colors[trump] else 0


def effective_suit(rank: int, suit: int, trump: int, bower_rank: int, suit_colors: tuple[int, ...]) -> int:
    """The suit a card follows as: its own, except that a left bower counts as trump.

    pre: -1 <= suit < len(suit_colors)
    pre: -1 <= trump < len(suit_colors)
    post: __return__ in (suit, trump)
    post: (__return__ == trump) == (suit == trump or bower_kind(rank, suit, trump, bower_rank, suit_colors) == 1)
    post: trump >= 0 or __return__ == suit

    >>> colors = (0, 1, 1, 0)
    >>> effective_suit(2, 1, 2, 2, colors)  # the Jack of Diamonds under Hearts: trump
    2
    >>> effective_suit(2, 0, 2, 2, colors)  # the Jack of Clubs under Hearts keeps its suit
    0
    >>> effective_suit(-1, -1, 2, 2, colors)  # a joker has no suit
    -1
    """
    if bower_kind(rank, suit, trump, bower_rank, suit_colors) == 1:
        return trump
    return suit


def card_power(rank: int, suit: int, trump: int, led: int, bower_rank: int, suit_colors: tuple[int, ...],
               plain_order: tuple[int, ...], trump_order: tuple[int, ...], is_top: bool) -> int:
    """How strong a card is in a trick whose led suit is ``led`` (0: it cannot win).

    A top card beats everything; a trump beats every card of the led suit; the
    right bower beats the left bower, which beats every other trump; otherwise
    the rank orders (low to high) decide. Ranks missing from an order cannot win.

    pre: -1 <= suit < len(suit_colors)
    pre: -1 <= trump < len(suit_colors)
    pre: -1 <= led < len(suit_colors)
    pre: len(plain_order) < LED and len(trump_order) < LED
    post: __return__ == 0 or __return__ >= LED
    post: (__return__ == TOP) == is_top
    post: (TRUMP <= __return__ < TOP) == (not is_top and trump >= 0 and effective_suit(rank, suit, trump, bower_rank, suit_colors) == trump and (rank in trump_order or bower_kind(rank, suit, trump, bower_rank, suit_colors) > 0))
    post: (LED <= __return__ < TRUMP) == (not is_top and (trump < 0 or effective_suit(rank, suit, trump, bower_rank, suit_colors) != trump) and effective_suit(rank, suit, trump, bower_rank, suit_colors) == led and rank in plain_order)
    post: (TRUMP + len(trump_order) < __return__ < TOP) == (not is_top and bower_kind(rank, suit, trump, bower_rank, suit_colors) > 0)
    post: (__return__ == TRUMP + len(trump_order) + 2) == (not is_top and bower_kind(rank, suit, trump, bower_rank, suit_colors) == 2)

    >>> colors, plain, trumps = (0, 1, 1, 0), (0, 1, 2, 3, 4, 5), (0, 1, 3, 4, 5)  # 9 10 J Q K A
    >>> H, D, C = 2, 1, 0
    >>> [card_power(r, s, H, C, 2, colors, plain, trumps, False) for r, s in ((2, H), (2, D), (5, H), (0, H))]
    [1007, 1006, 1004, 1000]
    >>> card_power(5, C, H, C, 2, colors, plain, trumps, False)  # the Ace of the led suit
    105
    >>> card_power(5, D, H, C, 2, colors, plain, trumps, False)  # off suit: cannot win
    0
    >>> card_power(0, D, H, C, -1, colors, plain, trumps, True)
    10000
    """
    if is_top:
        return TOP
    kind = bower_kind(rank, suit, trump, bower_rank, suit_colors)
    if kind:
        return TRUMP + len(trump_order) + kind
    if trump >= 0 and suit == trump:
        return TRUMP + trump_order.index(rank) if rank in trump_order else 0
    if suit == led:
        return LED + plain_order.index(rank) if rank in plain_order else 0
    return 0


def follow_mask(hand: int, led_mask: int) -> int:
    """The legal plays: the held cards of the led suit if any, else the whole hand.

    pre: hand >= 0
    post: __return__ & ~hand == 0
    post: (__return__ == 0) == (hand == 0)
    post: __return__ & led_mask == hand & led_mask
    post: hand & led_mask == 0 or __return__ & ~led_mask == 0
    post: hand & led_mask != 0 or __return__ == hand

    >>> bin(follow_mask(0b1011, 0b0110)), bin(follow_mask(0b1001, 0b0110))
    ('0b10', '0b1001')
    """
    f = hand & led_mask
    return f if f else hand


def trick_winner(powers: tuple[int, ...], last_wins: bool = False) -> int:
    """Index of the winning card, powers in playing order: the highest, the first played on ties
    (the last played with ``last_wins``: Bid Euchre's identical cards go to the first, Birdhead's to the last).

    pre: len(powers) > 0
    post: 0 <= __return__ < len(powers)
    post: all(p <= powers[__return__] for p in powers)
    post: last_wins or all(p < powers[__return__] for p in powers[:__return__])
    post: not last_wins or all(p < powers[__return__] for p in powers[__return__ + 1:])

    >>> trick_winner((100, 105, 105, 0)), trick_winner((100, 105, 105, 0), last_wins=True)
    (1, 2)
    """
    best_i, best = 0, powers[0]
    for i, p in enumerate(powers):
        if p > best:
            best_i, best = i, p
        elif last_wins and p == best:
            best_i = i
    return best_i


def pairs_from_counts(counts: tuple[int, ...]) -> int:
    """Pairs made from cards of equal rank, one count per rank; each card is used once.

    Two of a rank make one pair, three still one, four make two.

    pre: all(k >= 0 for k in counts)
    post: 2 * __return__ <= sum(counts)
    post: sum(counts) - 2 * __return__ <= len(counts)
    post: __return__ == sum(k // 2 for k in counts)

    >>> [pairs_from_counts((k,)) for k in range(6)], pairs_from_counts((3, 4, 1))
    ([0, 0, 1, 1, 2, 2], 3)
    """
    total = 0
    for k in counts:
        total += k >> 1
    return total


def suit_sum_value(values: tuple[int, ...], suits: tuple[int, ...]) -> int:
    """The best sum of the values of one suit's cards (0 for an empty hand).

    pre: len(values) == len(suits)
    pre: all(v >= 0 for v in values)
    post: __return__ >= 0
    post: all(__return__ >= sum(v for v, t in zip(values, suits) if t == s) for s in suits)
    post: __return__ == 0 or any(__return__ == sum(v for v, t in zip(values, suits) if t == s) for s in suits)

    >>> suit_sum_value((8, 20, 22), (2, 2, 0))  # 4H QH AC in half points
    28
    """
    best = 0
    n = len(suits)
    for i in range(n):  # index loops: compiled, no zip object or slice per suit
        s = suits[i]
        total = 0
        for j in range(n):
            if suits[j] == s:
                if j < i:  # this suit was summed at its first card
                    break
                total += values[j]
        else:
            if total > best:
                best = total
    return best


def most_cards_suit_value(values: tuple[int, ...], suits: tuple[int, ...]) -> int:
    """The sum of the values of the suit holding the most cards; of equally long suits, the best sum.

    The other reading of "points are only added together if the cards are the same suit" (Riding
    the Bus): a hand counts its longest suit, not its best one.

    pre: len(values) == len(suits)
    pre: all(v >= 0 for v in values)
    post: 0 <= __return__ <= suit_sum_value(values, suits)
    post: __return__ == 0 or any(suits.count(s) == max(suits.count(t) for t in suits) and __return__ == sum(v for v, t in zip(values, suits) if t == s) for s in suits)
    post: all(__return__ >= sum(v for v, t in zip(values, suits) if t == s) for s in suits if suits.count(s) == max(suits.count(t) for t in suits))

    >>> most_cards_suit_value((22, 4, 6), (0, 2, 2))  # AC 2H 3H in half points: hearts, 5 points
    10
    >>> most_cards_suit_value((22, 4), (0, 2))  # AC 2H: one card each, the best of them
    22
    """
    best_n = best = 0
    size = len(suits)
    for i in range(size):  # index loops, as suit_sum_value's
        s = suits[i]
        n = total = 0
        for j in range(size):
            if suits[j] == s:
                if j < i:  # this suit was counted at its first card
                    break
                n += 1
                total += values[j]
        else:
            if n > best_n or (n == best_n and total > best):
                best_n, best = n, total
    return best


def set_value(ranks: tuple[int, ...], set_size: int, set_units: int) -> int:
    """``set_units`` if at least ``set_size`` cards share a rank, else 0 (a ``set_size`` of 0: no sets).

    pre: set_size >= 0 and set_units >= 0
    post: __return__ in (0, set_units)
    post: (__return__ == set_units) == (set_units == 0 or (set_size > 0 and any(ranks.count(r) >= set_size for r in ranks)))

    >>> set_value((2, 2, 2), 3, 61), set_value((2, 2, 5), 3, 61), set_value((2, 2, 2), 0, 61)
    (61, 0, 0)
    """
    if set_size <= 0:
        return 0
    for r in ranks:
        n = 0
        for q in ranks:
            if q == r:
                n += 1
        if n >= set_size:
            return set_units
    return 0


def hand_value_units(values: tuple[int, ...], suits: tuple[int, ...], ranks: tuple[int, ...],
                     set_size: int, set_units: int) -> int:
    """A hand's value (a 31 game): the best one-suit sum, or the set value if higher.

    pre: len(values) == len(suits) == len(ranks)
    pre: all(v >= 0 for v in values)
    pre: set_size >= 0 and set_units >= 0
    post: __return__ == max(suit_sum_value(values, suits), set_value(ranks, set_size, set_units))
    post: __return__ >= max(values, default=0)
    post: __return__ <= max(sum(values), set_units)

    >>> hand_value_units((8, 8, 8), (2, 0, 3), (2, 2, 2), 3, 61)  # three 4s: 30.5 points
    61
    """
    return max(suit_sum_value(values, suits), set_value(ranks, set_size, set_units))


def hand_value_of_cards(cards: list[int], units: tuple[int, ...], suits: tuple[int, ...], ranks: tuple[int, ...],
                        set_size: int, set_units: int) -> int:
    """:func:`hand_value_units` of the cards ``cards`` (card ids into the per-card tables ``units``, ``suits`` and
    ``ranks``), read through the tables in place: no tuple of the hand's values, suits and ranks is built (the
    engine values a hand after every draw-and-discard turn).

    pre: len(units) == len(suits) == len(ranks)
    pre: all(0 <= c < len(units) for c in cards)
    pre: all(v >= 0 for v in units)
    pre: set_size >= 0 and set_units >= 0
    post: __return__ == hand_value_units(tuple(units[c] for c in cards), tuple(suits[c] for c in cards), tuple(ranks[c] for c in cards), set_size, set_units)

    >>> hand_value_of_cards([0, 2], (8, 20, 22), (2, 2, 0), (2, 10, 12), 3, 61)  # 4H AC: the ace, 11 points
    22
    """
    best = 0
    n = len(cards)
    for i in range(n):  # the best one-suit sum, as suit_sum_value: each suit summed at its first card
        s = suits[cards[i]]
        total = 0
        for j in range(n):
            c = cards[j]
            if suits[c] == s:
                if j < i:
                    break
                total += units[c]
        else:
            if total > best:
                best = total
    if set_size > 0 and set_units > best:  # a set, as set_value: set_size cards of one rank
        for i in range(n):
            r = ranks[cards[i]]
            k = 0
            for j in range(n):
                if ranks[cards[j]] == r:
                    k += 1
            if k >= set_size:
                return set_units
    return best
