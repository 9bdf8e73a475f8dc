"""The general parameters of ``drop_out``, ``up_card`` / ``up_card_exchange``, ``turn_up_trump.auto_trump``
and ``match.end.instant_win`` that the Buck Euchre specs do not exercise, and the clear errors each gives on
bad input (the file and the key named).

Each case edits the buck-euchre (or dirty-clubs) spec in memory; expected behaviour follows from the
component docstrings: the parameter values, not the game, decide.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from helpers import act

from cardspec.engine.components.declared import HAND
from cardspec.engine.components.drop_out import DropOut
from cardspec.engine.components.up_card import UpCardExchange
from cardspec.engine.errors import IllegalActionError, SpecError
from cardspec.engine.game import Game
from cardspec.engine.spec import Spec, load

DEAL_S = {"dealer": 0, "hands": [h.split() for h in ("9C 10C QC KC AC", "JH JD AH 9S 10S", "JC JS QS QD 10D",
                                                      "AS KS AD KD 9D")], "piles": {"kitty": ["10H", "9H", "KH", "QH"]}}
DEAL_N = {"dealer": 0, "hands": [h.split() for h in ("9C 10C QC KC AC", "JH 9S 10S QS KS", "QH JD AD KD 10D",
                                                      "9H 10H KH AH AS")], "piles": {"kitty": ["9D", "JC", "JS", "QD"]}}


def edited(system: str, edit: Callable[[dict[str, Any]], None]) -> Game:
    base = load(system)
    data = copy.deepcopy(base.data)
    edit(data)
    return Game(Spec(data, base.file, base.loaded))


def drop_clause(d: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in d["phases"] if p["component"] == "drop_out")


def test_forbid_at_or_below_bars_a_low_score_from_dropping() -> None:
    """``forbid_at_or_below: 5`` (buck-euchre-3p's "A player whose score is five points or less is not
    allowed to drop out"): seat 2 at 5 may only stay; seat 3 at 6 may drop."""
    g = edited("buck-euchre", lambda d: drop_clause(d).update(forbid_at_or_below=5))
    st = g.new_initial_state(seed=1, deals=[DEAL_S])
    st.counters[:] = [25, 25, 5, 6]
    act(st, "order_up", "discard 9C")
    assert st.current_player() == 2 and st.legal_action_names() == ["stay"]
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("drop")
    assert "5 or less" in exc.value.reason
    act(st, "stay")
    assert st.current_player() == 3 and st.legal_action_names() == ["stay", "drop"]


def test_who_all_asks_the_maker_last_and_order_dealer_left() -> None:
    """``who: all`` asks the maker too, last; ``order: dealer_left`` starts left of the dealer. Seat 2 names
    spades in the second round: dealer_left asks 1, 3, 0 then the maker 2."""
    g = edited("buck-euchre", lambda d: drop_clause(d).update(who="all", order="dealer_left"))
    st = g.new_initial_state(seed=1, deals=[DEAL_S])
    act(st, *["pass"] * 5, "name S")
    asked = []
    while st.comp.kind == "drop_out":
        asked.append(st.current_player())
        act(st, "stay")
    assert asked == [1, 3, 0, 2]
    assert next(p for p in g.phases if isinstance(p, DropOut)).declarations().actions_per_hand == 4


def test_skip_when_no_trump_skips_even_with_a_maker() -> None:
    """``skip_when: [no_trump]``: a bidder who names no trumps (dirty-clubs) gets no stay-or-drop round;
    with the spec's ``[no_maker]`` the others are asked."""
    for skip, asked in ((["no_trump"], False), (["no_maker"], True)):
        def set_skip(d: dict[str, Any], skip: list[str] = skip) -> None:
            drop_clause(d).update(skip_when=skip)

        g = edited("dirty-clubs", set_skip)
        st = g.new_initial_state(seed=1, deals=[DEAL_S])
        act(st, "bid 1", "pass", "pass", "pass", "name NT", "pass")
        assert (st.comp.kind == "drop_out") is asked


def test_up_card_exchange_declares_a_one_card_swap() -> None:
    """The exchange swaps one hand card for the turned card (declared for the conservation proof), at most
    one action a hand."""
    g = Game.from_system("dirty-clubs")
    d = next(p for p in g.phases if isinstance(p, UpCardExchange)).declarations()
    (t,) = d.transfers
    assert (t.source, t.dest, t.count, t.swap, t.actions) == (HAND, "kitty", 1, True, ("exchange",))
    assert d.actions_per_hand == 1


def test_instant_win_fires_before_the_end_rule() -> None:
    """``instant_win: {when: {tricks: 5}}``: a player who takes all five tricks wins though nowhere near zero;
    without the clause the match goes on (25 - 5 = 20)."""
    hands = ("9H 10H QH KH AH", "JC JS AC KC QC", "9S 10S QS KS AS", "JH JD AD KD QD")
    deal_f = {"dealer": 0, "hands": [h.split() for h in hands], "piles": {"kitty": ["9C", "10C", "9D", "10D"]}}

    def drop_instant_win(d: dict[str, Any]) -> None:
        d["match"]["end"].pop("instant_win")

    for keep in (True, False):
        g = edited("buck-euchre", (lambda d: None) if keep else drop_instant_win)
        st = g.new_initial_state(seed=1, deals=[deal_f])
        for c in ("JC", "9S", "JH", "9H", "JS", "10S", "JD", "10H", "AC", "QS", "AD", "QH", "KC", "KS", "KD", "KH",
                  "QC", "AS", "QD", "AH"):
            act(st, f"play {c}")
        assert (st.winners == (1,)) is keep and st.counters[1] == 20


def test_all_pass_no_trump_has_no_maker() -> None:
    """``turn_up_trump.all_pass: no_trump``: after two rounds of passes the contract has no trump and no
    maker (the trick tables are those of no trump)."""
    g = Game.from_system("buck-euchre")
    st = g.new_initial_state(seed=1, deals=[DEAL_N])
    act(st, *["pass"] * 8)
    assert st.contract.trump == -1 and st.contract.maker == -1 and st.contract.tt is not None


def up(d: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in d["phases"] if p["component"] == "up_card")


IW = {"source": {"doc": "003_da241fe61ee7e3bf.txt",
                  "quote": "If anyone manages to take all five tricks, they immediately win the entire game."}}
"""An instant_win clause's source (buck-euchre's is an option map; the cases below replace it)."""

ERRORS: list[tuple[str, str, Callable[[dict[str, Any]], None], str, str]] = [
    ("buck-euchre", "drop who", lambda d: drop_clause(d).update(who="dealer"),
     "who must be one of ['not_maker', 'all'], got 'dealer'", "phases.2.who"),
    ("buck-euchre", "drop order", lambda d: drop_clause(d).update(order="right"),
     "order must be one of ['maker_left', 'dealer_left'], got 'right'", "phases.2.order"),
    ("buck-euchre", "drop skip", lambda d: drop_clause(d).update(skip_when=["never"]),
     "skip_when may list ['no_maker', 'no_trump'], got ['never']", "phases.2.skip_when"),
    ("buck-euchre", "drop limit", lambda d: drop_clause(d).update(consecutive_limit=-1),
     "consecutive_limit must be a whole number or null, got -1", "phases.2.consecutive_limit"),
    ("buck-euchre", "drop counts", lambda d: drop_clause(d).update(consecutive_counts="some"),
     "consecutive_counts must be one of ['all_hands', 'offered_hands'], got 'some'", "phases.2.consecutive_counts"),
    ("buck-euchre", "drop floor", lambda d: drop_clause(d).update(forbid_at_or_below="5"),
     "forbid_at_or_below must be an integer or null, got '5'", "phases.2.forbid_at_or_below"),
    ("buck-euchre", "auto trump suit", lambda d: d["phases"][0]["auto_trump"].update(suits=["X"]),
     "auto_trump suits ['X'] are not suits of the deck", "phases.0.auto_trump.suits"),
    ("buck-euchre", "exchange who", lambda d: d["phases"][1].update(who=["anyone"]),
     "who may list ['maker', 'dealer_if_turned'], got ['anyone']", "phases.1.who"),
    ("dirty-clubs", "up card pile", lambda d: up(d).update(pile="stock"),
     "phase 'turn_up' uses zone 'stock', which the zones clause does not declare", "zones"),
    ("dirty-clubs", "up card auto suit", lambda d: up(d)["auto_trump"].update(suits=["Z"]),
     "auto_trump suits ['Z'] are not suits of the deck", "phases.0.auto_trump.suits"),
    ("buck-euchre", "instant win fact", lambda d: d["match"]["end"].update(instant_win={**IW, "when": {"points": 5}}),
     "instant_win names 'points', which is not a declared fact of this game", "match.end.instant_win.when.points"),
    ("buck-euchre", "instant win value", lambda d: d["match"]["end"].update(instant_win={**IW, "when": {"tricks": 6}}),
     "instant_win: 'tricks' can never be 6", "match.end.instant_win.when.tricks"),
    ("euchre", "skip dealer when forced", lambda d: d["phases"][0]["rounds"][1].update(skip_dealer=True),
     "the dealer must name in the last round, which skips the dealer", "phases.0.rounds.1.skip_dealer"),
    ("dirty-clubs", "made at", lambda d: d["phases"][1].update(made_at=0),
     "made_at must be 'bid' or a number of tricks, got 0", "phases.1.made_at"),
]


@pytest.mark.parametrize(("system", "case", "edit", "message", "key"), ERRORS, ids=[c[1] for c in ERRORS])
def test_bad_clause_is_a_spec_error_naming_file_and_key(system: str, case: str,
                                                        edit: Callable[[dict[str, Any]], None], message: str,
                                                        key: str) -> None:
    base = load(system)
    with pytest.raises(SpecError) as err:
        edited(system, edit)
    assert err.value.detail == message and err.value.key == key and err.value.file == base.file
