"""Rule tests for The Card Game (a rummy game with a round schedule), source 004_945a3021da002f83.txt.

Each test is named after the clause it pins and quotes it in its docstring. Positions
come from explicit deals; expected values come from the text, not from engine output.

Three players by default here (one deck, so cards are named ``QH``, not ``QH#1``);
dealer 0, so play goes 1, 2, 0. Piles are listed top card first: ``discard`` holds
the turned card, ``stock`` (the pickup pile) starts with the given cards, the rest
of the deck fills it in a fixed order. The end of the file tests the general match
ends (rounds, countdown, start values) that other systems will use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardspec.engine.bots import rule_bot
from cardspec.engine.errors import IllegalActionError, SpecError
from cardspec.engine.game import Game
from cardspec.engine.match import MatchRules
from cardspec.engine.state import State

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "CDHS" for r in RANKS]
THREE = {"players": 3}
SRC = {"doc": "004_945a3021da002f83.txt", "quote": "The person with the lowest score at the end of the game wins."}


def deal(hands: Sequence[Sequence[str]], turned: str, stock_top: Sequence[str] = (), dealer: int = 0
         ) -> dict[str, Any]:
    """An explicit deal: the hands, the turned card, the pickup pile starting with ``stock_top``."""
    used = [c for h in hands for c in h] + [turned, *stock_top]
    assert len(set(used)) == len(used), "a card is dealt twice"
    rest = [c for c in DECK if c not in used]
    return {"dealer": dealer, "hands": [list(h) for h in hands],
            "piles": {"discard": [turned], "stock": [*stock_top, *rest]}}


def quick_round(hand_size: int, dealer: int, players: int = 3) -> dict[str, Any]:
    """A deal whose first player (left of ``dealer``) holds a natural club run A..n and goes out at once."""
    run = [r + "C" for r in RANKS[:hand_size]]
    others = [[RANKS[i] + s for i in range(hand_size)] for s in "DH"[: players - 1]]
    first = (dealer + 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    hands[first] = run
    for k, seat in enumerate(s for s in range(players) if s != first):
        hands[seat] = others[k]
    return deal(hands, "KS", ["QS"], dealer=dealer)


def go_out_at_once(st: State) -> None:
    """The first player draws the pickup pile's top card and goes out discarding it; each other player
    draws the next top card and throws it back."""
    first = st.current_player()
    hand = st.hand_no
    top = st.game.deck.names[st.piles["stock"][-1]]
    st.apply_name("draw stock")
    assert f"go out {top}" in st.legal_action_names(), "the quick round's first player must be able to go out"
    st.apply_name(f"go out {top}")
    while st.hand_no == hand:
        assert st.current_player() != first
        top = st.game.deck.names[st.piles["stock"][-1]]
        st.apply_name("draw stock")
        st.apply_name(f"discard {top}")


def state(deals: Sequence[dict[str, Any]], options: dict[str, Any] | None = None) -> State:
    g = Game.from_system("the-card-game", {**THREE, **(options or {})})
    return g.new_initial_state(seed=0, deals=list(deals))


def names(st: State, seat: int) -> set[str]:
    return {st.game.deck.names[c] for c in st.game.deck.cards_of(st.hands[seat])}


# --- the round schedule ---------------------------------------------------------------

WILD = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_round_schedule_eleven_rounds_three_to_thirteen_cards_with_matching_wilds() -> None:
    """"The first round every person is dealt 3 cards." "This first round 3‘s are wild." "everyone gets
    dealt 4 cards. 4‘s are wild." "you move to 11, and Jacks are wild.. then 12/Queen, then finally 13/King"."""
    g = Game.from_system("the-card-game", THREE)
    m = g.phases[0].melding  # type: ignore[attr-defined]
    assert g.match.rounds == 11
    assert [g.deal_for(i).hand_size for i in range(11)] == list(range(3, 14))
    assert [g.deck.ranks[m.wild_by_round[g.round_index(i)]] for i in range(11)] == WILD


