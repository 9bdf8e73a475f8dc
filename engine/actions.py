"""Actions as ints over an open vocabulary: a kind, a choice, a number, a suit and any number of cards.

Each component declares the action *kinds* it uses with a :class:`KindSig`:
which fields an action of that kind carries (a named choice such as
``order_up`` or ``alone``; a number such as a bid of tricks; a suit or
"no trump"; a range of card counts). :class:`ActionCodec` lays the fields of
one game out in an int whose widths come from that game's deck and
declarations, high bits to low::

    kind | choice | number | suit | card_k ... card_2 | card_1

Each card slot holds ``card id + 1`` (0 = empty), so an action may carry as
many cards as its kind declares, from decks of any size. Sorting actions as
ints sorts them by kind (in :data:`KIND_ORDER`), then choice, number, suit and
cards, which gives every ``legal_actions()`` list a stable, readable order.

Names are the kind's word (or the choice label), then the number, the suit
(``NT`` for no trump) and the cards, and parse back exactly:
``play JD``, ``order_up``, ``name H``, ``bid 6 H``, ``bid 3 NT``,
``farmers_hand 9C 10D 9H``, ``meld 3H 3S 3D``, ``draw stock``.

>>> from cardspec.engine.cards import Deck
>>> deck = Deck(("9", "10", "J"), ("C", "D"), ("black", "red"))
>>> codec = ActionCodec(deck, [KindSig("play", cards=(1, 1)), KindSig("bid", number=(1, 12), suit=True,
...                     no_trump=True), KindSig("pass"), KindSig("accept", choices=("order_up",))])
>>> a = codec.encode("play", cards=(deck.parse("JD"),))
>>> codec.name(a), codec.parse("play jd") == a, codec.parse("play TD") == codec.encode("play", cards=(4,))
('play JD', True, True)
>>> codec.name(codec.encode("bid", number=6, suit=NO_TRUMP)), codec.parse("bid 6 d") == codec.encode("bid", 6, 1)
('bid 6 NT', True)
>>> codec.name(codec.encode("accept", choice="order_up")), codec.kind(codec.parse("order_up"))
('order_up', 'accept')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import Card, Deck
from .errors import CardNameError, InvalidActionError, NumberRangeError


class ExtraWordError(InvalidActionError):
    """An action name with a word its kind does not take (``bid 1 H`` where bids name no suit): ``kind`` and
    ``word`` let the component owning the kind name the clause that says so (an audit cites it)."""

    def __init__(self, message: str, kind: str, word: str) -> None:
        self.kind, self.word = kind, word
        super().__init__(message)

Action = int
"""An action id; see the module docstring for the layout."""

_NOT_WHOLE: Final = re.compile(r"-?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+)")
"""A number with a fraction or an exponent, where an action takes a whole number (``add 1.5 9C``)."""

_WHOLE: Final = re.compile(r"-?[0-9]{1,9}")
"""A whole number as a person types it: ASCII digits only (``str.isdigit`` also passes ``²`` and ``٣``, which
``int`` refuses or reads as another digit), at most nine of them (so ``int`` never meets a 5,000-digit string)."""


_SIGNED_DIGITS: Final = re.compile(r"-?[0-9]+")
"""A number of any length in ASCII digits, maybe after a minus sign."""


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (at most nine, maybe after a minus sign), else None.

    >>> whole_number("12"), whole_number("-3"), whole_number("\u00b2"), whole_number("1.5"), whole_number("9" * 10)
    (12, -3, None, None, None)
    """
    return int(text) if _WHOLE.fullmatch(text) else None


NO_SUIT: Final = -1
"""The suit field of an action that names no suit."""
NO_TRUMP: Final = -2
"""The suit field of an action that names "no trump" (written ``NT``)."""

KIND_ORDER: tuple[str, ...] = (
    "play", "pass", "accept", "name", "discard", "declare", "exchange", "draw_stock", "draw_discard",
    "take", "knock", "bid", "meld", "lay_off", "go_out", "stay", "drop", "ask", "answer",
)
"""Kinds every library component may use, in the order legal actions list them.

A kind not listed here sorts after these, alphabetically; its name must be a
lowercase word (an underscore shows as a space).
"""


