"""Rule tests for bird-dog-2p (001, "Playing with Two Players"), named after the clauses they pin.

Seats: players 0 and 1; the Bird Dog pile is the dummy seat 2 (``dog``). Expected values are
worked out by hand from the text.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from helpers import mask, score_captures, trick_winners, up_card

from cardspec.engine.bots import rule_bot
from cardspec.engine.errors import RecordError
from cardspec.engine.game import Game
from cardspec.engine.options import parse_value
from cardspec.engine.record import dumps, record_of, replay
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "bird-dog-2p"
DOG = 2

# dealer 0: clockwise from the dealer, opponent 1, the dog, then the dealer.
# Turn-up KD: trump diamonds, the top card is KH (it keeps its suit, hearts).
DEAL: dict[str, Any] = {
    "dealer": 0,
    "hands": [["9C", "KC", "JC", "9D", "10D", "JD", "KH"],
              ["JH", "QH", "AH", "JS", "QS", "KS", "AS"], []],
    "piles": {"undealt": ["KD", "QD", "AD"],
              "dog_pile": ["AC", "10C", "QC", "9H", "10H", "9S", "10S"]},  # top first
}


def game(**opts: Any) -> Game:
    return Game.from_system(SYSTEM, opts)


def names(st: State, seat: int) -> set[str]:
    return {st.game.deck.names[c] for c in st.game.deck.cards_of(st.hands[seat])}


def dealt(g: Game | None = None, seed: int | None = 1) -> State:
    return (g or game()).new_initial_state(seed, [DEAL])


def to_play(st: State, *acts: str) -> State:
    for a in acts:
        st.apply_name(a)
    return st


# --- the deal ------------------------------------------------------------------------------------
def test_deal_three_piles_of_seven_and_three_undealt() -> None:
    """"the deal should create three piles of 7 cards each, leaving three cards un-dealt"."""
    st = game().new_initial_state(5)
    assert sorted(bin(st.hands[s]).count("1") for s in (0, 1)) == [7, 7]
    assert st.hands[DOG] == 0  # the dog's pile is face down until play begins
    assert len(st.piles["dog_pile"]) == 7 and len(st.piles["undealt"]) == 3


def test_deal_starts_with_the_opponent_and_the_dog_is_right_of_the_dealer() -> None:
    """"The deal should start with the opposing player then continue clockwise so that the third
    pile is to the right of the dealer": one card each, opponent, dog, dealer."""
    g = game()
    rules = g.deal
    hands, piles = rules.deal(list(range(24)), [1, 2, 0], 3)
    assert hands[1] == sum(1 << c for c in range(0, 21, 3))  # the opponent gets the first card
    assert piles["dog_pile"] == list(range(1, 21, 3))  # bottom first: the last dealt is on top
    assert hands[0] == sum(1 << c for c in range(2, 21, 3))
    assert piles["undealt"] == [23, 22, 21]


def test_dog_position_flips_with_the_deal() -> None:
    """"the location of the third pile should flip back and forth depending on who is dealing"."""
    g = game()
    assert g.seating.ring(0) == (1, 2, 0)  # 0 -> 1 -> dog -> 0
    assert g.seating.ring(1) == (2, 0, 1)  # 1 -> 0 -> dog -> 1
    st = dealt()
    assert st.ring == (1, 2, 0)
    assert st.seats_from(0) == [1, 0]  # the dog does not declare: it takes part in trick play only


def test_dealer_alternates_between_the_two_players() -> None:
    """"The dealer is initially decided randomly and then alternates between the two players"."""
    st = game().new_initial_state(11)
    rng = random.Random(0)
    bot = rule_bot(rng)
    while not st.is_terminal():
        st.apply(bot(st, st.legal_actions()))
    dealers = [r["dealer"] for r in st.hand_results]
    assert len(dealers) >= 2 and set(dealers) <= {0, 1}
    assert all(a != b for a, b in itertools.pairwise(dealers))


# --- establishing trump and the controller -----------------------------------------------------
def test_declaring_player_left_of_dealer_first_and_three_rounds() -> None:
    """"The player left of the dealer has the first option to play solo or again may pass"."""
    st = dealt()
    assert st.current_player() == 1
    to_play(st, "pass", "pass", "pass", "pass")
    assert st.game.deck.names[up_card(st)] == "AD"  # the third card
    to_play(st, "pass", "pass")  # nobody solo: the third card fixed trump
    assert st.contract.maker == -1 and st.game.deck.suits[st.contract.trump] == "D"


