"""The engine core: every physical card distinct, and an open action vocabulary.

Pins the review findings of the engine-core issue: two copies of a card had
one name (records naming them failed to replay); an action held at most three
8-bit card slots (card 300 of a 312-card deck decoded as another card); melds
of seven or more cards and a bid of a number with a suit could not be written.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import trick_seats
from hypothesis import given, settings
from hypothesis import strategies as st

from cardspec.engine.actions import NO_TRUMP, ActionCodec, KindSig
from cardspec.engine.cards import Deck
from cardspec.engine.errors import CardNameError, InvalidActionError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.record import dumps, record_of, replay

EUCHRE_RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
COLORS = ("black", "red", "red", "black")


def test_single_copy_names_are_rank_then_suit() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS)
    assert d.names[:3] == ("9C", "10C", "JC") and len(set(d.names)) == 24


def test_every_copy_has_its_own_name() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS, copies=2)
    assert len(set(d.names)) == d.size == 48
    assert d.names[d.card("Q", "H", 0)] == "QH#1" and d.names[d.card("Q", "H", 1)] == "QH#2"
    assert {d.parse(n) for n in d.names} == set(range(48))


def test_a_bare_name_is_refused_when_the_deck_holds_copies() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS, copies=2)
    with pytest.raises(CardNameError, match=r"ambiguous.*QH#1 or QH#2"):
        d.parse("QH")


def test_several_jokers_are_numbered_and_one_joker_is_not() -> None:
    one = Deck(("2", "3"), ("C",), ("black",), jokers=1)
    many = Deck(("2", "3"), ("C",), ("black",), jokers=2)
    assert one.names[-1] == "JK" and many.names[-2:] == ("JK#1", "JK#2")


@pytest.mark.parametrize("text", ["10d", "TD", "td", " 10D "])
def test_card_input_accepts_t_for_ten_and_either_case(text: str) -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS)
    assert d.parse(text) == d.card("10", "D")


def test_unknown_card_names_are_refused() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS)
    for bad in ("2C", "QX", "", "QH#2"):
        with pytest.raises(CardNameError):
            d.parse(bad)


def test_canonical_keeps_the_first_copy_held_of_each_face() -> None:
    d = Deck(("9", "10"), ("C",), ("black",), copies=3)  # 9C#1..3, 10C#1..3
    m = d.mask([d.parse("9C#2"), d.parse("9C#3"), d.parse("10C#3")])
    assert [d.names[c] for c in d.cards_of(d.canonical(m))] == ["9C#2", "10C#3"]
    assert d.canonical(d.full_mask) == d.mask([d.parse("9C#1"), d.parse("10C#1")])


def test_a_large_deck_encodes_every_card_exactly() -> None:
    """312 cards (six 52-card decks): every card survives an action round trip."""
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    d = Deck(ranks, SUITS, COLORS, copies=6)
    codec = ActionCodec(d, [KindSig("play", cards=(1, 1))])
    for c in (0, 255, 256, 300, 311):
        a = codec.encode("play", cards=(c,))
        assert codec.cards(a) == (c,)
        assert codec.parse(codec.name(a)) == a


def test_melds_of_many_cards_and_whole_hands_are_actions() -> None:
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    d = Deck(ranks, SUITS, COLORS, copies=4, jokers=8)
    codec = ActionCodec(d, [KindSig("meld", cards=(3, 30))])
    cards = [*[d.card("Q", s, k) for s in SUITS for k in range(2)][:8], d.size - 1]
    a = codec.encode("meld", cards=cards)
    assert codec.cards(a) == tuple(sorted(cards))
    assert codec.parse(codec.name(a)) == a and codec.name(a).startswith("meld QC#1 QC#2")
    with pytest.raises(InvalidActionError, match="3 to 30 cards"):
        codec.encode("meld", cards=cards[:2])


def test_a_bid_names_a_number_and_a_suit_or_no_trump() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS, copies=2)
    codec = ActionCodec(d, [KindSig("bid", number=(1, 12), suit=True, no_trump=True), KindSig("pass")])
    a = codec.encode("bid", number=6, suit=SUITS.index("H"))
    assert codec.name(a) == "bid 6 H" and codec.parse("BID 6 h") == a
    nt = codec.parse("bid 12 NT")
    assert codec.number(nt) == 12 and codec.suit(nt) == NO_TRUMP
    for bad, why in (("bid 13 H", "from 1 to 12"), ("bid 6", "needs a suit"), ("bid H", "needs a number"),
                     ("bid 6 H QH#1", "'bid' names no card, but 'QH#1' follows"), ("raise 6 H", "names no action")):
        with pytest.raises(InvalidActionError, match=why):
            codec.parse(bad)


def test_sorting_actions_sorts_by_kind_then_fields() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS)
    codec = ActionCodec(d, [KindSig("pass"), KindSig("play", cards=(1, 1)),
                            KindSig("bid", number=(1, 6), suit=True)])
    acts = [codec.parse(t) for t in ("bid 2 C", "pass", "bid 1 S", "play AS", "play 9C")]
    assert [codec.name(a) for a in sorted(acts)] == ["play 9C", "play AS", "pass", "bid 1 S", "bid 2 C"]


def test_labels_may_not_collide_with_action_words() -> None:
    d = Deck(EUCHRE_RANKS, SUITS, COLORS)
    with pytest.raises(ValueError, match="also action words"):
        ActionCodec(d, [KindSig("pass"), KindSig("accept", choices=("pass",))])


def test_ints_that_are_no_action_of_the_game_are_not_valid() -> None:
    g = Game.from_system("euchre")
    assert all(g.codec.valid(a) for a in g.new_initial_state(1).legal_actions())
    for junk in (-1, 0, 1, 1 << 200, g.codec.base("play") | (g.deck.size + 1)):
        assert not g.codec.valid(junk)


DOUBLE = """
extends: euchre
id: euchre-double-deck
deck:
  copies: 2
