"""Seeded chance: every chance event is a pure function of (seed, hand, event).

A permutation sorts the positions by 64-bit keys drawn from SHAKE-128 of
``cardspec/<seed>/<hand>/<event>``: the same on every platform and Python
version, independent of hash randomisation, and cheap (no generator state is
carried in a :class:`~cardspec.engine.state.State`, so copies share nothing).

>>> permutation(1, 0, 1, 5) == permutation(1, 0, 1, 5)
True
>>> sorted(permutation(1, 0, 1, 24)) == list(range(24))
True
>>> permutation(1, 0, 1, 24) != permutation(2, 0, 1, 24)
True
"""

from __future__ import annotations

import hashlib
import struct
from functools import cache


@cache
def _fmt(n: int) -> struct.Struct:
    return struct.Struct(f">{n}Q")


def _digest(seed: int, hand: int, event: int, nbytes: int) -> bytes:
    return hashlib.shake_128(f"cardspec/{seed}/{hand}/{event}".encode()).digest(nbytes)


def permutation(seed: int, hand: int, event: int, n: int) -> list[int]:
    """A uniformly random ordering of ``range(n)`` for one chance event."""
    keys = _fmt(n).unpack(_digest(seed, hand, event, 8 * n))
    return sorted(range(n), key=keys.__getitem__)


def randbelow(seed: int, hand: int, event: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` for one chance event.

    >>> 0 <= randbelow(3, -1, 0, 4) < 4
    True
    """
    x = int.from_bytes(_digest(seed, hand, event, 16), "big")
    return x % n  # bias below 2**-120 for any n of a card game