def test_controller_is_the_non_solo_player_and_current_player_reports_it() -> None:
    """"The other player has control over the Bird Dog’s play throughout the hand"."""
    st = to_play(dealt(), "declare", "pass", "play JH")  # 1 is solo; 0 passes nil; 1 leads
    assert st.cur == DOG and st.current_player() == 0
    st2 = to_play(dealt(), "pass", "declare", "pass")  # 0 is solo; 1 passes nil
    assert st2.controller[DOG] == 1
    to_play(st2, "play JH")
    assert st2.cur == DOG and st2.current_player() == 1


def test_controller_is_the_player_not_going_nil() -> None:
    """"the player not going nil controls the Bird Dog for the hand": the solo, if the other goes nil."""
    st = to_play(dealt(), "declare", "nil")
    assert st.controller[DOG] == 1
    st = to_play(dealt(game(nil_controls_dog="team")), "declare", "nil")
    assert st.controller[DOG] == 0


def test_controller_when_nobody_is_solo() -> None:
    """Ambiguity dog-controller-no-solo: the dealer (decision) or the player left of the dealer."""
    st = to_play(dealt(), *["pass"] * 6)  # six passes on turn-ups; nil is not asked again (nil-without-solo)
    assert st.contract.maker == -1 and st.controller[DOG] == 0
    st = to_play(dealt(game(dog_controller_no_solo="left_of_dealer")), *["pass"] * 6)
    assert st.controller[DOG] == 1


# --- play ------------------------------------------------------------------------------------------
def test_dog_follows_suit_only_among_its_three_visible_cards() -> None:
    """"The Bird Dog must follow suit in respect only to the three visible cards": hearts led, 9H
    and 10H lie in its pile, so it may play any of AC, 10C, QC."""
    st = to_play(dealt(), "declare", "pass", "play JH")
    assert names(st, DOG) == {"AC", "10C", "QC"}
    assert sorted(st.legal_action_names()) == ["play 10C", "play AC", "play QC"]
    assert "9H" in {st.game.deck.names[c] for c in st.piles["dog_pile"]}


def test_dog_refills_after_each_trick() -> None:
    """"After each trick the top card in the Bird Dog’s pile is flipped so there are again three
    cards face-up"."""
    st = to_play(dealt(), "declare", "pass", "play JH", "play QC")
    assert st.legal_action_names() == ["play KH"]  # the top card keeps its suit: hearts
    to_play(st, "play KH")
    assert trick_winners(st) == [0]
    assert names(st, DOG) == {"AC", "10C", "9H"} and len(st.piles["dog_pile"]) == 3


def test_dog_captures_and_leads_when_it_wins() -> None:
    """"If the Bird Dog wins the trick, those cards are acquired by the Bird Dog ... and the Bird Dog
    will lead the next trick"."""
    st = to_play(dealt(), "declare", "pass", "play JH", "play QC", "play KH", "play 9C", "play JS")
    assert st.cur == DOG  # clockwise from the dealer: 1, then the dog
    assert st.legal_action_names() == ["play 10C", "play AC"]  # clubs led: follow among visible
    to_play(st, "play AC")
    assert trick_winners(st) == [0, DOG]
    assert st.seat_piles["won"][DOG] == mask(st.game, "9C", "AC", "JS")
    assert st.cur == DOG and st.current_player() == 0


def test_controller_leads_for_the_dog_under_the_other_reading() -> None:
    """Ambiguity dog-leads, reading controller: the controller leads after the dog wins."""
    st = to_play(dealt(game(dog_leads="controller")), "declare", "pass", "play JH", "play QC", "play KH",
                 "play 9C", "play JS", "play AC")
    assert trick_winners(st) == [0, DOG] and st.cur == 0


# --- scoring -----------------------------------------------------------------------------------------
def scored(g: Game, maker: int, won: dict[int, tuple[str, ...]], nil: int = -1, tricks: dict[int, int] | None = None,
           controller: int = 0) -> list[int]:
    """Score a hand with these captures (tricks default: 1 per seat with cards); ``controller`` plays the dog."""
    return score_captures(g, maker, won, nil, tricks, (0, 1, controller))


def test_team_earns_the_tally_and_the_dog_earns_nothing() -> None:
    """"The team members each earn their total tally" and "the Bird Dog does not earn points":
    solo 1 has one pair (K), 0 one (J), the dog one (Q): tally 2 > 1, no bonus; two counters only."""
    g = game()
    won = {1: ("KS", "KH"), 0: ("JC", "JD"), DOG: ("QC", "QH")}
    assert scored(g, 1, won) == [2, 1]
    assert scored(game(points_distribution="own_pairs"), 1, won) == [1, 1]


