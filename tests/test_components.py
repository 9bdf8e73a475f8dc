"""Component behaviour that the three bundled specs do not reach through their defaults:
decision-table hit policies and run-time errors, play without trump, optional clauses left
out, and the match rules' other readings. Each case builds a small variant in memory."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from helpers import trick_winners

from cardspec.engine.game import Game
from cardspec.engine.spec import Spec, load
from cardspec.engine.tables import DecisionTable, TableError

SRC = {"doc": "x.txt", "quote": "q"}


def table(rows: list[dict[str, Any]], hit: str = "unique") -> DecisionTable:
    spec = {"id": "t", "source": SRC,
            "inputs": {"n": {"type": "int", "min": 0, "max": 5}, "b": {"type": "bool"},
                       "e": {"type": "enum", "values": ["x", "y", "z"]}},
            "rows": [{**r, "source": SRC} for r in rows]}
    return DecisionTable.build(spec, hit, "f.yaml")


def test_table_volume_counts_every_input_combination() -> None:
    t = table([{"when": {"n": [0, 2], "e": ["x", "y"]}, "then": 1}, {"when": {}, "then": 0}], "first")
    assert [r.volume for r in t.rows] == [3 * 2 * 2, 6 * 2 * 3]
    assert t.rows[0].source is not None and t.rows[0].source.quote == "q"
    assert t.facts_needed() == {"n", "b", "e"}


def test_table_linear_output_with_offset() -> None:
    t = table([{"when": {}, "then": {"add": 2, "per": {"n": 3}}}])
    assert t.evaluate({"n": 4, "b": False, "e": "x"}) == 14
    assert t.rows[0].add == 2 and dict(t.rows[0].per) == {"n": 3}


def test_unique_table_refuses_a_gap_and_an_overlap_at_run_time() -> None:
    t = table([{"when": {"n": [0, 3]}, "then": 1}, {"when": {"n": [3, 4]}, "then": 1}])
    with pytest.raises(TableError, match=r"table 't': no row matches \{'n': 5"):
        t.evaluate({"n": 5, "b": True, "e": "z"})
    with pytest.raises(TableError, match="table 't': 2 rows match"):
        t.evaluate({"n": 3, "b": True, "e": "z"})  # same result, still two rows under 'unique'
    assert t.evaluate({"n": 1, "b": True, "e": "z"}) == 1


def test_first_and_most_specific_policies() -> None:
    rows = [{"when": {"n": [0, 5]}, "then": 1}, {"when": {"n": 5}, "then": 2}]
    assert table(rows, "first").evaluate({"n": 5, "b": False, "e": "x"}) == 1
    assert table(rows, "most_specific").evaluate({"n": 5, "b": False, "e": "x"}) == 2
    assert table(rows, "most_specific").evaluate({"n": 4, "b": False, "e": "x"}) == 1
    tie = [{"when": {"n": 5}, "then": 1}, {"when": {"b": True, "e": ["x", "y", "z"], "n": [5, 5]}, "then": 2}]
    t = table(tie, "most_specific")
    assert t.rows[0].volume == 6 and t.rows[1].volume == 3
    clash = [{"when": {"n": [4, 5], "e": "x"}, "then": 1}, {"when": {"n": 5, "e": ["x", "y"]}, "then": 2}]
    t2 = table(clash, "most_specific")
    assert t2.rows[0].volume == t2.rows[1].volume == 4
    with pytest.raises(TableError, match="2 rows match"):
        t2.evaluate({"n": 5, "b": True, "e": "x"})
    agree = [{"when": {"n": [4, 5], "e": "x"}, "then": 1}, {"when": {"n": 5, "e": ["x", "y"]}, "then": 1}]
    assert table(agree, "most_specific").evaluate({"n": 5, "b": True, "e": "x"}) == 1


def variant(system: str, edit: Any, options: dict[str, Any] | None = None) -> Game:
    base = load(system)
    data = copy.deepcopy(base.data)
    edit(data)
    return Game(Spec(data, base.file, base.loaded), options)


def test_play_without_trump_the_led_suit_wins() -> None:
    """With no trump made (no calling phase), the highest card of the led suit takes the trick."""
    def no_calling(d: dict[str, Any]) -> None:
        d["phases"] = [p for p in d["phases"] if p["component"] == "tricks"]
        d["scoring"]["tables"] = [{"id": "per_trick", "source": SRC, "inputs": {},
                                   "rows": [{"when": {}, "then": {"per": {"tricks": 1}}, "source": SRC}]}]
    g = variant("euchre", no_calling)
    deal = {"dealer": 0, "hands": [["9C", "10C", "JC", "QC", "KC"], ["AC", "9D", "10D", "JD", "QD"],
                                   ["KD", "AD", "9H", "10H", "JH"], ["QH", "KH", "AH", "9S", "10S"]],
            "piles": {"kitty": ["JS", "QS", "KS", "AS"]}}
    st = g.new_initial_state(None, [deal])
    assert st.contract.trump == -1 and st.contract.maker == -1 and st.current_player() == 1
    for name in ("play JD", "play AD", "play 9S", "play KC"):
        st.apply_name(name)
    assert trick_winners(st) == [2]  # AD beats JD; the Jack of diamonds is no bower without trump
    assert st.contract.tt is not None and st.contract.tt.trump == -1


def test_hand_value_defaults_and_zero_values() -> None:
    def edit(d: dict[str, Any]) -> None:
        d["hand_value"]["values"] = {"A": 11, "K": 0}
        d["hand_value"].pop("sets")
    g = variant("riding-the-bus", edit)
    hv = g.hand_value
    assert hv is not None and hv.set_size == 0
    m = g.deck.mask([g.deck.parse("AH"), g.deck.parse("KH"), g.deck.parse("2H")])
    assert hv.value(m) == 22  # 11 points in half points; K is worth 0, 2 is unlisted (0)
    three = g.deck.mask([g.deck.parse("4H"), g.deck.parse("4C"), g.deck.parse("4S")])
    assert hv.value(three) == 0  # no set bonus without a sets clause


def test_draw_discard_without_its_optional_clauses() -> None:
    """No taking, no knocking, no instant win: a round ends only when the stock runs out."""
    def edit(d: dict[str, Any]) -> None:
        ph = d["phases"][0]
        for k in ("take_several", "knock", "instant_win", "discard_drawn"):
            ph.pop(k)
        ph["stock_exhausted"] = "end_round"
    g = variant("riding-the-bus", edit, {"players": 15})
    st = g.new_initial_state(3)
    seen: set[str] = set()
    while not st.hand_results:
        names = st.legal_action_names()
        seen.update(n.split()[0] for n in names)
        st.apply_name(names[0] if names[0] != "draw discard" else names[-1])
    assert "knock" not in seen and "take" not in seen
    assert st.hand_results[0]["ended_by"] == "exhausted"


def test_simultaneous_target_highest_wins_or_an_exact_tie_plays_on() -> None:
    g = Game.from_system("bird-dog-11", {"simultaneous_target": "highest_wins"})
    st = g.new_initial_state(2)
    st.counters = [12, 11, 3]
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners == (0,)
    st2 = g.new_initial_state(2)
    st2.counters = [12, 12, 3]
    g.match.after_hand(st2, [0, 0, 0])
    # two-reach-eleven, highest_wins: "only an exact tie forces the extra hand"
    assert st2.winners is None and st2.extra_hand
    st3 = Game.from_system("bird-dog-11").new_initial_state(2)
    st3.counters = [12, 11, 3]
    st3.game.match.after_hand(st3, [0, 0, 0])
    assert st3.winners is None and st3.extra_hand


def test_dealer_rotation_right_skips_players_who_are_out() -> None:
    g = Game.from_system("riding-the-bus", {"dealer_rotation": "right"})
    st = g.new_initial_state(5)
    first = st.dealer
    st.active[(first - 1) % 4] = False
    st.winners = None
    st._next_hand()
    assert st.dealer == (first - 2) % 4
    g2 = Game.from_system("riding-the-bus")
    st2 = g2.new_initial_state(5)
    st2._next_hand()
    assert st2.dealer == (first + 1) % 4


def test_fewest_strikes_breaks_a_last_round_tie() -> None:
    g = Game.from_system("riding-the-bus", {"players": 2, "all_out": "fewest_strikes"})
    st = g.new_initial_state(1)
    st.counters = [4, 3]  # both over the limit of 3 after the same round
    g.match.after_hand(st, [2, 1])
    assert st.winners == (1,)


def test_facts_see_seat_zero_as_maker_and_no_knock() -> None:
    g = Game.from_system("euchre")
    st = g.new_initial_state(1)
    st.contract.maker = 0
    st.tally["tricks"] = [3, 1, 0, 1]
    facts = g.scoring.hand_facts(st)
    assert facts[0]["maker"] is True and facts[0]["trump_made"] is True and facts[1]["trump_made"] is True
    assert facts[0]["tricks"] == 3 and facts[1]["tricks"] == 2
    rb = Game.from_system("riding-the-bus")
    st2 = rb.new_initial_state(1)
    f2 = rb.scoring.hand_facts(st2)
    assert not any(f["knocker"] for f in f2)


def test_fact_vocabulary_of_each_system() -> None:
    """The facts each system's tables may read, with their exact domains."""
    tf = (False, True)
    e = Game.from_system("euchre").scoring.facts
    assert dict(e) == {"tricks": (0, 1, 2, 3, 4, 5), "maker": tf, "trump_made": tf, "alone": tf, "alone_against": tf,
                       "defend_alone": tf, "defend_alone_against": tf}
    b = Game.from_system("bird-dog-11").scoring.facts
    assert dict(b) == {"tricks": tuple(range(8)), "maker": tf, "trump_made": tf, "pairs": tuple(range(13)),
                       "most_pairs": tf, "nil": ("none", "made", "broken"),
                       "nil_against": ("none", "made", "broken")}
    r = Game.from_system("riding-the-bus").scoring.facts
    # only what its parts declare: no tricks phase, no turn-up, so no tricks, maker or trump_made
    assert dict(r) == {"lowest": tf, "knocker": tf, "ended_by": ("knock", "instant", "exhausted")}
    assert Game.from_system("bird-dog-11").scoring.pairs_source is not None
    assert all(t.hit == "unique" for t in Game.from_system("riding-the-bus").scoring.tables)


