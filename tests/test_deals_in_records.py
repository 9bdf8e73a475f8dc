"""Records that list every hand's deal (``keep_deals``, ``cardspec simulate --deals``): another engine replays
them from the cards alone, with no seed and none of cardspec's shuffle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardspec.cli import main
from cardspec.engine.bulk import play_bulk, play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import deal_of, record_of, replay
from cardspec.engine.spec import available

SYSTEMS = sorted(available())


@pytest.mark.parametrize("system", SYSTEMS)
def test_kept_deals_replay_without_the_seed(system: str) -> None:
    """Every hand's kept deal is the one the seed dealt: the record with its seed removed replays to the same
    actions, hands and winners (the-card-game's deals change size by round; hand-and-foot's piles are dealt
    by the players after the deal, from the stock the deal lists)."""
    st, _ = play_stepped(Game.from_system(system), 4, "rule", hand_limit=3, keep_deals=True)
    rec = record_of(st)
    assert len(rec["deals"]) == len(st.hand_results)
    assert [d["dealer"] for d in rec["deals"]] == [r["dealer"] for r in st.hand_results]
    alone = dict(rec, seed=None)
    again = replay(alone).state
    assert again.history == st.history and again.hand_results == st.hand_results
    assert again.winners == st.winners


def test_the_first_kept_deal_is_the_deal_before_any_phase_began() -> None:
    """Hand and Foot's first phase deals each player's piles from the stock at once: the kept deal is the
    whole stock, where the state's own zones already show the piles dealt."""
    g = Game.from_system("hand-and-foot")
    st = g.new_initial_state(2, keep_deals=True)
    kept = record_of(st)["deals"][0]
    deck = g.deck.size
    assert [len(h) for h in kept["hands"]] == [0] * g.num_seats and len(kept["piles"]["stock"]) == deck
    now = deal_of(st)
    assert len(now["piles"]["stock"]) < deck  # what the state shows: the piles have left the stock


def test_a_state_keeps_no_deals_unless_asked() -> None:
    st = Game.from_system("euchre").new_initial_state(1)
    assert st.deal_log is None and "deals" not in record_of(st)


def test_a_copy_keeps_its_own_deal_log() -> None:
    st = Game.from_system("euchre").new_initial_state(1, keep_deals=True)
    c = st.copy()
    assert c.deal_log == st.deal_log and c.deal_log is not st.deal_log


def test_both_loops_keep_the_same_deals() -> None:
    g = Game.from_system("bid-euchre")
    a, _ = play_stepped(g, 9, "random", 4, keep_deals=True)  # random Bid Euchre need not end: 4 hands
    b, _ = play_bulk(g, 9, "random", 4, keep_deals=True)
    assert record_of(a) == record_of(b) and len(record_of(a)["deals"]) == len(a.hand_results)


def test_simulate_deals_writes_replayable_records_on_every_path(tmp_path: Path) -> None:
    """``--deals``: the same bytes through the step API, the bulk loop and two workers; each record replays
    from its deals with the seed removed."""
    outs = []
    for extra in ([], ["--fast"], ["--workers", "2"]):
        out = tmp_path / f"r{len(outs)}.jsonl"
        assert main(["simulate", "dirty-clubs", "-n", "3", "--seed", "7", "--records", str(out), "--deals",
                     *extra]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2]
    for line in outs[0].decode().splitlines():
        rec = json.loads(line)
        assert len(rec["deals"]) == len(rec["results"]["hands"])
        again = replay(dict(rec, seed=None)).state
        assert [r["scores"] for r in again.hand_results] == [r["scores"] for r in rec["results"]["hands"]]


def test_simulate_deals_without_records_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euchre", "-n", "1", "--deals"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardspec: error:") and "--deals" in err and "--records" in err
