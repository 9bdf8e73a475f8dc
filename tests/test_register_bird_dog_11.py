"""Register entries of Bird Dog (three players, to 11), source 000_9d59842f04c7ddaf.txt.

One test per reading of each entry added by the clause-by-clause reading, named after the clause.
Expected values come from the text and the reading's own words, not from engine output.
"""

from __future__ import annotations

from cardspec.engine.game import Game

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