def test_round_schedule_back_down_gives_twenty_one_rounds() -> None:
    """"If you so desire, you can then travel back down, from 13 to 3 cards." (21 rounds; 22 when 13 repeats)"""
    g = Game.from_system("the-card-game", {**THREE, "rounds": "up_and_down"})
    m = g.phases[0].melding  # type: ignore[attr-defined]
    sizes = list(range(3, 14)) + list(range(12, 2, -1))
    assert g.match.rounds == 21 and [g.deal_for(i).hand_size for i in range(21)] == sizes
    assert [g.deck.ranks[m.wild_by_round[g.round_index(i)]] for i in range(21)] == WILD + WILD[-2::-1]
    g22 = Game.from_system("the-card-game", {**THREE, "rounds": "up_and_down_repeat_13"})
    assert g22.match.rounds == 22 and [g22.deal_for(i).hand_size for i in (10, 11, 12)] == [13, 13, 12]


def test_seeded_deals_follow_the_schedule_and_the_dealer_rotates_left() -> None:
    """"the person to the left of the previous dealer will deal this time, and everyone gets dealt 4 cards" """
    g = Game.from_system("the-card-game", THREE)
    st = g.new_initial_state(seed=5)
    bot = rule_bot(random.Random(5))
    seen: dict[int, tuple[int, list[int]]] = {}
    while not st.is_terminal():
        if st.hand_no not in seen:
            seen[st.hand_no] = (st.dealer, [h.bit_count() for h in st.hands])
        st.apply(bot(st, st.legal_actions()))
    assert sorted(seen) == list(range(11))
    for i, (dealer, sizes) in seen.items():
        assert sizes == [3 + i] * 3
        assert dealer == (seen[0][0] + i) % 3


def test_match_ends_after_the_schedule_lowest_total_wins() -> None:
    """"then finally 13/King" and "The person with the lowest score at the end of the game wins." """
    for opts, rounds in (({}, 11), ({"rounds": "up_and_down"}, 21)):
        g = Game.from_system("the-card-game", {**THREE, **opts})
        st = g.new_initial_state(seed=2)
        bot = rule_bot(random.Random(2))
        while not st.is_terminal():
            st.apply(bot(st, st.legal_actions()))
        assert len(st.hand_results) == rounds
        low = min(st.counters)
        assert st.winners == tuple(s for s in range(3) if st.counters[s] == low)


# --- decks -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 4), (16, 6)])
def test_one_full_deck_for_every_three_players(players: int, decks: int) -> None:
    """"Card Decks: At least 1 Full Deck for every 3 players" (rounded up; copies are distinct cards)."""
    g = Game.from_system("the-card-game", {"players": players})
    assert g.deck.size == 52 * decks
    more = Game.from_system("the-card-game", {"players": players, "extra_decks": 1})
    assert more.deck.size == 52 * (decks + 1)


def test_copies_of_a_card_are_distinct_cards() -> None:
    """"At least 1 Full Deck for every 3 players": with 4 players two decks, QH#1 and QH#2 both in play."""
    g = Game.from_system("the-card-game", {"players": 4})
    a, b = g.deck.parse("QH#1"), g.deck.parse("QH#2")
    assert a != b and g.deck.face[a] == g.deck.face[b] == "QH"
    st = g.new_initial_state(seed=3)
    places = st.where_is()
    assert sorted(places) == list(range(104)) and all(len(v) == 1 for v in places.values())


# --- the turn --------------------------------------------------------------------------------


