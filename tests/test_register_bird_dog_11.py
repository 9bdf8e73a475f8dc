"""Register entries of Bird Dog (three players, to 11), source 000_9d59842f04c7ddaf.txt.

One test per reading of each entry added by the clause-by-clause reading, named after the clause.
Expected values come from the text and the reading's own words, not from engine output.
"""

from __future__ import annotations

import random

import pytest

from cardspec.engine.errors import RecordError
from cardspec.engine.game import Game
from cardspec.engine.state import State

# A pack in a known order, top card first: clubs, diamonds, hearts, spades, each 9 up to the Ace.
PACK = [f"{r}{s}" for s in "CDHS" for r in ("9", "10", "J", "Q", "K", "A")]


def dealt(option: str) -> tuple[list[set[str]], set[str]]:
    """Deal PACK under ``deal_packets=option`` with seat 0 dealing, so seats 1, 2, 0 receive in turn
    ("dealt to each player clockwise around the table"); each seat's hand and the undealt pile."""
    g = Game.from_system("bird-dog-11", {"deal_packets": option})
    order = [g.deck.parse(c) for c in PACK]
    hands, piles = g.deal.deal(order, [1, 2, 0], 3)
    return [{g.deck.names[c] for c in g.deck.cards_of(h)} for h in hands], {g.deck.names[c] for c in piles["undealt"]}


# --- deal-packets: "Seven cards are dealt to each player clockwise around the table" ------------


def test_seven_cards_dealt_one_at_a_time() -> None:
    """deal_packets=one_at_a_time (the decision): one card at a time to each player clockwise from
    the dealer's left, seven times round; the next three cards are the undealt pile."""
    hands, undealt = dealt("one_at_a_time")
    assert hands[1] == {"9C", "QC", "9D", "QD", "9H", "QH", "9S"}  # pack cards 1, 4, 7, ..., 19
    assert hands[2] == {"10C", "KC", "10D", "KD", "10H", "KH", "10S"}  # 2, 5, 8, ..., 20
    assert hands[0] == {"JC", "AC", "JD", "AD", "JH", "AH", "JS"}  # 3, 6, 9, ..., 21: the dealer last
    assert undealt == {"QS", "KS", "AS"}  # "leaving three cards un-dealt"


def test_seven_cards_dealt_three_then_four() -> None:
    """deal_packets=three_then_four: three cards to each player clockwise from the dealer's left,
    then four to each; the next three cards are the undealt pile."""
    hands, undealt = dealt("three_then_four")
    assert hands[1] == {"9C", "10C", "JC", "QD", "KD", "AD", "9H"}  # pack cards 1-3, then 10-13
    assert hands[2] == {"QC", "KC", "AC", "10H", "JH", "QH", "KH"}  # 4-6, then 14-17
    assert hands[0] == {"9D", "10D", "JD", "AH", "9S", "10S", "JS"}  # 7-9, then 18-21
    assert undealt == {"QS", "KS", "AS"}


# --- bird-dog-on-trump-lead: "The Bird Dog is the highest card in the hand and retains its own suit." ---

# The 10D is turned: Diamonds are trump and the 10H is the Bird Dog ("If the 10 of Diamonds is face up
# ..., the 10 of Hearts is the potential Bird Dog"). Seat 2 holds no Diamond but holds the Bird Dog.
TRUMP_LEAD_DEAL = {"dealer": 0,
                   "hands": [["9D", "10S", "JS", "QS", "KS", "AS", "QC"],
                             ["AD", "KD", "QD", "JD", "9C", "10C", "JC"],
                             ["10H", "9H", "JH", "QH", "KH", "AH", "9S"]],
                   "piles": {"undealt": ["10D", "KC", "AC"]}}


def trump_lead_trick(option: str) -> int:
    """Seat 1 declares Diamonds, nobody goes Nil, seat 1 leads the AD, seat 2 (no Diamond) throws the Bird
    Dog, seat 0 follows with the 9D; the seat that leads next, the trick's winner ("That player then leads
    for the next trick")."""
    st = Game.from_system("bird-dog-11", {"bird_dog_on_trump_lead": option}).new_initial_state(0, [TRUMP_LEAD_DEAL])
    st.apply_name("declare")
    for _ in range(3):
        st.apply_name("pass")
    assert st.current_player() == 1  # "The player to the left of the dealer begins the hand."
    st.apply_name("play AD")
    assert "play 10H" in st.legal_action_names()  # no Diamond: "they may play whichever card they would like"
    st.apply_name("play 10H")
    st.apply_name("play 9D")
    return st.current_player()


def test_bird_dog_thrown_on_a_trump_lead_wins() -> None:
    """Reading wins: "or if the Bird Dog was played, the Bird Dog" takes the trick, a trump lead included."""
    assert trump_lead_trick("wins") == 2


def test_bird_dog_thrown_on_a_trump_lead_is_a_card_of_its_own_suit() -> None:
    """Reading own_suit: on a trump lead the Bird Dog is a Heart, off the led suit, and the highest trump
    (the AD) wins."""
    assert trump_lead_trick("own_suit") == 1


def test_bird_dog_beats_trumps_on_another_lead_under_both_readings() -> None:
    """Both readings: on a lead of any other suit the Bird Dog (10H under Diamonds) outranks every trump,
    the AD included; on a Diamond lead it does so only under reading wins."""
    for option in ("wins", "own_suit"):
        g = Game.from_system("bird-dog-11", {"bird_dog_on_trump_lead": option})
        d = g.deck
        tables = g.trick_tables(d.suits.index("D"), d.parse("10D"))
        bird_dog = d.parse("10H")
        trumps = [c for c in range(d.size) if d.suit_of[c] == d.suits.index("D")]
        for led in ("C", "H", "S"):
            row = tables.power[d.suits.index(led)]
            assert all(row[bird_dog] > row[t] for t in trumps), (option, led)
        row = tables.power[d.suits.index("D")]
        assert all(row[bird_dog] > row[t] for t in trumps) == (option == "wins")


