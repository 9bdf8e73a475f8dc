"""Rule tests for bird-dog-21 (001, the three-player game to 21), named after the clauses they pin.

Seats 0, 1, 2 clockwise. In the fixed deal the dealer is 0, so the player left of the dealer is 1,
then 2, then the dealer. The turn-ups are KD, QD, AD (top first): trump diamonds, and the highest
card is the red twin of the turned card (KH for KD, QH for QD, AH for AD), which keeps its suit.
Expected values are worked out by hand from the text, never read off the engine.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from helpers import score_captures, trick_winners, up_card

from cardspec.engine.bots import rule_bot
from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.options import parse_value
from cardspec.engine.record import dumps, record_of, replay
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "bird-dog-21"

DEAL: dict[str, Any] = {
    "dealer": 0,
    "hands": [["9C", "KC", "JC", "9D", "10D", "JD", "KH"],
              ["JH", "QH", "AH", "JS", "QS", "KS", "AS"],
              ["AC", "10C", "QC", "9H", "10H", "9S", "10S"]],
    "piles": {"undealt": ["KD", "QD", "AD"]},  # top first
}


def game(**opts: Any) -> Game:
    return Game.from_system(SYSTEM, opts)


def dealt(g: Game | None = None) -> State:
    return (g or game()).new_initial_state(1, [DEAL])


def act(st: State, *names: str) -> State:
    for a in names:
        st.apply_name(a)
    return st


def kinds(st: State) -> set[str]:
    return {st.game.codec.kind(a) for a in st.legal_actions()}


def nils(st: State) -> list[int]:
    return [s for s in range(3) if st.contract.decl[s]]


def played_out(g: Game, seed: int, bot_seed: int = 0) -> State:
    st = g.new_initial_state(seed)
    bot = rule_bot(random.Random(bot_seed))
    steps = 0
    while not st.is_terminal() and steps < 50_000:
        st.apply(bot(st, st.legal_actions()))
        steps += 1
    assert st.is_terminal()
    return st


# --- the deal ------------------------------------------------------------------------------------------
def test_seven_cards_each_leaving_three_undealt() -> None:
    """"Seven cards are dealt to each player clockwise around the table, leaving three cards un-dealt":
    3 x 7 = 21 of the 24-card Euchre deck ("9 through Ace"), 3 left."""
    st = game().new_initial_state(4)
    assert [bin(h).count("1") for h in st.hands] == [7, 7, 7]
    assert len(st.piles["undealt"]) == 3 and st.game.deck.size == 24


def test_the_first_dealer_is_random_then_the_deal_rotates_clockwise() -> None:
    """"The initial dealer is decided randomly" and "From then on, the dealer rotates clockwise around
    the table": over many seeds every seat deals first; within a match each dealer is the last one's left."""
    g = game()
    assert {g.new_initial_state(seed).dealer for seed in range(30)} == {0, 1, 2}
    st = played_out(g, 11)
    dealers = [r["dealer"] for r in st.hand_results]
    assert len(dealers) >= 3
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))


# --- establishing the solo player / trump ------------------------------------------------------------
def test_left_of_dealer_has_the_first_option_to_play_solo() -> None:
    """"The player left of the dealer has the first option to establish trump, simply by declaring they
    will play solo": the dealer is 0, so 1 is asked first, then 2, then 0."""
    st = dealt()
    assert st.current_player() == 1 and "declare" in st.legal_action_names()
    act(st, "pass")
    assert st.current_player() == 2
    act(st, "pass")
    assert st.current_player() == 0


def test_declaring_makes_the_solo_player_and_fixes_trump() -> None:
    """"The player who establishes the trump will be the solo player for the hand": 2 declares over KD."""
    st = act(dealt(), "pass", "declare")
    assert st.contract.maker == 2 and st.game.deck.suits[st.contract.trump] == "D"


def test_after_the_third_card_left_of_dealer_again_may_play_solo() -> None:
    """"the last card of the pile of three is flipped face up and establishes the trump suit. The player
    left of the dealer has the first option to play solo or again may pass": after six passes AD is up
    and player 1 may still declare; declaring there makes 1 the solo."""
    st = act(dealt(), *["pass"] * 6)
    assert st.game.deck.names[up_card(st)] == "AD"
    assert st.current_player() == 1 and "declare" in st.legal_action_names()
    act(st, "declare")
    assert st.contract.maker == 1 and st.game.deck.suits[st.contract.trump] == "D"


