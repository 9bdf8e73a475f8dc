"""The ``book_melding`` component: draw, meld on the table toward books, discard; a reserve pile; going out.

Used by: hand-and-foot (the Canasta family: melds stay on the table for the
player's side and grow into books of seven; a first meld must reach the round's
minimum; the foot replaces a used-up hand; a side with the required books may
go out).

A turn, in stages:

* ``draw``: ``draw_stock`` takes ``draw`` cards from the stock (what is left, if
  fewer); ``take`` takes the whole discard pile (``take_pile``: ``any`` time it is
  not empty, ``top_usable``: only when the player could meld its top card, or
  ``never``); with ``freeze: wild`` (hand-and-foot's ``frozen_pile`` house rule) a pile holding a
  wild card (a wild card was discarded onto it) is frozen and is taken only by a player holding two
  natural cards of its top card's rank (never while a wild card is on top). A player who has not
  laid out this round may first lay out
  (``lay_out.timing``: ``before_draw``; with ``any_time`` also after drawing).
* laying out: ``meld`` actions start new sets (exactly ``min_size`` cards), and
  ``add N X`` grows a set laid this turn. The sets laid count their card values
  (and, with ``lay_out.counts_books``, the bonus of any set that is already a
  book) toward the round's ``lay_out.minimum``; on reaching it the player has
  laid out. Below it, ``retract`` takes every set of this lay-out back to the
  hand, once per turn (so a lay-out never leaves a player without a move); with
  ``lay_out.short: take_back`` the turn then goes on, with ``lose_turn`` it ends
  there (nothing drawn if the lay-out came before the draw, nothing discarded).
  Laying out uses only new sets of the player's own ("distinct sets").
* ``play`` (after drawing): a player who has laid out starts sets (``meld``)
  and adds single cards to any set of their side (``add N X``: set number
  ``N``, counted from 1 in the order laid); a player who has not may lay out
  (``any_time``); every player ends the turn with ``discard X``.
* ``ask`` / ``answer``: with partners, a player may ask the partner once per
  turn, after drawing, whether to finish (``ask.when: could_go_out``: only in
  the foot, holding the books needed and two cards or more; ``any_turn``: in
  any turn); the partner answers ``yes`` or ``no``. With ``ask.answer: binding``
  a no forbids going out this turn; with ``advisory`` it binds nothing. With
  ``ask.required`` (hand-and-foot's ``partner_ask`` house rule) a player in the foot
  may use up every card only after asking this turn and hearing yes: unasked, or
  after a no, a set or an addition keeps two cards and a discard one (a player
  holding a single card after drawing, who cannot ask, may discard it).

Sets: cards of one rank (``unmeldable`` ranks never; with ``sets.per_rank: one``
at most one set of a rank for each side), with wild cards (the
``wild.ranks`` and, with ``wild.jokers``, the jokers) at most ``wild_ratio[0]``
for every ``wild_ratio[1]`` natural cards, and with ``sets.max_wilds`` (hand-and-foot's ``wild_cap``
house rule; -1, the default: no cap) at most that many wild cards in a set of a rank. A set of
``book_size`` or more is a
book: clean without a wild, dirty with one. With ``clean_closed: closed`` no
wild joins a clean book; with ``books.full: closed`` no card at all joins a book
(``open``, the default: natural cards of its rank still do). With ``wild_books: allowed`` a set may be all wild
cards (it is neither clean nor dirty; a book of them is a wild book).

The reserve lies in the seat zone ``reserve`` (face down) or ``reserve_seen`` (known to
its holder, who looked at it before choosing). When a player's hand is used up and the
reserve (foot) is not yet taken, it
becomes the hand at once (``reserve_pickup: at_once``: a hand used up by melding
goes on from the foot in the same turn), or the turn ends there and the foot is
played from the player's next turn (``next_turn``: it is taken up as the turn ends,
which nobody but its holder can tell from taking it up as the next turn starts).
A player whose hand and reserve are both used up goes out (with ``go_out.last_card:
discard`` only by discarding its last card) if it holds ``go_out`` books (``clean`` and
``dirty``, counted over the side's sets, or with
``count: own_sets`` over the sets the player started; with ``clean_for_dirty`` a clean book beyond those
needed stands in for a dirty one; with ``points``, per round, also melded cards worth that much) and ends
the round at once; otherwise the turn ends and play goes on. When a turn
starts with the stock empty (or, with ``stock_short: empty``, holding fewer than
``draw`` cards), ``stock_exhausted``: ``end_round`` ends the round,
``reshuffle`` shuffles all but the top discard into a new stock (at most
``reshuffles`` times a round, if given; then the round ends).

Setting aside (``set_aside``, hand-and-foot's ``red_threes`` house rule): with ``enabled``, a
card of ``set_aside.ranks`` and ``set_aside.colour`` (``red``, ``black``, ``any``) is not kept:
whenever a player draws (``draw_stock`` or ``take``: so the cards dealt go at the player's first
draw, as Canasta lays a dealt red three down at its holder's first turn) and when the reserve is
taken up, every such card in the hand is laid face up in the player's seat zone ``set_aside.zone``
and replaced by a card drawn from the stock (again, if the replacement is one; none once the stock
is empty). A card dealt to a player whose first draw never comes, or lying in a reserve never taken
up, stays held. Facts ``set_aside`` (the cards its players laid aside) and ``laid_out`` (whether any of
its players laid out this round) let the scoring tables count them.

Legal-action lists name one action per class of equivalent moves: natural
cards of a rank are interchangeable in sets (no rule reads their suit), and so
are wild cards of one rank and value; an action naming any other held card of
the same class is legal too and does the same (the record keeps the cards
named). Discards are listed one per face.

Facts per scoring entity: ``clean_books``, ``dirty_books``, ``wild_books``,
``melded`` (the values of the side's melded cards), ``melded_plain`` (the same
without the cards of wild books: a reading where a wild book is worth its bonus in
all), ``held`` (the cards left
in its players' hands and reserves, each at the absolute value of its card:
the threes are "only negative"), ``went_out``, ``ended_by``, ``set_aside`` and ``laid_out``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations_with_replacement
from operator import lshift
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ..actions import Action, KindSig
from ..cards import Card, Deck
from ..errors import Source, SpecError
from ..tables import Value
from .base import CheckingDoer, PhaseState
from .declared import ALL, BOOL, HAND, Declared, Fact, Transfer

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

Meld = tuple[int, int, int, tuple[Card, ...]]
"""A set on the table: (side, the seat that started it, its rank or -1 for wild cards only, its cards)."""

WILD: Final = -1
UNMELDABLE: Final = -2

Decoded = tuple[str, tuple[Card, ...], int, bool, int | None, int | None]
"""A well-formed action taken apart: its kind, its cards, their mask, whether they are distinct, its number, and
for a ``meld`` the rank of the set its cards make (:meth:`BookMelding.new_set_rank`)."""
SetInfo = tuple[int, tuple[int, ...], bool, Action]
"""What :meth:`BookMelding._melds_info` tells of a set."""
RankSets = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
"""What :meth:`BookMelding._rank_sets` tells of the new sets of a rank."""
DECODE_MEMO: Final = 1 << 16
"""At most this many actions are remembered taken apart."""
SETS_MEMO: Final = 1 << 16
"""At most this many entries in each memo of new sets and their actions (then the memo starts afresh)."""


@dataclass(init=False)
class BookState(PhaseState):
    """The turns' part of a position. Every field holds an immutable value."""

    turns: int = -1
    stage: str = "draw"
    melds: tuple[Meld, ...] = ()
    laid_out: int = 0
    """Seats that have laid out this round (a mask)."""
    footed: int = 0
    """Seats that have taken up their reserve (a mask)."""
    pending: int = -1
    """The index of the first set of a lay-out in progress (below the minimum), or -1."""
    opened: int = -1
    """The index of the first set laid this turn by a player laying out this turn, or -1."""
    retracted: bool = False
    reshuffled: int = 0
    asked: bool = False
    answer: str = ""
    out_seat: int = -1
    ended_by: str = ""

    def __init__(
            self, turns: int = -1, stage: str = "draw", melds: tuple[Meld, ...] = (), laid_out: int = 0,
            footed: int = 0, pending: int = -1, opened: int = -1, retracted: bool = False, reshuffled: int = 0,
            asked: bool = False, answer: str = "", out_seat: int = -1, ended_by: str = ""
    ) -> None:
        self.turns = turns
        self.stage = stage
        self.melds = melds
        self.laid_out = laid_out
        self.footed = footed
        self.pending = pending
        self.opened = opened
        self.retracted = retracted
        self.reshuffled = reshuffled
        self.asked = asked
        self.answer = answer
        self.out_seat = out_seat
        self.ended_by = ended_by

    def copy(self) -> BookState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return BookState(self.turns, self.stage, self.melds, self.laid_out, self.footed, self.pending, self.opened,
                         self.retracted, self.reshuffled, self.asked, self.answer, self.out_seat, self.ended_by)


