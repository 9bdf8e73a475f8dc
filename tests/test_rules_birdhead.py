"""Rule tests for BirdHead, source 002_29e942c63f1e9741.txt.

Each test is named after the clause it pins and quotes it in its docstring. Positions come
from explicit deals; expected values are worked out from the text in each docstring, never
copied from the engine.

Cards have no suits: a card is its rank and copy, ``7#1`` ... ``7#5``. Deals below are
written as ranks; :func:`deal` numbers the copies in the order they appear (seat 0 first)
and puts the rest of the 50 cards aside. Dealer 3, so seat 0 is the first start player.

Deal A (seat 0 wins with triples, seat 3 ties the 9-9 lead and wins):
  seat 0: 11 11 11 10 10 10 9 9 2 2     seat 1: 2 2 3 3 3 4 4 4 5 5
  seat 2: 5 5 5 6 6 6 6 6 7 7           seat 3: 7 7 7 8 8 8 8 8 9 9
  T1: 0 leads 11-11-11; nobody else holds three cards >= 11, so 1: 2-2-3, 2: 5-5-5, 3: 7-7-7 (lowest); 0 wins.
  T2: 0 leads 10-10-10; 1: 3-3-4, 2: 6-6-6, 3: 8-8-8 (lowest); 0 wins.
  Left: 0: 9 9 2 2, 1: 4 4 5 5, 2: 6 6 7 7, 3: 8 8 9 9.
  T3: 0 leads 9-9 (keeping two); 1: 4-4, 2: 6-6 (lowest); 3: 9-9, equal to the lead and last: 3 wins.
  T4: 3 leads one 8 (a pair would leave no card); 0: 2, 1: 5, 2: 7 (each lower); 3 wins.
  Last cards: 0: 2, 1: 5, 2: 7, 3: 8: seat 3 holds the highest, loses, and takes 8 minus points.
Deal B (as A, but seats 1 and 3 both keep an 8 to the end):
  seat 0: 11 11 11 10 10 10 9 9 2 2     seat 1: 2 2 3 3 3 4 4 4 5 8
  seat 2: 5 5 5 6 6 6 6 6 7 7           seat 3: 3 7 7 7 8 8 8 8 9 9
  T1: 0: 11-11-11; 1: 2-2-3, 2: 5-5-5, 3: 3-7-7. T2: 0: 10-10-10; 1: 3-3-4, 2: 6-6-6, 3: 7-8-8.
  T3: 0: 9-9; 1: 4-4, 2: 6-6, 3: 9-9 (3 wins). T4: 3: 8; 0: 2, 1: 5, 2: 7 (3 wins).
  Last cards: 0: 2, 1: 8, 2: 7, 3: 8: seats 1 and 3 both lose 8.
Deal C (seat 0 leads 7-7; the worked example's 8 and 10):
  seat 0: 7 7 3 3 4 4 5 5 6 6           seat 1: 8 10 2 2 11 11 9 9 6 8
  seat 2: 9 10 2 3 4 5 6 8 11 10        seat 3: 2 3 4 5 7 7 8 9 10 11
Deal D (seat 1's lowest two cards are 2 and 8):
  seat 0: 7 7 2 3 4 5 5 6 6 9           seat 1: 2 8 8 8 9 9 10 10 11 11
  seat 2: 3 3 5 6 7 8 10 11 11 9        seat 3: 4 4 5 6 7 10 11 2 3 9
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardspec.engine.errors import IllegalActionError, SpecError
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "birdhead"
RANKS = [str(r) for r in range(2, 12)]

DEAL_A = ["11 11 11 10 10 10 9 9 2 2", "2 2 3 3 3 4 4 4 5 5", "5 5 5 6 6 6 6 6 7 7", "7 7 7 8 8 8 8 8 9 9"]
DEAL_B = ["11 11 11 10 10 10 9 9 2 2", "2 2 3 3 3 4 4 4 5 8", "5 5 5 6 6 6 6 6 7 7", "3 7 7 7 8 8 8 8 9 9"]
DEAL_C = ["7 7 3 3 4 4 5 5 6 6", "8 10 2 2 11 11 9 9 6 8", "9 10 2 3 4 5 6 8 11 10", "2 3 4 5 7 7 8 9 10 11"]
DEAL_D = ["7 7 2 3 4 5 5 6 6 9", "2 8 8 8 9 9 10 10 11 11", "3 3 5 6 7 8 10 11 11 9", "4 4 5 6 7 10 11 2 3 9"]


def deal(hands: list[str], dealer: int = 3) -> dict[str, Any]:
    """An explicit deal from ranks: copies numbered in order of appearance, the rest aside."""
    used: Counter[str] = Counter()
    out = []
    for h in hands:
        names = []
        for r in h.split():
            used[r] += 1
            assert used[r] <= 5, f"rank {r} dealt more than five times"
            names.append(f"{r}#{used[r]}")
        out.append(names)
    aside = [f"{r}#{k}" for r in RANKS for k in range(used[r] + 1, 6)]
    return {"dealer": dealer, "hands": out, "piles": {"aside": aside}}


def new_state(hands: list[str], options: dict[str, Any] | None = None) -> tuple[Game, State]:
    g = Game.from_system(SYSTEM, options or {})
    return g, g.new_initial_state(seed=3, deals=[deal(hands)])


def ranks_of(st: State, names: str) -> tuple[int, ...]:
    return tuple(sorted(int(n.split("#")[0]) for n in names.split()))


def play(st: State, *ranks: int) -> None:
    """The player to act plays cards of these ranks (the first copies held)."""
    g = st.game
    held = [g.deck.names[c] for c in g.deck.cards_of(st.hands[st.cur])]
    names = []
    for r in ranks:
        name = next(n for n in held if n.split("#")[0] == str(r) and n not in names)
        names.append(name)
    st.apply_name("play " + " ".join(names))


def options(st: State) -> set[tuple[int, ...]]:
    """The legal plays of the player to act, as sorted rank tuples."""
    return {ranks_of(st, n.split(" ", 1)[1]) for n in st.legal_action_names()}


def winners(st: State) -> list[int]:
    return list(st.game.phases[0].trick_winners(st))  # type: ignore[attr-defined]


def play_deal_a_to_t3(st: State) -> None:
    play(st, 11, 11, 11), play(st, 2, 2, 3), play(st, 5, 5, 5), play(st, 7, 7, 7)
    play(st, 10, 10, 10), play(st, 3, 3, 4), play(st, 6, 6, 6), play(st, 8, 8, 8)


# --- cards and deal --------------------------------------------------------------------------------


def test_cards_rank_2_to_11_five_of_each_without_suits() -> None:
    """ "BirdHead uses cards rank of 2 to 11. 2 is the lowest and 11 is the highest. Each rank has 5 cards."

    10 ranks x 5 copies = 50 cards, no suits: named by rank and copy (7#3); 2 lowest, 11 highest."""
    g = Game.from_system(SYSTEM)
    d = g.deck
    assert d.size == 50 and d.ranks == tuple(RANKS) and d.suits == ("",)
    assert Counter(d.ranks[d.rank_of[c]] for c in range(50)) == {r: 5 for r in RANKS}
    assert d.names[d.parse("11#5")] == "11#5" and d.ranks.index("2") == 0 and d.ranks.index("11") == 9
    with pytest.raises(KeyError, match="ambiguous"):
        d.parse("7")


def test_deal_ten_cards_to_each_player_the_rest_aside() -> None:
    """ "deal 10 cards to each player as a hand. If there are not enough cards to deal 10 cards to each
    player, deal as many cards as possible": 4 x 10 = 40 <= 50, so ten each; the other 10 lie aside."""
    for seed in range(3):
        st = Game.from_system(SYSTEM).new_initial_state(seed)
        assert [h.bit_count() for h in st.hands] == [10, 10, 10, 10]
        assert len(st.piles["aside"]) == 10


def test_first_round_start_player_is_random() -> None:
    """ "At the first round, the player selected at random becomes the start player.": over seeds, every
    seat starts some match (the start player is left of a random dealer)."""
    starts = {Game.from_system(SYSTEM).new_initial_state(seed).current_player() for seed in range(40)}
    assert starts == {0, 1, 2, 3}


# --- leading --------------------------------------------------------------------------------------


def test_lead_a_single_card_or_up_to_three_of_the_same_rank() -> None:
    """ "The start player may lead any single card or up to 3 cards of the same rank": seat 0 (deal C) holds
    7 7 3 3 4 4 5 5 6 6, so it may lead one or two of each rank held, and never two different ranks."""
    _, st = new_state(DEAL_C)
    want = {(r,) for r in (3, 4, 5, 6, 7)} | {(r, r) for r in (3, 4, 5, 6, 7)}
    assert options(st) == want
    with pytest.raises(IllegalActionError, match="same rank"):
        st.apply_name("play 3#1 4#1")
    _, st = new_state(DEAL_A)  # three 11s: 1, 2 or 3 of them
    assert {(11,), (11, 11), (11, 11, 11)} <= options(st) and (10, 10, 10) in options(st)


def test_lead_keeps_at_least_one_card_in_hand() -> None:
    """ "provided that the player keep at least one card in the hand": in deal A after T3, seat 3 holds
    8 8 and may lead only a single 8 (leading both would leave no card)."""
    _, st = new_state(DEAL_A)
    play_deal_a_to_t3(st)
    play(st, 9, 9), play(st, 4, 4), play(st, 6, 6), play(st, 9, 9)
    assert st.current_player() == 3 and options(st) == {(8,)}
    with pytest.raises(IllegalActionError, match="keep at least 1"):
        st.apply_name("play 8#4 8#5")


# --- following ------------------------------------------------------------------------------------


def test_others_play_clockwise_as_many_cards_as_were_led() -> None:
    """ "In each trick, players play card(s) clockwise from the start player." and "Each of the other players
    plays the same number of cards that were led.": after seat 0 leads 7-7 (deal C), seats 1, 2, 3 follow in
    turn, each with exactly two cards."""
    _, st = new_state(DEAL_C)
    play(st, 7, 7)
    for seat in (1, 2, 3):
        assert st.current_player() == seat
        assert all(len(p) == 2 for p in options(st))
        with pytest.raises(IllegalActionError, match="as many cards as were led"):
            play(st, max(int(n.split("#")[0]) for n in st.game.deck.show(
                st.game.deck.cards_of(st.hands[st.cur])).split()))
        first = min(options(st))
        play(st, *first)


def test_follow_with_equal_or_higher_cards_or_the_lowest() -> None:
    """ "Play equal or higher card(s) than the card(s) played in the trick." / "Play the lowest card(s) in the
    hand.": after 7-7 (deal C), seat 1 (2 2 6 8 8 9 9 10 11 11) may play any two cards each >= 7 (from
    8 8 9 9 10 11 11) or its lowest two, 2-2; 2-6 (neither) is refused."""
    _, st = new_state(DEAL_C)
    play(st, 7, 7)
    high = [8, 8, 9, 9, 10, 11, 11]
    want = {tuple(sorted((high[i], high[j]))) for i in range(7) for j in range(i + 1, 7)} | {(2, 2)}
    assert options(st) == want
    with pytest.raises(IllegalActionError, match="lowest"):
        play(st, 2, 6)


def test_follower_holding_only_lower_cards_must_play_lowest() -> None:
    """ "Note that the player must play the lowest card(s) in the hand if the player has only lower cards than
    the card(s) played in the trick.": seat 1 of deal A holds nothing >= 11 after 11-11-11, so its one play is
    its three lowest cards, 2-2-3; 3-3-3 is refused."""
    _, st = new_state(DEAL_A)
    play(st, 11, 11, 11)
    assert options(st) == {(2, 2, 3)}
    with pytest.raises(IllegalActionError):
        play(st, 3, 3, 3)
    play(st, 2, 2, 3)
    assert options(st) == {(5, 5, 5)}  # seat 2: 5 5 5 6 6 6 6 6 7 7, nothing >= 11


def test_multi_card_plays_compare_respectively() -> None:
    """ "Suppose the next player played 8 and 10. Then, the third player must play a card equal or more than 8
    and a card equal or more than 10, or must play the 2 lowest cards in the hand.": deal C, 7-7 then 8-10;
    seat 2 (2 3 4 5 6 8 9 10 10 11) may play 8-10, 9-10, 10-10, 8-11, 9-11, 10-11 or its lowest 2-3."""
    _, st = new_state(DEAL_C)
    play(st, 7, 7), play(st, 8, 10)
    assert options(st) == {(8, 10), (9, 10), (10, 10), (8, 11), (9, 11), (10, 11), (2, 3)}


# --- winning tricks -----------------------------------------------------------------------------------


def test_highest_play_wins_the_trick_and_leads_next() -> None:
    """ "The player who played the highest card(s) in the trick ... takes the trick, and becomes the next start
    player.": deal A, seat 0's 11-11-11 beats 2-2-3, 5-5-5 and 7-7-7; seat 0 leads again."""
    _, st = new_state(DEAL_A)
    play(st, 11, 11, 11), play(st, 2, 2, 3), play(st, 5, 5, 5), play(st, 7, 7, 7)
    assert winners(st) == [0] and st.current_player() == 0
    assert st.seat_piles["won"][0].bit_count() == 12


def test_among_equal_plays_the_last_one_wins() -> None:
    """ "(if there is more than one player, the last player in them)": deal A, T3, seat 0 leads 9-9 and seat 3,
    last, plays 9-9 too: seat 3 takes the trick and leads."""
    _, st = new_state(DEAL_A)
    play_deal_a_to_t3(st)
    play(st, 9, 9), play(st, 4, 4), play(st, 6, 6), play(st, 9, 9)
    assert winners(st) == [0, 0, 3] and st.current_player() == 3


# --- last trick and scoring ---------------------------------------------------------------------------


def test_last_trick_revealed_at_once_highest_card_takes_its_rank_as_minus_points() -> None:
    """ "All players open the last hand simultaneously. The player who played the highest card becomes the loser
    of the round" and "The rank of the received card becomes minus points.": deal A ends with 2, 5, 7, 8 after
    T4, with no action for the last trick (4 tricks x 4 plays = 16 actions); seat 3 scores 8 minus points."""
    _, st = new_state(DEAL_A)
    play_deal_a_to_t3(st)
    play(st, 9, 9), play(st, 4, 4), play(st, 6, 6), play(st, 9, 9)
    play(st, 8), play(st, 2), play(st, 5), play(st, 7)
    r = st.hand_results[0]
    assert len(st.history) == 16 and st.hand_no == 1
    assert r["losers"] == [3] and r["top_last"] == 8 and r["scores"] == [0, 0, 0, 8]
    assert st.counters == [0, 0, 0, 8]


def play_deal_b(st: State) -> None:
    play(st, 11, 11, 11), play(st, 2, 2, 3), play(st, 5, 5, 5), play(st, 3, 7, 7)
    play(st, 10, 10, 10), play(st, 3, 3, 4), play(st, 6, 6, 6), play(st, 7, 8, 8)
    play(st, 9, 9), play(st, 4, 4), play(st, 6, 6), play(st, 9, 9)
    play(st, 8), play(st, 2), play(st, 5), play(st, 7)


def test_tie_for_the_highest_last_card_makes_every_tied_player_a_loser() -> None:
    """ "If there is more than one player who played the highest card, all of them become the losers of the
    round.": deal B ends with 2, 8, 7, 8, so seats 1 and 3 both lose and take 8 minus points each."""
    _, st = new_state(DEAL_B)
    play_deal_b(st)
    r = st.hand_results[0]
    assert sorted(r["losers"]) == [1, 3] and r["scores"] == [0, 8, 0, 8]


def test_next_round_starts_left_of_the_loser() -> None:
    """ "At the second or later round, the left player of the loser of before round ... becomes the start
    player.": deal A's loser is seat 3, so seat 0 starts round 2 (the dealer has moved on to seat 0, whose
    left, seat 1, does not start)."""
    _, st = new_state(DEAL_A)
    play_deal_a_to_t3(st)
    play(st, 9, 9), play(st, 4, 4), play(st, 6, 6), play(st, 9, 9)
    play(st, 8), play(st, 2), play(st, 5), play(st, 7)
    assert st.hand_no == 1 and st.dealer == 0 and st.current_player() == 0


# --- game end -------------------------------------------------------------------------------------------


def test_game_ends_at_22_minus_points_lowest_total_wins() -> None:
    """ "If someone receives 22 or more minus points, the game ends. Otherwise, play the next round." and "The
    player receiving the lowest minus points wins the game.": totals [21, 3, 4, 5] go on; [22, 3, 4, 5] end
    with seat 1 (3, the lowest) the winner."""
    g, st = new_state(DEAL_A)
    st.counters = [21, 3, 4, 5]
    g.match.after_hand(st, [0, 0, 0, 0])
    assert st.winners is None
    st.counters = [22, 3, 4, 5]
    g.match.after_hand(st, [1, 0, 0, 0])
    assert st.winners == (1,)


def test_played_matches_end_once_someone_has_22_and_the_lowest_wins() -> None:
    """The same clause in random play: a match is over exactly after the first hand that takes some total to
    22 or more, and its winners are the players with the lowest total."""
    for seed in range(4):
        st = Game.from_system(SYSTEM).new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        totals = [r["totals"] for r in st.hand_results]
        assert max(totals[-1]) >= 22 and all(max(t) < 22 for t in totals[:-1])
        low = min(totals[-1])
        assert st.winners == tuple(s for s in range(4) if totals[-1][s] == low)


# --- the register: every reading is playable -------------------------------------------------------------


@pytest.mark.parametrize("reading", ["sorted_pairs", "above_highest"])
def test_register_respectively(reading: str) -> None:
    """Register 'respectively': after 7-7 and 8-10 (deal C), sorted_pairs asks for a card >= 8 and one >= 10,
    so seat 2 may play 9-10; above_highest asks for two cards >= 10, so only 10-10 and 10-11 (or the lowest
    2-3)."""
    _, st = new_state(DEAL_C, {"respectively": reading})
    play(st, 7, 7), play(st, 8, 10)
    if reading == "sorted_pairs":
        assert (9, 10) in options(st)
    else:
        assert options(st) == {(10, 10), (10, 11), (2, 3)}
        with pytest.raises(IllegalActionError):
            play(st, 9, 10)


@pytest.mark.parametrize("reading", ["best", "previous"])
def test_register_compared_with(reading: str) -> None:
    """Register 'compared-with': 7-7 (deal C), then seat 1 plays its lowest 2-2. Seat 2 holds 2 3 4 5 6 8 9 10
    10 11: against the best play 7-7, 3-4 is neither high enough nor its lowest (2-3); against the previous
    play 2-2 it is equal or higher."""
    _, st = new_state(DEAL_C, {"compare_with": reading})
    play(st, 7, 7), play(st, 2, 2)
    assert ((3, 4) in options(st)) is (reading == "previous")
    assert (2, 3) in options(st) and (8, 9) in options(st)


# Seat 0 leads 7-7; seat 1 holds 2 9 and eight 10s and 11s, and may play its lowest two, 2-9; seat 2 holds
# 7 8 9 above its 2 to 5s.
DEAL_E = ["7 7 3 3 4 4 5 5 6 6", "2 11 11 11 11 10 10 10 10 9", "7 8 9 2 3 3 4 4 5 5", "9 9 8 8 6 6 6 5 4 3"]


@pytest.mark.parametrize(("reading", "allowed"), [("best", {(7, 8), (7, 9)}), ("previous", {(3, 9), (7, 9)}),
                                                  ("every", {(7, 9)})])
def test_register_compared_with_every_play(reading: str, allowed: set[tuple[int, int]]) -> None:
    """Register 'compared-with', deal E: 7-7, then seat 1's lowest 2-9. Card by card, seat 2's 7-8 is equal or
    higher than the best play 7-7 only; 3-9 than the previous play 2-9 only; 7-9 than both, and so than every
    play (card by card their highest is 7 and 9: reading every)."""
    _, st = new_state(DEAL_E, {"compare_with": reading})
    play(st, 7, 7), play(st, 2, 9)
    for pair in ((7, 8), (3, 9), (7, 9)):
        assert (pair in options(st)) is (pair in allowed), pair
    assert (2, 3) in options(st)  # the lowest cards, always
    if reading == "every":
        with pytest.raises(IllegalActionError):
            play(st, 3, 9)


# Seat 0 leads 7-7, seat 1 answers 8-10, seat 2 plays its lowest 5-10, seat 3 its lowest 2-2.
DEAL_F = ["7 7 3 3 4 4 5 5 6 6", "8 10 9 9 9 6 6 4 4 2", "5 10 10 10 10 11 11 11 11 11", "2 3 8 8 8 2 3 7 5 6"]


@pytest.mark.parametrize(("reading", "winner"), [("equal_or_higher", 1), ("highest_card", 2), ("highest_cards", 1)])
def test_register_trick_winner_by_the_next_highest_card(reading: str, winner: int) -> None:
    """Register 'trick-winner', deal F: 8-10 (seat 1) and 5-10 (seat 2, its lowest) share the highest card, 10.
    equal_or_higher: 5-10 is not equal or higher than 8-10 card by card, so seat 1 keeps the trick;
    highest_card: equal highest cards go to the last of them, seat 2; highest_cards: the next highest card
    decides, 8 over 5, seat 1."""
    _, st = new_state(DEAL_F, {"trick_winner": reading})
    play(st, 7, 7), play(st, 8, 10), play(st, 5, 10), play(st, 2, 2)
    assert winners(st) == [winner]


@pytest.mark.parametrize("reading", ["equal_or_higher", "highest_card", "highest_cards"])
def test_register_trick_winner(reading: str) -> None:
    """Register 'trick-winner': deal D, 0 leads 7-7, 1 plays its lowest 2-8, 2 plays 3-3, 3 plays 2-3.
    2-8 is not equal or higher than 7-7 card by card (2 < 7), so seat 0 wins under equal_or_higher; 8 is the
    highest single card, so seat 1 wins under highest_card, and under highest_cards (8 before 7)."""
    _, st = new_state(DEAL_D, {"trick_winner": reading})
    play(st, 7, 7), play(st, 2, 8), play(st, 3, 3), play(st, 2, 3)
    assert winners(st) == ([0] if reading == "equal_or_higher" else [1])


@pytest.mark.parametrize("reading", ["any_time", "when_unable"])
def test_register_lowest_cards_when_able(reading: str) -> None:
    """Register 'lowest-cards-when-able' (a house rule): after 7-7 (deal C), seat 1 holds 8-8, 9-9, 11-11 and
    more that are equal or higher. "When playing, there are two choices": under any_time it may still play its
    lowest 2-2; under when_unable it may not. A player with no equal-or-higher play keeps the lowest cards
    under both readings ("the player must play the lowest card(s) in the hand if the player has only lower
    cards")."""
    _, st = new_state(DEAL_C, {"lowest_cards": reading})
    play(st, 7, 7)
    assert ((2, 2) in options(st)) is (reading == "any_time")
    assert (8, 8) in options(st)
    if reading == "when_unable":
        with pytest.raises(IllegalActionError, match="must do so"):
            play(st, 2, 2)
    # after 7-7 and 11-11, seat 2 holds nothing at 11 or above ...
    _, st = new_state(["7 7 3 3 4 4 5 5 6 6", "11 11 10 10 9 9 8 8 2 2", "2 3 4 4 5 5 6 6 3 2",
                       "9 9 8 8 7 7 6 10 10 11"],
                      {"lowest_cards": reading})
    play(st, 7, 7), play(st, 11, 11)
    assert options(st) == {(2, 2)}  # ... so its lowest cards are its only play


@pytest.mark.parametrize("reading", ["aside_hidden", "aside_open"])
def test_register_undealt_cards(reading: str) -> None:
    """Register 'undealt-cards': the ten cards aside are seen by nobody (only their count) or by everyone."""
    _, st = new_state(DEAL_A, {"undealt_cards": reading})
    view = st.observation(1)["zones"]["aside"]
    assert view["count"] == 10
    if reading == "aside_open":
        assert len(view["cards_top_first"]) == 10
    else:
        assert not view.get("cards_top_first")


@pytest.mark.parametrize("reading", ["last_trick_order", "round_order"])
def test_register_last_loser(reading: str) -> None:
    """Register 'last-loser': deal B's losers are seats 1 and 3. The last trick's start player is seat 3 (it won
    T4): clockwise from it, 3 then 1, so the last loser is 1 and seat 2 starts round 2. From the round's start
    player, seat 0: 1 then 3, so the last is 3 and seat 0 starts."""
    _, st = new_state(DEAL_B, {"last_loser": reading})
    play_deal_b(st)
    if reading == "last_trick_order":
        assert st.hand_results[0]["losers"] == [3, 1] and st.current_player() == 2
    else:
        assert st.hand_results[0]["losers"] == [1, 3] and st.current_player() == 0


@pytest.mark.parametrize("reading", ["shared_win", "extra_hand"])
def test_register_lowest_tie(reading: str) -> None:
    """Register 'lowest-tie': totals [22, 5, 5, 9] end the game with seats 1 and 2 tied lowest: they share the
    win, or another round is played; after it [25, 5, 7, 12] seat 1 alone is lowest and wins."""
    g, st = new_state(DEAL_A, {"lowest_tie": reading})
    st.counters = [22, 5, 5, 9]
    g.match.after_hand(st, [8, 0, 0, 0])
    if reading == "shared_win":
        assert st.winners == (1, 2)
        return
    assert st.winners is None and st.extra_hand
    st.counters = [25, 5, 7, 12]
    g.match.after_hand(st, [3, 0, 2, 3])
    assert st.winners == (1,)


def test_every_register_entry_has_a_test_for_each_reading() -> None:
    """Each ambiguity of the spec is one of the register tests above, with all its readings."""
    tested = {"players": {"4", "5", "6"}, "respectively": {"sorted_pairs", "above_highest"},
              "compare_with": {"best", "previous", "every"},
              "trick_winner": {"equal_or_higher", "highest_card", "highest_cards"},
              "undealt_cards": {"aside_hidden", "aside_open"},
              "last_loser": {"last_trick_order", "round_order"}, "lowest_tie": {"shared_win", "extra_hand"},
              "won_tricks": {"face_down", "face_up"}, "lowest_cards": {"any_time", "when_unable"},
              "dealer_rotation": {"left", "none"}}  # test_register_birdhead.py
    spec = load(SYSTEM)
    assert {a.option: set(a.readings) for a in spec.ambiguities} == tested


@pytest.mark.parametrize(("players", "each", "aside"), [(4, 10, 10), (5, 10, 0), (6, 8, 2)])
def test_register_player_count(players: int, each: int, aside: int) -> None:
    """Register 'player-count': "deal as many cards as possible until the number of each player's hand is
    same", at most 10: four players 10 each (10 aside), five 10 each (50 = 5 x 10, none aside), six 8 each
    (6 x 9 = 54 > 50, 6 x 8 = 48, 2 aside). A match is played to its end."""
    g = Game.from_system(SYSTEM, {"players": players})
    st = g.new_initial_state(1)
    assert [h.bit_count() for h in st.hands] == [each] * players and len(st.piles["aside"]) == aside
    rng = random.Random(players)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    assert max(st.counters) >= 22


def test_numeric_values_need_numeric_ranks(tmp_path: Any) -> None:
    """Bad input: ``values: rank_number`` over a deck whose ranks are not numbers is a SpecError naming the
    file and the key."""
    with open(load(SYSTEM).file, encoding="utf-8") as f:
        text = f.read()
    bad = text.replace('ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]',
                       'ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J"]')
    path = tmp_path / "birdhead-bad.yaml"
    path.write_text(bad.replace("id: birdhead", "id: birdhead-bad"), encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        Game(load(str(path)))
    assert "phases.0.values" in str(exc.value) and "birdhead-bad.yaml" in str(exc.value)
