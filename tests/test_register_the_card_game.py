"""Register entries of The Card Game (source 004_945a3021da002f83.txt) added by the clause-by-clause reading.

One test per reading of each new entry (``deal-packets``), named after the clause it reads, and one that
pins which entries are house rules outside the text. Expected values come from the text and the reading's
own words, not from engine output.

Three players, one deck, dealer 0: the cards go to seats 1, 2 and 0 in turn ("The person to the left of
the dealer begins the game"). The pack is in a known order, top card first: clubs, diamonds, hearts,
spades, each from the Ace up to the King.
"""

from __future__ import annotations

from typing import Any

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PACK = [r + s for s in "CDHS" for r in RANKS]


def entry(entry_id: str) -> Any:
    return next(a for a in load("the-card-game").ambiguities if a.id == entry_id)


def dealt(option: str, round_no: int) -> tuple[list[list[str]], list[str], list[str]]:
    """Deal PACK for round ``round_no`` (1-based) under ``deal_packets=option``, dealer 0; each seat's hand
    in the order dealt, the discard pile and the pickup pile (both top card first)."""
    g = Game.from_system("the-card-game", {"players": 3, "deal_packets": option})
    order = [g.deck.parse(c) for c in PACK]
    hands, piles = g.deal_for(round_no - 1).deal(order, [1, 2, 0], 3)
    names = g.deck.names
    return ([[names[c] for c in g.deck.cards_of(h)] for h in hands], [names[c] for c in reversed(piles["discard"])],
            [names[c] for c in reversed(piles["stock"])])


def play_dealt(option: str) -> State:
    """The first round dealt from PACK under ``deal_packets=option`` (the hands as ``dealt`` gives them),
    seat 1 to play."""
    hands, discard, stock = dealt(option, 1)
    g = Game.from_system("the-card-game", {"players": 3, "deal_packets": option})
    return g.new_initial_state(seed=0, deals=[{"dealer": 0, "hands": hands,
                                               "piles": {"discard": discard, "stock": stock}}])


# --- deal-packets: "The first round every person is dealt 3 cards." -------------------------------


def test_every_person_is_dealt_3_cards_one_at_a_time() -> None:
    """deal_packets=ones (the decision): one card at a time to each player from the dealer's left, round
    after round; the next card is turned for the discard pile and the rest is the pickup pile."""
    assert entry("deal-packets").decision == "ones"
    hands, discard, stock = dealt("ones", 1)
    assert sorted(hands[1]) == sorted(["AC", "4C", "7C"])  # pack cards 1, 4, 7
    assert sorted(hands[2]) == sorted(["2C", "5C", "8C"])  # 2, 5, 8
    assert sorted(hands[0]) == sorted(["3C", "6C", "9C"])  # 3, 6, 9: the dealer last
    assert discard == ["10C"]  # "the top card is turned over and set down as the “discard” pile"
    assert stock[0] == "JC" and len(stock) == 52 - 9 - 1
    # seat 1 holds AC 4C 7C with the 3s wild: the JC drawn makes no meld, so it cannot go out
    st = play_dealt("ones")
    st.apply_name("draw stock")
    assert not any(n.startswith("go out") for n in st.legal_action_names())
    # "everyone gets dealt 4 cards" in the second round, one at a time: seat 1 has cards 1, 4, 7, 10
    hands, discard, _ = dealt("ones", 2)
    assert sorted(hands[1]) == sorted(["AC", "4C", "7C", "10C"]) and discard == ["KC"]


def test_every_person_is_dealt_3_cards_as_a_whole_hand() -> None:
    """deal_packets=whole_hand: each player's whole hand at once from the dealer's left (three cards in the
    first round, up to thirteen in the last), then the discard card and the pickup pile."""
    assert "whole hand at once" in entry("deal-packets").readings["whole_hand"]
    hands, discard, stock = dealt("whole_hand", 1)
    assert sorted(hands[1]) == sorted(["AC", "2C", "3C"])  # pack cards 1-3
    assert sorted(hands[2]) == sorted(["4C", "5C", "6C"])  # 4-6
    assert sorted(hands[0]) == sorted(["7C", "8C", "9C"])  # 7-9
    assert discard == ["10C"] and stock[0] == "JC"
    # seat 1 holds AC 2C and the wild 3C, a run of three: it draws the JC and goes out throwing it
    st = play_dealt("whole_hand")
    st.apply_name("draw stock")
    assert "go out JC" in st.legal_action_names()
    # the last round ("then finally 13/King"): thirteen cards at once, so seat 1 gets all the clubs
    hands, discard, _ = dealt("whole_hand", 11)
    assert sorted(hands[1]) == sorted(r + "C" for r in RANKS) and discard == ["AS"]


# --- house rules outside the text -------------------------------------------------------------------


def test_readings_outside_the_text_are_marked_house_rules() -> None:
    """The text's own rules: "You may use as many wilds as you’d like in a set or run, but you must have at
    least 1 “normal” card" (two naturals is a house rule), every card of the round's rank is wild ("This first
    round 3‘s are wild", so three 3s alone are a set only by house rule), and melds are laid only by going out
    (laying off is a house rule). Those entries are marked and decide the text; the silences are not."""
    decls = load("the-card-game").option_decls
    marked = {a.id for a in load("the-card-game").ambiguities if a.house_rule}
    assert marked == {"wild-heavy-melds", "wild-rank-set", "laying-off"}
    for a in load("the-card-game").ambiguities:
        assert a.decision == str(decls[a.option].default), a.id
    assert entry("wild-heavy-melds").decision == "1"
    assert entry("wild-rank-set").decision == "never"
    assert entry("laying-off").decision == "none"


# --- must-go-out: "This continues until someone has a set or a run of 3." -------------------------------


def able_to_go_out(must: str) -> State:
    """Seat 1 holds AC 2C and the wild 3C (deal_packets=whole_hand) and draws the JC: it can go out."""
    hands, discard, stock = dealt("whole_hand", 1)
    g = Game.from_system("the-card-game", {"players": 3, "deal_packets": "whole_hand", "must_go_out": must})
    deal = {"dealer": 0, "hands": hands, "piles": {"discard": discard, "stock": stock}}
    st = g.new_initial_state(seed=0, deals=[deal])
    st.apply_name("draw stock")
    assert "go out JC" in st.legal_action_names()
    return st


def test_someone_has_a_run_of_3_and_may_play_on() -> None:
    """must_go_out=off (the decision): going out is a choice; seat 1 may discard the JC and play on."""
    assert entry("must-go-out").decision == "off"
    st = able_to_go_out("off")
    assert "discard JC" in st.legal_action_names()
    st.apply_name("discard JC")
    assert st.current_player() == 2 and not st.hand_results


def test_someone_has_a_run_of_3_and_must_go_out() -> None:
    """must_go_out=on: a player who can go out must; only going out is offered, and a discard is refused."""
    import pytest

    from cardspec.engine.errors import IllegalActionError

    st = able_to_go_out("on")
    assert all(n.startswith("go out") for n in st.legal_action_names())
    with pytest.raises(IllegalActionError, match="must go out"):
        st.apply_name("discard JC")