FARMER = {"dealer": 0, "hands": [["9C", "10C", "JC", "QC", "KC"], ["9D", "10D", "9H", "JD", "QD"],
                                 ["KD", "AD", "AC", "10H", "JH"], ["QH", "KH", "AH", "9S", "10S"]],
          "piles": {"kitty": ["JS", "QS", "KS", "AS"]}}


@pytest.mark.parametrize("scope", ["turn", "hand"])
def test_farmers_hand_pass_scope(scope: str) -> None:
    """Seat 1 trades 9D 10D 9H for the bottom three kitty cards; in round 2 it may only pass
    when the trade was its pass for the whole hand."""
    g = Game.from_system("euchre", {"farmers_hand_pass": scope})
    st = g.new_initial_state(None, [FARMER])
    st.apply_name("farmers_hand 9D 10D 9H")
    held = {g.deck.names[c] for c in g.deck.cards_of(st.hands[1])}
    assert held == {"JD", "QD", "QS", "KS", "AS"}  # the bottom three, top card JS still turned
    kitty = [g.deck.names[c] for c in reversed(st.piles["kitty"])]  # top first
    assert kitty[0] == "JS" and set(kitty[1:]) == {"9D", "10D", "9H"}
    for _ in range(3):
        st.apply_name("pass")  # seats 2, 3, 0: round 1 over
    assert st.current_player() == 1
    names = st.legal_action_names()
    assert names == (["pass"] if scope == "hand" else ["pass", "name C", "name D", "name H"])


