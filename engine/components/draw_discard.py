"""The ``draw_discard`` component: draw, discard and knock turns toward a hand value.

On a turn the player draws the top card of the stock or of the discard pile and
discards one card, or takes the top ``count`` discards (``take_several``), or knocks.
Taking several either exchanges the whole hand (``then: exchange_hand``, the
default: the old hand goes on the discard pile in a chosen order and the turn
ends; ``count`` must be the hand size) or adds the cards to the hand (``then:
discard``: ``count`` a number or ``all`` of the pile, then one card is discarded as
after a draw). After a
knock every other player still in has ``final_turns`` more turns. A hand worth
exactly ``instant_win.value`` ends the round at once (also right after the deal
when ``check_after_deal`` is on; and with ``check_mid_turn: on`` also in the middle of
a turn, as soon as the cards held after a draw, with the one still to be discarded, are
worth it: the player lays them down and the round ends without the discard). When the
stock is empty, ``stock_exhausted`` either reshuffles the discard pile under its top card (a seeded chance event)
or ends the round. The discard pile starts empty unless the deal lays it (The
Card Game turns the top card of the rest of the deck: an undealt pile of 1).
With ``reveal_at_end: {source}`` every player still in lays their cards face up
when the round ends (riding-the-bus: "then you all lay out your cards"): the
hand's result lists them (``hands_shown``, per seat; empty for a seat out), so
every player sees every hand and why the lowest took the strike.

With a ``melding`` clause (:mod:`cardspec.engine.components.melding`) a player
who has drawn may instead go out (``go out X``: every other card laid in melds,
``X`` discarded); the others then have ``go_out.final_turns`` more turns (in which
they may go out too when ``go_out.after_first`` is ``allowed``).

Two ``melding`` parameters only these turns read (:class:`TurnMeldRules`), both The
Card Game's house rules: ``jokers`` (``natural``, the default: a joker is in no meld;
``wild``: every joker is wild in every round beside the round's wild rank, and a
``JK`` entry in ``values`` is its points when left in hand; the deck's ``jokers``
puts them in the pack) and ``lay_down`` (``out_only``, the default: melds are laid
only by going out; ``early``: after drawing, a player may lay down one meld of
their own cards at a time, ``meld X Y Z``, and add a card to a meld they laid,
``lay off N X`` with N the meld's place in laying order, on that or a later turn,
always keeping a card to discard, and a second one unless that discard may go
out; a player left with one card goes out by discarding it, ``go out X``).

With ``buy: {limit, penalty}`` (``limit`` buys per player per round; 0: none) a
discard may be bought out of turn: the player about to draw has first refusal
(``draw discard``, or ``pass`` to let it go, while someone may still buy it); then
each other player in turn from their left, except the one who threw it, may
``buy`` it (the discard and ``penalty`` cards from the top of the stock) or
``pass``; the first buy ends the asking and the waiting player draws from the
stock. There is no buying once someone has gone out or knocked, or when the stock
holds fewer than ``penalty + 1`` cards.

Used by: riding-the-bus (and, with melding, the-card-game: ``jokers: wild``,
``lay_down: early`` and ``buy.limit: 1`` as house-rule readings).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from itertools import permutations, product
from typing import TYPE_CHECKING, Any, ClassVar, Final

from .. import melds
from ..actions import Action, KindSig
from ..cards import Card, CardMask, Deck
from ..errors import Source, SpecError
from ..tables import Value
from .base import Component
from .declared import ALL, BOOL, HAND, Declared, Fact, Transfer
from .melding import MeldRules, MeldState

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass(init=False)
class TurnState(MeldState):
    """The turns' own part of a position: the turn count, the stage of the turn, the card drawn from
    the discard pile, who knocked, the final turns left after a knock, how the round ended (and the
    melding fields of :class:`MeldState`)."""

    turns: int = -1
    stage: str = "draw"
    drawn: int = -1
    knocker: int = -1
    knock_left: int = 0
    ended_by: str = ""
    laid_by: tuple[int, ...] = ()
    """The seat that laid each meld of ``laid`` (same order)."""
    discarder: int = -1
    """The seat whose discard ended the last turn (-1: none yet, or the turn ended otherwise)."""
    bought: tuple[int, ...] = ()
    """``buy``: the seats that bought this round, once per buy."""
    buy_for: int = -1
    """``buy``: the player whose turn waits while the others are asked to buy (-1: no buying under way)."""

    def __init__(
            self, out_seat: int = -1, final_left: int = 0, laid: tuple[tuple[Card, ...], ...] = (),
            later_out: tuple[int, ...] = (), turns: int = -1, stage: str = "draw", drawn: int = -1, knocker: int = -1,
            knock_left: int = 0, ended_by: str = "", laid_by: tuple[int, ...] = (), discarder: int = -1,
            bought: tuple[int, ...] = (), buy_for: int = -1) -> None:
        self.out_seat = out_seat
        self.final_left = final_left
        self.laid = laid
        self.later_out = later_out
        self.turns = turns
        self.stage = stage
        self.drawn = drawn
        self.knocker = knocker
        self.knock_left = knock_left
        self.ended_by = ended_by
        self.laid_by = laid_by
        self.discarder = discarder
        self.bought = bought
        self.buy_for = buy_for

    def copy(self) -> TurnState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return TurnState(self.out_seat, self.final_left, self.laid, self.later_out, self.turns, self.stage,
                         self.drawn, self.knocker, self.knock_left, self.ended_by, self.laid_by, self.discarder,
                         self.bought, self.buy_for)


TURN_KEYS = ("jokers", "jokers_source", "lay_down", "lay_down_source")
"""The ``melding`` keys that only ``draw_discard`` turns read (:class:`TurnMeldRules`)."""


@dataclass
class TurnMeldRules(MeldRules):
    """A ``melding`` clause with the parameters only ``draw_discard`` turns read.

    ``jokers``: ``natural`` (the default: a joker, if the deck has any, is in no
    meld) or ``wild`` (every joker is wild in every round, beside the round's wild
    rank; a ``JK`` entry in ``values`` is what a joker left in hand counts; The
    Card Game's ``jokers`` house rule). ``lay_down``: ``out_only`` (the default:
    melds are laid only by going out) or ``early`` (after drawing, a player may lay
    down melds of their own and add cards to their own melds without going out,
    and goes out later with the last card as the discard; The Card Game's
    ``lay_down`` house rule).
    """

    jokers_wild: bool = False
    joker_value: int = 0
    lay_down: str = "out_only"
    lay_down_source: Source | None = None

    @staticmethod
    def build_turns(d: Mapping[str, Any], key: str, file: str) -> TurnMeldRules:
        """Compile the clause: :meth:`MeldRules.build` plus ``jokers``, a ``JK`` value and ``lay_down``."""
        own = {"jokers": ("natural", "wild"), "lay_down": ("out_only", "early")}
        for name, allowed in own.items():
            if d.get(name, allowed[0]) not in allowed:
                raise SpecError(f"{name} must be one of {list(allowed)}", file, key=f"{key}.{name}")
        values = dict(d["values"])
        joker_value = values.pop("JK", 0)
        if type(joker_value) is not int or joker_value < 0:
            raise SpecError("card values must be non-negative integers", file, key=f"{key}.values")
        base = MeldRules.build({**{k: v for k, v in d.items() if k not in TURN_KEYS}, "values": values}, key, file)
        m = TurnMeldRules(**{f.name: getattr(base, f.name) for f in fields(MeldRules)})
        m.jokers_wild = d.get("jokers", "natural") == "wild"
        m.joker_value = joker_value
        m.lay_down = d.get("lay_down", "out_only")
        m.lay_down_source = Source(**d["lay_down_source"]) if "lay_down_source" in d else m.go_out_source
        return m

    def bind(self, game: Game, key: str) -> None:
        """As :meth:`MeldRules.bind`; a joker then counts its ``JK`` value."""
        super().bind(game, key)
        rank_of = game.deck.rank_of
        self.value_of = tuple(self.joker_value if rank_of[c] < 0 else v for c, v in enumerate(self.value_of))

    def is_wild(self, c: Card, ridx: int) -> bool:
        """As :meth:`MeldRules.is_wild`; a joker is wild too with ``jokers: wild``."""
        return super().is_wild(c, ridx) or (self.jokers_wild and self.deck is not None and self.deck.rank_of[c] < 0)

    def _cards(self, hand: CardMask, ridx: int) -> tuple[tuple[Card, ...], tuple[int, ...], tuple[int, ...],
                                                         tuple[bool, ...]]:
        cards, ranks, suits, wild = super()._cards(hand, ridx)
        if self.jokers_wild:
            wild = tuple(w or r < 0 for r, w in zip(ranks, wild, strict=True))
        return cards, ranks, suits, wild

    def meld_choices(self, hand: CardMask, ridx: int) -> tuple[tuple[Card, ...], ...]:
        """Every single meld that can be laid from ``hand`` (``lay_down: early``), sorted.

        Copies of one face are interchangeable, so each meld names the first
        copies held (as a legal-action list does); wild cards of different faces
        give different melds.
        """
        def compute() -> tuple[tuple[Card, ...], ...]:
            cards, ranks, suits, wild = self._cards(hand, ridx)
            classes = melds._classes(ranks, suits, wild, tuple(self.value_of[c] for c in cards))
            r = self.rule
            rule = (-1, 1, (), *self.lines, r["distinct_suits"])
            cands = melds._hand_cands(ranks, suits, wild, classes, self.kinds, self.min_size, self.min_natural,
                                      rule, r["wild_sets"])
            faces: dict[tuple[int, int], list[int]] = {}
            for i, w in enumerate(wild):
                if w:
                    faces.setdefault((ranks[i], suits[i]), []).append(i)
            wilds = list(faces.values())
            out: set[tuple[Card, ...]] = set()
            for packed, ks in cands.items():
                nat = [i for j, c in enumerate(classes) for i in c[:packed >> melds._F * j & 31]]
                for k in ks:
                    if k == 0 and not nat:
                        continue
                    for split in product(*(range(len(f) + 1) for f in wilds)):
                        if sum(split) == k:
                            picked = nat + [i for f, n in zip(wilds, split, strict=True) for i in f[:n]]
                            out.add(tuple(sorted(cards[i] for i in picked)))
            return tuple(sorted(out))
        return tuple(self._memoised("choices", hand, ridx, compute))

    def max_deadwood(self, game: Game, extra: int = 0) -> int:
        """The largest deadwood a hand of any round can have: its size (plus ``extra`` cards bought) in the
        deck's dearest cards."""
        top = sorted(self.value_of, reverse=True)
        return max(sum(top[:d.hand_size + extra]) for d in game.round_deals)