def test_turned_card_starts_the_discard_pile() -> None:
    """"the top card is turned over and set down as the “discard” pile" """
    st = state([deal([["2C", "5D", "9S"], ["3C", "6D", "10S"], ["4C", "7D", "JS"]], "9H", ["KC"])])
    assert st.piles["discard"] == [st.game.deck.parse("9H")]
    assert len(st.piles["stock"]) == 52 - 9 - 1
    assert st.current_player() == 1  # "The person to the left of the dealer begins the game."
    assert st.legal_action_names() == ["draw stock", "draw discard"]
    st.apply_name("draw discard")
    assert "9H" in names(st, 1) and st.piles["discard"] == []


def test_draw_then_discard_one_passes_the_turn_left() -> None:
    """"That person can either pick up the top card on the pickup pile, or the top card on the discard
    pile. Then they must discard one card" and "the person to their left will go." """
    st = state([deal([["2C", "5D", "9S"], ["3C", "6D", "10S"], ["4C", "7D", "JS"]], "9H", ["KC"])])
    st.apply_name("draw stock")
    assert names(st, 1) == {"3C", "6D", "10S", "KC"}
    assert {n.split()[0] for n in st.legal_action_names()} == {"discard"}  # no melds: no going out
    with pytest.raises(IllegalActionError):
        st.apply_name("draw stock")
    st.apply_name("discard 6D")
    assert names(st, 1) == {"3C", "10S", "KC"} and st.current_player() == 2
    assert st.game.deck.names[st.piles["discard"][-1]] == "6D"


def test_the_card_just_picked_up_may_be_discarded() -> None:
    """"Then they must discard one card (which can be the card they just picked up)." """
    hands = [["2C", "5D", "9S"], ["3C", "6D", "10S"], ["4C", "7D", "JS"]]
    st = state([deal(hands, "9H", ["KC"])])
    st.apply_name("draw discard")
    assert "discard 9H" in st.legal_action_names()
    st.apply_name("discard 9H")
    st2 = state([deal(hands, "9H", ["KC"])], {"discard_drawn": "forbidden"})
    st2.apply_name("draw discard")
    assert "discard 9H" not in st2.legal_action_names()
    st3 = state([deal(hands, "9H", ["KC"])], {"discard_drawn": "forbidden"})
    st3.apply_name("draw stock")
    assert "discard KC" in st3.legal_action_names()  # a card from the pickup pile may go straight back


# --- going out ---------------------------------------------------------------------------------


def test_go_out_lays_all_cards_in_melds_and_discards_one() -> None:
    """"they pick up their card, as normal, then lays down their 3 cards face up, and discards one card
    (Thus using up all of their cards)." """
    st = state([deal([["2C", "5D", "9S"], ["5C", "5S", "7H"], ["4C", "7D", "JS"]], "5H", ["KC"])])
    st.apply_name("draw discard")  # 5C 5S 5H 7H: a set of fives and the 7H over
    outs = [n for n in st.legal_action_names() if n.startswith("go out")]
    assert outs == ["go out 7H"]
    st.apply_name("go out 7H")
    assert st.hands[1] == 0
    assert {st.game.deck.names[c] for c in st.piles["melds"]} == {"5C", "5S", "5H"}
    assert st.game.deck.names[st.piles["discard"][-1]] == "7H"


def test_go_out_uses_wilds_but_needs_one_normal_card() -> None:
    """"You may use as many wilds as you’d like in a set or run, but you must have at least 1 “normal”
    card in a set or a run." (round 1: threes wild)"""
    st = state([deal([["2C", "5D", "9S"], ["3C", "3S", "8H"], ["4C", "7D", "JS"]], "3D", ["KC"])])
    st.apply_name("draw discard")  # three wild 3s and the 8H
    # any wild may go, the 8H stays: the three wilds alone are no meld
    assert [n for n in st.legal_action_names() if n.startswith("go out")] == ["go out 3C", "go out 3D", "go out 3S"]
    st2 = state([deal([["2C", "5D", "9S"], ["3C", "3S", "8H"], ["4C", "7D", "JS"]], "3D", ["KC"])],
                {"naturals_per_meld": 2})
    st2.apply_name("draw discard")
    assert not [n for n in st2.legal_action_names() if n.startswith("go out")]


