"""What a rule component declares about itself, for the verification layer to prove.

The verifier never looks at a component's kind or its private attributes: it
proves what each part of a game *declares* (:class:`Declared`), and a test
(``tests/test_declared_moves.py``) holds the engine to those declarations by
playing matches and comparing every action's card movements and every hand's
length with them. A phase component declares through
:meth:`Component.declarations <cardspec.engine.components.base.Component.declarations>`;
the clauses that offer scoring facts without being phases (``scoring.pairs``,
``hand_value``) through functions next to them. A part whose declarations are
None is *undeclared*: verification then reports ``no proof for <kind> '<id>'``
as a failing finding, never a proof.

* :class:`Transfer`: one kind of card movement the component's actions make
  (from a zone to a zone, how many cards, swapped or not, by choice or by chance);
* :class:`Fact`: a scoring fact the component offers, with its finite domain;
* :class:`Declared`: the transfers, the bound on actions per hand the part
  contributes (or None and why not), and the facts.

Zones: :data:`HAND` (the hand of the player who acts), :data:`DEALER` (the
dealer's hand), :func:`seat_hand` (one given seat's hand), :data:`TRICK` (the
cards of the trick in progress), :data:`WON` (the won cards of the trick's
winner), or the name of a pile of the spec (``kitty``, ``stock``, ``discard``, ...).

>>> t = Transfer("play a card to the trick", HAND, TRICK, 1, ("play",))
>>> t.allows(1), t.allows(2), Transfer("collect", TRICK, WON, ALL, ("play",), follow_on=True).allows(4)
(True, False, True)
>>> d = Declared((t,), 20, "5 tricks of at most 4 cards", (Fact("tricks", tuple(range(6))),))
>>> d.fact_domains()["tricks"][-1], d.transfer("play a card to the trick") is t
(5, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ..tables import Value

HAND: Final = "hand"
"""The hand of the player who acts."""
DEALER: Final = "dealer"
"""The dealer's hand (whoever acts)."""
TRICK: Final = "trick"
"""The cards of the trick in progress."""
WON: Final = "won"
"""The won cards of the player who wins the trick."""
ALL: Literal["all"] = "all"
"""A count: every card of the source zone."""
START = "start"
"""In :attr:`Transfer.actions`: made as the component's phase begins (at the end of the action
that ends the previous phase, or at the deal for the first phase), not by an action of its own."""


def seat_hand(seat: int) -> str:
    """The zone of one seat's hand, whoever acts (a dummy such as bird-dog-2p's dog)."""
    return f"hand {seat}"

Count = int | tuple[int, int] | Literal["all"]
"""How many cards a transfer moves: exactly ``k``, ``(lo, hi)`` inclusive, or ``"all"`` of the source."""


@dataclass(frozen=True)
class Transfer:
    """One kind of card movement that a component's actions make.

    ``actions`` are the action kinds (``play``, ``discard``, ``accept``, ...)
    that make it, or :data:`START` for a transfer made as the phase begins.
    A ``swap`` moves as many cards back from ``dest`` to ``source``; a
    ``chance`` transfer is a seeded chance event (a reshuffle), not a player's
    choice. A ``follow_on`` transfer happens at the end of one of its actions,
    after that action's own transfer (collecting a completed trick after its
    last card; reshuffling an empty stock as the next turn begins).
    """

    name: str
    source: str
    dest: str
    count: Count
    actions: tuple[str, ...]
    swap: bool = False
    chance: bool = False
    follow_on: bool = False

    def __post_init__(self) -> None:
        if self.source == self.dest:
            raise ValueError(f"transfer '{self.name}': source and destination are both '{self.source}'")
        c = self.count
        ok = (type(c) is int and c >= 1) or c == ALL or (
            isinstance(c, tuple) and len(c) == 2 and all(type(x) is int for x in c) and 0 <= c[0] <= c[1])
        if not ok:
            raise ValueError(f"transfer '{self.name}': bad count {c!r}")
        if not self.actions:
            raise ValueError(f"transfer '{self.name}': no action makes it")

    def allows(self, k: int) -> bool:
        """Whether moving ``k`` cards fits the declared count (``all`` is checked against the source apart)."""
        c = self.count
        if c == ALL:
            return k >= 1
        if isinstance(c, tuple):
            return c[0] <= k <= c[1]
        return k == c


@dataclass(frozen=True)
class Fact:
    """A scoring fact offered for every scoring entity after a hand, with its finite domain."""

    name: str
    domain: tuple[Value, ...]


@dataclass(frozen=True)
class Declared:
    """Everything one part of a game declares.

    ``actions_per_hand``: at most this many actions of one hand belong to the
    part, or None when it has no bound (``bound_reason`` says why, either way).
    """

    transfers: tuple[Transfer, ...] = ()
    actions_per_hand: int | None = 0
    bound_reason: str = ""
    facts: tuple[Fact, ...] = ()

    def fact_domains(self) -> dict[str, tuple[Value, ...]]:
        """Fact name to domain."""
        return {f.name: f.domain for f in self.facts}

    def transfer(self, name: str) -> Transfer:
        """The transfer of that name."""
        return next(t for t in self.transfers if t.name == name)


@dataclass(frozen=True)
class Declarer:
    """One part of a game (a phase, or a clause such as ``scoring.pairs``) and its declarations."""

    kind: str
    id: str
    declared: Declared | None
    phase: bool = True

    @property
    def label(self) -> str:
        """``tricks 'play'``: how findings name the part."""
        return f"{self.kind} '{self.id}'"


BOOL: tuple[Value, ...] = (False, True)
"""The domain of a yes/no fact."""
