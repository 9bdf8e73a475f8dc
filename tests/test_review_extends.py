"""Errors met after load in a spec that ``extends`` another, and two clauses that were accepted silently.

* A scoring table with a gap, inherited from the parent file, stops a simulated match; the error names the
  parent file and the table's line there, and says the child extends it (not the child file, lineless).
* A clause that only an option set breaks, inherited from the parent, names the parent's line too.
* A pile trade's ``host_rounds`` naming a round the host phase does not have was accepted (the trade was then
  never offered in it); it is a spec error.
* Deal packets that, dealt in turn, overrun the hand size were cut short silently (``[2, 4]`` for five cards
  dealt 2 + 3); they are a spec error, but for a first packet of the whole hand at once (the-card-game's
  ``whole_hand``, ``[13]`` for hands of 3 to 13 cards).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_review_spec import line_of

from cardspec.cli import main
from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.spec import available, load


def family(tmp_path: Path, old: str, new: str) -> tuple[Path, Path]:
    """``parent.yaml`` (the bundled euchre, with ``old`` replaced by ``new``) and ``child.yaml``, extending it."""
    text = available()["euchre"].read_text(encoding="utf-8")
    assert text.count(old) == 1
    parent = tmp_path / "parent.yaml"
    parent.write_text(text.replace("id: euchre\n", "id: parent\n", 1).replace(old, new), encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("id: child\nextends: parent\ntitle: Child\n", encoding="utf-8")
    return parent, child


PACKETS = "  packets: {$option: deal_packets, map: {twos_then_threes: [2, 3], alternating: [[2, 3], [3, 2]]}}\n"
"""The bundled euchre's deal packets (an option: deal-packets)."""

GAP = ("        - when: {maker: false, tricks: [3, 5]}\n          then: 2\n",
       "        - when: {maker: false, tricks: [4, 5]}\n          then: 2\n")


def test_an_inherited_table_gap_met_in_play_names_the_parent_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parent, child = family(tmp_path, *GAP)
    assert main(["simulate", str(child), "-n", "3"]) == 2
    err = capsys.readouterr().err
    table_line = line_of(parent, "scoring.tables.0")
    assert f"{parent}:{table_line}: key 'scoring.tables.0': table 'hand_points': no row matches" in err, err
    assert "(inherited from parent.yaml, which child.yaml extends)" in err
    assert "in the match of seed" in err and "Traceback" not in err


def test_the_same_gap_in_the_parent_itself_names_it_without_inheritance(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parent, _child = family(tmp_path, *GAP)
    assert main(["simulate", str(parent), "-n", "3"]) == 2
    err = capsys.readouterr().err
    assert f"{parent}:{line_of(parent, 'scoring.tables.0')}: key 'scoring.tables.0'" in err
    assert "inherited" not in err


STRAY = ("both_rounds: [0, 1], \"off\": [0]}}", "both_rounds: [0, 7], \"off\": [0]}}")


def test_a_host_round_the_host_lacks_is_a_spec_error_naming_the_parents_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parent, child = family(tmp_path, *STRAY)
    load(str(child))  # the defaults do not use the stray round: the file loads
    with pytest.raises(SpecError) as info:
        Game(load(str(child)), {"farmers_hand": "both_rounds"})
    e = info.value
    assert e.file == str(parent) and e.key == "phases.1.host_rounds"
    assert e.line == line_of(parent, "phases.1.host_rounds")
    assert "host_rounds names rounds [7], but phase 'calling' has 2" in e.detail
    assert "farmers_hand=both_rounds" in e.detail and "which child.yaml extends" in e.detail
    assert main(["simulate", str(child), "--option", "farmers_hand=both_rounds", "-n", "1"]) == 2
    assert "host_rounds names rounds [7]" in capsys.readouterr().err


def test_packets_that_overrun_the_hand_are_a_spec_error(tmp_path: Path) -> None:
    parent, _child = family(tmp_path, PACKETS, "  packets: [2, 4]\n")
    with pytest.raises(SpecError) as info:
        load(str(parent))
    e = info.value
    assert e.key == "deal.packets" and e.line == line_of(parent, "deal.packets")
    assert "make 6 cards for the player 1 places left of the dealer, not the hand size 5" in e.detail


@pytest.mark.parametrize("packets", ["[5]", "[1]", "[3, 2]", "[2, 3]", "[9]"])
def test_packets_that_make_up_the_hand_or_deal_it_whole_are_accepted(tmp_path: Path, packets: str) -> None:
    parent, _child = family(tmp_path, PACKETS, f"  packets: {packets}\n")
    assert load(str(parent)).data["deal"]["packets"] == [int(x) for x in packets.strip("[]").split(",")]


def test_the_card_games_whole_hand_deal_still_deals_each_round_at_once() -> None:
    spec = load("the-card-game")
    st = Game(spec, {"deal_packets": "whole_hand"}).new_initial_state(1)
    assert [h.bit_count() for h in st.hands] == [3] * len(st.hands)  # the first round's hand of three


def test_options_that_leave_no_pickup_pile_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Two players, one deck (the text's "at least 1 deck per 2 players" with no extra) and no jokers: the 52
    cards all go into the 2 x 2 piles of 13, so the pickup pile is empty when play begins and every round would
    end with no turn. Refused, naming the options; with the jokers (two left over) it plays."""
    opts = {"players": 2, "extra_decks": 0, "jokers_per_deck": 0}
    with pytest.raises(SpecError) as info:
        Game.from_system("hand-and-foot", opts)
    e = info.value
    assert e.key == "phases.1.stock" and "the 'stock' pile is empty when the first turn begins" in e.detail
    assert "players=2, extra_decks=0, jokers_per_deck=0" in e.detail
    assert main(["simulate", "hand-and-foot", "-n", "1", *(f"--option={k}={v}" for k, v in opts.items())]) == 2
    assert "every round would end before anyone drew" in capsys.readouterr().err
    st = Game.from_system("hand-and-foot", {"players": 2, "extra_decks": 0}).new_initial_state(1)
    assert st.game.deck.size == 54  # two jokers beyond the 52 dealt: the pickup pile holds them


def test_packets_round_the_table_must_fill_every_hand(tmp_path: Path) -> None:
    """A round of dealing may give each player its own packet; every player's packets must still make up the
    hand: ``[[2, 3], [3, 3]]`` deals the first player 2 + 3 but the second 3 + 3 (cut to 2)."""
    parent, _child = family(tmp_path, PACKETS, "  packets: [[2, 3], [3, 3]]\n")
    with pytest.raises(SpecError) as info:
        load(str(parent))
    assert "make 6 cards for the player 2 places left of the dealer" in info.value.detail
    ok, _ = family(tmp_path, PACKETS, "  packets: [[2, 3], [3, 2]]\n")
    assert load(str(ok)).data["deal"]["packets"] == [[2, 3], [3, 2]]