class BookMelding(CheckingDoer):
    """Draw, meld toward books on the table, discard; a reserve pile; going out with the books."""

    kind: ClassVar[str] = "book_melding"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.stock: str = d["stock"]
        self.discard: str = d["discard"]
        self.keeps_list = True  # its own check (_refuse) costs more than a look-up in the list just made
        self.list_piles = (self.stock, self.discard)  # the list reads them: their sizes guard it
        self.meld_zone: str = d["melds"]
        self.reserve: str = d["reserve"]
        self.reserves: tuple[str, ...] = tuple(dict.fromkeys((self.reserve, d.get("reserve_seen", self.reserve))))
        """The seat zones a reserve may lie in: face down, or (``reserve_seen``) known to its holder."""
        self.draw: int = d["draw"]
        self.pickup: str = d["reserve_pickup"]
        if self.pickup not in ("at_once", "next_turn"):
            raise SpecError("reserve_pickup must be at_once or next_turn", file, key=f"{key}.reserve_pickup")
        self.take_pile: str = d["take_pile"]
        self.take_source = Source(**d["take_pile_source"])
        if self.take_pile not in ("any", "top_usable", "never"):
            raise SpecError("take_pile must be any, top_usable or never", file, key=f"{key}.take_pile")
        self.freeze: str = d.get("freeze", "none")
        """``wild``: a discard pile holding a wild card is frozen (taken only with two natural cards of its top
        card's rank); ``none``: no pile is frozen."""
        if self.freeze not in ("none", "wild"):
            raise SpecError("freeze must be none or wild", file, key=f"{key}.freeze")
        self.freeze_source = Source(**d["freeze_source"]) if "freeze_source" in d else self.take_source
        sa = d.get("set_aside")
        self.aside_on: bool = sa is not None and bool(sa["enabled"])
        self.aside_zone: str = sa["zone"] if sa is not None else ""
        self.aside_ranks: tuple[str, ...] = tuple(sa["ranks"]) if sa is not None else ()
        self.aside_colour: str = sa.get("colour", "any") if sa is not None else "any"
        if self.aside_colour not in ("red", "black", "any"):
            raise SpecError("set_aside.colour must be red, black or any", file, key=f"{key}.set_aside.colour")
        self.exhausted: str = d["stock_exhausted"]
        self.short_ends: bool = d.get("stock_short", "draw_rest") == "empty"
        """Whether a stock holding fewer than ``draw`` cards counts as empty (else the player draws what is left)."""
        if d.get("stock_short", "draw_rest") not in ("draw_rest", "empty"):
            raise SpecError("stock_short must be draw_rest or empty", file, key=f"{key}.stock_short")
        self.reshuffles: int = d.get("reshuffles", -1)
        """At most this many reshuffles a round (-1: no limit); the next empty pickup pile ends the round."""
        if self.exhausted not in ("end_round", "reshuffle"):
            raise SpecError("stock_exhausted must be end_round or reshuffle", file, key=f"{key}.stock_exhausted")
        s = d["sets"]
        self.min_size: int = s["min_size"]
        self.wild_ranks_names: tuple[str, ...] = tuple(s["wild"]["ranks"])
        self.jokers_wild: bool = s["wild"]["jokers"]
        self.unmeldable_names: tuple[str, ...] = tuple(s["unmeldable"])
        self.ratio: tuple[int, int] = (s["wild_ratio"][0], s["wild_ratio"][1])
        self.max_wilds: int = s.get("max_wilds", -1)
        """At most this many wild cards in a set of a rank (-1: no cap beyond the ratio)."""
        self.max_wilds_source = Source(**s["max_wilds_source"]) if "max_wilds_source" in s else \
            Source(**s["wild_ratio_source"])
        self.wild_sets: bool = s["wild_books"] == "allowed"
        self.one_per_rank: bool = s.get("per_rank", "any") == "one"
        """``sets.per_rank: one``: a side holds at most one set of each rank (a second is not started)."""
        if s.get("per_rank", "any") not in ("any", "one"):
            raise SpecError("sets.per_rank must be any or one", file, key=f"{key}.sets.per_rank")
        self.per_rank_source = Source(**s["per_rank_source"]) if "per_rank_source" in s else Source(**s["source"])
        self.sets_source = Source(**s["source"])
        self.ratio_source = Source(**s["wild_ratio_source"])
        self.unmeldable_source = Source(**s["unmeldable_source"])
        b = d["books"]
        self.book_size: int = b["size"]
        self.clean_closed: bool = b["clean_closed"] == "closed"
        self.closed_source = Source(**b["clean_closed_source"])
        self.full_closed: bool = b.get("full", "open") == "closed"
        """A book (``size`` cards or more) takes no more cards."""
        self.full_source = Source(**b["full_source"]) if "full_source" in b else self.closed_source
        if b.get("full", "open") not in ("open", "closed"):
            raise SpecError("books.full must be open or closed", file, key=f"{key}.books.full")
        self.book_points: dict[str, int] = dict(b["points"])
        self.values_spec: Mapping[str, Any] = d["values"]
        lo = d["lay_out"]
        self.minimum_spec: Any = lo["minimum"]
        self.counts_books: bool = lo["counts_books"]
        self.timing: str = lo["timing"]
        if self.timing not in ("before_draw", "any_time"):
            raise SpecError("lay_out.timing must be before_draw or any_time", file, key=f"{key}.lay_out.timing")
        self.lay_out_source = Source(**lo["source"])
        self.short: str = lo.get("short", "take_back")
        """What follows taking back a lay-out short of the minimum: ``take_back`` (the turn goes on) or
        ``lose_turn`` (the turn ends there)."""
        if self.short not in ("take_back", "lose_turn"):
            raise SpecError("lay_out.short must be take_back or lose_turn", file, key=f"{key}.lay_out.short")
        self.short_source = Source(**lo["short_source"]) if "short_source" in lo else self.lay_out_source
        self.own_sets_source = Source(**lo["own_sets_source"])
        go = d["go_out"]
        self.need_clean: int = go["clean"]
        self.need_dirty: int = go["dirty"]
        self.own_books: bool = go.get("count", "side") == "own_sets"
        if go.get("count", "side") not in ("side", "own_sets"):
            raise SpecError("go_out.count must be side or own_sets", file, key=f"{key}.go_out.count")
        self.clean_for_dirty: bool = bool(go.get("clean_for_dirty", False))
        self.last_card: str = go.get("last_card", "any")
        """``any``: a player may use up the last card by melding or by discarding; ``discard``: the last card
        must be discarded (a set or an addition leaves at least one card)."""
        if self.last_card not in ("any", "discard"):
            raise SpecError("go_out.last_card must be any or discard", file, key=f"{key}.go_out.last_card")
        self.go_out_source = Source(**go["source"])
        self.last_card_source = Source(**go["last_card_source"]) if "last_card_source" in go else self.go_out_source
        self.out_points_spec: Any = go.get("points", 0)
        ask = d.get("ask")
        self.ask_on: bool = ask is not None and bool(ask["enabled"])
        self.binding: bool = ask is not None and ask["answer"] == "binding"
        self.ask_source = Source(**ask["source"]) if ask else self.source
        if ask and ask["answer"] not in ("advisory", "binding"):
            raise SpecError("ask.answer must be advisory or binding", file, key=f"{key}.ask.answer")
        self.ask_any_turn: bool = ask is not None and ask.get("when", "could_go_out") == "any_turn"
        if ask and ask.get("when", "could_go_out") not in ("could_go_out", "any_turn"):
            raise SpecError("ask.when must be could_go_out or any_turn", file, key=f"{key}.ask.when")
        self.ask_required: bool = ask is not None and bool(ask.get("required", False))
        """A player in the foot uses up every card only after asking this turn and hearing yes."""
        self.required_source = Source(**ask["required_source"]) if ask and "required_source" in ask else \
            self.ask_source
        self.first_player_source: Source | None = Source(**d["first_player_source"]) \
            if "first_player_source" in d else None
        """The clause naming who plays the first turn of a round (an audit cites it for a seat acting out of turn)."""
        self.order_source: Source | None = Source(**d["order_source"]) if "order_source" in d else None
        """The clause passing the turn on to the next player (cited for a seat acting out of turn later on)."""
        self.exhausted_source: Source = Source(**d["stock_exhausted_source"]) \
            if "stock_exhausted_source" in d else self.source

    # --- building -----------------------------------------------------------------
    def zone_ids(self) -> list[str]:
        return ["hand", self.stock, self.discard, self.meld_zone, *self.reserves,
                *((self.aside_zone,) if self.aside_zone else ())]

    def action_sigs(self) -> list[KindSig]:
        out = [KindSig("draw_stock"), KindSig("discard", cards=(1, 1)),
               KindSig("meld", cards=(self.min_size, self.min_size)),
               KindSig("add", number=(1, 400), cards=(1, 1)), KindSig("retract")]
        if self.take_pile != "never":
            out.append(KindSig("take"))
        if self.ask_on:
            out += [KindSig("ask"), KindSig("answer", choices=("yes", "no"))]
        return out

    def bind(self, game: Game) -> None:
        super().bind(game)
        self.check_stock(game, self.stock)
        deck = game.deck
        f, k = self.file, self.key
        for r in (*self.wild_ranks_names, *self.unmeldable_names):
            if r not in deck.ranks:
                raise SpecError(f"rank '{r}' is not in the deck", f, key=f"{k}.sets")
        wild_r = {deck.ranks.index(r) for r in self.wild_ranks_names}
        unm = {deck.ranks.index(r) for r in self.unmeldable_names}
        self.meld_rank: tuple[int, ...] = tuple(
            WILD if (deck.rank_of[c] < 0 and self.jokers_wild) or deck.rank_of[c] in wild_r
            else UNMELDABLE if deck.rank_of[c] < 0 or deck.rank_of[c] in unm else deck.rank_of[c]
            for c in range(deck.size))
        vals: list[int] = []
        for c in range(deck.size):
            rank = "JK" if deck.rank_of[c] < 0 else deck.ranks[deck.rank_of[c]]
            v = self.values_spec.get(rank)
            if isinstance(v, Mapping):
                v = v.get(deck.colors[deck.suit_of[c]])
            if type(v) is not int:
                raise SpecError(f"values gives no points for '{deck.names[c]}'", f, key=f"{k}.values")
            vals.append(v)
        self.value: tuple[int, ...] = tuple(vals)
        self.penalty: tuple[int, ...] = tuple(abs(v) for v in vals)
        for r in self.aside_ranks:
            if r not in deck.ranks:
                raise SpecError(f"rank '{r}' is not in the deck", f, key=f"{k}.set_aside.ranks")
        aside_r = {deck.ranks.index(r) for r in self.aside_ranks}
        self.asides: int = sum(1 << c for c in range(deck.size) if self.aside_on and deck.rank_of[c] in aside_r
                               and self.aside_colour in ("any", deck.colors[deck.suit_of[c]]))
        """The cards laid aside as soon as they are held (a mask; 0 unless ``set_aside.enabled``)."""
        self.cls: tuple[tuple[int, int], ...] = tuple((deck.rank_of[c], vals[c]) for c in range(deck.size))
        """Cards of one class are interchangeable in sets (rank and value)."""
        self.minimum: tuple[int, ...] = tuple(int(v) for v in game.per_round(self.minimum_spec, f"{k}.lay_out.minimum"))
        self.out_points: tuple[int, ...] = tuple(int(v) for v in game.per_round(self.out_points_spec,
                                                                                f"{k}.go_out.points"))
        self.partnered = any(len(t) > 1 for t in game.teams)
        for name in ("clean", "dirty", "wild"):
            if name not in self.book_points:
                raise SpecError(f"books.points needs '{name}'", f, key=f"{k}.books.points")
        self._discard_acts = tuple(self.codec.encode("discard", cards=(c,)) for c in range(deck.size))
        self._draw = self.codec.encode("draw_stock")
        self._take = self.codec.encode("take") if self.take_pile != "never" else -1
        self._retract = self.codec.encode("retract")
        if self.ask_on:
            self._ask = self.codec.encode("ask")
            self._answers = {self.codec.encode("answer", choice=c): c for c in ("yes", "no")}
        self._bind_tables()

    def _bind_tables(self) -> None:
        """Constant tables for the hot paths (:meth:`legal`, :meth:`try_apply`), from the bound deck and codec."""
        assert self.game is not None
        deck = self.game.deck
        codec = self.codec
        keys = sorted(set(self.cls))  # class numbers follow the order of the classes' (rank, value) keys
        number = {key: i for i, key in enumerate(keys)}
        masks = [0] * len(keys)
        for c in range(deck.size):
            masks[number[self.cls[c]]] = masks[number[self.cls[c]]] | (1 << c)
        cls_rank = [self.meld_rank[(m & -m).bit_length() - 1] for m in masks]
        self._wild_cls_masks: tuple[int, ...] = tuple(m for m, r in zip(masks, cls_rank, strict=True) if r == WILD)
        """Each wild class's cards, in class order."""
        self._wild_mask: int = sum(self._wild_cls_masks)
        groups: dict[int, list[int]] = {}
        for i, r in enumerate(cls_rank):
            if r >= 0:
                groups.setdefault(r, []).append(i)
        self._rank_cls_masks: dict[int, tuple[int, ...]] = {r: tuple(masks[i] for i in ks)
                                                            for r, ks in sorted(groups.items())}
        """Each meldable rank's classes (their cards), in class order."""
        self._rank_masks: dict[int, int] = {r: sum(ms) for r, ms in self._rank_cls_masks.items()}
        self._rank_cards: tuple[int, ...] = tuple(self._rank_masks.values())
        """Each meldable rank's cards, ascending by rank."""
        self._sets_memo: dict[int, RankSets] = {}
        """Memo of :meth:`_rank_sets` by the cards of the rank held (bounded by :data:`SETS_MEMO`)."""
        self._cards_memo: dict[int, Action] = {}
        """Memo of :meth:`_meld_of` by the cards (bounded by :data:`SETS_MEMO`)."""
        size = self.min_size
        self._plans: tuple[tuple[int, int], ...] = tuple(
            (w, size - w) for w in range(size) if self.ratio_ok(size - w, w) and self.cap_ok(w))
        """The (wild cards, natural cards) a new set of a rank may hold, by the ratio and the cap."""
        self._min_nat: int = min((n for _, n in self._plans), default=size + 1)
        self._plan_wilds: int = max((w for w, _ in self._plans), default=0)
        self._is_wild: tuple[int, ...] = tuple(int(r == WILD) for r in self.meld_rank)
        self._meld_base: Action = codec.base("meld")
        self._shifts: tuple[int, ...] = tuple(codec.slot * i for i in range(size))
        """Where each card of a new set goes in a ``meld`` action."""
        hi = (codec.sigs["add"].number or (1, 0))[1]
        self._add_bases: tuple[Action, ...] = tuple(codec.encode("add", number=i, cards=(0,)) - 1
                                                    for i in range(1, hi + 1))
        """The action ``add i+1 X`` is ``_add_bases[i] + X + 1``."""
        # the discards of the cards held, byte by byte: one per face (the first copy held) when no face spans two
        # bytes of the hand, else one per card of the canonical hand
        self._by_face: bool = all(deck.face[c] != deck.face[c - 1] for c in range(8, deck.size, 8))
        rows: list[tuple[tuple[Action, ...], ...]] = []
        for j in range(0, deck.size, 8):
            ids = range(j, min(j + 8, deck.size))
            same = [sum(1 << (d - j) for d in ids if deck.face[d] == deck.face[c]) if self._by_face else 1 << (c - j)
                    for c in ids]
            row: list[tuple[Action, ...]] = [()]
            for v in range(1, 256):
                p = (v & -v).bit_length() - 1  # the lowest card of v is kept; its other copies are not
                row.append(((self._discard_acts[j + p],) + row[v & ~same[p]]) if p < len(same) else ())
            rows.append(tuple(row))
        self._discard_rows: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(rows)
        self._take_any: bool = self.take_pile == "any" and self.freeze == "none"
        """Whether the discard pile may be taken whenever it holds a card (and no lay-out is under way)."""
        self._may_bar: bool = self.last_card == "discard" or (self.ask_required and self.partnered) or \
            self.binding
        """Whether :meth:`_barred_out` can ever bar anything."""
        self._decoded: dict[int, Decoded | None] = {}
        """Memo of :meth:`_decode` (bounded by :data:`DECODE_MEMO`)."""
        self._info_memo: tuple[tuple[Meld, ...], tuple[SetInfo, ...]] = ((), ())
        """The last :meth:`_melds_info` computed: the sets (immutable, compared by identity) and their facts."""

    def new_state(self) -> BookState:
        return BookState()

    def _bs(self, st: State) -> BookState:
        return st.cstate[self.index]  # type: ignore[return-value]

    # --- set arithmetic (pure) ---------------------------------------------------
    def is_book(self, m: Meld) -> bool:
        """Whether a set is a book (``book_size`` cards or more)."""
        return len(m[3]) >= self.book_size

    def wilds_in(self, cards: tuple[Card, ...]) -> int:
        """How many wild cards a set holds."""
        return sum(1 for c in cards if self.meld_rank[c] == WILD)

    def book_kind(self, m: Meld) -> str:
        """``clean``, ``dirty``, ``wild`` for a book, '' for a set short of one."""
        if not self.is_book(m):
            return ""
        if m[2] == WILD:
            return "wild"
        return "dirty" if self.wilds_in(m[3]) else "clean"

    def ratio_ok(self, naturals: int, wilds: int) -> bool:
        """At most ``ratio[0]`` wild cards for every ``ratio[1]`` natural cards.

        >>> from types import SimpleNamespace
        >>> ok = BookMelding.ratio_ok
        >>> [ok(SimpleNamespace(ratio=(1, 2)), n, 1) for n in (1, 2, 3)], ok(SimpleNamespace(ratio=(1, 2)), 4, 2)
        ([False, True, True], True)
        """
        return wilds * self.ratio[1] <= naturals * self.ratio[0]

    def fits(self, m: Meld, c: Card) -> bool:
        """Whether card ``c`` may join set ``m``."""
        if self.full_closed and self.is_book(m):
            return False
        r = self.meld_rank[c]
        if m[2] == WILD:
            return r == WILD
        if r == m[2]:
            return True
        if r != WILD:
            return False
        w = self.wilds_in(m[3])
        if self.clean_closed and w == 0 and self.is_book(m):
            return False
        return self.ratio_ok(len(m[3]) - w, w + 1) and self.cap_ok(w + 1)

    def cap_ok(self, wilds: int) -> bool:
        """At most ``max_wilds`` wild cards in a set of a rank (-1: no cap).

        >>> from types import SimpleNamespace
        >>> [BookMelding.cap_ok(SimpleNamespace(max_wilds=m), 4) for m in (-1, 3, 4)]
        [True, False, True]
        """
        return self.max_wilds < 0 or wilds <= self.max_wilds

    def new_set_rank(self, cards: tuple[Card, ...]) -> int | None:
        """The rank of a new set made of ``cards`` (``WILD`` for wild cards only), or None if they make none."""
        if len(cards) != self.min_size:
            return None
        ranks = {self.meld_rank[c] for c in cards}
        if UNMELDABLE in ranks:
            return None
        nat = ranks - {WILD}
        if not nat:
            return WILD if self.wild_sets else None
        if len(nat) > 1:
            return None
        w = self.wilds_in(cards)
        return nat.pop() if self.ratio_ok(len(cards) - w, w) and self.cap_ok(w) else None

    def _why_wilds(self, cards: tuple[Card, ...]) -> tuple[str, Source] | None:
        """Why ``cards``, of the set's size and one natural rank besides wild cards, make no new set because of
        their wild cards (the ratio of wild to natural cards, or the cap on wild cards), and the clause; None
        when the wild cards are not what breaks it."""
        if len(cards) != self.min_size:
            return None
        nat = {self.meld_rank[c] for c in cards} - {WILD}
        if len(nat) != 1 or UNMELDABLE in nat:
            return None
        w = self.wilds_in(cards)
        if not self.ratio_ok(len(cards) - w, w):
            return (f"a set holds at most {self.ratio[0]} wild card(s) for every {self.ratio[1]} natural cards "
                    f"({w} wild, {len(cards) - w} natural)", self.ratio_source)
        if not self.cap_ok(w):
            return f"a set holds at most {self.max_wilds} wild cards", self.max_wilds_source
        return None

    def set_points(self, m: Meld) -> int:
        """A set's card values, with its book bonus when lay-outs count books."""
        pts = sum(map(self.value.__getitem__, m[3]))
        return pts + self.book_points[self.book_kind(m)] if self.counts_books and self.is_book(m) else pts

    def books_of(self, melds: tuple[Meld, ...], side: int) -> tuple[int, int, int]:
        """(clean, dirty, wild) books of one side."""
        kinds = [self.book_kind(m) for m in melds if m[0] == side]
        return kinds.count("clean"), kinds.count("dirty"), kinds.count("wild")

    def has_books(self, st: State, seat: int) -> bool:
        """Whether ``seat`` holds the books needed to go out: its side's (``go_out.count: side``) or those in
        the sets it started itself (``own_sets``); with ``clean_for_dirty`` a clean book beyond those needed
        stands in for a missing dirty one."""
        melds = self._bs(st).melds
        side = st.game.entity_of[seat]
        clean, dirty, _ = self.books_of(tuple(m for m in melds if m[1] == seat) if self.own_books else melds, side)
        if self.clean_for_dirty and clean > self.need_clean:
            dirty += clean - self.need_clean
        if clean < self.need_clean or dirty < self.need_dirty:
            return False
        need = self.out_points[min(st.game.round_index(st.hand_no), len(self.out_points) - 1)]
        return not need or sum(self.value[c] for m in melds if m[0] == side for c in m[3]) >= need

    def minimum_now(self, st: State) -> int:
        """The lay-out minimum of this hand's round."""
        return self.minimum[min(st.game.round_index(st.hand_no), len(self.minimum) - 1)]

    # --- queries --------------------------------------------------------------------
    def _reps(self, hand: int) -> dict[tuple[int, int], list[Card]]:
        """The held cards of each class, lowest id first."""
        out: dict[tuple[int, int], list[Card]] = {}
        cls = self.cls
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            k = cls[c]
            if k in out:
                out[k].append(c)
            else:
                out[k] = [c]
        return out

    def _rank_taken(self, st: State, seat: int, cards: tuple[Card, ...]) -> bool:
        """With ``sets.per_rank: one``, whether the seat's side already holds a set of the rank ``cards``
        would start."""
        if not self.one_per_rank:
            return False
        rank = self.new_set_rank(cards)
        side = st.game.entity_of[seat]
        return rank is not None and any(m[0] == side and m[2] == rank for m in self._bs(st).melds)

    def _new_sets(self, hand: int, reps: dict[tuple[int, int], list[Card]] | None = None
                  ) -> list[tuple[Card, ...]]:
        """One new set per class of equivalent sets the hand can start (``reps``: the hand's :meth:`_reps`)."""
        if reps is None:
            reps = self._reps(hand)
        wild_cls = sorted(k for k, cs in reps.items() if self.meld_rank[cs[0]] == WILD)
        out: list[tuple[Card, ...]] = []
        size = self.min_size
        nat_by_rank: dict[int, list[Card]] = {}
        for _cls, cs in sorted(reps.items()):
            r = self.meld_rank[cs[0]]
            if r >= 0:
                nat_by_rank.setdefault(r, []).extend(cs)
        for _r, nats in sorted(nat_by_rank.items()):
            for w in range(0, size):
                n = size - w
                if n > len(nats) or not self.ratio_ok(n, w) or not self.cap_ok(w):
                    continue
                for combo in combinations_with_replacement(wild_cls, w):
                    picked = self._pick(reps, combo)
                    if picked is not None:
                        out.append(tuple(sorted(nats[:n] + picked)))
        if self.wild_sets:
            for combo in combinations_with_replacement(wild_cls, size):
                picked = self._pick(reps, combo)
                if picked is not None:
                    out.append(tuple(sorted(picked)))
        return out

    @staticmethod
    def _pick(reps: Mapping[tuple[int, int], list[Card]], combo: tuple[tuple[int, int], ...]) -> list[Card] | None:
        """The lowest held cards of the classes in ``combo`` (repeats take further cards), or None."""
        picked: list[Card] = []
        for key in dict.fromkeys(combo):
            k = combo.count(key)
            if len(reps[key]) < k:
                return None
            picked += reps[key][:k]
        return picked

    def _can_add_to(self, st: State, seat: int, i: int) -> bool:
        """Whether ``seat`` may add to set ``i`` now (its own side's; while laying out, its own new sets)."""
        bs = self._bs(st)
        m = bs.melds[i]
        if m[0] != st.game.entity_of[seat]:
            return False
        if bs.pending >= 0 or bs.stage == "draw":
            return bs.opened >= 0 and i >= bs.opened
        return bool(bs.laid_out >> seat & 1)

    def _left_after(self, st: State, seat: int, k: int) -> int:
        """Cards the player would hold, hand and reserve, after giving up ``k`` from the hand."""
        return st.hands[seat].bit_count() - k + (0 if self._bs(st).footed >> seat & 1 else
                                                 self.reserve_of(st, seat).bit_count())

    def _barred_out(self, st: State, seat: int, k: int, discard: bool = False) -> bool:
        """Whether giving up ``k`` cards is barred by a binding no: the player may not use up every card,
        so a set or an addition must leave two cards (one to discard, one to keep), a discard one; or, with
        ``go_out.last_card: discard``, whether a set or an addition would leave no card to discard."""
        if not self._may_bar:
            return False
        if not discard and self.last_card == "discard" and self._left_after(st, seat, k) < 1:
            return True
        bs = self._bs(st)
        if self.ask_required and self.partnered and bs.footed >> seat & 1 and bs.answer != "yes" and \
                st.hands[seat].bit_count() >= 2:
            return self._left_after(st, seat, k) < (1 if discard else 2)
        return self.binding and bs.answer == "no" and self._left_after(st, seat, k) < (1 if discard else 2)

    def _why_barred(self, st: State, seat: int, k: int) -> tuple[str, Source]:
        """Why a set or an addition of ``k`` cards is barred (:meth:`_barred_out`)."""
        if self.last_card == "discard" and self._left_after(st, seat, k) < 1:
            return "the last card must be discarded: a set or an addition keeps one card", self.last_card_source
        return self._why_kept(st)

    def _why_kept(self, st: State) -> tuple[str, Source]:
        """Why the player must keep a card: the partner said no, or (``ask.required``) was not asked."""
        if self.ask_required and self._bs(st).answer != "no":
            return "the player asks the partner before going out, and keeps a card until the answer is yes", \
                self.required_source
        return "the partner said no: the player keeps a card and does not go out", self.ask_source

    @staticmethod
    def partner(st: State, seat: int) -> int:
        """The partner of ``seat`` (partners sit opposite: the other member of its team)."""
        return next(s for s in st.game.teams[st.game.entity_of[seat]] if s != seat)

    def can_meld(self, st: State, seat: int) -> bool:
        """Whether ``seat`` may start a set now."""
        bs = self._bs(st)
        laid = bool(bs.laid_out >> seat & 1)
        if bs.pending >= 0:
            return True
        if bs.stage == "draw":
            return (not laid and self.timing in ("before_draw", "any_time") and not bs.retracted) or bs.opened >= 0
        if bs.stage != "play":
            return False
        return laid or (self.timing == "any_time" and not bs.retracted)

    def could_be_done(self, st: State, seat: int) -> bool:
        """Whether ``seat`` may ask its partner now (after drawing, once a turn, checked by the callers): with
        ``ask.when: any_turn`` whenever holding two cards or more; with ``could_go_out`` only in the foot, with
        the books, holding two cards or more (one to use and one to keep, so the answer can matter). Never with
        one card: a binding no would then leave no legal move (the last card can be neither kept nor given up)."""
        if st.hands[seat].bit_count() < 2:
            return False
        return self.ask_any_turn or (bool(self._bs(st).footed >> seat & 1) and self.has_books(st, seat))

    def take_allowed(self, st: State, seat: int) -> bool:
        """Whether ``seat`` may take the discard pile now."""
        disc = st.piles[self.discard]
        if self.take_pile == "never" or not disc or self._bs(st).pending >= 0:
            return False
        top = disc[-1]
        r = self.meld_rank[top]
        if self.frozen(st):
            return r >= 0 and (st.hands[seat] & self._rank_masks[r]).bit_count() >= 2
        if self.take_pile == "any":
            return True
        if r < 0:
            return False
        if (st.hands[seat] & self._rank_masks[r]).bit_count() >= 2:
            return True
        bs = self._bs(st)
        return bool(bs.laid_out >> seat & 1) and any(
            m[0] == st.game.entity_of[seat] and self.fits(m, top) for m in bs.melds)

    def frozen(self, st: State) -> bool:
        """With ``freeze: wild``, whether the discard pile holds a wild card (is frozen)."""
        return self.freeze == "wild" and any(self.meld_rank[c] == WILD for c in st.piles[self.discard])

    def legal(self, st: State) -> list[Action]:
        """The legal actions, sorted (``State.legal_actions()`` keeps them: :attr:`keeps_list`)."""
        bs: BookState = st.cstate[self.index]  # type: ignore[assignment]
        stage = bs.stage
        if stage == "answer":
            return sorted(self._answers)
        seat = st.cur
        hand = st.hands[seat]
        may_bar = self._may_bar
        out: list[Action] = []
        pending = bs.pending
        if pending >= 0:
            out.append(self._retract)
        elif stage == "draw":
            if st.piles[self.stock]:
                out.append(self._draw)
            if (st.piles[self.discard] if self._take_any else self.take_allowed(st, seat)):
                out.append(self._take)
        else:
            if not (may_bar and self._barred_out(st, seat, 1, True)):  # one discard per face held
                m = hand if self._by_face else st.game.deck.canonical(hand)
                rows = self._discard_rows
                for j, v in enumerate(m.to_bytes(len(rows), "little")):  # no zip: indexing is cheaper compiled
                    if v:
                        out += rows[j][v]
            if self.ask_on and self.partnered and not bs.asked and self.could_be_done(st, seat):
                out.append(self._ask)
        laid = bs.laid_out >> seat & 1
        melds = bs.melds
        # can_meld, inlined (lay_out.timing is before_draw or any_time)
        can = pending >= 0 or ((not laid and not bs.retracted) or bs.opened >= 0 if stage == "draw" else
                               laid or (self.timing == "any_time" and not bs.retracted))
        if can and not (may_bar and self._barred_out(st, seat, self.min_size)):
            taken: set[int] | None = None
            if self.one_per_rank:
                side = st.game.entity_of[seat]
                taken = {m[2] for m in melds if m[0] == side}
            self._meld_acts(out, hand, taken)
        if melds and not (may_bar and self._barred_out(st, seat, 1)):
            # _can_add_to, inlined: own side's sets; while laying out, new ones
            n = len(melds)
            first = (bs.opened if bs.opened >= 0 else n) if pending >= 0 or stage == "draw" else 0 if laid else n
            if first < n:
                self._add_acts(out, hand, st.game.entity_of[seat], melds, first)
        out.sort()
        return out

    def _meld_acts(self, out: list[Action], hand: int, taken: set[int] | None) -> None:
        """Append one ``meld`` per class of equivalent new sets ``hand`` can start (as :meth:`_new_sets` lists
        them, in another order), but those of a rank in ``taken``. A set of a rank takes the lowest natural
        cards held (:meth:`_rank_sets`, remembered by the rank's cards held) and, if any, the lowest held wild
        cards of a combination of wild classes; the action naming a set of cards is remembered by those cards
        (:meth:`_meld_of`)."""
        wm = hand & self._wild_mask
        sets_memo = self._sets_memo
        cards_memo = self._cards_memo
        min_nat = self._min_nat
        picks: list[list[int]] | None = None
        for x in [y for rm in self._rank_cards if (y := hand & rm).bit_count() >= min_nat]:
            if taken and self.meld_rank[(x & -x).bit_length() - 1] in taken:
                continue
            e = sets_memo.get(x)
            if e is None:
                e = self._rank_sets(self.meld_rank[(x & -x).bit_length() - 1], x)
                if len(sets_memo) >= SETS_MEMO:
                    sets_memo.clear()
                sets_memo[x] = e
            out += e[0]
            if e[1] and wm:
                if picks is None:
                    picks = self._pick_masks(wm)
                for w, nat in e[1]:
                    for pm in picks[w]:
                        key = nat | pm
                        a = cards_memo.get(key)
                        if a is None:
                            a = self._meld_of(key)
                            if len(cards_memo) >= SETS_MEMO:
                                cards_memo.clear()
                            cards_memo[key] = a
                        out.append(a)
        if self.wild_sets and wm and not (taken and WILD in taken):
            base, shifts = self._meld_base, self._shifts
            out += [base + sum(map(lshift, sorted(picked), shifts))
                    for picked in self._wild_picks(self._wild_lists(wm, self.min_size), self.min_size)]

    def _rank_sets(self, r: int, x: int) -> RankSets:
        """The new sets of rank ``r`` from its cards ``x`` held, one per way a set may be made (:attr:`_plans`)
        with as many natural cards as held: the ``meld`` actions of those without a wild card, and for the
        others how many wild cards they take and the natural cards they hold (the lowest held, class by
        class; a mask)."""
        size = self.min_size
        count = x.bit_count()
        nats: list[int] = []
        for cm in self._rank_cls_masks[r]:
            y = x & cm
            while y and len(nats) < size:
                low = y & -y
                nats.append(low.bit_length())
                y ^= low
        base, shifts = self._meld_base, self._shifts
        plain = tuple(base + sum(map(lshift, sorted(nats[:n]), shifts)) for w, n in self._plans
                      if not w and n <= count)
        wild = tuple((w, sum(1 << (c - 1) for c in nats[:n])) for w, n in self._plans if w and n <= count)
        return plain, wild

    def _pick_masks(self, wm: int) -> list[list[int]]:
        """For each number ``w`` of wild cards (up to those a set of a rank takes), the wild cards among ``wm``
        a set may take (:meth:`_wild_picks`; masks)."""
        if self._plan_wilds == 1:  # the lowest held card of each wild class
            return [[], [y & -y for cm in self._wild_cls_masks if (y := wm & cm)]]
        wilds = self._wild_lists(wm, self._plan_wilds)
        return [[sum(1 << (c - 1) for c in picked) for picked in self._wild_picks(wilds, w)] if w else []
                for w in range(self._plan_wilds + 1)]

    def _meld_of(self, cards: int) -> Action:
        """The ``meld`` action naming the cards ``cards`` (a mask of ``min_size`` cards)."""
        ids: list[int] = []
        while cards:
            low = cards & -cards
            ids.append(low.bit_length())
            cards ^= low
        act: Action = self._meld_base + sum(map(lshift, ids, self._shifts))
        return act

    def _wild_lists(self, wm: int, size: int) -> list[list[int]]:
        """Each wild class held among the cards ``wm``, in class order: its lowest ``size`` cards (id + 1),
        or all of them if fewer."""
        out: list[list[int]] = []
        for cm in self._wild_cls_masks:
            y = wm & cm
            if y:
                ids: list[int] = []
                while y and len(ids) < size:
                    low = y & -y
                    ids.append(low.bit_length())
                    y ^= low
                out.append(ids)
        return out

    @staticmethod
    def _wild_picks(wilds: list[list[int]], w: int) -> list[list[int]]:
        """The lowest held wild cards of each combination of ``w`` wild classes (:meth:`_pick`, over the classes
        held: ``wilds``, each class's lowest cards)."""
        if w == 0:
            return [[]]
        if w == 1:
            return [ids[:1] for ids in wilds]
        out: list[list[int]] = []
        for combo in combinations_with_replacement(range(len(wilds)), w):
            picked: list[int] = []
            for j in dict.fromkeys(combo):
                k = combo.count(j)
                if len(wilds[j]) < k:
                    break
                picked += wilds[j][:k]
            else:
                out.append(picked)
        return out

    def _add_acts(self, out: list[Action], hand: int, side: int, melds: tuple[Meld, ...], first: int) -> None:
        """Append the ``add`` actions to the side's sets from number ``first`` (counted from 0) on: one per
        class held in ``hand`` that fits each."""
        info = self._melds_info(melds)
        wild_ids: list[int] | None = None  # the lowest card (id + 1) of each wild class held
        append = out.append
        if len(melds) <= len(self._add_bases):  # every set within the numbers an ``add`` carries
            for s, nat_cms, wild_ok, base in info[first:]:
                if s != side:
                    continue
                for cm in nat_cms:
                    x = hand & cm
                    if x:
                        append(base + (x & -x).bit_length())
                if wild_ok:
                    if wild_ids is None:
                        wild_ids = [(x & -x).bit_length() for cm in self._wild_cls_masks if (x := hand & cm)]
                    for c1 in wild_ids:
                        append(base + c1)
            return
        for i in range(first, len(melds)):
            s, nat_cms, wild_ok, base = info[i]
            if s != side:
                continue
            for cm in nat_cms:
                x = hand & cm
                if x:
                    if base < 0:  # beyond the numbers an ``add`` carries: refused as the codec refuses it
                        self.codec.encode("add", number=i + 1, cards=((x & -x).bit_length() - 1,))
                    append(base + (x & -x).bit_length())
            if wild_ok:
                if wild_ids is None:
                    wild_ids = [(x & -x).bit_length() for cm in self._wild_cls_masks if (x := hand & cm)]
                if wild_ids and base < 0:
                    self.codec.encode("add", number=i + 1, cards=(wild_ids[0] - 1,))
                for c1 in wild_ids:
                    append(base + c1)

    def _melds_info(self, melds: tuple[Meld, ...]) -> tuple[SetInfo, ...]:
        """For each set: its side, the classes (their cards) of the natural cards that fit it (:meth:`fits`),
        whether a wild card fits it, and the ``add`` action to it without a card (-1 beyond the numbers an
        ``add`` carries). Remembered for the last ``melds`` asked about, and for each set there that is
        still the same."""
        before, known = self._info_memo
        if before is melds:
            return known
        n = len(before)
        if len(melds) > n and melds[:n] == before:  # sets laid since: the others are as before
            out = list(known)
        else:
            out, n = [], 0
        for i in range(n, len(melds)):
            m = melds[i]
            if i < len(before) and before[i] is m:  # the same set at the same place as before (sets are immutable)
                out.append(known[i])
            else:
                out.append(self._set_info(m, i))
        info = tuple(out)
        self._info_memo = (melds, info)
        return info

    def _set_info(self, m: Meld, i: int) -> SetInfo:
        """What :meth:`_melds_info` tells of set ``m``, number ``i`` + 1."""
        cards = m[3]
        book = len(cards) >= self.book_size
        open_ = not (self.full_closed and book)
        base = self._add_bases[i] if i < len(self._add_bases) else -1
        if m[2] == WILD:
            return (m[0], (), open_, base)
        w = sum(map(self._is_wild.__getitem__, cards))
        wild_ok = open_ and not (self.clean_closed and w == 0 and book) and \
            self.ratio_ok(len(cards) - w, w + 1) and self.cap_ok(w + 1)
        return (m[0], self._rank_cls_masks.get(m[2], ()) if open_ else (), wild_ok, base)

    def is_legal(self, st: State, a: Action) -> bool:
        return self._refusal(st, a) is None

    def _decode(self, a: Action, listed: bool = False) -> Decoded | None:
        """``a`` taken apart, or None if it is no well-formed action of this game (remembered). ``listed``: ``a``
        is known to be well-formed (a legal list named it), so the codec's check is skipped."""
        if type(a) is not int:
            return None
        memo = self._decoded
        d = memo.get(a)
        if d is not None or a in memo:
            return d
        codec = self.codec
        if listed or codec.valid(a):  # the codec's own check; each action is taken apart once, then remembered
            k = codec.kind(a)
            cards = codec.cards(a)
            if listed:  # a legal action: distinct cards; a meld's rank is that of its natural cards (new_set_rank)
                rank = next((r for c in cards if (r := self.meld_rank[c]) != WILD), WILD) if k == "meld" else None
                d = (k, cards, Deck.mask(cards), True, codec.number(a), rank)
            else:
                d = (k, cards, Deck.mask(cards), len(set(cards)) == len(cards), codec.number(a),
                     self.new_set_rank(cards) if k == "meld" else None)
        if len(memo) < DECODE_MEMO:
            memo[a] = d
        return d

    def _refusal(self, st: State, a: Action) -> tuple[str, Source | None] | None:
        """None if ``a`` is legal now, else why not and the clause."""
        d = self._decode(a)
        if d is None:
            return "not an action of this game", self.source
        return self._refuse(st, a, d)

    def _refuse(self, st: State, a: Action, d: Decoded) -> tuple[str, Source | None] | None:
        """:meth:`_refusal` of the well-formed action ``a``, taken apart as ``d``."""
        bs: BookState = st.cstate[self.index]  # type: ignore[assignment]
        seat = st.cur
        k, cards, cmask, distinct, number, srank = d
        if bs.stage == "answer":
            return None if a in self._answers else ("the partner answers the question yes or no", self.ask_source)
        if k == "answer":
            return "no question has been asked", self.ask_source
        if st.hands[seat] & cmask != cmask or not distinct:  # no clause: only cards held are used
            return "the player does not hold that card", None
        if k == "retract":
            return None if bs.pending >= 0 else ("only a lay-out short of the minimum is taken back",
                                                 self.short_source)
        if bs.pending >= 0 and k not in ("meld", "add"):
            return (f"the lay-out must reach {self.minimum_now(st)} points (or be taken back) first",
                    self.lay_out_source)
        if k in ("draw_stock", "take"):
            if bs.stage != "draw":
                return "the player has already drawn this turn", self.source
            if k == "draw_stock":
                return None if st.piles[self.stock] else ("the pickup pile is empty", self.source)
            if self.take_allowed(st, seat):
                return None
            if not st.piles[self.discard] and self.take_pile != "never":
                return "the discard pile is empty", self.source
            if self.frozen(st):
                return ("the discard pile is frozen: it is taken only with two natural cards of its top card's rank",
                        self.freeze_source)
            return "the discard pile cannot be taken now", self.take_source
        if k == "discard":
            if bs.stage != "play":
                return "a player draws before discarding", self.source
            if self._may_bar and self._barred_out(st, seat, 1, True):
                return self._why_kept(st)
            return None
        if k == "ask":
            if not (self.ask_on and self.partnered and bs.stage == "play"):
                return "the question is asked of a partner, after drawing", self.ask_source
            if bs.asked:
                return "the question is asked once a turn", self.ask_source
            if not self.could_be_done(st, seat):
                return "only a player who could go out asks whether to be done", self.ask_source
            return None
        if k == "meld":
            if not self.can_meld(st, seat):
                if bs.stage == "draw" and bs.laid_out >> seat & 1:
                    return "a player who has laid out melds after drawing", self.lay_out_source
                return "the player may not lay down a new set now", self.lay_out_source
            if srank is None:
                if any(self.meld_rank[c] == UNMELDABLE for c in cards):
                    return "threes (the unmeldable ranks) are never melded", self.unmeldable_source
                why = self._why_wilds(cards)
                if why is not None:
                    return why
                return (f"a new set is {self.min_size} cards of one rank (no threes), at most one wild card for "
                        f"every {self.ratio[1]} natural cards", self.sets_source)
            side = st.game.entity_of[seat]
            if self.one_per_rank and any(m[0] == side and m[2] == srank for m in bs.melds):
                return "a side holds one set of each rank: add to it instead", self.per_rank_source
            if self._may_bar and self._barred_out(st, seat, len(cards)):
                return self._why_barred(st, seat, len(cards))
            return None
        if k == "add":
            i = (number or 0) - 1
            if not 0 <= i < len(bs.melds):
                return f"there is no set {i + 1} on the table", None  # no clause: only a set laid is added to
            if not self._can_add_to(st, seat, i):
                return ("a player adds to the sets of their own side once laid out; while laying out, only to the "
                        "sets of this lay-out", self.own_sets_source)
            m = bs.melds[i]
            _, nat_cms, wild_ok, _ = self._melds_info(bs.melds)[i]  # what fits the set (fits, remembered)
            r = self.meld_rank[cards[0]]
            if not (wild_ok if r == WILD else r == m[2] and nat_cms):
                if self.full_closed and self.is_book(m):
                    return "a book is closed: no card joins it", self.full_source
                if self.meld_rank[cards[0]] == WILD and self.clean_closed and self.is_book(m) and \
                        not self.wilds_in(m[3]):
                    return "a clean book is closed to wild cards", self.closed_source
                if self.meld_rank[cards[0]] == WILD and m[2] != WILD and not self.cap_ok(self.wilds_in(m[3]) + 1):
                    return f"a set holds at most {self.max_wilds} wild cards", self.max_wilds_source
                return "that card does not fit the set (its rank, or one wild card for every two natural cards)", \
                    self.ratio_source
            if self._may_bar and self._barred_out(st, seat, 1):
                return self._why_barred(st, seat, 1)
            return None
        return f"not allowed in the '{self.id}' phase now", self.source

    def representative(self, st: State, a: Action) -> Action:
        """``a`` with its cards replaced by the lowest held cards of the same classes (rank and value):
        the action the legal list names for it (discards: the first held copy of the face)."""
        codec = self.codec
        k = codec.kind(a)
        if st.cur < 0 or k not in ("meld", "add"):
            return super().representative(st, a)
        reps = self._reps(st.hands[st.cur])
        cards = codec.cards(a)
        if any(self.cls[c] not in reps for c in cards):
            return a
        picked = self._pick(reps, tuple(self.cls[c] for c in cards))
        if picked is None:
            return a
        return codec.encode(k, codec.number(a), cards=sorted(picked))

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source | None]:
        return self._refusal(st, a) or (f"not allowed in the '{self.id}' phase now", self.source)

    # --- flow -------------------------------------------------------------------------
    def _end(self, st: State, how: str) -> None:
        self._bs(st).ended_by = how
        st.cur = -1
        st.next_phase()

    def _begin_turn(self, st: State, seat: int) -> None:
        bs: BookState = st.cstate[self.index]  # type: ignore[assignment]
        st.cur = seat
        bs.turns += 1
        bs.stage = "draw"
        bs.pending = bs.opened = -1
        bs.retracted = bs.asked = False
        bs.answer = ""
        stock = st.piles[self.stock]
        if not stock or (self.short_ends and len(stock) < self.draw):
            disc = st.piles[self.discard]
            if self.exhausted == "reshuffle" and len(disc) > 1 and bs.reshuffled != self.reshuffles:
                bs.reshuffled += 1
                st.piles[self.stock] = st.shuffled(stock + disc[:-1])
                st.piles[self.discard] = disc[-1:]
            else:
                self._end(st, "exhausted")

    def start(self, st: State) -> None:
        st.piles[self.discard] = []
        st.piles[self.meld_zone] = []
        self._begin_turn(st, st.next_seat(st.dealer))

    def _lay_aside(self, st: State, seat: int) -> None:
        """``set_aside``: every such card in the seat's hand is laid face up in its ``set_aside.zone`` and
        replaced by a card from the stock (again if that is one too; none once the stock is empty). A hand
        left empty so is a hand used up (:meth:`_after_giving`): the foot is taken up, or, in the foot, the
        player goes out with the books or play passes on (and ends at once, the pickup pile being empty)."""
        if not self.asides:
            return
        stock = st.piles[self.stock]
        aside = st.seat_piles[self.aside_zone]
        while found := st.hands[seat] & self.asides:
            st.hands[seat] = st.hands[seat] & ~found
            aside[seat] = aside[seat] | found
            for _ in range(found.bit_count()):
                if stock:
                    st.hands[seat] = st.hands[seat] | (1 << stock.pop())

    def _next(self, st: State, seat: int) -> None:
        self._begin_turn(st, st.next_seat(seat))

    def _after_giving(self, st: State, seat: int, discarded: bool) -> None:
        """After cards left the hand: take up the reserve, go out, or end a turn with no cards."""
        bs = self._bs(st)
        if st.hands[seat]:
            if discarded:
                self._next(st, seat)
            return
        if bs.pending >= 0:  # a lay-out short of the minimum used the whole hand: it can only be taken back
            return
        if not bs.footed >> seat & 1:
            self._take_reserve(st, seat)
            if discarded or self.pickup == "next_turn" or not st.hands[seat]:
                self._next(st, seat)
            return
        if self.has_books(st, seat):
            bs.out_seat = seat
            self._end(st, "went_out")
            return
        self._next(st, seat)  # every card used, without the books: play goes on

    def _take_reserve(self, st: State, seat: int) -> None:
        """The used-up hand is replaced by the reserve (the foot)."""
        self._bs(st).footed |= 1 << seat
        st.hands[seat] = self.reserve_of(st, seat)
        for z in self.reserves:
            st.seat_piles[z][seat] = 0
        self._lay_aside(st, seat)

    def reserve_of(self, st: State, seat: int) -> int:
        """The cards of a seat's reserve, in whichever of its zones it lies."""
        mask = 0
        for z in self.reserves:
            mask |= st.seat_piles[z][seat]
        return mask

    def _laid(self, st: State, seat: int, cards: tuple[Card, ...]) -> None:
        """Bookkeeping after a set was started or grown: the lay-out reaching its minimum."""
        bs: BookState = st.cstate[self.index]  # type: ignore[assignment]
        st.piles[self.meld_zone].extend(cards)
        if bs.pending >= 0:
            pts = sum(self.set_points(m) for m in bs.melds[bs.pending:])
            if pts >= self.minimum_now(st):
                bs.pending = -1
                bs.laid_out |= 1 << seat

    def try_apply(self, st: State, a: Action) -> bool:
        d = self._decoded.get(a) if type(a) is int else None  # _decode, inlined when remembered
        if d is None:
            d = self._decode(a)
        if d is None or self._refuse(st, a, d) is not None:
            return False
        self._do(st, a, d)
        return True

    def apply_listed(self, st: State, a: Action) -> None:
        d = self._decoded.get(a)  # legal: listed for this very position
        if d is None:
            d = self._decode(a, True)
            assert d is not None  # a listed action is well-formed
        self._do(st, a, d)

    def _do(self, st: State, a: Action, d: Decoded) -> None:
        """Carry out the legal action ``a``, taken apart as ``d``."""
        bs: BookState = st.cstate[self.index]  # type: ignore[assignment]
        seat = st.cur
        k, cards, cmask, _, number, rank = d
        if k == "draw_stock":
            stock = st.piles[self.stock]
            got = stock[-self.draw:]
            del stock[-self.draw:]
            st.hands[seat] = st.hands[seat] | st.game.deck.mask(got)
            self._lay_aside(st, seat)
            bs.stage = "play"
            if not st.hands[seat]:  # every card laid aside, the pickup pile too short to replace them
                self._after_giving(st, seat, False)
        elif k == "take":
            disc = st.piles[self.discard]
            st.hands[seat] = st.hands[seat] | st.game.deck.mask(disc)
            st.piles[self.discard] = []
            self._lay_aside(st, seat)
            bs.stage = "play"
            if not st.hands[seat]:
                self._after_giving(st, seat, False)
        elif k == "discard":
            c = cards[0]
            st.hands[seat] = st.hands[seat] & ~(1 << c)
            st.piles[self.discard].append(c)
            if st.hands[seat]:  # _after_giving, the common case: the turn passes on
                self._begin_turn(st, st.next_seat(seat))
            else:
                self._after_giving(st, seat, True)
        elif k == "meld":
            assert rank is not None
            if not bs.laid_out >> seat & 1 and bs.pending < 0:
                bs.pending = len(bs.melds)
            if bs.opened < 0 and (bs.pending >= 0 or bs.stage == "draw"):
                bs.opened = len(bs.melds)
            bs.melds = (*bs.melds, (st.game.entity_of[seat], seat, rank, cards))
            st.hands[seat] = st.hands[seat] & ~cmask
            self._laid(st, seat, cards)
            if not st.hands[seat]:
                self._after_giving(st, seat, False)
        elif k == "add":
            i = (number or 0) - 1
            c = cards[0]
            old = bs.melds
            m = old[i]
            grown = (m[0], m[1], m[2], (*m[3], c))
            bs.melds = (*old[:i], grown, *old[i + 1:])
            before, known = self._info_memo
            if before is old:  # _melds_info of the sets now, as it would work it out: one set is new
                self._info_memo = (bs.melds, (*known[:i], self._set_info(grown, i), *known[i + 1:]))
            st.hands[seat] = st.hands[seat] & ~(1 << c)
            self._laid(st, seat, cards)
            if not st.hands[seat]:
                self._after_giving(st, seat, False)
        elif k == "retract":
            back = bs.melds[bs.pending:]
            bs.melds = bs.melds[:bs.pending]
            gone = {c for m in back for c in m[3]}
            st.piles[self.meld_zone] = [c for c in st.piles[self.meld_zone] if c not in gone]
            st.hands[seat] = st.hands[seat] | st.game.deck.mask(gone)
            bs.pending = -1
            bs.opened = -1
            bs.retracted = True
            if self.short == "lose_turn":  # the failed lay-out costs the rest of the turn
                self._next(st, seat)
        elif k == "ask":
            bs.asked = True
            bs.stage = "answer"
            st.cur = self.partner(st, seat)
        elif k == "answer":
            bs.answer = self._answers[a]
            bs.stage = "play"
            st.cur = self.partner(st, st.cur)

    # --- the rule bot's play --------------------------------------------------------------
    def bot_choice(self, st: State, legal: list[Action]) -> Action:
        """A rule follower: lays out as soon as the hand reaches the minimum, builds sets into books with
        natural cards (wild cards toward the dirty books the side lacks), goes out when it may (by using up
        its cards), and discards threes first, then the loneliest, cheapest natural card."""
        bs = self._bs(st)
        codec = self.codec
        seat = st.cur
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(codec.kind(a), []).append(a)
        if "answer" in by_kind:
            return codec.encode("answer", choice="yes")
        if "ask" in by_kind and self.ask_required:  # the question comes before going out
            return by_kind["ask"][0]
        melds = [a for a in by_kind.get("meld", ()) if not self.wilds_in(codec.cards(a))]
        melds = melds or by_kind.get("meld", [])
        adds = by_kind.get("add", [])
        nat_adds = [a for a in adds if self.meld_rank[codec.cards(a)[0]] != WILD]
        side = st.game.entity_of[seat]
        _, dirty, _ = self.books_of(bs.melds, side)
        wild_adds = [a for a in adds if self.meld_rank[codec.cards(a)[0]] == WILD and
                     (dirty < self.need_dirty or bs.pending >= 0) and
                     len(bs.melds[(codec.number(a) or 1) - 1][3]) >= (0 if bs.pending >= 0 else 4)]
        if bs.pending >= 0:
            started = {m[2] for m in bs.melds[bs.pending:]}
            fresh = [a for a in melds if self.meld_rank[codec.cards(a)[0]] not in started]
            for group in (nat_adds, fresh, wild_adds, melds, by_kind.get("meld", []), adds):
                if group:
                    return max(group, key=lambda a: sum(self.value[c] for c in codec.cards(a)))
            return legal[0]  # only taking the lay-out back is left
        laid = bool(bs.laid_out >> seat & 1)
        if not laid and melds and self._reachable(st, seat) >= self.minimum_now(st):
            return max(melds, key=lambda a: sum(self.value[c] for c in codec.cards(a)))
        if laid and (melds or nat_adds or wild_adds):
            open_ranks = {m[2] for m in bs.melds
                          if m[0] == side and not (self.clean_closed and self.book_kind(m) == "clean")}
            fresh = [a for a in melds if self.meld_rank[codec.cards(a)[0]] not in open_ranks]
            if nat_adds:  # grow the biggest set first, toward a book
                return max(nat_adds, key=lambda a: (len(bs.melds[(codec.number(a) or 1) - 1][3]), -a))
            if fresh or wild_adds:
                return (fresh or wild_adds)[0]
        if "take" in by_kind:
            top = st.piles[self.discard][-1]
            r = self.meld_rank[top]
            held = sum(1 for c in st.game.deck.cards_of(st.hands[seat]) if self.meld_rank[c] == r)
            if r >= 0 and (held >= 2 or (laid and any(m[0] == side and self.fits(m, top) for m in bs.melds))):
                return by_kind["take"][0]
        if "draw_stock" in by_kind:
            return by_kind["draw_stock"][0]
        if "discard" in by_kind:
            hand = st.hands[seat]
            count: dict[int, int] = {}
            for c in st.game.deck.cards_of(hand):
                count[self.meld_rank[c]] = count.get(self.meld_rank[c], 0) + 1

            def keep(a: Action) -> tuple[int, int, int]:
                c = codec.cards(a)[0]
                r = self.meld_rank[c]
                if r == UNMELDABLE:
                    return (0, -self.penalty[c], c)
                if r == WILD:
                    return (3, self.value[c], c)
                return (1 if count[r] < 2 else 2, count[r] * 100 + self.value[c], c)
            return min(by_kind["discard"], key=keep)
        return legal[0]

    def _reachable(self, st: State, seat: int) -> int:
        """Points the hand could lay out now: sets of its natural cards (a wild for each pair short of three)."""
        hand = st.hands[seat]
        nat: dict[int, list[int]] = {}
        wilds = sorted((self.value[c] for c in st.game.deck.cards_of(hand) if self.meld_rank[c] == WILD),
                       reverse=True)
        for c in st.game.deck.cards_of(hand):
            if self.meld_rank[c] >= 0:
                nat.setdefault(self.meld_rank[c], []).append(self.value[c])
        pts = 0
        for vals in nat.values():
            if len(vals) >= self.min_size:
                pts += sum(vals)
            elif len(vals) == self.min_size - 1 and wilds and self.ratio_ok(len(vals), 1):
                pts += sum(vals) + wilds.pop(0)
        return pts

    # --- views and facts ------------------------------------------------------------
    def public_view(self, st: State) -> dict[str, Any]:
        bs = self._bs(st)
        names = st.game.deck.names
        pending = {"laying_out": {"seat": st.cur, "points": sum(self.set_points(m) for m in bs.melds[bs.pending:])}} \
            if bs.pending >= 0 else {}  # a lay-out short of the minimum, on the table: its points so far
        return {"lay_out_minimum": self.minimum_now(st),
                "laid_out": [s for s in range(st.game.num_players) if bs.laid_out >> s & 1],
                "in_foot": [s for s in range(st.game.num_players) if bs.footed >> s & 1],
                "sets": [{"number": i + 1, "side": m[0], "by": m[1], "cards": [names[c] for c in m[3]],
                          "book": self.book_kind(m) or None, "points": self.set_points(m)}
                         for i, m in enumerate(bs.melds)],
                **pending, **({"answer": bs.answer} if bs.answer else {})}

    def fact_names(self) -> list[str]:
        return ["clean_books", "dirty_books", "wild_books", "melded", "melded_plain", "held", "went_out", "ended_by",
                "set_aside", "laid_out"]

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        bs = self._bs(st)
        sides = {st.game.entity_of[s] for s in seats}
        clean = dirty = wild = 0
        for side in sides:
            c, d, w = self.books_of(bs.melds, side)
            clean, dirty, wild = clean + c, dirty + d, wild + w
        deck = st.game.deck
        held = sum(self.penalty[c] for s in seats
                   for c in deck.cards_of(st.hands[s] | self.reserve_of(st, s)))
        mine = [m for m in bs.melds if m[0] in sides]
        into["clean_books"], into["dirty_books"], into["wild_books"] = clean, dirty, wild
        into["melded"] = sum(self.value[c] for m in mine for c in m[3])
        into["melded_plain"] = sum(self.value[c] for m in mine if self.book_kind(m) != "wild" for c in m[3])
        into["held"] = held
        into["went_out"] = bs.out_seat in seats
        into["ended_by"] = bs.ended_by or "exhausted"
        into["set_aside"] = sum(st.seat_piles[self.aside_zone][s].bit_count() for s in seats) \
            if self.aside_zone else 0
        into["laid_out"] = any(bs.laid_out >> s & 1 for s in seats)

    def result_source(self, field: str) -> Source | None:
        """``went_out`` and ``ended_by``: the going-out clause (a round ended by the empty pickup pile has its
        own: :meth:`result_value_source`); ``melds``: the sets clause."""
        return self.go_out_source if field in ("went_out", "ended_by") else \
            self.sets_source if field == "melds" else None

    def result_value_source(self, field: str, value: Any) -> Source | None:
        """``ended_by``: the clause by which a round ends so (``value``, as the replay gives it): going out, or the
        empty pickup pile."""
        if field == "ended_by" and value == "exhausted":
            return self.exhausted_source
        return self.result_source(field)

    def turn_source(self, st: State) -> Source | None:
        """Whose turn it is: a partner's answer, the asking clause; in the middle of a turn, the turn's own clause;
        the first turn of a round, ``first_player_source``; a later one, ``order_source`` (else the turn's own
        clause)."""
        bs = self._bs(st)
        if bs.stage == "answer":
            return self.ask_source
        if bs.stage != "draw":
            return self.source
        if bs.turns <= 0:
            return self.first_player_source or self.source
        return self.order_source or self.source

    def result_fields(self, st: State) -> dict[str, Any]:
        bs = self._bs(st)
        names = st.game.deck.names
        return {"ended_by": bs.ended_by, "went_out": bs.out_seat if bs.out_seat >= 0 else None,
                "melds": [[names[c] for c in m[3]] for m in bs.melds]}

    def max_books(self) -> int:
        """The most books one side can hold (every card in books)."""
        assert self.game is not None
        return self.game.deck.size // self.book_size

    def declarations(self) -> Declared:
        """Draws, taking the pile, sets and additions, taking back a lay-out, the reserve; no bound on turns."""
        assert self.game is not None
        n = self.game.deck.size
        hold = self.game.deck.size  # a hand never holds more than the deck
        # with set_aside, the cards drawn to replace those laid aside come with the draw (at most one a card)
        moves = [Transfer("draw from the pickup pile", self.stock, HAND, (1, self.draw + self.asides.bit_count()),
                          ("draw_stock",)),
                 Transfer("discard", HAND, self.discard, 1, ("discard",)),
                 Transfer("start a set", HAND, self.meld_zone, self.min_size, ("meld",)),
                 Transfer("add a card to a set", HAND, self.meld_zone, 1, ("add",)),
                 Transfer("take back a lay-out short of the minimum", self.meld_zone, HAND, (self.min_size, hold),
                          ("retract",)),
                 *(Transfer(f"take up the {z} when the hand is used up", z, HAND, (1, hold),
                            ("meld", "add", "discard", *(("draw_stock", "take") if self.asides else ())),
                            follow_on=True) for z in self.reserves)]
        if self.take_pile != "never":
            moves.append(Transfer("take the whole discard pile", self.discard, HAND, ALL, ("take",)))
        if self.asides:
            kinds = ("take", "meld", "add", "discard")  # taking the pile; taking up the reserve
            moves += [Transfer("draw a replacement for a card laid aside", self.stock, HAND, (1, hold), kinds,
                               follow_on=True),
                      Transfer("lay a card aside face up", HAND, self.aside_zone, (1, hold), ("draw_stock", *kinds),
                               follow_on=True)]
        if self.exhausted == "reshuffle":
            moves.append(Transfer("reshuffle the discards into the pickup pile", self.discard, self.stock,
                                  (1, n - 1), ("discard", "meld", "add"), chance=True, follow_on=True))
        pos = sum(v for c, v in enumerate(self.value) if v > 0 and self.meld_rank[c] != UNMELDABLE)
        facts = (Fact("clean_books", tuple(range(self.max_books() + 1))),
                 Fact("dirty_books", tuple(range(self.max_books() + 1))),
                 Fact("wild_books", tuple(range(self.max_books() + 1 if self.wild_sets else 1))),
                 Fact("melded", tuple(range(pos + 1))), Fact("melded_plain", tuple(range(pos + 1))),
                 Fact("held", tuple(range(sum(self.penalty) + 1))),
                 Fact("went_out", BOOL), Fact("ended_by", ("went_out", "exhausted")),
                 Fact("set_aside", tuple(range(self.asides.bit_count() + 1))), Fact("laid_out", BOOL))
        if self.exhausted == "reshuffle" and self.reshuffles < 0:
            why = "the discards are reshuffled into the pickup pile, so turns may go on without end"
        elif self.take_pile != "never":
            why = ("a player may take the discard pile on any turn, which never shortens the pickup pile, so turns "
                   "may go on without end (each turn that draws shortens it, and the round ends when it is empty)")
        else:
            why = ("every turn draws from the pickup pile and the round ends when it is empty, but no bound on the "
                   "sets laid in a turn is declared")
        return Declared(tuple(moves), None, why, facts)
