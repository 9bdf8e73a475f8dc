"""The rule kernels keep their contracts, and CrossHair would notice if they did not.

* every kernel of :mod:`cardspec.engine.kernels` passes ``crosshair check``;
* planted bugs in copies of two kernels (carrying the real contracts) are caught;
* ``crosshair diffbehavior`` finds no difference between the engine's fast paths
  and their references, and does find one between two deliberately different
  readings of a rule;
* the inlined legal-play path of the tricks component agrees with its reference
  on played states, and the kernels' doctests pass.

The CrossHair tests run by default (CI); deselect them with ``-m "not crosshair"``.
"""

from __future__ import annotations

import doctest
import inspect
import os
import random
import time
from pathlib import Path
from types import ModuleType

import pytest
from helpers import led_suit, trick_seats, trick_winners

from cardspec.engine import handvalue, kernels, ranking
from cardspec.engine.components import tricks
from cardspec.engine.game import Game
from cardspec.engine.state import State
from cardspec.verification import contracts
from cardspec.verification.contracts import DiffPair, run_crosshair, run_diffbehavior

pytestmark = pytest.mark.pure_only  # doctests and CrossHair read the Python source of the kernels

REQUIRED = {"effective_suit", "card_power", "follow_mask", "trick_winner", "pairs_from_counts",
            "suit_sum_value", "set_value", "hand_value_units"}
BUDGET_S = 2.0
STEP_LIMIT_S = 300.0


@pytest.mark.parametrize("module", [kernels, handvalue, ranking, tricks])
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.crosshair
def test_crosshair_finds_no_counterexample_in_any_kernel() -> None:
    start = time.perf_counter()
    results = run_crosshair(BUDGET_S)
    elapsed = time.perf_counter() - start
    assert {r["function"] for r in results} >= REQUIRED
    bad = [r for r in results if r["status"] != "ok"]
    assert not bad, bad
    assert elapsed < STEP_LIMIT_S, f"the CrossHair step took {elapsed:.0f} s"


def _planted(tmp_path: Path, name: str, fn: str, old: str, new: str) -> str:
    """A copy of one kernel, with its real contracts, and one statement changed."""
    src = inspect.getsource(getattr(kernels, fn))
    assert old in src
    path = tmp_path / f"{name}.py"
    path.write_text(src.replace(old, new), encoding="utf-8")
    return str(path)


@pytest.mark.crosshair
def test_crosshair_catches_planted_bugs(tmp_path: Path) -> None:
    targets = [
        # three of a rank counted as two pairs
        _planted(tmp_path, "planted_pairs", "pairs_from_counts", "total += k >> 1",
                 "total += k // 2 + (k == 3)"),
        # the last played wins ties
        _planted(tmp_path, "planted_winner", "trick_winner", "if p > best:", "if p >= best:"),
    ]
    results = run_crosshair(BUDGET_S, targets=targets)
    assert [r["status"] for r in results] == ["counterexample", "counterexample"], results
    assert "pairs_from_counts(" in results[0]["detail"]
    assert "trick_winner(" in results[1]["detail"]


DIFFERENT_READINGS = '''
def pairs_each_card_once(k0: int, k1: int) -> int:
    """Three Jacks make one pair, four make two (the source's reading)."""
    return abs(k0) // 2 + abs(k1) // 2


def pairs_every_two_cards(k0: int, k1: int) -> int:
    """Every two cards of a rank are a pair (three Jacks would make three)."""
    return sum(k * (k - 1) // 2 for k in (abs(k0), abs(k1)))
'''


@pytest.mark.crosshair
def test_diffbehavior_separates_readings_and_matches_fast_paths(tmp_path: Path) -> None:
    (tmp_path / "readings.py").write_text(DIFFERENT_READINGS, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    planted = DiffPair("pairs: each card once vs every two cards", "readings.pairs_each_card_once",
                       "readings.pairs_every_two_cards", False, env)
    results = run_diffbehavior([planted, *contracts.default_pairs()], budget_s=6.0)
    by_name = {r["pair"]: r for r in results}

    found = by_name[planted.name]
    assert found["status"] == "different", found
    diff = contracts._parse_diff(found["detail"])
    assert diff is not None and max(abs(diff[0]["k0"]), abs(diff[0]["k1"])) >= 3, found

    must_agree = [r for r in results if r["expect_same"]]
    assert len(must_agree) >= 3
    assert all(r["status"] == "same" for r in must_agree), must_agree

    # Bird Dog's trump-order-bowers readings differ on the Jacks of the trump colour
    bowers = [r for r in results if "trump-order-bowers" in r["pair"]]
    assert bowers and all(r["status"] == "different" for r in bowers), bowers
    assert all(r["detail"].startswith("J") for r in bowers), bowers


def _kernel_winner(st: State, card: int) -> int:
    """The seat that wins the trick ``card`` completes, by :func:`kernels.trick_winner`."""
    tt = st.contract.tt
    assert tt is not None
    cards, seats = [*st.piles["trick"], card], [*trick_seats(st), st.cur]
    led = led_suit(st) if st.piles["trick"] else tt.eff_suit[card]
    return seats[kernels.trick_winner(tuple(tt.power[led][c] for c in cards))]


@pytest.mark.parametrize("system", ["euchre", "bird-dog-11"])
def test_inlined_fast_paths_match_the_kernels(system: str) -> None:
    """legal / is_legal / try_apply inline the follow rule and the winner loop; hold them to the kernels."""
    game = Game.from_system(system)
    rng = random.Random(7)
    plays = tricks_won = 0
    for seed in range(20):
        st = game.new_initial_state(seed)
        while st.winners is None:
            legal = st.legal_actions()
            comp = st.comp
            a = rng.choice(legal)
            expected = None
            if isinstance(comp, tricks.Tricks):
                assert legal == comp.legal_reference(st)
                for x in comp.play:
                    assert comp.is_legal(st, x) == (x in legal)
                illegal = [x for x in comp.play if x not in legal]
                if illegal:
                    assert not comp.try_apply(st.copy(), rng.choice(illegal))
                plays += 1
                if len(st.piles["trick"]) + 1 == st.cstate[comp.index].playing:  # type: ignore[union-attr]
                    expected = _kernel_winner(st, a - comp.play_base - 1)
            before, hands_before = len(trick_winners(st)), len(st.hand_results)
            st.apply(a)
            if expected is not None:
                won = (trick_winners(st)[-1] if len(trick_winners(st)) > before
                       else st.hand_results[hands_before]["trick_winners"][-1])
                assert won == expected
                tricks_won += 1
    assert plays > 100 and tricks_won > 20


def test_engine_tables_come_from_the_kernels() -> None:
    game = Game.from_system("euchre")
    r, d = game.ranking, game.deck
    assert r is not None
    hearts, clubs = d.suits.index("H"), d.suits.index("C")
    tt = game.trick_tables(hearts, -1)
    jack = d.ranks.index("J")
    for c in range(d.size):
        rank, suit = d.rank_of[c], d.suit_of[c]
        assert tt.eff_suit[c] == kernels.effective_suit(rank, suit, hearts, jack, r.suit_colors)
        power = kernels.card_power(rank, suit, hearts, clubs, jack, r.suit_colors, r.plain, r.trump, False)
        assert tt.power[clubs][c] == power
    order = sorted(range(d.size), key=lambda c: -tt.power[clubs][c])
    assert [d.names[c] for c in order[:3]] == ["JH", "JD", "AH"]
