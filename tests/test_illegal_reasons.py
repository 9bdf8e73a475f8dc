"""Each illegal action is refused with its reason and the clause it breaks."""

from __future__ import annotations

import random

import pytest

from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.spec import available
from cardspec.engine.state import State

EUCHRE = {"dealer": 0, "hands": [["9C", "10C", "JC", "QC", "KC"], ["AC", "9D", "10D", "JD", "QD"],
                                 ["KD", "AD", "9H", "10H", "JH"], ["QH", "KH", "AH", "9S", "10S"]],
          "piles": {"kitty": ["JS", "QS", "KS", "AS"]}}


def refused(st: State, action: str) -> IllegalActionError:
    before = len(st.history)
    with pytest.raises(IllegalActionError) as err:
        st.apply_name(action)
    assert len(st.history) == before
    return err.value


def euchre(**options: object) -> State:
    return Game.from_system("euchre", {"farmers_hand": "off", **options}).new_initial_state(None, [EUCHRE])


def test_calling_trump_reasons() -> None:
    st = euchre()
    e = refused(st, "name H")
    assert e.reason == "not allowed in round 1 of calling trump"
    assert e.source is not None and "dealer would then get that card" in e.source.quote
    st.apply_name("order_up")  # seat 1 orders up spades; the dealer (seat 0) must discard
    e = refused(st, "pass")
    assert e.reason == "the dealer must discard a card from hand"
    st2 = euchre()
    for _ in range(4):
        st2.apply_name("pass")
    e = refused(st2, "name S")  # spades was turned down
    assert e.reason == "the suit that was turned down may not be named"
    assert e.source is not None and "except the suit that was just flipped" in e.source.quote
    for _ in range(3):
        st2.apply_name("pass")
    e = refused(st2, "pass")  # the dealer, everyone else having passed twice
    assert e.reason == "the dealer may not pass: everyone else has passed"
    assert e.source is not None and "the dealer may not pass" in e.source.quote


def test_farmers_hand_reason() -> None:
    st = Game.from_system("euchre").new_initial_state(None, [EUCHRE])
    e = refused(st, "farmers_hand 9D 10D QD")  # seat 1 holds only two nines and tens
    assert e.reason == "the trade needs 3 cards of 9/10 named, once per hand, in the allowed round"
    assert e.source is not None and "bottom 3 cards of the kitty" in e.source.quote


def test_trick_play_reasons() -> None:
    st = euchre()
    st.apply_name("order_up")  # spades; the dealer (seat 0) picks up JS
    st.apply_name("discard 9C")
    st.apply_name("pass")  # the maker does not go alone; seat 1 leads
    e = refused(st, "order_up")
    assert e.reason == "a card must be played"
    e = refused(st, "play AS")  # still in the kitty
    assert e.reason == "AS is not in seat 1's hand"


def test_follow_reason_names_the_led_suit() -> None:
    st = euchre()
    st.apply_name("order_up")
    st.apply_name("discard 9C")
    st.apply_name("pass")
    st.apply_name("play AC")
    st.apply_name("play 9H")  # seats 2 and 3 hold no club
    st.apply_name("play 9S")
    e = refused(st, "play JS")  # the dealer holds clubs and must follow
    assert e.reason == "seat 0 holds C and must follow the led suit C"
    assert e.source is not None and "must play/follow the same suit" in e.source.quote


def test_draw_and_knock_reasons() -> None:
    g = Game.from_system("riding-the-bus", {"players": 2, "first_turn_knock": "forbidden"})
    st = g.new_initial_state(4)
    e = refused(st, "knock")
    assert e.reason == "the first player of a round starts by drawing"
    assert e.source is not None and "starts by picking up a card" in e.source.quote
    e = refused(st, "take 2C 3C 4C")
    assert e.reason.startswith("taking needs at least 3 cards on the discard pile")
    e = refused(st, "draw discard")  # no discard pile yet: the first player draws from the pickup pile
    assert e.reason == "the discard pile is empty"
    assert e.source is not None and "starts by picking up a card of the pickup pile" in e.source.quote
    st.apply_name("draw stock")
    e = refused(st, "draw stock")
    assert e.reason == "the player has drawn and must discard a card"
    held = [g.deck.names[c] for c in g.deck.cards_of(st.hands[st.current_player()])]
    missing = next(n for n in g.deck.names if n not in held)
    e = refused(st, f"discard {missing}")
    seat = st.current_player()
    assert e.reason == f"seat {seat} does not hold {missing}" and e.source is None  # no clause: only cards held
    st.apply_name(f"discard {held[0]}")
    st.apply_name("knock")
    e = refused(st, "knock")
    assert e.reason == "someone has already knocked this round"
    assert e.source is not None and "After knocking" in e.source.quote


def test_declaration_and_match_over_reasons() -> None:
    g = Game.from_system("bird-dog-11")
    st = g.new_initial_state(1)
    while st.phase == 0:
        st.apply_name("declare")
    e = refused(st, "play 9C")
    assert e.reason == "not allowed in the 'nil' phase now"
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    e = refused(st, "pass")
    assert e.reason == "the match is over"


@pytest.mark.parametrize("sid", available())
def test_an_int_that_is_no_action_is_illegal_everywhere(sid: str) -> None:
    """``apply`` of ints that name no action of the game (out of range, negative, one past a listed action)
    raises IllegalActionError at every position of a seeded match, never another exception. (A deck with
    copies once sent such an int into the copy lookup and raised IndexError.)"""
    st = Game.from_system(sid).new_initial_state(3)
    rng = random.Random(3)
    while not st.is_terminal() and len(st.history) < 400:
        legal = st.legal_actions()
        for bad in (-3, 10**9, max(legal) + 1, 2 * max(legal) + 1):
            if bad in legal or st.can_apply(bad):
                continue
            with pytest.raises(IllegalActionError, match=None if st.game.codec.valid(bad) else
                               f"'#{bad}': it is not an action"):
                st.copy().apply(bad)
        st.apply(legal[rng.randrange(len(legal))])


def test_the_card_just_taken_from_the_discard_pile_is_refused_for_that_reason() -> None:
    """discard_drawn=forbidden (register entry discard-the-drawn-card): the card taken from the discard pile
    is kept this turn; the refusal says so, and cites the draw clause that entry reads."""
    g = Game.from_system("riding-the-bus", {"players": 2, "discard_drawn": "forbidden"})
    st = g.new_initial_state(4)
    st.apply_name("draw stock")
    st.apply_name(f"discard {g.deck.names[next(iter(g.deck.cards_of(st.hands[st.current_player()])))]}")
    top = st.observation(st.current_player())["zones"]["discard"]["cards_top_first"][0]
    st.apply_name("draw discard")
    e = refused(st, f"discard {top}")
    assert e.reason == f"{top} was just taken from the discard pile and is kept this turn"
    assert e.source is not None and "pick up either the top card on the discard pile" in e.source.quote
