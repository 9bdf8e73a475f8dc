"""The ``deal`` component: hand size, dealing packets and the undealt piles.

Used by every system. Cards are dealt from the top of a shuffled deck, packet by
packet (``[2, 3]``: two to each player, then three), starting left of the
dealer; a packet may differ from player to player round the table (``[[2, 3],
[3, 2]]``: two to the first player, three to the next, and so on, then three,
two, ...: Euchre's usual deal, buck-euchre's ``alternating`` reading). Then the
undealt piles take the next cards in the spec's order (a ``rest`` pile takes
what is left). Piles are stored bottom to top; records list them top first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, CardMask, Deck
from ..errors import Source, SpecError


def packet(row: int | tuple[int, ...], place: int) -> int:
    """The packet of one round of dealing for the player ``place`` places round the table from the first dealt.

    >>> packet(3, 2), packet((2, 3), 0), packet((2, 3), 1), packet((2, 3), 2)
    (3, 2, 3, 2)
    """
    return row if isinstance(row, int) else row[place % len(row)]


@dataclass(frozen=True)
class PileRule:
    """An undealt pile: name and size (-1 for the rest); its zone says who sees it."""

    name: str
    count: int
    seat: int = -1
    """A seat whose dealt cards go face down to this pile instead of its hand (a dummy's pile), or -1."""


@dataclass(frozen=True)
class DealRules:
    """Compiled deal clause."""

    hand_size: int
    packets: tuple[int | tuple[int, ...], ...]
    """Each round of dealing: one packet for every player, or a packet for each player in dealing order (the
    list cycled round the table); the rounds repeat until every hand is full."""
    piles: tuple[PileRule, ...]
    source: Source
    _layouts: dict[tuple[int, int], tuple[tuple[tuple[int, ...], ...], tuple[slice, ...]]] = field(
        default_factory=dict, compare=False, repr=False, hash=False)
    pile_of_seat: dict[int, str] = field(init=False, compare=False, repr=False, hash=False)
    """Each seat whose cards go to a pile of its own, and that pile's name (when there is one, the piles are put
    in order after the deal)."""
    pile_names: frozenset[str] = field(init=False, compare=False, repr=False, hash=False)
    """The names of the piles the deal makes (a phase asks each hand whether its pile is dealt)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "pile_of_seat", {p.seat: p.name for p in self.piles if p.seat >= 0})
        object.__setattr__(self, "pile_names", frozenset(p.name for p in self.piles))

    @staticmethod
    def build(d: Mapping[str, Any], deck: Deck, players: int, file: str,
              seat_piles: Mapping[int, str] | None = None) -> DealRules:
        """Compile and check that the counts fit the deck.

        ``seat_piles``: seats (beyond the ``players`` dealt a hand) whose cards are dealt,
        in turn like a hand, face down to a pile of that name (bird-dog-2p's dummy).
        """
        piles = tuple(PileRule(p["pile"], -1 if p["count"] == "rest" else p["count"]) for p in d["undealt"])
        piles += tuple(PileRule(name, d["hand_size"], seat) for seat, name in (seat_piles or {}).items())
        names = [p.name for p in piles]
        if len(set(names)) != len(names):
            raise SpecError("two undealt piles share a name", file, key="deal.undealt")
        rests = sum(1 for p in piles if p.count < 0)
        if rests > 1:
            raise SpecError("at most one pile may take the rest", file, key="deal.undealt")
        need = players * d["hand_size"] + sum(p.count for p in piles if p.count >= 0)
        if need > deck.size or (rests == 0 and need != deck.size):
            raise SpecError(f"the deal uses {need} cards but the deck has {deck.size}", file, key="deal")
        size = d["hand_size"]
        packets = tuple(p if isinstance(p, int) else tuple(p) for p in d["packets"])
        for j in range(players + len(seat_piles or {})):  # each place round the table
            dealt = 0
            for i in range(size):  # the packets in turn make up the hand exactly; only a first packet of the whole
                if dealt >= size:  # hand or more is cut (the-card-game's whole_hand: [13] for hands of 3 to 13)
                    break
                dealt += packet(packets[i % len(packets)], j)
            if dealt != size and packet(packets[0], j) < size:
                raise SpecError(f"the packets {d['packets']}, dealt in turn, make {dealt} cards for the player "
                                f"{j + 1} places left of the dealer, not the hand size {size}: the last packet "
                                "would be cut short", file, key="deal.packets")
        return DealRules(size, packets, piles, Source(**d["source"]))

    def pile_sizes(self, deck_size: int, seats: int) -> dict[str, int]:
        """Size of each pile right after a deal to ``seats`` players."""
        fixed = sum(p.count for p in self.piles if p.count >= 0)
        rest = deck_size - seats * self.hand_size - fixed
        return {p.name: (p.count if p.count >= 0 else rest) for p in self.piles}

    def _layout(self, deck_size: int, nseats: int) -> tuple[tuple[tuple[int, ...], ...], tuple[slice, ...]]:
        """Deck positions (top first) of each seat's cards, and each pile's slice (cached per size)."""
        got = self._layouts.get((deck_size, nseats))
        if got is None:
            got = self._layouts[(deck_size, nseats)] = self._compute_layout(deck_size, nseats)
        return got

    def _compute_layout(self, deck_size: int, nseats: int
                        ) -> tuple[tuple[tuple[int, ...], ...], tuple[slice, ...]]:
        positions: list[list[int]] = [[] for _ in range(nseats)]
        have = [0] * nseats
        pos = i = 0
        while any(v < self.hand_size for v in have):
            row = self.packets[i % len(self.packets)]
            i += 1
            for s in range(nseats):
                k = min(packet(row, s), self.hand_size - have[s])
                positions[s].extend(range(pos, pos + k))
                have[s] = have[s] + k
                pos += k
        slices = []
        on_seats = [pr for pr in self.piles if pr.seat >= 0]
        for pr in self.piles:
            if pr.seat >= 0:
                continue
            k = self.pile_sizes(deck_size, nseats - len(on_seats))[pr.name]
            slices.append(slice(pos, pos + k))
            pos += k
        return tuple(tuple(p) for p in positions), tuple(slices)

    def deal(self, order: list[Card], seats: list[int], players: int
             ) -> tuple[list[CardMask], dict[str, list[Card]]]:
        """Deal ``order`` (top first) to ``seats`` (in dealing order), packet by packet.

        ``players`` is the number of hands (seats) to return. A seat with a pile of its own
        gets its cards there, the first dealt at the bottom, and an empty hand.
        """
        positions, slices = self._layout(len(order), len(seats))
        hands = [0] * players
        piles: dict[str, list[Card]] = {}
        on_seat = self.pile_of_seat
        for j in range(len(positions)):  # by index: a compiled build runs zip(strict=True) as a generic call
            s, where = seats[j], positions[j]
            if on_seat and s in on_seat:
                piles[on_seat[s]] = [order[p] for p in where]
                continue
            m = 0
            for p in where:
                m |= 1 << order[p]
            hands[s] = m
        undealt = [pr for pr in self.piles if pr.seat < 0] if on_seat else self.piles
        for j in range(len(slices)):  # the layout has one slice per undealt pile
            piles[undealt[j].name] = order[slices[j]][::-1]
        return hands, {pr.name: piles[pr.name] for pr in self.piles} if on_seat else piles