def test_go_out_is_only_with_every_card_melded() -> None:
    """"to go out you must use all your cards, and you must discard" """
    st = state([deal([["2C", "5D", "9S"], ["5C", "5S", "7H"], ["4C", "7D", "JS"]], "8D", ["KC"])])
    st.apply_name("draw discard")  # 5C 5S 7H 8D: no meld of three
    assert not [n for n in st.legal_action_names() if n.startswith("go out")]
    with pytest.raises(IllegalActionError, match="melds"):
        st.apply_name("go out 7H")


def test_no_two_sets_of_three_on_the_five_card_round() -> None:
    """"to go out you must use all your cards, and you must discard (so no doing two sets of 3 on the
    “5 cards” round)" """
    r3 = deal([["8C", "8D", "8H", "9C", "9D"], ["AD", "2D", "3D", "4D", "6D"], ["AH", "2H", "3H", "4H", "6H"]],
              "9H", ["KC"], dealer=2)
    st = state([quick_round(3, 0), quick_round(4, 1), r3])
    go_out_at_once(st)
    go_out_at_once(st)
    assert st.hand_no == 2 and st.current_player() == 0 and len(names(st, 0)) == 5
    st.apply_name("draw discard")  # 8C 8D 8H 9C 9D 9H: two sets of three, no card left to discard
    assert not [n for n in st.legal_action_names() if n.startswith("go out")]


def test_from_six_cards_two_melds_may_go_out() -> None:
    """"when you get to 6 (6’s are wild..), you can do 2 runs, or a run and a set, or 2 sets, or one
    large run or set" """
    r4 = deal([["AD", "2D", "3D", "4D", "5D", "7D"], ["8C", "8D", "8H", "9S", "10S", "JS"],
               ["AH", "2H", "3H", "4H", "5H", "7H"]], "KD", ["2C"], dealer=0)
    st = state([quick_round(3, 0), quick_round(4, 1), quick_round(5, 2), r4])
    for _ in range(3):
        go_out_at_once(st)
    assert st.hand_no == 3 and st.current_player() == 1 and len(names(st, 1)) == 6
    st.apply_name("draw discard")  # a set of 8s, a run 9S 10S JS, and the KD
    assert [n for n in st.legal_action_names() if n.startswith("go out")] == ["go out KD"]
    st.apply_name("go out KD")
    melds = [{st.game.deck.names[c] for c in m} for m in st.cstate[0].laid]  # type: ignore[union-attr]
    assert len(melds) == 2 and {frozenset(m) for m in melds} == {frozenset({"8C", "8D", "8H"}),
                                                                 frozenset({"9S", "10S", "JS"})}


def test_three_melds_go_out_only_under_the_any_number_reading() -> None:
    """"you can do 2 runs, or a run and a set, or 2 sets, or one large run or set" (from 9 cards three sets
    of 3 are possible; the text lists two melds for 6 cards)"""
    r7 = deal([["AD", "JD", "3D", "4D", "5D", "6D", "7D", "8D", "10D"],
               ["2C", "2D", "2H", "5C", "5S", "5H", "KC", "KD", "KH"],
               ["AH", "3H", "4H", "6H", "7H", "8H", "10H", "JH", "QH"]], "JC", ["QS"], dealer=0)
    for opt, can in (("any", True), ("two", False)):
        opts = {"go_out_melds": opt, **({"stock_exhausted": "end_round"} if opt == "two" else {})}  # two requires it
        st = state([quick_round(n, n % 3) for n in range(3, 9)] + [r7], opts)
        for _ in range(6):
            go_out_at_once(st)
        assert st.hand_no == 6 and st.current_player() == 1
        st.apply_name("draw stock")  # QS: three sets of three and the queen
        assert ("go out QS" in st.legal_action_names()) is can