def test_solo_winner_gets_the_bonus_point() -> None:
    """"If the solo player wins the hand, they earn a bonus point": solo 3 pairs against 1 + 1."""
    won = {1: ("JC", "JD", "QC", "QD", "KC", "KD"), 0: ("JS", "JH"), DOG: ("QS", "QH")}
    assert scored(game(), 1, won) == [2, 4]


def test_team_win_or_tie_gives_no_bonus() -> None:
    """"If the team wins the hand, or if there is a tie, no bonus point is awarded"."""
    tie = {1: ("JC", "JD", "QC", "QD"), 0: ("JS", "JH"), DOG: ("QS", "QH")}
    assert scored(game(), 1, tie) == [2, 2]


def test_dog_pairs_count_for_its_team_only_as_its_own() -> None:
    """"Team members may not combine separately acquired cards to create a pair": one Q each for
    player 0 and the dog make no pair."""
    won = {1: ("9C",), 0: ("QS",), DOG: ("QH",)}
    assert scored(game(), 1, won) == [0, 0]


def test_successful_nil_scores_three_and_the_other_nothing() -> None:
    """"If nil is successful, the player going nil earns three points and the other player earn no points"."""
    won = {1: ("JC", "JD", "QC", "QD"), DOG: ("KS", "KH")}
    assert scored(game(), 1, won, nil=0, tricks={0: 0, 1: 5, DOG: 2}) == [3, 0]


def test_broken_nil_scores_independently_with_a_bonus_for_most_pairs() -> None:
    """"the player going nil loses three points and scoring becomes independent ... The player who
    acquires the most pairs wins the hand and is awarded the bonus point"."""
    won = {0: ("JC", "JD"), 1: ("QC", "QD", "KC", "KD"), DOG: ("JS", "JH")}
    assert scored(game(), 1, won, nil=0) == [-3 + 1, 2 + 1]
    tie = {0: ("JC", "JD"), 1: ("QC", "QD"), DOG: ("KS", "KH", "QS", "QH")}
    assert scored(game(), 1, tie, nil=0) == [-2, 1]  # the dog alone does not compete: a tie, no bonus
    # dog-captures-without-teams, reading controller: its pairs join its controller (1, not going nil)
    assert scored(game(dog_without_teams="controller"), 1, tie, nil=0, controller=1) == [-2, 3 + 1]


def test_nobody_solo_each_tallies_own_pairs_and_the_winner_gets_a_point() -> None:
    """"there are no teams for the round and each player tallies their own points (one per pair) with
    the winning player earning an extra point"."""
    won = {0: ("JC", "JD", "QC", "QD"), 1: ("KC", "KD"), DOG: ("JS", "JH", "QS", "QH", "KS", "KH")}
    assert scored(game(), -1, won) == [3, 1]


# --- readings, matches and records ----------------------------------------------------------------
READINGS = [(a.option, v) for a in load(SYSTEM).ambiguities for v in a.readings]
WITH = {a.option: dict(a.with_options) for a in load(SYSTEM).ambiguities}
"""The other options under which each entry's readings differ (bird_dog_as_bower: only with Euchre bowers)."""


@pytest.mark.parametrize(("option", "value"), READINGS)
def test_every_ambiguity_reading_is_playable(option: str, value: str) -> None:
    g = game(**WITH[option], **{option: parse_value(load(SYSTEM).option_decls[option], value)})
    st = g.new_initial_state(7)
    rng = random.Random(3)
    bot = rule_bot(rng)
    steps = 0
    while not st.is_terminal() and steps < 20_000:
        st.apply(bot(st, st.legal_actions()))
        steps += 1
    assert st.is_terminal() and st.winners
    assert all(r["dealer"] in (0, 1) for r in st.hand_results)


def test_record_keeps_the_acting_seat_and_replays() -> None:
    st = to_play(dealt(), "declare", "pass", "play JH", "play QC")
    rec = record_of(st)
    assert rec["actions"][3] == {"seat": DOG, "action": "play QC"}
    assert dumps(replay(rec).record) == dumps(rec)
    bad = dict(rec, actions=[*rec["actions"][:3], {"seat": 0, "action": "play QC"}])
    with pytest.raises(RecordError, match="seat 0 acts but it is seat 2's turn"):
        replay(bad)


