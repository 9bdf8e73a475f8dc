"""Register entries of Bird Dog (three players, to 21), source 001_f95ee8969f7c0032.txt.

One test per reading of each entry added by the clause-by-clause reading (deal-packets,
trump-order-bowers, bird-dog-is-a-bower, who-leads, highest-card-on-trump-lead, extra-hand-contenders),
each named after the clause it reads.
Expected values come from the text and the reading's own words, not from engine output.

Seats 0, 1, 2 clockwise; the dealer is 0, so the player left of the dealer is 1. Undealt piles
are listed top card first; the top card is turned up first.
"""

from __future__ import annotations

from typing import Any

from helpers import trick

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "bird-dog-21"

# A pack in a known order, top card first: clubs, diamonds, hearts, spades, each 9 up to the Ace.
PACK = [f"{r}{s}" for s in "CDHS" for r in ("9", "10", "J", "Q", "K", "A")]

# Seat 1 turns 9H up and declares: trump hearts, the highest card is 9D (seat 0 holds it).
# Seat 2 holds the Jack of trump (JH) as its only heart; seat 0 holds the other red Jack (JD) and no heart.
HEARTS_9 = {
    "dealer": 0,
    "hands": [["JD", "AD", "9D", "JS", "QS", "KS", "AS"],
              ["AH", "KH", "QH", "10H", "AC", "KC", "QC"],
              ["JH", "9C", "10C", "JC", "10D", "QD", "KD"]],
    "piles": {"undealt": ["9H", "10S", "9S"]},
}

# As HEARTS_9, but JH is turned up (trump hearts), so the highest card is JD, held by seat 0 with no
# heart; seat 2's only heart is 9H.
HEARTS_J = {
    "dealer": 0,
    "hands": [["JD", "AD", "9D", "JS", "QS", "KS", "AS"],
              ["AH", "KH", "QH", "10H", "AC", "KC", "QC"],
              ["9H", "9C", "10C", "JC", "10D", "QD", "KD"]],
    "piles": {"undealt": ["JH", "10S", "9S"]},
}


def new_state(deal: dict[str, Any], options: dict[str, Any]) -> State:
    return Game.from_system(SYSTEM, options).new_initial_state(seed=0, deals=[deal])


def plays(st: State) -> set[str]:
    return {n.split()[1] for n in st.legal_action_names() if n.startswith("play ")}


def reading(entry: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry)


def dealt(option: str) -> tuple[list[set[str]], set[str]]:
    """Deal PACK under ``deal_packets=option`` with seat 0 dealing, so seats 1, 2, 0 receive in turn
    ("dealt to each player clockwise around the table"); each seat's hand and the undealt pile."""
    g = Game.from_system(SYSTEM, {"deal_packets": option})
    order = [g.deck.parse(c) for c in PACK]
    hands, piles = g.deal.deal(order, [1, 2, 0], 3)
    return [{g.deck.names[c] for c in g.deck.cards_of(h)} for h in hands], {g.deck.names[c] for c in piles["undealt"]}


# --- deal-packets: "Seven cards are dealt to each player clockwise around the table" ------------------
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


# --- trump-order-bowers: "Traditional values hold for the rest of the deck." --------------------------
def first_trick_hearts_9(options: dict[str, Any]) -> State:
    """Seat 1 declares over 9H; nobody goes nil; seat 1 leads the Ace of trump, seat 2 follows with
    its only heart, the Jack of trump."""
    st = new_state(HEARTS_9, options)
    for a in ("declare", "pass", "pass"):
        st.apply_name(a)
    assert st.current_player() == 1
    st.apply_name("play AH")
    assert plays(st) == {"JH"}
    st.apply_name("play JH")
    return st


def test_traditional_values_the_ace_is_the_highest_trump() -> None:
    """trump_order=natural (the decision): trump ranks 9 to Ace, so the Ace of trump beats the Jack;
    JD is a plain diamond, so seat 0, holding no heart, may play any card; the AH takes the trick."""
    st = first_trick_hearts_9({"trump_order": "natural"})
    assert plays(st) == {"JD", "AD", "9D", "JS", "QS", "KS", "AS"}
    assert trick(st, "JD") == 1
    assert reading("trump-order-bowers").decision == "natural"


def test_traditional_values_are_euchres_with_bowers() -> None:
    """trump_order=euchre_bowers: the Jack of trump (right bower) beats the Ace, and the other red
    Jack (left bower) counts as trump, so seat 0 must follow hearts with JD; the JH takes the trick."""
    st = first_trick_hearts_9({"trump_order": "euchre_bowers"})
    assert plays(st) == {"JD"}
    assert trick(st, "JD") == 2