def test_everyone_else_gets_one_more_turn_after_someone_goes_out() -> None:
    """"When someone has “gone out”, everyone else gets 1 more turn to go, and then the round is over." """
    st = state([deal([["2C", "5D", "9S"], ["5C", "5S", "7H"], ["4C", "7D", "JS"]], "5H", ["KC", "QC", "JC"])])
    st.apply_name("draw discard")
    st.apply_name("go out 7H")
    turns = []
    while st.hand_no == 0:
        turns.append(st.current_player())
        st.apply_name("draw stock")
        assert "go out" not in " ".join(st.legal_action_names())  # someone has already gone out
        st.apply(st.legal_actions()[0])
    assert turns == [2, 0]
    assert st.hand_results[0]["ended_by"] == "went_out" and st.hand_results[0]["went_out"] == 1


def test_first_turn_going_out_follows_the_option() -> None:
    """"This continues until someone has a set or a run of 3." (no limit on when; the other reading waits a round)"""
    hands = [["2C", "5D", "9S"], ["5C", "5S", "7H"], ["4C", "7D", "JS"]]
    st = state([deal(hands, "5H", ["KC"])], {"first_turn_out": "forbidden"})
    st.apply_name("draw discard")
    assert not [n for n in st.legal_action_names() if n.startswith("go out")]
    with pytest.raises(IllegalActionError, match="first turn"):
        st.apply_name("go out 7H")


# --- scoring -------------------------------------------------------------------------------------


def test_worked_example_seven_eight_of_diamonds_wild_four_two_of_spades_is_two_points() -> None:
    """"Someone goes out, and I have a 7 and 8 of diamonds, a 4 of hearts, and a 2 of spades. I would get
    2 points [ the 7 and the 8, plus the 4, which is wild, make a run of 3, leaving just the 2, for two
    points]" (round 2: 4 cards, fours wild)"""
    r2 = deal([["7D", "8D", "4H", "2S"], ["AC", "5C", "QD", "KH"], ["9C", "9D", "9H", "JC"]], "6S",
              ["9S", "10C", "10D"], dealer=1)
    st = state([quick_round(3, 0), r2])
    go_out_at_once(st)
    assert st.hand_no == 1 and st.current_player() == 2
    st.apply_name("draw stock")  # 9S: four nines, the JC is discarded
    st.apply_name("go out JC")
    st.apply_name("draw stock")  # seat 0 draws the 10C and throws it back: 7D 8D 4H 2S
    st.apply_name("discard 10C")
    st.apply_name("draw stock")  # seat 1 draws the 10D and throws it back: AC 5C QD KH, 1 + 5 + 10 + 10
    st.apply_name("discard 10D")
    assert st.hand_no == 2
    assert st.hand_results[1]["scores"] == [2, 26, -5]


def test_going_out_scores_minus_five_or_zero_and_cards_left_count_at_face_value() -> None:
    """"You can play where the person who went out first gets -5 points, or 0" and "Aces: 1 point",
    "2-9: Face Value (thus a 3 is worth 3 points… even if the card is wild.)", "10, J, Q, K: 10 points" """
    hands = [["AC", "3D", "KS"], ["5C", "5S", "7H"], ["2C", "9D", "JS"]]
    for opt, out_score in (("minus_five", -5), ("zero", 0)):
        st = state([deal(hands, "5H", ["QC", "4D"])], {"out_bonus": opt})
        st.apply_name("draw discard")
        st.apply_name("go out 7H")
        st.apply_name("draw stock")  # seat 2 draws QC and throws it back: 2C 9D JS = 2 + 9 + 10
        st.apply_name("discard QC")
        st.apply_name("draw stock")  # seat 0 draws 4D and throws it back: AC 3D KS = 1 + 3 (a wild 3) + 10
        st.apply_name("discard 4D")
        assert st.hand_no == 1
        assert st.hand_results[0]["scores"] == [14, out_score, 21]