# --- extra-hand-contenders: "another hand is played including all three players. The player with the
# highest score after the hand is the winner." ---------------------------------------------------------

EXTRA = {"hand": 5, "dealer": 0, "totals": [11, 12, 9], "extra_hand": True}  # seats 0 and 1 reached 11 together


def overtaking_extra_hand() -> tuple[int, list[int]]:
    """A seed whose extra hand (taken up mid-match, random legal play) leaves seat 2, at 9 before it, with
    the highest score and seats 0 and 1 untied; the seed and the totals after the hand."""
    g = Game.from_system("bird-dog-11")
    for seed in range(500):
        st = play_extra_hand(g, seed)
        t = st.counters
        if t[2] > max(t[0], t[1]) and t[0] != t[1]:
            return seed, list(t)
    raise AssertionError("no seed in 500 gives an extra hand that seat 2 overtakes")


def play_extra_hand(g: Game, seed: int, start: dict[str, object] = EXTRA) -> State:
    """The extra hand from ``start``, each move a seeded random choice among the legal ones."""
    st = g.new_initial_state(seed, start=start)
    rng = random.Random(seed)
    while not st.hand_results:
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_extra_hand_won_by_the_highest_of_all_three() -> None:
    """Reading any_player: "The player with the highest score after the hand is the winner", seat 2 too."""
    seed, totals = overtaking_extra_hand()
    st = play_extra_hand(Game.from_system("bird-dog-11", {"extra_hand_winner": "any_player"}), seed)
    assert st.counters == totals
    assert st.winners == (2,)


def test_extra_hand_won_by_the_highest_of_the_tied_players() -> None:
    """Reading tied_players: only seats 0 and 1, who reached 11 together, can win; the higher of them does,
    though seat 2 finished above both."""
    seed, totals = overtaking_extra_hand()
    st = play_extra_hand(Game.from_system("bird-dog-11", {"extra_hand_winner": "tied_players"}), seed)
    assert st.counters == totals
    assert st.winners == ((0,) if totals[0] > totals[1] else (1,))


def test_extra_hand_contenders_given_in_a_start_record() -> None:
    """A record taken up in an extra hand may name its contenders; naming them where everyone can win is
    an error, never silently ignored."""
    seed, totals = overtaking_extra_hand()
    g = Game.from_system("bird-dog-11", {"extra_hand_winner": "tied_players"})
    st = play_extra_hand(g, seed, {**EXTRA, "contenders": [1, 2]})
    assert st.winners == ((2,) if totals[2] > totals[1] else (1,))
    with pytest.raises(RecordError, match="contenders"):
        Game.from_system("bird-dog-11").new_initial_state(seed, start={**EXTRA, "contenders": [0, 1]})


# --- others-after-a-made-nil: "If the Nil is successful, the player going nil earns three points." ---------


def made_nil_hand(option: str) -> State:
    """The first seeded random hand in which seat 0's Nil (the only one) is made and another player takes a
    pair; the same deal and the same moves under each reading (the reading changes only the scores)."""
    g = Game.from_system("bird-dog-11", {"others_after_nil": option})
    for seed in range(2000):
        st = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.hand_results:
            names = st.legal_action_names()
            if "nil" in names:  # seat 0 goes Nil; nobody else does
                pick = "nil" if st.current_player() == 0 else rng.choice([n for n in names if n != "nil"])
            else:
                pick = rng.choice(names)
            st.apply_name(pick)
        facts = st.hand_results[0]["facts"]
        if facts[0]["nil"] == "made" and any(f["pairs"] > 0 for f in facts[1:]):
            return st
    raise AssertionError("no seed in 2000 gives a made Nil beside a pair")


def test_made_nil_and_the_others_keep_scoring() -> None:
    """Reading keep_scoring: seat 0's made Nil earns it three points; seats 1 and 2 score "Each pair earned
    throughout the hand is worth one point", and the hand winner who did not declare its bonus point."""
    st = made_nil_hand("keep_scoring")
    facts, scores = st.hand_results[0]["facts"], st.hand_results[0]["scores"]
    assert scores[0] == 3
    for s in (1, 2):
        f = facts[s]
        assert f["nil_against"] == "made"
        bonus = 1 if f["most_pairs"] and not f["maker"] else 0  # the text's bonus (a fixed trump: awarded)
        assert scores[s] == f["pairs"] + bonus


def test_made_nil_and_the_others_score_nothing() -> None:
    """Reading score_nothing: "the player going nil earns three points and all other players earn no points"
    (the later edition's words): seats 1 and 2 score 0, pairs or not."""
    st = made_nil_hand("score_nothing")
    assert st.hand_results[0]["scores"] == [3, 0, 0]
    assert any(f["pairs"] > 0 for f in st.hand_results[0]["facts"][1:])


def test_a_broken_nil_leaves_the_others_scoring_under_both_readings() -> None:
    """A broken Nil ("that player loses three points") takes nothing from the others under either reading."""
    for option in ("keep_scoring", "score_nothing"):
        g = Game.from_system("bird-dog-11", {"others_after_nil": option})
        facts = {"pairs": 2, "most_pairs": True, "maker": False, "trump_made": True, "nil": "none",
                 "nil_against": "broken"}
        assert sum(t.evaluate(facts) for t in g.scoring.tables) == 3  # two pairs and the bonus point
        facts["nil_against"] = "made"
        assert sum(t.evaluate(facts) for t in g.scoring.tables) == (3 if option == "keep_scoring" else 0)
