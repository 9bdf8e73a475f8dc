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


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_record_whose_first_deal_has_another_dealer_breaks_seat0(sid: str) -> None:
    """Under ``seat0`` seat 0 deals hand 0, so a record whose first deal (with no start, or a start at hand 0)
    names seat 2 as dealer breaks the reading, and the audit cites the entry; a record of a later hand, whose
    start gives that hand's number, may name any dealer; under ``random`` any seat may deal first."""
    from cardspec.engine.audit import audit
    from cardspec.engine.bulk import play_stepped
    from cardspec.engine.errors import StartRuleError
    from cardspec.engine.record import check_record, record_of

    g = Game(load(sid), {"first_dealer": "seat0"})
    st, _ = play_stepped(g, 3, "random", hand_limit=1, keep_deals=True)
    rec = record_of(st)
    assert rec["deals"][0]["dealer"] == 0
    assert audit("t: ", rec).verdict == "accepted"
    rec["deals"][0]["dealer"] = 2
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    assert v.error.path == "deals.0.dealer" and "seat 0 deals the match's first hand" in str(v.error)
    assert v.error.source is not None and v.error.source.register == "first-dealer"
    with pytest.raises(StartRuleError, match="seat 0 deals the match's first hand"):
        check_record(dict(rec, start={"hand": 0}))
    two, _ = play_stepped(g, 3, "random", hand_limit=2, keep_deals=True)
    second = dict(record_of(two)["deals"][1], dealer=2)  # hand 1, its deal given by seat 2
    assert check_record(dict(rec, deals=[second], start={"hand": 1, "dealer": 2})).dealer == 2
    rec["options"] = dict(rec["options"], first_dealer="random")
    assert check_record(rec).dealer == 2
