"""Actions as ints: a kind in the high bits, a small argument and up to three cards.

``action = kind << 32 | arg << 24 | (c3+1) << 16 | (c2+1) << 8 | (c1+1)``

Sorting actions as ints sorts them by kind, then argument, then cards, which
gives every ``legal_actions()`` list a stable, readable order. Names such as
``play JD``, ``order_up`` or ``take 5H 9C KD`` come from :class:`ActionCodec`,
which knows the deck and the spec's labels (``order_up``, ``declare``,
``alone``, ``nil``, ``farmers_hand``).

>>> from cardspec.engine.cards import Deck
>>> deck = Deck(("9", "10", "J"), ("C", "D"), ("black", "red"))
>>> codec = ActionCodec(deck, ("order_up", "alone"))
>>> a = encode(Kind.PLAY, cards=(deck.parse("JD"),))
>>> codec.name(a), codec.parse("play JD") == a
('play JD', True)
>>> codec.name(encode(Kind.ACCEPT, arg=0)), codec.parse("alone") == encode(Kind.DECLARE, arg=1)
('order_up', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from .cards import Card, Deck
from .errors import InvalidActionError

Action = int
"""An action id; see the module docstring for the layout."""

KIND_SHIFT = 32
ARG_SHIFT = 24


class Kind(IntEnum):
    """Action kinds; the order here is the order of ``legal_actions()``."""

    PLAY = 1
    PASS = 2
    ACCEPT = 3
    NAME = 4
    DISCARD = 5
    DECLARE = 6
    EXCHANGE = 7
    DRAW_STOCK = 8
    DRAW_DISCARD = 9
    TAKE = 10
    KNOCK = 11


def encode(kind: Kind, arg: int = 0, cards: Sequence[Card] = ()) -> Action:
    """Pack an action.

    >>> kind_of(encode(Kind.NAME, arg=2)), arg_of(encode(Kind.NAME, arg=2))
    (<Kind.NAME: 4>, 2)
    """
    payload = 0
    for i, c in enumerate(cards):
        payload |= (c + 1) << (8 * i)
    return (int(kind) << KIND_SHIFT) | (arg << ARG_SHIFT) | payload


def kind_of(a: Action) -> Kind:
    """The kind of an action."""
    return Kind(a >> KIND_SHIFT)


def arg_of(a: Action) -> int:
    """The small argument (label index or suit)."""
    return (a >> ARG_SHIFT) & 0xFF


def cards_of_action(a: Action) -> tuple[Card, ...]:
    """The cards an action names, in order."""
    out: list[Card] = []
    p = a & 0xFFFFFF
    while p:
        out.append((p & 0xFF) - 1)
        p >>= 8
    return tuple(out)


_FIXED = {Kind.PASS: "pass", Kind.KNOCK: "knock", Kind.DRAW_STOCK: "draw stock",
          Kind.DRAW_DISCARD: "draw discard"}
_CARD_WORDS = {"play": Kind.PLAY, "discard": Kind.DISCARD, "take": Kind.TAKE}


class ActionCodec:
    """Names and parses the actions of one game."""

    def __init__(self, deck: Deck, labels: Sequence[str],
                 declare_labels: frozenset[str] = frozenset(),
                 exchange_labels: frozenset[str] = frozenset()) -> None:
        self.deck = deck
        self.labels = tuple(labels)
        self.declare_labels = declare_labels
        self.exchange_labels = exchange_labels

    def label_index(self, label: str) -> int:
        """The argument that stands for a label."""
        return self.labels.index(label)

    def name(self, a: Action) -> str:
        """The readable name of an action."""
        kind = kind_of(a)
        if kind in _FIXED:
            return _FIXED[kind]
        cards = cards_of_action(a)
        shown = self.deck.show(cards)
        if kind == Kind.PLAY:
            return f"play {shown}"
        if kind == Kind.DISCARD:
            return f"discard {shown}"
        if kind == Kind.TAKE:
            return f"take {shown}"
        if kind == Kind.NAME:
            return f"name {self.deck.suits[arg_of(a)]}"
        label = self.labels[arg_of(a)]
        return f"{label} {shown}" if cards else label

    def parse(self, text: str) -> Action:
        """The action a name stands for; raises :class:`InvalidActionError`."""
        words = text.strip().split()
        if not words:
            raise InvalidActionError("empty action")
        joined = " ".join(words).lower()
        for kind, fixed in _FIXED.items():
            if joined == fixed:
                return encode(kind)
        head, rest = words[0].lower(), words[1:]
        try:
            cards = [self.deck.parse(w) for w in rest]
        except KeyError:
            cards = []
            bad = True
        else:
            bad = False
        if head in _CARD_WORDS and not bad and 1 <= len(cards) <= 3:
            return encode(_CARD_WORDS[head], cards=cards)
        if head == "name" and len(rest) == 1 and rest[0].upper() in self.deck.suits:
            return encode(Kind.NAME, arg=self.deck.suits.index(rest[0].upper()))
        if head in self.labels and not bad:
            arg = self.labels.index(head)
            if head in self.exchange_labels and 1 <= len(cards) <= 3:
                return encode(Kind.EXCHANGE, arg=arg, cards=sorted(cards))
            if not rest:
                kind = Kind.DECLARE if head in self.declare_labels else Kind.ACCEPT
                return encode(kind, arg=arg)
        raise InvalidActionError(f"'{text}' names no action of this game")
