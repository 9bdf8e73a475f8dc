"""A scoring row's condition on an integer fact, as z3 is given it: runs of consecutive values as ranges."""

from __future__ import annotations

import itertools

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from cardspec.verification.facts import _runs


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(-5, 60), min_size=1, max_size=40), st.integers(-8, 64))
def test_a_value_meets_the_runs_exactly_when_it_is_in_the_set(values: set[int], probe: int) -> None:
    ctx = z3.Context()
    x = z3.Int("x", ctx)
    cond = z3.Or(_runs(x, sorted(values)))
    s = z3.Solver(ctx=ctx)
    s.add(x == probe, cond)
    assert (s.check() == z3.sat) == (probe in values)


@given(st.sets(st.integers(0, 100), min_size=1, max_size=60))
def test_one_term_per_run_of_consecutive_values(values: set[int]) -> None:
    xs = sorted(values)
    runs = 1 + sum(1 for a, b in itertools.pairwise(xs) if b != a + 1)
    assert len(_runs(z3.Int("x", z3.Context()), xs)) == runs
