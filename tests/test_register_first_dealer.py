"""Register entry ``first-dealer`` (Bird Dog to 11, Bid Euchre, Euchre, Riding the Bus, The Card Game): the texts
never say who deals the first hand. Reading ``random`` (the decision): a seat drawn from the match's seed, as
``chance.randbelow(seed, -1, 0, players)`` defines it for every engine; reading ``seat0``: seat 0. After the first
hand the deal passes as each spec's rotation says, under both readings."""

from __future__ import annotations

import random

import pytest

from cardspec.engine import chance
from cardspec.engine.game import Game
from cardspec.engine.spec import load

SYSTEMS = ["bird-dog-11", "bid-euchre", "euchre", "riding-the-bus", "the-card-game"]


@pytest.mark.parametrize("sid", SYSTEMS)
def test_the_entry_is_registered_with_both_readings_and_decides_random(sid: str) -> None:
    spec = load(sid)
    entry = next(a for a in spec.ambiguities if a.id == "first-dealer")
    assert entry.option == "first_dealer" and entry.decision == "random"
    assert set(entry.readings) == {"random", "seat0"}
    assert spec.option_decls["first_dealer"].default == "random"


@pytest.mark.parametrize("sid", SYSTEMS)
def test_seat0_deals_the_first_hand_of_every_match(sid: str) -> None:
    g = Game(load(sid), {"first_dealer": "seat0"})
    assert {g.new_initial_state(seed).dealer for seed in range(30)} == {0}


@pytest.mark.parametrize("sid", SYSTEMS)
def test_random_draws_the_first_dealer_from_the_seed(sid: str) -> None:
    g = Game(load(sid))
    dealers = [g.new_initial_state(seed).dealer for seed in range(30)]
    assert dealers == [chance.randbelow(seed, -1, 0, g.num_players) for seed in range(30)]
    assert len(set(dealers)) > 1  # not always the same seat


@pytest.mark.parametrize("sid", SYSTEMS)
def test_the_deal_then_passes_as_the_rotation_says_under_both_readings(sid: str) -> None:
    """Two hands played by random legal actions: the second hand's dealer is the first's neighbour in the
    direction of the spec's rotation (``left``: the next seat), whoever dealt first."""
    for reading in ("random", "seat0"):
        g = Game(load(sid), {"first_dealer": reading})
        assert g.match.rotation == "left"
        for seed in range(3):
            st = g.new_initial_state(seed, hand_limit=2)
            first = st.dealer
            rng = random.Random(seed)
            while not st.is_terminal():
                st.apply(rng.choice(st.legal_actions()))
            assert [r["dealer"] for r in st.hand_results][:2] == [first, (first + 1) % g.num_players]


def test_the_readings_change_who_holds_which_hand_not_the_deal() -> None:
    """Same seed, first dealer 2 under ``random`` against 0 under ``seat0``: the same cards, dealt from another
    seat, so the seats' hands are a rotation of each other's (Euchre deals from the dealer's left)."""
    seed = next(s for s in range(100) if chance.randbelow(s, -1, 0, 4) == 2)
    a = Game(load("euchre")).new_initial_state(seed)
    b = Game(load("euchre"), {"first_dealer": "seat0"}).new_initial_state(seed)
    assert (a.dealer, b.dealer) == (2, 0)
    assert sorted(a.hands) == sorted(b.hands) and a.hands != b.hands
    assert [a.hands[(s + 2) % 4] for s in range(4)] == b.hands