def test_nobody_solo_the_third_card_fixes_trump_with_no_teams() -> None:
    """"If no player declares they will play solo, there are no teams for the round": nine passes, the
    third card (AD) fixes diamonds, nobody is the maker and play begins, led by the dealer's left (1)."""
    st = act(dealt(), *["pass"] * 9)
    assert st.contract.maker == -1 and st.game.deck.suits[st.contract.trump] == "D"
    assert kinds(st) == {"play"} and st.current_player() == 1


def test_the_trump_cards_twin_is_highest_and_keeps_its_suit() -> None:
    """"if the Nine of Hearts is the face-up card declaring trump, the Nine of Diamonds becomes the
    highest card" and "it retains its suit": KD turned, so KH is highest and is a heart. Player 1 leads
    JH; 2 must follow with a heart (9H or 10H); 0 follows with its only heart KH, which wins."""
    st = act(dealt(), "declare", "pass", "pass", "play JH")
    assert {n.split()[1] for n in st.legal_action_names()} == {"9H", "10H"}
    act(st, "play 9H")
    assert st.legal_action_names() == ["play KH"]
    act(st, "play KH")
    assert trick_winners(st) == [0]


# --- going nil: when ---------------------------------------------------------------------------------
def test_nil_may_be_called_when_the_option_to_declare_is_theirs() -> None:
    """"A player may call nil when the option to declare is theirs": on a declaring turn, nil is offered
    beside declaring and passing, and counts as that turn's pass."""
    st = dealt()
    assert st.legal_action_names() == ["pass", "declare", "nil"]
    act(st, "nil")
    assert nils(st) == [1] and st.current_player() == 2 and st.contract.trump < 0


def test_only_one_player_may_nil_per_hand() -> None:
    """"Only one player may nil per hand.": once 1 has called nil, 2 and 0 are offered no nil on their
    declaring turns, and after 2 declares nobody is asked again: play begins."""
    st = act(dealt(), "nil")
    assert st.legal_action_names() == ["pass", "declare"]
    act(st, "declare")
    assert kinds(st) == {"play"} and nils(st) == [1]


def test_nil_after_another_player_has_declared() -> None:
    """"or after another player has declared but prior to the first card being played": 1 declares at
    once; the two others are each asked (2 then 0), and 0 calls nil."""
    st = act(dealt(), "declare")
    assert st.current_player() == 2 and st.legal_action_names() == ["pass", "nil"]
    act(st, "pass")
    assert st.current_player() == 0
    act(st, "nil")
    assert nils(st) == [0] and kinds(st) == {"play"}


# --- register: nil-timing (nil_who) ----------------------------------------------------------------
def test_nil_timing_not_declarer_the_solo_is_not_asked_and_a_nil_caller_only_passes() -> None:
    """Ambiguity nil-timing, decision not_declarer: after 1 declares and both others pass, play begins
    (the solo is not asked); a nil caller has only "pass" on its later declaring turns."""
    st = act(dealt(), "declare", "pass", "pass")
    assert kinds(st) == {"play"}
    st = act(dealt(), "nil", "pass", "pass")  # round 2: 1 is asked first again
    assert st.current_player() == 1 and st.legal_action_names() == ["pass"]


def test_nil_timing_all_the_solo_is_asked_last() -> None:
    """Reading all: the solo may go nil too, asked after the two team players."""
    st = act(dealt(game(nil_who="all")), "declare", "pass", "pass")
    assert st.current_player() == 1 and st.legal_action_names() == ["pass", "nil"]
    act(st, "nil")
    assert nils(st) == [1] and st.contract.maker == 1
    st = act(dealt(game(nil_who="all")), "nil", "pass", "pass")
    assert st.current_player() == 1 and "declare" in st.legal_action_names()


# --- register: nil-without-solo ----------------------------------------------------------------------
def test_nil_without_solo_closed_play_begins_after_nine_passes() -> None:
    """Ambiguity nil-without-solo, decision closed: nobody declared, so nobody is asked for nil again."""
    st = act(dealt(), *["pass"] * 9)
    assert kinds(st) == {"play"} and nils(st) == []