@dataclass(frozen=True)
class KindSig:
    """What an action of one kind carries, as a component declares it.

    ``choices``: the labels an action of this kind carries, one each (the label
    is then the action's first word, in place of the kind's); ``number``: an inclusive range of allowed
    numbers, or None; ``suit``: whether a suit is named; ``no_trump``: whether
    ``NT`` may stand for the suit; ``cards``: the inclusive range of card counts;
    ``ordered``: whether the order of the cards matters (cards placed on a pile
    in order); otherwise they are a set, always packed in ascending id order.
    """

    kind: str
    choices: tuple[str, ...] = ()
    number: tuple[int, int] | None = None
    suit: bool = False
    no_trump: bool = False
    cards: tuple[int, int] = (0, 0)
    ordered: bool = False

    def merge(self, other: KindSig) -> KindSig:
        """Two components declaring one kind: the union of what each allows."""
        lo = [r for r in (self.number, other.number) if r is not None]
        return KindSig(self.kind, tuple(dict.fromkeys(self.choices + other.choices)),
                       (min(r[0] for r in lo), max(r[1] for r in lo)) if lo else None,
                       self.suit or other.suit, self.no_trump or other.no_trump,
                       (min(self.cards[0], other.cards[0]), max(self.cards[1], other.cards[1])),
                       self.ordered or other.ordered)


def _rank(kind: str) -> tuple[int, str]:
    return (KIND_ORDER.index(kind), "") if kind in KIND_ORDER else (len(KIND_ORDER), kind)


