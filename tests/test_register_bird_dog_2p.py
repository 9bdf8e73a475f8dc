"""Register entries of Bird Dog for two players, source 001_f95ee8969f7c0032.txt ("Playing with Two Players").

One test per reading of each entry added by the clause-by-clause reading (deal-packets,
trump-order-bowers, bird-dog-is-a-bower, who-leads, highest-card-on-trump-lead), each named after the clause it reads.
Expected values come from the text and the reading's own words, not from engine output.

Seats: players 0 and 1, the Bird Dog pile is the dummy seat 2. The dealer is 0, so clockwise from
the dealer come the opponent 1 (left of the dealer), the Bird Dog (right of the dealer), the dealer.
Piles are listed top card first; the top card of ``undealt`` is turned up first, the top three of
``dog_pile`` are the Bird Dog's visible cards.
"""

from __future__ import annotations

from typing import Any

from helpers import trick

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "bird-dog-2p"
DOG = 2

# A pack in a known order, top card first: clubs, diamonds, hearts, spades, each 9 up to the Ace.
PACK = [f"{r}{s}" for s in "CDHS" for r in ("9", "10", "J", "Q", "K", "A")]

# Seat 1 turns 9H up and declares: trump hearts, the highest card is 9D (the dealer holds it). The
# Bird Dog shows JH (the Jack of trump, its only visible heart), 9C, 10C; the dealer holds the other
# red Jack (JD) and no heart.
HEARTS_9 = {
    "dealer": 0,
    "hands": [["JD", "AD", "9D", "JS", "QS", "KS", "AS"], ["AH", "KH", "QH", "10H", "AC", "KC", "QC"], []],
    "piles": {"undealt": ["9H", "10S", "9S"], "dog_pile": ["JH", "9C", "10C", "JC", "10D", "QD", "KD"]},
}

# As HEARTS_9, but JH is turned up (trump hearts): the highest card is JD, held by the dealer with no
# heart; the Bird Dog shows 9H, 9C, 10C.
HEARTS_J = {
    "dealer": 0,
    "hands": [["JD", "AD", "9D", "JS", "QS", "KS", "AS"], ["AH", "KH", "QH", "10H", "AC", "KC", "QC"], []],
    "piles": {"undealt": ["JH", "10S", "9S"], "dog_pile": ["9H", "9C", "10C", "JC", "10D", "QD", "KD"]},
}


def new_state(deal: dict[str, Any], options: dict[str, Any]) -> State:
    return Game.from_system(SYSTEM, options).new_initial_state(seed=0, deals=[deal])


def plays(st: State) -> set[str]:
    return {n.split()[1] for n in st.legal_action_names() if n.startswith("play ")}


def reading(entry: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry)


def dealt(option: str) -> tuple[dict[int, set[str]], list[str], set[str]]:
    """Deal PACK under ``deal_packets=option`` with seat 0 dealing: "start with the opposing player
    then continue clockwise", so the opponent 1, the Bird Dog's pile, then the dealer 0 receive in turn.
    The two hands, the Bird Dog's pile (top card first: the last card dealt to it lies on top) and the
    undealt pile."""
    g = Game.from_system(SYSTEM, {"deal_packets": option})
    order = [g.deck.parse(c) for c in PACK]
    hands, piles = g.deal.deal(order, [1, DOG, 0], 3)
    names = g.deck.names
    return ({s: {names[c] for c in g.deck.cards_of(hands[s])} for s in (0, 1)},
            [names[c] for c in reversed(piles["dog_pile"])], {names[c] for c in piles["undealt"]})