def test_tally_takes_out_several_melds_or_one() -> None:
    """"anyone who has a set or run of at least 3 doesn’t count those points against them" """
    g = Game.from_system("the-card-game", {"players": 2})
    g1 = Game.from_system("the-card-game", {"players": 2, "tally_melds": "one"})
    # 9 cards (round 7, nines wild): a set of 2s, a run 5H 6H 7H, and KC QD AS over: 10 + 10 + 1
    hand = ["2C", "2D", "2S", "5H", "6H", "7H", "KC", "QD", "AS"]
    for game, want in ((g, 21), (g1, 45 - 18)):  # one meld: the run (18) goes, the 2s stay
        st = game.new_initial_state(seed=0)
        st.hand_no = 6
        mask = game.deck.mask(game.deck.parse(n) for n in hand)
        assert st.comp.meld_deadwood(st, mask) == want  # type: ignore[attr-defined]


def test_worked_example_deadwood_in_round_two() -> None:
    """"the 7 and the 8, plus the 4, which is wild, make a run of 3, leaving just the 2, for two points" """
    g = Game.from_system("the-card-game", THREE)
    st = g.new_initial_state(seed=0)
    mask = g.deck.mask(g.deck.parse(n) for n in ("7D", "8D", "4H", "2S"))
    st.hand_no = 1  # round 2: fours wild
    assert st.comp.meld_deadwood(st, mask) == 2  # type: ignore[attr-defined]
    st.hand_no = 0  # round 1: threes wild, the 4H is natural: nothing melds, 7 + 8 + 4 + 2
    assert st.comp.meld_deadwood(st, mask) == 21  # type: ignore[attr-defined]


def test_aces_are_low_in_runs_by_default() -> None:
    """"Aces: 1 point" (an ace sits below the 2; Q-K-A and K-A-2 only under the other readings)"""
    def dw(opt: str, cards: Sequence[str]) -> int:
        g = Game.from_system("the-card-game", {**THREE, "ace_in_runs": opt})
        st = g.new_initial_state(seed=0)  # round 1: threes wild, none of these
        return st.comp.meld_deadwood(st, g.deck.mask(g.deck.parse(n) for n in cards))  # type: ignore[attr-defined, no-any-return]
    assert dw("low", ["AH", "2H", "4H"]) == 1 + 2 + 4 and dw("low", ["AH", "2H", "3D"]) == 0  # 3D wild
    assert dw("low", ["QH", "KH", "AH"]) == 21 and dw("low_or_high", ["QH", "KH", "AH"]) == 0
    assert dw("low_or_high", ["KS", "AS", "2S"]) == 13 and dw("wrap", ["KS", "AS", "2S"]) == 0


# --- match ends (general: rounds, countdown, start values) ------------------------------------------


def _with_match(end: dict[str, Any], start: int | None = None) -> Game:
    g = Game.from_system("the-card-game", THREE)
    m: dict[str, Any] = {"first_dealer": "random", "rotation": "left", "rotation_source": SRC,
                         "end": {"counter": "points", "source": SRC, **end}}
    if start is not None:
        m["start"] = start
    g.match = MatchRules.build(m, g, "x.yaml")
    return g


def test_rounds_end_lowest_total_wins_after_the_last_round_only() -> None:
    """"The person with the lowest score at the end of the game wins." """
    g = Game.from_system("the-card-game", THREE)
    st = g.new_initial_state(seed=0)
    st.counters = [30, 12, 40]
    st.hand_no = 9
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners is None
    st.hand_no = 10
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners == (1,)


