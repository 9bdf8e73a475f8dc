"""Register entries of The Card Game (source 004_945a3021da002f83.txt) added by the clause-by-clause reading.

One test per reading of each new entry (``deal-packets``, ``must-go-out`` and the house rules ``jokers-wild``,
``laying-down-early``, ``buying-out-of-turn``), named after the clause it reads, and one that pins which entries
are house rules outside the text. Expected values come from the text and the reading's
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
    assert marked == {"wild-heavy-melds", "wild-rank-set", "laying-off", "jokers-wild", "laying-down-early",
                      "buying-out-of-turn", "discard-the-drawn-card"}  # "(which can be the card they just picked up)"
    for a in load("the-card-game").ambiguities:
        assert a.decision == str(decls[a.option].default), a.id
    assert entry("wild-heavy-melds").decision == "1"
    assert entry("wild-rank-set").decision == "never"
    assert entry("laying-off").decision == "none"
    assert entry("jokers-wild").decision == "none"  # "Jokers: No"
    assert entry("laying-down-early").decision == "out_only"
    assert entry("buying-out-of-turn").decision == "none"


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


# --- jokers-wild: "Jokers: No" ---------------------------------------------------------------------------

JOKERS = ["JK#1", "JK#2"]


def joker_deal(hands: list[list[str]], turned: str, stock_top: list[str], jokers: bool) -> dict[str, Any]:
    """Round 1, dealer 0 (play goes 1, 2, 0): the hands, the turned card and the pickup pile starting with
    ``stock_top`` (top card first); the rest of the pack (with the two jokers under ``jokers``) below."""
    used = [c for h in hands for c in h] + [turned, *stock_top]
    rest = [c for c in PACK + (JOKERS if jokers else []) if c not in used]
    return {"dealer": 0, "hands": hands, "piles": {"discard": [turned], "stock": [*stock_top, *rest]}}


def joker_game(jokers: str) -> Game:
    return Game.from_system("the-card-game", {"players": 3, "jokers": jokers})


def joker_tally(g: Game, hand: list[str]) -> int:
    """The points ``hand`` counts at the end of round 1 (threes wild)."""
    m = g.phases[0].melding  # type: ignore[attr-defined]
    return int(m.tally_deadwood(g.deck.mask(g.deck.parse(c) for c in hand), 0))


HANDS = [["2C", "5D", "9S"], ["7D", "8D", "KC"], ["4C", "6H", "JS"]]
"""Seat 1 holds 7D 8D KC: a joker drawn would make a run of 7D 8D with a wild card."""


def test_jokers_no() -> None:
    """jokers=none (the decision): "Jokers: No"; the pack is 52 cards (three players: one deck) and only the
    round's rank is wild. Seat 1 draws the QH, which makes nothing with 7D 8D: it cannot go out."""
    assert entry("jokers-wild").decision == "none"
    g = joker_game("none")
    assert g.deck.size == 52 and not any(n.startswith("JK") for n in g.deck.names)
    st = g.new_initial_state(seed=0, deals=[joker_deal(HANDS, "10C", ["QH"], jokers=False)])
    st.apply_name("draw stock")
    assert not any(n.startswith("go out") for n in st.legal_action_names())
    # the tally counts face values only ("2-9: Face Value", "10, J, Q, K: 10 points"): 7 + 8 + 10
    assert joker_tally(g, ["7D", "8D", "KC"]) == 25


def test_jokers_wild_with_every_deck_worth_50() -> None:
    """jokers=wild: two jokers with the deck (54 cards), each wild in every round beside the round's rank;
    a meld still needs a "normal" card; a joker left in hand counts 50 points."""
    assert "50 points" in entry("jokers-wild").readings["wild"]
    g = joker_game("wild")
    assert g.deck.size == 54 and [n for n in g.deck.names if n.startswith("JK")] == JOKERS
    st = g.new_initial_state(seed=0, deals=[joker_deal(HANDS, "10C", ["JK#1"], jokers=True)])
    st.apply_name("draw stock")  # 7D 8D KC JK#1: the joker stands for the 6D or the 9D
    assert [n for n in st.legal_action_names() if n.startswith("go out")] == ["go out KC"]
    st.apply_name("go out KC")
    assert st.game.deck.names[st.piles["discard"][-1]] == "KC"
    assert sorted(st.game.deck.names[c] for c in st.piles["melds"]) == ["7D", "8D", "JK#1"]
    # at the tally: a joker with a 2 and the wild 3C is a meld (one natural card); two jokers and the wild 3C
    # are no meld (no "normal" card): 50 + 50 + 3; a joker with 2C 9S: 50 + 2 + 9
    assert joker_tally(g, ["JK#1", "2C", "3C"]) == 0
    assert joker_tally(g, ["JK#1", "JK#2", "3C"]) == 103
    assert joker_tally(g, ["JK#1", "2C", "9S"]) == 61


