"""Zones: every place a card can be, as the spec declares it, with its owner, order and visibility.

A spec's ``zones:`` clause lists every zone. ``hand`` (owned by each seat)
is the cards a seat holds; every other zone is either owned by each seat (an
unordered set per seat, ``State.seat_piles``: the ``won`` cards of trick play)
or lies on the table (a pile, bottom to top, ``State.piles``: a kitty, a
stock, a discard pile, the ``trick`` being played). Which components put cards
in which zone comes from their ``zone_ids``.

Visibility says who sees a zone's cards (:func:`view`):

* ``hidden``: nobody sees the cards or how many there are;
* ``count``: everyone sees how many cards there are, nobody sees them;
* ``owner``: the owning seat (and the player who controls it) sees the cards,
  the others see the count;
* ``all``: everyone sees the cards (``shows_ranks`` may restrict this to some
  ranks: the others are counted only);
* ``top``: everyone sees the top ``top`` cards and the count.

A seat-owned zone may give a dummy seat's instance its own
``dummy_visibility`` (bird-dog-2p: the dummy's hand is face up, ``all``).

Every zone a component or the deal uses must be declared, and every declared
zone must be used (:func:`check_declared`). ``State.observation`` is derived
from these declarations alone, and so is the card census that the
conservation checks use (``State.where_is``).

>>> z = Zone("kitty", "table", "stack", "top", 1, None)
>>> view(z, [3, 7, 9], viewer_owns=False, names=("a", "b", "c", "d", "e", "f", "g", "h", "i", "j"), rank_of=())
{'count': 3, 'cards_top_first': ['j']}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Source, SpecError

ENGINE_ZONES = {"hand": "seat"}
"""Zone ids the engine itself stores, with the owner they must have."""


@dataclass(frozen=True)
class Zone:
    """One declared zone."""

    id: str
    owner: str
    order: str
    visibility: str
    top: int
    shows_ranks: frozenset[int] | None
    source: Source | None = None
    dummy_visibility: str | None = None
    """For a seat-owned zone: the visibility of a dummy seat's instance (a hand played face up)."""

    def for_seat(self, dummy: bool) -> Zone:
        """This zone as seen at one seat's instance (a dummy's may be more open)."""
        if not dummy or self.dummy_visibility is None:
            return self
        return Zone(self.id, self.owner, self.order, self.dummy_visibility, self.top, self.shows_ranks, self.source)


def build_zones(items: Sequence[Mapping[str, Any]], ranks: Sequence[str], file: str) -> tuple[Zone, ...]:
    """Compile the ``zones:`` clause, checking ids, owners and visibility parameters."""
    out: list[Zone] = []
    seen: set[str] = set()
    for i, z in enumerate(items):
        key = f"zones.{i}"
        zid = z["id"]
        if zid in seen:
            raise SpecError(f"zone '{zid}' is declared twice", file, key=key)
        seen.add(zid)
        if zid in ENGINE_ZONES and z["owner"] != ENGINE_ZONES[zid]:
            raise SpecError(f"zone '{zid}' is owned by a {ENGINE_ZONES[zid]}, not a {z['owner']}", file,
                            key=f"{key}.owner")
        if z["owner"] not in ("seat", "table"):
            raise SpecError(f"zone '{zid}': zones belong to each seat or lie on the table "
                            "(no component keeps cards owned by a side yet)", file, key=f"{key}.owner")
        if zid not in ENGINE_ZONES and z["owner"] == "seat" and z["order"] != "set":
            raise SpecError(f"zone '{zid}': a zone owned by each seat is kept as a set of cards, so its order "
                            f"must be 'set', not '{z['order']}'", file, key=f"{key}.order")
        if (z["visibility"] == "top") != ("top" in z):
            raise SpecError("a 'top' visibility needs 'top: k', and only it takes one", file, key=key)
        shows = z.get("shows_ranks")
        if shows is not None:
            bad = [r for r in shows if r not in ranks]
            if bad or z["visibility"] != "all":
                raise SpecError(f"shows_ranks needs visibility 'all' and ranks of the deck (not {bad})", file,
                                key=f"{key}.shows_ranks")
        if "dummy_visibility" in z and z["owner"] != "seat":
            raise SpecError("dummy_visibility applies to zones owned by seats", file, key=f"{key}.dummy_visibility")
        out.append(Zone(zid, z["owner"], z["order"], z["visibility"], z.get("top", 0),
                        frozenset(ranks.index(r) for r in shows) if shows is not None else None,
                        Source(**z["source"]), z.get("dummy_visibility")))
    return tuple(out)


def check_declared(zones: Sequence[Zone], used: Mapping[str, str], file: str) -> None:
    """Every zone used (id -> who uses it) is declared, and every declared zone is used."""
    declared = {z.id for z in zones}
    for zid, who in used.items():
        if zid not in declared:
            raise SpecError(f"{who} uses zone '{zid}', which the zones clause does not declare", file, key="zones")
    for z in zones:
        if z.id not in used:
            raise SpecError(f"zone '{z.id}' is declared but nothing puts cards in it", file, key="zones")


def view(zone: Zone, cards: Sequence[int], viewer_owns: bool, names: Sequence[str],
         rank_of: Sequence[int]) -> dict[str, Any]:
    """What a viewer sees of one zone instance (``cards`` bottom to top for piles).

    Keys: ``count`` unless the zone is hidden; ``cards_top_first`` with the
    cards the viewer may see (all of them for ``owner`` zones the viewer owns
    and ``all`` zones; the top ``k`` for ``top`` zones; for ``all`` zones with
    ``shows_ranks``, only the cards of those ranks).
    """
    vis = zone.visibility
    if vis == "hidden":
        return {}
    out: dict[str, Any] = {"count": len(cards)}
    top_first = list(reversed(cards)) if zone.order != "set" else list(cards)
    if vis == "all" or (vis == "owner" and viewer_owns):
        if zone.shows_ranks is not None:
            top_first = [c for c in top_first if rank_of[c] in zone.shows_ranks]
        out["cards_top_first"] = [names[c] for c in top_first]
    elif vis == "top":
        out["cards_top_first"] = [names[c] for c in top_first[: zone.top]]
    return out


def census(places: Iterable[tuple[str, Iterable[int]]]) -> dict[int, list[str]]:
    """Every place each card is in, from (place name, cards) pairs."""
    where: dict[int, list[str]] = {}
    for name, cards in places:
        for c in cards:
            where.setdefault(c, []).append(name)
    return where