MAX_LAID: Final = 255
"""``lay_down: early``: the melds of one round a ``lay off N X`` action can name (N from 1)."""

TAKES_MEMO_LIMIT: Final = 1 << 15
"""``take_then: exchange_hand``: the hands whose exchange lists are remembered (every 3-card hand of a
52-card deck fits, 22,100, so a long run stops rebuilding them)."""


def _turn_goes_on(st: State) -> None:
    """No instant win in the middle of a turn: the player still discards (nothing to do)."""


class DrawDiscard(Component):
    """Draw-and-discard turns with knocking."""

    kind: ClassVar[str] = "draw_discard"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.stock: str = d["stock"]
        self.discard: str = d["discard"]
        self.keeps_list = True  # its check is the list of legal actions (the base one)
        self.list_piles = (self.discard, self.stock)  # the list reads them: their sizes guard it
        self.discard_drawn: str = d.get("discard_drawn", "allowed")
        ts = d.get("take_several")
        count = ts["count"] if ts else 0
        self.take_all = count == "all"
        """Take the whole discard pile (``count: all``)."""
        self.take_count: int = 0 if self.take_all else count
        self.take_then: str = ts.get("then", "exchange_hand") if ts else "exchange_hand"
        self.takes = ts is not None
        self.take_min: int = ts["min_pile"] if ts else 0
        self.take_need = max(self.take_min, self.take_count, 1)
        """The fewest cards the discard pile must hold for taking several."""
        if ts and self.take_then not in ("exchange_hand", "discard"):
            raise SpecError("take_several.then must be exchange_hand or discard", file, key=f"{key}.take_several.then")
        if ts and self.take_all and self.take_then == "exchange_hand":
            raise SpecError("take_several.count 'all' needs then: discard (a hand is exchanged card for card)", file,
                            key=f"{key}.take_several.count")
        self.take_source = Source(**ts["source"]) if ts else self.source
        kn = d.get("knock")
        self.final_turns: int | None = kn["final_turns"] if kn else None
        self.knock_source = Source(**kn["source"]) if kn else self.source
        self.first_turn_knock: str = kn.get("first_turn", "allowed") if kn else "allowed"
        self.first_player_source: Source | None = Source(**d["first_player_source"]) \
            if "first_player_source" in d else None
        """The clause naming who plays the first turn of a round (an audit cites it for a seat acting out of turn)."""
        self.order_source: Source | None = Source(**d["order_source"]) if "order_source" in d else None
        """The clause passing the turn on to the next player (cited for a seat acting out of turn later on)."""
        self.discard_drawn_source: Source = Source(**d["discard_drawn_source"]) \
            if "discard_drawn_source" in d else self.source
        """``discard_drawn: forbidden``: the clause, with its register entry, that keeps the card drawn."""
        self.exhausted_source: Source = Source(**d["stock_exhausted_source"]) \
            if "stock_exhausted_source" in d else self.source
        self.first_turn_source = Source(**kn["first_turn_source"]) if kn and "first_turn_source" in kn \
            else self.source
        if self.first_turn_knock not in ("allowed", "forbidden"):
            raise SpecError("knock.first_turn must be allowed or forbidden", file, key=f"{key}.knock.first_turn")
        iw = d.get("instant_win")
        self.instant: float | None = iw["value"] if iw else None
        self.check_after_deal = iw is not None and iw.get("check_after_deal", "on") == "on"
        self.check_mid_turn = iw is not None and iw.get("check_mid_turn", "off") == "on"
        """The instant-win value also counts on the cards held between a draw and the discard."""
        self.instant_source: Source | None = Source(**iw["source"]) if iw else None
        for name in ("check_after_deal", "check_mid_turn"):
            if iw is not None and iw.get(name, "on") not in ("on", "off"):
                raise SpecError(f"instant_win.{name} must be on or off", file, key=f"{key}.instant_win.{name}")
        self.exhausted: str = d["stock_exhausted"]
        if self.exhausted not in ("reshuffle", "end_round"):
            raise SpecError("stock_exhausted must be reshuffle or end_round", file,
                            key=f"{key}.stock_exhausted")
        if self.discard_drawn not in ("allowed", "forbidden"):
            raise SpecError("discard_drawn must be allowed or forbidden", file, key=f"{key}.discard_drawn")
        ml = d.get("melding")
        self.melding: TurnMeldRules | None = TurnMeldRules.build_turns(ml, f"{key}.melding", file) if ml else None
        buy = d.get("buy")
        self.buy_limit: int = buy["limit"] if buy else 0
        """Buys per player per round (0: no buying)."""
        self.buy_penalty: int = buy.get("penalty", 1) if buy else 0
        self.buy_source: Source = Source(**buy["source"]) if buy else self.source
        if buy and (type(self.buy_limit) is not int or self.buy_limit < 0):
            raise SpecError("buy.limit must be a whole number, 0 for no buying", file, key=f"{key}.buy.limit")
        ra = d.get("reveal_at_end")
        self.reveal_source: Source | None = Source(**ra["source"]) if ra else None
        """Every player still in shows their hand when the round ends (``hands_shown`` in the result)."""

    def zone_ids(self) -> list[str]:
        return ["hand", self.stock, self.discard] + ([self.melding.pile] if self.melding else [])

    def action_sigs(self) -> list[KindSig]:
        out = [KindSig("draw_stock"), KindSig("draw_discard"), KindSig("discard", cards=(1, 1))]
        if self.takes and self.take_then == "exchange_hand":
            out.append(KindSig("take", cards=(self.take_count, self.take_count), ordered=True))
        elif self.takes:  # the cards taken are the top of the pile: the action names none
            out.append(KindSig("take"))
        if self.final_turns is not None:
            out.append(KindSig("knock"))
        if self.melding is not None:
            out.append(KindSig("go_out", cards=(1, 1)))
        if self.buy_limit:
            out += [KindSig("pass"), KindSig("buy")]
        if self.melding is not None and self.melding.lay_down == "early":
            out.append(KindSig("meld", cards=(self.melding.min_size, melds.MAX_CARDS)))
            out.append(KindSig("lay_off", number=(1, MAX_LAID), cards=(1, 1)))
        return out

    def bind(self, game: Game) -> None:
        super().bind(game)
        self.check_stock(game, self.stock)
        if game.hand_value is None and self.melding is None:
            raise SpecError("a draw_discard phase needs a hand_value or a melding clause", self.file, key=self.key)
        if self.melding is not None:
            self.melding.bind(game, f"{self.key}.melding")
            if self.buy_limit and max(d.hand_size for d in game.round_deals) + self.buy_limit * (
                    1 + self.buy_penalty) + 1 > melds.MAX_CARDS:
                raise SpecError(f"with buying a hand may grow past {melds.MAX_CARDS} cards, more than melding handles",
                                self.file, key=f"{self.key}.buy.limit")
        cards = range(game.deck.size)  # the one-card actions, encoded once (legal() is the hot path)
        self._discard_acts = tuple(self.codec.encode("discard", cards=(c,)) for c in cards)
        self._out_acts = tuple(self.codec.encode("go_out", cards=(c,)) for c in cards) if self.melding else ()
        self._takes: dict[int, tuple[Action, ...]] = {}
        """``take`` with ``exchange_hand``: hand -> its take actions (the hand's orders; pure, so kept)."""
        self._take_sizes: set[int] = set()
        """The hand sizes whose ``take`` the codec has accepted (its check reads only the number of cards)."""
        self._draw_lists: dict[int, tuple[Action, ...]] = {}
        """The start of a turn (no discard to buy): the sorted list for each situation, packed in one int (the hand
        when a take exchanges it, then whether the pickup pile has a card, whether a take is open, whether a knock
        is); pure, so kept (up to :data:`TAKES_MEMO_LIMIT` situations)."""
        self._plain = {s.kind: self.codec.encode(s.kind) for s in self.action_sigs()  # actions naming nothing
                       if s.cards == (0, 0) and s.number is None and not s.choices and not s.suit}
        if self.stock not in game.deal.pile_names:
            raise SpecError(f"stock pile '{self.stock}' is not dealt", self.file, key=f"{self.key}.stock")
        if self.takes and self.take_then == "exchange_hand" and any(
                self.take_count != d.hand_size for d in game.round_deals):
            raise SpecError("take_several.count must equal the hand size (the whole hand is exchanged)",
                            self.file, key=f"{self.key}.take_several")
        self.instant_units = int(self.instant * 2) if self.instant is not None else None
        if self.instant_units is not None and game.hand_value is None:
            raise SpecError("instant_win needs a hand_value clause", self.file, key=f"{self.key}.instant_win")
        if game.hand_value is not None:  # without one (melding games) nothing reads it: no instant win
            self.hv = game.hand_value

    def new_state(self) -> TurnState:
        return TurnState()

    def _ms(self, st: State) -> TurnState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def meld_deadwood(self, st: State, hand: int) -> int | None:
        """The tally of ``hand`` in the current round (None without melding); for bots and tests."""
        if self.melding is None:
            return None
        return self.melding.deadwood(hand, st.game.round_index(st.hand_no))

    def meld_hints(self, st: State) -> tuple[int, tuple[int, ...]] | None:
        """The wild rank this round (-1 for none) and each card's penalty value (None without melding); for bots."""
        if self.melding is None:
            return None
        return self.melding.wild_by_round[st.game.round_index(st.hand_no)], self.melding.value_of

    @property
    def bot_choice(self) -> Callable[[State, list[Action]], Action] | None:
        """The bots' own play (``cardspec.engine.bots``) under ``lay_down: early`` only (None otherwise: the
        general rule bot plays): go out, else add a card to one's melds, else lay down a meld, else discard the
        card whose loss leaves the least deadwood (the dearest of equals); draw from the pickup pile."""
        if self.melding is None or self.melding.lay_down != "early":
            return None
        return self._early_bot

    def _early_bot(self, st: State, legal: list[Action]) -> Action:
        codec = self.codec
        for kind in ("go_out", "lay_off", "meld"):
            acts = [a for a in legal if codec.kind(a) == kind]
            if acts:
                return max(acts, key=lambda a: (len(codec.cards(a)), -a)) if kind == "meld" else acts[0]
        discards = [a for a in legal if codec.kind(a) == "discard"]
        if not discards:
            return next((a for a in legal if codec.kind(a) == "draw_stock"), legal[0])
        m = self.melding
        assert m is not None
        hand = st.hands[st.cur]
        ridx = st.game.round_index(st.hand_no)
        return min(discards, key=lambda a: (m.deadwood(hand & ~(1 << codec.cards(a)[0]), ridx),
                                            -m.value_of[codec.cards(a)[0]], a))

    def fact_names(self) -> list[str]:
        return ["knocker", "ended_by"] + (["deadwood", "went_out"] if self.melding is not None else [])

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """``knocker`` (the entity knocked) and ``ended_by`` (how the round ended); with melding also
        ``deadwood`` (the entity's cards left, less their best melds) and ``went_out``."""
        ts = self._ms(st)
        into["knocker"] = ts.knocker in seats
        into["ended_by"] = ts.ended_by or "knock"
        if self.melding is None:
            return
        ridx = st.game.round_index(st.hand_no)
        into["deadwood"] = sum(self.melding.tally_deadwood(st.hands[s], ridx, ts.laid) for s in seats)
        into["went_out"] = ts.out_seat in seats

    def result_source(self, field: str) -> Source | None:
        """``hands_shown``: the clause that lays the hands out; ``went_out`` and ``also_went_out``: going out;
        ``melds``: laying down; ``ended_by``: the usual end of a round (the knock, else going out; each way a
        round ends has its own clause: :meth:`result_value_source`)."""
        m = self.melding
        if field == "hands_shown":
            return self.reveal_source
        if field == "ended_by":
            return self.result_value_source(field, "knock" if self.final_turns is not None or m is None
                                            else "went_out")
        if m is None:
            return None
        if field in ("went_out", "also_went_out"):
            return m.go_out_source
        return (m.lay_down_source or m.go_out_source) if field == "melds" else None

    def result_value_source(self, field: str, value: Any) -> Source | None:
        """``ended_by``: the clause by which a round ends so (``value``, as the replay gives it): the knock and its
        final turns, the instant win, the empty stock, going out and its final turns."""
        if field != "ended_by":
            return self.result_source(field)
        m = self.melding
        if value == "knock" and self.final_turns is not None:
            return self.knock_source
        if value == "instant" and self.instant_source is not None:
            return self.instant_source
        if value == "exhausted":
            return self.exhausted_source
        if value == "went_out" and m is not None:
            return m.final_turns_source or m.go_out_source
        return None

    def turn_source(self, st: State) -> Source | None:
        """Whose turn it is: buying, the buying clause; in the middle of a turn, the turn's own clause (the player
        who drew discards); the first turn of a round, ``first_player_source``; a later one, ``order_source``
        (else the turn's own clause)."""
        ms = self._ms(st)
        if ms.stage in ("buy", "draw_stock"):
            return self.buy_source
        if ms.stage == "discard":
            return self.source
        if ms.turns <= 0:
            return self.first_player_source or self.source
        return self.order_source or self.source

    def result_fields(self, st: State) -> dict[str, Any]:
        ms = self._ms(st)
        out: dict[str, Any] = {"ended_by": ms.ended_by} if ms.ended_by else {}
        names = st.game.deck.names
        if self.reveal_source is not None:
            deck = st.game.deck
            out["hands_shown"] = [[names[c] for c in deck.cards_of(st.hands[s])] if st.active[s] else []
                                  for s in range(st.game.num_players)]
        if self.melding is None:
            return out
        out.update(went_out=ms.out_seat if ms.out_seat >= 0 else None,
                   melds=[[names[c] for c in meld] for meld in ms.laid])
        if ms.later_out:
            out["also_went_out"] = list(ms.later_out)
        return out

    def _may_go_out(self, st: State) -> bool:
        """Whether the player to act may go out now (``go_out.first_turn`` and ``go_out.after_first``)."""
        m = self.melding
        assert m is not None
        ms = self._ms(st)
        if ms.turns < st.active_count() and m.first_turn == "forbidden":
            return False
        return ms.out_seat < 0 or m.after_first == "allowed"

    def _keeps(self, st: State, rest: CardMask) -> bool:
        """``lay_down: early``: whether a hand left with ``rest`` after laying cards down can still end the turn:
        a card it may discard, and a second card unless that discard may go out."""
        ms = self._ms(st)
        drawn = ms.drawn if self.discard_drawn == "forbidden" else -1
        if not rest & ~(1 << drawn if drawn >= 0 else 0):
            return False
        return self._may_go_out(st) or rest.bit_count() >= 2

    def _lay_acts(self, st: State, hand: CardMask) -> list[Action]:
        """``lay_down: early``: the melds the player may lay down, and the cards they may add to their own melds."""
        m = self.melding
        assert m is not None
        deck = st.game.deck
        ridx = st.game.round_index(st.hand_no)
        codec = self.codec
        out = [codec.encode("meld", cards=meld) for meld in m.meld_choices(hand, ridx)
               if self._keeps(st, hand & ~Deck.mask(meld))]
        ms = self._ms(st)
        held = deck.cards_of(deck.canonical(hand) if deck.has_copies else hand)
        for n, (meld, by) in enumerate(zip(ms.laid, ms.laid_by, strict=True)):
            if by == st.cur and n < MAX_LAID:
                out.extend(codec.encode("lay_off", number=n + 1, cards=(c,)) for c in held
                           if self._keeps(st, hand & ~(1 << c)) and m.is_meld_of((*meld, c), ridx))
        return out

    def _go_out_discards(self, st: State, hand: int, drawn: int, canon: int) -> list[int]:
        """The distinct discards after which the rest of ``hand`` can all be laid in melds (``canon``:
        ``Deck.canonical`` of ``hand``)."""
        m = self.melding
        assert m is not None
        if self._ms(st).turns < st.active_count() and m.first_turn == "forbidden":
            return []
        ridx = st.game.round_index(st.hand_no)
        return m.out_discards(hand, canon & ~(1 << drawn if drawn >= 0 else 0), ridx)

    # --- flow ---------------------------------------------------------------------
    def _end(self, st: State, how: str) -> None:
        self._ms(st).ended_by = how
        st.cur = -1
        st.next_phase()

    def _buyers(self, st: State, after: int) -> list[int]:
        """``buy``: the players who may still buy the top discard, in turn order from the seat after ``after``
        to the last before the waiting player (not the waiting player, not the discarder)."""
        ms = self._ms(st)
        out = []
        seat = st.next_seat(after)
        while seat != ms.buy_for and seat != after:
            if seat != ms.discarder and ms.bought.count(seat) < self.buy_limit:
                out.append(seat)
            seat = st.next_seat(seat)
        return out

    def _buy_open(self, st: State) -> bool:
        """``buy``: whether the player about to draw has first refusal of a discard that others may buy: a discard
        ended the last turn, nobody has gone out or knocked, the pickup pile holds the penalty card and a card
        for the waiting player, and someone may still buy."""
        ms = self._ms(st)
        if not self.buy_limit or ms.discarder < 0 or ms.out_seat >= 0 or ms.knocker >= 0 \
                or not st.piles[self.discard] or len(st.piles[self.stock]) < self.buy_penalty + 1:
            return False
        ms.buy_for = st.cur
        try:
            return bool(self._buyers(st, st.cur))
        finally:
            ms.buy_for = -1

    def _begin_turn(self, st: State, seat: int) -> None:
        st.cur = seat
        ms = self._ms(st)
        ms.turns += 1
        ms.stage = "draw"
        ms.drawn = -1
        if not st.piles[self.stock]:
            disc = st.piles[self.discard]
            if self.exhausted == "reshuffle" and len(disc) > 1:
                st.piles[self.stock] = st.shuffled(disc[:-1])
                st.piles[self.discard] = disc[-1:]
            else:
                self._end(st, "exhausted")

    def start(self, st: State) -> None:
        if self.discard not in st.game.deal_for(st.hand_no).pile_names:
            st.piles[self.discard] = []
        if self.melding is not None:
            st.piles[self.melding.pile] = []
        ms = self._ms(st)
        ms.knocker = -1
        ms.turns = -1  # _begin_turn counts the first turn as turn 0
        ms.discarder = -1
        ms.bought = ()
        ms.buy_for = -1
        if self.check_after_deal and self.instant_units is not None:
            seats = [s for s in range(len(st.hands)) if st.active[s]]
            u = st.unseen
            if u is None or not u.cards:
                if any(self._is_instant(st.hands[s]) for s in seats):
                    self._end(st, "instant")
                    return
            elif u.instant(st, seats, self._is_instant, "an instant win", ("ended_by", "instant"), self._end_instant,
                           self._first_turn):  # some unseen: the record tells (Unseen.instant), never a guess
                return
        self._first_turn(st)

    def _first_turn(self, st: State) -> None:
        self._begin_turn(st, st.next_seat(st.dealer))

    def _is_instant(self, hand: CardMask) -> bool:
        """Whether a hand's value is the instant-win value."""
        return self.hv.value(hand) == self.instant_units

    def _end_instant(self, st: State) -> None:
        self._end(st, "instant")

    def _end_turn(self, st: State, seat: int, knocked: bool) -> None:
        if self.instant_units is not None:
            u = st.unseen
            if u is None or not u.cards:
                if self.hv.value(st.hands[seat]) == self.instant_units:
                    self._end(st, "instant")
                    return
            elif u.instant(st, (seat,), self._is_instant, "an instant win", ("ended_by", "instant"),
                           self._end_instant, lambda s: self._go_on(s, seat, knocked)):  # not on a guessed card
                return
        self._go_on(st, seat, knocked)

    def _instant_mid_turn(self, st: State, seat: int) -> None:
        """``check_mid_turn``: the cards ``seat`` holds after drawing (the discard still to come) worth the
        instant-win value end the round at once, laid down as they are; else the turn goes on to the discard."""
        u = st.unseen
        if u is None or not u.cards:
            if self.hv.value(st.hands[seat]) == self.instant_units:
                self._end(st, "instant")
            return
        u.instant(st, (seat,), self._is_instant, "an instant win", ("ended_by", "instant"), self._end_instant,
                  _turn_goes_on)

    def _go_on(self, st: State, seat: int, knocked: bool) -> None:
        """A turn ended without an instant win: the next turn, or the end of the round."""
        ms = self._ms(st)
        if self.melding is not None and ms.out_seat >= 0:
            ms.final_left -= 0 if ms.out_seat == seat else 1
            if ms.final_left <= 0:
                self._end(st, "went_out")
                return
        if ms.knocker >= 0:
            ms.knock_left -= 0 if knocked else 1
            if ms.knock_left <= 0:
                self._end(st, "knock")
                return
        self._begin_turn(st, st.next_seat(seat))

    # --- actions --------------------------------------------------------------------
    def legal(self, st: State) -> list[Action]:
        deck = st.game.deck
        codec = self.codec
        hand = st.hands[st.cur]
        ms = self._ms(st)
        if ms.stage == "discard":
            drawn = ms.drawn if self.discard_drawn == "forbidden" else -1
            canon = deck.canonical(hand) if deck.has_copies else hand  # worked out once, for both lists
            held = canon if drawn < 0 or not deck.has_copies else deck.canonical(hand & ~(1 << drawn))
            acts = [self._discard_acts[c] for c in deck.cards_of(held) if c != drawn]
            if self.melding is not None and (ms.out_seat < 0 or self.melding.after_first == "allowed"):
                outs = [self._out_acts[c] for c in self._go_out_discards(st, hand, drawn, canon)]
                if outs and (self.melding.when_able == "compulsory" or not hand & (hand - 1)):
                    return outs  # a player who can go out must; a last card is discarded by going out
                acts += outs
            if self.melding is not None and self.melding.lay_down == "early":
                acts += self._lay_acts(st, hand)
                acts.sort()
            return acts
        disc = st.piles[self.discard]
        plain = self._plain
        if ms.stage == "buy":
            return [plain["pass"], plain["buy"]]
        if ms.stage == "draw_stock":
            return [plain["draw_stock"]]
        if self._buy_open(st):  # first refusal: take the discard, or let it go to the buyers
            return [plain["pass"], plain["draw_discard"]]
        can_take = self.takes and len(disc) >= self.take_need
        can_knock = self.final_turns is not None and ms.knocker < 0 and (
            ms.turns > 0 or self.first_turn_knock == "allowed")
        key = ((hand if can_take and self.take_then == "exchange_hand" else 0) << 3
               | (4 if disc else 0) | (2 if can_take else 0) | (1 if can_knock else 0))
        kept = self._draw_lists.get(key)
        if kept is not None:
            return list(kept)
        out = [plain["draw_stock"]]
        if disc:
            out.append(plain["draw_discard"])
        if can_take:
            if self.take_then == "exchange_hand":
                takes = self._takes.get(hand)
                if takes is None:  # the orders of the hand's cards, one per class of identical ones
                    if len(self._takes) >= TAKES_MEMO_LIMIT:
                        self._takes.clear()
                    order = deck.cards_of(hand)
                    if len(order) not in self._take_sizes:  # encode's check reads only how many cards: once a size
                        codec.encode("take", cards=order)
                        self._take_sizes.add(len(order))
                    base = codec.base("take")  # every order of the hand, packed unchecked as encode packs it
                    if deck.has_copies:  # orders naming copies of one face are one action
                        takes = tuple({codec.canonical(codec.with_cards(base, p), hand) for p in permutations(order)})
                    else:  # distinct cards: every order is an action of its own
                        takes = tuple([codec.with_cards(base, p) for p in permutations(order)])
                    self._takes[hand] = takes
                out.extend(takes)
            else:
                out.append(plain["take"])
        if can_knock:
            out.append(plain["knock"])
        out.sort()
        if len(self._draw_lists) >= TAKES_MEMO_LIMIT:
            self._draw_lists.clear()
        self._draw_lists[key] = tuple(out)
        return out

    def apply(self, st: State, a: Action) -> None:
        k = self.codec.kind(a)
        seat = st.cur
        ms = self._ms(st)
        if k in ("draw_stock", "draw_discard", "take", "knock"):
            ms.discarder = -1  # a discard can be bought only before the next player draws
        if k == "draw_stock" or k == "draw_discard":
            pile = st.piles[self.stock if k == "draw_stock" else self.discard]
            c = pile.pop()
            st.hands[seat] = st.hands[seat] | (1 << c)
            ms.stage = "discard"
            ms.drawn = c if k == "draw_discard" else -1
            if self.check_mid_turn:
                self._instant_mid_turn(st, seat)
            return
        if k == "discard":
            c = self.codec.cards(a)[0]
            st.hands[seat] = st.hands[seat] & ~(1 << c)
            st.piles[self.discard].append(c)
            ms.discarder = seat
            self._end_turn(st, seat, False)
            return
        if k == "pass" or k == "buy":  # buy: first refusal, then the others in turn
            if ms.stage == "draw":  # the waiting player lets the discard go
                ms.buy_for = seat
                ms.stage = "buy"
                st.cur = self._buyers(st, seat)[0]
                return
            if k == "buy":
                st.hands[seat] = st.hands[seat] | (1 << st.piles[self.discard].pop())
                for _ in range(self.buy_penalty):
                    st.hands[seat] = st.hands[seat] | (1 << st.piles[self.stock].pop())
                ms.bought = (*ms.bought, seat)
            rest = self._buyers(st, seat) if k == "pass" else []
            if rest:
                st.cur = rest[0]
                return
            st.cur = ms.buy_for  # the waiting player draws from the pickup pile
            ms.buy_for = -1
            ms.discarder = -1
            ms.stage = "draw_stock"
            return
        if k == "go_out":
            m = self.melding
            assert m is not None
            c = self.codec.cards(a)[0]
            laid = m.partition(st.hands[seat] & ~(1 << c), st.game.round_index(st.hand_no))
            ms.laid = ms.laid + laid
            st.piles[m.pile].extend(x for meld in laid for x in meld)
            st.hands[seat] = 0
            st.piles[self.discard].append(c)
            ms.laid_by = ms.laid_by + (seat,) * len(laid)
            if ms.out_seat >= 0:  # going out too, in a turn left (go_out.after_first: allowed)
                ms.later_out = (*ms.later_out, seat)
            else:
                ms.out_seat = seat
                ms.final_left = (st.active_count() - 1) * m.final_turns
            self._end_turn(st, seat, False)
            return
        if k == "meld" or k == "lay_off":  # lay_down: early; the turn goes on
            m = self.melding
            assert m is not None
            cards = self.codec.cards(a)
            st.hands[seat] = st.hands[seat] & ~Deck.mask(cards)
            if k == "meld":
                ms.laid = (*ms.laid, cards)
                ms.laid_by = (*ms.laid_by, seat)
            else:
                n = (self.codec.number(a) or 1) - 1
                ms.laid = tuple((*meld, *cards) if i == n else meld for i, meld in enumerate(ms.laid))
            st.piles[m.pile] = [c for meld in ms.laid for c in meld]
            return
        if k == "take":
            disc = st.piles[self.discard]
            n = len(disc) if self.take_all else self.take_count
            took = disc[-n:]
            del disc[-n:]
            if self.take_then == "discard":  # the cards join the hand; a discard ends the turn
                st.hands[seat] = st.hands[seat] | st.game.deck.mask(took)
                ms.stage = "discard"
                ms.drawn = -1
                if self.check_mid_turn:
                    self._instant_mid_turn(st, seat)
                return
            disc.extend(self.codec.cards(a))
            st.hands[seat] = st.game.deck.mask(took)
            self._end_turn(st, seat, False)
            return
        # knock
        ms.knocker = seat
        ms.knock_left = (st.active_count() - 1) * (self.final_turns or 0)
        self._end_turn(st, seat, True)

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source | None]:
        k = self.codec.kind(a)
        m = self.melding
        if k == "go_out" and m is not None:
            if self._ms(st).stage != "discard":
                return "a player goes out after drawing", m.go_out_source
            c = self.codec.cards(a)[0]
            if c == self._ms(st).drawn and self.discard_drawn == "forbidden":
                return (f"{st.game.deck.names[c]} was just taken from the discard pile and is kept this turn: it "
                        "cannot be the discard that goes out", self.discard_drawn_source)
            if self._ms(st).out_seat >= 0 and m.after_first != "allowed":
                return "someone has already gone out this round", m.after_first_source or m.go_out_source
            if self._ms(st).turns < st.active_count() and m.first_turn == "forbidden":
                return "no one goes out in the first turn round the table", m.first_turn_source
            return ("going out lays every other card in melds"
                    + (f" (at most {m.max_melds})" if m.max_melds > 0 else "") + " and discards this one",
                    m.go_out_source)
        if k in ("meld", "lay_off") and m is not None:
            if m.lay_down != "early":
                return "melds are laid only by going out", m.lay_down_source or m.go_out_source
            if self._ms(st).stage != "discard":
                return "a player lays down after drawing", m.lay_down_source or m.go_out_source
            return ("a player lays down one meld of their own cards at a time, or adds a card to a meld they laid, "
                    "keeping a card to discard (and one more unless that discard may go out)",
                    m.lay_down_source or m.go_out_source)
        if k == "discard" and m is not None and self._ms(st).stage == "discard" and st.cur >= 0 \
                and st.hands[st.cur].bit_count() == 1:
            return "the last card is discarded by going out", m.go_out_source
        if k == "discard" and m is not None and m.when_able == "compulsory" and self._ms(st).stage == "discard" \
                and any(self.codec.kind(x) == "go_out" for x in self.legal(st)):
            return "a player who can go out must go out", m.go_out_source
        if k in ("pass", "buy") and self.buy_limit:
            if self._ms(st).stage == "buy":
                return "the player may buy the top discard or pass", self.buy_source
            return ("only the player about to draw lets a discard go, and only when others may buy it; then the "
                    "others, in turn, may buy it", self.buy_source)
        if k in ("draw_stock", "draw_discard") and self._ms(st).stage == "buy":
            return "the other players are asked in turn whether they buy the top discard", self.buy_source
        if k == "draw_discard" and self._ms(st).stage == "draw_stock":
            return "the discard was let go: the player draws from the pickup pile", self.buy_source
        if k == "draw_stock" and self._ms(st).stage == "draw" and self._buy_open(st):
            return ("the player first takes the top discard or lets it go, so that others may buy it",
                    self.buy_source)
        if k == "knock" and self._ms(st).knocker >= 0:
            return "someone has already knocked this round", self.knock_source
        if k == "knock":
            return "the first player of a round starts by drawing", self.first_turn_source
        if k == "take":
            if self._ms(st).stage == "discard":
                return "the player has drawn and must discard a card", self.source
            return (f"taking needs at least {self.take_need} cards on the discard pile"
                    + (" and must name every card of the hand" if self.take_then == "exchange_hand" else ""),
                    self.take_source)
        if k == "discard" and self._ms(st).stage == "discard":
            c = self.codec.cards(a)[0]
            names = st.game.deck.names
            if not st.hands[st.cur] >> c & 1:  # no clause: only cards held are discarded
                return f"seat {st.cur} does not hold {names[c]}", None
            if c == self._ms(st).drawn and self.discard_drawn == "forbidden":
                return f"{names[c]} was just taken from the discard pile and is kept this turn", \
                    self.discard_drawn_source
            return f"{names[c]} cannot be discarded now", self.source
        if self._ms(st).stage == "discard":
            return "the player has drawn and must discard a card", self.source
        if k == "draw_discard" and not st.piles[self.discard]:
            first = self._ms(st).turns <= 0 and self.first_player_source is not None
            return "the discard pile is empty", self.first_player_source if first else self.source
        return "the player must draw, take or knock first", self.source

    def declarations(self) -> Declared:
        """Draws, discards, taking several, the reshuffle; no bound on turns; knock facts."""
        assert self.game is not None
        moves = [Transfer("draw from the stock", self.stock, HAND, 1, ("draw_stock",)),
                 Transfer("draw from the discard pile", self.discard, HAND, 1, ("draw_discard",)),
                 Transfer("discard", HAND, self.discard, 1, ("discard",))]
        if self.takes and self.take_then == "exchange_hand":
            moves.append(Transfer("take several discards for the hand", HAND, self.discard, self.take_count,
                                  ("take",), swap=True))
        elif self.takes:
            moves.append(Transfer("take discards into the hand", self.discard, HAND,
                                  ALL if self.take_all else self.take_count, ("take",)))
        if self.exhausted == "reshuffle":  # as the next turn begins: all but the top discard
            ends_turn = ("discard",) + (("take",) if self.takes and self.take_then == "exchange_hand" else ()) + \
                (("knock",) if self.final_turns is not None else ()) + (("go_out",) if self.melding else ())
            moves.append(Transfer("reshuffle the discards into the stock", self.discard, self.stock,
                                  (1, self.game.deck.size - 1), ends_turn, chance=True, follow_on=True))
        facts = [Fact("knocker", BOOL), Fact("ended_by", ("knock", "instant", "exhausted"))]
        if self.melding is not None:
            m = self.melding
            moves.append(Transfer("go out: lay every other card in melds", HAND, m.pile,
                                  (m.min_size, max(d.hand_size for d in self.game.round_deals)), ("go_out",)))
            moves.append(Transfer("go out: discard the last card", HAND, self.discard, 1, ("go_out",)))
            facts = [Fact("ended_by", ("went_out", "exhausted")), Fact("deadwood", tuple(range(
                m.max_deadwood(self.game, self.buy_limit * (1 + self.buy_penalty)) + 1))), Fact("went_out", BOOL)]
        if self.melding is not None and self.melding.lay_down == "early":
            m = self.melding
            moves.append(Transfer("lay down a meld", HAND, m.pile, (m.min_size, max(d.hand_size for d in
                                                                                  self.game.round_deals)), ("meld",)))
            moves.append(Transfer("add a card to one's own meld", HAND, m.pile, 1, ("lay_off",)))
        if self.buy_limit:
            moves.append(Transfer("buy the top discard", self.discard, HAND, 1, ("buy",)))
            moves.append(Transfer("buy: the penalty card", self.stock, HAND, self.buy_penalty, ("buy",)))
        forced = "go out" if self.melding is not None else "knock"
        return Declared(tuple(moves), None, f"no player is ever forced to {forced}, so turns may go on without end",
                        tuple(facts))