# --- deal-packets: "the deal should create three piles of 7 cards each" ------------------------------
def test_three_piles_of_seven_dealt_one_at_a_time() -> None:
    """deal_packets=one_at_a_time (the decision): one card at a time to the opponent, the Bird Dog and
    the dealer, seven times round; the next three cards are the undealt pile."""
    hands, dog, undealt = dealt("one_at_a_time")
    assert hands[1] == {"9C", "QC", "9D", "QD", "9H", "QH", "9S"}  # pack cards 1, 4, ..., 19
    assert set(dog) == {"10C", "KC", "10D", "KD", "10H", "KH", "10S"}  # 2, 5, ..., 20
    assert dog[:3] == ["10S", "KH", "10H"]  # its last three cards (20, 17, 14) lie on top, face up first
    assert hands[0] == {"JC", "AC", "JD", "AD", "JH", "AH", "JS"}  # 3, 6, ..., 21: the dealer last
    assert undealt == {"QS", "KS", "AS"}


def test_three_piles_of_seven_dealt_three_then_four() -> None:
    """deal_packets=three_then_four: three cards each to the opponent, the Bird Dog and the dealer,
    then four each; the next three cards are the undealt pile."""
    hands, dog, undealt = dealt("three_then_four")
    assert hands[1] == {"9C", "10C", "JC", "QD", "KD", "AD", "9H"}  # pack cards 1-3, then 10-13
    assert set(dog) == {"QC", "KC", "AC", "10H", "JH", "QH", "KH"}  # 4-6, then 14-17
    assert dog[:3] == ["KH", "QH", "JH"]  # its second packet's last three (17, 16, 15) on top
    assert hands[0] == {"9D", "10D", "JD", "AH", "9S", "10S", "JS"}  # 7-9, then 18-21
    assert undealt == {"QS", "KS", "AS"}


# --- trump-order-bowers: "Traditional values hold for the rest of the deck." --------------------------
def first_trick_hearts_9(options: dict[str, Any]) -> State:
    """The opponent (1) declares over 9H; the dealer declines nil; 1 leads the Ace of trump and the
    Bird Dog (played by the dealer) must follow with its only visible heart, the Jack of trump."""
    st = new_state(HEARTS_9, options)
    for a in ("declare", "pass"):
        st.apply_name(a)
    assert st.current_player() == 1
    st.apply_name("play AH")
    assert st.cur == DOG and st.current_player() == 0
    assert plays(st) == {"JH"}
    st.apply_name("play JH")
    return st


def test_traditional_values_the_ace_is_the_highest_trump() -> None:
    """trump_order=natural (the decision): the Ace of trump beats the Bird Dog's Jack of trump; JD is
    a plain diamond, so the dealer, holding no heart, may play any card; the AH takes the trick."""
    st = first_trick_hearts_9({"trump_order": "natural"})
    assert plays(st) == {"JD", "AD", "9D", "JS", "QS", "KS", "AS"}
    assert trick(st, "JD") == 1
    assert reading("trump-order-bowers").decision == "natural"


def test_traditional_values_are_euchres_with_bowers() -> None:
    """trump_order=euchre_bowers: the Bird Dog's Jack of trump (right bower) beats the Ace, and the
    dealer must follow hearts with the left bower JD; the Bird Dog takes the trick."""
    st = first_trick_hearts_9({"trump_order": "euchre_bowers"})
    assert plays(st) == {"JD"}
    assert trick(st, "JD") == DOG


# --- bird-dog-is-a-bower: "it does not become a trump suit, rather it retains its suit" ---------------
def first_lead_hearts_j(option: str) -> State:
    """With bowers, the opponent declares over JH (the highest card is JD, also the left bower); the
    dealer declines nil; 1 leads AH and the Bird Dog follows with its only visible heart, 9H."""
    st = new_state(HEARTS_J, {"trump_order": "euchre_bowers", "bird_dog_as_bower": option})
    for a in ("declare", "pass", "play AH", "play 9H"):
        st.apply_name(a)
    assert st.current_player() == 0
    return st


