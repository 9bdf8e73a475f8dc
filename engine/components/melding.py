"""Melding for ``draw_discard`` turns: sets, runs, wild cards, going out and the tally of cards left.

The ``melding`` clause of a ``draw_discard`` phase. Used by The Card Game (sets
and runs of 3 or more, the round's wild rank, "at least 1 'normal' card" per
meld, go out by melding every card but the discard) and, later, Hand and Foot.
The arithmetic is :mod:`cardspec.engine.melds`; this module turns a clause into
its parameters and keeps the per-hand state.

Going out is one action, ``go out X``: after drawing, the player lays ALL the
other cards of the hand face up in melds (on the ``pile`` zone) and discards
``X`` ("you must use all your cards, and you must discard"). The legal list
holds one ``go out`` per distinct discard after which the rest can be laid in
at most ``max_melds`` melds; the melds laid are the deterministic partition of
:func:`melds.meld_partition <cardspec.engine.melds.meld_partition>` (written to
the hand's result as ``melds``), so a record never names a partition and the
list stays as short as the hand. After someone goes out every other player has
``final_turns`` more turns (draw and discard), then the round ends
(``ended_by: went_out``).

Tally: every player's cards left in hand count their ``values`` against them,
less the best melds they hold (``tally: several``: any number of disjoint melds,
:func:`melds.min_deadwood`; ``tally: one``: a single meld). Facts per scoring
entity: ``deadwood`` (int) and ``went_out`` (bool: a player of the entity went out).

Spec keys: ``pile``, ``kinds`` (``set``, ``run``), ``min_size``, ``min_natural``,
``wild_rank`` (a rank, ``none``, or a round parameter ``{$round: wild_rank}``),
``wild_sets`` (``never``: cards of the wild rank are always wild; ``natural``: they
alone make a set of their rank, counted as natural cards), ``set_copies`` (``any``;
``distinct``: no two identical natural cards in one set), ``runs`` (``ace``: the
ace's rank, ``ace_position``: ``low``, ``high``, ``low_or_high`` or ``wrap``),
``values`` (per rank), ``tally``, ``lay_off`` (``none``; ``table``: at the tally a
player's cards that extend the melds laid this round, each meld as laid, count
as laid off), ``go_out`` (``final_turns``, ``max_melds``, ``first_turn``:
``allowed`` or ``forbidden`` in the first time round the table, ``after_first``:
``forbidden`` or ``allowed``, whether others may also go out in their turns left,
``when_able``: ``optional`` or ``compulsory``, whether a player who can go out must)
and the sources.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .. import melds
from ..cards import Card, CardMask, Deck
from ..errors import Source, SpecError
from .base import PhaseState

if TYPE_CHECKING:
    from ..game import Game

ACE_POSITIONS = {"low": (True, False, False), "high": (False, True, False),
                 "low_or_high": (True, True, False), "wrap": (True, True, True)}
"""``runs.ace_position`` -> (ace low, ace high, wrap round the corner)."""

MEMO_LIMIT: Final = 1 << 15
ScreenTables = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], int]
"""The arguments of :func:`melds.screen_held` that depend on the round only (:meth:`MeldRules._screen_tables`)."""


@dataclass(init=False)
class MeldState(PhaseState):
    """Per hand: who went out first (-1: nobody yet), turns left after that, the melds laid (by everyone who
    went out, in order), and who else went out in the turns left."""

    out_seat: int = -1
    final_left: int = 0
    laid: tuple[tuple[Card, ...], ...] = ()
    later_out: tuple[int, ...] = ()

    def __init__(
            self, out_seat: int = -1, final_left: int = 0, laid: tuple[tuple[Card, ...], ...] = (),
            later_out: tuple[int, ...] = ()
    ) -> None:
        self.out_seat = out_seat
        self.final_left = final_left
        self.laid = laid
        self.later_out = later_out

    def copy(self) -> MeldState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return MeldState(self.out_seat, self.final_left, self.laid, self.later_out)


@dataclass
class MeldRules:
    """A compiled ``melding`` clause (bound to a game by :meth:`bind`)."""

    pile: str
    kinds: int
    min_size: int
    min_natural: int
    wild_spec: Any
    ace: str | None
    ace_position: str
    values_by_rank: Mapping[str, int]
    tally: str
    final_turns: int
    max_melds: int
    first_turn: str
    source: Source
    go_out_source: Source
    first_turn_source: Source
    tally_source: Source
    wild_by_round: tuple[int, ...] = ()
    value_of: tuple[int, ...] = ()
    rule: dict[str, Any] = field(default_factory=dict)
    deck: Deck | None = None
    wild_sets: bool = False
    distinct: bool = False
    lay_off: str = "none"
    after_first: str = "forbidden"
    after_first_source: Source | None = None
    final_turns_source: Source | None = None
    """The clause giving the others their turns after someone goes out, and ending the round after them."""
    when_able: str = "optional"
    """``optional``: a player who can go out may still discard; ``compulsory``: must go out."""
    lines: tuple[int, int, bool, bool, bool] = (13, -1, False, False, False)
    """The arguments of :func:`melds.run_lines` (from :attr:`rule`, set by :meth:`bind`)."""
    _memo: dict[tuple[str, CardMask, int, Any], Any] = field(default_factory=dict, repr=False)
    _faces: dict[int, tuple[tuple[int, int, bool], ...]] = field(default_factory=dict, repr=False)
    _screens: dict[int, ScreenTables] = field(default_factory=dict, repr=False)
    _run_shares: melds.RunShares = field(default_factory=list, repr=False)
    """:func:`melds.run_shares_memo` of this clause's rule (set by :meth:`bind`)."""

    @staticmethod
    def build(d: Mapping[str, Any], key: str, file: str) -> MeldRules:
        """Compile the clause (the wild rank may still be a round reference)."""
        kinds = 0
        for k in d["kinds"]:
            kinds |= {"set": melds.SET, "run": melds.RUN}[k]
        runs = d.get("runs", {})
        pos = runs.get("ace_position", "low")
        if pos not in ACE_POSITIONS:
            raise SpecError(f"runs.ace_position must be one of {list(ACE_POSITIONS)}", file,
                            key=f"{key}.runs.ace_position")
        go = d["go_out"]
        max_melds = go.get("max_melds", -1)
        if type(max_melds) is not int or max_melds == 0 or max_melds < -1:
            raise SpecError("go_out.max_melds must be -1 (any number) or at least 1", file,
                            key=f"{key}.go_out.max_melds")
        first = go.get("first_turn", "allowed")
        if first not in ("allowed", "forbidden"):
            raise SpecError("go_out.first_turn must be allowed or forbidden", file, key=f"{key}.go_out.first_turn")
        tally = d.get("tally", "several")
        if tally not in ("several", "one"):
            raise SpecError("tally must be several or one", file, key=f"{key}.tally")
        choices = {"wild_sets": (d.get("wild_sets", "never"), ("never", "natural"), key),
                   "set_copies": (d.get("set_copies", "any"), ("any", "distinct"), key),
                   "lay_off": (d.get("lay_off", "none"), ("none", "table"), key),
                   "after_first": (go.get("after_first", "forbidden"), ("forbidden", "allowed"), f"{key}.go_out"),
                   "when_able": (go.get("when_able", "optional"), ("optional", "compulsory"), f"{key}.go_out")}
        for name, (v, allowed, where) in choices.items():
            if v not in allowed:
                raise SpecError(f"{name} must be one of {list(allowed)}", file, key=f"{where}.{name}")
        if choices["wild_sets"][0] == "natural" and choices["set_copies"][0] == "distinct":
            raise SpecError("wild_sets: natural and set_copies: distinct cannot be combined", file,
                            key=f"{key}.wild_sets")
        src = Source(**d["source"])
        gsrc = Source(**go["source"])
        m = MeldRules(d["pile"], kinds, d["min_size"], d.get("min_natural", 1), d.get("wild_rank", "none"),
                      runs.get("ace"), pos, dict(d["values"]), tally, go["final_turns"], max_melds, first,
                      src, gsrc, Source(**go["first_turn_source"]) if "first_turn_source" in go else gsrc,
                      Source(**d["tally_source"]) if "tally_source" in d else src)
        m.wild_sets = choices["wild_sets"][0] == "natural"
        m.distinct = choices["set_copies"][0] == "distinct"
        m.lay_off = choices["lay_off"][0]
        m.after_first = choices["after_first"][0]
        m.when_able = choices["when_able"][0]
        m.after_first_source = Source(**go["after_first_source"]) if "after_first_source" in go else gsrc
        m.final_turns_source = Source(**go["final_turns_source"]) if "final_turns_source" in go else None
        return m

    def bind(self, game: Game, key: str) -> None:
        """Resolve ranks and the wild rank of every round against the game's deck and schedule."""
        deck = game.deck
        file = game.spec.file
        self.deck = deck
        wild = []
        for w in game.per_round(self.wild_spec, f"{key}.wild_rank"):
            if w != "none" and w not in deck.ranks:
                raise SpecError(f"wild rank {w!r} is not a rank of the deck", file, key=f"{key}.wild_rank")
            wild.append(-1 if w == "none" else deck.ranks.index(w))
        self.wild_by_round = tuple(wild)
        bad = [r for r in self.values_by_rank if r not in deck.ranks]
        if bad:
            raise SpecError(f"values names ranks {bad} not in the deck", file, key=f"{key}.values")
        if any(type(v) is not int or v < 0 for v in self.values_by_rank.values()):
            raise SpecError("card values must be non-negative integers", file, key=f"{key}.values")
        self.value_of = tuple(self.values_by_rank.get(deck.ranks[r], 0) if r >= 0 else 0 for r in deck.rank_of)
        if self.ace is not None and self.ace not in deck.ranks:
            raise SpecError(f"runs.ace {self.ace!r} is not a rank of the deck", file, key=f"{key}.runs.ace")
        low, high, wrap = ACE_POSITIONS[self.ace_position]
        self.rule = {"n_ranks": len(deck.ranks), "ace_rank": deck.ranks.index(self.ace) if self.ace else -1,
                     "ace_low": low, "ace_high": high, "wrap": wrap, "distinct_suits": self.distinct,
                     "wild_sets": self.wild_sets}
        self.lines = (len(deck.ranks), self.rule["ace_rank"], low, high, wrap)
        self._run_shares = melds.run_shares_memo(self.min_size, self.min_natural, self.lines)
        if max(d.hand_size for d in game.round_deals) + 1 > melds.MAX_CARDS:
            raise SpecError(f"melding handles hands of at most {melds.MAX_CARDS - 1} cards", file, key=key)

    # --- arithmetic over hands ---------------------------------------------------------
    def _cards(self, hand: CardMask, ridx: int) -> tuple[tuple[Card, ...], tuple[int, ...], tuple[int, ...],
                                                         tuple[bool, ...]]:
        assert self.deck is not None
        d = self.deck
        cards = tuple(d.cards_of(hand))
        if not cards:
            return (), (), (), ()
        ranks, suits, wild = zip(*map(self._faces_of(ridx).__getitem__, cards), strict=True)
        return cards, ranks, suits, wild

    def _faces_of(self, ridx: int) -> tuple[tuple[int, int, bool], ...]:
        """Per card of the deck: its rank, its suit, and whether it is wild in round row ``ridx``."""
        faces = self._faces.get(ridx)
        if faces is None:
            assert self.deck is not None
            d = self.deck
            faces = self._faces[ridx] = tuple((d.rank_of[c], d.suit_of[c], self.is_wild(c, ridx))
                                              for c in range(d.size))
        return faces

    def _memoised(self, what: str, hand: CardMask, ridx: int, fn: Any, extra: Any = 0) -> Any:
        k = (what, hand, ridx, extra)
        v = self._memo.get(k)
        if v is None:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            v = self._memo[k] = fn()
        return v

    def value(self, hand: CardMask) -> int:
        """The face value of the cards (wild cards count their own value)."""
        return sum(self.value_of[c] for c in Deck.cards_of(hand))

    def deadwood(self, hand: CardMask, ridx: int) -> int:
        """The least value of the cards left out of melds (per ``tally``) for round row ``ridx``."""
        def compute() -> int:
            cards, ranks, suits, wild = self._cards(hand, ridx)
            values = tuple(self.value_of[c] for c in cards)
            if self.tally == "several":
                return melds.min_deadwood(ranks, suits, wild, values, self.kinds, self.min_size, self.min_natural,
                                          **self.rule)
            best = 0  # one meld: the most valuable subset that is a meld
            n = len(cards)
            for bits in range(1, 1 << n):
                if bits.bit_count() < self.min_size:
                    continue
                idx = [i for i in range(n) if bits >> i & 1]
                v = sum(values[i] for i in idx)
                if v > best and melds.is_meld(tuple(ranks[i] for i in idx), tuple(suits[i] for i in idx),
                                              tuple(wild[i] for i in idx), self.kinds, self.min_size,
                                              self.min_natural, **self.rule):
                    best = v
            return sum(values) - best
        return int(self._memoised("deadwood", hand, ridx, compute))

    def is_wild(self, c: Card, ridx: int) -> bool:
        """Whether card ``c`` is wild in round row ``ridx`` (the round's wild rank)."""
        assert self.deck is not None
        w = self.wild_by_round[ridx]
        return w >= 0 and self.deck.rank_of[c] == w

    def is_meld_of(self, group: tuple[Card, ...], ridx: int) -> bool:
        """Whether the cards ``group`` make one meld in round row ``ridx``."""
        assert self.deck is not None
        d = self.deck
        return melds.is_meld(tuple(d.rank_of[c] for c in group), tuple(d.suit_of[c] for c in group),
                             tuple(self.is_wild(c, ridx) for c in group), self.kinds, self.min_size,
                             self.min_natural, **self.rule)

    def tally_deadwood(self, hand: CardMask, ridx: int, table: tuple[tuple[Card, ...], ...] = ()) -> int:
        """The deadwood counted against ``hand`` at the end of a round whose laid melds are ``table``.

        With ``lay_off: table`` the cards that can be added to those melds (each meld
        as laid; any number of cards to each, so long as it stays a meld) are laid off
        first, the choice that leaves the least deadwood; otherwise :meth:`deadwood`.
        """
        if self.lay_off != "table" or not table or not hand:
            return self.deadwood(hand, ridx)
        assert self.deck is not None
        d = self.deck
        cards = tuple(d.cards_of(hand))
        wild = self.is_wild

        def compute() -> int:
            reachable = {0}  # the sets of hand cards (as masks) that can be laid off together
            for meld in table:
                nat = [c for c in meld if not wild(c, ridx)]
                near = [c for c in cards if wild(c, ridx) or not nat
                        or any(d.rank_of[c] == d.rank_of[x] or d.suit_of[c] == d.suit_of[x] for x in nat)]
                fits = []
                for bits in range(1, 1 << len(near)):
                    sub = tuple(near[i] for i in range(len(near)) if bits >> i & 1)
                    if self.is_meld_of(tuple(meld) + sub, ridx):
                        fits.append(sum(1 << c for c in sub))
                reachable |= {r | f for r in reachable for f in fits if not r & f}
            best = self.deadwood(hand, ridx)
            for off in sorted(reachable, key=lambda m: -self.value(m)):
                if best == 0:
                    break
                best = min(best, self.deadwood(hand & ~off, ridx))
            return best
        return int(self._memoised("tally", hand, ridx, compute, table))

    def can_lay(self, hand: CardMask, ridx: int) -> bool:
        """Whether every card of ``hand`` can be laid in at most ``max_melds`` melds."""
        def compute() -> bool:
            _, ranks, suits, wild = self._cards(hand, ridx)
            return melds.can_go_out(ranks, suits, wild, self.kinds, self.min_size, self.min_natural,
                                    max_melds=self.max_melds, **self.rule)
        return bool(self._memoised("lay", hand, ridx, compute))

    def _screen_tables(self, ridx: int) -> ScreenTables:
        """What :func:`melds.screen_held` reads of round row ``ridx``, from :meth:`_faces_of`: each card's rank,
        suit and wildness, and the number of suits."""
        t = self._screens.get(ridx)
        if t is None:
            faces = self._faces_of(ridx)
            assert self.deck is not None
            t = self._screens[ridx] = (tuple(f[0] for f in faces), tuple(f[1] for f in faces),
                                       tuple(f[2] for f in faces), len(self.deck.suits))
        return t

    def out_discards(self, hand: CardMask, candidates: CardMask, ridx: int) -> list[Card]:
        """The cards ``c`` of ``candidates`` such that ``hand`` without ``c`` can all be laid in melds.

        Cheap screens first, each ruling out only candidates that cannot go out:
        :func:`melds.out_screen` (as :func:`melds.screen_held`: the wilds the other naturals need; usually no
        candidate survives), then, with ``wild_sets``, the least deadwood (if
        ``hand - c`` can all be laid, leaving out only ``c`` is one layout of
        ``hand``, so the least deadwood of ``hand`` is at most ``c``'s value).
        Each survivor is then searched exactly; without ``wild_sets``, several
        survivors share one search (:func:`melds.out_discards`).
        """
        rank_of, suit_of, is_wild, n_suits = self._screen_tables(ridx)
        maybe = melds.screen_held(Deck.cards_of(hand), rank_of, suit_of, is_wild, n_suits, self.kinds, self.min_size,
                                  self.min_natural, self.lines, memo=self._run_shares)
        if not maybe:  # the usual answer, so nothing is memoised: a drawn card makes nearly every hand new
            return []
        picks = [c for c in maybe if candidates >> c & 1]
        if len(picks) > 1 and not self.wild_sets:  # one search answers for every discard
            cards, ranks, suits, wild = self._cards(hand, ridx)
            rule = {k: v for k, v in self.rule.items() if k != "wild_sets"}
            ok = {cards[i] for i in melds.out_discards(ranks, suits, wild, self.kinds, self.min_size,
                                                       self.min_natural, max_melds=self.max_melds, **rule)}
            return [c for c in picks if c in ok]
        if len(picks) > 1:
            dw = int(self._memoised("least", hand, ridx, lambda: self._least_deadwood(hand, ridx)))
            picks = [c for c in picks if self.value_of[c] >= dw]
        return [c for c in picks if self.can_lay(hand & ~(1 << c), ridx)]

    def _least_deadwood(self, hand: CardMask, ridx: int) -> int:
        cards, ranks, suits, wild = self._cards(hand, ridx)
        return melds.min_deadwood(ranks, suits, wild, tuple(self.value_of[c] for c in cards), self.kinds,
                                  self.min_size, self.min_natural, **self.rule)

    def partition(self, hand: CardMask, ridx: int) -> tuple[tuple[Card, ...], ...]:
        """The melds laid when going out with ``hand`` (deterministic; see :func:`melds.meld_partition`)."""
        cards, ranks, suits, wild = self._cards(hand, ridx)
        parts = melds.meld_partition(ranks, suits, wild, self.kinds, self.min_size, self.min_natural,
                                     max_melds=self.max_melds, **self.rule)
        if parts is None:
            raise ValueError("these cards cannot all be laid in melds")
        return tuple(tuple(cards[i] for i in m) for m in parts)

    def max_deadwood(self, game: Game) -> int:
        """The largest deadwood a hand of any round can have (all cards at their highest value)."""
        return max(d.hand_size for d in game.round_deals) * max(self.value_of, default=0)
