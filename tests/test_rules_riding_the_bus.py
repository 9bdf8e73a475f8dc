"""Rule tests for Riding the Bus (a 31 game), source 004_945a3021da002f83.txt.

Each test is named after the clause it pins and quotes it in its docstring. Positions
come from explicit deals; expected values come from the text, not from engine output.

Seats: four players by default, dealer 0, so play goes 1, 2, 3, 0. The pickup pile
("stock") is listed top card first; only its top cards matter to a test, the rest of
the deck fills it in a fixed order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.handvalue import HandValue
from cardspec.engine.state import State

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "CDHS" for r in RANKS]


def deal(hands: Sequence[Sequence[str]], stock_top: Sequence[str] = (), dealer: int = 0
         ) -> dict[str, Any]:
    """An explicit deal: the given hands, the stock starting with ``stock_top``."""
    used = [c for h in hands for c in h] + list(stock_top)
    assert len(set(used)) == len(used), "a card is dealt twice"
    rest = [c for c in DECK if c not in used]
    return {"dealer": dealer, "hands": [list(h) for h in hands],
            "piles": {"stock": [*stock_top, *rest]}}


def new_state(hands: Sequence[Sequence[str]], stock_top: Sequence[str] = (),
              options: dict[str, Any] | None = None,
              more_deals: Sequence[dict[str, Any]] = ()) -> tuple[Game, State]:
    """A game from an explicit deal; later hands (if reached and not given) are seeded."""
    g = Game.from_system("riding-the-bus", options or {})
    return g, g.new_initial_state(seed=0, deals=[deal(hands, stock_top), *more_deals])


# The knock tests knock on the round's first turn, which the register's first-turn-knock
# decision allows ("On your turn, rather than picking up a card, you may “knock”"); they name the reading
# explicitly, and both readings are pinned below.
KNOCK_AT_ONCE = {"first_turn_knock": "allowed"}




def value(g: Game, *cards: str) -> float:
    """The hand value of some cards, in points."""
    assert g.hand_value is not None
    return HandValue.points(g.hand_value.value(g.deck.mask(g.deck.parse(c) for c in cards)))


def cards(g: Game, mask: int) -> set[str]:
    return {g.deck.names[c] for c in g.deck.cards_of(mask)}


def quiet_turn(st: State, card: str) -> None:
    """Draw ``card`` from the pickup pile and discard it again (the hand is unchanged)."""
    st.apply_name("draw stock")
    st.apply_name(f"discard {card}")


# Hands used below, with their values by the text's rules.
LOW_4 = ["2C", "3D", "4S"]  # 4: no two cards share a suit, the best single card is 4
ALSO_4 = ["4H", "2S", "3C"]  # 4
KQ5_20 = ["KS", "QS", "5D"]  # 20: K + Q of spades
AK7_21 = ["AD", "KD", "7C"]  # 21: A + K of diamonds
N86_17 = ["9H", "8H", "6C"]  # 17: 9 + 8 of hearts


# --- hand values ----------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "points"), [
    (["4H", "QH", "AC"], 14),  # the text's example
    (["4H", "4C", "4S"], 30.5),  # the text's example of three of a kind
    (["AH", "KH", "QH"], 31),
    (["AS", "10S", "JS"], 31),
    (["2H", "3H", "4H"], 9),
    (["AC", "AD", "AS"], 30.5),
    (["10H", "JH", "QH"], 30),
    (["2C", "3D", "4S"], 4),
    (["KS", "QS", "5D"], 20),
    (["AD", "KD", "7C"], 21),
])
def test_points_only_add_within_one_suit(hand: list[str], points: float) -> None:
    """"2-9: Face Value ... 10, J, Q, K: 10 points / A: 11 points" and "points are only added
    together if the cards are the same suit. (e.g. If you had a 4 of hearts, a Queen of
    hearts, and an Ace of Clubs, you currently have 14 points" """
    g = Game.from_system("riding-the-bus")
    assert value(g, *hand) == points


def test_three_of_a_kind_is_worth_thirty_and_a_half() -> None:
    """"If you have three of a kind (e.g. three 4‘s) that is automatically worth 30.5
    points": more than 30 of one suit, less than 31."""
    g = Game.from_system("riding-the-bus")
    assert value(g, "4H", "4C", "4S") == 30.5
    assert value(g, "10H", "JH", "QH") < value(g, "4H", "4C", "4S") < value(g, "AH", "KH", "QH")


# --- turns --------------------------------------------------------------------------------


def test_first_player_draws_from_the_pickup_pile() -> None:
    """"The person to the left of the dealer starts by picking up a card of the pickup
    pile,and then discarding a card face up onto a “discard” pile." """
    g, st = new_state([AK7_21, LOW_4, KQ5_20, N86_17], stock_top=["2H"])
    assert st.current_player() == 1
    legal = set(st.legal_action_names())
    assert "draw stock" in legal
    assert "draw discard" not in legal  # the discard pile is still empty
    st.apply_name("draw stock")
    assert cards(g, st.hands[1]) == {"2C", "3D", "4S", "2H"}
    assert set(st.legal_action_names()) == {"discard 2C", "discard 3D", "discard 4S", "discard 2H"}
    st.apply_name("discard 3D")
    assert [g.deck.names[c] for c in st.piles["discard"]] == ["3D"]
    assert st.current_player() == 2
    # "The next person may pick up either the top card on the discard pile or the top card
    # on the pickup pile."
    assert {"draw stock", "draw discard"} <= set(st.legal_action_names())
    st.apply_name("draw discard")
    assert "3D" in cards(g, st.hands[2])


def test_take_three_needs_three_cards_on_the_discard_pile() -> None:
    """"Once there are at least 3 cards on the discard pile, a player may pick up the top 3
    cards on the discard pile and discard their entire hand" """
    g, st = new_state([N86_17, LOW_4, KQ5_20, AK7_21], stock_top=["2H", "3S", "5C"])
    takes = [n for n in st.legal_action_names() if n.startswith("take")]
    assert takes == []
    quiet_turn(st, "2H")  # seat 1: one card on the pile
    assert not [n for n in st.legal_action_names() if n.startswith("take")]
    quiet_turn(st, "3S")  # seat 2: two cards on the pile
    assert st.current_player() == 3
    assert not [n for n in st.legal_action_names() if n.startswith("take")]
    with pytest.raises(IllegalActionError) as exc:
        st.apply_name("take AD KD 7C")
    assert exc.value.source is not None
    assert "pick up the top 3 cards" in exc.value.source.quote
    quiet_turn(st, "5C")  # seat 3: three cards on the pile
    assert st.current_player() == 0
    assert "take 9H 8H 6C" in st.legal_action_names()
    st.apply_name("take 9H 8H 6C")
    assert cards(g, st.hands[0]) == {"2H", "3S", "5C"}
    assert {g.deck.names[c] for c in st.piles["discard"]} == {"9H", "8H", "6C"}
    assert st.current_player() == 1


def test_take_three_places_the_old_hand_in_a_chosen_order() -> None:
    """"a player may pick up the top 3 cards on the discard pile and discard their entire
    hand (choosing what order to place the 3 cards in the discard pile, of course)" """
    g, st = new_state([N86_17, LOW_4, KQ5_20, AK7_21], stock_top=["2H", "3S", "5C"])
    quiet_turn(st, "2H")
    quiet_turn(st, "3S")
    quiet_turn(st, "5C")
    a, b = st.copy(), st.copy()
    a.apply_name("take 9H 8H 6C")
    b.apply_name("take 6C 8H 9H")
    # both orders are offered and they leave different cards on top
    assert a.piles["discard"][-1] != b.piles["discard"][-1]
    assert [g.deck.names[c] for c in a.piles["discard"]] == ["9H", "8H", "6C"]
    assert [g.deck.names[c] for c in b.piles["discard"]] == ["6C", "8H", "9H"]


def test_knock_is_instead_of_picking_up() -> None:
    """"On your turn, rather than picking up a card, you may “knock”": once a card is
    drawn, knocking is no longer possible this turn."""
    _g, st = new_state([N86_17, LOW_4, KQ5_20, AK7_21], stock_top=["2H"], options=KNOCK_AT_ONCE)
    assert "knock" in st.legal_action_names()
    st.apply_name("draw stock")
    assert "knock" not in st.legal_action_names()
    with pytest.raises(IllegalActionError):
        st.apply_name("knock")


def test_after_a_knock_everyone_else_gets_exactly_one_more_turn() -> None:
    """"After knocking, everyone else gets 1 more turn, and then you all lay out your
    cards" """
    _g, st = new_state([N86_17, KQ5_20, LOW_4, AK7_21], stock_top=["2H", "3S", "5C"], options=KNOCK_AT_ONCE)
    st.apply_name("knock")  # seat 1 knocks
    seen = []
    for card in ["2H", "3S", "5C"]:
        seen.append(st.current_player())
        assert "knock" not in st.legal_action_names()  # one knock per round
        quiet_turn(st, card)
    assert seen == [2, 3, 0]
    assert len(st.hand_results) == 1  # the round is over: the knocker gets no new turn
    assert st.hand_results[0]["ended_by"] == "knock"


# --- strikes -------------------------------------------------------------------------------


def knock_round(hands: list[list[str]], options: dict[str, Any] | None = None,
                counters: list[int] | None = None,
                more_deals: Sequence[dict[str, Any]] = ()) -> tuple[Game, State]:
    """Seat 1 knocks at once; seats 2, 3, 0 take one quiet turn each."""
    g, st = new_state(hands, stock_top=["2H", "3S", "5C"], options={**KNOCK_AT_ONCE, **(options or {})},
                      more_deals=more_deals)
    if counters is not None:
        st.counters = counters
    st.apply_name("knock")
    for card in ["2H", "3S", "5C"]:
        quiet_turn(st, card)
    assert len(st.hand_results) == 1
    return g, st


def test_lowest_hand_receives_a_strike() -> None:
    """"then you all lay out your cards, and the person with the lowest score receives a
    strike": seat 2 (4 points) is lowest; the knocker (20) is not."""
    _g, st = knock_round([N86_17, KQ5_20, LOW_4, AK7_21])
    assert st.hand_results[0]["scores"] == [0, 0, 1, 0]


def test_knocker_who_is_lowest_takes_two_strikes() -> None:
    """"If the person who knocked is the lowest, they receive 2 strikes. Thus, you would only
    knock if you believed you did not have the lowest point total." """
    _g, st = knock_round([N86_17, LOW_4, KQ5_20, AK7_21])
    assert st.hand_results[0]["scores"] == [0, 2, 0, 0]


def test_tie_for_lowest_each_take_a_strike() -> None:
    """"If there is a tie for lowest, each person gets the strike" """
    _g, st = knock_round([N86_17, KQ5_20, LOW_4, ALSO_4])
    assert st.hand_results[0]["scores"] == [0, 0, 1, 1]


def test_knocker_in_a_tie_for_lowest_takes_two_strikes() -> None:
    """"If there is a tie for lowest, each person gets the strike (and if the person who
    knocked is involved in the tie, they get 2 strikes)" """
    _g, st = knock_round([N86_17, LOW_4, KQ5_20, ALSO_4])
    assert st.hand_results[0]["scores"] == [0, 2, 0, 1]


def test_exactly_31_ends_the_round_at_once() -> None:
    """"If at any time someone gets exactly 31 points (so, the Ace plus 2 10 point cards of a
    given suit) they instantly lay their hand down, and the round is over, and the person
    with the lowest score gets a strike." """
    hands = [AK7_21, ["AH", "KH", "2C"], ["2S", "3D", "4C"], KQ5_20]
    _g, st = new_state(hands, stock_top=["QH"])
    st.apply_name("draw stock")  # seat 1 draws the QH
    st.apply_name("discard 2C")  # AH KH QH: 31
    assert len(st.hand_results) == 1  # nobody else gets a turn
    r = st.hand_results[0]
    assert r["ended_by"] == "instant"
    assert r["scores"] == [0, 0, 1, 0]  # seat 2 (4 points) is lowest


def test_dealt_31_ends_the_round_before_any_turn() -> None:
    """"If at any time someone gets exactly 31 points ... the round is over" (the spec's
    reading dealt_31=on: "at any time" includes the deal)."""
    hands = [AK7_21, LOW_4, ["AH", "KH", "QH"], KQ5_20]
    _g, st = new_state(hands)
    assert len(st.hand_results) == 1
    assert st.hand_results[0]["ended_by"] == "instant"
    assert st.hand_results[0]["scores"] == [0, 1, 0, 0]
    assert st.history == []  # no turn was taken


@pytest.mark.parametrize(("reading", "strikes"), [("double", 2), ("single", 1)])
def test_knocker_lowest_when_a_final_turn_reaches_31(reading: str, strikes: int) -> None:
    """"If the person who knocked is the lowest, they receive 2 strikes." versus "they
    instantly lay their hand down, and the round is over, and the person with the lowest
    score gets a strike" (option knocker_after_31)."""
    hands = [N86_17, LOW_4, ["AH", "KH", "2S"], AK7_21]
    _g, st = new_state(hands, stock_top=["QH"], options={**KNOCK_AT_ONCE, "knocker_after_31": reading})
    st.apply_name("knock")  # seat 1 (4 points) knocks
    st.apply_name("draw stock")  # seat 2 draws the QH
    st.apply_name("discard 2S")  # 31
    r = st.hand_results[0]
    assert r["ended_by"] == "instant"
    assert r["scores"] == [0, strikes, 0, 0]


def test_three_strikes_and_out() -> None:
    """"Once a person gets 3 strikes they are out of the game." Seat 2, at two strikes, is
    lowest again: it is out, is dealt no cards and gets no turns."""
    next_deal = deal([["QC", "KC", "6D"], ["2H", "5H", "9S"], [], ["7D", "8D", "9D"]],
                     stock_top=["2C", "3C", "4C"], dealer=1)
    _g, st = knock_round([N86_17, KQ5_20, LOW_4, AK7_21], counters=[0, 0, 2, 0],
                         more_deals=[next_deal])
    assert st.counters == [0, 0, 3, 0]
    assert st.active == [True, True, False, True]
    assert not st.is_terminal()
    assert st.dealer == 1
    assert st.hands[2] == 0
    assert st.current_player() == 3  # seat 2, left of the dealer, is skipped
    order = []
    for card in ["2C", "3C", "4C"]:
        order.append(st.current_player())
        quiet_turn(st, card)
    assert order == [3, 0, 1]


def test_two_strikes_is_not_out() -> None:
    """"Once a person gets 3 strikes they are out of the game.": two strikes leave the
    player in."""
    _g, st = knock_round([N86_17, KQ5_20, LOW_4, AK7_21], counters=[0, 0, 1, 0])
    assert st.counters == [0, 0, 2, 0]
    assert st.active == [True, True, True, True]


def test_last_player_left_wins() -> None:
    """"Continue until there’s only one person left. That person wins." Two players: seat 1
    at two strikes is lowest after seat 0 knocks, goes out, and seat 0 wins."""
    g = Game.from_system("riding-the-bus", {"players": 2})
    st = g.new_initial_state(seed=0, deals=[deal([KQ5_20, LOW_4], stock_top=["2H", "3S"])])
    st.counters = [0, 2]
    assert st.current_player() == 1
    quiet_turn(st, "2H")
    st.apply_name("knock")  # seat 0 (20) knocks
    quiet_turn(st, "3S")  # seat 1's one more turn
    assert st.hand_results[0]["scores"] == [0, 1]
    assert st.counters == [0, 3]
    assert st.is_terminal()
    assert st.winners == (0,)


def test_game_goes_on_while_two_players_are_left() -> None:
    """"Continue until there’s only one person left.": with three of four still in, the
    match is not over."""
    _g, st = knock_round([N86_17, KQ5_20, LOW_4, AK7_21], counters=[0, 0, 2, 0])
    assert sum(st.active) == 3
    assert not st.is_terminal()
    assert st.winners is None


def test_higher_strike_level_option() -> None:
    """"or you an set a higher level if you want.. We’ve played up to 7": with a level of 7,
    a third strike does not put a player out."""
    _g, st = knock_round([N86_17, KQ5_20, LOW_4, AK7_21], options={"strike_limit": 7},
                         counters=[0, 0, 2, 0])
    assert st.counters == [0, 0, 3, 0]
    assert st.active == [True, True, True, True]


@pytest.mark.parametrize(("reading", "terminal", "winners", "counters"), [
    ("shared_win", True, (0, 1), [4, 3]),
    ("replay_round", False, None, [2, 2]),
])
def test_last_two_out_together(reading: str, terminal: bool, winners: tuple[int, ...] | None,
                               counters: list[int]) -> None:
    """"Continue until there’s only one person left. That person wins." with "If there is a
    tie for lowest, each person gets the strike": when the last two both reach three
    strikes nobody is left (option all_out). The knocker, tied for lowest, takes two."""
    g = Game.from_system("riding-the-bus", {"players": 2, "all_out": reading})
    st = g.new_initial_state(seed=0, deals=[deal([ALSO_4, LOW_4], stock_top=["2H", "3S"])])
    st.counters = [2, 2]
    quiet_turn(st, "2H")  # seat 1
    st.apply_name("knock")  # seat 0 knocks: it is lowest too, tied with seat 1
    quiet_turn(st, "3S")
    assert st.hand_results[0]["scores"] == [2, 1]
    assert st.is_terminal() is terminal
    assert st.winners == winners
    assert st.counters == counters


def fifteen_player_deal() -> dict[str, Any]:
    """Fifteen hands of unsuited cards (none near 31), the seven spades 8-A as the stock."""
    hands = [[RANKS[i] + "C", RANKS[(i + 1) % 13] + "D", RANKS[(i + 2) % 13] + "H"]
             for i in range(13)]
    hands += [["2S", "3S", "4S"], ["5S", "6S", "7S"]]
    return deal(hands, stock_top=["8S", "9S", "10S", "JS", "QS", "KS", "AS"])


def test_empty_pickup_pile_is_refilled_from_the_discard_pile() -> None:
    """The text never says what happens when the pickup pile ("places the rest of the pile
    face down as the “pickup” pile") runs out; the spec's reading (stock_exhausted=
    reshuffle): the discard pile except its top card becomes the new pickup pile."""
    g = Game.from_system("riding-the-bus", {"players": 15})
    st = g.new_initial_state(seed=0, deals=[fifteen_player_deal()])
    drawn = ["8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    for card in drawn:
        quiet_turn(st, card)
    assert len(st.hand_results) == 0  # the round goes on
    assert st.current_player() == 8
    assert [g.deck.names[c] for c in st.piles["discard"]] == ["AS"]
    assert {g.deck.names[c] for c in st.piles["stock"]} == set(drawn[:-1])


def test_empty_pickup_pile_ends_the_round_option() -> None:
    """Option stock_exhausted=end_round: when the pickup pile is empty the round ends and
    hands are compared; "the person with the lowest score receives a strike" (seat 0 with
    2C 3D 4H, worth 4)."""
    g = Game.from_system("riding-the-bus", {"players": 15, "stock_exhausted": "end_round"})
    st = g.new_initial_state(seed=0, deals=[fifteen_player_deal()])
    for card in ["8S", "9S", "10S", "JS", "QS", "KS", "AS"]:
        quiet_turn(st, card)
    assert len(st.hand_results) == 1
    r = st.hand_results[0]
    assert r["ended_by"] == "exhausted"
    assert r["scores"] == [1] + [0] * 14


def test_the_first_player_starts_by_picking_up_under_the_forbidden_reading() -> None:
    """"The person to the left of the dealer starts by picking up a card of the pickup pile":
    read as a rule (first_turn_knock=forbidden), the first turn of a round offers no knock; the second does."""
    _g, st = new_state([N86_17, LOW_4, KQ5_20, AK7_21], stock_top=["2H", "3S"],
                       options={"first_turn_knock": "forbidden"})
    assert st.current_player() == 1
    assert st.legal_action_names() == ["draw stock"]
    with pytest.raises(IllegalActionError) as err:
        st.apply_name("knock")
    assert "picking up a card of the pickup pile" in (err.value.source.quote if err.value.source else "")
    quiet_turn(st, "2H")
    assert "knock" in st.legal_action_names()


def test_on_your_turn_you_may_knock_even_on_the_first_turn() -> None:
    """"On your turn, rather than picking up a card, you may “knock”": the decided reading (allowed) offers the
    knock on the round's very first turn too."""
    _g, st = new_state([N86_17, LOW_4, KQ5_20, AK7_21], stock_top=["2H", "3S"])
    assert st.current_player() == 1
    assert sorted(st.legal_action_names()) == ["draw stock", "knock"]


@pytest.mark.parametrize("seed", range(6))
def test_the_person_left_of_the_dealer_starts(seed: int) -> None:
    """"The person to the left of the dealer starts by picking up a card of the pickup pile": the first
    turn of every deal is the seat after the dealer, and the clause carries that quote."""
    g = Game.from_system("riding-the-bus")
    assert g.spec.data["phases"][0]["first_player_source"]["quote"].startswith("The person to the left of the dealer")
    st = g.new_initial_state(seed)
    assert st.current_player() == (st.dealer + 1) % g.num_players


@pytest.mark.parametrize(("ended_by", "quote"), [
    ("knock", "the person with the lowest score receives a strike"),
    ("instant", "and the person with the lowest score gets a strike"),
])
def test_the_one_strike_row_cites_the_clause_of_the_round_end(ended_by: str, quote: str) -> None:
    """A lowest player who did not knock takes one strike after a knock ("then you all lay out your cards,
    and the person with the lowest score receives a strike") and after a 31 ("the round is over, and the
    person with the lowest score gets a strike"); the audit cites the clause of the way the round ended,
    and the `lowest` fact (every tied lowest hand) cites the tie clause."""
    g = Game.from_system("riding-the-bus")
    facts = {"lowest": True, "knocker": False, "ended_by": ended_by}
    [use] = g.scoring.explain(facts)
    assert use.points == 1 and use.source is not None and use.source.quote == quote
    assert g.spec.data["hand_value"]["lowest_source"]["quote"] == \
        "If there is a tie for lowest, each person gets the strike"