deal:
  hand_size: 10
  packets: [5]
  undealt:
    - {pile: kitty, count: 8}
bounds:
  hand_points: [0, 4]
  actions_per_hand: 60
phases:
  - component: tricks
    id: play
    tricks: 10
    first_leader: left_of_dealer
    follow: effective_suit
    source: {doc: 004_945a3021da002f83.txt, quote: "You must play/follow the same suit that was lead if you have that suit."}
    winner_source: {doc: 004_945a3021da002f83.txt, quote: "The person laying the winning card (based on that card hierarchy above) takes the cards"}
scoring:
  entity: team
  counter: points
  tables:
    - id: hand_points
      source: {doc: 004_945a3021da002f83.txt, quote: "If your team called trump and you win 3+: 1 point"}
      inputs: {tricks: {type: int, min: 0, max: 10}}
      rows:
        - when: {tricks: [6, 10]}
          then: 1
          source: {doc: 004_945a3021da002f83.txt, quote: "If your team called trump and you win 3+: 1 point"}
        - when: {tricks: [0, 5]}
          then: 0
          source: {doc: 004_945a3021da002f83.txt, quote: "The goal for each round is to win at least 3 of the 5 tricks."}
match:
  first_dealer: seat0
  first_dealer_source: {doc: 004_945a3021da002f83.txt, quote: "The dealer begins by dealing all 4 people 5 cards"}
ambiguities: []
options: {}
"""  # noqa: E501


def _double(tmp_path: Path) -> Path:
    (tmp_path / "euchre.yaml").write_text((spec_dir() / "euchre.yaml").read_text())
    path = tmp_path / "double.yaml"
    path.write_text(DOUBLE)
    return path


def test_a_double_deck_game_lists_no_two_actions_with_one_meaning_and_its_records_replay(tmp_path: Path) -> None:
    path = _double(tmp_path)
    g = Game.from_system(str(path))
    rng = random.Random(4)
    for seed in range(3):
        st = g.new_initial_state(seed)
        for _ in range(200):
            if st.is_terminal():
                break
            names = st.legal_action_names()
            assert len(names) == len(set(names))
            faces = [n.split()[-1].split("#")[0] for n in names if n.startswith("play ")]
            assert len(faces) == len(set(faces)), "two copies of one card listed as two plays"
            st.apply(rng.choice(st.legal_actions()))
        rec = record_of(st)
        rec["system"] = str(path)
        again = replay(rec)
        assert dumps(again.record["actions"]) == dumps(rec["actions"])
        assert again.record["results"] == rec["results"]


def test_a_second_copy_held_beside_the_first_is_still_a_legal_play(tmp_path: Path) -> None:
    """Copies are interchangeable for the player: naming the other copy is legal (an audit must accept it)."""
    g = Game.from_system(str(_double(tmp_path)))
    for seed in range(40):
        st = g.new_initial_state(seed)
        while not st.is_terminal() and g.codec.kind(st.legal_actions()[0]) != "play":
            st.apply(st.legal_actions()[-1] if st.legal_action_names()[-1] != "pass" else st.legal_actions()[0])
        d = g.deck
        hand = st.hands[st.cur]
        twins = [c for c in d.cards_of(hand) if d.copy_of[c] == 1 and hand >> (c - 1) & 1]
        if twins and not st.piles["trick"]:
            second = g.codec.encode("play", cards=(twins[0],))
            assert second not in st.legal_actions()
            assert g.codec.encode("play", cards=(twins[0] - 1,)) in st.legal_actions()
            st.check(second)
            st.apply(second)
            assert not st.hands[trick_seats(st)[0]] >> twins[0] & 1
            return
    pytest.fail("no seed dealt a leader both copies of a card")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([8, 24, 52, 61, 62, 63, 64, 108, 162, 324, 700]).flatmap(
    lambda n: st.integers(0, 2**n - 1)))
def test_cards_of_lists_the_set_bits_ascending_for_any_deck_size(m: int) -> None:
    """Masks within one 60-bit piece, across the pieces' boundary (61 to 64 bits), and of many pieces."""
    assert Deck.cards_of(m) == [i for i in range(m.bit_length()) if m >> i & 1]
