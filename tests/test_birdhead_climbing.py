"""The ``climbing_tricks`` component held to a brute-force reading of the BirdHead rules.

On positions reached by seeded random play, under every option set of the spec, the legal plays
equal those of a direct reading of the clauses (every set of cards in hand, checked against
"lead any single card or up to 3 cards of the same rank, provided that the player keep at least one
card", "plays the same number of cards that were led", "equal or higher" compared "respectively",
or "the lowest card(s) in the hand"), and every trick's winner is the one the clause "the highest
card(s) ... (if there is more than one player, the last player in them)" names. The general
parameter ``ties: first_wins`` (no spec uses it) is pinned on deal A of the rule tests.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from cardspec.engine.components.climbing_tricks import ClimbingTricks
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "birdhead"
CASES = load(SYSTEM).option_sets()


def ge(mine: list[int], theirs: list[int], how: str) -> bool:
    """The "equal or higher" rule read directly (ranks as numbers)."""
    if how == "above_highest":
        return all(a >= max(theirs) for a in mine)
    return all(a >= b for a, b in zip(sorted(mine), sorted(theirs), strict=True))


def rank(g: Game, c: int) -> int:
    return int(g.deck.ranks[g.deck.rank_of[c]])


def reference_plays(st: State, plays: list[list[int]], best: int) -> set[tuple[int, ...]]:
    """Every legal play (sorted ranks) of the player to act, by trying every set of cards in hand."""
    g = st.game
    hand = sorted(rank(g, c) for c in g.deck.cards_of(st.hands[st.cur]))
    out: set[tuple[int, ...]] = set()
    if not plays:
        for k in range(1, 4):
            for cards in combinations(hand, k):
                if len(set(cards)) == 1 and len(hand) - k >= 1:
                    out.add(tuple(cards))
        return out
    k = len(plays[0])
    how = g.options["respectively"]
    against = {"best": [plays[best]], "previous": [plays[-1]], "every": plays}[g.options["compare_with"]]
    for cards in combinations(hand, k):
        if all(ge(list(cards), p, how) for p in against):
            out.add(tuple(sorted(cards)))
    if not out or g.options["lowest_cards"] == "any_time":  # "the lowest card(s) in the hand"
        out.add(tuple(hand[:k]))
    return out


def reference_best(g: Game, plays: list[list[int]]) -> int:
    """The index of the winning play: the last that is equal or higher than the winning play so far
    (or, under highest_card, whose highest card is at least the winning play's)."""
    best = 0
    for i in range(1, len(plays)):
        if g.options["trick_winner"] == "highest_card":
            if max(plays[i]) >= max(plays[best]):
                best = i
        elif g.options["trick_winner"] == "highest_cards":  # the highest cards first, then the next
            if sorted(plays[i], reverse=True) >= sorted(plays[best], reverse=True):
                best = i
        elif ge(plays[i], plays[best], g.options["respectively"]):
            best = i
    return best


@pytest.mark.parametrize("opts", CASES, ids=[",".join(f"{k}={v}" for k, v in o.items()) or "defaults"
                                             for o in CASES])
def test_legal_plays_and_trick_winners_match_the_rules(opts: dict[str, Any]) -> None:
    g = Game.from_system(SYSTEM, opts)
    phase = g.phases[0]
    assert isinstance(phase, ClimbingTricks)
    for seed in range(2):
        st = g.new_initial_state(seed)
        rng = random.Random(seed)
        plays: list[list[int]] = []
        seats: list[int] = []
        while not st.is_terminal() and st.hand_no < 3:
            best = reference_best(g, plays) if plays else 0
            got = {tuple(sorted(rank(g, c) for c in g.codec.cards(a))) for a in st.legal_actions()}
            assert got == reference_plays(st, plays, best), (opts, seed, plays)
            a = rng.choice(st.legal_actions())
            seat, hand_no, done = st.cur, st.hand_no, len(phase.trick_winners(st))
            plays.append([rank(g, c) for c in g.codec.cards(a)])
            seats.append(seat)
            st.apply(a)
            finished = st.hand_no != hand_no or st.is_terminal()
            won = st.hand_results[-1]["trick_winners"] if finished else phase.trick_winners(st)
            if len(won) > done:
                assert won[-1] == seats[reference_best(g, plays)], (opts, seed, plays, seats)
                plays, seats = [], []


def test_ties_first_wins_keeps_the_first_of_equal_plays(tmp_path: Path) -> None:
    """``ties: first_wins``: in deal A's third trick (9-9 led by seat 0, 4-4, 6-6, then 9-9 by seat 3) the
    first of the equal plays, seat 0's, wins, where birdhead's "the last player in them" gives seat 3."""
    from test_rules_birdhead import DEAL_A, deal, play, play_deal_a_to_t3

    text = Path(load(SYSTEM).file).read_text(encoding="utf-8")
    path = tmp_path / "birdhead-first.yaml"
    path.write_text(text.replace("ties: last_wins", "ties: first_wins").replace("id: birdhead", "id: birdhead-first"),
                    encoding="utf-8")
    g = Game(load(str(path)))
    st = g.new_initial_state(3, deals=[deal(DEAL_A)])
    play_deal_a_to_t3(st)
    play(st, 9, 9), play(st, 4, 4), play(st, 6, 6), play(st, 9, 9)
    assert g.phases[0].trick_winners(st) == [0, 0, 0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("opts", load("birdhead").option_sets(),
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_the_fast_play_lister_agrees_with_the_general_one(opts: dict[str, Any]) -> None:
    """``climbing_tricks`` lists plays from the hand's bits when card ids ascend with rank (Birdhead's deck);
    the general lister (``_legal``, by ranks and sets) is the reference. Both give the same list at every
    position of seeded random matches, under every option set."""
    g = Game(load("birdhead"), opts)
    comp = next(ph for ph in g.phases if isinstance(ph, ClimbingTricks))
    assert comp._blocks  # the fast path is the one in use
    rnd = random.Random(7)
    seen = 0
    for seed in range(6):
        st = g.new_initial_state(seed)
        while not st.is_terminal() and len(st.hand_results) < 4:
            legal = st.legal_actions()
            if st.comp is comp:
                cs = st.cstate[comp.index]
                assert comp._legal_fast(cs, st.hands[st.cur]) == comp._legal(st, st.hands[st.cur])
                seen += 1
            st.apply(rnd.choice(legal))
    assert seen > 100
