"""``hand_value`` under ``best_suit_sum`` reads each suit's sum from a table of rank masks
(:meth:`HandValue._tabled`): the same value, hand for hand, as the kernel that reads the rule text's "points are
only added together if the cards are the same suit" and its set bonus straight off the cards
(:func:`cardspec.engine.kernels.hand_value_of_cards`, itself held to the brute force of every subset)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardspec.engine.cards import Deck
from cardspec.engine.game import Game
from cardspec.engine.handvalue import HandValue
from cardspec.engine.kernels import hand_value_of_cards

RANKS = (*"23456789", "10", "J", "Q", "K", "A")


@st.composite
def clauses(draw: st.DrawFn) -> tuple[HandValue, Deck]:
    n_ranks = draw(st.integers(1, 13))
    n_suits = draw(st.integers(1, 4))
    deck = Deck(RANKS[:n_ranks], tuple("CDHS"[:n_suits]), tuple("brrb"[:n_suits]))
    values = {r: draw(st.integers(0, 22)) / 2 for r in deck.ranks if draw(st.booleans())}
    d: dict[str, object] = {"values": values, "combine": "best_suit_sum"}
    if draw(st.booleans()):
        d["sets"] = {"size": draw(st.integers(1, 4)), "value": draw(st.integers(0, 70)) / 2}
    return HandValue.build(d, deck, "x"), deck


@settings(max_examples=300, deadline=None)
@given(clauses(), st.data())
def test_points_are_only_added_together_if_the_cards_are_the_same_suit(clause: tuple[HandValue, Deck],
                                                                        data: st.DataObject) -> None:
    hv, deck = clause
    assert hv._tables, "a deck of one copy, no jokers and at most 13 ranks is tabled"
    cards = data.draw(st.lists(st.integers(0, deck.size - 1), max_size=min(deck.size, 8), unique=True))
    hand = deck.mask(cards)
    want = hand_value_of_cards(deck.cards_of(hand), hv.card_units, deck.suit_of, deck.rank_of, hv.set_size,
                               hv.set_units)
    assert hv.value(hand) == want


def test_riding_the_bus_three_of_a_kind_is_worth_30_5_and_a_suit_sums_its_cards() -> None:
    """Riding the Bus: "three of a kind ... automatically worth 30.5 points"; 4H QH AC is 14 (the hearts)."""
    hv = Game.from_system("riding-the-bus").hand_value
    assert hv is not None and hv._tables
    d = hv.deck
    assert hv.points(hv.value(d.mask([d.parse(c) for c in ("4H", "4C", "4S")]))) == 30.5
    assert hv.points(hv.value(d.mask([d.parse(c) for c in ("4H", "QH", "AC")]))) == 14.0
    assert hv.points(hv.value(d.mask([d.parse(c) for c in ("AH", "KH", "QH")]))) == 31.0


def test_decks_the_tables_do_not_fit_keep_the_memoised_kernel() -> None:
    """Copies of a card or jokers: the card ids are not one rank mask per suit, so no tables."""
    for deck in (Deck(RANKS[:6], ("C", "D"), ("b", "r"), copies=2), Deck(RANKS[:6], ("C", "D"), ("b", "r"), jokers=2)):
        hv = HandValue.build({"values": {"7": 11}, "combine": "best_suit_sum", "sets": {"size": 2, "value": 5}},
                             deck, "x")
        assert not hv._tables
        pair = deck.mask([c for c in range(deck.size) if deck.rank_of[c] == 0][:2])
        assert hv.value(pair) == 10  # two cards of a rank: the set's 5 points, in half points
