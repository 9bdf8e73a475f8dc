""":func:`melds.screen_held`, written for the compiled build (bit fields, no per-call lists, an early stop),
gives exactly what the plain form gives: per-rank and per-suit lists, every card's share, then the test.

The reference below is that plain form, as it stood before the rewrite; hands are drawn by hypothesis over
card-id tables with jokers, copies, wild cards, several suits and every run rule, and held in any order
(the rewrite looks each suit's run shares up once per stretch of cards of that suit).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardspec.engine import melds


def _reference(held: list[int], rank_of: tuple[int, ...], suit_of: tuple[int, ...], wild: tuple[bool, ...],
               n_suits: int, kinds: int, min_size: int, min_natural: int, lines: tuple[int, int, bool, bool, bool],
               unmeldable_ranks: tuple[int, ...] = ()) -> list[int]:
    n_ranks = lines[0]
    n_wild = sum(1 for c in held if wild[c])
    count = [0] * n_ranks
    have = [0] * n_suits
    for c in held:
        if not wild[c] and rank_of[c] >= 0:
            count[rank_of[c]] += 1
            if suit_of[c] >= 0:
                have[suit_of[c]] |= 1 << rank_of[c]
    set_share = [melds._NO_MELD] * n_ranks
    if kinds & melds.SET:
        for r, k in enumerate(count):
            if k and k >= min_natural and k + n_wild >= min_size and r not in unmeldable_ranks:
                set_share[r] = max(0, min_size - k) * melds._SHARE // k
    runs = [melds._run_shares(m, n_wild, min_size, min_natural, melds.run_lines(*lines), lines[4], n_ranks)
            if m and kinds & melds.RUN else None for m in have]
    shares = []
    for c in held:
        if wild[c]:
            shares.append(0)
        elif rank_of[c] < 0:
            shares.append(melds._NO_MELD)
        else:
            run = runs[suit_of[c]] if suit_of[c] >= 0 else None
            shares.append(min(set_share[rank_of[c]], run[rank_of[c]] if run is not None else melds._NO_MELD))
    least = sum(shares) - n_wild * melds._SHARE
    if max(shares, default=0) < least:
        return []
    return [c for c, share in zip(held, shares, strict=True) if share >= least + (melds._SHARE if wild[c] else 0)]


@st.composite
def _screens(draw: st.DrawFn) -> tuple[object, ...]:
    n_ranks = draw(st.sampled_from([13, 7, 5, 3, 1, 17]))  # 17: more ranks than a memo of run shares is kept for
    n_suits = draw(st.integers(1, 4))
    ace_rank = draw(st.integers(-1, n_ranks - 1))
    lines = (n_ranks, ace_rank, draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))
    n_cards = draw(st.integers(1, 40))
    faces = st.tuples(st.integers(-1, n_ranks - 1), st.integers(-1, n_suits - 1), st.booleans())
    table = draw(st.lists(faces, min_size=n_cards, max_size=n_cards))
    near = draw(st.integers(0, n_ranks - 1))  # most cards near one rank, so that melds are common
    table = [(r if r < 0 or i % 3 == 0 else (near + r % 3) % n_ranks, s, w and i % 4 == 0)
             for i, (r, s, w) in enumerate(table)]
    held = draw(st.lists(st.integers(0, n_cards - 1), max_size=18, unique=True))
    if draw(st.booleans()):
        held.sort()  # as a hand mask lists them: suit by suit
    unmeldable = tuple(draw(st.lists(st.integers(0, n_ranks - 1), max_size=2)))
    return (held, tuple(f[0] for f in table), tuple(f[1] for f in table), tuple(f[2] for f in table), n_suits,
            draw(st.integers(0, 3)), draw(st.integers(1, 5)), draw(st.integers(0, 3)), lines, unmeldable)


@settings(max_examples=3000, deadline=None)
@given(_screens())
def test_screen_held_is_the_plain_screen(args: tuple[object, ...]) -> None:
    held = args[0]
    assert isinstance(held, list)
    want = _reference(list(held), *args[1:])  # type: ignore[arg-type]
    assert melds.screen_held(list(held), *args[1:]) == want  # type: ignore[arg-type]