def test_nil_without_solo_open_everyone_is_asked_from_the_dealers_left() -> None:
    """Reading open: after nine passes 1, 2 and 0 are asked in turn; 2 calls nil, 0 is not asked."""
    st = act(dealt(game(nil_without_solo="open")), *["pass"] * 9)
    assert st.current_player() == 1 and st.legal_action_names() == ["pass", "nil"]
    act(st, "pass")
    assert st.current_player() == 2
    act(st, "nil")
    assert nils(st) == [2] and kinds(st) == {"play"}


# --- register: nil-preference -------------------------------------------------------------------------
@pytest.mark.parametrize(("reading", "order"), [
    # 2 declares (1 passed first). Continuing clockwise from 2: 0, then 1.
    ("next_clockwise", [0, 1]),
    ("later_clockwise", [1, 0]),
    # the declaring order, from the dealer's left: 1, then 0 (2 is the solo)
    ("dealer_order", [1, 0]),
])
def test_nil_preference_order_of_asking(reading: str, order: list[int]) -> None:
    """"If both of the players who did not declare the trump would like to go nil, the player
    continuing clockwise around the table has preference": the two team players are asked in the order
    of preference, and the first asked who calls nil has it (the other is not asked)."""
    st = act(dealt(game(nil_preference=reading)), "pass", "declare")
    assert st.current_player() == order[0]
    act(st, "nil")
    assert nils(st) == [order[0]] and kinds(st) == {"play"}
    st = act(dealt(game(nil_preference=reading)), "pass", "declare", "pass")
    assert st.current_player() == order[1]


def test_nil_preference_when_the_solo_is_left_of_the_dealer() -> None:
    """1 declares at once. Continuing clockwise from 1: 2 then 0 (next_clockwise, and the dealer's
    order too); later_clockwise asks 0 first."""
    assert act(dealt(), "declare").current_player() == 2
    assert act(dealt(game(nil_preference="dealer_order")), "declare").current_player() == 2
    assert act(dealt(game(nil_preference="later_clockwise")), "declare").current_player() == 0


# --- register: preferred-nil-over-called ---------------------------------------------------------------
def test_a_nil_called_on_a_declaring_turn_stands() -> None:
    """Ambiguity preferred-nil-over-called, decision stands: 1 calls nil on its declaring turn, 2
    declares; 0 (first clockwise from the solo, so the player with preference) is not asked."""
    st = act(dealt(), "nil", "declare")
    assert kinds(st) == {"play"} and nils(st) == [1]


def test_a_called_nil_yields_to_the_player_with_preference() -> None:
    """Reading yields: 1 calls nil, 2 declares; 0 has preference (clockwise from 2: 0, then 1), is
    asked, and by calling nil takes it over: 1's nil is withdrawn, one nil remains."""
    g = game(preferred_nil_over_called="yields")
    st = act(dealt(g), "nil", "declare")
    assert st.current_player() == 0 and st.legal_action_names() == ["pass", "nil"]
    act(st, "nil")
    assert nils(st) == [0] and kinds(st) == {"play"}
    st = act(dealt(g), "nil", "declare", "pass")  # 0 passes: 1 keeps its nil
    assert nils(st) == [1] and kinds(st) == {"play"}


def test_a_called_nil_of_the_player_with_preference_is_not_questioned() -> None:
    """Reading yields: 2 calls nil in round 1, 1 declares in round 2; clockwise from 1, 2 comes first,
    so the nil caller already has preference and nobody is asked."""
    st = act(dealt(game(preferred_nil_over_called="yields")), "pass", "nil", "pass", "declare")
    assert st.contract.maker == 1 and kinds(st) == {"play"} and nils(st) == [2]


def test_yields_needs_limit_one_and_a_host(tmp_path: Any) -> None:
    """A spec error names the file and the key."""
    text = (spec_dir() / f"{SYSTEM}.yaml").read_text(encoding="utf-8")
    bad = text.replace("    limit: one\n", "    limit: any\n").replace(
        "turn_declaration: {$option: preferred_nil_over_called}", "turn_declaration: yields")
    p = tmp_path / "b.yaml"
    p.write_text(bad, encoding="utf-8")
    with pytest.raises(SpecError, match=r"b\.yaml:\d+: key 'phases\.1\.turn_declaration'"):
        load(str(p))


# --- scoring ----------------------------------------------------------------------------------------------
def scored(g: Game, maker: int, won: dict[int, tuple[str, ...]], nil: int = -1,
           tricks: dict[int, int] | None = None) -> list[int]:
    """Score a hand with these captures (tricks default: 1 per seat with cards)."""
    return score_captures(g, maker, won, nil, tricks)