def test_discarding_the_drawn_card_forbidden() -> None:
    g = Game.from_system("riding-the-bus", {"discard_drawn": "forbidden", "players": 2})
    st = g.new_initial_state(6)
    st.apply_name("draw stock")
    drawn_ok = st.legal_action_names()
    assert len(drawn_ok) == 4  # a card from the pickup pile may go straight back
    st.apply_name(drawn_ok[0])
    top = g.deck.names[st.piles["discard"][-1]]
    st.apply_name("draw discard")
    assert f"discard {top}" not in st.legal_action_names() and len(st.legal_action_names()) == 3
    allowed = Game.from_system("riding-the-bus", {"players": 2}).new_initial_state(6)
    allowed.apply_name("draw stock")
    allowed.apply_name(drawn_ok[0])
    allowed.apply_name("draw discard")
    assert f"discard {top}" in allowed.legal_action_names()


def test_reshuffle_keeps_the_top_discard() -> None:
    """When the pickup pile is empty, the discards under the top card become the new pickup pile."""
    g = Game.from_system("riding-the-bus", {"players": 2})
    st = g.new_initial_state(8)
    st.piles["discard"] = st.piles["stock"][:-1]
    top = st.piles["stock"][-1]
    st.piles["discard"].append(top)
    st.piles["stock"] = []
    under = sorted(st.piles["discard"][:-1])
    st.comp._begin_turn(st, st.current_player())  # type: ignore[attr-defined]
    assert st.piles["discard"] == [top]
    assert sorted(st.piles["stock"]) == under and len(under) > 1
    ts = st.cstate[st.phase]
    assert ts.stage == "draw" and ts.drawn == -1  # type: ignore[union-attr]


def test_declarer_leads_under_the_other_reading() -> None:
    for reading, leader_is_maker in (("declarer", True), ("left_of_dealer", False)):
        g = Game.from_system("bird-dog-11", {"first_leader": reading})
        st = g.new_initial_state(4)
        st.apply_name("pass")
        st.apply_name("declare")  # the second player declares
        maker = st.contract.maker
        while st.phase == 1:
            st.apply_name("pass")
        assert (st.current_player() == maker) is leader_is_maker
        assert st.current_player() == (maker if leader_is_maker else (st.dealer + 1) % 3)