def test_the_highest_card_retains_its_suit_even_as_a_bower() -> None:
    """bird_dog_as_bower=keeps_own_suit (the decision): JD "retains its suit" and is a diamond, so the
    dealer holds no heart and may play any card; played, JD is still the highest card and wins."""
    st = first_lead_hearts_j("keeps_own_suit")
    assert plays(st) == {"JD", "AD", "9D", "JS", "QS", "KS", "AS"}
    assert trick(st, "JD") == 0
    a = reading("bird-dog-is-a-bower")
    assert a.decision == "keeps_own_suit" and a.with_options == {"trump_order": "euchre_bowers"}


def test_the_highest_card_follows_as_trump_when_it_is_a_bower() -> None:
    """bird_dog_as_bower=counts_as_trump: the left bower follows as trump, so the dealer must play JD
    to the heart lead (still the highest card: it wins)."""
    st = first_lead_hearts_j("counts_as_trump")
    assert plays(st) == {"JD"}
    assert trick(st, "JD") == 0


# --- who-leads: "The player to the left of the dealer begins the hand." -------------------------------
def dealer_solo(option: str) -> State:
    """The opponent (1) passes, the dealer (0) declares over 9H, the opponent declines nil."""
    st = new_state(HEARTS_9, {"first_leader": option})
    for a in ("pass", "declare", "pass"):
        st.apply_name(a)
    assert st.contract.maker == 0
    return st


def test_the_player_left_of_the_dealer_begins_the_hand() -> None:
    """first_leader=left_of_dealer (the decision): the dealer is solo, but its opponent (1), left of
    the dealer, leads the first trick."""
    st = dealer_solo("left_of_dealer")
    assert st.current_player() == 1 and "play AH" in st.legal_action_names()
    a = reading("who-leads")
    assert a.decision == "left_of_dealer" and a.house_rule


def test_the_solo_player_begins_the_hand_as_a_house_rule() -> None:
    """first_leader=declarer: the solo player (the dealer, 0) leads the first trick; with nobody solo
    the player left of the dealer (1) still leads."""
    st = dealer_solo("declarer")
    assert st.cur == 0 and st.current_player() == 0 and "play JD" in st.legal_action_names()
    nobody = new_state(HEARTS_9, {"first_leader": "declarer"})
    for _ in range(6):  # three turn-ups, two passes each: the third card fixes trump
        nobody.apply_name("pass")
    assert nobody.contract.maker == -1 and nobody.current_player() == 1


def test_the_new_entries_decide_their_options_defaults() -> None:
    """Each new entry's decision is its option's default; only who-leads is a house rule."""
    decls = load(SYSTEM).option_decls
    for entry, option, house in (("deal-packets", "deal_packets", False), ("trump-order-bowers", "trump_order", False),
                                 ("bird-dog-is-a-bower", "bird_dog_as_bower", False),
                                 ("who-leads", "first_leader", True)):
        a = reading(entry)
        assert a.option == option and a.house_rule == house and len(a.readings) == 2
        assert a.decision == str(decls[option].default)


# --- highest-card-on-trump-lead: "While it is the highest card, it does not become a trump suit, rather it
# retains its suit" -------------------------------------------------------------------------------------


def test_the_highest_card_thrown_on_a_trump_lead_wins() -> None:
    """bird_dog_on_trump_lead=wins (the decision): "or if the highest card of the hand was played, the highest
    card of the hand": the dealer, with no heart, throws the 9D (the twin of the turned 9H) and takes the
    trick that the Ace of trump led."""
    assert reading("highest-card-on-trump-lead").decision == "wins"
    st = first_trick_hearts_9({"bird_dog_on_trump_lead": "wins"})
    assert "9D" in plays(st)
    assert trick(st, "9D") == 0


def test_the_highest_card_thrown_on_a_trump_lead_is_a_plain_diamond() -> None:
    """bird_dog_on_trump_lead=own_suit: on a trump lead the 9D "is treated as a Diamond", off the led suit,
    and the Ace of trump takes the trick."""
    st = first_trick_hearts_9({"bird_dog_on_trump_lead": "own_suit"})
    assert trick(st, "9D") == 1