def test_team_members_each_earn_the_team_tally() -> None:
    """"The team members each earn their total tally from the hand. For example, if the team earns two
    pairs, each team member receives two points": solo 1 has one pair (KS KH); 0 has JC JD, 2 has QC QH:
    tally 1 + 1 = 2 > 1, the team wins, no bonus: [2, 1, 2]."""
    won = {1: ("KS", "KH"), 0: ("JC", "JD"), 2: ("QC", "QH")}
    assert scored(game(), 1, won) == [2, 1, 2]


def test_team_members_may_not_combine_cards_to_make_a_pair() -> None:
    """"Team members may not combine separately acquired cards to create a pair": 0 has QS, 2 has QH,
    so the team has no pair; solo 1 has none either: a 0-0 tie, nobody scores."""
    won = {1: ("9C",), 0: ("QS",), 2: ("QH",)}
    assert scored(game(), 1, won) == [0, 0, 0]


def test_three_jacks_make_one_pair_four_make_two() -> None:
    """"three Jacks creates one pair, four Jacks creates two pairs": solo 1 has JC JD JH (one pair)
    against a team with none: 1 + bonus 1; then four Jacks: 2 + 1."""
    assert scored(game(), 1, {1: ("JC", "JD", "JH")}) == [0, 2, 0]
    assert scored(game(), 1, {1: ("JC", "JD", "JH", "JS")}) == [0, 3, 0]


def test_a_solo_winner_earns_the_bonus_point() -> None:
    """"If the solo player wins the hand, they earn a bonus point": solo 1 has three pairs, the team
    one each (tally 2): solo 3 + 1, each team member 2."""
    won = {1: ("JC", "JD", "QC", "QD", "KC", "KD"), 0: ("JS", "JH"), 2: ("QS", "QH")}
    assert scored(game(), 1, won) == [2, 4, 2]


def test_a_tie_between_solo_and_team_gives_no_bonus() -> None:
    """"If the team wins the hand, or if there is a tie, no bonus point is awarded": solo 2 pairs
    against 1 + 1: [2, 2, 2]."""
    won = {1: ("JC", "JD", "QC", "QD"), 0: ("JS", "JH"), 2: ("QS", "QH")}
    assert scored(game(), 1, won) == [2, 2, 2]


def test_a_successful_nil_scores_three_and_everyone_else_nothing() -> None:
    """"If nil is successful, the player going nil earns three points and all other players earn no
    points": team player 0 takes no trick; solo 1 and team player 2 have pairs but score 0."""
    won = {1: ("JC", "JD", "QC", "QD"), 2: ("KS", "KH")}
    assert scored(game(), 1, won, nil=0, tricks={0: 0, 1: 5, 2: 2}) == [3, 0, 0]


def test_a_broken_nil_loses_three_and_scoring_becomes_independent() -> None:
    """"the player going nil loses three points and scoring becomes independent for each player. Each
    player earns one point for every pair they acquire, including the player going nil. The player who
    acquires the most pairs wins the hand and is awarded the bonus point": 0 (nil, one trick) has one
    pair, solo 1 two, team player 2 one: no team tally; 0: -3 + 1, 1: 2 + 1, 2: 1."""
    won = {0: ("JC", "JD"), 1: ("QC", "QD", "KC", "KD"), 2: ("JS", "JH")}
    assert scored(game(), 1, won, nil=0) == [-2, 3, 1]


def test_a_broken_nil_player_with_the_most_pairs_gets_the_bonus() -> None:
    """"The player who acquires the most pairs wins the hand": that may be the nil player itself,
    0 with two pairs against 1 and 0: -3 + 2 + 1 = 0."""
    won = {0: ("JC", "JD", "QC", "QD"), 1: ("KC", "KD"), 2: ("9S",)}
    assert scored(game(), 1, won, nil=0) == [0, 1, 0]


def test_nobody_solo_each_tallies_own_pairs_and_the_hand_winner_gets_a_point() -> None:
    """"there are no teams for the round and each player tallies their own points (one per pair) with
    the winning player earning an extra point for winning the hand": 0 two pairs, 1 one, 2 none."""
    won = {0: ("JC", "JD", "QC", "QD"), 1: ("KC", "KD"), 2: ("9S",)}
    assert scored(game(), -1, won) == [3, 1, 0]