def test_whole_match_record_replays() -> None:
    st = game().new_initial_state(21)
    rng = random.Random(5)
    bot = rule_bot(rng)
    while not st.is_terminal():
        st.apply(bot(st, st.legal_actions()))
    rec = record_of(st)
    assert any(a["seat"] == DOG for a in rec["actions"])
    assert dumps(replay(rec).record) == dumps(rec)
    assert max(st.counters) >= 11


# --- nil called on one's own declaring turn ------------------------------------------------------
def test_nil_may_be_called_when_the_option_to_declare_is_theirs() -> None:
    """"A player may call nil when the option to declare is theirs": on a declaring turn nil is offered
    beside declaring and passing, and counts as that turn's pass."""
    st = dealt()
    assert st.current_player() == 1
    assert st.legal_action_names() == ["pass", "declare", "nil"]
    st.apply_name("nil")
    assert st.current_player() == 0 and st.contract.decl[1] and st.contract.trump < 0  # still declaring, dealer's turn
    st.apply_name("declare")  # the dealer goes solo over the first turned card
    assert st.contract.maker == 0
    # nobody is asked for nil again ("Only one player may nil per hand"): play starts
    assert st.game.codec.kind(st.legal_actions()[0]) == "play"


def test_a_nil_caller_only_passes_on_later_declaring_turns() -> None:
    """The preference rule speaks of "the players who did not declare the trump": a nil caller
    does not also go solo (reading not_declarer)."""
    st = dealt()
    st.apply_name("nil")
    st.apply_name("pass")  # the dealer passes: the next card is turned, player 1 first again
    assert st.current_player() == 1 and st.legal_action_names() == ["pass"]


def test_a_nil_caller_may_still_declare_under_the_other_reading() -> None:
    st = dealt(game(nil_who="all"))
    st.apply_name("nil")
    st.apply_name("pass")
    assert st.current_player() == 1 and "declare" in st.legal_action_names()


def test_nil_after_another_player_declared_is_still_asked() -> None:
    """"or after another player has declared but prior to the first card being played"."""
    st = dealt()
    st.apply_name("declare")  # player 1 goes solo at once
    assert st.current_player() == 0 and st.legal_action_names() == ["pass", "nil"]
    st.apply_name("nil")
    assert st.contract.decl[0] and st.game.codec.kind(st.legal_actions()[0]) == "play"


def test_also_on_turns_of_must_name_an_earlier_host_phase(tmp_path: Any) -> None:
    from cardspec.engine.errors import SpecError
    from cardspec.engine.loader import spec_dir

    text = (spec_dir() / "bird-dog-2p.yaml").read_text().replace("also_on_turns_of: declaring",
                                                                     "also_on_turns_of: play")
    p = tmp_path / "b.yaml"
    p.write_text(text)
    with pytest.raises(SpecError, match="also_on_turns_of"):
        Game.from_system(str(p))


# --- the match end -----------------------------------------------------------------------------------
def _at(g: Game, totals: list[int], gained: list[int], extra: bool = False) -> State:
    st = g.new_initial_state(1)
    st.counters = list(totals)
    st.extra_hand = extra
    g.match.after_hand(st, gained)
    return st


def test_both_at_eleven_play_another_hand() -> None:
    """"If two players reach 21 at the same time, another hand is played" (unchanged for two players)."""
    st = _at(game(), [12, 11], [3, 2])
    assert st.winners is None and st.extra_hand


def test_highest_wins_reading_breaks_only_an_exact_tie_with_another_hand() -> None:
    g = game(simultaneous_target="highest_wins")
    assert _at(g, [12, 11], [3, 2]).winners == (0,)
    tied = _at(g, [11, 11], [3, 3])
    assert tied.winners is None and tied.extra_hand


def test_a_tie_after_the_extra_hand_follows_the_register() -> None:
    """"The player with the highest score after the hand is the winner." (extra-hand-tie)"""
    again = _at(game(), [13, 13], [1, 1], extra=True)
    assert again.winners is None
    shared = _at(game(extra_hand_tie="shared_win"), [13, 13], [1, 1], extra=True)
    assert shared.winners == (0, 1)
    assert _at(game(), [14, 13], [2, 1], extra=True).winners == (0,)


@pytest.mark.parametrize(("target", "total", "over"), [(11, 11, True), (11, 10, False), (21, 20, False),
                                                        (21, 21, True)])
def test_first_to_the_target_wins(target: int, total: int, over: bool) -> None:
    """"First player to 11 points wins." (target-eleven-or-twenty-one: 21 is the other reading)"""
    st = _at(game(target=target), [total, 3], [2, 0])
    assert (st.winners == (0,)) is over
