"""Seeded chance and the bots' draws. A permutation is the positions sorted by the event digest's 64-bit keys,
ties by position; a bot draws an index as ``random.Random.randrange`` does.

From ``NUMPY_FROM`` items the engine sorts with numpy's stable argsort. These tests hold it to the
definition, computed here from hashlib alone, and to the plain sort on digests with forced ties.
"""

from __future__ import annotations

import hashlib
import random
import struct
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardspec.engine import chance
from cardspec.engine.chance import below


def reference(seed: int, hand: int, event: int, n: int) -> list[int]:
    """The permutation as the module docstring defines it, written from hashlib alone."""
    d = hashlib.shake_128(f"cardspec/{seed}/{hand}/{event}".encode()).digest(8 * n)
    keys = [int.from_bytes(d[8 * i:8 * i + 8], "big") for i in range(n)]
    return sorted(range(n), key=lambda i: (keys[i], i))


@pytest.mark.parametrize("n", [0, 1, 2, 5, chance.NUMPY_FROM - 1, chance.NUMPY_FROM, 24, 32, 52, 104, 162, 324])
def test_a_permutation_sorts_positions_by_the_digest_keys(n: int) -> None:
    for seed in range(40):
        got = chance.permutation(seed, 3, 1, n)
        assert got == reference(seed, 3, 1, n)
        assert sorted(got) == list(range(n))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3) | st.integers(0, 2**64 - 1), min_size=0, max_size=200))
def test_the_numpy_sort_is_the_plain_sort_ties_included(keys: list[int]) -> None:
    """Keys drawn mostly from 0..3, so that most lists hold ties, which both must break by position."""
    digest = struct.pack(f">{len(keys)}Q", *keys)
    assert chance._numpy_argsort()(digest) == chance._sorted_order(digest) == \
        sorted(range(len(keys)), key=lambda i: (keys[i], i))


@pytest.mark.pure_only  # it resets a module global that a compiled module keeps natively
def test_without_numpy_the_deal_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    with_numpy = [chance.permutation(s, 0, 1, 52) for s in range(20)]
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    monkeypatch.setattr(chance, "_argsort", None)
    assert [chance.permutation(s, 0, 1, 52) for s in range(20)] == with_numpy
    assert chance._argsort is chance._sorted_order


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(1, 5000), min_size=1, max_size=60))
def test_a_bot_draws_as_randrange_draws(seed: int, sizes: list[int]) -> None:
    """The bots' draw is ``randrange`` written out: the same numbers from the same generator, so records
    made before it (and by any client calling ``randrange``) still replay as played."""
    mine, theirs = random.Random(f"bots/{seed}"), random.Random(f"bots/{seed}")
    assert [below(mine.getrandbits, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert mine.getstate() == theirs.getstate()