def test_jokers_wild_is_played_with_wild_rank_sets_never() -> None:
    """The wild reading is registered with wild_rank_sets=never and is not combined with the natural reading."""
    import pytest

    assert entry("jokers-wild").with_options == {"wild_rank_sets": "never"}
    with pytest.raises(Exception, match="requires"):
        Game.from_system("the-card-game", {"players": 3, "jokers": "wild", "wild_rank_sets": "natural"})


# --- laying-down-early: "once someone has a set or a run of 4, they lay down on their turn" -----------------


def round_two(lay_down: str, stock_top: list[str]) -> State:
    """Round 2 (4 cards, fours wild), dealer 1, so play goes 2, 0, 1. Round 1 is over at once: seat 1 holds
    the clubs A 2 3 and goes out. In round 2 seat 2 holds 7H 8H 9H KC, seat 0 2C 5D 9S JD, seat 1 3D 6S 10C QS;
    the 2S is turned; the pickup pile starts with ``stock_top``."""
    g = Game.from_system("the-card-game", {"players": 3, "lay_down": lay_down})
    r1 = joker_deal([["5D", "6D", "7S"], ["AC", "2C", "3C"], ["8C", "9C", "10S"]], "KS", ["QH", "JH", "JD"],
                    jokers=False)
    hands = [["2C", "5D", "9S", "JD"], ["3D", "6S", "10C", "QS"], ["7H", "8H", "9H", "KC"]]
    used = [c for h in hands for c in h] + ["2S", *stock_top]
    r2 = {"dealer": 1, "hands": hands,
          "piles": {"discard": ["2S"], "stock": [*stock_top, *[c for c in PACK if c not in used]]}}
    st = g.new_initial_state(seed=0, deals=[r1, r2])
    st.apply_name("draw stock")  # seat 1: QH, goes out laying AC 2C 3C
    st.apply_name("go out QH")
    for _ in range(2):  # seats 2 and 0: their one more turn
        top = st.game.deck.names[st.piles["stock"][-1]]
        st.apply_name("draw stock")
        st.apply_name(f"discard {top}")
    assert st.hand_no == 1 and st.current_player() == 2
    return st


def test_they_lay_down_when_they_go_out() -> None:
    """lay_down=out_only (the decision): laying down is going out ("lays down their 3 cards face up, and
    discards one card (Thus using up all of their cards)"). Seat 2 holds the run 7H 8H 9H, draws the AD and may
    only discard: no meld can be laid while the KC and AD are left."""
    import pytest

    from cardspec.engine.errors import InvalidActionError

    assert entry("laying-down-early").decision == "out_only"
    st = round_two("out_only", ["AD", "QD", "JC", "10H"])
    st.apply_name("draw stock")
    names = st.legal_action_names()
    assert not any(n.startswith(("meld", "lay off", "go out")) for n in names)
    with pytest.raises(InvalidActionError, match="names no action"):  # the game has no laying down at all
        st.apply_name("meld 7H 8H 9H")
    st.apply_name("discard AD")
    assert st.hands[2].bit_count() == 4 and not st.piles["melds"]


def test_they_lay_down_early_and_go_out_later() -> None:
    """lay_down=early: seat 2 draws the AD, lays down 7H 8H 9H and discards the KC, keeping the AD; the round
    goes on (no one has gone out). On its next turn it draws the 10H, adds it to its run and goes out by
    discarding its last card, the AD: the others get one more turn and seat 2 scores -5."""
    st = round_two("early", ["AD", "QD", "JC", "10H", "4S", "5S"])
    st.apply_name("draw stock")
    names = st.legal_action_names()
    assert "meld 7H 8H 9H" in names and not any(n.startswith("go out") for n in names)
    st.apply_name("meld 7H 8H 9H")
    assert st.current_player() == 2  # the turn goes on: a discard ends it
    st.apply_name("discard KC")
    assert st.current_player() == 0 and st.hand_no == 1  # the round goes on
    for top in ("QD", "JC"):  # seats 0 and 1 draw and throw back
        st.apply_name("draw stock")
        st.apply_name(f"discard {top}")
    st.apply_name("draw stock")  # seat 2: AD 10H
    assert "lay off 1 10H" in st.legal_action_names()
    st.apply_name("lay off 1 10H")
    assert st.legal_action_names() == ["go out AD"]  # the last card is the discard
    st.apply_name("go out AD")
    for top in ("4S", "5S"):  # seats 0 and 1: one more turn each
        st.apply_name("draw stock")
        st.apply_name(f"discard {top}")
    r = st.hand_results[1]
    assert r["went_out"] == 2
    assert [sorted(m) for m in r["melds"]] == [sorted(["7H", "8H", "9H", "10H"])]
    # seat 0: 2C 5D 9S JD = 2 + 5 + 9 + 10; seat 1: 3D 6S 10C QS = 3 + 6 + 10 + 10; seat 2 went out first: -5
    assert r["scores"] == [26, 29, -5]