class ActionCodec:
    """Packs, unpacks, names and parses the actions of one game."""

    def __init__(self, deck: Deck, sigs: Sequence[KindSig]) -> None:
        merged: dict[str, KindSig] = {}
        for s in sigs:
            merged[s.kind] = merged[s.kind].merge(s) if s.kind in merged else s
        self.deck = deck
        self.kinds: tuple[str, ...] = tuple(sorted(merged, key=_rank))
        self.sigs: dict[str, KindSig] = {k: merged[k] for k in self.kinds}
        self.labels: tuple[str, ...] = tuple(dict.fromkeys(c for k in self.kinds for c in merged[k].choices))
        self.label_kind: dict[str, str] = {}
        for k in self.kinds:
            for c in merged[k].choices:
                if c in self.label_kind and self.label_kind[c] != k:
                    raise ValueError(f"label '{c}' is declared by two action kinds")
                self.label_kind[c] = k
        words = {k.split("_")[0] for k in self.kinds if not merged[k].choices}
        clash = sorted(words & set(self.labels))
        if clash:
            raise ValueError(f"labels {clash} are also action words")
        self.max_cards = max((s.cards[1] for s in merged.values()), default=0)
        numbers = [s.number for s in merged.values() if s.number is not None]
        self.num_lo = min((r[0] for r in numbers), default=0)
        num_span = max((r[1] for r in numbers), default=0) - self.num_lo + 1
        self.slot = (deck.size + 1).bit_length()
        self.card_mask = (1 << self.slot) - 1
        self.suit_shift = self.slot * self.max_cards
        self.num_shift = self.suit_shift + (len(deck.suits) + 2).bit_length()
        self.choice_shift = self.num_shift + max(num_span, 1).bit_length()
        self.kind_shift = self.choice_shift + (len(self.labels) + 1).bit_length()
        self.kind_index = {k: i + 1 for i, k in enumerate(self.kinds)}

    # --- packing ------------------------------------------------------------------
    def base(self, kind: str, choice: str | None = None) -> Action:
        """The action of a kind (and choice) with no number, suit or cards."""
        a = self.kind_index[kind] << self.kind_shift
        if choice is not None:
            a |= (self.labels.index(choice) + 1) << self.choice_shift
        return a

    def encode(self, kind: str, number: int | None = None, suit: int = NO_SUIT,
               cards: Sequence[Card] = (), choice: str | None = None) -> Action:
        """Pack an action; raises :class:`InvalidActionError` if it does not fit the kind's declaration."""
        sig = self.sigs.get(kind)
        if sig is None:
            raise InvalidActionError(f"this game has no '{kind.replace('_', ' ')}' actions")
        if choice is not None and choice not in sig.choices:
            raise InvalidActionError(f"'{choice}' is not a choice of '{kind}'")
        if sig.choices and choice is None:
            raise InvalidActionError(f"'{kind}' needs one of the choices {list(sig.choices)}")
        if number is not None and sig.number is None:
            raise InvalidActionError(f"'{kind}' takes no number {number}")
        if number is not None and sig.number is not None and not sig.number[0] <= number <= sig.number[1]:
            raise NumberRangeError(f"'{kind}' takes a number from {sig.number[0]} to {sig.number[1]}", kind, number)
        if sig.number is not None and number is None:
            raise InvalidActionError(f"'{kind}' needs a number")
        if suit != NO_SUIT and not (sig.suit and (0 <= suit < len(self.deck.suits) or
                                                  (suit == NO_TRUMP and sig.no_trump))):
            raise InvalidActionError(f"'{kind}' takes no suit here")
        if sig.suit and suit == NO_SUIT:
            raise InvalidActionError(f"'{kind}' needs a suit")
        if not sig.cards[0] <= len(cards) <= sig.cards[1]:
            raise InvalidActionError(f"'{kind}' carries {sig.cards[0]} to {sig.cards[1]} cards, not {len(cards)}")
        if not sig.ordered and len(cards) > 1:
            cards = sorted(cards)
        a = self.base(kind, choice)
        if number is not None:
            a |= (number - self.num_lo + 1) << self.num_shift
        if suit != NO_SUIT:
            a |= (suit + 1 if suit >= 0 else len(self.deck.suits) + 1) << self.suit_shift
        for i, c in enumerate(cards):
            if not 0 <= c < self.deck.size:
                raise InvalidActionError(f"card id {c} is not in the deck")
            a |= (c + 1) << (self.slot * i)
        return a

    def with_cards(self, base: Action, cards: Sequence[Card]) -> Action:
        """``base`` (from :meth:`base` or :meth:`encode`) with ``cards`` packed in, unchecked (hot paths).

        The caller guarantees that the kind carries that many cards, in the
        order :meth:`encode` would pack them (ascending unless the kind is ordered).
        """
        slot = self.slot
        for i in range(len(cards)):  # indexed: enumerate over a Sequence builds an iterator a call when compiled
            base |= (cards[i] + 1) << (slot * i)
        return base

    def kind(self, a: Action) -> str:
        """The kind of an action ('' for an int that is no action of this game)."""
        i = a >> self.kind_shift
        return self.kinds[i - 1] if 0 < i <= len(self.kinds) else ""

    def choice(self, a: Action) -> str | None:
        """The choice label an action carries, if any."""
        i = (a >> self.choice_shift) & ((1 << (self.kind_shift - self.choice_shift)) - 1)
        return self.labels[i - 1] if 0 < i <= len(self.labels) else None

    def number(self, a: Action) -> int | None:
        """The number an action carries, if any."""
        i = (a >> self.num_shift) & ((1 << (self.choice_shift - self.num_shift)) - 1)
        return i - 1 + self.num_lo if i else None

    def suit(self, a: Action) -> int:
        """The suit an action names: a suit index, :data:`NO_TRUMP`, or :data:`NO_SUIT`."""
        i = (a >> self.suit_shift) & ((1 << (self.num_shift - self.suit_shift)) - 1)
        if i == 0:
            return NO_SUIT
        return i - 1 if i <= len(self.deck.suits) else NO_TRUMP

    def cards(self, a: Action) -> tuple[Card, ...]:
        """The cards an action carries, in order."""
        out: list[Card] = []
        p = a & ((1 << self.suit_shift) - 1)
        while p:
            out.append((p & self.card_mask) - 1)
            p >>= self.slot
        return tuple(out)

    def canonical(self, a: Action, held: int) -> Action:
        """``a`` with each card replaced by the first copy of its face in ``held`` not already used.

        Copies of one face in one place are interchangeable: a legal-action list
        names the first copy held, and another copy names an equivalent action.
        An int that names no action (:meth:`valid`) has no other copy: it is returned as it is.
        """
        deck = self.deck
        if not deck.has_copies or not self.valid(a):
            return a
        cards = self.cards(a)
        if not cards:
            return a
        used = 0
        out = []
        for c in cards:
            pick = c
            for d in range(c - deck.copy_of[c], c + 1):
                if held >> d & 1 and not used >> d & 1 and deck.face[d] == deck.face[c]:
                    pick = d
                    break
            used |= 1 << pick
            out.append(pick)
        kind = self.kind(a)
        return self.encode(kind, self.number(a), self.suit(a), out, self.choice(a))

    def valid(self, a: Action) -> bool:
        """Whether an int is a well-formed action of this game (it may still be illegal now)."""
        if type(a) is not int or a < 0:
            return False
        k = self.kind(a)
        if not k:
            return False
        try:
            return self.encode(k, self.number(a), self.suit(a), self.cards(a), self.choice(a)) == a
        except InvalidActionError:
            return False

    # --- names ----------------------------------------------------------------------
    def name(self, a: Action) -> str:
        """The readable name of an action."""
        k = self.kind(a)
        if not k:
            raise ValueError(f"#{a} is not an action of this game")
        parts = [self.choice(a) or k.replace("_", " ")]
        n = self.number(a)
        if n is not None:
            parts.append(str(n))
        s = self.suit(a)
        if s != NO_SUIT:
            parts.append("NT" if s == NO_TRUMP else self.deck.suits[s])
        cards = self.cards(a)
        if cards:
            parts.append(self.deck.show(cards))
        return " ".join(parts)

    def parse(self, text: str) -> Action:
        """The action a name stands for; raises :class:`InvalidActionError`."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action name")
        words = text.strip().split()
        if not words:
            raise InvalidActionError("empty action")
        head = words[0].lower()
        rest = words[1:]
        choice: str | None = None
        if head in self.label_kind:
            kind, choice = self.label_kind[head], head
        elif len(words) > 1 and f"{head}_{words[1].lower()}" in self.sigs:
            kind, rest = f"{head}_{words[1].lower()}", words[2:]
        elif head in self.sigs and not self.sigs[head].choices:
            kind = head
        else:
            raise InvalidActionError(f"'{text.strip()[:60]}' names no action of this game")
        sig = self.sigs[kind]
        number: int | None = None
        suit = NO_SUIT
        if sig.number is not None and rest and rest[0].lstrip("-").isdigit():
            if not _SIGNED_DIGITS.fullmatch(rest[0]):
                raise InvalidActionError(f"'{text.strip()[:60]}': '{kind}' takes a number in the digits 0 to 9")
            if len(rest[0]) > 6:  # past every range a kind takes: named as such, so a clause setting it is cited
                lo, hi = sig.number
                digits = rest[0].lstrip("-")
                shown = rest[0] if len(rest[0]) <= 15 else f"{rest[0][:12]}... ({len(digits)} digits)"
                raise NumberRangeError(f"'{kind}' takes a number from {lo} to {hi}, not {shown}", kind,
                                       lo - 1 if rest[0].startswith("-") else hi + 1)
            number, rest = int(rest[0]), rest[1:]
        elif sig.number is not None and rest and _NOT_WHOLE.fullmatch(rest[0]):
            raise InvalidActionError(f"'{text.strip()[:60]}': '{kind}' takes a whole number, not '{rest[0][:12]}'")
        if sig.suit and rest:
            w = rest[0].upper()
            if w == "NT" and sig.no_trump:
                suit, rest = NO_TRUMP, rest[1:]
            elif w in self.deck.suits:
                suit, rest = self.deck.suits.index(w), rest[1:]
            elif sig.cards[1] == 0:  # a word where the suit goes, in an action that names no card
                named = ", ".join(self.deck.suits) + (" or NT" if sig.no_trump else "")
                why = "no-trump bids are not played under these options" if w == "NT" else f"not '{rest[0][:12]}'"
                raise InvalidActionError(f"'{text.strip()[:60]}': '{kind}' names a suit ({named}), {why}")
        if len(rest) > sig.cards[1]:
            most = sig.cards[1]
            if most == 0:
                raise ExtraWordError(f"'{text.strip()[:60]}': '{kind}' names no card"
                                     f"{'' if sig.suit else ' and no suit'}, but '{rest[0][:12]}' follows",
                                     kind, rest[0])
            raise InvalidActionError(f"'{text.strip()[:60]}': '{kind}' carries at most {most} "
                                     f"card{'' if most == 1 else 's'}")
        try:
            cards = [self.deck.parse(w) for w in rest]
        except CardNameError as exc:
            raise InvalidActionError(f"'{text.strip()[:60]}': {exc}") from None
        if len(set(cards)) != len(cards):
            raise InvalidActionError(f"'{text.strip()[:60]}' names a card twice")
        return self.encode(kind, number, suit, cards, choice)