def test_rounds_end_tie_for_lowest_shares_or_plays_another_hand() -> None:
    """"The person with the lowest score at the end of the game wins." (a tie: see lowest-tie)"""
    for opt in ("shared_win", "extra_hand"):
        g = Game.from_system("the-card-game", {**THREE, "lowest_tie": opt})
        st = g.new_initial_state(seed=0)
        st.counters = [12, 12, 40]
        st.hand_no = 10
        g.match.after_hand(st, [0, 0, 0])
        if opt == "shared_win":
            assert st.winners == (0, 1)
        else:
            assert st.winners is None and st.extra_hand
            st.counters = [13, 12, 40]
            st.hand_no = 11
            g.match.after_hand(st, [1, 0, 0])
            assert st.winners == (1,)
    assert g.round_index(11) == 10  # an extra hand repeats the last round's hand size and wild rank


def test_rounds_end_highest_total_wins() -> None:
    """A fixed number of rounds, highest total wins (Hand and Foot: "the highest total score")."""
    g = _with_match({"kind": "rounds", "rounds": 4, "winner": "highest"})
    st = g.new_initial_state(seed=0)
    st.counters = [30, 12, 40]
    st.hand_no = 3
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners == (2,)


def test_counters_start_from_the_spec_value() -> None:
    """Counters start at ``match.start`` (Buck Euchre: "Everyone starts with" 25)."""
    g = _with_match({"kind": "countdown"}, start=25)
    assert g.new_initial_state(seed=0).counters == [25, 25, 25]
    assert Game.from_system("the-card-game", THREE).new_initial_state(seed=0).counters == [0, 0, 0]


def test_countdown_first_to_reach_or_pass_zero_wins() -> None:
    """"the first player to reach or pass zero wins" (Buck Euchre)."""
    g = _with_match({"kind": "countdown"}, start=25)
    st = g.new_initial_state(seed=0)
    st.counters = [3, 1, 7]
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners is None
    st.counters = [3, 0, 7]
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners == (1,)
    st2 = g.new_initial_state(seed=0)
    st2.counters = [4, -2, 1]
    g.match.after_hand(st2, [0, 0, 0])
    assert st2.winners == (1,)


def test_countdown_several_past_zero_furthest_shared_or_extra_hand() -> None:
    """Ties past zero: "the player who goes furthest below zero" wins (Buck Euchre), or share, or replay."""
    cases = {"furthest": (1,), "shared_win": (0, 1), "extra_hand": None}
    for rule, want in cases.items():
        g = _with_match({"kind": "countdown", "simultaneous": rule}, start=25)
        st = g.new_initial_state(seed=0)
        st.counters = [-1, -3, 5]
        g.match.after_hand(st, [0, 0, 0])
        assert st.winners == want
        if rule == "extra_hand":
            assert st.extra_hand
            st.counters = [-4, -3, 5]
            g.match.after_hand(st, [0, 0, 0])
            assert st.winners == (0,)


def test_countdown_with_a_target_above_zero_and_bad_clauses() -> None:
    """A countdown to another target; a target at or above the start, or a rounds end without a count, is refused."""
    g = _with_match({"kind": "countdown", "target": 5}, start=15)
    st = g.new_initial_state(seed=0)
    st.counters = [6, 5, 9]
    g.match.after_hand(st, [0, 0, 0])
    assert st.winners == (1,)
    with pytest.raises(SpecError, match=r"must lie below match\.start"):
        _with_match({"kind": "countdown", "target": 30}, start=25)
    eu = Game.from_system("euchre")
    with pytest.raises(SpecError, match="rounds"):
        MatchRules.build({"first_dealer": "random", "rotation": "left", "rotation_source": SRC,
                          "end": {"kind": "rounds", "counter": eu.scoring.counter, "source": SRC}}, eu, "x.yaml")


def test_games_without_a_schedule_play_one_fixed_round() -> None:
    """No schedule: one deal for every hand (Euchre, Bird Dog, Riding the Bus unchanged)."""
    for sid in ("euchre", "bird-dog-11", "riding-the-bus"):
        g = Game.from_system(sid)
        assert g.schedule is None and g.round_deals == (g.deal,) and g.deal_for(7) is g.deal
