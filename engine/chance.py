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
from collections.abc import Callable
from functools import cache
from typing import Any, Final


@cache
def _fmt(n: int) -> struct.Struct:
    return struct.Struct(f">{n}Q")


_absorbed: tuple[int, Any] = (0, hashlib.shake_128(b"cardspec/0/"))
"""The last seed asked for, and a SHAKE-128 object that has absorbed ``cardspec/<seed>/``: a copy of it
absorbs the rest of an event's name. Copying OpenSSL's context skips the hash's set-up (fetching the
algorithm), about half of a digest's cost (1.1 us against 2.1 on one core); the bytes are the same. One tuple,
replaced whole, so that threads never see one seed's object under another's."""


def _digest(seed: int, hand: int, event: int, nbytes: int) -> bytes:
    """The first ``nbytes`` of SHAKE-128 of ``cardspec/<seed>/<hand>/<event>``.

    >>> _digest(5, 2, 1, 16) == hashlib.shake_128(b"cardspec/5/2/1").digest(16) == _digest(5, 2, 1, 16)
    True
    """
    global _absorbed
    last = _absorbed
    if last[0] != seed:
        last = _absorbed = (seed, hashlib.shake_128(f"cardspec/{seed}/".encode()))
    h = last[1].copy()
    h.update(f"{hand}/{event}".encode())
    out: bytes = h.digest(nbytes)
    return out


NUMPY_FROM: Final = 12
"""From this many items, :func:`permutation` sorts the keys with numpy (measured on one core, compiled build:
2.6 us against 3.8 for Euchre's 24 cards, 3.2 against 6.5 for 52, 6.0 against 19 for 162; below 12 the
plain sort is the quicker)."""
_argsort: Callable[[bytes], list[int]] | None = None


def _numpy_argsort() -> Callable[[bytes], list[int]]:
    """The numpy sort of :func:`permutation`, imported on first use (numpy takes about 75 ms to import, which a
    replay of recorded deals never needs). Without numpy, the plain sort."""
    global _argsort
    if _argsort is None:
        try:
            import numpy as np
        except ImportError:  # numpy is a dependency; without it the same order (tests/test_chance.py)
            _argsort = _sorted_order
        else:
            be_u64 = np.dtype(">u8")

            def argsort(digest: bytes) -> list[int]:
                order: list[int] = np.frombuffer(digest, be_u64).argsort(kind="stable").tolist()
                return order

            _argsort = argsort
    return _argsort


def _sorted_order(digest: bytes) -> list[int]:
    """The positions ``range(n)`` sorted by the digest's ``n`` big-endian 64-bit keys, ties by position (a stable
    sort): the definition of :func:`permutation`, which numpy's stable argsort gives too."""
    n = len(digest) // 8
    keys = _fmt(n).unpack(digest)
    return sorted(range(n), key=keys.__getitem__)


def permutation(seed: int, hand: int, event: int, n: int) -> list[int]:
    """A uniformly random ordering of ``range(n)`` for one chance event: the positions sorted by ``n`` 64-bit
    keys from the event's digest, ties by position (:func:`_sorted_order`; from :data:`NUMPY_FROM` items, the
    same order by numpy's stable argsort)."""
    digest = _digest(seed, hand, event, 8 * n)
    if n < NUMPY_FROM:
        return _sorted_order(digest)
    return (_argsort or _numpy_argsort())(digest)


def randbelow(seed: int, hand: int, event: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` for one chance event.

    >>> 0 <= randbelow(3, -1, 0, 4) < 4
    True
    """
    x = int.from_bytes(_digest(seed, hand, event, 16), "big")
    return x % n  # bias below 2**-120 for any n of a card game


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``n >= 1``, drawn as ``random.Random.randrange(n)`` draws it (CPython
    3.10 to 3.13 alike): ``n.bit_length()`` bits at a time until the draw is below ``n``. Written out, so that a
    bot draws the same whatever the Python version, and without ``randrange``'s argument handling (a fifth of
    the bulk loop's time went there).

    >>> import random
    >>> r, s = random.Random("bots/7"), random.Random("bots/7")
    >>> [below(r.getrandbits, n) for n in (1, 2, 3, 5, 24, 100)] == [s.randrange(n) for n in (1, 2, 3, 5, 24, 100)]
    True
    """
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