# --- bird-dog-is-a-bower: "it does not become a trump suit, rather it retains its suit" ---------------
def first_lead_hearts_j(option: str) -> State:
    """With bowers, seat 1 declares over JH (the highest card is JD, also the left bower); nobody goes
    nil; seat 1 leads AH and seat 2 follows with its only heart, 9H."""
    st = new_state(HEARTS_J, {"trump_order": "euchre_bowers", "bird_dog_as_bower": option})
    for a in ("declare", "pass", "pass", "play AH", "play 9H"):
        st.apply_name(a)
    return st


def test_the_highest_card_retains_its_suit_even_as_a_bower() -> None:
    """bird_dog_as_bower=keeps_own_suit (the decision): JD "retains its suit" and is a diamond, so
    seat 0 holds no heart and may play any card; played, JD is still the highest card and wins."""
    st = first_lead_hearts_j("keeps_own_suit")
    assert plays(st) == {"JD", "AD", "9D", "JS", "QS", "KS", "AS"}
    assert trick(st, "JD") == 0
    a = reading("bird-dog-is-a-bower")
    assert a.decision == "keeps_own_suit" and a.with_options == {"trump_order": "euchre_bowers"}


def test_the_highest_card_follows_as_trump_when_it_is_a_bower() -> None:
    """bird_dog_as_bower=counts_as_trump: the left bower follows as trump, so seat 0 must play JD to
    the heart lead (and it is still the highest card, so it wins)."""
    st = first_lead_hearts_j("counts_as_trump")
    assert plays(st) == {"JD"}
    assert trick(st, "JD") == 0


# --- who-leads: "The player to the left of the dealer begins the hand." -------------------------------
def solo_at_two(option: str) -> State:
    """Seat 1 passes, seat 2 declares over 9H, then seats 0 and 1 decline nil."""
    st = new_state(HEARTS_9, {"first_leader": option})
    for a in ("pass", "declare", "pass", "pass"):
        st.apply_name(a)
    assert st.contract.maker == 2
    return st


def test_the_player_left_of_the_dealer_begins_the_hand() -> None:
    """first_leader=left_of_dealer (the decision): seat 2 is solo, but seat 1 (left of dealer 0)
    leads the first trick."""
    st = solo_at_two("left_of_dealer")
    assert st.current_player() == 1 and "play AH" in st.legal_action_names()
    a = reading("who-leads")
    assert a.decision == "left_of_dealer" and a.house_rule


def test_the_solo_player_begins_the_hand_as_a_house_rule() -> None:
    """first_leader=declarer: the solo player (seat 2) leads the first trick; with nobody solo the
    player left of the dealer (seat 1) still leads."""
    st = solo_at_two("declarer")
    assert st.current_player() == 2 and "play JH" in st.legal_action_names()
    nobody = new_state(HEARTS_9, {"first_leader": "declarer"})
    for _ in range(9):  # three turn-ups, three passes each: the third card fixes trump
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


# --- extra-hand-contenders: "another hand is played including all three players.  The player with the
# highest score after the hand is the winner." ------------------------------------------------------------

EXTRA = {"hand": 9, "dealer": 0, "totals": [21, 22, 19], "extra_hand": True}  # seats 0 and 1 reached 21


def extra_hand(option: str, seed: int) -> State:
    """The extra hand from EXTRA, each move a seeded random choice among the legal ones."""
    import random

    st = Game.from_system(SYSTEM, {"extra_hand_winner": option}).new_initial_state(seed, start=EXTRA)
    rng = random.Random(seed)
    while not st.hand_results:
        st.apply(rng.choice(st.legal_actions()))
    return st


def overtaking_seed() -> int:
    """A seed whose extra hand leaves seat 2 (at 19 before it) above both others, seats 0 and 1 untied."""
    for seed in range(500):
        t = extra_hand("any_player", seed).counters
        if t[2] > max(t[0], t[1]) and t[0] != t[1]:
            return seed
    raise AssertionError("no seed in 500 gives an extra hand that seat 2 overtakes")


def test_the_extra_hand_is_won_by_the_highest_of_all_three() -> None:
    """extra_hand_winner=any_player (the decision): seat 2, highest after the hand, wins."""
    assert reading("extra-hand-contenders").decision == "any_player"
    st = extra_hand("any_player", overtaking_seed())
    assert st.winners == (2,)


def test_the_extra_hand_is_won_by_the_highest_of_the_players_who_reached_21() -> None:
    """extra_hand_winner=tied_players: only seats 0 and 1 can win; the higher of them does."""
    st = extra_hand("tied_players", overtaking_seed())
    t = st.counters
    assert t[2] > max(t[0], t[1])
    assert st.winners == ((0,) if t[0] > t[1] else (1,))
