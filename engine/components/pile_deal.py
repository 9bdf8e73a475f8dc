"""The ``pile_deal`` component: every player deals piles face down, passes them on, and picks a hand.

Used by: hand-and-foot ("each player deals 2 piles of 13 cards. Each person will
then hand one pile to the person on their left, and one pile to the person on
their right"; the foot is the pile not chosen as the hand).

As the phase begins, each player in turn (from the left of the dealer) deals
``len(piles)`` piles of ``size`` cards from the top of the ``from`` pile (the
shuffled rest of the deck; the deal clause deals no hands). The ``k``-th pile a
player deals goes to the player ``passing[k]`` seats to the left (``0``: kept;
negative: to the right; ``across``: half the table, rounded down), chosen by the
first ``passing`` row whose rounds and player counts hold the round. The rows
must cover every round and player count exactly once (checked on load), so a gap
in the text is a row of its own, whose offsets come from a registered option.

In a round whose ``look`` is false, the piles lie in the face-down seat zones
``piles`` (visibility ``count``: not even their holder sees them) and each player
in turn names the pile that becomes the hand without looking: ``choose 1`` or
``choose 2``. In a round whose ``look`` is true the piles go to the ``seen``
zones (visibility ``owner``) and the player looks before choosing. The other
pile goes to the seat zone ``reserve`` (the foot; in a round whose piles were
looked at, to ``reserve_seen`` if given, a zone its holder sees, since the
holder has seen it). ``choose k`` is the only
action kind; a player chooses once, so the phase takes exactly one action per
player.

Spec keys: ``from``, ``piles``, ``seen``, ``size``, ``reserve``, ``reserve_seen``, ``look``
(a bool or ``{$round: NAME}``), ``passing`` (rows of ``rounds: [lo, hi]``,
``players: [lo, hi]``, ``to: [offset, ...]``, ``source``) and ``source``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, KindSig
from ..errors import Source, SpecError
from .base import CheckingDoer, PhaseState
from .declared import HAND, START, Declared, Transfer

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@dataclass(frozen=True)
class PassRow:
    """One row of the passing table: rounds and player counts (inclusive), the offsets, the clause."""

    rounds: tuple[int, int]
    players: tuple[int, int]
    to: tuple[int | str, ...]
    source: Source

    def holds(self, rnd: int, players: int) -> bool:
        """Whether the row covers round ``rnd`` (from 1) at ``players`` players."""
        return self.rounds[0] <= rnd <= self.rounds[1] and self.players[0] <= players <= self.players[1]


def offset(to: int | str, players: int) -> int:
    """A passing offset in seats to the left: ``across`` is half the table, rounded down.

    >>> offset("across", 4), offset("across", 5), offset(-1, 4)
    (2, 2, -1)
    """
    return players // 2 if to == "across" else int(to)


@dataclass(init=False)
class PileState(PhaseState):
    """Which seats have chosen their hand, and whose turn it is to choose."""

    chosen: int = 0

    def __init__(self, chosen: int = 0) -> None:
        self.chosen = chosen

    def copy(self) -> PileState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return PileState(self.chosen)


class PileDeal(CheckingDoer):
    """Piles dealt face down by every player, passed by a table of offsets, one picked as the hand."""

    kind: ClassVar[str] = "pile_deal"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.stock: str = d["from"]
        self.piles: tuple[str, ...] = tuple(d["piles"])
        self.seen: tuple[str, ...] = tuple(d["seen"])
        self.size: int = d["size"]
        self.reserve: str = d["reserve"]
        self.reserve_seen: str = d.get("reserve_seen", self.reserve)
        """Where the pile not chosen goes in a round whose piles were looked at (the holder has seen it)."""
        self.look_spec: Any = d["look"]
        if len(self.piles) != 2 or len(self.seen) != 2:
            raise SpecError("pile_deal deals two piles to each player (piles and seen name two zones each)", file,
                            key=f"{key}.piles")
        self.rows: tuple[PassRow, ...] = tuple(
            PassRow(tuple(r["rounds"]), tuple(r["players"]), tuple(r["to"]), Source(**r["source"]))
            for r in d["passing"])
        for i, r in enumerate(self.rows):
            if len(r.to) != len(self.piles):
                raise SpecError(f"passing row {i + 1} gives {len(r.to)} offsets for {len(self.piles)} piles", file,
                                key=f"{key}.passing.{i}.to")

    def zone_ids(self) -> list[str]:
        return ["hand", self.stock, *dict.fromkeys((self.reserve, self.reserve_seen)), *self.piles, *self.seen]

    def action_sigs(self) -> list[KindSig]:
        return [KindSig("choose", number=(1, len(self.piles)))]

    def bind(self, game: Game) -> None:
        super().bind(game)
        self.look: tuple[bool, ...] = tuple(bool(v) for v in game.per_round(self.look_spec, f"{self.key}.look"))
        n = game.num_players
        rounds = len(game.schedule) if game.schedule is not None else 1
        self.offsets: list[tuple[int, ...]] = []
        for rnd in range(1, rounds + 1):
            for players in range(2, 17):  # the table is checked for every player count, not only this one
                hits = [r for r in self.rows if r.holds(rnd, players)]
                if len(hits) != 1:
                    what = "no passing row covers" if not hits else f"{len(hits)} passing rows cover"
                    raise SpecError(f"{what} round {rnd} with {players} players", self.file,
                                    key=f"{self.key}.passing")
                if players == n:
                    self.offsets.append(tuple(offset(t, n) for t in hits[0].to))
        if game.deal.hand_size != 0:
            raise SpecError("with a pile_deal phase the deal clause deals no hands (hand_size: 0)", self.file,
                            key=f"{self.key}")
        need = n * self.size * len(self.piles)
        if any(d.pile_sizes(game.deck.size, n).get(self.stock, 0) < need for d in game.round_deals):
            raise SpecError(f"the '{self.stock}' pile holds fewer than the {need} cards the players deal",
                            self.file, key=f"{self.key}.size")
        self._choose = tuple(self.codec.encode("choose", number=k + 1) for k in range(len(self.piles)))

    def action_effect(self, st: State, a: Action) -> str:
        """``choose k``: the pile in the ``k``-th of this round's pile zones becomes the hand, the other goes to
        the reserve (the foot; in a round whose piles were looked at, ``reserve_seen`` if given):
        ``pile 1 becomes the hand; pile 2 goes to the foot``."""
        k = self.codec.number(a) if self.codec.kind(a) == "choose" else None
        zones = self.zones_now(st)
        if k is None or not 1 <= k <= len(zones):
            return ""
        reserve = self.reserve_seen if self.look[st.game.round_index(st.hand_no)] else self.reserve
        others = ", ".join(z.replace("_", " ") for i, z in enumerate(zones) if i != k - 1)
        return f"{zones[k - 1].replace('_', ' ')} becomes the hand; {others} goes to the {reserve.replace('_', ' ')}"

    def deals_from(self, pile: str) -> int:
        assert self.game is not None
        return self.game.num_players * self.size * len(self.piles) if pile == self.stock else 0

    def new_state(self) -> PileState:
        return PileState()

    def _ps(self, st: State) -> PileState:
        return st.cstate[self.index]  # type: ignore[return-value]

    def row_for(self, st: State) -> tuple[int, ...]:
        """The passing offsets of this hand's round."""
        return self.offsets[min(st.game.round_index(st.hand_no), len(self.offsets) - 1)]

    def zones_now(self, st: State) -> tuple[str, ...]:
        """The seat zones the piles lie in this round (face down, or seen by their holder)."""
        return self.seen if self.look[st.game.round_index(st.hand_no)] else self.piles

    def start(self, st: State) -> None:
        n = st.game.num_players
        stock = st.piles[self.stock]
        zones = self.zones_now(st)
        offs = self.row_for(st)
        for dealer in st.seats_from(st.dealer):
            for k, z in enumerate(zones):
                got = stock[-self.size:]
                del stock[-self.size:]
                row, i = st.seat_piles[z], (dealer + offs[k]) % n
                row[i] = row[i] | st.game.deck.mask(got)
        self._ps(st).chosen = 0
        st.cur = st.next_seat(st.dealer)

    def legal(self, st: State) -> list[Action]:
        return list(self._choose)

    def try_apply(self, st: State, a: Action) -> bool:
        if a not in self._choose:
            return False
        k = self._choose.index(a)
        seat = st.cur
        zones = self.zones_now(st)
        st.hands[seat] = st.seat_piles[zones[k]][seat]
        reserve = self.reserve_seen if zones == self.seen else self.reserve
        st.seat_piles[reserve][seat] = st.seat_piles[zones[1 - k]][seat]
        for z in zones:
            st.seat_piles[z][seat] = 0
        ps = self._ps(st)
        ps.chosen |= 1 << seat
        nxt = st.next_seat(seat)
        if ps.chosen >> nxt & 1:
            st.cur = -1
            st.next_phase()
        else:
            st.cur = nxt
        return True

    def bot_choice(self, st: State, legal: list[Action]) -> Action:
        """The rule bot: blind, the first pile; having looked, the pile whose cards are worth more in sets
        (more cards sharing a rank, fewer lone cards), as a simple count of pairs."""
        zones = self.zones_now(st)
        if zones == self.piles:
            return self._choose[0]
        deck = st.game.deck

        def pairs(mask: int) -> int:
            ranks = [deck.rank_of[c] for c in deck.cards_of(mask)]
            return sum(ranks.count(r) - 1 for r in set(ranks))
        a, b = (pairs(st.seat_piles[z][st.cur]) for z in zones)
        return self._choose[0] if a >= b else self._choose[1]

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        return "each player names the pile that becomes the hand: choose 1 or choose 2", self.source

    def turn_source(self, st: State) -> Source | None:
        """None: the text has the players choose their piles ("The players choose one of the two piles") without
        saying in what order; the phase has them choose in turn from the dealer's left."""
        return None

    def declarations(self) -> Declared:
        """Dealing the piles as the phase begins; choosing moves one to the hand and one to the reserve."""
        moves: list[Transfer] = []
        for z in (*self.piles, *self.seen):
            moves.append(Transfer(f"deal a pile face down to {z}", self.stock, z, self.size, (START,)))
        for zs, reserve in ((self.piles, self.reserve), (self.seen, self.reserve_seen)):
            for z in zs:
                moves.append(Transfer(f"take the pile in {z} as the hand", z, HAND, self.size, ("choose",)))
                moves.append(Transfer(f"set the pile in {z} aside as the {reserve}", z, reserve, self.size,
                                      ("choose",)))
        assert self.game is not None
        return Declared(tuple(moves), self.game.num_players, "each player chooses once", ())