@pytest.mark.parametrize(("reading", "expected"), [("none", [2, 2, 1]), ("shared", [3, 3, 1])])
def test_no_teams_tie_for_the_most_pairs(reading: str, expected: list[int]) -> None:
    """Ambiguity no-teams-tie: nobody solo, 0 and 1 two pairs each, 2 one. Decision none: no bonus;
    reading shared: 0 and 1 each get it."""
    won = {0: ("JC", "JD", "QC", "QD"), 1: ("KC", "KD", "JS", "JH"), 2: ("QS", "QH")}
    assert scored(game(no_teams_tie_bonus=reading), -1, won) == expected


def test_no_teams_tie_applies_after_a_broken_nil_too() -> None:
    """Broken nil of 2, then a tie between 0 and 1 (one pair each), 2 none: none: [1, 1, -3];
    shared: [2, 2, -3]."""
    won = {0: ("JC", "JD"), 1: ("KC", "KD"), 2: ("9S",)}
    assert scored(game(), 1, won, nil=2) == [1, 1, -3]
    assert scored(game(no_teams_tie_bonus="shared"), 1, won, nil=2) == [2, 2, -3]


# --- winning the game ----------------------------------------------------------------------------------
def _at(g: Game, totals: list[int], gained: list[int], extra: bool = False) -> State:
    st = g.new_initial_state(1)
    st.counters = list(totals)
    st.extra_hand = extra
    g.match.after_hand(st, gained)
    return st


@pytest.mark.parametrize(("total", "over"), [(21, True), (20, False), (24, True)])
def test_the_first_player_to_reach_21_wins(total: int, over: bool) -> None:
    """"The first player to reach 21 points wins the game.\""""
    st = _at(game(), [total, 3, 10], [2, 0, 1])
    assert (st.winners == (0,)) is over


def test_two_reaching_21_together_play_another_hand() -> None:
    """"If two players reach 21 at the same time, another hand is played including all three players"
    (two-reach-21, decision extra_hand): team players 0 and 2 reach 22 and 21 together."""
    st = _at(game(), [22, 12, 21], [2, 1, 2])
    assert st.winners is None and st.extra_hand


def test_two_reach_21_highest_wins_reading() -> None:
    """Reading highest_wins: 22 against 21 wins at once; an exact tie still plays another hand."""
    g = game(simultaneous_target="highest_wins")
    assert _at(g, [22, 12, 21], [2, 1, 2]).winners == (0,)
    tied = _at(g, [22, 12, 22], [2, 1, 2])
    assert tied.winners is None and tied.extra_hand


def test_after_the_extra_hand_the_highest_score_wins_even_the_third_player() -> None:
    """"The player with the highest score after the hand is the winner": 21, 21 and 17 + 7 = 24."""
    assert _at(game(), [21, 24, 21], [0, 7, 0], extra=True).winners == (1,)


@pytest.mark.parametrize(("reading", "winners"), [("another_hand", None), ("shared_win", (0, 2))])
def test_a_tie_after_the_extra_hand(reading: str, winners: tuple[int, ...] | None) -> None:
    """Ambiguity extra-hand-tie: teammates 0 and 2 tie at 23 after the extra hand."""
    st = _at(game(extra_hand_tie=reading), [23, 15, 23], [2, 0, 2], extra=True)
    assert st.winners == winners


# --- readings, matches and records -----------------------------------------------------------------------
READINGS = [(a.option, v) for a in load(SYSTEM).ambiguities for v in a.readings]
WITH = {a.option: dict(a.with_options) for a in load(SYSTEM).ambiguities}
"""The other options under which each entry's readings differ (bird_dog_as_bower: only with Euchre bowers)."""


@pytest.mark.parametrize(("option", "value"), READINGS)
def test_every_ambiguity_reading_is_playable(option: str, value: str) -> None:
    g = game(**WITH[option], **{option: parse_value(load(SYSTEM).option_decls[option], value)})
    st = played_out(g, 7, 3)
    assert st.winners and max(st.counters) >= 21


def test_whole_match_record_replays() -> None:
    st = played_out(game(), 21, 5)
    rec = record_of(st)
    assert dumps(replay(rec).record) == dumps(rec)
    assert max(st.counters) >= 21