# --- buying-out-of-turn: "That person can either pick up the top card on the pickup pile, or the top card on the
# discard pile." --------------------------------------------------------------------------------------------------

BUY_HANDS = [["9C", "9D", "5S"], ["2C", "5D", "8S"], ["4C", "6H", "JS"]]
"""Round 1, dealer 0 (play goes 1, 2, 0): seat 0 holds two nines; seat 1 will throw the 9H."""


def buy_state(buying: str) -> State:
    """Seat 1 draws the 9H from the pickup pile and throws it; seat 2 is about to draw. The pickup pile then
    starts KD, 7C, 4D."""
    g = Game.from_system("the-card-game", {"players": 3, "buying": buying})
    st = g.new_initial_state(seed=0, deals=[joker_deal(BUY_HANDS, "10C", ["9H", "KD", "7C", "4D"], jokers=False)])
    st.apply_name("draw stock")
    st.apply_name("discard 9H")
    assert st.current_player() == 2
    return st


def held(st: State, seat: int) -> list[str]:
    return sorted(st.game.deck.names[c] for c in st.game.deck.cards_of(st.hands[seat]))


def test_that_person_picks_up_the_top_discard() -> None:
    """buying=none (the decision): only "That person" whose turn it is takes the top discard; seat 2 draws
    from either pile, and no one else is asked."""
    import pytest

    from cardspec.engine.errors import InvalidActionError

    assert entry("buying-out-of-turn").decision == "none"
    st = buy_state("none")
    assert sorted(st.legal_action_names()) == ["draw discard", "draw stock"]
    with pytest.raises(InvalidActionError, match="names no action"):  # the game has no buying at all
        st.apply_name("buy")
    st.apply_name("draw stock")
    assert held(st, 2) == ["4C", "6H", "JS", "KD"] and held(st, 0) == ["5S", "9C", "9D"]


def test_others_may_buy_the_top_discard_with_a_penalty_card() -> None:
    """buying=one: seat 2, about to draw, has first refusal: it takes the 9H or lets it go (it may not simply
    draw from the pickup pile). It lets it go; seat 0 (not seat 1, who threw it) buys it with one penalty card,
    the KD from the top of the pickup pile; seat 2 then draws the next card, the 7C. Seat 0 has bought once this
    round, so when seat 1 next throws a card to seat 2 nobody may buy it and seat 2 simply draws."""
    import pytest

    from cardspec.engine.errors import IllegalActionError

    st = buy_state("one")
    assert sorted(st.legal_action_names()) == ["draw discard", "pass"]
    with pytest.raises(IllegalActionError, match="lets it go"):
        st.apply_name("draw stock")
    st.apply_name("pass")
    assert st.current_player() == 0 and sorted(st.legal_action_names()) == ["buy", "pass"]
    st.apply_name("buy")
    assert held(st, 0) == ["5S", "9C", "9D", "9H", "KD"]
    assert st.current_player() == 2 and st.legal_action_names() == ["draw stock"]
    st.apply_name("draw stock")
    assert held(st, 2) == ["4C", "6H", "7C", "JS"]
    st.apply_name("discard 7C")
    # seat 0 is about to draw; seat 1 has not bought, so seat 0 has first refusal of the 7C
    assert sorted(st.legal_action_names()) == ["draw discard", "pass"]
    st.apply_name("draw discard")  # seat 0 takes it as its draw (no one else is asked)
    assert st.current_player() == 0
    st.apply_name("discard KD")
    # seat 1 about to draw: seat 2 may still buy, so seat 1 has first refusal; it takes the KD
    st.apply_name("draw discard")
    st.apply_name("discard KD")
    # seat 2 about to draw: the only other player who did not throw the KD is seat 0, who has bought already
    assert sorted(st.legal_action_names()) == ["draw discard", "draw stock"]


def test_first_refusal_goes_to_the_player_about_to_draw() -> None:
    """buying=one: when seat 2 takes the 9H as its draw, nobody else is asked and seat 0 gets nothing."""
    st = buy_state("one")
    st.apply_name("draw discard")
    assert st.current_player() == 2 and held(st, 2) == ["4C", "6H", "9H", "JS"]
    assert held(st, 0) == ["5S", "9C", "9D"]
